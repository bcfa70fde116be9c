"""Command line for match history: ``export``, ``import`` and ``bench history``.

``scorekeeper export --group 1 [--match 7] [--format json|csv] [-o file]`` writes a
group (or one match) the way the pages' download links do; ``scorekeeper import
--group 2 file.json`` reads it back, all or nothing. ``scorekeeper bench history``
fills a throwaway database with random matches and prints the time and SQL query count
of the history page, a match record and a player page at 10 and at N matches;
``scorekeeper bench import --hands N`` times one N-hand import (validation and writing
apart) into a throwaway SQLite database.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import event

from scorekeeper.core.cards import deck_for, format_cards
from scorekeeper.core.scoring import HandResult, standings
from scorekeeper.core.sheets import C8, CD, GAMES, LO, Sheet
from scorekeeper.core.text import PALETTE
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Match
from scorekeeper.store.transfer import (
    FORMAT,
    VERSION,
    Limits,
    TransferError,
    collector_paused,
    export_document,
    import_document,
    load_matches,
    parse_json,
    to_csv,
    validate,
    write_plans,
)

NAMES = ("Ann", "Bob", "Cat", "Dev", "Eli", "Fay", "Gus", "Hal")
QUICK = {LO: {"threshold": 100}, C8: {}, CD: {"start_count": 3}}


def _group(group_id: int) -> Group:
    group = db.session.get(Group, group_id)
    if group is None:
        raise click.ClickException(f"there is no group {group_id}")
    return group


@click.command("export")
@click.option("--group", "group_id", required=True, type=int, help="The group's id.")
@click.option("--match", "match_id", type=int, help="Export only this match.")
@click.option("--format", "fmt", default="json", show_default=True,
              type=click.Choice(["json", "csv"]))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of standard output.")
@with_appcontext
def export_command(group_id: int, match_id: int | None, fmt: str, output: str | None) -> None:
    """Export a group's matches (or one match) as JSON or CSV."""
    group = _group(group_id)
    matches = load_matches(group, match_id)
    if match_id is not None and not matches:
        raise click.ClickException(f"group {group_id} has no match {match_id}")
    text = (json.dumps(export_document(group, matches), ensure_ascii=False, indent=1)
            if fmt == "json" else to_csv(matches))
    if output:
        Path(output).write_text(text, encoding="utf-8", newline="")
        click.echo(f"Wrote {len(matches)} match(es) to {output}", err=True)
    else:
        sys.stdout.write(text)


@click.command("import")
@click.option("--group", "group_id", required=True, type=int, help="The target group's id.")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(group_id: int, file) -> None:
    """Import a JSON export into a group: every match or, on any problem, none."""
    group = _group(group_id)
    try:
        report = import_document(group, parse_json(file.read()))
    except TransferError as exc:
        for problem in exc.problems:
            click.echo(f"  {problem}", err=True)
        raise click.ClickException("nothing was imported") from None
    created = ", ".join(report.players_created) or "none"
    click.echo(f"Imported {report.matches} match(es), {report.hands} hand(s); "
               f"new players: {created}")


# ---- random matches (benchmark and tests) ----------------------------------------------

def random_match(rng: random.Random, game: str, names: Sequence[str], max_hands: int = 12
                 ) -> dict[str, Any]:
    """A valid match in export form: random hands until it ends or ``max_hands``."""
    sheet = Sheet.make(game, QUICK[game])
    dealer = rng.randrange(len(names))
    deck = deck_for(game, len(names)).cards()
    results: list[HandResult] = []
    for _ in range(max_hands):
        table = standings(sheet, names, dealer, results)
        if table.over:
            break
        alive = [s for s, playing in enumerate(table.in_play) if playing]
        out = rng.choice(alive) if rng.random() > 0.1 else None
        pile = rng.sample(deck, len(deck))
        held: list[list] = [[] for _ in names]
        for seat in alive:
            if seat != out:
                held[seat] = [pile.pop() for _ in range(rng.randint(0, 5))]
        results.append(HandResult.of(out, held))
    return {"sheet": sheet.to_dict(), "seats": list(names), "first_dealer": dealer,
            "hands": [{"out": r.out, "held": [format_cards(c) for c in r.held]}
                      for r in results]}


def random_document(rng: random.Random, matches: int, names: Sequence[str] = NAMES
                    ) -> dict[str, Any]:
    """An export document of random matches of every game, 2 to 6 players each."""
    items = []
    for i in range(matches):
        game = list(GAMES)[i % len(GAMES)]
        seats = rng.sample(list(names), rng.randint(2, min(6, len(names))))
        items.append(random_match(rng, game, seats))
    players = [{"name": n, "colour": PALETTE[i % len(PALETTE)]} for i, n in enumerate(names)]
    return {"format": FORMAT, "version": VERSION, "players": players, "matches": items}


# ---- benchmark --------------------------------------------------------------------------

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


def document_of_hands(rng: random.Random, hands: int, names: Sequence[str] = NAMES
                      ) -> dict[str, Any]:
    """Like :func:`random_document`, but as many whole matches as hold ``hands`` hands
    (the last match may take it a few past)."""
    doc = random_document(rng, 0, names)
    total = 0
    while total < hands:
        game = list(GAMES)[len(doc["matches"]) % len(GAMES)]
        seats = rng.sample(list(names), rng.randint(2, min(6, len(names))))
        doc["matches"].append(random_match(rng, game, seats))
        total += len(doc["matches"][-1]["hands"])
    return doc


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
            with collector_paused():  # as import_document does
                plans, colours = validate(doc, limits)
                checked, cpu_checked = time.perf_counter(), time.process_time()
                report = write_plans(group, plans, colours)
                del plans  # dropped before the collector runs again, as there
            done, cpu_done = time.perf_counter(), time.process_time()
            db.engine.dispose()
    assert report.hands == count
    # Wall-clock seconds, and this process's CPU seconds: on a shared machine the
    # second figure moves far less from run to run.
    click.echo(f"{count} hands in {len(doc['matches'])} matches: validation "
               f"{checked - start:.2f} s (CPU {cpu_checked - cpu_start:.2f} s), write "
               f"{done - checked:.2f} s (CPU {cpu_done - cpu_checked:.2f} s), "
               f"{count / (done - start):.0f} hands/s")
