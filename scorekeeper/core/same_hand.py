"""A hand goes in once: when a new hand looks like one already in the match.

Two phones at one table (or one phone's queue coming back online) can send the same
hand twice, and a doubled hand silently corrupts every total, elimination and rating
after it. A new hand *looks like* a stored one when the same seat went out (or both
were blocked) and every seat holds the same cards, in any order, with at least one
card entered in the hand. A Countdown hand carries no cards, so "Ann went out again"
never looks like anything: the same player going out twice is an ordinary evening.

The one writer (:func:`scorekeeper.store.records.record_hand`) asks :func:`same_as`
with the hand that took the number the request asked for (another phone was quicker)
and the match's last hand, and refuses with
:class:`~scorekeeper.core.errors.SameHandError` unless the request says the hand is
meant; every client renders that question.

>>> from scorekeeper.core.cards import parse_cards
>>> sheet = Sheet.make("last-one")
>>> last = HandResult.of(1, [parse_cards("9h 6d"), [], parse_cards("ks")])
>>> looks_like(sheet, HandResult.of(1, [parse_cards("6d 9h"), [], parse_cards("ks")]), last)
True
>>> blocked = HandResult.of(None, [parse_cards("ks"), [], parse_cards("9h 6d")])
>>> same_as(sheet, HandResult.of(1, [parse_cards("ks"), [], parse_cards("9h 6d")]),
...         [(2, blocked), (3, last)]) is None
True
>>> same_as(sheet, HandResult.of(1, [parse_cards("6d 9h"), [], parse_cards("ks")]),
...         [(2, blocked), (3, last)])
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from scorekeeper.core.scoring import HandResult, hands_carry_cards
from scorekeeper.core.sheets import Sheet

__all__ = ["carries_cards", "looks_like", "same_as"]


def carries_cards(sheet: Sheet, hand: HandResult) -> bool:
    """Whether the hand can look like another: its game's hands carry cards and a seat
    holds one. A Countdown hand never does (it scores who went out alone, whatever a
    client sent as ``held``), so the writer need not read a stored hand for it."""
    return hands_carry_cards(sheet) and any(hand.held)


def looks_like(sheet: Sheet, new: HandResult, old: HandResult) -> bool:
    """Whether ``new`` is most likely ``old`` sent again: the same seat out (or both
    blocked), every seat's cards the same whatever their order, at least one card."""
    return (new.out == old.out and carries_cards(sheet, new) and len(new.held) == len(old.held)
            and all(Counter(mine) == Counter(theirs)
                    for mine, theirs in zip(new.held, old.held, strict=True)))


def same_as(sheet: Sheet, new: HandResult, stored: Iterable[tuple[int, HandResult]]
            ) -> int | None:
    """The number of the first stored hand (``(number, hand)`` pairs, the one that took
    the asked number first) that ``new`` looks like, or None."""
    return next((number for number, old in stored if looks_like(sheet, new, old)), None)
