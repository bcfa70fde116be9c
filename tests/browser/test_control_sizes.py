"""Every control a thumb can hit: on every page at 320, 360, 390 and 430 px (and the
home page of a first visit, before any group), each button, link, field, summary and
choice is at least 44 × 44 px (a link inside running text at least 24 px each way),
and every field one types in — the colour picker too — has text of 16 px or more (a
phone zooms the page on focusing smaller text). The card keys count, on the hand form
and the checker. Every control too small is named with its size.

Radios and checkboxes are measured by the label a finger taps (their own box may be
small or hidden behind it); a link inside running text is one whose line holds text
beside it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import at_size, phone
from tests.support.pages import pages, seed

pytestmark = [pytest.mark.browser,
              pytest.mark.parametrize("backend", ["sqlite"], indirect=True)]

TAP, INLINE, TEXT = 44, 24, 16

# The page's controls that are too small, each as "what it is: why".
TOO_SMALL = """([tap, inline, text]) => {
  const shown = (el) => el.getClientRects().length && !el.closest('[hidden]')
    && getComputedStyle(el).visibility !== 'hidden';
  const words = (el) => (el.textContent || el.getAttribute('aria-label') || el.name || '')
    .trim().replace(/\\s+/g, ' ').slice(0, 40);
  const inText = (el) => getComputedStyle(el).display === 'inline'
    && (el.parentElement.textContent.trim() !== el.textContent.trim());
  const typed = 'input:not([type=checkbox]):not([type=radio]):not([type=hidden])'
    + ':not([type=submit]), select, textarea';
  const found = [];
  for (const el of document.querySelectorAll(`a[href], button, summary, ${typed}, input`)) {
    if (!shown(el) || el.closest('.visually-hidden')) continue;
    const box = el.matches('input[type=checkbox], input[type=radio]')
      ? (el.closest('label') || el).getBoundingClientRect() : el.getBoundingClientRect();
    const least = el.matches('a') && inText(el) ? inline : tap;
    if (box.height + 0.5 < least || box.width + 0.5 < least) {
      found.push(`${el.tagName.toLowerCase()} "${words(el)}": ${Math.round(box.width)}`
        + ` × ${Math.round(box.height)} px`);
    }
    if (el.matches(typed)) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < text) found.push(`${el.tagName.toLowerCase()} "${words(el)}": ${size} px text`);
    }
  }
  return found;
}"""


def every_page(ids: dict[str, object]) -> list[str]:
    """The phone-size sweep's pages, the leaderboard's and the house rules of /check."""
    g = f"/groups/{ids['gid']}"
    return [*pages(ids), f"{g}/leaderboard", f"{g}/seasons", "/rules/countdown",
            "/check?game=crazy-eights"]


def with_a_rated_match(app, ids: dict[str, object]) -> None:
    """Play the seed's Crazy Eights match out (Dee goes out until it is over), so the
    player page shows a rating chart and its table of matches (toggles, record links)."""
    client, auth = app.test_client(), {"Authorization": f"Bearer {ids['invite']}"}
    for number in range(2, 12):
        hand = client.post(f"/api/v1/matches/{ids['c8']}/hands", headers=auth, json={
            "number": number, "out": 1, "held": {"0": "8s 8h kd"}})
        assert hand.status_code == 201, hand.json
        if client.get(f"/api/v1/matches/{ids['c8']}", headers=auth).json["status"] == "finished":
            return
    raise AssertionError("the Crazy Eights match did not finish")


WIDTHS = (320, 360, 390, 430)


def unfolded(page: Page, base: str, path: str) -> None:
    """Open the page and unfold its folded parts (their controls are a tap away)."""
    page.goto(base + path)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def too_small(page: Page, path: str, found: dict[str, list[str]]) -> None:
    """Name the open page's controls that are too small at each phone width (the
    viewport resized under the page), under ``path`` and the width."""
    for width in WIDTHS:
        at_size(page, width, 844)
        found[f"{path} at {width} px"] = page.evaluate(TOO_SMALL, [TAP, INLINE, TEXT])


def test_every_control_is_a_thumb_tall_and_every_field_reads_at_16px(
        browser: Browser, app, live_server: str):
    ids = seed(app)
    with_a_rated_match(app, ids)
    found: dict[str, list[str]] = {}
    with phone(browser, live_server, None, WIDTHS[0], 844) as page:  # a first visit: no group
        unfolded(page, live_server, "/")
        expect(page.get_by_role("heading", name="Keep score at the table")).to_be_visible()
        too_small(page, "/ (first visit)", found)
    with phone(browser, live_server, ids["invite"], WIDTHS[0], 844) as page:
        for path in every_page(ids):
            unfolded(page, live_server, path)
            too_small(page, path, found)
        expect(page.locator(".cp-key").first).to_be_visible()  # the checker's keys: measured
    said = [f"{path}: {'; '.join(dict.fromkeys(what))}" for path, what in found.items() if what]
    assert not said, "too small:\n" + "\n".join(said)
