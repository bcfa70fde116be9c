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

from operator import itemgetter
from typing import Any

from scorekeeper.core.engine import effects
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Position

__all__ = ["Rare", "Record", "make", "restore"]


class Rare(tuple[Any, ...]):
    """The facts a move rarely changes, as they were before it: one tuple per value,
    shared by the records of every game under a variant (``Variant.shared``). Like
    :class:`Record`, a tuple with named fields built in one step from the plain tuple
    of its values (a named tuple's constructor is a Python call)."""

    __slots__ = ()

    uncalled = property(itemgetter(0), doc="the seat that had a call to make (-1: none)")
    winner = property(itemgetter(1), doc="who had gone out")
    result = property(itemgetter(2), doc="how the hand had ended, if it had")
    melee = property(itemgetter(3), doc="the melee running")
    melee_suit = property(itemgetter(4), doc="the suit named in the melee")
    direction = property(itemgetter(5), doc="1 clockwise, -1 counter-clockwise")
    naming = property(itemgetter(6), doc="whether the dealer was to name the starter")
    refills = property(itemgetter(7), doc="refills of the stock so far")


class Record(tuple[Any, ...]):
    """One move's undo record: the facts as they were before the move, the shared
    tuple of the rare ones, and the move, as a tuple with named fields. A pass, a
    call or a naming needs no more; :class:`PlayRecord` and :class:`DrawRecord` add
    the card movements. A tuple rather than an object with slots because it is built
    in one step from its values, without a call frame: filling eleven slots one by one
    cost about twice as much, once a simulated move."""

    __slots__ = ()

    turn = property(itemgetter(0), doc="whose turn it was")
    drawn = property(itemgetter(1), doc="cards the seat on turn had drawn this turn")
    passes = property(itemgetter(2), doc="passes in a row towards a jam")
    upcard_as = property(itemgetter(3), doc="what the upcard stood for")
    active_suit = property(itemgetter(4), doc="the suit to follow")
    rank_open = property(itemgetter(5), doc="whether the upcard's rank counted")
    free_play = property(itemgetter(6), doc="whether a 3's free play was on")
    debts = property(itemgetter(7), doc="the debts list (replaced, never changed)")
    passes_taken = property(itemgetter(8), doc="the passes the engine had taken")
    rare = property(itemgetter(9), doc="the rarely changing facts (shared tuple)")
    move = property(itemgetter(10), doc="the move")

    def take_back_cards(self, g: Position) -> None:
        """Put back the cards the move moved (none for this kind of move)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.move}>"


class PlayRecord(Record):
    """A play: ``at`` is where the card sat in the known hand (-1: among the unseen
    cards)."""

    __slots__ = ()

    at = property(itemgetter(11), doc="where the card sat in the known hand")

    def take_back_cards(self, g: Position) -> None:
        """The card leaves the pile for its place in the hand."""
        move, at = self.move, self.at
        g.pile.pop()
        if at < 0:
            g.unknown[move.player] += 1
        else:
            g.known[move.player].insert(at, move.card)


class DrawRecord(Record):
    """A draw: whether the stock had cards (``had_stock``), whether the card went to
    the known hand (``to_known``), the stock's ``top`` card before it, and the old
    pile when the draw turned it into a new stock (``old_pile``)."""

    __slots__ = ()

    had_stock = property(itemgetter(11), doc="whether the stock had cards")
    to_known = property(itemgetter(12), doc="whether the card went to the known hand")
    top = property(itemgetter(13), doc="the stock's top card before the draw")
    old_pile = property(itemgetter(14), doc="the pile a refill turned into the stock")

    def take_back_cards(self, g: Position) -> None:
        """The card goes back on the stock (and the old pile back, after a refill)."""
        p, top, old_pile = self.move.player, self.top, self.old_pile
        if self.to_known:
            g.known[p].pop()
        else:
            g.unknown[p] -= 1
        if old_pile is not None:  # the draw turned the pile into a new stock
            g.pile = old_pile[:]
            g.stock = [top] if self.had_stock else []
        else:
            g.stock.append(top)


def make(g: Position, history: list[Record], move: Move,
         implied: tuple[int, ...] = ()) -> None:
    """Carry out an accepted move (after the unsaid passes it implies) and log its
    record in ``history``: for a play, where its card sat (as the effect says); for a
    draw, where its card came from and went. The facts that rarely change are kept as
    the last record's tuple when unchanged (the common case), else as the variant's
    one tuple for their value. One function, without helpers: it runs once a
    simulated move."""
    rare = (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
            g.refills)
    last = history[-1].rare if history else None
    rare = last if rare == last else g.variant.shared(Rare(rare))
    facts = (g.turn, g.drawn, g.passes, g.upcard_as, g.active_suit, g.rank_open,
             g.free_play, g.debts, g.passes_taken, rare, move)
    kind = move.kind
    if kind == "draw":
        stock, pile, held = g.stock, g.pile, g.known[move.player]
        had_stock = bool(stock)
        top = stock[-1] if had_stock else None
        size = len(held)
        for seat in implied:
            effects.unsaid_pass(g, seat)
        effects.apply(g, move)
        # Concatenation (one step in C) rather than unpacking, which builds a list first.
        history.append(DrawRecord(facts + (had_stock, len(held) != size, top,  # noqa: RUF005
                                           pile if g.pile is not pile else None)))
        return
    for seat in implied:
        effects.unsaid_pass(g, seat)
    if kind == "play":  # the effect says where the card sat
        history.append(PlayRecord(facts + (effects.apply(g, move),)))  # noqa: RUF005
        return
    history.append(Record(facts))
    effects.apply(g, move)


def restore(g: Position, rec: Record) -> None:
    """Take back the move ``rec`` records (the last one made)."""
    rec.take_back_cards(g)
    g.turn, g.drawn, g.passes, g.upcard_as = rec.turn, rec.drawn, rec.passes, rec.upcard_as
    g.active_suit, g.rank_open, g.free_play = rec.active_suit, rec.rank_open, rec.free_play
    g.debts, g.passes_taken = rec.debts, rec.passes_taken
    rare = rec.rare
    g.uncalled, g.winner, g.result, g.melee = rare.uncalled, rare.winner, rare.result, rare.melee
    g.melee_suit, g.direction, g.naming, g.refills = (rare.melee_suit, rare.direction,
                                                      rare.naming, rare.refills)
