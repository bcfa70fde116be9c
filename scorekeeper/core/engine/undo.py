"""The undo log: what a move changed, recorded compactly so it can be taken back.

A record holds the hand's small facts as they were before the move, packed into one
integer (whose turn, cards drawn this turn, passes, the melee, the upcard's meaning...),
the few objects that do not pack (the active suit, the melee's named suit, the debts
list, which the effects replace rather than change), and the card movements of a play
or a draw. Copying every hand, the stock and the pile instead cost about 1.8 KB a move;
a record is under 200 bytes.

>>> from scorekeeper.core.engine import Game, Sheet
>>> g = Game.deal(Sheet.make("crazy-eights"), 3, rng=4)
>>> key = g.state_key(); _ = g.apply(g.legal_moves()[0]); g.undo(); g.state_key() == key
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card
from scorekeeper.core.engine import effects
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.pieces import Melee

if TYPE_CHECKING:
    from scorekeeper.core.engine.state import Game

__all__ = ["before", "make", "pack", "restore", "unpack"]

_CARDS: tuple[Card | None, ...] = (None, *ALL_CARDS, JOKER)
_CARD_CODE: dict[Card | None, int] = {c: i for i, c in enumerate(_CARDS)}
_RESULTS = (None, "out", "blocked", "jammed")
_RESULT_CODE: dict[str | None, int] = {r: i for i, r in enumerate(_RESULTS)}

Record = tuple[Any, ...]


def pack(g: Game) -> int:
    """The hand's small facts as one integer (seats take 4 bits: at most 15 seats)."""
    m, w = g.melee, g.winner
    return (g.turn | (g.uncalled + 1) << 4 | (0 if w is None else w + 1) << 8
            | (0 if m is None else 1 | m[0] << 1 | m[1] << 5) << 12
            | (g.direction < 0) << 21 | g.free_play << 22 | g.naming << 23
            | g.rank_open << 24 | _RESULT_CODE[g.result] << 25
            | _CARD_CODE[g.upcard_as] << 27 | g.passes << 33 | g.drawn << 41
            | g.refills << 49)


def unpack(g: Game, x: int) -> None:
    """Set the facts :func:`pack` packed."""
    g.turn = x & 15
    g.uncalled = (x >> 4 & 15) - 1
    w = x >> 8 & 15
    g.winner = w - 1 if w else None
    m = x >> 12 & 511
    g.melee = Melee(m >> 1 & 15, m >> 5 & 15) if m & 1 else None
    g.direction = -1 if x >> 21 & 1 else 1
    g.free_play = bool(x >> 22 & 1)
    g.naming = bool(x >> 23 & 1)
    g.rank_open = bool(x >> 24 & 1)
    g.result = _RESULTS[x >> 25 & 3]
    g.upcard_as = _CARDS[x >> 27 & 63]
    g.passes = x >> 33 & 255
    g.drawn = x >> 41 & 255
    g.refills = x >> 49


def before(g: Game) -> Record:
    """What a move may change besides cards, taken before it (a pass needs no more)."""
    return (pack(g), g.active_suit, g.melee_suit, g.debts)


def make(g: Game, move: Move, implied: tuple[int, ...] = ()) -> None:
    """Carry out an accepted move (after the passes it implies) and log its record: for
    a play, where the card sat in the known hand (-1: among the unseen cards); for a
    draw, the stock's top card, whether the card went to the known hand, whether the
    stock had cards, and the old pile when the draw turned it into a new stock."""
    x, suit, melee_suit, debts = pack(g), g.active_suit, g.melee_suit, g.debts
    kind, p = move.kind, move.player
    if kind == "play":
        hand, c = g.known[p], move.card
        rec: Record = (x, suit, melee_suit, debts, p, c, hand.index(c) if c in hand else -1)
    elif kind == "draw":
        stock, pile, held = g.stock, g.pile, len(g.known[p])
        top, had_stock = (stock[-1], True) if stock else (None, False)
    else:
        rec = (x, suit, melee_suit, debts)
    for seat in implied:
        effects.apply(g, Move.pass_(seat))
    effects.apply(g, move)
    if kind == "draw":
        rec = (x, suit, melee_suit, debts, p, top, len(g.known[p]) != held,
               None if g.pile is pile else pile, had_stock)
    g.history.append(rec)


def restore(g: Game, rec: Record) -> None:
    """Take back the move ``rec`` records (the last one made)."""
    if len(rec) == 7:  # a play
        p, c, at = rec[4], rec[5], rec[6]
        g.pile.pop()
        if at < 0:
            g.unknown[p] += 1
        else:
            g.known[p].insert(at, c)
    elif len(rec) == 9:  # a draw
        p, top, to_known, pile, had_stock = rec[4:]
        if to_known:
            g.known[p].pop()
        else:
            g.unknown[p] -= 1
        if pile is not None:  # the draw turned the pile into a new stock
            g.pile = pile[:]
            g.stock = [top] if had_stock else []
        else:
            g.stock.append(top)
    unpack(g, rec[0])
    g.active_suit, g.melee_suit, g.debts = rec[1], rec[2], rec[3]
