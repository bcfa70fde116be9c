"""The player page's figures by game on a phone: every game (and "All") is on the page
without a sideways swipe, and no label is squeezed narrower than its longest word, at
320, 360, 390 and 430 px, light and dark."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.support.browser import phone, screenshot
from tests.support.pages import seed

pytestmark = pytest.mark.browser

# The "By game" card: what scrolls sideways inside it, and each label narrower than
# its longest word (measured in the label's own font, on one line).
SQUEEZED = """(card) => {
  const wide = Array.from(card.querySelectorAll('*'))
    .filter((el) => el.scrollWidth > el.clientWidth + 1
      && getComputedStyle(el).overflowX !== 'visible')
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} scrolls sideways`);
  const narrow = Array.from(card.querySelectorAll('th, dt, h3')).flatMap((label) => {
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'nowrap';
    label.append(probe);
    const words = label.textContent.trim().split(/\\s+/);
    const longest = Math.max(...words.map((word) => {
      probe.textContent = word;
      return probe.offsetWidth;
    }));
    probe.remove();
    return label.clientWidth + 0.5 < longest
      ? [`"${label.textContent.trim()}" is ${label.clientWidth} px for a ${longest} px word`] : [];
  });
  return [...wide, ...narrow];
}"""


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
@pytest.mark.parametrize(("width", "scheme"), [
    (320, "light"), (360, "dark"), (390, "light"), (430, "dark")])
def test_the_figures_by_game_read_on_a_phone_without_a_sideways_swipe(
        browser: Browser, app, live_server: str, width: int, scheme: str, tmp_path: Path):
    ids = seed(app)
    with phone(browser, live_server, ids["invite"], width, 844, dark=scheme == "dark") as page:
        page.goto(f"{live_server}/groups/{ids['gid']}/players/{ids['pid']}/stats")
        card = page.locator("section.card", has=page.get_by_role("heading", name="By game"))
        for game in ("Crazy Eights", "Last One", "All"):
            name = card.get_by_role("heading", name=game, exact=True)
            expect(name).to_be_visible()
            box = name.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (game, box)
        expect(card).to_contain_text("Matches won")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert card.evaluate(SQUEEZED) == []
        card.scroll_into_view_if_needed()
        screenshot(page, tmp_path / f"player-by-game-{width}-{scheme}.png")
