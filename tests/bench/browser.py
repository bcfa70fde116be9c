"""``python -m tests.bench browser``: "Record hand" → updated scoreboard, against a plain
reload of the scoreboard, in headless Chromium on a live server; and the bytes a first
and a repeat visit of the hand-entry page put on the wire.

Bytes are counted where they leave the server (a WSGI wrapper: status line, headers
and body of every answer), so the service worker's own fetches — its script, the pages
and files it keeps for offline use — count as much as the page's. A first visit is
split at the load event: what the page needed to load (the favicon included, which
Chromium asks for around then), and what came after it until the network was quiet
for a second (the offline script and the service worker's copies). A repeat visit
names what reached the network and how many of the page's files came from the
service worker's cache instead.

Times are medians over ``--repeat`` rounds (after a warm-up), and so is the ratio of
each round's save to the reload just before it (steadier while the machine's load
swings), twice: wall clock around
the reload or the tap (the form is filled and the button brought into view before the
clock starts; the tap is a plain mouse click at the button), and the browser's
own clock (``loadEventEnd`` of the scoreboard's navigation entry, which for a saved
hand runs from the form's POST through the redirect). Needs Playwright (the ``test``
extra) and a Chromium binary (``--chromium``); prints figures, asserts nothing.
Between rounds the recorded hand is deleted again (untimed).
"""

from __future__ import annotations

import logging
import statistics
import tempfile
import threading
import time
from typing import Any

import click
from werkzeug.serving import make_server

from tests.bench.web import HELD, bench_app
from tests.support.web import matches_by_length
from tests.support.wire import Answer, Wire, to_load

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOADED = "performance.getEntriesByType('navigation')[0].loadEventEnd"


def _kb(answers: list[Answer]) -> str:
    return f"{sum(a.size for a in answers) / 1024:5.1f} KB in {len(answers):2d} responses"


def _what(answers: list[Answer]) -> str:
    """``document 2, script 1, empty 6``: the answers by Sec-Fetch-Dest."""
    kinds: dict[str, int] = {}
    for a in answers:
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))


def _source(response: dict[str, Any]) -> str:
    """Where Chromium says a response came from (CDP ``Network.Response``)."""
    if response.get("fromServiceWorker"):
        if response.get("serviceWorkerResponseSource") == "cache-storage":
            routed = (response.get("serviceWorkerRouterInfo") or {}).get("actualSourceType")
            return "SW cache (static route)" if routed == "cache" else "SW cache"
        return "network via the SW"
    return "HTTP cache" if response.get("fromDiskCache") else "network"


def _visit(page: Any, wire: Wire, url: str) -> tuple[list[Answer], list[Answer],
                                                     dict[str, list[str]]]:
    """Open ``url``; the answers to requests that arrived before its load event (and
    the favicon), those after it until the network is quiet, and where each of the
    page's own responses came from."""
    sources: dict[str, list[str]] = {}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")

    def seen(event: dict[str, Any]) -> None:
        response = event["response"]
        sources.setdefault(_source(response), []).append(response["url"].rsplit("/", 1)[-1])

    cdp.on("Network.responseReceived", seen)
    start = time.time()
    page.goto(url, wait_until="load")
    loaded = page.evaluate("(performance.timeOrigin + performance.getEntriesByType("
                           "'navigation')[0].loadEventStart) / 1000")
    wire.quiet()
    cdp.detach()
    answers = wire.since(start)
    before = to_load(answers, loaded)
    after = [a for a in answers if a not in before]
    return before, after, sources


def _fill(page: Any, number: int) -> tuple[float, float]:
    """Fill the hand form without the picker and bring "Record hand" into view (both
    untimed); the middle of the button."""
    page.evaluate("""([number, held]) => {
        const form = document.querySelector('form.hand-form');
        form.querySelector('[name=number]').value = number;
        form.querySelector('[name=out][value="0"]').checked = true;
        for (const [seat, cards] of Object.entries(held)) {
            const box = form.querySelector(`[name="seat-${seat}"]`);
            if (box) box.value = cards;
        }
    }""", [str(number), HELD])
    button = page.locator("form.hand-form button[type=submit]")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if not page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)"
                         "?.closest('form.hand-form button[type=submit]')", [x, y]):
        raise click.ClickException("something covers the Record hand button")
    return x, y


def _record(page: Any, where: tuple[float, float]) -> None:
    """Tap "Record hand" (a plain mouse click at its middle: no Playwright actionability
    checks in the timing) and wait for the scoreboard's load event."""
    with page.expect_navigation(wait_until="load"):
        page.mouse.click(*where)


def _median(values: list[float]) -> float:
    return statistics.median(values[1:])  # the first round warms up


@click.command("browser")
@click.option("--repeat", default=15, show_default=True, type=click.IntRange(3, 1000))
@click.option("--chromium", default="/usr/bin/chromium", show_default=True,
              type=click.Path(exists=True, dir_okay=False), help="The Chromium binary.")
def bench_browser(repeat: int, chromium: str) -> None:
    """Median ms of "Record hand" → scoreboard vs a plain reload, and page weight."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise click.ClickException("needs Playwright: pip install -e '.[test]'") from None
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp, None)
        table = matches_by_length(app, 1)
        token, match_id = table.token, table.matches[10][0]
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        wire = Wire(app)
        server = make_server("127.0.0.1", 0, wire, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        board = f"{base}/groups/{table.group_id}/matches/{match_id}"
        wall: dict[str, list[float]] = {"reload": [], "save": []}
        clock: dict[str, list[float]] = {"reload": [], "save": []}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.request.get(f"{base}/join/{token}")  # the cookie, no page loaded
                first = _visit(page, wire, board + "/hands/new")
                again = _visit(page, wire, board + "/hands/new")
                for _ in range(repeat + 1):
                    page.goto(board, wait_until="load")
                    start = time.perf_counter()
                    page.reload(wait_until="load")
                    wall["reload"].append((time.perf_counter() - start) * 1000)
                    clock["reload"].append(page.evaluate(LOADED))
                    page.goto(board + "/hands/new", wait_until="load")
                    where = _fill(page, 11)
                    start = time.perf_counter()
                    _record(page, where)
                    wall["save"].append((time.perf_counter() - start) * 1000)
                    clock["save"].append(page.evaluate(LOADED))
                    undone = page.request.delete(
                        f"{base}/api/v1/matches/{match_id}/hands/11",
                        headers={"Authorization": f"Bearer {token}"})
                    if page.url != board or not undone.ok:  # the hand was not saved
                        raise click.ClickException(f"the save did not land: {page.url}, "
                                                   f"delete answered {undone.status}")
                browser.close()
        finally:
            server.shutdown()
    for label, figures in (("wall clock", wall), ("browser clock", clock)):
        reload_ms, save_ms = _median(figures["reload"]), _median(figures["save"])
        paired = _median([s / r for s, r in zip(figures["save"], figures["reload"], strict=True)])
        click.echo(f"{label}: plain reload of the scoreboard {reload_ms:7.1f} ms, "
                   f"Record hand -> updated scoreboard {save_ms:7.1f} ms "
                   f"({save_ms / reload_ms:.2f}x the reload; round by round {paired:.2f}x)")
    before, after, _ = first
    click.echo(f"hand entry, first visit, to load      {_kb(before)} ({_what(before)})")
    click.echo(f"hand entry, first visit, after load   {_kb(after)} ({_what(after)})")
    click.echo(f"hand entry, first visit, in all       {_kb(before + after)}")
    before, after, sources = again
    click.echo(f"hand entry, repeat visit              {_kb(before + after)} "
               f"({_what(before + after)})")
    for source, names in sorted(sources.items()):
        click.echo(f"  the page's responses from {source + ':':25} {len(names)}: "
                   f"{' '.join(sorted(names))}")
