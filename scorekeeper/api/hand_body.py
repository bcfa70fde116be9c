"""Reading a hand from a JSON body: who went out, each seat's cards, the deal size.

Bodies name seats by index (0 is the first seat, clockwise). ``held`` gives the cards
each seat still holds, as an object keyed by seat index or a list with one entry per
seat; the seat that went out and seats already out of the match may be left out. In
Countdown, whose hands carry no cards (:func:`~scorekeeper.core.scoring.hands_carry_cards`,
the rule the hand page follows too), ``held`` may be left out, empty, or name only
some seats.
Errors are :class:`InputError` naming the input at fault (``held.<seat>``, ``out``...).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.api.common import json_object, out_or_blocked, seat_cards
from scorekeeper.core.cards import Card
from scorekeeper.core.deal import deal_problem
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import hands_carry_cards
from scorekeeper.core.sheets import GAMES, OPTIONS
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.reading import current_standings, match_names, match_sheet

__all__ = ["Held", "hand_body"]

HAND_SIZE = OPTIONS["hand_size"]

Held = list[list[Card]]


def _parse_out(data: dict[str, Any], seats: int) -> int | None:
    out = out_or_blocked(data)
    if out is None:
        return None
    if not isinstance(out, int) or isinstance(out, bool) or not 0 <= out < seats:
        raise InputError(f"out must be a seat index from 0 to {seats - 1}, not {out!r}", "out")
    return out


def _entries(data: Any, seats: int) -> dict[int, Any]:
    """``held`` as ``{seat index: raw entry}``; unknown seats are refused."""
    if isinstance(data, list):
        if len(data) != seats:
            raise InputError(f"held must list the cards of all {seats} seats", "held")
        return dict(enumerate(data))
    if not isinstance(data, dict):
        raise InputError("held must map each seat index to the cards it holds", "held")
    entries = {}
    for key, value in data.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 2 and int(key) < seats):
            raise InputError(f"{key!r} is not a seat index of this match", f"held.{key}")
        entries[int(key)] = value
    return entries


def _parse_held(data: Any, names: list[str], out: int | None, playing: list[bool],
                cards: bool) -> Held:
    """Each seat's cards; a seat out of the match (before this hand) may be omitted,
    and every seat when hands carry no ``cards``."""
    entries = {} if not (cards or data) else _entries(data, len(names))
    held = []
    for seat, name in enumerate(names):
        optional = seat == out or not playing[seat] or not cards
        text = entries.get(seat, "" if optional else None)
        held.append(seat_cards(text, name, f"held.{seat}", lists=True))
    return held


def _hand_size(data: dict[str, Any], match: MatchView, players: int) -> int | None:
    """Last One's deal size for this hand: it must leave an upcard, and nine cards each
    needs ``agree_nine``. Other games and sizes out of range are left to the records."""
    size, agreed = data.get("hand_size"), data.get("agree_nine", False)
    if size is not None and (not isinstance(size, int) or isinstance(size, bool)):
        raise InputError("hand_size must be a whole number of cards", "hand_size")
    if not isinstance(agreed, bool):
        raise InputError("agree_nine must be true or false", "agree_nine")
    if (size is not None and GAMES[match.game].deal == "hand_size"
            and HAND_SIZE.allows(size)):
        problem = deal_problem(match_sheet(match), players, size, agreed,
                               "send agree_nine: true")
        if problem:
            raise InputError(problem, "hand_size")
    return size


def hand_body(match: MatchView, number: int) -> tuple[int | None, Held, int | None]:
    """The request body of hand ``number``: who went out, each seat's cards, deal size."""
    data = json_object()
    out = _parse_out(data, len(match.seats))
    fallen = current_standings(match).eliminated
    playing = [fallen.get(seat, number) >= number for seat in range(len(match.seats))]
    held = _parse_held(data.get("held"), match_names(match), out, playing,
                       hands_carry_cards(match_sheet(match)))
    return out, held, _hand_size(data, match, sum(playing))
