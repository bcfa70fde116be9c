"""The stateless replay API's input: a request object becomes a game and moves.

>>> g = game_from_request({"sheet": {"game": "crazy-eights"}, "players": 2, "dealer": 0,
...                        "hands": [["8S", "KH"], 3], "upcard": "KD"})
>>> g.replay(moves_from_events(["1:QD", "0:8S/H"]))[0], g.current_player
(2, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.cards import Card, Suit, parse_card

from .moves import KINDS, Move, SetupError
from .state import Game

__all__ = ["game_from_request", "move_from_event", "moves_from_events"]

_REQUEST_KEYS = {"sheet", "players", "dealer", "hands", "upcard", "stock", "situation",
                 "counts", "names", "events", "seed"}


def game_from_request(data: Mapping[str, Any]) -> Game:
    """Build the game a replay request describes (its ``events`` are not applied).
    ``names`` (optional) are the seats' names, used in verdict reasons."""
    if not isinstance(data, Mapping):
        raise SetupError("the request must be an object", "request")
    extra = sorted(set(data) - _REQUEST_KEYS)
    if extra:
        raise SetupError(f"unknown request field {extra[0]!r}", str(extra[0]))
    for key in ("sheet", "players", "hands", "upcard"):
        if key not in data:
            raise SetupError(f"the request needs {key!r}", key)
    return Game.start(data["sheet"], data["players"], data.get("dealer", 0), data["hands"],
                      data["upcard"], data.get("stock"), data.get("situation"),
                      data.get("counts"), data.get("seed"), data.get("names"))


def _card(value: Any, field: str, key: str) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SetupError(f"event {key} must be card text, not {value!r}", f"{field}.{key}")
    return parse_card(value)


def move_from_event(event: str | Mapping[str, Any], field: str = "event") -> Move:
    """One event: compact text (``"1:8S/D"``) or ``{"kind", "player", "card", "suit",
    "as"}``. ``field`` is what a :class:`SetupError` calls it (``events[3]``).

    >>> move_from_event({"kind": "play", "player": 0, "card": "JK", "as": "5H"})
    Move.parse('0:JK=5H')
    """
    if isinstance(event, str):
        return Move.parse(event)
    if not isinstance(event, Mapping):
        raise SetupError(f"an event must be text or an object, not {event!r}", field)
    kind, player = event.get("kind"), event.get("player")
    if kind not in KINDS:
        raise SetupError(f"event kind must be one of {', '.join(KINDS)}, not {kind!r}",
                         f"{field}.kind")
    if isinstance(player, bool) or not isinstance(player, int):
        raise SetupError(f"event player must be a seat number, not {player!r}",
                         f"{field}.player")
    suit = event.get("suit")
    named = None if suit is None else Suit.parse(str(suit))
    return Move(kind, player, _card(event.get("card"), field, "card"), named,
                _card(event.get("as"), field, "as"))


def moves_from_events(events: Iterable[str | Mapping[str, Any]]) -> list[Move]:
    """Every event as a :class:`Move` (raises on the first that cannot be read, its
    ``field`` ``events[i]...``)."""
    return [move_from_event(e, f"events[{i}]") for i, e in enumerate(events)]
