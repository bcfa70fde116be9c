"""The hand form: who went out (or blocked), each player's cards, and what it shows.

Card text is parsed here, at the boundary; a bad token is reported on that player's
field. Deck and sheet checks (a card twice, jokers, the player who went out holding
cards) are left to :mod:`records`, which reports the field at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.core.cards import (
    JOKER,
    Card,
    CardError,
    Rank,
    Suit,
    card,
    format_cards,
    parse_cards,
)
from scorekeeper.core.deal import NINE, deal_problem
from scorekeeper.core.scoring import card_points
from scorekeeper.core.sheets import LO, Sheet
from scorekeeper.core.text import FieldError, clean_int
from scorekeeper.store.models import Hand

BLOCKED = "none"


@dataclass
class HandInput:
    """A parsed hand form; ``errors`` maps field names to messages."""

    number: int = 0
    out: int | None = None
    held: list[list[Card]] = field(default_factory=list)
    hand_size: int | None = None
    errors: dict[str, str] = field(default_factory=dict)


def parse_hand(form: Mapping[str, str], sheet: Sheet, in_play: tuple[bool, ...]) -> HandInput:
    """Read the form for a table whose seats still playing are ``in_play``."""
    result = HandInput(held=[[] for _ in in_play])
    try:
        result.number = clean_int(form.get("number"), "number", 1, 10_000)
    except FieldError:
        result.errors["number"] = "This form lost its hand number; reload the page."
    out = form.get("out", "")
    if out == BLOCKED:
        result.out = None
    elif out.isdigit() and int(out) < len(in_play) and in_play[int(out)]:
        result.out = int(out)
    else:
        result.errors["out"] = "Choose who went out, or that nobody could (blocked)."
    for seat, playing in enumerate(in_play):
        text = form.get(f"seat-{seat}", "")
        if not text.strip():
            continue
        if not playing:
            result.errors["cards"] = f"Seat {seat + 1} is out of the match and holds no cards."
            continue
        if len(text) > 500:
            result.errors[f"seat-{seat}"] = "That is far more cards than a hand can hold."
            continue
        try:
            result.held[seat] = parse_cards(text)
        except CardError as exc:
            result.errors[f"seat-{seat}"] = str(exc)
    for key in form:
        if key.startswith("seat-") and key not in {f"seat-{s}" for s in range(len(in_play))}:
            result.errors["cards"] = f"There is no player {key!r} at this table."
    size = form.get("hand_size", "").strip()
    if sheet.game == LO and size and size != str(sheet["hand_size"]):
        try:
            result.hand_size = clean_int(size, "hand_size", 4, 9)
        except FieldError as exc:
            result.errors["hand_size"] = "Cards dealt this hand: 4 to 9. " + exc.message
        else:
            problem = deal_problem(sheet, sum(in_play), result.hand_size,
                                   bool(form.get("agree_nine")), "tick the box")
            if problem:
                result.errors["hand_size"] = problem
    return result


def form_values(hand: Hand) -> dict[str, str]:
    """A stored hand as form data, to edit it."""
    values = {"number": str(hand.number),
              "out": BLOCKED if hand.out_seat is None else str(hand.out_seat),
              "hand_size": "" if hand.hand_size is None else str(hand.hand_size)}
    if hand.hand_size == NINE:
        values["agree_nine"] = "yes"  # it was agreed when the hand was recorded
    for entry in hand.entries:
        values[f"seat-{entry.seat}"] = format_cards(parse_cards(entry.cards))
    return values


def same_as_stored(hand: Hand, entry: HandInput) -> bool:
    """Whether a submitted hand is exactly the stored one (a double tap, not a clash)."""
    stored = {e.seat: e.cards for e in hand.entries}
    return hand.out_seat == entry.out and hand.hand_size == entry.hand_size and all(
        stored.get(seat, "") == format_cards(cards) for seat, cards in enumerate(entry.held))


def picker_data(sheet: Sheet) -> str:
    """Card points for the live preview, as JSON: rank label (and ``JK``) → points."""
    points = {r.label: card_points(sheet.game, card(r, Suit.SPADES)) for r in Rank}
    if sheet.game == LO:
        points["JK"] = card_points(LO, JOKER)
    return json.dumps(points, separators=(",", ":"))
