"""``python -m tests.bench cluster``: a deployment on this machine (``tests/support/
cluster.py``: gunicorn hosts on 127.0.0.2–4, nginx, PostgreSQL, Redis), measured in one
run.

* **Hands**: phones recording hands through the API (each with its Idempotency-Key),
  first straight to one host, then to three hosts through nginx: hands/s, p50 and p95
  of the acknowledged round trips.
* **Polling**: spectators asking the live endpoint with ``If-None-Match`` (a 304 while
  nothing changed) while one phone records a hand now and then, against the same
  number of requests to a bare route served the same way (through nginx, the same
  hosts): CPU per request of the hosts and of PostgreSQL, read from ``/proc``, so the
  load generator on the same cores does not count. From it: polls per second one core
  carries, and so how many phones polling every 5 s.

On a machine with few cores the phones compete with the hosts for them: the figures
show what the deployment costs, not how it scales.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import click
from flask import Flask

from tests.bench.spectators import bench_spectators
from tests.support.cluster import ROOT, SERVERS, Deployment, missing_parts
from tests.support.phones import Phone, Run, new_table, percentile, record_by_api

BARE = "/__bench/bare"
POLL_EVERY = 5.0  # seconds between a phone's polls, for the "phones per core" figure
# Seconds between a spectator's polls: issue 30's "200 spectators polling every 2 s"
# (the page's own script asks every 3 s: data-live in templates/matches/_board.html).
SPECTATOR_EVERY = 2.0
HAND_EVERY = 10.0  # seconds between hands while spectators watch


def app_with_bare_route() -> Flask:
    """The app with a route that does nothing, for the hosts of this bench."""
    from scorekeeper import create_app

    app = create_app()
    app.add_url_rule(BARE, "bench_bare", lambda: "ok")
    return app


@dataclass
class Figures:
    """One way of serving: hands acknowledged, seconds spent, every round trip."""

    label: str
    hands: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)


def hands_round(figures: Figures, phones: list[Phone], seconds: float) -> None:
    """Every phone records hands into a new match of its own for ``seconds``; the
    first second is a warm-up, not counted (workers' first requests, pooled
    connections)."""
    runs = [Run(n, new_table(p, f"Bench {figures.label} {n}")) for n, p in enumerate(phones, 1)]
    warm = time.monotonic() + 1.0
    with ThreadPoolExecutor(len(phones)) as pool:
        list(pool.map(lambda pr: record_by_api(pr[0], pr[1], 10**6, warm),
                      zip(phones, runs, strict=True)))
        firsts = [max(run.acked, default=0) + 1 for run in runs]
        for run in runs:
            run.acked.clear()
            run.latencies.clear()
        deadline = time.monotonic() + seconds
        start = time.perf_counter()
        done = list(pool.map(lambda prf: record_by_api(prf[0], prf[1], 10**6, deadline, prf[2]),
                             zip(phones, runs, firsts, strict=True)))
    figures.seconds += time.perf_counter() - start
    figures.hands += sum(len(r.acked) for r in done)
    figures.latencies += [t for run in done for t in run.latencies]


@dataclass
class Polls:
    requests: int
    not_modified: int
    host_cpu: float
    pg_cpu: float


def poll_row(deployment: Deployment, path: str, pollers: int, seconds: float,
             writer=None) -> Polls:
    """``pollers`` clients asking ``path`` back to back for ``seconds``, each sending
    the ETag it last saw; ``writer`` (if any) runs beside them."""
    counts = {"requests": 0, "304": 0}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def poll(n: int) -> None:
        phone, etag = Phone(f"127.0.2.{n}", deployment.proxy.port), None
        while time.monotonic() < deadline:
            answer = phone.send("GET", path, headers={"If-None-Match": etag} if etag else {})
            etag = answer.headers.get("etag", etag)
            with lock:
                counts["requests"] += 1
                counts["304"] += answer.status == 304

    cpu, pg = deployment.host_cpu(), deployment.database_cpu()
    with ThreadPoolExecutor(pollers + 1) as pool:
        jobs = [pool.submit(poll, n) for n in range(1, pollers + 1)]
        if writer is not None:
            jobs.append(pool.submit(writer, deadline))
        for job in jobs:
            job.result()
    return Polls(counts["requests"], counts["304"], deployment.host_cpu() - cpu,
                 deployment.database_cpu() - pg)


def _writer(phone: Phone, run: Run, every: float):
    """Records one hand every ``every`` seconds until the deadline (the table's pace,
    quickened)."""
    def write(deadline: float) -> None:
        number = 0
        while time.monotonic() < deadline:
            number += 1
            record_by_api(phone, run, number, min(deadline, time.monotonic() + every),
                          first=number)
            time.sleep(max(0.0, every - 0.05))
    return write


@click.command("cluster")
@click.option("--phones", default=10, show_default=True, type=click.IntRange(1, 100),
              help="Phones recording hands at once.")
@click.option("--seconds", default=8.0, show_default=True, type=click.FloatRange(1, 120),
              help="How long each measurement runs.")
@click.option("--pollers", default=20, show_default=True, type=click.IntRange(1, 200),
              help="Spectators polling back to back (CPU per poll does not depend on it).")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 8),
              help="gunicorn workers per host.")
@click.option("--rounds", default=2, show_default=True, type=click.IntRange(1, 20),
              help="Rounds of hands, one host and three hosts alternating.")
@click.option("--spectators", default=200, show_default=True, type=click.IntRange(0, 1000),
              help="View-link pages polling one host every 2 s, a hand every 10 s (0: none).")
@click.option("--watch-seconds", default=30.0, show_default=True,
              type=click.FloatRange(12, 300), help="How long each round of spectators runs.")
@click.option("--watch-rounds", default=1, show_default=True, type=click.IntRange(1, 10),
              help="Rounds of spectators per code, alternating with --baseline.")
@click.option("--baseline", metavar="DIR", type=click.Path(exists=True, file_okay=False),
              help="Also watch with the code checked out in DIR (the spectators' 'before').")
@click.option("--spectators-only", is_flag=True, help="Skip the hands and polling figures.")
@click.option("--server", default="gunicorn", show_default=True, type=click.Choice(SERVERS),
              help="What the spectators watch, for each code: gunicorn on PostgreSQL, or "
                   "'scorekeeper serve' on SQLite (waitress, one process: the embedded "
                   "default). The hands and polling figures are the cluster's either way.")
def bench_cluster(phones: int, seconds: float, pollers: int, workers: int, rounds: int,
                  spectators: int, watch_seconds: float, watch_rounds: int,
                  baseline: str | None, spectators_only: bool, server: str) -> None:
    """Hands/s and latency on one host and on three behind nginx; the polling cost;
    spectators' polls after each hand, before (``--baseline``) and now."""
    cluster_needed = not spectators_only or (spectators > 0 and server == "gunicorn")
    missing = missing_parts() if cluster_needed else []
    if missing:
        raise click.ClickException(f"needs {', '.join(missing)}")
    if baseline is not None and not (Path(baseline) / "scorekeeper" / "__init__.py").exists():
        raise click.BadParameter(f"{baseline!r} is not a checkout of scorekeeper",
                                 param_hint="--baseline")
    if not spectators_only:
        _hands_and_polls(phones, seconds, pollers, workers, rounds)
    if spectators:
        checkouts = [("before", Path(baseline))] if baseline else []
        bench_spectators([*checkouts, ("after", ROOT)], spectators, SPECTATOR_EVERY,
                         HAND_EVERY, watch_seconds, watch_rounds, workers, server)


def _hands_and_polls(phones: int, seconds: float, pollers: int, workers: int,
                     rounds: int) -> None:
    with Deployment(hosts=3, workers=workers, app=f"{__name__}:app_with_bare_route()") as d:
        assert all(u.returncode == 0 for u in d.upgrade(at_once=1))
        d.start_hosts()
        first = d.hosts[0]
        one, three = Figures("1 host (direct)"), Figures("3 hosts via nginx")
        for _ in range(rounds):
            hands_round(one, [Phone(f"127.0.3.{n}", first.port, first.address)
                              for n in range(1, phones + 1)], seconds)
            hands_round(three, [Phone(f"127.0.4.{n}", d.proxy.port)
                                for n in range(1, phones + 1)], seconds)
        _print_hands([one, three], phones, workers, rounds)
        writer_phone = Phone("127.0.5.1", d.proxy.port)
        run = Run(1, new_table(writer_phone, "Watched"))
        view = writer_phone.api("GET", f"/matches/{run.table.match_id}", run.table.token)
        live = view.json()["view_path"] + "/live"
        polls = poll_row(d, live, pollers, seconds, _writer(writer_phone, run, 1.0))
        bare = poll_row(d, BARE, pollers, seconds)
        _print_polls(polls, bare, pollers)


def _print_hands(rows: list[Figures], phones: int, workers: int, rounds: int) -> None:
    click.echo(f"Hands recorded by {phones} phones through the API (gunicorn -w {workers} "
               f"per host, PostgreSQL, Redis; {rounds} alternating round(s) each):")
    click.echo("| where | hands | hands/s | p50 ms | p95 ms |")
    click.echo("| --- | ---: | ---: | ---: | ---: |")
    for row in rows:
        click.echo(f"| {row.label} | {row.hands} | {row.hands / row.seconds:.0f} | "
                   f"{percentile(row.latencies, 0.5) * 1000:.0f} | "
                   f"{percentile(row.latencies, 0.95) * 1000:.0f} |")
    one, three = (row.hands / row.seconds for row in rows)
    click.echo(f"three hosts / one host: {three / max(one, 1e-9):.2f}× the hands/s")


def _print_polls(polls: Polls, bare: Polls, pollers: int) -> None:
    per_poll = (polls.host_cpu + polls.pg_cpu) / max(1, polls.requests)
    per_bare = (bare.host_cpu + bare.pg_cpu) / max(1, bare.requests)
    click.echo(f"\nPolling the live endpoint ({pollers} spectators back to back, one hand "
               "recorded per second), against a bare route served the same way:")
    click.echo("| request | requests | 304s | hosts CPU ms | PostgreSQL CPU ms | "
               "CPU ms per request | vs bare |")
    click.echo("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, row, cost in (("live poll", polls, per_poll), ("bare route", bare, per_bare)):
        share = row.not_modified * 100 / max(1, row.requests)
        click.echo(f"| {label} | {row.requests} | {share:.0f} % | "
                   f"{row.host_cpu * 1000:.0f} | {row.pg_cpu * 1000:.0f} | "
                   f"{cost * 1000:.2f} | {cost / per_bare:.1f}× |")
    per_core = 1 / per_poll if per_poll else float("inf")
    click.echo(f"One core answers {per_core:.0f} polls/s: about {per_core * POLL_EVERY:.0f} "
               f"phones polling every {POLL_EVERY:.0f} s (hosts and PostgreSQL; nginx not "
               "counted).")
