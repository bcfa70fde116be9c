"""``python -m tests.bench spectators`` (also the spectators' part of ``cluster``): view-link
pages polling one host the way a browser does, beside a bare Flask app on the same server.

Each spectator is a thread holding **one keep-alive connection**, as a phone's browser
does between polls (``http.client``, reused; a new one only when the server closed the
last, and the bench counts them). It loads the view page on it, then asks the page's live
URL every ``every`` seconds with the headers Chromium's ``fetch(url, {cache:
"no-store"})`` sends (``Accept-Encoding: gzip, deflate, br, zstd`` among them) and the
ETag the page or the last answer gave (``If-None-Match``), as ``static/live.js`` does; an
answer that names a new version brings the board, which the spectator takes as it is
(no second request). One phone records a hand every ``hand_every`` seconds through the
API. From the first hand on: the polls' p50, p95 and p99, the connections opened, the
bytes of a new version on the wire, and the host's CPU per poll.

Then **unchanged polls**, back to back: ``pollers`` keep-alive clients ask the live URL
with its current ETag for ``unchanged_seconds`` (every answer a 304): the host's CPU per
poll (and PostgreSQL's, on gunicorn), and so how many such polls one core answers a
second.

The **bare app** (``tests/bench/bare.py``: a minimal Flask app whose live URL answers a
304 the same way) gets both rounds on the same server, as this checkout runs it; every
code's figures are printed beside it and as a ratio to it. Everything is bounded in time
and stays on loopback; CPU is read from ``/proc`` (so the clients' own threads, on the
same cores, do not count). The host is gunicorn on PostgreSQL, or ``scorekeeper serve``
(one process) on SQLite.
"""

from __future__ import annotations

import html
import http.client
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

from tests.support.cluster import (
    APP,
    PUBLIC_HOST,
    ROOT,
    SERVE_THREADS,
    SERVERS,
    Deployment,
    missing_parts,
)
from tests.support.phones import Answer, Phone, Run, new_table, percentile, record_by_api

BARE_APP = "tests.bench.bare:app"
BARE_LIVE = "/view/bare/live"  # the bare app answers any token; its ETag is "m1v1"
TIMEOUT = 30.0  # seconds a request may take before it counts as failed
# What Chromium 156 sends with the page's fetch(url, {cache: "no-store"}) of the live URL.
CHROMIUM = {
    "User-Agent": ("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like "
                   "Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"),
    "Accept": "*/*",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-GB,en;q=0.9",
    "Cache-Control": "no-cache",
    "Pragma": "no-cache",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty",
}
_ATTRIBUTE = r'<div id="board"[^>]*?\s{name}="([^"]*)"'


def _board_attribute(page: str, name: str) -> str | None:
    found = re.search(_ATTRIBUTE.format(name=name), page, re.S)
    return html.unescape(found.group(1)) if found else None


class Browser:
    """One spectator's browser: a keep-alive connection from its own loopback address,
    reused for every request; a new one when the server closed it (counted in
    :attr:`opened`), and one retry when a reused connection turns out closed (a browser
    retries such a request too)."""

    def __init__(self, source: str, port: int, address: str) -> None:
        self.source, self.port, self.address = source, port, address
        self.opened = 0
        self._connection: http.client.HTTPConnection | None = None

    def get(self, path: str, headers: dict[str, str]) -> Answer:
        """GET ``path`` on the kept connection (``OSError`` when it fails)."""
        for attempt in (1, 2):
            reused = self._connection is not None
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    self.address, self.port, timeout=TIMEOUT, source_address=(self.source, 0))
                self._connection.connect()
                self.opened += 1
            try:
                self._connection.request("GET", path, headers={"Host": PUBLIC_HOST, **headers})
                response = self._connection.getresponse()
                body = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if reused and attempt == 1:
                    continue
                raise
            if response.will_close:
                self.close()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          body)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


@dataclass
class Watched:
    """What one code (or the bare app) measured, over every round."""

    label: str
    polls: list[float] = field(default_factory=list)  # round trips from the first hand on
    news_bytes: list[int] = field(default_factory=list)  # a new version's body on the wire
    hands: int = 0
    opened: int = 0  # connections the spectators opened (one each at least)
    spectators: int = 0
    cpu: float = 0.0  # host (and PostgreSQL) CPU seconds from the first hand to the end
    failures: int = 0  # requests that failed or answered neither 200 nor 304
    page_every: str = ""  # the ms between polls the page's own script uses (data-live)
    unchanged: int = 0  # unchanged polls back to back, and their CPU
    unchanged_cpu: float = 0.0
    not_modified: int = 0  # of them, answered 304

    def per_unchanged(self) -> float:
        """CPU seconds per unchanged poll."""
        return self.unchanged_cpu / max(1, self.unchanged)


def _cpu(deployment: Deployment) -> float:
    return deployment.host_cpu() + deployment.database_cpu()


def _spectator_address(n: int) -> str:
    return f"127.0.{7 + n // 250}.{1 + n % 250}"


def watch_round(deployment: Deployment, figures: Watched, spectators: int, every: float,
                hand_every: float, seconds: float, bare: bool = False) -> str:
    """One round: ``spectators`` browsers watching a new match (the bare app's one match:
    no hands) on the first host, a hand every ``hand_every`` s, for ``seconds``. Returns
    the live URL watched."""
    host = deployment.hosts[0]
    writer = Phone("127.0.6.1", host.port, host.address)
    run = None
    if not bare:
        run = Run(1, new_table(writer, f"Watched {figures.label} {random.random():.6f}"))
        view = writer.api("GET", f"/matches/{run.table.match_id}", run.table.token).json()
    lock = threading.Lock()
    counting = threading.Event()  # set at the first hand: polls before it are warm-up
    deadline = time.monotonic() + seconds
    live_url = [BARE_LIVE]

    def spectator(n: int) -> None:
        browser = Browser(_spectator_address(n), host.port, host.address)
        try:
            if bare:
                live, etag = BARE_LIVE, '"m1v1"'
            else:
                page = browser.get(view["view_path"], {  # read here, not measured
                    **CHROMIUM, "Accept": "text/html", "Accept-Encoding": "identity"})
                live = _board_attribute(page.body.decode(), "data-live-url") or ""
                shown = _board_attribute(page.body.decode(), "data-live-etag")
                assert live and shown, "the view page has no live board"
                etag = f'"{shown}"'
                live_url[0] = live
                figures.page_every = _board_attribute(page.body.decode(), "data-live") or "?"
            headers = {**CHROMIUM, "Referer": f"http://{PUBLIC_HOST}/view/watched"}
            time.sleep(random.uniform(0, every))  # pages open at different moments
            while time.monotonic() < deadline:
                started = time.perf_counter()
                try:
                    answer: Answer | None = browser.get(live, {**headers, "If-None-Match": etag})
                except OSError:
                    answer = None
                took = time.perf_counter() - started
                with lock:
                    if answer is None or answer.status not in (200, 304):
                        figures.failures += 1
                    elif counting.is_set():
                        figures.polls.append(took)
                        if answer.status == 200:
                            figures.news_bytes.append(len(answer.body))
                if answer is not None and answer.status == 200:
                    etag = answer.headers.get("etag", etag)
                time.sleep(max(0.0, every - took))
        finally:
            browser.close()
            with lock:
                figures.opened += browser.opened
                figures.spectators += 1

    cpu = [0.0]

    def table() -> None:
        number = 0
        time.sleep(min(hand_every / 2, seconds / 4))  # every page loaded and polling
        cpu[0] = _cpu(deployment)
        if run is None:
            counting.set()
            return
        while time.monotonic() < deadline - 1:
            number += 1
            if number == 1:
                cpu[0] = _cpu(deployment)
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
    figures.cpu += _cpu(deployment) - cpu[0]
    return live_url[0]


def unchanged_round(deployment: Deployment, figures: Watched, live: str, pollers: int,
                    seconds: float) -> None:
    """``pollers`` keep-alive clients asking ``live`` back to back with the ETag a
    spectator's browser holds after its last new version (the one the answer bringing
    the board gave) for ``seconds``: nothing changes, so every answer should be a 304."""
    host = deployment.hosts[0]
    first = Browser("127.0.5.250", host.port, host.address)
    etag = first.get(live, {**CHROMIUM, "If-None-Match": '"m0v0"'}).headers.get("etag", "")
    first.close()
    lock = threading.Lock()

    def poll(n: int) -> None:
        browser = Browser(f"127.0.5.{n + 1}", host.port, host.address)
        headers = {**CHROMIUM, "If-None-Match": etag}
        try:
            browser.get(live, headers)  # the connection open before the clock starts
            ready.wait()
            while time.monotonic() < deadline:
                answer = browser.get(live, headers)
                with lock:
                    figures.unchanged += 1
                    figures.not_modified += answer.status == 304
        finally:
            browser.close()

    ready = threading.Event()
    deadline = time.monotonic() + seconds + 60
    with ThreadPoolExecutor(pollers) as pool:
        jobs = [pool.submit(poll, n) for n in range(pollers)]
        time.sleep(0.5)
        before = _cpu(deployment)
        deadline = time.monotonic() + seconds
        ready.set()
        for job in jobs:
            job.result()
    figures.unchanged_cpu += _cpu(deployment) - before


def bench_spectators(checkouts: list[tuple[str, Path]], spectators: int, every: float,
                     hand_every: float, seconds: float, rounds: int, workers: int,
                     server: str = "gunicorn", pollers: int = 4,
                     unchanged_seconds: float = 10.0) -> None:
    """Each checkout on a one-host deployment of its own (its own PostgreSQL, or its own
    SQLite file under ``scorekeeper serve``), and the bare app on the same server; the
    rounds alternate between them; then the table of figures."""
    rows = [Watched(label) for label, _ in checkouts]
    bare = Watched("bare Flask")
    with ExitStack() as stack:
        deployments = []
        for path, app in [*((path, APP) for _, path in checkouts), (ROOT, BARE_APP)]:
            deployment = stack.enter_context(Deployment(
                hosts=1, workers=workers, app=app, checkout=path, server=server))
            upgraded = deployment.upgrade(at_once=1)
            assert all(u.returncode == 0 for u in upgraded), upgraded[0].stdout
            deployment.start_hosts()
            deployments.append(deployment)
        for _ in range(rounds):
            for deployment, figures in zip(deployments, [*rows, bare], strict=True):
                is_bare = figures is bare
                live = watch_round(deployment, figures, spectators, every, hand_every,
                                   seconds, bare=is_bare)
                unchanged_round(deployment, figures, live, pollers, unchanged_seconds)
    _print(rows, bare, server, workers, spectators, every, hand_every, seconds, rounds,
           pollers, unchanged_seconds)


def _print(rows: list[Watched], bare: Watched, server: str, workers: int, spectators: int,
           every: float, hand_every: float, seconds: float, rounds: int, pollers: int,
           unchanged_seconds: float) -> None:
    host = (f"scorekeeper serve, --threads {SERVE_THREADS}, one process, SQLite"
            if server == "serve" else f"gunicorn -w {workers}, PostgreSQL")
    pages = ", ".join(f"{row.label} {_seconds(row.page_every)}" for row in rows)
    click.echo(f"\nSpectators on {host}: {spectators} browsers, one keep-alive connection "
               f"each, polling every {every:g} s with Chromium's headers (the pages' own "
               f"script asks every: {pages}), a hand every {hand_every:g} s, {seconds:g} s "
               f"a round; then {pollers} clients polling back to back with the current ETag "
               f"for {unchanged_seconds:g} s (unchanged polls); {rounds} round(s) per code, "
               "alternating with the bare Flask app on the same server:")
    click.echo("| code | hands | polls | poll p50 ms | poll p95 ms | poll p99 ms | "
               "connections opened | failures | bytes per new version | "
               "CPU µs per unchanged poll | vs bare | 304 polls/s per core |")
    click.echo("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
               "| ---: |")
    for row in [*rows, bare]:
        size = (f"{percentile([float(b) for b in row.news_bytes], 0.5):,.0f}"
                if row.news_bytes else "–")
        cost = row.per_unchanged()
        share = "" if row.not_modified == row.unchanged else (
            f" ({row.unchanged - row.not_modified} not 304)")
        click.echo(
            f"| {row.label} | {row.hands} | {len(row.polls)} | "
            f"{percentile(row.polls, 0.5) * 1000:.0f} | {percentile(row.polls, 0.95) * 1000:.0f} | "
            f"{percentile(row.polls, 0.99) * 1000:.0f} | {row.opened} | {row.failures} | "
            f"{size} | {cost * 1e6:,.0f}{share} | {cost / max(bare.per_unchanged(), 1e-12):.2f}× | "
            f"{1 / max(cost, 1e-12):,.0f} |")
    cpu = ("the serve process, SQLite inside it" if server == "serve"
           else "the host's processes and PostgreSQL's")
    click.echo(f"(CPU: {cpu}. Load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
               "at the end: the clients share the machine's cores with the host)")


def _seconds(milliseconds: str) -> str:
    """``data-live``'s milliseconds said in seconds (as found when not a number)."""
    return f"{int(milliseconds) / 1000:g} s" if milliseconds.isdigit() else milliseconds


@click.command("spectators")
@click.option("--server", "servers", default=["serve", "gunicorn"], show_default=True,
              multiple=True, type=click.Choice(SERVERS),
              help="Where the spectators watch (repeat for both): scorekeeper serve on "
                   "SQLite, gunicorn on PostgreSQL.")
@click.option("--spectators", default=200, show_default=True, type=click.IntRange(1, 1000),
              help="Browsers watching, one keep-alive connection each.")
@click.option("--every", default=2.0, show_default=True, type=click.FloatRange(0.2, 30),
              help="Seconds between a spectator's polls (issue 30's 2 s).")
@click.option("--hand-every", default=10.0, show_default=True, type=click.FloatRange(1, 60),
              help="Seconds between hands while they watch.")
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(5, 300),
              help="How long each round of spectators runs.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 10),
              help="Rounds per code, alternating.")
@click.option("--pollers", default=4, show_default=True, type=click.IntRange(1, 50),
              help="Clients asking back to back in the unchanged polls' round.")
@click.option("--unchanged-seconds", default=10.0, show_default=True,
              type=click.FloatRange(2, 120), help="How long the unchanged polls' round runs.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 8),
              help="gunicorn workers.")
@click.option("--baseline", metavar="DIR", type=click.Path(exists=True, file_okay=False),
              help="Also run the code checked out in DIR (the 'before'), in the same run.")
def bench_spectators_command(servers: tuple[str, ...], spectators: int, every: float,
                             hand_every: float, seconds: float, rounds: int, pollers: int,
                             unchanged_seconds: float, workers: int,
                             baseline: str | None) -> None:
    """Spectators polling like browsers, before (--baseline) and now, beside a bare
    Flask app on the same server: latency, CPU per unchanged poll, polls/s per core."""
    if "gunicorn" in servers and missing_parts():
        raise click.ClickException(f"needs {', '.join(missing_parts())}")
    if baseline is not None and not (Path(baseline) / "scorekeeper" / "__init__.py").exists():
        raise click.BadParameter(f"{baseline!r} is not a checkout of scorekeeper",
                                 param_hint="--baseline")
    checkouts = [("before", Path(baseline))] if baseline else []
    for server in dict.fromkeys(servers):
        bench_spectators([*checkouts, ("after", ROOT)], spectators, every, hand_every,
                         seconds, rounds, workers, server, pollers, unchanged_seconds)
