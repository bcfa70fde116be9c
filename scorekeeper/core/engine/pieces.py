"""The small named records a hand's state is made of: owed cards, a melee, a snapshot.

They are named tuples, so they compare equal to plain tuples (handy in tests) while the
engine reads them by name (``debt.left``, ``melee.defender``) rather than by position.

>>> Debt(2, 2, "two", 2).left, Melee(0, 1).defender
(2, 1)
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Debt", "Melee", "Snapshot"]


class Debt(NamedTuple):
    """Cards a seat owes: ``reason`` is ``two`` (a 2), ``melee`` (a melee's last card)
    or ``penalty`` (a missed call); ``left`` still to draw, ``total`` owed at first."""

    seat: int
    left: int
    reason: str
    total: int


class Melee(NamedTuple):
    """A Last One melee in progress: who played the last card of the run, and who
    draws if nobody continues it."""

    aggressor: int
    defender: int


class Snapshot(NamedTuple):
    """Everything that defines a position, copied (lists are copies): what
    ``state_key`` compares two states by. Undo keeps a smaller record, of what each move
    changed (``undo.py``)."""

    known: list[Any]
    unknown: list[int]
    stock: list[Any]
    pile: list[Any]
    upcard_as: Any
    active_suit: Any
    rank_open: bool
    turn: int
    direction: int
    debts: list[Debt]
    melee: Melee | None
    melee_suit: Any
    free_play: bool
    drawn: int
    naming: bool
    uncalled: int
    passes: int
    winner: int | None
    result: str | None
    refills: int
