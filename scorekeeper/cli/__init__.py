"""Command line: ``scorekeeper serve``, ``scorekeeper bench …`` and the database helpers.

``scorekeeper`` is a Flask CLI group bound to :func:`create_app`, so every ``flask``
command (``db upgrade``, ``db check``, …) works under it too.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from typing import NoReturn

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from scorekeeper.core.sheets import GAMES, LO


def _create_app() -> Flask:
    from scorekeeper import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app, add_default_commands=True)
def main() -> None:
    """Scorekeeper for Crazy Eights and Last One."""


# Commands are defined below and added to the app's CLI by register().


def upgrade_database() -> None:
    """Create or upgrade the database to the newest migration."""
    from flask_migrate import upgrade

    upgrade()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def print_qr(url: str) -> None:
    """Show the address as a QR code in the terminal, for phones to scan."""
    import segno

    with contextlib.suppress(UnicodeEncodeError, OSError):  # a terminal that can't draw it
        segno.make(url, error="m").terminal(compact=True)


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--threads", default=8, show_default=True, type=int, help="Worker threads.")
@with_appcontext
def serve(host: str, port: int, threads: int) -> None:
    """Upgrade the database and serve the app with a production WSGI server.

    With ``SCOREKEEPER_PUBLIC_URL`` set the address shown (and its QR code) is that URL;
    ``SCOREKEEPER_PROXIES`` = N makes the app trust N proxies' forwarded headers (see
    ``scorekeeper/security.py``); without it waitress drops them. Waitress buffers a
    body before the app sees it, so it is told the largest body the app accepts and
    refuses bigger ones itself.
    """
    from waitress import serve as waitress_serve

    upgrade_database()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    url = app.config.get("PUBLIC_URL") or ""
    if url:
        click.echo(f"Scorekeeper is running at {url}/ (port {port} here).")
    else:
        shown = lan_address() if host in ("0.0.0.0", "::") else host
        url = f"http://{shown}:{port}"
        click.echo(f"Scorekeeper is running. Open {url}/ on a phone on the same network.")
    print_qr(url + "/")
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI']}")
    if app.config.get("PROXIES"):
        click.echo(f"Trusting the forwarded headers of {app.config['PROXIES']} proxy(ies).")
    sys.stdout.flush()
    # Waitress drops X-Forwarded-* headers unless told otherwise; with trusted proxies
    # they reach ProxyFix, the one place that reads them (under gunicorn too).
    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper",
                   max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                   clear_untrusted_proxy_headers=not app.config.get("PROXIES"))


@click.command("check-names")
@with_appcontext
def check_names() -> None:
    """List stored names that today's text rules refuse or that clash (exit 1 if any)."""
    from scorekeeper.store.groups import name_problems

    problems = name_problems()
    for problem in problems:
        click.echo(problem)
    click.echo(f"{len(problems)} name problem(s).")
    if problems:
        sys.exit(1)


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
    """Benchmarks that print figures (not tests)."""


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
    if baseline is not None and not os.path.isfile(
            os.path.join(baseline, "scorekeeper", "cli", "versus.py")):
        fail(f"--baseline: {baseline!r} is not a checkout with scorekeeper/cli/versus.py")
    if against:
        _versus(games, repeats, seed, as_json, baseline, clock)
        return
    problem = GAMES[game].players_problem(players)
    if problem:
        fail(f"--players: {problem}")
    from scorekeeper.core.engine.bench import run_bench

    result = run_bench(game, players, games, seed)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(
        f"{result['game']}, {result['players']} players: {result['games']} games, "
        f"{result['moves']} moves in {result['seconds']:.2f} s — "
        f"{result['games_per_second']:.0f} games/s, {result['moves_per_second']:.0f} moves/s"
    )


def _versus(games: int, repeats: int, seed: int, as_json: bool,
            baseline: str | None = None, clock: str = "cpu") -> None:
    """The side-by-side run behind ``bench engine --against openspiel``."""
    from scorekeeper.cli import versus

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


def register(app: Flask) -> None:
    """Add the commands to ``app.cli``: ``flask --app scorekeeper serve`` works too, and
    the ``scorekeeper`` group finds them through the app."""
    from scorekeeper.cli.bench_browser import bench_browser
    from scorekeeper.cli.bench_web import bench_web
    from scorekeeper.cli.history import (
        bench_history,
        bench_import,
        export_command,
        import_command,
    )

    bench.add_command(bench_history)
    bench.add_command(bench_import)
    bench.add_command(bench_web)
    bench.add_command(bench_browser)
    for command in (serve, bench, export_command, import_command, check_names):
        app.cli.add_command(command)
