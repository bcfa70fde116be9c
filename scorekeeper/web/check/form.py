"""The play checker's form: query parameters become a replay request (see api/replay.py).

Seats on the page are numbered from 1 (or named, inside a match); the replay request
numbers them from 0. The common case is one disputed play on a described situation;
the advanced case is a list of event lines since the last undisputed moment::

    2 plays 4S        3 draws         3 draws 6D      1 plays 8C names D
    2 plays JK as 4H  2 passes        1 calls         1 names D   (dealer names the starter)
    3 draws 7C KD     3 draws 2       (several cards in one line: owed cards, a run)

Hand sizes are one count for everyone (``held``) unless a seat's own field says what it
holds (``hold-2``: ``8s kh``, ``6``, or ``8s kh +3``). Naming a ``dealer`` starts from
the deal: no situation, the upcard acts as the starter and the seat after the dealer
plays first. The request carries the seat names, so reasons say "Ann" or "Seat 2".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.cards import CardError, Suit, parse_card, parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import GAMES, LO, Sheet, SheetError
from scorekeeper.web.rules.card import sheet_from_args

MAX_EVENTS = 60
OWED_CHOICES = (0, 2, 4, 6, 8)
_VERBS = {"play": "play", "plays": "play", "draw": "draw", "draws": "draw", "pass": "pass",
          "passes": "pass", "call": "call", "calls": "call", "name": "name", "names": "name"}


class CheckError(InputError):
    """Bad form input; ``field`` is the form field to show the message on."""

    field: str  # always given, unlike the base class's

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message, field)


@dataclass
class Question:
    """What the form asks: the replay request, the question in words, the mode."""

    sheet: Sheet
    request: dict[str, Any]
    words: str
    sequence: bool
    lines: list[str] = field(default_factory=list)
    held_seats: set[int] = field(default_factory=set)  # seats (from 0) with own hands


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
    players = len(names) if names else _whole(args, "players", 4, 1, 99)
    problem = info.players_problem(players)
    if problem:
        raise CheckError(problem, "players")
    seats = list(names) if names else [f"Seat {n}" for n in range(1, players + 1)]
    up = _card_text(args, "up")
    if up is None:
        raise CheckError("Say which card is face up.", "up")
    words = [f"Upcard {parse_card(up).pretty}"]
    situation: dict[str, Any] | None = None
    dealer = _whole(args, "dealer", 0, 1, players) - 1
    if dealer >= 0:
        _check_fresh(args, seats, dealer)
        words.append(f"{seats[dealer]} dealt, play starts from the deal")
    else:
        situation = _situation(args, seats, words)
        dealer = (situation["turn"] - 1) % players
    held = _whole(args, "held", 5, 1, 30)
    hands: list[Any] = [held] * players
    for seat in range(players):
        own = _holds(args, f"hold-{seat + 1}")
        hands[seat] = held if own is None else own
    for n in range(players + 1, 8):
        if (args.get(f"hold-{n}") or "").strip():
            raise CheckError(f"There are only {players} players.", f"hold-{n}")
    request = {"sheet": {"game": sheet.game, "options": dict(sheet.options)},
               "players": players, "dealer": dealer, "upcard": up, "situation": situation,
               "names": seats, "hands": hands}
    own_seats = {s for s in range(players) if (args.get(f"hold-{s + 1}") or "").strip()}
    lines = [ln.strip() for ln in (args.get("events") or "").splitlines() if ln.strip()]
    if lines:
        request["events"] = read_lines(lines, players, names)
        text = "; ".join(words) + f": {len(lines)} play{'s' if len(lines) > 1 else ''}"
        return Question(sheet, request, text, True, lines, own_seats)
    question = _single(args, sheet, request, words, seats)
    question.held_seats = own_seats
    return question


def _situation(args: Mapping[str, str], seats: list[str], words: list[str]) -> dict[str, Any]:
    """The situation of a hand under way: turn, named suit, joker upcard, melee or owed
    (described in ``words`` too)."""
    players = len(seats)
    turn = _whole(args, "turn", 1, 1, players) - 1
    situation: dict[str, Any] = {"turn": turn}
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
        words.append(f"melee: {seats[aggressor]} attacks {seats[defender]}")
    else:
        owed = _whole(args, "owed", 0, 0, 40)
        if owed:
            situation["pending_draw"] = owed
            words.append(f"{seats[turn]} owes {owed} cards")
    return situation


def _check_fresh(args: Mapping[str, str], seats: list[str], dealer: int) -> None:
    """From the deal there is no situation: refuse the fields that would describe one."""
    described = [label for name, label in (("suit", "the suit named"),
                                           ("upas", "what a joker upcard stands for"),
                                           ("melee", "the melee"),
                                           ("drawn", "the card drawn"))
                 if (args.get(name) or "").strip()]
    if (args.get("drew") or "0").strip() not in ("", "0"):
        described.append("the cards drawn this turn")
    if (args.get("owed") or "0").strip() not in ("", "0"):
        described.append("the cards to draw")
    if described:
        raise CheckError(f"Starting from {seats[dealer]}'s deal, the upcard alone sets the "
                         f"scene: clear {' and '.join(described)}, or the dealer.", "dealer")


def _holds(args: Mapping[str, str], name: str) -> Any:
    """One seat's own hand: cards (``8s kh``), a count (``6``), or both (``8s kh +3``);
    None when the field is empty. As the replay request's ``hands`` entry."""
    words = (args.get(name) or "").replace(",", " ").split()
    if not words:
        return None
    counts = [w for w in words if w.lstrip("+").isdigit()]  # a card always has a suit
    if len(counts) > 1 or (counts and int(counts[0].lstrip("+")) > 30):
        raise CheckError("Write the cards (8s kh), a count (6), or both (8s kh +3).", name)
    try:
        cards = [str(c) for c in parse_cards(" ".join(w for w in words if w not in counts)[:400])]
    except CardError as exc:
        raise CheckError(str(exc), name) from None
    unknown = int(counts[0].lstrip("+")) if counts else 0
    if not cards and not unknown:
        raise CheckError("A seat still in the hand holds at least one card.", name)
    return {"cards": cards, "unknown": unknown} if cards and unknown else (cards or unknown)


def _single(args: Mapping[str, str], sheet: Sheet, request: dict[str, Any],
            words: list[str], seats: list[str]) -> Question:
    """One disputed play by the player in ``who`` (default: the one on turn)."""
    players, situation = request["players"], request["situation"]
    turn = situation["turn"] if situation else (request["dealer"] + 1) % players
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
    request["hands"][who] = _with_card(request["hands"][who], card)
    _drew(args, request, words, seats, who, turn)
    request["events"] = [event]
    play = parse_card(card).pretty + (f" as {parse_card(as_card).pretty}" if as_card else "")
    play += f" naming {Suit(named).label}" if named else ""
    melee = bool(situation and "melee" in situation)
    whom = seats[who] + (" (on turn)" if who == turn and not melee
                         else " (out of turn)" if who != turn else "")
    return Question(sheet, request, "; ".join(words) + f". May {whom} play {play}?", False)


def _drew(args: Mapping[str, str], request: dict[str, Any], words: list[str],
          seats: list[str], who: int, turn: int) -> None:
    """"Drew this turn": how many cards the player on turn has drawn (and the card,
    when seen), so "may I play after drawing?" is one question, not a sequence."""
    drew = _whole(args, "drew", 0, 0, 30)
    drawn = _card_text(args, "drawn")
    if drawn and not drew:
        drew = 1
    if not drew:
        return
    situation = request["situation"]
    if situation is None or "melee" in situation or situation.get("pending_draw"):
        raise CheckError("Drawing this turn goes with a plain turn: no melee, no cards owed, "
                         "not from the deal.", "drew")
    if who != turn:
        raise CheckError(f"Only the player on turn ({seats[turn]}) can have drawn this turn.",
                         "drew")
    situation["drawn"] = drew
    if drawn:
        request["hands"][who] = _with_card(request["hands"][who], drawn)
    seen = f" ({parse_card(drawn).pretty})" if drawn else ""
    words.append(f"{seats[who]} drew {drew} card{'s' if drew > 1 else ''}{seen} this turn")


def _with_card(hand: Any, card: str) -> Any:
    """The player's hand as the request gives it, holding the card they played."""
    if isinstance(hand, int):
        return {"cards": [card], "unknown": max(hand - 1, 0)}
    if isinstance(hand, list):
        return hand if card in hand else [*hand, card]
    if card in hand["cards"]:
        return hand
    return {"cards": [*hand["cards"], card], "unknown": max(hand["unknown"] - 1, 0)}


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


def _drawn(words: list[str]) -> Any:
    """``draws``, ``draws 7C``, ``draws 7C KD`` or ``draws 3`` (three unseen cards)."""
    if words and words[-1].lower() in ("card", "cards"):
        words = words[:-1]
    if not words:
        return None
    if len(words) == 1 and words[0].isdigit():
        if not 1 <= int(words[0]) <= 30:
            raise ValueError("draw from 1 to 30 cards in one line")
        return int(words[0])
    cards = [str(parse_card(w)) for w in words]
    return cards[0] if len(cards) == 1 else cards


def _event(verb: str, seat: int, words: list[str]) -> dict[str, Any]:
    event: dict[str, Any] = {"player": seat}
    if verb in ("pass", "call"):
        if words:
            raise ValueError(f"nothing follows '{verb}'")
        return event | {verb: True}
    if verb == "draw":
        return event | {"draw": _drawn(words)}
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
              ("situation.pending_draw", "owed"), ("situation.drawn", "drew"),
              ("players", "players"), ("dealer", "dealer"),
              ("events", "events"), ("hands", "card"), ("stock", "held"))
_SEAT_HAND = re.compile(r"hands\[(\d+)\]")


def form_field(api_field: str | None, sequence: bool, held_seats: set[int] | None = None
               ) -> str:
    """The form field for a replay request field (``sheet.options.x`` → ``opt-x``,
    ``hands[1]`` → ``hold-2`` when that seat's hand was given)."""
    api_field = api_field or "up"
    if api_field.startswith("sheet.options."):
        return "opt-" + api_field.removeprefix("sheet.options.")
    if api_field.startswith("events[") and not sequence:
        return "card"
    seat = _SEAT_HAND.match(api_field)
    if seat and int(seat.group(1)) in (held_seats or set()):
        return f"hold-{int(seat.group(1)) + 1}"
    for prefix, name in _FIELD_MAP:
        if api_field.startswith(prefix):
            return "held" if name == "card" and sequence else name
    return "up"
