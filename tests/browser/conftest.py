"""Fixtures for browser tests: Debian's Chromium, a phone-sized page, a live server.

Mark the tests ``@pytest.mark.browser``. ``live_server`` serves the ``app`` fixture (so
each test runs on SQLite and on PostgreSQL) on a free local port and yields its base
URL. A browser test's PostgreSQL run is marked ``slow`` (CI runs it): what a page and
its scripts do does not depend on the database, whose behaviour on PostgreSQL the
web, API and store tests prove in every run; a test whose PostgreSQL run proves
something of its own (a lock only the database holds) is marked ``both_databases``.
The helpers (``SCREENSHOTS``, ``wait_until``, …) are in :mod:`tests.support.browser`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, require_chromium

HERE = Path(__file__).parent

# An ``expect`` waits for what it names, up to 15 s rather than Playwright's 5: on a
# loaded 2-core machine a page, its scripts and a server answer can take several
# seconds, and a check that holds returns as soon as it does, so only a failure waits.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` the PostgreSQL runs of the browser tests not marked ``both_databases``
    (tests/conftest.py deselects slow tests, after this hook, unless CI is set)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if (callspec is not None and callspec.params.get("backend") == "postgresql"
                and HERE in item.path.parents
                and not item.get_closest_marker("both_databases")):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system Chromium headless, with no background network chatter."""
    require_chromium()
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
    require_chromium()
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
