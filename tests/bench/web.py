"""``python -m tests.bench web``: the save round trip, the scoreboard, its live poll and
the player page, timed in one process against a bare route of the same app.

Absolute times on a shared machine swing with its load, so every figure is a median
over ``--repeat`` requests and is also printed as a ratio to the median of a route that
does nothing (measured in the same run). Beside the wall clock it prints the CPU time
of this process (the test client runs the app in this thread), which other jobs on
the machine disturb much less. Query counts come from a
``before_cursor_execute`` listener. Every timed save records the next hand of its own
copy of a match, built before the timing starts: nothing is undone between repeats
(undoing hand 500 loads every hand of its match, and the next save paid for
collecting that garbage); the cycle collector runs once after each set-up, untimed.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import click
from flask import Flask
from sqlalchemy import event

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match
from tests.support.web import matches_by_length

HELD = {"0": "", "1": "3C 4D", "2": "5H", "3": "KS"}  # the hand every save records
BARE = "/__bench/bare"


@dataclass
class Row:
    """One printed line: a request's medians (wall clock and CPU), its queries."""

    label: str
    ms: float
    queries: int
    cpu_ms: float = 0.0


class Timer:
    """Runs requests, counting SQL statements and keeping the median time."""

    def __init__(self, app: Flask, repeat: int) -> None:
        self.repeat, self.count = repeat, 0
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._seen)

    def _seen(self, *_args: object) -> None:
        self.count += 1

    def run(self, label: str, request: Callable[[int], object]) -> Row:
        """Median ms of ``request(i)`` for i = 1 … repeat, after a warm-up (i = 0)."""
        times, cpu, queries = [], [], 0
        for i in range(self.repeat + 1):
            self.count = 0
            start, start_cpu = time.perf_counter(), time.process_time()
            request(i)
            elapsed, used = time.perf_counter() - start, time.process_time() - start_cpu
            queries = self.count
            if i:
                times.append(elapsed * 1000)
                cpu.append(used * 1000)
        return Row(label, statistics.median(times), queries, statistics.median(cpu))


def _ok(response, *codes: int):
    if response.status_code not in (codes or (200,)):
        answer = response.get_data(as_text=True)[:300]
        raise click.ClickException(f"{response.request.path}: {response.status_code} {answer}")
    return response


def save_rows(app: Flask, timer: Timer) -> list[Row]:
    """The save round trip (API and form) and the scoreboard, on small and long matches."""
    table = matches_by_length(app, timer.repeat + 1)
    gc.collect()  # the set-up's garbage, not the first timed request's to collect
    client = app.test_client()
    _ok(client.get(f"/join/{table.token}"), 302)
    auth = {"Authorization": f"Bearer {table.token}"}
    api = "/api/v1/matches/{}/hands"
    pages = f"/groups/{table.group_id}/matches/{{}}"

    def api_save(hands: int) -> Row:
        body = {"number": hands + 1, "out": 0, "held": HELD}
        ids = table.matches[hands]
        return timer.run(
            f"POST a hand, JSON API (hand {hands + 1})",
            lambda i: _ok(client.post(api.format(ids[i]), json=body, headers=auth), 201))

    def form_save(hands: int) -> Row:
        form = {"number": str(hands + 1), "out": "0"} | {f"seat-{k}": v for k, v in HELD.items()}
        ids = table.matches[hands]
        return timer.run(
            f"POST a hand, form + redirected scoreboard (hand {hands + 1})",
            lambda i: _ok(client.post(pages.format(ids[i]) + "/hands/new", data=form,
                                      follow_redirects=True)))

    def board(hands: int) -> Row:
        url = pages.format(table.matches[hands][0])
        return timer.run(f"scoreboard GET ({hands} hands)", lambda _: _ok(client.get(url)))

    def poll(hands: int) -> Row:
        """What every open board and hand form asks every 3 s: unchanged, a 304."""
        url = pages.format(table.matches[hands][0]) + "/live"
        etag = _ok(client.get(url)).headers["ETag"]
        return timer.run(f"live poll, nothing changed: 304 ({hands} hands)",
                         lambda _: _ok(client.get(url, headers={"If-None-Match": etag}), 304))

    return [api_save(0), api_save(499), form_save(10), board(10), board(500), poll(500)]


def group_rows(app: Flask, timer: Timer, group_id: int, size: int) -> list[Row]:
    """History, a match record and the player page of a group of ``size`` matches."""
    with app.app_context():
        group = db.session.get_one(Group, group_id)
        match_id = db.session.scalar(db.select(Match.id).where(Match.group_id == group_id)
                                     .order_by(Match.hand_count.desc()).limit(1))
        token, player_id = group.invite_token, group.players[0].id
    client = app.test_client()
    _ok(client.get(f"/join/{token}"), 302)
    base = f"/groups/{group_id}"
    pages = [("history", f"{base}/history"),
             ("match record", f"{base}/matches/{match_id}/record"),
             ("player statistics", f"{base}/players/{player_id}/stats")]
    return [timer.run(f"{label} at {size:,} matches", partial(_get, client, url))
            for label, url in pages]


def _get(client: Any, url: str, _repeat: int) -> None:
    _ok(client.get(url))


def print_rows(rows: list[Row], bare: Row) -> None:
    """The rows as a Markdown table, ratios against ``bare``."""
    click.echo("| request | median ms | vs bare route | CPU ms | CPU vs bare | SQL queries |")
    click.echo("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in [bare, *rows]:
        click.echo(f"| {row.label} | {row.ms:.1f} | {row.ms / bare.ms:.1f}× | {row.cpu_ms:.2f} "
                   f"| {row.cpu_ms / max(bare.cpu_ms, 1e-6):.1f}× | {row.queries} |")


def bench_app(tmp: str, database_url: str | None) -> Flask:
    """A throwaway app with a bare route, on an empty database."""
    from scorekeeper import create_app

    os.environ["SCOREKEEPER_INSTANCE_PATH"] = tmp
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp}/bench.db",
                      "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    app.add_url_rule(BARE, "bench_bare", lambda: "ok")
    with app.app_context():
        db.create_all()
    return app


@click.command("web")
@click.option("--matches", default=10000, show_default=True, type=click.IntRange(10, 100000),
              help="The largest group for the player page (also timed at 10 and 1,000).")
@click.option("--repeat", default=15, show_default=True, type=click.IntRange(3, 1000),
              help="Requests per figure (the median is printed).")
@click.option("--database-url", help="An EMPTY database to use instead of a temporary SQLite.")
@click.option("--seed", default=0, show_default=True, type=int)
def bench_web(matches: int, repeat: int, database_url: str | None, seed: int) -> None:
    """Median time, ratio to a bare route and SQL queries of saves and pages."""
    from tests.bench.history import fill_group

    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp, database_url)
        timer = Timer(app, repeat)
        client = app.test_client()
        rows = save_rows(app, timer)
        rng = random.Random(seed)
        with app.app_context():
            group = Group(name="Bench history")
            db.session.add(group)
            db.session.commit()
            group_id = group.id
        filled = 0
        for size in sorted({s for s in (10, 1000, 10000) if s <= matches} | {matches}):
            with app.app_context():
                fill_group(db.session.get_one(Group, group_id), rng, size - filled)
            gc.collect()
            filled = size
            rows += group_rows(app, timer, group_id, size)
        bare = timer.run("bare route", lambda _: _ok(client.get(BARE)))
        print_rows(rows, bare)
        with app.app_context():
            db.engine.dispose()
