"""The position's data: who holds what, the pile, the stock, whose turn it is.

This module holds data and the questions read straight off it (hand sizes, the next
seat, who must act); it imports no other engine module, so every other one (the
predicates, the verdicts, the listing, the effects) can read a
:class:`Position` without importing the :class:`~.state.HandInPlay` built on it.

>>> Debt(2, 2, "two", 2).left, Melee(0, 1).defender
(2, 1)
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

from scorekeeper.core.cards import Card, Deck, Rank, Suit

__all__ = ["Debt", "Melee", "Position", "Snapshot"]


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
    """Everything a move can change, for comparing two positions (lists are copies)."""

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
    passes_taken: tuple[tuple[int, str], ...]


class Position:
    """One hand's position. Seats are numbered from 0 clockwise; ``direction`` is 1
    (clockwise) or -1. ``stock`` and ``pile`` are lists with the top card last; None
    marks a card nobody has seen. ``variant`` is the sheet's facts
    (:class:`~.variant.Variant`); ``wild`` each seat's wild rank. ``passes_taken`` lists
    the passes the engine took since the last play or draw, each as the seat and why
    its turn had nothing else left (:func:`.facts.only_pass_left`'s answer), so a pass
    the table writes out for them is still accepted (``forced``: those seats).

    Attributes are plain and public for speed and for tests; the effects change them,
    and :meth:`take` (a move taken back), nothing else.
    """

    __slots__ = (
        "active_suit",
        "counts",
        "dealer",
        "debts",
        "deck",
        "direction",
        "drawn",
        "free_play",
        "known",
        "known_stock",
        "melee",
        "melee_suit",
        "names",
        "naming",
        "passes",
        "passes_taken",
        "pile",
        "players",
        "rank_open",
        "refills",
        "result",
        "seed",
        "stock",
        "turn",
        "uncalled",
        "unknown",
        "upcard_as",
        "variant",
        "wild",
        "winner",
    )

    def __init__(self, variant: Any, players: int, dealer: int, deck: Deck,
                 counts: list[int] | None = None, seed: int | None = None,
                 names: list[str] | None = None) -> None:
        self.variant = variant
        self.players = players
        self.names = names
        self.dealer = dealer
        self.deck = deck
        self.counts = counts
        self.wild: list[Rank] = ([Rank(c) for c in counts] if counts
                                 else [Rank.EIGHT] * players)
        self.seed = seed
        self.known_stock = False
        self.known: list[list[Card]] = [[] for _ in range(players)]
        self.unknown = [0] * players
        self.stock: list[Card | None] = []
        self.pile: list[Card | None] = []
        self.upcard_as: Card | None = None
        self.active_suit: Suit | None = None
        self.rank_open = True
        self.turn = (dealer + 1) % players
        self.direction = 1
        self.debts: list[Debt] = []
        self.melee: Melee | None = None
        self.melee_suit: Suit | None = None
        self.free_play = False
        self.drawn = 0
        self.naming = False
        self.uncalled = -1
        self.passes = 0
        self.winner: int | None = None
        self.result: str | None = None
        self.refills = 0
        self.passes_taken: tuple[tuple[int, str], ...] = ()

    def copy(self) -> Position:
        """A copy of this position with lists of its own: judging a move after an
        unsaid pass works on a copy, never on the position itself.

        >>> p = Position(None, 2, 0, None); q = p.copy(); q.known[0].append("card")
        >>> p.known, q.known
        ([[], []], [['card'], []])
        """
        other = Position.__new__(Position)  # take() sets every slot: no __init__ to run
        other.take(self)
        return other

    def take(self, other: Position) -> None:
        """Become the position ``other`` is, with lists of its own (cards are frozen
        and debts lists are replaced, never changed, so both are shared)."""
        # One C call reads every slot (_SLOTS); with the copy's __init__ left out, a
        # copy (one a deal, kept for taking moves back) costs about 36,700 instructions
        # instead of 45,000.
        for name, value in zip(Position.__slots__, _SLOTS(other), strict=True):
            setattr(self, name, value)
        self.known = [k[:] for k in other.known]
        self.unknown, self.stock, self.pile = other.unknown[:], other.stock[:], other.pile[:]

    @property
    def upcard(self) -> Card:
        """The top card of the discard pile (a joker stays a joker; see upcard_as)."""
        return self.pile[-1]  # type: ignore[return-value]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended and every owed card has been drawn."""
        return self.result is not None and not self.debts

    @property
    def forced(self) -> tuple[int, ...]:
        """The seats whose pass the engine took since the last play or draw, in order
        (see ``passes_taken``)."""
        return tuple(seat for seat, _ in self.passes_taken)

    @property
    def current_player(self) -> int | None:
        """The seat that must act next (None when the hand is over). In a melee this
        is the defender; others may still play out of turn."""
        if self.result is not None and not self.debts:
            return None
        if self.debts:
            return self.debts[0].seat
        if self.naming:
            return self.dealer
        if self.melee is not None:
            return self.melee.defender
        return self.turn

    def phase(self) -> str:
        """What the hand waits for, in the order the rules settle it: ``debt`` (a seat
        owes cards, even after the hand ended), ``over``, ``naming`` (the dealer names
        the starter), ``melee``, ``free`` (a 3's free play) or ``turn`` (the seat on
        turn plays, draws or passes). The verdicts and the listing both ask it. A
        method, not a property: the listing asks it once a move, and a property's
        getter costs about half as much again to call."""
        if self.debts:
            return "debt"
        if self.result is not None:
            return "over"
        if self.naming:
            return "naming"
        if self.melee is not None:
            return "melee"
        return "free" if self.free_play else "turn"

    def seat_name(self, seat: int) -> str:
        """How verdict reasons name a seat: its name when the game was given names,
        else ``seat 2`` (seats count from 0)."""
        return self.names[seat] if self.names else f"seat {seat}"

    def hand_size(self, seat: int) -> int:
        """Cards a seat holds, seen or not."""
        return len(self.known[seat]) + self.unknown[seat]

    def hand_sizes(self) -> list[int]:
        """Cards each seat holds."""
        return [len(k) + u for k, u in zip(self.known, self.unknown, strict=True)]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + self.direction * steps) % self.players

    def state_key(self) -> Snapshot:
        """Everything that defines the position, for comparing two states."""
        return Snapshot([k[:] for k in self.known], self.unknown[:], self.stock[:],
                        self.pile[:], self.upcard_as, self.active_suit, self.rank_open,
                        self.turn, self.direction, self.debts[:], self.melee, self.melee_suit,
                        self.free_play, self.drawn, self.naming, self.uncalled, self.passes,
                        self.winner, self.result, self.refills, self.passes_taken)


_SLOTS = attrgetter(*Position.__slots__)  # every slot's value at once, for Position.take
