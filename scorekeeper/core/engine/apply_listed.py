"""The verdict on a move the game listed with every card known, judged when first read.

With every card known, :func:`.legal.legal_moves` lists only moves
:func:`.verdicts.check` accepts, so :meth:`.state.HandInPlay.apply` makes a move taken from
that very list (the move book's object) without judging it a second time. Its verdict
is legal, with no pass implied; the reason, the rule and the other fields are worked
out only if someone reads them, in the position before the move, which the game
rebuilds from the moves made (:meth:`.state.HandInPlay.rebuilt`). A simulation makes
millions of such moves and reads none of their reasons.

>>> from scorekeeper.core.engine import HandInPlay, Sheet
>>> g = HandInPlay.deal(Sheet.make("crazy-eights"), 2, rng=3)
>>> v = g.apply(g.legal_moves()[0])
>>> v.legal, v.rule
(True, 'c8-turn')
"""

from __future__ import annotations

from typing import Any, Protocol

from scorekeeper.core.engine import verdicts
from scorekeeper.core.engine.moves import Move, Verdict
from scorekeeper.core.engine.position import Position

__all__ = ["ListedVerdict"]

Made = tuple[Move, tuple[int, ...]]  # a move made, with the seats whose pass it implied


class PlayedGame(Protocol):
    """What the verdict needs of the game: the moves made, and the position rebuilt
    after the first of them."""

    variant: Any
    history: list[Made]

    def rebuilt(self, moves: int) -> Position: ...


class ListedVerdict(Verdict):
    """The verdict on the move the game made last (``made``, its history entry), as
    listed: ``legal`` True, nothing ``implied``; the fields left unset here (the
    reason, the rule...) are judged all at once when one of them is first read."""

    __slots__ = ("_game", "_made")

    def __init__(self, game: PlayedGame, made: Made) -> None:
        self.legal, self.cause, self.implied = True, "play", ()
        self._game = game
        self._made = made

    def __getattr__(self, name: str) -> Any:
        # Python asks here only for an attribute not set yet.
        if name not in Verdict.__slots__:
            raise AttributeError(name)
        full = _judge(self._game, self._made)
        del self._game  # judged: the verdict no longer keeps the game alive
        for field in Verdict.__slots__:
            setattr(self, field, getattr(full, field))
        return getattr(full, name)


def _judge(game: PlayedGame, made: Made) -> Verdict:
    """The full verdict on the move ``made`` (that very entry of the game's history, the
    latest looked at first); when it has been taken back since, the position it was
    made in is gone."""
    history = game.history
    for depth in range(len(history), 0, -1):
        if history[depth - 1] is made:
            return verdicts.check(game.rebuilt(depth - 1), made[0])
    return Verdict(True, f"{made[0]} was listed by legal_moves (the position has been "
                   "taken back since)", game.variant.rule["turn"])
