"""``python -m tests.bench engine --against openspiel``: our engine and OpenSpiel's, side by side.

Both play random complete Crazy Eights hands with the same *play-first* policy (a random
playable card when there is one, else a random one of what is left: draw or pass; no
random draw when there is one move only, see :mod:`.playout`),
under the same rules: OpenSpiel's ``crazy_eights`` with ``max_draw_cards=5``,
``use_special_cards=False``, ``reshuffle=True`` and a turn cap far beyond any real hand;
our sheet with the options that match it (:data:`OPENSPIEL_SHEET`). They run in one
process, alternating batch by batch so both see the same machine load, and the figures
are medians over the repeats. OpenSpiel (the ``open-spiel`` package, ``pyspiel``) is an
optional extra; without it the command says so and exits 2.

Time is the process's CPU time by default (``--clock cpu``, :func:`time.process_time`):
both engines run in this one thread, OpenSpiel's C++ included, so CPU time charges each
only for its own work, while wall-clock time (``--clock wall``) also counts the moments
a shared machine gives to other jobs, which made ratios swing by half between runs.

``--baseline DIR`` adds a before/after pair to each batch: the engine checked out in
``DIR`` (e.g. ``git worktree add /tmp/sk-before <commit>``) and this checkout's, each
in a fresh subprocess that times itself, one after the other (which goes first
alternates batch by batch). Both run the one loop of :mod:`.playout` on the same hands
(one random stream per hand), in processes alike (not this one, which also holds
OpenSpiel and the other engines' garbage), each after an untimed batch of other hands
(so neither figure includes building the engine's move tables, which a long
simulation does once), and a batch's two times differ by the engines alone; the
speed-up is the median of the batches' own ratios.

OpenSpiel leaves its chance nodes (each card dealt or drawn) to the caller, so its
figures include picking them in Python. The table shows two ways: by the weights of
``chance_outcomes()`` (OpenSpiel's own examples), and, with one deck (2 to 5 players),
uniformly from ``legal_actions()``, which draws the same cards because every chance
outcome is then equally likely, and cuts OpenSpiel's time by more than half. Our
engine shuffles the deck once per deal instead. Read both ratios: the second is the
stricter one.

Moves are counted as each engine applies them: every decision a player makes (a play,
a draw, a pass; an 8's suit is part of our play and a separate "nominate" action in
OpenSpiel, counted there as a move as it is an action the engine applies). A pass that
is all a seat has left is an action in OpenSpiel, while our engine takes it within the
move before (the turn moves on), so our moves per game are fewer and games/s is the
figure to compare. OpenSpiel's chance nodes (the cards drawn from the stock) are not
moves.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from scorekeeper.core.engine.state import HandInPlay
from scorekeeper.core.games import deck_for
from scorekeeper.core.sheets import Sheet
from tests.bench import playout
from tests.support.engine import OPENSPIEL_SHEET

CONFIGS: tuple[tuple[str, int], ...] = (
    ("crazy-eights", 2), ("crazy-eights", 4), ("crazy-eights", 7),
    ("last-one", 4), ("last-one", 6))
_DRAW, _PASS = 52, 53  # OpenSpiel's action ids: 0–51 play a card, 52 draw, 53 pass
MOVE_CAP = playout.MOVE_CAP


def load_pyspiel() -> Any:
    """The ``pyspiel`` module, or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def sheet_options(game: str) -> dict[str, Any] | None:
    """The options both engines play ``game`` under: OpenSpiel's rules for Crazy
    Eights, the default sheet otherwise."""
    return OPENSPIEL_SHEET if game == "crazy-eights" else None


def openspiel_game(pyspiel: Any, players: int) -> Any:
    """OpenSpiel's ``crazy_eights`` under the rules our :data:`OPENSPIEL_SHEET` matches."""
    return pyspiel.load_game(
        f"crazy_eights(players={players},max_draw_cards=5,use_special_cards=False,"
        f"reshuffle=True,max_turns={MOVE_CAP})")


def openspiel_games(pyspiel: Any, players: int, games: int, rng: random.Random,
                    chance: str = "weighted") -> int:
    """Play ``games`` random hands of OpenSpiel's ``crazy_eights``; returns the moves.

    ``chance`` is how the cards dealt and drawn (OpenSpiel's chance nodes) are picked:
    ``weighted`` by the probabilities ``chance_outcomes()`` lists, as OpenSpiel's own
    examples do; ``uniform``, one of ``legal_actions()`` at random, which is the same
    draw with one deck (every outcome is then equally likely; with two decks, at six
    players or more, a card's copies weigh it) without building the list of outcomes,
    over twice as fast for OpenSpiel."""
    game = openspiel_game(pyspiel, players)
    uniform = chance == "uniform"
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if uniform:
                    state.apply_action(rng.choice(state.legal_actions()))
                    continue
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            options = [a for a in legal if a < _DRAW] or legal  # as playout.play_first
            state.apply_action(options[0] if len(options) == 1 else rng.choice(options))
            moves += 1
    return moves


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time,
                                           "wall": time.perf_counter}

_BASELINE = """
import importlib.util, json, sys, time
import scorekeeper.core.engine as engine  # the engine checked out in the baseline
Game = getattr(engine, "HandInPlay", None) or getattr(engine, "Game")  # HandInPlay since issue 41
from scorekeeper.core.sheets import Sheet
spec = importlib.util.spec_from_file_location("playout", sys.argv[1])
playout = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playout)
game, players, games, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
clock = {"cpu": time.process_time, "wall": time.perf_counter}[sys.argv[6]]
sheet = Sheet.make(game, json.loads(sys.argv[7]))
playout.play(Game, sheet, players, playout.streams(seed + 1_000_000, games))  # warm-up
rngs = playout.streams(seed, games)
start = clock()
moves = playout.play(Game, sheet, players, rngs)
print(json.dumps([clock() - start, moves]))
"""


def is_checkout(path: str) -> bool:
    """Whether ``path`` holds a checkout of scorekeeper with an engine package for
    :func:`checkout_games` to time."""
    return os.path.isfile(os.path.join(path, "scorekeeper", "core", "engine", "__init__.py"))


HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The top of this checkout: the "after" of a before/after pair."""


def checkout_games(path: str, game: str, players: int, games: int, seed: int,
                   clock: str = "cpu") -> tuple[float, int]:
    """Seconds and moves for a batch of hands under the engine checked out in ``path``:
    this checkout's :mod:`.playout` loop in a subprocess that imports that engine and
    times itself with the given clock."""
    done = subprocess.run(
        [sys.executable, "-c", _BASELINE, playout.__file__, game, str(players), str(games),
         str(seed), clock, json.dumps(sheet_options(game))],
        env={**os.environ, "PYTHONPATH": path}, cwd=path, capture_output=True, text=True,
        check=True)
    seconds, moves = json.loads(done.stdout.strip().splitlines()[-1])
    return float(seconds), int(moves)


def _time(run: Callable[[], int], clock: Callable[[], float]) -> tuple[float, int]:
    start = clock()
    moves = run()
    return clock() - start, moves


def compare(game: str, players: int, games: int, repeats: int, seed: int,
            pyspiel: Any, baseline: str | None = None, clock: str = "cpu") -> dict[str, Any]:
    """Alternate batches of ``games`` hands, ours then OpenSpiel's (then the engine in
    ``baseline``, if given), ``repeats`` times; the medians of games/s and moves/s, and
    our ratios to OpenSpiel's and to the baseline's. ``clock`` is a key of CLOCKS."""
    ours: list[tuple[float, int]] = []
    theirs: list[tuple[float, int]] = []
    uniform: list[tuple[float, int]] = []
    before: list[tuple[float, int]] = []
    after: list[tuple[float, int]] = []
    timer = CLOCKS[clock]
    sheet = Sheet.make(game, sheet_options(game))
    for r in range(repeats):
        rngs = playout.streams(seed + r, games)  # made before the clock starts
        ours.append(_time(partial(playout.play, HandInPlay, sheet, players, rngs), timer))
        if game == "crazy-eights" and pyspiel is not None:
            theirs.append(_time(partial(openspiel_games, pyspiel, players, games,
                                        random.Random(seed + r)), timer))
            if deck_for(game, players).decks == 1:  # else copies weigh the outcomes
                uniform.append(_time(partial(openspiel_games, pyspiel, players, games,
                                             random.Random(seed + r), "uniform"), timer))
        if baseline is not None:
            pair = [(before, baseline), (after, HERE)]
            for times, path in pair[::-1] if r % 2 else pair:
                times.append(checkout_games(path, game, players, games, seed + r, clock))
    row: dict[str, Any] = {"game": game, "players": players, "games": games,
                           "repeats": repeats, "clock": clock, **_rates("ours", ours, games)}
    if before:
        row.update(_rates("before", before, games))
        row.update(_rates("after", after, games))
        # Batch r of both played the same hands: the ratio of each pair, then the median.
        row["speedup"] = round(statistics.median(b / a for (a, _), (b, _) in zip(
            after, before, strict=True)), 2)
    if theirs:
        row.update(_rates("openspiel", theirs, games))
        row["games_ratio"] = round(row["ours_games_per_second"]
                                   / row["openspiel_games_per_second"], 2)
        row["moves_ratio"] = round(row["ours_moves_per_second"]
                                   / row["openspiel_moves_per_second"], 2)
    if uniform:
        row.update(_rates("openspiel_uniform", uniform, games))
        row["uniform_games_ratio"] = round(row["ours_games_per_second"]
                                           / row["openspiel_uniform_games_per_second"], 2)
    return row


def _rates(who: str, runs: list[tuple[float, int]], games: int) -> dict[str, float]:
    return {f"{who}_games_per_second": round(statistics.median(games / s for s, _ in runs), 1),
            f"{who}_moves_per_second": round(statistics.median(m / s for s, m in runs), 1)}


def _cell(row: dict[str, Any], key: str, fmt: str = "{:,.0f}") -> str:
    return fmt.format(row[key]) if key in row else "–"


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table (tests/bench/README.md shows one)."""
    uniform = any("uniform_games_ratio" in r for r in rows)
    extra = any("speedup" in r for r in rows)
    head = "| Game | Players | Ours games/s | OpenSpiel games/s | Ratio |"
    rule = "| --- | ---: | ---: | ---: | ---: |"
    if uniform:
        head += " OpenSpiel games/s, uniform chance | Ratio |"
        rule += " ---: | ---: |"
    head += " Ours moves/s | OpenSpiel moves/s | Ratio |"
    rule += " ---: | ---: | ---: |"
    if extra:
        head += " Before games/s | After games/s | Speed-up |"
        rule += " ---: | ---: | ---: |"
    lines = [head, rule]
    for r in rows:
        cell = partial(_cell, r)
        line = (f"| {r['game']} | {r['players']} | {cell('ours_games_per_second')} "
                f"| {cell('openspiel_games_per_second')} | {cell('games_ratio', '{:.2f}×')} |")
        if uniform:
            line += (f" {cell('openspiel_uniform_games_per_second')} "
                     f"| {cell('uniform_games_ratio', '{:.2f}×')} |")
        line += (f" {cell('ours_moves_per_second')} | {cell('openspiel_moves_per_second')} "
                 f"| {cell('moves_ratio', '{:.2f}×')} |")
        if extra:
            line += (f" {cell('before_games_per_second')} | {cell('after_games_per_second')} "
                     f"| {cell('speedup', '{:.2f}×')} |")
        lines.append(line)
    return "\n".join(lines)
