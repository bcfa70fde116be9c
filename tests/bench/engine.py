"""Benchmark: seeded random complete games with every card known."""

from __future__ import annotations

import random
import time
from typing import Any

from scorekeeper.core.engine.state import HandInPlay
from scorekeeper.core.sheets import Sheet
from tests.support.engine import play_out, undo_bytes


def run_bench(game: str, players: int, games: int, seed: int = 0,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` seeded random hands of ``game`` (default sheet, or ``options``)
    at ``players`` seats and time them."""
    sheet = Sheet.make(game, options)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for i in range(games):
        g = HandInPlay.deal(sheet, players, i % players, rng)
        moves += play_out(g, rng)
    seconds = time.perf_counter() - start
    return {"game": game, "players": players, "games": games, "moves": moves,
            "seconds": round(seconds, 4),
            "games_per_second": round(games / seconds, 1) if seconds else None,
            "moves_per_second": round(moves / seconds, 1) if seconds else None}


def undo_bytes_per_move(game: str, players: int, games: int, seed: int = 0) -> float:
    """The games :func:`run_bench` plays, played again untimed: the bytes each one's
    undo log holds at its end, per move (:func:`tests.support.engine.undo_bytes`)."""
    sheet = Sheet.make(game)
    rng = random.Random(seed)
    held = moves = 0
    for i in range(games):
        g = HandInPlay.deal(sheet, players, i % players, rng)
        moves += play_out(g, rng)
        held += undo_bytes(g)
    return round(held / moves, 1) if moves else 0.0
