"""Fixtures for browser tests: Debian's Chromium, a phone-sized page, a live server.

Import them into a browser test module with::

    from .browser_support import *  # noqa

and mark the tests ``@pytest.mark.browser``. ``live_server`` serves the ``app`` fixture
(so each test runs on SQLite and on PostgreSQL) on a free local port and yields its base
URL. Without ``/usr/bin/chromium`` the tests are skipped locally and fail under CI
(the ``CI`` environment variable); ``playwright install`` cannot work on these machines.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from werkzeug.serving import make_server

__all__ = ["CHROMIUM", "SCREENSHOTS", "browser_context_args", "browser_type_launch_args",
           "live_server", "wait_until"]

# Where the README's phone screenshots go. Only a run with SCOREKEEPER_SCREENSHOTS=1
# rewrites the ones kept in static/screenshots; other runs write to a scratch folder,
# so running the tests never dirties the work tree.
_KEPT = Path(__file__).resolve().parent.parent / "static" / "screenshots"
SCREENSHOTS = _KEPT if os.environ.get("SCOREKEEPER_SCREENSHOTS") else Path(
    tempfile.mkdtemp(prefix="sk-shots-"))

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    pytest.skip(f"{CHROMIUM} not found")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system Chromium headless, with no background network chatter."""
    _require_chromium()
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Every page is a 390×844 touch phone at 3× pixel density."""
    return {**browser_context_args, **PHONE}


@pytest.fixture
def live_server(app) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port) in a daemon thread; yield the base URL."""
    _require_chromium()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # Polled every 50 ms rather than Werkzeug's 0.5 s, so ``shutdown`` (which waits
    # for the next poll) ends each test at once.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


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
