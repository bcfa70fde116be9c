"""The fast path: a move the game listed with every card known is made unjudged.

With every card known, :func:`.legal.legal_moves` lists only moves
:func:`.verdicts.check` accepts, so a move taken from that very list (the move book's
object) needs no second judgment: it is made at once, and its verdict is worked out
only if someone reads more of it than ``legal``. Simulation makes millions of such
moves and reads none of their reasons. What it buys, counted in machine instructions
(callgrind) over the bench's playout loop (``tests/bench/playout.py``, the same 300
hands, 2026-12-04): with every move judged first instead (each handed over as an equal
copy), two-player Crazy Eights (draw_limit 5, shuffled refill) took 4.79 million
instructions a hand against 2.72, and four-player Last One 11.70 million against 7.06:
this path makes simulation about 1.7× as fast. (Timed by CPU on 2026-12-02, before
:func:`apply` took both ways: 1.7× and 1.5×.)

>>> from scorekeeper.core.engine import Game, Sheet
>>> g = Game.deal(Sheet.make("crazy-eights"), 2, rng=3)
>>> v = g.apply(g.legal_moves()[0])
>>> v.legal, v.rule
(True, 'c8-turn')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from scorekeeper.core.engine import undo, verdicts
from scorekeeper.core.engine.moves import Move, Verdict
from scorekeeper.core.engine.position import Position

__all__ = ["ListedVerdict", "apply"]


class Listing(Protocol):
    """What the fast path needs of the game: its kept listing, its undo log, taking
    the turn on after a move, a copy of its position, and the judged way to make any
    other move."""

    listed: tuple[Move, ...]
    history: list[undo.Record]

    def move_on(self, move: Move | None = None) -> None: ...

    def copy(self) -> Position: ...

    def judge_and_apply(self, move: Move) -> Verdict: ...


def apply(game: Listing, move: Move) -> Verdict:
    """Make ``move`` and return its verdict (this is :meth:`.state.Game.apply`):
    unjudged when it is one of the moves the game listed (the very object), else
    through ``game.judge_and_apply``, which judges it first and raises when it is
    refused. Both ways start here, so a simulated move makes no call to choose."""
    for made in game.listed:
        if made is move:
            history = game.history
            undo.make(game, history, move)  # type: ignore[arg-type]
            game.move_on(move)
            verdict = ListedVerdict()  # filled here: no call frame of its own
            verdict._game = game
            verdict._record = history[-1]
            verdict._depth = len(history)
            return verdict
    return game.judge_and_apply(move)


class ListedVerdict(Verdict):
    """The verdict on a listed move: legal, its other fields judged when first read,
    on a copy of the position taken back to just before the move."""

    __slots__ = ("_depth", "_full", "_game", "_record")

    # What every such verdict says (class attributes shadow the base class's slots).
    legal = True
    cause = "play"
    implied = ()

    _game: Listing
    _record: undo.Record
    _depth: int
    _full: Verdict  # set when first judged
    if TYPE_CHECKING:
        def __init__(self) -> None: ...
    else:
        __init__ = object.__init__  # built bare by apply, which fills the slots

    def _judged(self) -> Verdict:
        try:
            return self._full
        except AttributeError:  # first read
            full = self._full = _judge(self._game, self._record, self._depth)
            del self._game  # judged: the verdict no longer keeps the game alive
            return full

    reason = property(lambda self: self._judged().reason)
    rule = property(lambda self: self._judged().rule)
    needs_suit = property(lambda self: self._judged().needs_suit)
    assumed = property(lambda self: self._judged().assumed)
    draws = property(lambda self: self._judged().draws)


def _judge(game: Listing, record: undo.Record, depth: int) -> Verdict:
    """The full verdict on the move ``record`` logs at ``depth`` in the history; when
    it has been undone since, the position it was made in is gone."""
    history, before = game.history, game.copy()
    if len(history) < depth or history[depth - 1] is not record:
        return Verdict(True, f"{record.move} was listed by legal_moves (the position has "
                       "been taken back since)", before.variant.rule["turn"])
    for later in reversed(history[depth - 1:]):
        undo.restore(before, later)
    return verdicts.check(before, record.move)
