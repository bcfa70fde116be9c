"""Benchmark: seeded random complete games with every card known.

>>> r = run_bench("crazy-eights", 3, 5, seed=1)
>>> r["games"], r["moves"] > 0
(5, True)
"""

from __future__ import annotations

import random
import time
from typing import Any

from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.state import Game
from scorekeeper.core.sheets import Sheet

__all__ = ["MOVE_CAP", "choose", "play_out", "run_bench"]

MOVE_CAP = 5000


def choose(moves: list[Move], rng: random.Random) -> Move:
    """A random move, preferring plays (so random games finish like real ones)."""
    plays = [m for m in moves if m.kind in ("play", "call")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(moves)


def play_out(game: Game, rng: random.Random, cap: int = MOVE_CAP) -> int:
    """Play random legal moves until the hand ends; returns the moves made.
    Raises RuntimeError if ``cap`` moves do not finish it."""
    moves = 0
    while not game.is_over:
        if moves >= cap:
            raise RuntimeError(f"no end after {cap} moves: {game!r}")
        game.apply(choose(game.legal_moves(), rng))
        moves += 1
    return moves


def run_bench(game: str, players: int, games: int, seed: int = 0,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` seeded random hands of ``game`` (default sheet, or ``options``)
    at ``players`` seats and time them."""
    sheet = Sheet.make(game, options)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for i in range(games):
        g = Game.deal(sheet, players, i % players, rng)
        moves += play_out(g, rng)
    seconds = time.perf_counter() - start
    return {"game": game, "players": players, "games": games, "moves": moves,
            "seconds": round(seconds, 4),
            "games_per_second": round(games / seconds, 1) if seconds else None,
            "moves_per_second": round(moves / seconds, 1) if seconds else None}
