"""The play checker's form: query parameters become a replay request (see api/replay.py).

Seats on the page are numbered from 1 (or named, inside a match); the replay request
numbers them from 0. The common case is one disputed play on a described situation;
the advanced case is a list of event lines since the last undisputed moment::

    2 plays 4S        3 draws         3 draws 6D      1 plays 8C names D
    2 plays JK as 4H  2 passes        1 calls         1 names D   (dealer names the starter)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import CardError, Suit, parse_card
from .rules import sheet_from_args
from .sheets import GAMES, LO, Sheet, SheetError

MAX_EVENTS = 60
OWED_CHOICES = (0, 2, 4, 6, 8)
_VERBS = {"play": "play", "plays": "play", "draw": "draw", "draws": "draw", "pass": "pass",
          "passes": "pass", "call": "call", "calls": "call", "name": "name", "names": "name"}


class CheckError(ValueError):
    """Bad form input; ``field`` is the form field to show the message on."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class Question:
    """What the form asks: the replay request, the question in words, the mode."""

    sheet: Sheet
    request: dict[str, Any]
    words: str
    sequence: bool
    lines: list[str] = field(default_factory=list)


def read_sheet(args: Mapping[str, str]) -> Sheet:
    """The sheet from ``game`` and ``o.<option>`` parameters (no match)."""
    game = args.get("game") or LO
    if game not in GAMES:
        raise CheckError(f"There is no game called {game!r} here.", "game")
    values = {k[4:]: v for k, v in args.items() if k.startswith("opt-") and v.strip()}
    try:
        return sheet_from_args({"game": game, **values})
    except SheetError as exc:
        raise CheckError(str(exc), f"opt-{exc.field.removeprefix('options.')}") from None


def _whole(args: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = (args.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise CheckError(f"Pick a number from {low} to {high}, not {raw[:20]!r}.", name)
    return int(raw)


def _card_text(args: Mapping[str, str], name: str) -> str | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        return None
    try:
        return str(parse_card(raw[:40]))
    except CardError as exc:
        raise CheckError(str(exc), name) from None


def _suit_text(args: Mapping[str, str], name: str) -> str | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        return None
    try:
        return Suit.parse(raw[:20]).value
    except CardError as exc:
        raise CheckError(str(exc), name) from None


def is_asked(args: Mapping[str, str]) -> bool:
    """Whether the form describes a question yet (an upcard and a play or events)."""
    return bool((args.get("up") or "").strip()) and bool(
        (args.get("card") or "").strip() or (args.get("events") or "").strip())


def read(args: Mapping[str, str], sheet: Sheet, names: list[str] | None = None) -> Question:
    """The replay request the form describes, or :class:`CheckError`."""
    info = sheet.game_info
    players = len(names) if names else _whole(args, "players", 4, info.min_players,
                                              info.max_players)
    seat_name = (lambda s: names[s]) if names else (lambda s: f"Seat {s + 1}")
    up = _card_text(args, "up")
    if up is None:
        raise CheckError("Say which card is face up.", "up")
    held = _whole(args, "held", 5, 1, 30)
    turn = _whole(args, "turn", 1, 1, players) - 1
    situation: dict[str, Any] = {"turn": turn}
    words = [f"Upcard {parse_card(up).pretty}"]
    suit = _suit_text(args, "suit")
    if suit:
        situation["active_suit"] = suit
        words.append(f"{Suit(suit).label} named")
    upas = _card_text(args, "upas")
    if upas:
        situation["upcard_as"] = upas
    if args.get("melee"):
        aggressor = _whole(args, "ma", 1, 1, players) - 1
        defender = _whole(args, "md", 2 if players > 1 else 1, 1, players) - 1
        situation["melee"] = {"aggressor": aggressor, "defender": defender}
        words.append(f"melee: {seat_name(aggressor)} attacks {seat_name(defender)}")
    else:
        owed = _whole(args, "owed", 0, 0, 40)
        if owed:
            situation["pending_draw"] = owed
            words.append(f"{seat_name(turn)} owes {owed} cards")
    request = {"sheet": {"game": sheet.game, "options": dict(sheet.options)},
               "players": players, "dealer": (turn - 1) % players, "upcard": up,
               "situation": situation}
    lines = [ln.strip() for ln in (args.get("events") or "").splitlines() if ln.strip()]
    if lines:
        request["hands"] = [held] * players
        request["events"] = read_lines(lines, players, names)
        return Question(sheet, request, "; ".join(words) + f": {len(lines)} plays", True,
                        lines)
    return _single(args, sheet, request, words, held, seat_name)


def _single(args: Mapping[str, str], sheet: Sheet, request: dict[str, Any],
            words: list[str], held: int, seat_name: Any) -> Question:
    """One disputed play by the player in ``who`` (default: the one on turn)."""
    players, turn = request["players"], request["situation"]["turn"]
    card = _card_text(args, "card")
    if card is None:
        raise CheckError("Say which card was played.", "card")
    who = _whole(args, "who", turn + 1, 1, players) - 1
    event: dict[str, Any] = {"player": who, "play": card}
    named, as_card = _suit_text(args, "csuit"), _card_text(args, "cas")
    if named:
        event["suit"] = named
    if as_card:
        event["as"] = as_card
    hands: list[Any] = [held] * players
    hands[who] = {"cards": [card], "unknown": held - 1}
    request |= {"hands": hands, "events": [event]}
    play = parse_card(card).pretty + (f" as {parse_card(as_card).pretty}" if as_card else "")
    play += f" naming {Suit(named).label}" if named else ""
    whom = seat_name(who) + (" (on turn)" if who == turn and "melee" not in
                             request["situation"] else " (out of turn)" if who != turn else "")
    return Question(sheet, request, "; ".join(words) + f". May {whom} play {play}?", False)


_LINE = re.compile(r"^(?P<who>.+?)\s+(?P<verb>plays?|draws?|pass(?:es)?|calls?|names?)"
                   r"(?:\s+(?P<rest>.*))?$", re.IGNORECASE)


def _seat(who: str, players: int, names: list[str] | None) -> int | None:
    if who.isdigit() and 1 <= int(who) <= players:
        return int(who) - 1
    lowered = [n.lower() for n in names or []]
    return lowered.index(who.lower()) if who.lower() in lowered else None


def read_lines(lines: list[str], players: int, names: list[str] | None) -> list[dict]:
    """Event lines (``2 plays 8C names D``) as replay events; seats counted from 1."""
    if len(lines) > MAX_EVENTS:
        raise CheckError(f"At most {MAX_EVENTS} lines.", "events")
    return [_line(text[:200], n, players, names) for n, text in enumerate(lines, 1)]


def _line(text: str, n: int, players: int, names: list[str] | None) -> dict[str, Any]:
    found = _LINE.match(text)
    seat = _seat(found.group("who").strip(), players, names) if found else None
    if found is None or seat is None:
        raise CheckError(f"Line {n} ({text!r}): write who (seat 1–{players}"
                         f"{' or a name' if names else ''}) then plays, draws, passes, "
                         "calls or names, e.g. '2 plays 8C names D'.", "events")
    verb = _VERBS[found.group("verb").lower()]
    words = (found.group("rest") or "").split()
    try:
        return _event(verb, seat, words)
    except (CardError, IndexError, ValueError) as exc:
        raise CheckError(f"Line {n} ({text!r}): {exc}", "events") from None


def _event(verb: str, seat: int, words: list[str]) -> dict[str, Any]:
    event: dict[str, Any] = {"player": seat}
    if verb in ("pass", "call"):
        if words:
            raise ValueError(f"nothing follows '{verb}'")
        return event | {verb: True}
    if verb == "draw":
        if len(words) > 1:
            raise ValueError("draw takes at most the card drawn")
        return event | {"draw": str(parse_card(words[0])) if words else None}
    if verb == "play":
        event["play"] = str(parse_card(words.pop(0)))
    else:
        event["name"] = True
        if words and words[0].lower() not in ("as", "names", "name"):
            first = words.pop(0)
            try:
                event["suit"] = Suit.parse(first).value
            except CardError:
                event["as"] = str(parse_card(first))
    while words:
        key, value = words.pop(0).lower(), words.pop(0)
        if key == "as":
            event["as"] = str(parse_card(value))
        elif key in ("names", "name", "naming"):
            event["suit"] = Suit.parse(value).value
        else:
            raise ValueError(f"write 'names <suit>' or 'as <card>', not {key!r}")
    return event


# Which form field shows a replay error, by the request field it names.
_FIELD_MAP = (("upcard", "up"), ("situation.turn", "turn"), ("situation.active_suit", "suit"),
              ("situation.upcard_as", "upas"), ("situation.melee", "melee"),
              ("situation.pending_draw", "owed"), ("players", "players"),
              ("events", "events"), ("hands", "card"), ("stock", "held"))


def form_field(api_field: str | None, sequence: bool) -> str:
    """The form field for a replay request field (``sheet.options.x`` → ``o.x``)."""
    api_field = api_field or "up"
    if api_field.startswith("sheet.options."):
        return "opt-" + api_field.removeprefix("sheet.options.")
    if api_field.startswith("events[") and not sequence:
        return "card"
    for prefix, name in _FIELD_MAP:
        if api_field.startswith(prefix):
            return "held" if name == "card" and sequence else name
    return "up"
