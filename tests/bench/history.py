"""Benchmarks of the history pages and of a large import.

``history`` fills a throwaway database with random matches and prints the time and SQL
query count of the history page, a match record and a player page at 10 and at N
matches; ``import --hands N`` times one N-hand import (validation and writing apart)
into a throwaway database.
"""

from __future__ import annotations

import os
import random
import tempfile
import time

import click
from flask import Flask
from sqlalchemy import event

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match
from scorekeeper.store.transfer import (
    Limits,
    import_document,
    validate,
    write_plans,
)
from tests.support.documents import document_of_hands, random_document


def _measure(client, url: str, counter: list[int], repeat: int = 5) -> tuple[float, int]:
    """Milliseconds per request (mean of ``repeat`` after a warm-up) and queries."""
    assert client.get(url).status_code == 200, url
    counter[0] = 0
    start = time.perf_counter()
    for _ in range(repeat):
        client.get(url)
    return (time.perf_counter() - start) * 1000 / repeat, counter[0] // repeat


def fill_group(group: Group, rng: random.Random, count: int, batch: int = 500) -> None:
    """Import ``count`` random matches into the group, ``batch`` per transaction."""
    while count > 0:
        n = min(batch, count)
        import_document(group, random_document(rng, n))
        count -= n


def _report(app: Flask, group_id: int, matches: int, counter: list[int]) -> None:
    with app.app_context():
        group = db.session.get_one(Group, group_id)
        match = db.session.scalar(db.select(Match).where(Match.group_id == group_id)
                                  .order_by(Match.hand_count.desc()).limit(1))
        player = group.players[0]
        token, match_id, player_id = group.invite_token, match.id, player.id
    client = app.test_client()
    client.get(f"/join/{token}")
    base = f"/groups/{group_id}"
    pages = [("history", f"{base}/history"),
             ("history, one player", f"{base}/history?player={player_id}"),
             ("match record", f"{base}/matches/{match_id}/record"),
             ("player page", f"{base}/players/{player_id}/stats")]
    for label, url in pages:
        ms, queries = _measure(client, url, counter)
        click.echo(f"{matches:>7} matches  {label:<20} {ms:8.1f} ms  {queries:3d} queries")


@click.command("history")
@click.option("--matches", default=10000, show_default=True, type=click.IntRange(11, 1000000))
@click.option("--database-url", help="An EMPTY database to use instead of a temporary SQLite.")
@click.option("--seed", default=0, show_default=True, type=int)
def bench_history(matches: int, database_url: str | None, seed: int) -> None:
    """Time the history, match record and player pages at 10 and at N matches."""
    from scorekeeper import create_app

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = tmp
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp}/bench.db",
                          "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        counter = [0]
        rng = random.Random(seed)
        with app.app_context():
            db.create_all()
            event.listen(db.engine, "before_cursor_execute",
                         lambda *args: counter.__setitem__(0, counter[0] + 1))
            group = Group(name="Bench")
            db.session.add(group)
            db.session.commit()
            group_id = group.id
            fill_group(group, rng, 10)
        _report(app, group_id, 10, counter)
        start = time.perf_counter()
        with app.app_context():
            fill_group(db.session.get_one(Group, group_id), rng, matches - 10)
        click.echo(f"(filled {matches - 10} more matches in {time.perf_counter() - start:.0f} s)")
        _report(app, group_id, matches, counter)
        with app.app_context():
            db.engine.dispose()


@click.command("import")
@click.option("--hands", default=50000, show_default=True, type=click.IntRange(1, 1000000),
              help="Hands in the random document (whole matches: it may hold a few more).")
@click.option("--database-url", help="An EMPTY database to use instead of a temporary SQLite.")
@click.option("--seed", default=0, show_default=True, type=int)
def bench_import(hands: int, database_url: str | None, seed: int) -> None:
    """Time one import of a random N-hand document into an empty database (a temporary
    SQLite unless given), the per-import limits lifted: validation and writing apart,
    and hands/s."""
    from scorekeeper import create_app

    doc = document_of_hands(random.Random(seed), hands)
    count = sum(len(match["hands"]) for match in doc["matches"])
    limits = Limits(max_bytes=2**62, max_matches=count, max_hands=count,
                    max_total_hands=count)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = tmp
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp}/bench.db",
                          "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        with app.app_context():
            db.create_all()
            group = Group(name="Bench")
            db.session.add(group)
            db.session.commit()
            start, cpu_start = time.perf_counter(), time.process_time()
            plans, colours = validate(doc, limits)
            checked, cpu_checked = time.perf_counter(), time.process_time()
            matches = len(doc["matches"])
            del doc  # let go before the write, as import_document does
            report = write_plans(group, plans, colours)
            done, cpu_done = time.perf_counter(), time.process_time()
            db.engine.dispose()
    assert report.hands == count
    # Wall-clock seconds, and this process's CPU seconds: on a shared machine the
    # second figure moves far less from run to run.
    click.echo(f"{count} hands in {matches} matches: validation "
               f"{checked - start:.2f} s (CPU {cpu_checked - cpu_start:.2f} s), write "
               f"{done - checked:.2f} s (CPU {cpu_done - cpu_checked:.2f} s), "
               f"{count / (done - start):.0f} hands/s")
