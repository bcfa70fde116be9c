"""The leaderboard's benchmark: ``python -m tests.bench leaderboard``.

One throwaway database holds two groups, one of 10 finished-or-not random matches and
one of N, imported at once (one rating pass at the end). It prints, for each group,
alternating requests so both are measured under the same load:

* the leaderboard page and ``GET /api/v1/leaderboard``: milliseconds and SQL
  statements, and the ratio of N to 10 (flat means about 1);
* a finishing hand (a one-hand Crazy Eights match among the group's players): the
  save's milliseconds and statements, the ratings moved on without a replay;
* the ratings of the N-match group rated again from its stored matches, and the whole
  ``db rebuild`` of that group (every derived figure, ratings included) for scale.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable

import click
from flask import Flask
from sqlalchemy import event

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player, RatingStep
from scorekeeper.store.records import create_match, record_hand
from scorekeeper.store.transfer import Limits, validate, write_plans
from scorekeeper.store.upkeep import rebuild_groups
from tests.support.documents import random_document
from tests.support.views import match_view

C8 = "crazy-eights"


def _group(app: Flask, matches: int, seed: int) -> tuple[int, str]:
    """A group holding ``matches`` random matches, imported in one go."""
    doc = random_document(random.Random(seed), matches)
    limits = Limits(max_bytes=2**62, max_matches=matches, max_hands=10**6,
                    max_total_hands=10**8)
    with app.app_context():
        group = Group(name=f"Bench {matches}")
        db.session.add(group)
        db.session.commit()
        write_plans(group, *validate(doc, limits))
        return group.id, group.invite_token


def _timed(action: Callable[[], object], counter: list[int]) -> tuple[float, int]:
    """Milliseconds and SQL statements of one call."""
    counter[0] = 0
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000, counter[0]


def _finish_one(app: Flask, group_id: int, rng: random.Random) -> Callable[[], object]:
    """A new one-hand match among three of the group's players, and the call that
    records its only hand (which finishes it)."""
    with app.app_context():
        players = db.session.scalars(db.select(Player.id).where(Player.group_id == group_id)
                                     ).all()
        seated = rng.sample(list(players), 3)
        group = db.session.get_one(Group, group_id)
        match = create_match(group, Sheet.make(C8, {"match_end": "one-hand"}),
                             [db.session.get_one(Player, p) for p in seated], 0)
        match_id = match.id

    def finish() -> object:
        with app.app_context():
            return record_hand(match_view(match_id), 1, 0,
                               [[], parse_cards("KH"), parse_cards("3D")])
    return finish


def _median(samples: list[tuple[float, int]]) -> tuple[float, int]:
    return statistics.median(s[0] for s in samples), max(s[1] for s in samples)


@click.command("leaderboard")
@click.option("--matches", default=10000, show_default=True, type=click.IntRange(11, 10**6))
@click.option("--repeat", default=20, show_default=True, type=click.IntRange(1, 1000),
              help="Requests and saves per group (alternating); medians are printed.")
@click.option("--database-url", help="An EMPTY database to use instead of a temporary SQLite.")
@click.option("--seed", default=0, show_default=True, type=int)
def bench_leaderboard(matches: int, repeat: int, database_url: str | None, seed: int) -> None:
    """The leaderboard and a finishing save at 10 and at N matches, and a rating rebuild."""
    from scorekeeper import create_app

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = tmp
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{tmp}/b.db",
                          "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "RATE_LIMITS": False})
        counter = [0]
        with app.app_context():
            db.create_all()
            event.listen(db.engine, "before_cursor_execute",
                         lambda *args: counter.__setitem__(0, counter[0] + 1))
        start = time.perf_counter()
        groups = {10: _group(app, 10, seed), matches: _group(app, matches, seed + 1)}
        click.echo(f"(imported and rated {matches + 10} matches in "
                   f"{time.perf_counter() - start:.1f} s)")
        _pages(app, groups, repeat, counter)
        _saves(app, groups, repeat, counter, random.Random(seed))
        _rebuilds(app, groups[matches][0], matches, counter)
        with app.app_context():
            db.engine.dispose()


def _pages(app: Flask, groups: dict[int, tuple[int, str]], repeat: int,
           counter: list[int]) -> None:
    clients = {}
    for size, (_group_id, token) in groups.items():
        client = app.test_client()
        client.get(f"/join/{token}")
        clients[size] = client
    kinds = {"leaderboard page": lambda size: clients[size].get(
                 f"/groups/{groups[size][0]}/leaderboard?game=last-one"),
             "API leaderboard": lambda size: clients[size].get(
                 "/api/v1/leaderboard?game=last-one",
                 headers={"Authorization": f"Bearer {groups[size][1]}"})}
    for label, fetch in kinds.items():
        samples: dict[int, list[tuple[float, int]]] = {size: [] for size in groups}
        for size in groups:
            assert fetch(size).status_code == 200  # warm
        for _ in range(repeat):
            for size in groups:
                samples[size].append(_timed(lambda s=size, f=fetch: f(s), counter))
        _line(label, {size: _median(found) for size, found in samples.items()})


def _saves(app: Flask, groups: dict[int, tuple[int, str]], repeat: int, counter: list[int],
           rng: random.Random) -> None:
    samples: dict[int, list[tuple[float, int]]] = {size: [] for size in groups}
    for _ in range(repeat):
        for size, (group_id, _token) in groups.items():
            samples[size].append(_timed(_finish_one(app, group_id, rng), counter))
    _line("finishing save", {size: _median(found) for size, found in samples.items()})


def _line(label: str, figures: dict[int, tuple[float, int]]) -> None:
    (small, (ms_small, q_small)), (large, (ms_large, q_large)) = sorted(figures.items())
    click.echo(f"{label:<18} {small:>6} matches {ms_small:7.2f} ms {q_small:3d} statements | "
               f"{large:>6} matches {ms_large:7.2f} ms {q_large:3d} statements | "
               f"ratio {ms_large / ms_small:.2f}")


def _rebuilds(app: Flask, group_id: int, matches: int, counter: list[int]) -> None:
    with app.app_context():
        connection = db.session.connection()
        start, cpu = time.perf_counter(), time.process_time()
        steps = projection.rerate(connection, group_id)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        db.session.commit()
        stored = db.session.scalar(db.select(db.func.count()).select_from(RatingStep)
                                   .where(RatingStep.group_id == group_id))
        assert stored == steps
        click.echo(f"ratings of the {matches}-match group rated again: {steps} steps in "
                   f"{wall:.2f} s (CPU {cpu:.2f} s)")
        start = time.perf_counter()
        wrong = rebuild_groups(db.engine, [group_id])
        click.echo(f"db rebuild of that group (every derived figure): "
                   f"{time.perf_counter() - start:.2f} s, {wrong[group_id]} values were wrong")
