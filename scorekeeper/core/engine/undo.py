"""The undo log: what a move changed, recorded compactly so it can be taken back.

A :class:`Record` holds the facts a move usually changes, as they were before it
(whose turn, cards drawn this turn, passes, the upcard's meaning, the active suit,
whether its rank counts, a free play, the debts list, which the effects replace rather
than change, and the seats whose pass the engine took: a tuple that changes with
nearly every pass the engine takes in Last One, so it is kept apart rather than
making the shared tuple below change with it), the facts that rarely change as one
tuple the variant shares between records with the same values, the move, and the card
movements of a play or a draw.
Copying every hand, the stock and the pile instead cost about 1.8 KB a move; a record
is under 200 bytes.

>>> from scorekeeper.core.engine import Game, Sheet
>>> g = Game.deal(Sheet.make("crazy-eights"), 3, rng=4)
>>> key = g.state_key(); _ = g.apply(g.legal_moves()[0]); g.undo(); g.state_key() == key
True
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.cards import Card, Suit
from scorekeeper.core.engine import effects
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Debt, Position

__all__ = ["Record", "make", "restore"]


class Record:
    """One move's undo record: the facts as they were before the move, and the move.
    A pass, a call or a naming needs no more; :class:`PlayRecord` and
    :class:`DrawRecord` add the card movements. Records are made by :func:`make`
    only, which fills the fields itself rather than through an ``__init__``: a call
    frame fewer on the path every simulated move takes."""

    __slots__ = ("active_suit", "debts", "drawn", "forced", "free_play", "move", "passes",
                 "rank_open", "rare", "turn", "upcard_as")

    turn: int
    drawn: int
    passes: int
    upcard_as: Card | None
    active_suit: Suit | None
    rank_open: bool
    free_play: bool
    debts: list[Debt]
    forced: tuple[int, ...]
    rare: tuple[Any, ...]
    move: Move

    def take_back_cards(self, g: Position) -> None:
        """Put back the cards the move moved (none for this kind of move)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.move}>"


class PlayRecord(Record):
    """A play: ``at`` is where the card sat in the known hand (-1: among the unseen
    cards)."""

    __slots__ = ("at",)

    at: int

    def take_back_cards(self, g: Position) -> None:
        """The card leaves the pile for its place in the hand."""
        move = self.move
        g.pile.pop()
        if self.at < 0:
            g.unknown[move.player] += 1
        else:
            g.known[move.player].insert(self.at, move.card)  # type: ignore[arg-type]


class DrawRecord(Record):
    """A draw: the stock's ``top`` card before it, whether the stock had cards
    (``had_stock``), whether the card went to the known hand (``to_known``), and the
    old pile when the draw turned it into a new stock (``old_pile``)."""

    __slots__ = ("had_stock", "old_pile", "to_known", "top")

    had_stock: bool
    to_known: bool
    top: Card | None
    old_pile: list[Card | None] | None

    def take_back_cards(self, g: Position) -> None:
        """The card goes back on the stock (and the old pile back, after a refill)."""
        p = self.move.player
        if self.to_known:
            g.known[p].pop()
        else:
            g.unknown[p] -= 1
        if self.old_pile is not None:  # the draw turned the pile into a new stock
            g.pile = self.old_pile[:]
            g.stock = [self.top] if self.had_stock else []
        else:
            g.stock.append(self.top)


def make(g: Position, history: list[Record], move: Move,
         implied: tuple[int, ...] = ()) -> None:
    """Carry out an accepted move (after the unsaid passes it implies) and log its
    record in ``history``: for a play, where its card sat; for a draw, where its card
    came from and went. The facts that rarely change are kept as the last record's
    tuple when unchanged (the common case), else as the variant's one tuple for their
    value. One function, without helpers: it runs once a simulated move."""
    rare = (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
            g.refills)
    last = history[-1].rare if history else None
    rare = last if rare == last else g.variant.shared(rare)
    kind = move.kind
    if kind == "play":
        played = PlayRecord()
        try:
            played.at = g.known[move.player].index(move.card)  # type: ignore[arg-type]
        except ValueError:  # one of the seat's unseen cards
            played.at = -1
        rec: Record = played
    elif kind == "draw":
        rec = drawing = DrawRecord()
        stock, pile, held = g.stock, g.pile, g.known[move.player]
        drawing.had_stock = bool(stock)
        drawing.top = stock[-1] if stock else None
        size = len(held)
    else:
        rec = Record()
    # In threes at most: Python 3.11 assigns up to three names without a tuple.
    rec.turn, rec.drawn, rec.passes = g.turn, g.drawn, g.passes
    rec.upcard_as, rec.active_suit, rec.rank_open = g.upcard_as, g.active_suit, g.rank_open
    rec.free_play, rec.debts, rec.forced = g.free_play, g.debts, g.forced
    rec.rare, rec.move = rare, move
    history.append(rec)
    for seat in implied:
        effects.unsaid_pass(g, seat)
    effects.apply(g, move)
    if kind == "draw":
        drawing.to_known = len(held) != size
        drawing.old_pile = pile if g.pile is not pile else None


def restore(g: Position, rec: Record) -> None:
    """Take back the move ``rec`` records (the last one made)."""
    rec.take_back_cards(g)
    g.turn, g.drawn, g.passes = rec.turn, rec.drawn, rec.passes
    g.upcard_as, g.active_suit, g.rank_open = rec.upcard_as, rec.active_suit, rec.rank_open
    g.free_play, g.debts = rec.free_play, rec.debts
    g.forced = rec.forced
    (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
     g.refills) = rec.rare
