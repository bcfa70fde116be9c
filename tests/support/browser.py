"""Helpers for browser tests: Debian's Chromium, a phone's viewport, waiting on the page.

The fixtures (``browser_type_launch_args``, ``browser_context_args``, ``live_server``)
live in ``tests/browser/conftest.py``; test modules import these helpers from here.
Without Debian's Chromium the tests are skipped locally and fail under CI (the ``CI``
environment variable); ``playwright install`` cannot work on these machines.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.support.live_server import HOST_RULES

# Where the README's phone screenshots go: static/screenshots, written only by a run with
# SCOREKEEPER_SCREENSHOTS=1 (see :func:`screenshot`), so running the tests never dirties
# the work tree.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "static" / "screenshots"
TAKE_SCREENSHOTS = bool(os.environ.get("SCOREKEEPER_SCREENSHOTS"))

# Debian's Chromium, as its headless shell where it is installed (the package
# chromium-headless-shell: the same Blink, V8 and network stack without the browser's own
# windows and UI, as Playwright runs headless by default), else the full browser. The
# shell does a page's work for less: tests/browser/test_first_minutes.py, test_rules.py and
# test_offline.py took 117 CPU s in Chromium 156 and 45 in its shell, the same 51 tests
# passing (2 workers; 90 -> 56 s). SCOREKEEPER_CHROMIUM names another build to run the
# tests with (say the one a fresh machine installs, unpacked beside the newer one).
_BUILDS = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
CHROMIUM = Path(os.environ.get("SCOREKEEPER_CHROMIUM") or next(
    (build for build in _BUILDS if build.exists()), _BUILDS[0]))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    HOST_RULES,  # table.lan is the loopback, but no secure context (a phone on the Wi-Fi)
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    # A phone's Chrome grants a visible page the screen wake lock without asking; the
    # headless shell refuses it unless granted.
    "permissions": ["screen-wake-lock"],
}


# The width of the screen the page is laid out for: the layout viewport, the width its CSS
# sees. Not ``window.innerWidth``: on a phone (``is_mobile``) Chromium zooms out a page that
# is too wide until it fits, and innerWidth grows with the zoom to the page's own width, so
# a page or a key measured against it never reaches past the screen's edge.
SCREEN_WIDTH = "document.documentElement.clientWidth"

# How far the page reaches past the screen's sides (0 when it fits) and the first few of the
# innermost elements that do, by their box or by what spills from it (text that cannot wrap);
# not those inside a .table-wrap, which scrolls on its own, nor fixed ones.
_SIDEWAYS = f"""() => {{
  const screen = {SCREEN_WIDTH}, root = document.documentElement;
  const past = Array.from(document.querySelectorAll('body *')).filter((el) => {{
    const r = el.getBoundingClientRect();
    return r.width && (Math.max(r.right, r.left + el.scrollWidth) > screen + 1 || r.left < -1)
      && !el.closest('.table-wrap') && getComputedStyle(el).position !== 'fixed';
  }});
  const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other)));
  return [root.scrollWidth - screen, innermost.slice(0, 3).map((el) => el.outerHTML.slice(0, 90))];
}}"""


def require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium-headless-shell")
    pytest.skip(f"{CHROMIUM} not found")


def screenshot(target: Page | Locator, path: Path, **options: Any) -> None:
    """Save a picture of the page (or of one element) for a person to look at: the
    README's, or one beside a test. Only where SCOREKEEPER_SCREENSHOTS is set: no test
    reads them back, and at a phone's 3x density each cost Chromium 0.15 CPU s (0.6 for a
    whole page), about 90 of them a run."""
    if TAKE_SCREENSHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(path), **options)


def wait_until(page: Page, predicate: str, arg: Any = None, timeout: float = 15.0) -> None:
    """Wait until the page-side ``predicate`` (a function, usually async) gives a truthy
    value. Not ``page.wait_for_function``: that takes the Promise an async function
    returns as truthy and returns at once, without waiting for anything. Here the
    predicate is evaluated (``evaluate`` awaits it) every 50 ms until it holds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(predicate, arg):
                return
        except PlaywrightError as error:  # a navigation replaced the page mid-check
            if "context was destroyed" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {predicate}")
        page.wait_for_timeout(50)


@contextmanager
def phone(browser: Browser, base: str, invite: object, width: int, height: int,
          dark: bool = False) -> Iterator[Page]:
    """A touch phone of that size that joined the group by its invite link (with
    ``invite`` None, a phone that has joined nothing: a first visit)."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height},
                                     "device_scale_factor": 2},
                                  color_scheme="dark" if dark else "light")
    page = context.new_page()
    if invite is not None:
        page.goto(f"{base}/join/{invite}")
    try:
        yield page
    finally:
        context.close()


def at_size(page: Page, width: int, height: int) -> None:
    """Resize the open page's viewport and wait until it is laid out at that size: its
    media queries see the new size and two frames have run since (so a ResizeObserver,
    such as the docked card picker's, has had its turn)."""
    page.set_viewport_size({"width": width, "height": height})
    wait_until(page, """async ([w, h]) => {
        if (!matchMedia(`(width: ${w}px) and (height: ${h}px)`).matches) return false;
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        return true; }""", [width, height])


def sideways(page: Page) -> list[str]:
    """Nothing when the open page fits the screen's width; else how far it scrolls sideways
    and the first elements reaching past the screen's edge (the culprits to fix)."""
    extra, past = page.evaluate(_SIDEWAYS)
    return [*past, f"{extra} px too wide"] if extra > 0 else []


def phone_match(app: Any, base: str, page: Page, game: str = "last-one",
                players: tuple[str, ...] = ("Ann", "Ben", "Cat", "Dan")) -> dict[str, Any]:
    """A group this page's phone has joined (its invite cookie), with a match of
    ``players`` made through the API; its ``board`` URL, ``token``, ``match`` id and
    the API ``auth`` header."""
    from scorekeeper.store.extensions import db
    from scorekeeper.store.models import Group

    client = app.test_client()
    assert client.post("/groups", data={"name": "Kitchen table"}).status_code == 302
    with app.app_context():
        group_id, token = db.session.execute(
            db.select(Group.id, Group.invite_token).order_by(Group.id.desc())).first()
    auth = {"Authorization": f"Bearer {token}"}
    for name in players:
        assert client.post("/api/v1/players", json={"name": name}, headers=auth).status_code == 201
    match = client.post("/api/v1/matches", headers=auth, json={
        "sheet": {"game": game, "options": {}}, "players": list(players)}).json
    page.request.get(f"{base}/join/{token}")
    return {"board": f"{base}/groups/{group_id}/matches/{match['id']}", "token": token,
            "match": match["id"], "auth": auth}


def kept_for_offline(page: Page, *paths: str) -> None:
    """Wait until the service worker is active and has kept ``paths`` in the cache it
    answers pages from (its own ``sk-pages-<version>``). Not that it controls this
    page: one whose navigation began before the worker took over stays uncontrolled,
    yet the worker answers every navigation from it."""
    wait_until(page, """async (paths) => {
        if (!(await navigator.serviceWorker.ready).active) return false;
        const names = (await caches.keys()).filter((n) => n.startsWith("sk-pages-"));
        if (names.length !== 1) return false;  // a new version is taking over
        const pages = await caches.open(names[0]);
        for (const p of paths) { if (!(await pages.match(p))) return false; }
        return true; }""", list(paths))


class Taps:
    """Counts the taps a person makes: each goes through :meth:`tap`."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target: Any) -> None:
        target.tap()
        self.count += 1


def in_view(page: Page, selector: str, covered_below: str | None = None) -> bool:
    """Whether the element is wholly inside the viewport (and above ``covered_below``,
    a docked element such as the card picker, when given)."""
    return page.evaluate("""([selector, dock]) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        const docked = dock && document.querySelector(dock);
        const bottom = docked && !docked.hidden ? docked.getBoundingClientRect().top
            : window.innerHeight;
        return box.top >= 0 && box.bottom <= bottom && box.height > 0; }""",
        [selector, covered_below])


# ---- the same-hand question (tests/browser/test_same_hand.py, test_offline.py) ----

DISCARD = "It's the same hand — discard mine"  # its first and biggest button


def _area(target: Locator) -> float:
    box = target.bounding_box()
    assert box is not None
    return box["width"] * box["height"]


def biggest_first(page: Page, discard: Locator, anyway: Locator) -> None:
    """"Discard mine" is in view, above the other choice and bigger than it."""
    expect(discard).to_be_in_viewport()
    top, other = discard.bounding_box(), anyway.bounding_box()
    assert top is not None and other is not None
    assert top["y"] < other["y"] and _area(discard) > _area(anyway)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def both_hands_shown(question: Locator, rows: list[tuple[str, str]]) -> None:
    """Each player's line shows the same thing twice, the recorded hand and the new one
    (each card, in whatever order it was entered)."""
    for name, shown in rows:
        line = question.locator("tr", has_text=name)
        expect(line).to_have_count(1)
        for cell in (line.locator("td").nth(0), line.locator("td").nth(1)):
            for part in ([shown] if shown == "went out" else shown.split()):
                expect(cell).to_contain_text(part)
