"""Spectators after a hand, for ``python -m tests.bench cluster``: many view-link pages
polling one host while the table records a hand now and then.

Each spectator is a thread that does what the page's script (``static/live.js``) of the
code under test does: it loads the view page once, then asks the page's live URL every
``every`` seconds with ``If-None-Match`` (from the first poll on where the page names
its ETag, ``data-live-etag``); when the answer names a new version it catches up with
what that answer brings: the board itself where it carries one, else by fetching the
whole page again (what older code did). The figures are the poll's round trips (p50,
p95), the catching-up fetches' if any (p50, p95), the bytes a spectator receives per
hand, and the CPU the host and PostgreSQL spent (read from ``/proc``), from the first
hand on; the writer records a hand every ``hand_every`` seconds through the API.
Everything runs on loopback; each round is bounded by ``seconds``. The host is gunicorn
on PostgreSQL, or with ``server="serve"`` the embedded default, ``scorekeeper serve``
(waitress, one process) on SQLite, where the CPU is that one process's.
"""

from __future__ import annotations

import html
import os
import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import click

from tests.support.cluster import SERVE_THREADS, Deployment
from tests.support.phones import Phone, Run, new_table, percentile, record_by_api

_ATTRIBUTE = r'<div id="board"[^>]*?\s{name}="([^"]*)"'


def _board_attribute(page: str, name: str) -> str | None:
    found = re.search(_ATTRIBUTE.format(name=name), page, re.S)
    return html.unescape(found.group(1)) if found else None


@dataclass
class Watched:
    """What one code's spectators measured, over every round."""

    label: str
    polls: list[float] = field(default_factory=list)
    catch_ups: list[float] = field(default_factory=list)
    news_bytes: list[int] = field(default_factory=list)  # a new version: poll + catch-up
    hands: int = 0
    cpu: float = 0.0  # host and PostgreSQL CPU seconds from the first hand to the end
    failures: int = 0  # polls or fetches that failed or answered neither 200 nor 304
    in_answer: bool = False  # whether the poll's answer brought the board
    page_every: str = ""  # the ms between polls the page's own script uses (data-live)


def watch_round(deployment: Deployment, figures: Watched, spectators: int, every: float,
                hand_every: float, seconds: float) -> None:
    """One round: a new match, ``spectators`` pages watching it on the first host, a
    hand every ``hand_every`` s, for ``seconds`` (from the first page loaded)."""
    host = deployment.hosts[0]
    writer = Phone("127.0.6.1", host.port, host.address)
    run = Run(1, new_table(writer, f"Watched {figures.label} {random.random():.6f}"))
    view = writer.api("GET", f"/matches/{run.table.match_id}", run.table.token).json()
    lock = threading.Lock()
    counting = threading.Event()  # set at the first hand: polls before it are warm-up
    deadline = time.monotonic() + seconds

    def spectator(n: int) -> None:
        phone = Phone(f"127.0.{7 + n // 250}.{1 + n % 250}", host.port, host.address)
        page = phone.send("GET", view["view_path"]).body.decode()
        live = _board_attribute(page, "data-live-url")
        version = _board_attribute(page, "data-version")
        assert live and version, "the view page has no live board"
        figures.page_every = _board_attribute(page, "data-live") or "?"
        shown = _board_attribute(page, "data-live-etag")
        etag = f'"{shown}"' if shown else None
        time.sleep(random.uniform(0, every))  # pages open at different moments
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                answer = phone.send("GET", live, headers={"If-None-Match": etag} if etag else {})
            except OSError:
                answer = None
            took = time.perf_counter() - started
            if answer is None or answer.status not in (200, 304):
                with lock:
                    figures.failures += 1
            else:
                etag = answer.headers.get("etag", etag)
                if counting.is_set():
                    with lock:
                        figures.polls.append(took)
                news = answer.json() if answer.status == 200 else {}
                if news and str(news["version"]) != version:
                    version = str(news["version"])
                    received = len(answer.body)
                    if "board" in news:
                        with lock:
                            figures.in_answer = True
                    else:
                        started = time.perf_counter()
                        fresh = phone.send("GET", view["view_path"],
                                           headers={"Accept": "text/html"})
                        received += len(fresh.body)
                        with lock:
                            if fresh.status != 200:
                                figures.failures += 1
                            elif counting.is_set():
                                figures.catch_ups.append(time.perf_counter() - started)
                    if counting.is_set():
                        with lock:
                            figures.news_bytes.append(received)
            time.sleep(max(0.0, every - took))

    cpu = [0.0]  # host and PostgreSQL CPU seconds at the first hand

    def table() -> None:
        number = 0
        time.sleep(min(hand_every / 2, seconds / 4))  # every page loaded and polling
        while time.monotonic() < deadline - 1:
            number += 1
            if not counting.is_set():
                cpu[0] = deployment.host_cpu() + deployment.database_cpu()
            record_by_api(writer, run, number, deadline, first=number)
            counting.set()
            time.sleep(hand_every)
        with lock:
            figures.hands += len(run.acked)

    with ThreadPoolExecutor(spectators + 1) as pool:
        jobs = [pool.submit(spectator, n) for n in range(spectators)]
        jobs.append(pool.submit(table))
        for job in jobs:
            job.result()
    figures.cpu += deployment.host_cpu() + deployment.database_cpu() - cpu[0]


def bench_spectators(checkouts: list[tuple[str, Path]], spectators: int, every: float,
                     hand_every: float, seconds: float, rounds: int, workers: int,
                     server: str = "gunicorn") -> None:
    """Each checkout on a one-host deployment of its own (its own PostgreSQL, or its own
    SQLite file under ``scorekeeper serve``), the rounds alternating between them; then
    the table of figures."""
    rows = [Watched(label) for label, _ in checkouts]
    with ExitStack() as stack:
        deployments = []
        for _, path in checkouts:
            deployment = stack.enter_context(
                Deployment(hosts=1, workers=workers, checkout=path, server=server))
            upgraded = deployment.upgrade(at_once=1)
            assert all(u.returncode == 0 for u in upgraded), upgraded[0].stdout
            deployment.start_hosts()
            deployments.append(deployment)
        for _ in range(rounds):
            for deployment, figures in zip(deployments, rows, strict=True):
                watch_round(deployment, figures, spectators, every, hand_every, seconds)
    host = (f"scorekeeper serve: waitress, {SERVE_THREADS} threads, one process, SQLite"
            if server == "serve" else f"gunicorn -w {workers}, PostgreSQL")
    pages = ", ".join(f"{row.label} {_seconds(row.page_every)}" for row in rows)
    click.echo(f"\nSpectators: {spectators} view-link pages polling one host ({host}) every "
               f"{every:g} s as issue 30 states (the pages' own script asks every: {pages}), "
               f"a hand every {hand_every:g} s; {rounds} round(s) of {seconds:g} s per code, "
               "alternating:")
    click.echo("| code | catches up with | hands | polls | poll p50 ms | poll p95 ms | "
               "page fetch p50 ms | page fetch p95 ms | bytes per new version | "
               "CPU ms per poll | failures |")
    click.echo("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        size = percentile([float(b) for b in row.news_bytes], 0.5)
        fetches = (f"{percentile(row.catch_ups, 0.5) * 1000:.0f} | "
                   f"{percentile(row.catch_ups, 0.95) * 1000:.0f}") if row.catch_ups else "– | –"
        click.echo(f"| {row.label} | {'the poll' if row.in_answer else 'the whole page'} "
                   f"| {row.hands} | {len(row.polls)} | {percentile(row.polls, 0.5) * 1000:.0f} | "
                   f"{percentile(row.polls, 0.95) * 1000:.0f} | {fetches} | {size:,.0f} | "
                   f"{row.cpu * 1000 / max(1, len(row.polls)):.2f} | {row.failures} |")
    cpu = ("the serve process, SQLite inside it" if server == "serve"
           else "the host's processes and PostgreSQL's")
    click.echo(f"(CPU: {cpu}. Load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
               "at the end: the spectators share the machine's cores with the host)")


def _seconds(milliseconds: str) -> str:
    """``data-live``'s milliseconds said in seconds (as found when not a number)."""
    return f"{int(milliseconds) / 1000:g} s" if milliseconds.isdigit() else milliseconds
