"""The one playout loop of ``bench engine --against openspiel --baseline DIR``.

Both sides of a before/after comparison run this very file: this checkout's engine in
the bench's process, the engine checked out in ``DIR`` in a subprocess that loads this
file by its path. So the file imports nothing from ``scorekeeper``; the engine's
``Game`` class and a sheet are handed in.

The two engines then play the same hands as far as they list the same moves in the
same order: hand ``i`` of a batch is dealt from its own random stream, made before the
clock starts, and the policy draws a random number only when it has a choice, so an
engine that takes a pass itself when the pass is all a seat has left (this one) and one
that lists that pass as the only move (older ones) stay in step. Under OpenSpiel's
Crazy Eights rules the engine before issue 21 (ced9ff9) and this one ended all of 300
two-player hands alike. Last One hands still part where a listing differs (this engine
lists a joker's plays after the other cards', and a starting joker's names in another
order) or a ruling changed: 71 of 200 four-player hands ended alike, so there the
ratio also rests on the sample of hands, and large batches keep it steady.

Before, one stream ran through a whole batch and the older engine's forced passes drew
from it, so the two engines played different hands from the first such pass on: of
300 two-player Crazy Eights hands none ended alike, and the instruction counts of the
two engines over them gave ratios of 0.85, 0.92 and 0.89 for three seeds, a spread
the hands alone made; on the same hands two seeds gave 0.905 and 0.909.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["play", "play_first", "streams"]

MOVE_CAP = 100_000  # moves a hand may take before the playout calls it endless


def play_first(moves: list[Any], rng: random.Random) -> Any:
    """A random play when any card can be played, else a random other move; no
    random draw when there is only one to pick."""
    options = [m for m in moves if m.kind == "play"] or moves
    return options[0] if len(options) == 1 else rng.choice(options)


def streams(seed: int, hands: int) -> list[random.Random]:
    """One random stream per hand (its deal and its choices), made before timing."""
    return [random.Random(seed * 1_000_003 + i) for i in range(hands)]


def play(game_class: Any, sheet: Any, players: int, rngs: list[random.Random]) -> int:
    """Deal and play one complete hand per stream (dealer ``i % players``) with every
    card known, by :func:`play_first`; returns the moves applied."""
    moves = 0
    for i, rng in enumerate(rngs):
        g = game_class.deal(sheet, players, i % players, rng)
        made = 0
        while not g.is_over:
            g.apply(play_first(g.legal_moves(), rng))
            made += 1
            if made > MOVE_CAP:
                raise RuntimeError("a random hand did not end")
        moves += made
    return moves
