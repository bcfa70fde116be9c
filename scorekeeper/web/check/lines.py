"""Event lines of the play checker's advanced part, as the engine's moves.

Seats are counted from 1 (or named, inside a match)::

    2 plays 4S        3 draws         3 draws 6D      1 plays 8C names D
    2 plays JK as 4H  2 passes        1 calls         1 names D   (dealer names the starter)
    3 draws 7C KD     3 draws 2       (several cards in one line: owed cards, a run)

A line the core cannot read is an :class:`InputError` on the ``events`` field, saying
which line and why.
"""

from __future__ import annotations

from scorekeeper.core.cards import Card, CardError, Suit, parse_card
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.errors import InputError

MAX_EVENTS = 60
_VERBS = {"play": "play", "plays": "play", "draw": "draw", "draws": "draw", "pass": "pass",
          "passes": "pass", "call": "call", "calls": "call", "name": "name", "names": "name"}


def _split(text: str) -> tuple[str, str, list[str]] | None:
    """Who (the words before the first verb), the verb and the words after it; None
    when no verb follows a first word."""
    words = text.split()
    for at in range(1, len(words)):
        if words[at].lower() in _VERBS:
            return " ".join(words[:at]), words[at].lower(), words[at + 1:]
    return None


def _seat(who: str, players: int, names: list[str] | None) -> int | None:
    if who.isdigit() and 1 <= int(who) <= players:
        return int(who) - 1
    lowered = [n.lower() for n in names or []]
    return lowered.index(who.lower()) if who.lower() in lowered else None


def read_lines(lines: tuple[str, ...], players: int, names: list[str] | None
               ) -> tuple[tuple[Move, ...], ...]:
    """Event lines (``2 plays 8C names D``), each as its moves; seats counted from 1."""
    if len(lines) > MAX_EVENTS:
        raise InputError(f"At most {MAX_EVENTS} lines.", "events")
    return tuple(_line(text[:200], n, players, names) for n, text in enumerate(lines, 1))


def _line(text: str, n: int, players: int, names: list[str] | None) -> tuple[Move, ...]:
    found = _split(text)
    seat = _seat(found[0], players, names) if found else None
    if found is None or seat is None:
        raise InputError(f"Line {n} ({text!r}): write who (seat 1–{players}"
                         f"{' or a name' if names else ''}) then plays, draws, passes, "
                         "calls or names, e.g. '2 plays 8C names D'.", "events")
    verb, words = _VERBS[found[1]], found[2]
    try:
        return _event(verb, seat, words)
    except (CardError, IndexError, ValueError) as exc:
        raise InputError(f"Line {n} ({text!r}): {exc}", "events") from None


def _drawn(seat: int, words: list[str]) -> tuple[Move, ...]:
    """``draws``, ``draws 7C``, ``draws 7C KD`` or ``draws 3`` (three unseen cards)."""
    if words and words[-1].lower() in ("card", "cards"):
        words = words[:-1]
    if len(words) == 1 and words[0].isdigit():
        if not 1 <= int(words[0]) <= 30:
            raise ValueError("draw from 1 to 30 cards in one line")
        return (Move.draw(seat),) * int(words[0])
    return tuple(Move.draw(seat, parse_card(w)) for w in words) or (Move.draw(seat),)


def _event(verb: str, seat: int, words: list[str]) -> tuple[Move, ...]:
    if verb in ("pass", "call"):
        if words:
            raise ValueError(f"nothing follows '{verb}'")
        return (Move.pass_(seat) if verb == "pass" else Move.call(seat),)
    if verb == "draw":
        return _drawn(seat, words)
    card = parse_card(words.pop(0)) if verb == "play" else None
    suit, as_card = _named(words, card is None)
    if card is None:
        return (Move.name(seat, suit, as_card),)
    return (Move.play(seat, card, suit, as_card),)


def _named(words: list[str], naming: bool) -> tuple[Suit | None, Card | None]:
    """What a play or a naming says after its card: the suit (``names D``, or first
    for a ``naming``: ``1 names D``) and the card a joker stands for (``as 5H``)."""
    suit: Suit | None = None
    as_card: Card | None = None
    if naming and words and words[0].lower() not in ("as", "names", "name"):
        first = words.pop(0)
        try:
            suit = Suit.parse(first)
        except CardError:
            as_card = parse_card(first)
    while words:
        key, value = words.pop(0).lower(), words.pop(0)
        if key == "as":
            as_card = parse_card(value)
        elif key in ("names", "name", "naming"):
            suit = Suit.parse(value)
        else:
            raise ValueError(f"write 'names <suit>' or 'as <card>', not {key!r}")
    return suit, as_card
