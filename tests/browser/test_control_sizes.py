"""Every control a thumb can hit: on every page at 320 and 390 px (and the home page
of a first visit, before any group), each button, link,
field, summary and choice is at least 44 px tall (a link inside running text at least
24 px) and 24 px wide, and every field one types in has text of 16 px or more (a phone
zooms the page on focusing smaller text). The first smaller one fails the test, named with its size.

Radios and checkboxes are measured by the label a finger taps (their own box may be
small or hidden behind it); a link inside running text is one whose line holds text
beside it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import phone
from tests.support.pages import pages, seed

pytestmark = [pytest.mark.browser,
              pytest.mark.parametrize("backend", ["sqlite"], indirect=True)]

TAP, INLINE, TEXT = 44, 24, 16

# The first control of the page that is too small, as "what it is: why", or null.
FIRST_TOO_SMALL = """([tap, inline, text]) => {
  const shown = (el) => el.getClientRects().length && !el.closest('[hidden]')
    && getComputedStyle(el).visibility !== 'hidden';
  const words = (el) => (el.textContent || el.getAttribute('aria-label') || el.name || '')
    .trim().replace(/\\s+/g, ' ').slice(0, 40);
  const inText = (el) => getComputedStyle(el).display === 'inline'
    && (el.parentElement.textContent.trim() !== el.textContent.trim());
  const typed = 'input:not([type=checkbox]):not([type=radio]):not([type=hidden])'
    + ':not([type=submit]):not([type=color]), select, textarea';
  for (const el of document.querySelectorAll(`a[href], button, summary, ${typed}, input`)) {
    if (!shown(el) || el.closest('.visually-hidden')) continue;
    const box = el.matches('input[type=checkbox], input[type=radio]')
      ? (el.closest('label') || el).getBoundingClientRect() : el.getBoundingClientRect();
    const least = el.matches('a') && inText(el) ? inline : tap;
    if (box.height + 0.5 < least || box.width + 0.5 < inline) {
      return `${el.tagName.toLowerCase()} "${words(el)}": ${Math.round(box.width)}`
        + ` × ${Math.round(box.height)} px`;
    }
    if (el.matches(typed)) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < text) return `${el.tagName.toLowerCase()} "${words(el)}": ${size} px text`;
    }
  }
  return null;
}"""


def every_page(ids: dict[str, object]) -> list[str]:
    """The phone-size sweep's pages, the leaderboard's and the house rules of /check."""
    g = f"/groups/{ids['gid']}"
    return [*pages(ids), f"{g}/leaderboard", f"{g}/seasons", "/rules/countdown",
            "/check?game=crazy-eights"]


def first_too_small(page: Page, base: str, path: str) -> str | None:
    """Open the page, unfold its folded parts (their controls are a tap away) and name
    its first control that is too small, if any."""
    page.goto(base + path)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    return page.evaluate(FIRST_TOO_SMALL, [TAP, INLINE, TEXT])


@pytest.mark.parametrize("width", [320, 390])
def test_every_control_is_a_thumb_tall_and_every_field_reads_at_16px(
        browser: Browser, app, live_server: str, width: int):
    ids = seed(app)
    with phone(browser, live_server, None, width, 844) as page:  # a first visit: no group
        found = first_too_small(page, live_server, "/")
        expect(page.get_by_role("heading", name="Keep score at the table")).to_be_visible()
        assert found is None, f"/ (first visit) at {width} px: {found}"
    with phone(browser, live_server, ids["invite"], width, 844) as page:
        for path in every_page(ids):
            found = first_too_small(page, live_server, path)
            assert found is None, f"{path} at {width} px: {found}"
