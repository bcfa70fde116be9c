"""The undo log: what a move changed, recorded compactly so it can be taken back.

A :class:`Record` holds the facts a move usually changes, as they were before it
(whose turn, cards drawn this turn, passes, the upcard's meaning, the active suit,
whether its rank counts, a free play, the debts list, which the effects replace rather
than change), the facts that rarely change as one tuple the variant shares between
records with the same values, the move, and the card movements of a play or a draw.
Copying every hand, the stock and the pile instead cost about 1.8 KB a move; a record
is under 200 bytes.

>>> from scorekeeper.core.engine import Game, Sheet
>>> g = Game.deal(Sheet.make("crazy-eights"), 3, rng=4)
>>> key = g.state_key(); _ = g.apply(g.legal_moves()[0]); g.undo(); g.state_key() == key
True
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.cards import Card
from scorekeeper.core.engine import effects
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Position

__all__ = ["Record", "make", "restore"]


class Record:
    """One move's undo record. ``at`` is where a played card sat in the known hand
    (-1: among the unseen cards); a draw keeps the stock's ``top`` card, whether the
    card went to the known hand (``to_known``) and whether the stock had cards
    (``had_stock``), and ``old_pile`` when it turned the pile into a new stock."""

    __slots__ = ("active_suit", "at", "debts", "drawn", "free_play", "had_stock", "move",
                 "old_pile", "passes", "rank_open", "rare", "to_known", "top", "turn",
                 "upcard_as")

    def __init__(self, g: Position, rare: tuple[Any, ...], move: Move) -> None:
        self.turn, self.drawn, self.passes = g.turn, g.drawn, g.passes
        self.upcard_as, self.active_suit, self.rank_open = g.upcard_as, g.active_suit, g.rank_open
        self.free_play, self.debts, self.rare, self.move = g.free_play, g.debts, rare, move
        self.at = -1
        self.top: Card | None = None
        self.to_known = self.had_stock = False
        self.old_pile: list[Card | None] | None = None

    def __repr__(self) -> str:
        return f"<Record {self.move}>"


def _rare(g: Position) -> tuple[Any, ...]:
    """The facts that rarely change, as the variant's one tuple for their value."""
    facts = (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
             g.refills, g.forced)
    shared: tuple[Any, ...] = g.variant.shared(facts)
    return shared


def make(g: Position, history: list[Record], move: Move,
         implied: tuple[int, ...] = ()) -> None:
    """Carry out an accepted move (after the unsaid passes it implies) and log its
    record in ``history``."""
    rec = Record(g, _rare(g), move)
    kind = move.kind
    if kind == "play":
        hand = g.known[move.player]
        if move.card in hand:
            rec.at = hand.index(move.card)
    elif kind == "draw":
        rec.had_stock = bool(g.stock)
        rec.top = g.stock[-1] if g.stock else None
    for seat in implied:
        effects.unsaid_pass(g, seat)
    pile, size = g.pile, len(g.known[move.player])
    effects.apply(g, move)
    if kind == "draw":
        rec.to_known = len(g.known[move.player]) != size
        if g.pile is not pile:
            rec.old_pile = pile
    history.append(rec)


def restore(g: Position, rec: Record) -> None:
    """Take back the move ``rec`` records (the last one made)."""
    move = rec.move
    if move.kind == "play":
        g.pile.pop()
        if rec.at < 0:
            g.unknown[move.player] += 1
        else:
            g.known[move.player].insert(rec.at, move.card)  # type: ignore[arg-type]
    elif move.kind == "draw":
        if rec.to_known:
            g.known[move.player].pop()
        else:
            g.unknown[move.player] -= 1
        if rec.old_pile is not None:  # the draw turned the pile into a new stock
            g.pile = rec.old_pile[:]
            g.stock = [rec.top] if rec.had_stock else []
        else:
            g.stock.append(rec.top)
    g.turn, g.drawn, g.passes = rec.turn, rec.drawn, rec.passes
    g.upcard_as, g.active_suit, g.rank_open = rec.upcard_as, rec.active_suit, rec.rank_open
    g.free_play, g.debts = rec.free_play, rec.debts
    (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
     g.refills, g.forced) = rec.rare

