"""The moves a table can make, each built once: a :class:`MoveBook` per variant.

Listing moves is what a simulation does most, and building frozen dataclasses is its
slow part; moves are values, so one object per (seat, card, suit, named card) serves
every position. A :class:`~.variant.Variant` owns its book, sized for the game's
largest table, so nothing here is module-level or unbounded.

>>> book = MoveBook(3)
>>> book.draws[2], book.play(0, JOKER, None, None) is book.play(0, JOKER, None, None)
(Move.parse('2:draw'), True)
"""

from __future__ import annotations

from scorekeeper.core.cards import JOKER, Card, Suit
from scorekeeper.core.engine.moves import Move

__all__ = ["JOKER", "MoveBook"]

SUITS = tuple(Suit)


class _SeatPlays(dict[Card, Move]):
    """One seat's plays of each card naming nothing, built on first use."""

    def __init__(self, book: MoveBook, seat: int) -> None:
        super().__init__()
        self.book, self.seat = book, seat

    def __missing__(self, c: Card) -> Move:
        move = self[c] = self.book.play(self.seat, c, None, None)
        return move


class _SeatWilds(dict[Card, list[Move]]):
    """One seat's plays of each card naming each suit in turn, built on first use (a
    wild card's plays): only the cards played as wild get them."""

    def __init__(self, book: MoveBook, seat: int) -> None:
        super().__init__()
        self.book, self.seat = book, seat

    def __missing__(self, c: Card) -> list[Move]:
        moves = self[c] = self.book.suited(self.seat, c)
        return moves


class MoveBook:
    """Moves for ``seats`` seats: the draw, pass, call and starter-naming moves by
    seat, plays built on first use, and a joker's plays by situation."""

    __slots__ = ("by_seat", "calls", "draws", "jokers", "names", "passes", "plays", "seats",
                 "wilds")

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.draws = tuple(Move("draw", p) for p in range(seats))
        self.passes = tuple(Move("pass", p) for p in range(seats))
        self.calls = tuple(Move("call", p) for p in range(seats))
        self.names = tuple(tuple(Move("name", p, None, s) for s in SUITS)
                           for p in range(seats))
        self.plays: dict[tuple[int, Card, Suit | None, Card | None], Move] = {}
        # By seat, then card: the play of a card naming nothing, and a wild card's plays
        # naming each suit (one lookup on the path every simulated move takes). Built
        # card by card as first played: a fresh book builds only what a game plays.
        self.by_seat = tuple(_SeatPlays(self, p) for p in range(seats))
        self.wilds = tuple(_SeatWilds(self, p) for p in range(seats))
        # A joker's plays depend only on the seat, its wild rank and what follows the
        # upcard: listed once per such situation (see listing.joker_plays).
        self.jokers: dict[tuple[object, ...], list[Move]] = {}

    def play(self, p: int, c: Card, suit: Suit | None, named: Card | None) -> Move:
        """The play of ``c`` by seat ``p`` naming ``suit`` (and ``named`` for a joker).
        Bounded by seats × cards × suits × named cards."""
        key = (p, c, suit, named)
        move = self.plays.get(key)
        if move is None:
            move = self.plays[key] = Move("play", p, c, suit, named)
        return move

    def suited(self, p: int, c: Card, named: Card | None = None) -> list[Move]:
        """The plays of ``c`` naming each suit in turn."""
        return [self.play(p, c, s, named) for s in SUITS]
