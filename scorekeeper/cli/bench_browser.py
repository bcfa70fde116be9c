"""``scorekeeper bench browser``: "Record hand" → updated scoreboard, against a plain
reload of the scoreboard, in headless Chromium on a live server; and the bytes a first
and a repeat visit of the hand-entry page transfer.

Needs Playwright (the ``test`` extra) and a Chromium binary (``--chromium``); prints
figures, asserts nothing. Between repeats the recorded hand is deleted again (untimed).
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

from scorekeeper.cli.bench_web import HELD, _setup, bench_app

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _transferred(page: Any, url: str) -> int:
    """Bytes over the wire (headers and bodies) for one navigation."""
    finished: list[Any] = []

    def seen(request: Any) -> None:
        finished.append(request)

    page.on("requestfinished", seen)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)  # the icon and the manifest may come after "load"
    page.remove_listener("requestfinished", seen)
    return sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]
               for r in finished)


def _record(page: Any, number: int) -> None:
    """Fill the hand form without the picker and press "Record hand"; wait for the board."""
    page.evaluate("""([number, held]) => {
        const form = document.querySelector('form.hand-form');
        form.querySelector('[name=number]').value = number;
        form.querySelector('[name=out][value="0"]').checked = true;
        for (const [seat, cards] of Object.entries(held)) {
            const box = form.querySelector(`[name="seat-${seat}"]`);
            if (box) box.value = cards;
        }
    }""", [str(number), HELD])
    with page.expect_navigation(wait_until="load"):
        page.click("form.hand-form button[type=submit]")


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
        group_id, token, ids = _setup(app)
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        board = f"{base}/groups/{group_id}/matches/{ids[10]}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.request.get(f"{base}/join/{token}")  # the cookie, no page loaded
                first = _transferred(page, board + "/hands/new")
                repeat_visit = _transferred(page, board + "/hands/new")
                reloads, saves = [], []
                for _ in range(repeat + 1):
                    page.goto(board, wait_until="load")
                    start = time.perf_counter()
                    page.reload(wait_until="load")
                    reloads.append((time.perf_counter() - start) * 1000)
                    page.goto(board + "/hands/new", wait_until="load")
                    start = time.perf_counter()
                    _record(page, 11)
                    saves.append((time.perf_counter() - start) * 1000)
                    page.request.delete(f"{base}/api/v1/matches/{ids[10]}/hands/11",
                                        headers={"Authorization": f"Bearer {token}"})
                browser.close()
        finally:
            server.shutdown()
        reload_ms, save_ms = statistics.median(reloads[1:]), statistics.median(saves[1:])
        click.echo(f"plain reload of the scoreboard      {reload_ms:7.1f} ms")
        click.echo(f"Record hand -> updated scoreboard   {save_ms:7.1f} ms "
                   f"({save_ms / reload_ms:.2f}x the reload)")
        click.echo(f"hand entry, first visit             {first / 1024:7.1f} KB transferred")
        click.echo(f"hand entry, repeat visit            {repeat_visit / 1024:7.1f} KB transferred")
