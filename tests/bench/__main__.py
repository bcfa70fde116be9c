"""The benchmarks, run from the top of a checkout: ``python -m tests.bench COMMAND``.

Commands: ``engine`` (our engine alone, or ``--against openspiel``), ``web`` (requests
against a bare route), ``browser`` (Chromium: page weight and "Record hand"),
``history`` (history pages at 10 and N matches), ``import`` (a large import),
``cluster`` (hands/s on one host and three behind nginx, and the polling cost),
``leaderboard`` (the leaderboard and a finishing save at 10 and N matches, a rating
rebuild), ``replay`` (a 5,000-event replay through the core and the API),
``spectators`` (browsers polling a match's live URL beside a bare Flask app). Each
prints its figures; none is collected by the test suite.
"""

from __future__ import annotations

import json
from typing import NoReturn

import click

from scorekeeper.core.sheets import GAMES
from tests.bench import versus
from tests.bench.browser import bench_browser
from tests.bench.cluster import bench_cluster
from tests.bench.engine import run_bench, undo_bytes_per_move
from tests.bench.history import bench_history, bench_import
from tests.bench.leaderboard import bench_leaderboard
from tests.bench.replay import bench_replay
from tests.bench.spectators import bench_spectators_command
from tests.bench.web import bench_web

LO = "last-one"


def fail(message: str) -> NoReturn:
    """Print ``Error: message`` on stderr and exit with code 2 (bad usage)."""
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(2)


class OneLineErrors(click.Group):
    """A command group whose usage errors print one line (``Error: …``) and exit 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.ctx = None  # without a context, click prints the message alone
            raise


@click.group("bench", cls=OneLineErrors)
def bench() -> None:
    """Benchmarks that print figures (not tests): python -m tests.bench COMMAND."""


@bench.command("engine")
@click.option("--game", default=LO, show_default=True, type=click.Choice(list(GAMES)))
@click.option("--players", default=4, show_default=True, type=int)
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 10**6))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--against", type=click.Choice(["openspiel"]),
              help="Also run OpenSpiel's crazy_eights in the same process, alternating, "
                   "for Crazy Eights at 2, 4, 7 and Last One at 4, 6 players.")
@click.option("--repeats", default=5, show_default=True, type=click.IntRange(1, 100),
              help="With --against: batches of --games per engine; medians are printed.")
@click.option("--baseline", metavar="DIR",
              help="With --against: also time the engine checked out in DIR (e.g. "
                   "`git worktree add DIR <commit>`) in a subprocess, same batches.")
@click.option("--clock", default="cpu", show_default=True, type=click.Choice(["cpu", "wall"]),
              help="With --against: time by this process's CPU time (steady on a shared "
                   "machine) or by the wall clock.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def bench_engine(game: str, players: int, games: int, seed: int, against: str | None,
                 repeats: int, baseline: str | None, clock: str, as_json: bool) -> None:
    """Play K seeded random complete games and print games and moves per second."""
    if baseline is not None and not versus.is_checkout(baseline):
        fail(f"--baseline: {baseline!r} is not a checkout of scorekeeper with its engine")
    if against:
        _versus(games, repeats, seed, as_json, baseline, clock)
        return
    problem = GAMES[game].players_problem(players)
    if problem:
        fail(f"--players: {problem}")
    result = run_bench(game, players, games, seed)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(
        f"{result['game']}, {result['players']} players: {result['games']} games, "
        f"{result['moves']} moves in {result['seconds']:.2f} s — "
        f"{result['games_per_second']:.0f} games/s, {result['moves_per_second']:.0f} moves/s; "
        f"undo log {undo_bytes_per_move(game, players, games, seed):.0f} bytes a move"
    )


def _versus(games: int, repeats: int, seed: int, as_json: bool,
            baseline: str | None = None, clock: str = "cpu") -> None:
    """The side-by-side run behind ``bench engine --against openspiel``."""
    pyspiel = versus.load_pyspiel()
    if pyspiel is None:
        fail("--against openspiel needs OpenSpiel: pip install open-spiel")
    rows = []
    for game, players in versus.CONFIGS:
        rows.append(versus.compare(game, players, games, repeats, seed, pyspiel, baseline,
                                   clock))
        if not as_json:
            click.echo(f"{game}, {players} players: done", err=True)
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(versus.table(rows))
    click.echo(f"({'CPU' if clock == 'cpu' else 'Wall-clock'} time; medians of {repeats} "
               f"batches of {games} hands per engine.)")


for command in (bench_history, bench_import, bench_web, bench_browser, bench_cluster,
                bench_leaderboard, bench_replay, bench_spectators_command):
    bench.add_command(command)

if __name__ == "__main__":
    bench()
