"""The undo log: what a move changed, recorded compactly so it can be taken back.

A record is one flat tuple: the facts a move usually changes, as they were before it
(whose turn, cards drawn this turn, passes, the upcard's meaning, the active suit, whether
its rank counts, a free play, the debts list, which the effects replace rather than
change), then the facts that rarely change (the uncalled seat, the winner, the result,
the melee, the melee's named suit, the direction, naming the starter, refills) as one
tuple shared by every record with the same values, then the move, then the card
movements of a play or a draw. Reading the facts into a tuple costs far less than
packing them into an integer, and copying every hand, the stock and the pile instead
cost about 1.8 KB a move; a record is under 200 bytes.

>>> from scorekeeper.core.engine import Game, Sheet
>>> g = Game.deal(Sheet.make("crazy-eights"), 3, rng=4)
>>> key = g.state_key(); _ = g.apply(g.legal_moves()[0]); g.undo(); g.state_key() == key
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorekeeper.core.engine import effects
from scorekeeper.core.engine.moves import Move

if TYPE_CHECKING:
    from scorekeeper.core.engine.state import Game

__all__ = ["MOVE", "Record", "before", "make", "restore"]

Record = tuple[Any, ...]

# A record's length says what it holds: the facts (and the rare ones) alone, or with
# the move; a play adds where its card sat (11 items), a draw what it took and how (12),
# and the old pile when it turned the pile into a new stock (13).
_FACTS, _PLAY = 9, 11
MOVE = 9  # where a record holds its move (the lazy verdict judges it from there)


_SHARED: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # rare facts, one tuple per value
_SHARED_MOST = 1024  # few values recur (Last One at 6: ~700 in 100 hands); a bound all the same


def _rare_of(g: Game) -> tuple[Any, ...]:
    """The facts that rarely change, as the tuple the last record holds when equal (so
    consecutive records share one), else as the one tuple kept for that value."""
    rare = (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
            g.refills)
    last = g._rare
    return last if rare == last else _shared(g, rare)


def _shared(g: Game, rare: tuple[Any, ...]) -> tuple[Any, ...]:
    shared = _SHARED.get(rare)
    if shared is None:
        if len(_SHARED) >= _SHARED_MOST:
            _SHARED.clear()
        shared = _SHARED[rare] = rare
    g._rare = shared
    return shared


def before(g: Game) -> Record:
    """What a move may change besides cards, taken before it (a pass needs no more)."""
    return (g.turn, g.drawn, g.passes, g.upcard_as, g.active_suit, g.rank_open, g.free_play,
            g.debts, _rare_of(g))


def make(g: Game, move: Move, implied: tuple[int, ...] = ()) -> None:
    """Carry out an accepted move (after the passes it implies) and log its record: for
    a play, where the card sat in the known hand (-1: among the unseen cards); for a
    draw, the stock's top card, whether the card went to the known hand (bit 0) and
    whether the stock had cards (bit 1), and the old pile when the draw turned it into
    a new stock."""
    rare = (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
            g.refills)  # _rare_of, inlined: this runs once a move
    rare = _shared(g, rare) if rare != g._rare else g._rare
    kind = move.kind
    if kind == "play":
        hand, c = g.known[move.player], move.card
        try:
            at = hand.index(c)  # type: ignore[arg-type]  # a play always names its card
        except ValueError:  # among the seat's unseen cards
            at = -1
        g.history.append((g.turn, g.drawn, g.passes, g.upcard_as, g.active_suit, g.rank_open,
                          g.free_play, g.debts, rare, move, at))
        if implied:
            _passes(g, implied)
        effects.apply(g, move)
        return
    rec = (g.turn, g.drawn, g.passes, g.upcard_as, g.active_suit, g.rank_open, g.free_play,
           g.debts, rare, move)
    if implied:
        _passes(g, implied)
    if kind != "draw":
        effects.apply(g, move)
        g.history.append(rec)
        return
    stock, pile, held = g.stock, g.pile, g.known[move.player]
    size = len(held)
    top, had_stock = (stock[-1], True) if stock else (None, False)
    effects.apply(g, move)
    how = (len(held) != size) | had_stock << 1
    g.history.append((*rec, top, how) if g.pile is pile else (*rec, top, how, pile))


def _passes(g: Game, seats: tuple[int, ...]) -> None:
    """The unsaid passes a move implies, taken before it."""
    for seat in seats:
        effects.apply(g, Move.pass_(seat))


def restore(g: Game, rec: Record) -> None:
    """Take back the move ``rec`` records (the last one made)."""
    n = len(rec)
    if n == _PLAY:
        move, at = rec[MOVE], rec[10]
        g.pile.pop()
        if at < 0:
            g.unknown[move.player] += 1
        else:
            g.known[move.player].insert(at, move.card)
    elif n > _PLAY:  # a draw
        p, top, how = rec[MOVE].player, rec[10], rec[11]
        if how & 1:
            g.known[p].pop()
        else:
            g.unknown[p] -= 1
        if n > _PLAY + 1:  # the draw turned the pile into a new stock
            g.pile = rec[12][:]
            g.stock = [top] if how & 2 else []
        else:
            g.stock.append(top)
    (g.turn, g.drawn, g.passes, g.upcard_as, g.active_suit, g.rank_open, g.free_play,
     g.debts, rare) = rec[:_FACTS]
    (g.uncalled, g.winner, g.result, g.melee, g.melee_suit, g.direction, g.naming,
     g.refills) = rare
