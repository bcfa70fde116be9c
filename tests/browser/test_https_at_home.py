"""The whole app at home over HTTPS: ``scorekeeper serve --https`` as a real process,
opened by Chromium as a phone on the Wi-Fi would (``https://table.lan:PORT/``, the name
mapped to the loopback), once with the laptop's authority trusted and once without.

Trusted, the page is a secure context: the service worker registers and the screen
wake lock is granted (headless Chromium grants it to a visible, focused page; the
lock's own behaviour is the browser's). Untrusted, Chromium refuses the certificate
before any page loads.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Error

from scorekeeper.cli import certificates
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, require_chromium
from tests.support.serve import SCOREKEEPER, serve_https
from tests.support.trust import nss_home

pytestmark = pytest.mark.browser

NAME = "table.lan"
WAIT_MS = 60_000  # a bound on a loaded machine; the waits end on the event
WORKER = f"""Promise.race([
  navigator.serviceWorker.ready.then(r => r.active && r.active.scriptURL),
  new Promise(done => setTimeout(() => done("no worker"), {WAIT_MS}))])"""
WAKE_LOCK = """navigator.wakeLock.request("screen").then(
  lock => lock.type + (lock.released ? " released" : " held"),
  error => "refused: " + error.name)"""


@pytest.fixture(scope="module")
def https(tmp_path_factory):
    """``serve --https --name table.lan``: (instance folder, HTTPS port, plain port)."""
    require_chromium()
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    instance = tmp_path_factory.mktemp("serve")
    served, port, plain = serve_https(instance, NAME)
    try:
        yield instance, port, plain
    finally:
        served.stop()


def chromium(playwright, home):
    """Chromium with ``home`` as its HOME (its NSS database) and table.lan on the loopback."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
        env={**os.environ, "HOME": str(home)})


def test_a_phone_that_trusts_the_authority_gets_the_whole_app(playwright, https, tmp_path):
    instance, port, _ = https
    authority = certificates.folder(instance) / certificates.AUTHORITY
    browser = chromium(playwright, nss_home(tmp_path / "home", authority))
    try:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"https://{NAME}:{port}/")
        assert page.evaluate("window.isSecureContext") is True
        assert page.evaluate(WORKER) == f"https://{NAME}:{port}/sw.js"
        assert page.evaluate(WAKE_LOCK) == "screen held"
    finally:
        browser.close()


def test_a_phone_that_does_not_is_refused(playwright, https, tmp_path):
    _, port, _ = https
    browser = chromium(playwright, nss_home(tmp_path / "home"))
    try:
        page = browser.new_page()
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"https://{NAME}:{port}/")
    finally:
        browser.close()


@pytest.mark.parametrize("width", [320, 390])
def test_the_plain_page_hands_a_phone_the_authority(playwright, https, tmp_path, width):
    instance, port, plain = https
    browser = chromium(playwright, nss_home(tmp_path / "home"))
    try:
        page = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}},
                                   accept_downloads=True).new_page()
        page.goto(f"http://{NAME}:{plain}/")  # the address serve prints beside the https one
        assert page.url == f"http://{NAME}:{plain}/https"
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the certificate authority").click()
        assert download.value.suggested_filename == "scorekeeper-ca.crt"
        saved = tmp_path / "ca.crt"
        download.value.save_as(saved)
        assert saved.read_bytes() == (certificates.folder(instance)
                                      / certificates.AUTHORITY).read_bytes()
        assert page.get_by_role("link", name=f"https://127.0.0.1:{port}/").is_visible()
    finally:
        browser.close()
