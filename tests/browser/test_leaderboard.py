"""The leaderboard, its season picker and a player's rating chart on phones: at 320 and
390 px wide in the light and the dark theme nothing scrolls sideways and axe-core finds
nothing; the picker works by touch; the chart has its words and its table. Presentation
only, so on SQLite alone; the README's screenshots come from here."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.seasons import add_season
from scorekeeper.store.transfer import import_document
from tests.support.browser import SCREENSHOTS, phone, screenshot, sideways
from tests.support.ratings import dated, one_hand

pytestmark = [pytest.mark.browser,
              pytest.mark.parametrize("backend", ["sqlite"], indirect=True)]

NAMES = (("Ann", "#1f77b4"), ("Ben", "#d62728"), ("Cy", "#2ca02c"), ("Dee", "#9467bd"))


def seed(app) -> dict[str, object]:
    """A group of four who played nine one-hand Crazy Eights matches this month (Ann
    won most, Cy held least when she lost), a named season, Dee's one match of Last
    One and one of Countdown."""
    now = datetime.now(UTC).replace(day=1, hour=12)
    winners = (0, 0, 1, 0, 2, 0, 1, 3, 0)
    specs = [one_hand([n for n, _ in NAMES], out, now.replace(minute=i).isoformat())
             for i, out in enumerate(winners)]
    specs.append(("last-one", {"threshold": 50}, ["Dee", "Cy"],
                  [(0, ["", "8S KH JK"])], now.replace(minute=30).isoformat()))
    specs.append(("countdown", {"start_count": 1}, ["Cy", "Dee"],
                  [(1, ["", ""])], now.replace(minute=31).isoformat()))
    with app.app_context():
        group = Group(name="Kitchen table")
        group.players = [Player(name=n, colour=c) for n, c in NAMES]
        db.session.add(group)
        db.session.commit()
        import_document(group, dated(specs))
        add_season(group, "Winter league", now.date().replace(day=1), now.date())
        ann = next(p for p in group.players if p.name == "Ann")
        return {"gid": group.id, "invite": group.invite_token, "ann": ann.id}


@pytest.fixture
def seeded(app, live_server: str) -> tuple[str, dict[str, object]]:
    return live_server, seed(app)


def _violations(page: Page) -> list[tuple[str, list]]:
    results = Axe().run(page)
    return [(v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]]


@pytest.mark.parametrize(("width", "height"), [(320, 568), (390, 844)])
def test_the_leaderboard_and_the_rating_chart_fit_and_pass_axe(browser: Browser, seeded,
                                                               width, height):
    """Each page opened once, checked in the light theme and then the dark one (the
    phone's setting switched under the open page)."""
    base, ids = seeded
    g = f"/groups/{ids['gid']}"
    paths = [f"{g}/leaderboard?game=crazy-eights", f"{g}/leaderboard?game=last-one&season=month",
             f"{g}/leaderboard?game=countdown", f"{g}/seasons", f"{g}/players/{ids['ann']}/stats",
             f"{g}/players/{ids['ann']}/stats?season=month"]
    with phone(browser, base, ids["invite"], width, height) as page:
        found, wide = {}, {}
        for path in paths:
            page.goto(base + path)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
                if extra := sideways(page):
                    wide[f"{path} ({scheme})"] = extra
                if violations := _violations(page):
                    found[f"{path} ({scheme})"] = violations
                if width == 390 and path == paths[0]:
                    screenshot(page, SCREENSHOTS / (
                        "leaderboard-dark.png" if scheme == "dark" else "leaderboard.png"),
                        full_page=True)
            page.emulate_media(color_scheme="light")
        assert not wide, f"wider than {width}px: {wide}"
        assert not found, "\n".join(f"{path}: {v}" for path, v in found.items())


def test_the_season_picker_works_by_touch(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844, False) as page:
        page.goto(f"{base}/groups/{ids['gid']}/leaderboard?game=crazy-eights")
        rows = page.locator("table.leaderboard tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.first.locator("td").first).to_have_text("1")
        page.locator("#season").select_option(label="Winter league")
        page.get_by_role("button", name="Show").tap()
        expect(page).to_have_url(re.compile(r"game=crazy-eights&season=\d+$"))
        expect(page.locator("#season option:checked")).to_have_text("Winter league")
        expect(page.get_by_role("heading", level=2).first).to_contain_text("Winter league")
        expect(rows).to_have_count(4)
        record = page.locator(".records a").first
        expect(record).to_be_visible()
        box = record.bounding_box()
        assert box and box["height"] >= 44  # a record's link is a finger's size


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("width", [320, 390])
def test_the_best_and_worst_hands_link_to_their_matches_and_countdown_says_why(
        browser: Browser, seeded, width, dark):
    base, ids = seeded
    g = f"{base}/groups/{ids['gid']}/leaderboard"
    with phone(browser, base, ids["invite"], width, 844, dark) as page:
        page.goto(f"{g}?game=crazy-eights")
        for kind, words in (("best-hand", "most points scored"),
                            ("worst-hand", "most points left holding")):
            item = page.locator(f".records li.record-{kind}")
            expect(item.locator(".record-title")).to_contain_text(words)
            link = item.locator("a")
            expect(link).to_be_visible()
            box = link.bounding_box()
            assert box and box["height"] >= 44 and box["x"] + box["width"] <= width
        page.locator(".records li.record-worst-hand a").tap()
        expect(page).to_have_url(re.compile(r"/matches/\d+/record$"))
        page.goto(f"{g}?game=countdown")
        expect(page.locator(".records li.record-best-hand a")).to_have_text("Dee: 1 card dealt")
        note = page.locator(".records li.record-worst-hand")
        expect(note).to_contain_text("only who went out")
        expect(note.locator("a")).to_have_count(0)
        assert sideways(page) == []


def test_the_rating_chart_says_in_words_what_it_draws(browser: Browser, seeded):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844, False) as page:
        page.goto(f"{base}/groups/{ids['gid']}/players/{ids['ann']}/stats")
        chart = page.locator(".player-ratings svg[role=img]").first
        expect(chart).to_be_visible()
        title = page.locator("#rating-crazy-eights-title")
        expect(title).to_contain_text("rating after each rated match")
        expect(title).to_contain_text("after 9 rated matches")
        page.locator(".rating-points summary").first.tap()
        expect(page.locator(".rating-points tbody tr")).to_have_count(9)
        screenshot(page.locator(".player-ratings"), SCREENSHOTS / "rating-chart.png")


def test_a_finished_boards_ratings_fit_and_pass_axe(browser: Browser, seeded, app):
    base, ids = seeded
    with phone(browser, base, ids["invite"], 390, 844, True) as page:
        page.goto(f"{base}/groups/{ids['gid']}/leaderboard?game=crazy-eights")
        page.locator(".records a").nth(1).tap()  # the streak's match record
        page.get_by_role("link", name="Scoreboard").tap()
        expect(page.locator("#match-ratings-title")).to_be_visible()
        expect(page.locator(".seat-ratings li")).to_have_count(4)
        assert sideways(page) == []
        assert not _violations(page)
