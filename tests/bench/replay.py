"""``python -m tests.bench replay``: a 5,000-event replay, through the core and the API.

Issue 33 keeps the simpler engine code as long as "a 5,000-event replay answers in well
under 100 ms". The log comes from a seeded playout: four-player Crazy Eights, every
card known, drawing allowed while holding a playable card and with no limit, and a
policy that draws or passes far more often than it plays, so one hand runs past the
replay's limit of 5,000 events (:data:`~scorekeeper.core.engine.replay.MAX_EVENTS`; the
pile turned over keeps the stock going). Hands are dealt from seed, seed + 1, ... until
one does; its first N moves (a draw names the card drawn, as a table that saw it
would) are the events of one replay request, the deal and the stock listed card by card.

That request is answered over and over, alternating: by the core (:func:`.replay.run`,
which reads the JSON data as the route does, and judges every event) and by ``POST
/api/v1/replay`` through Flask's test client (the body encoded beforehand), with a bare
route of the same app for scale. It prints medians of wall-clock and CPU milliseconds
and the ratio of each to the bare route's.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import click

from scorekeeper.core.engine import HandInPlay, Move
from scorekeeper.core.engine.facts import peek
from scorekeeper.core.engine.replay import MAX_EVENTS, run
from scorekeeper.core.sheets import Sheet

C8 = "crazy-eights"

PLAYERS = 4
OPTIONS = {"draw_limit": None, "draw_with_playable": True, "play_after_draw": True}
BARE = "/__bench/bare"
HANDS_TRIED = 50


def event_of(move: Move, drawn: Any) -> dict[str, Any]:
    """A move as a replay event (``drawn``: the card a draw takes, when known)."""
    event: dict[str, Any] = {"player": move.player}
    if move.kind == "play":
        event["play"] = str(move.card)
        if move.as_card is not None:
            event["as"] = str(move.as_card)
    elif move.kind == "draw":
        event["draw"] = None if drawn is None else str(drawn)
    else:
        event[move.kind] = True
    if move.suit is not None:
        event["suit"] = move.suit.value
    return event


def _slow_pick(moves: list[Move], rng: random.Random) -> Move:
    """A play one time in six when there is one, else a draw or a pass (so the hand
    goes on), else whatever is left."""
    plays = [m for m in moves if m.kind == "play"]
    others = [m for m in moves if m.kind in ("draw", "pass")]
    if plays and (not others or rng.random() < 1 / 6):
        return rng.choice(plays)
    return rng.choice(others or moves)


def long_request(events: int, seed: int) -> dict[str, Any]:
    """A replay request of ``events`` legal events: the first seeded hand whose playout
    lasts that long (see the module docstring)."""
    sheet = Sheet.make(C8, OPTIONS)
    for n in range(seed, seed + HANDS_TRIED):
        rng = random.Random(n)
        g = HandInPlay.deal(sheet, PLAYERS, n % PLAYERS, rng)
        request = {"sheet": sheet.to_dict(), "players": PLAYERS, "dealer": n % PLAYERS,
                   "hands": [[str(c) for c in hand] for hand in g.known],
                   "upcard": str(g.upcard), "stock": [str(c) for c in reversed(g.stock)],
                   "pile": 0}
        log: list[dict[str, Any]] = []
        while not g.is_over and len(log) < events:
            move = _slow_pick(g.legal_moves(), rng)
            log.append(event_of(move, peek(g) if move.kind == "draw" else None))
            g.apply(move)
        if len(log) == events:
            return request | {"events": log}
    raise click.ClickException(f"no hand of seeds {seed} to {seed + HANDS_TRIED - 1} lasts "
                               f"{events} events")


def _timed(action: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds of one call."""
    start, start_cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


def bench_replay_figures(events: int, repeat: int, seed: int) -> list[tuple[str, float, float]]:
    """(label, median wall ms, median CPU ms) of the core, the route and the bare
    route, timed in turn ``repeat`` times each after one untimed round."""
    from scorekeeper import create_app

    request = long_request(events, seed)
    body = json.dumps(request)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = tmp
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.db",
                          "SECRET_KEY": "bench", "RATE_LIMITS": False})
        app.add_url_rule(BARE, "bench_bare", lambda: "ok")
        client = app.test_client()

        def core() -> dict[str, Any]:
            return run(request)

        def route() -> Any:
            return client.post("/api/v1/replay", data=body, content_type="application/json")

        def bare() -> Any:
            return client.get(BARE)

        # Untimed: imports, the move book, the route's first request; and the answers
        # checked (reading the route's answer back is no part of its time).
        answer, response = core(), route()
        if not answer["ok"] or len(answer["steps"]) != events:
            raise click.ClickException(f"the replay refused event {answer['first_illegal']}")
        if response.status_code != 200 or response.get_json() != answer:
            raise click.ClickException(f"the route answered {response.status_code}, not as "
                                       "the core does")
        bare()
        rows: dict[str, list[tuple[float, float]]] = {"core": [], "route": [], "bare": []}
        timed = (("core", core), ("route", route), ("bare", bare))
        for _ in range(repeat):
            for label, action in timed:
                rows[label].append(_timed(action))
    return [(f"{label} ({events} events)" if label != "bare" else "bare route",
             statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
            for label, runs in rows.items()]


@click.command("replay")
@click.option("--events", default=MAX_EVENTS, show_default=True,
              type=click.IntRange(1, MAX_EVENTS), help="Events in the replayed hand.")
@click.option("--repeat", default=15, show_default=True, type=click.IntRange(1, 1000),
              help="Timed runs of each (alternating); medians are printed.")
@click.option("--seed", default=0, show_default=True, type=int)
def bench_replay(events: int, repeat: int, seed: int) -> None:
    """A long replay through the core and through POST /api/v1/replay, against a bare route."""
    rows = bench_replay_figures(events, repeat, seed)
    bare_wall, bare_cpu = rows[-1][1], rows[-1][2]
    click.echo("| replay | median ms | vs bare route | CPU ms | CPU vs bare |")
    click.echo("| --- | ---: | ---: | ---: | ---: |")
    for label, wall, cpu in rows:
        click.echo(f"| {label} | {wall:.2f} | {wall / bare_wall:.0f}× | {cpu:.2f} "
                   f"| {cpu / max(bare_cpu, 1e-6):.0f}× |")
