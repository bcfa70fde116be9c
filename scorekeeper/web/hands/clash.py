"""When another phone changed a match first: what the hand pages tell the person.

Nothing is saved; the person lands on the scoreboard (the current state) with a message
saying what happened and what they had entered, so they can redo it. Forms carry what
they were built from — the edit form the match's ``version``, the delete button the
number of the hand it deletes — so a change made in between is caught even when the
two writes never meet in the database (there, :class:`records.ConflictError` does it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass

from scorekeeper.core.cards import Card, CardError, format_cards, parse_cards
from scorekeeper.store.match_views import HandView, MatchView, PlayerView
from scorekeeper.web.hands.forms import seat_name

SHOWN = 60  # characters of one player's typed cards repeated back in a message


def entered(match: MatchView, form: Mapping[str, str]) -> str:
    """What the form held, per player: ``Bo: 5♣ 6♣; Cy: 7♦`` (``no cards`` if none)."""
    parts = []
    for seat in match.seats:
        text = form.get(seat_name(seat.position), "").strip()[:SHOWN]
        if not text:
            continue
        with suppress(CardError):  # else repeat it as typed
            text = format_cards(parse_cards(text), pretty=True)
        parts.append(f"{seat.player.name}: {text}")
    return "; ".join(parts) or "no cards"


def changed_since(match: MatchView, form: Mapping[str, str]) -> bool:
    """Whether the match changed after the form was shown (its ``version`` moved on)."""
    shown = form.get("version", "")
    return bool(shown) and shown != str(match.version)


def recorded_clash(match: MatchView, number: int, form: Mapping[str, str]) -> str:
    """A new hand whose number another phone recorded first, or that is past the next
    hand (a hand deleted on another phone since the form was shown)."""
    if number > match.hand_count + 1:
        what = (f"hand {number} is not the next hand: this match has {match.hand_count} "
                f"hand{'' if match.hand_count == 1 else 's'}, so the next is hand "
                f"{match.hand_count + 1} (another phone may have deleted one)")
    else:
        what = f"hand {number} was already recorded, probably from another phone"
    return (f"Not saved: {what}. Here is the current score. "
            f"What you entered: {entered(match, form)}.")


def edit_clash(match: MatchView, number: int, form: Mapping[str, str]) -> str:
    """An edit of hand ``number`` after another phone changed the match."""
    if number > match.hand_count:
        what, again = f"hand {number} was deleted on another phone", ""
    else:
        what = f"another phone changed this match while you were editing hand {number}"
        again = f"; open hand {number} again to make your change"
    return (f"Not saved: {what}. Here is the current score{again}. "
            f"What you entered: {entered(match, form)}.")


def delete_stale(match: MatchView, shown: str) -> bool:
    """Whether the delete button was for another hand than the current last one."""
    return bool(shown) and shown != str(match.hand_count)


def delete_clash(match: MatchView, shown: str) -> str:
    """A delete of the last hand after another phone changed the match."""
    newest = f"the newest is hand {match.hand_count}" if match.hand_count else "there are no hands"
    which = f"hand {shown}" if shown.isdigit() and len(shown) < 6 else "that hand"
    return (f"Nothing deleted: the match changed on another phone since this page was "
            f"shown, so {which} is not the last hand ({newest}). Here is the current "
            "score; delete again if you still mean to.")


RACED_DELETE = ("Nothing deleted: another phone changed this match at the same moment. "
                "Here is the current score; delete again if you still mean to.")


@dataclass(frozen=True)
class SeatPair:
    """One player's line of the same-hand question: what the recorded hand and the new
    one say of them (``None``: went out)."""

    player: PlayerView
    stored: Sequence[Card] | None
    new: Sequence[Card] | None


def side_by_side(match: MatchView, stored: HandView, out: int | None,
                 held: Sequence[Sequence[Card]]) -> list[SeatPair]:
    """The hand the writer found the new one to look like, beside it, seat by seat:
    the person sees both before recording the new one anyway."""
    cards = {entry.seat: parse_cards(entry.cards) for entry in stored.entries}
    return [SeatPair(seat.player,
                     None if stored.out_seat == seat.position else cards.get(seat.position, []),
                     None if out == seat.position else held[seat.position])
            for seat in match.seats]
