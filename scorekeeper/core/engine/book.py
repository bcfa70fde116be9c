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


class MoveBook:
    """Moves for ``seats`` seats: the draw, pass, call and starter-naming moves by
    seat, plays built on first use, and a joker's plays by situation."""

    __slots__ = ("calls", "draws", "jokers", "names", "passes", "plays", "seats", "turn_plays")

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.draws = tuple(Move("draw", p) for p in range(seats))
        self.passes = tuple(Move("pass", p) for p in range(seats))
        self.calls = tuple(Move("call", p) for p in range(seats))
        self.names = tuple(tuple(Move("name", p, None, s) for s in SUITS)
                           for p in range(seats))
        self.plays: dict[tuple[int, Card, Suit | None, Card | None], Move] = {}
        # A card's plays on a turn (naming each suit when it is wild, as the predicate
        # says), by what that answer depends on: the seat, its wild rank and
        # wild_naming's answer; built card by card as first played (see legal._plays).
        self.turn_plays: dict[tuple[int, object, str], dict[Card, list[Move]]] = {}
        # A joker's plays by the same and the cards it may stand for (joker_names):
        # listed once per such situation (see legal._joker_plays).
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
