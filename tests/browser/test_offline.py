"""Offline at the table, on a phone: the service worker keeps the scoreboard, the hand
form, the rules and the deal helper; hands recorded with no network wait on the phone
and reach the server once each, in order, when it is back.

"Offline" here is real, of two kinds (the ``outage`` fixture): the browser set offline
with the server stopped, and the server stopped alone while the browser, like a phone
on Wi-Fi whose server is unreachable, says ``navigator.onLine`` and never fires an
``online`` event. Stopped means its port refuses connections and the connections it had
are cut; it starts again on the same port."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, Match
from tests.support.browser import (
    DISCARD,
    SCREENSHOTS,
    biggest_first,
    both_hands_shown,
    kept_for_offline,
    screenshot,
    wait_until,
)
from tests.support.live_server import Server

pytestmark = pytest.mark.browser


@pytest.fixture
def server(app) -> Iterator[Server]:
    running = Server(app).start()
    yield running
    running.stop()


class Outage:
    """One kind of "offline": ``begin`` and ``end`` it."""

    def __init__(self, kind: str, context: BrowserContext, server: Server) -> None:
        self.kind, self.context, self.server = kind, context, server

    def begin(self) -> None:
        if self.kind == "browser offline":
            self.context.set_offline(True)
        self.server.stop()

    def end(self) -> None:
        self.server.start()
        if self.kind == "browser offline":
            self.context.set_offline(False)


OUTAGES = ["browser offline", "server down"]


@pytest.fixture(params=OUTAGES)
def outage(request: pytest.FixtureRequest, context: BrowserContext, server: Server) -> Outage:
    """The browser set offline with the server stopped; or the server stopped alone,
    the browser none the wiser."""
    return Outage(request.param, context, server)


def start_match(page: Page, app, server: Server) -> tuple[str, str, int]:
    """A group started on this phone, a Crazy Eights match for Ann, Bo and Cy; returns
    the scoreboard URL, the group's token and the match id."""
    page.goto(server.url() + "/")
    page.get_by_label("Group name").fill("Garden table")
    page.get_by_role("button", name="Start the group").tap()
    page.wait_for_url(re.compile(r"/groups/\d+"))
    group_id = int(re.search(r"/groups/(\d+)", page.url)[1])
    with app.app_context():
        token = db.session.get(Group, group_id).invite_token
    api = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    for name in ("Ann", "Bo", "Cy"):
        assert api.post("/api/v1/players", json={"name": name}, headers=auth).status_code == 201
    match = api.post("/api/v1/matches", headers=auth, json={
        "sheet": {"game": "crazy-eights", "options": {}}, "players": ["Ann", "Bo", "Cy"]}).json
    board = f"{server.url()}/groups/{group_id}/matches/{match['id']}"
    page.goto(board)
    path = f"/groups/{group_id}/matches/{match['id']}"
    kept_for_offline(page, path, path + "/hands/new")
    return board, token, match["id"]


def enter_hand(page: Page, number: int, out: int, held: dict[int, str]) -> None:
    """From the scoreboard: open the next hand's form, fill it in and tap Record."""
    page.get_by_role("link", name=re.compile(r"Record hand \d+")).tap()
    expect(page.get_by_role("heading", name=re.compile(f"Record hand {number}"))).to_be_visible()
    page.locator(f'.went-out input[name=out][value="{out}"]').tap()
    for seat, cards in held.items():
        page.locator(f"#seat-{seat}").fill(cards)
    page.get_by_role("button", name=f"Record hand {number}").tap()


def queue_hand(page: Page, number: int, out: int, held: dict[int, str]) -> None:
    enter_hand(page, number, out, held)
    expect(page.locator(f'[data-queued-hand="{number}"]')).to_contain_text("waiting to sync")


def two_hands_offline(page: Page, app, outage: Outage) -> tuple[str, str, int]:
    """A match started online, then hands 1 and 2 queued with no network."""
    started = start_match(page, app, outage.server)
    outage.begin()
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    queue_hand(page, 2, 1, {0: "7d", 2: "qs 2h"})
    return started


def another_phone_records_hand_1(app, token: str, match_id: int) -> None:
    """Meanwhile, another phone records hand 1 (Bo went out)."""
    other = app.test_client().post(
        f"/api/v1/matches/{match_id}/hands", headers={"Authorization": f"Bearer {token}"},
        json={"number": 1, "out": 1, "held": {"0": "9d", "2": "4c"}})
    assert other.status_code == 201


def form_kept_for(page: Page, board: str, number: int) -> None:
    """Wait until the phone keeps the next hand's form as the server now serves it (for
    hand ``number``): a saved hand's scoreboard fetches it again after it loads."""
    wait_until(page, """async ([path, heading]) => {
        const names = (await caches.keys()).filter((n) => n.startsWith("sk-pages-"));
        const kept = names.length === 1 && await (await caches.open(names[0])).match(path);
        return kept && (await kept.text()).includes(heading); }""",
               [urlsplit(board).path + "/hands/new", f"Record hand {number}"])


def stored(app, match_id: int) -> list[tuple[int, str | None]]:
    with app.app_context():
        rows = db.session.execute(db.select(Hand.number, Hand.idempotency_key)
                                  .where(Hand.match_id == match_id).order_by(Hand.id))
        return [tuple(r) for r in rows]


def test_two_hands_recorded_offline_sync_in_order_once_each(page: Page, app, outage: Outage):
    board, _, match_id = two_hands_offline(page, app, outage)
    waiting = page.locator("[data-offline-queue]")
    # Typed with no server to score them: the cards, and no points the phone made up.
    first = waiting.locator('[data-queued-hand="1"]')
    expect(first).to_contain_text("Bo 8♠ K♥")
    expect(first).to_contain_text("Points shown once the server has scored these cards.")
    expect(waiting.locator('[data-queued-hand="2"]')).to_contain_text("Cy Q♠ 2♥")

    page.reload()  # still offline: the page and the queue come from the phone
    expect(page.locator("[data-live-status]")).to_contain_text("offline — last updated")
    expect(waiting.locator("[data-queued-hand]")).to_have_count(2)
    expect(page.get_by_role("button", name="Sync now")).to_be_visible()
    assert stored(app, match_id) == []

    outage.end()
    expect(waiting).to_be_hidden()
    expect(page.locator(".hands-table tbody tr")).to_have_count(2)
    expect(page.locator("[data-live-status]")).to_contain_text("live · updated")
    numbers = stored(app, match_id)
    assert [n for n, _ in numbers] == [1, 2]
    assert all(key for _, key in numbers) and numbers[0][1] != numbers[1][1]
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"
    assert board in page.url


def test_a_refused_hand_stays_with_the_servers_message_and_a_lost_answer_is_not_doubled(
        page: Page, app, outage: Outage):
    _, token, match_id = start_match(page, app, outage.server)
    outage.begin()
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    another_phone_records_hand_1(app, token, match_id)
    outage.end()
    refused = page.locator('[data-queued-hand="1"]')
    expect(refused).to_contain_text("not accepted")
    expect(refused).to_contain_text(
        "The server said: hand 1 is already recorded; the next hand is 2")
    page.reload()
    expect(refused).to_contain_text("hand 1 is already recorded")  # kept on the phone
    page.get_by_role("link", name="Fix the cards").tap()  # the form, filled in again
    expect(page.locator("#seat-1")).to_have_value("8s kh")
    expect(page.locator('input[name=out][value="0"]')).to_be_checked()
    page.go_back()

    # Resent as hand 2, the answer is lost on the way back: the phone keeps the hand and
    # tries again by itself, with the same key; the server stores it once.
    outage.server.lose_next_answer = True
    page.get_by_role("button", name="Send as hand 2").tap()
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert len(outage.server.lost) == 1
    assert stored(app, match_id) == [(1, None), (2, outage.server.lost[0])]


def test_rules_and_deal_open_offline(page: Page, app, outage: Outage):
    server = outage.server
    page.goto(server.url() + "/")
    kept_for_offline(page, "/rules", "/deal", "/rules/last-one")
    outage.begin()
    page.goto(server.url() + "/rules")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Rules")
    page.goto(server.url() + "/rules/last-one")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Last One")
    page.goto(server.url() + "/deal")
    expect(page.get_by_role("heading", level=1)).to_contain_text("How many cards?")
    page.goto(server.url() + "/groups/999/matches/1")  # never opened: a plain explanation
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")


# Counts the ``online`` events any page of this context sees (kept in sessionStorage,
# so a navigation does not reset it).
COUNT_ONLINE_EVENTS = """addEventListener("online", () => sessionStorage.setItem(
    "online-events", String(Number(sessionStorage.getItem("online-events") || 0) + 1)));"""


def test_a_hand_queued_while_the_server_was_down_is_stored_once_it_answers_again(
        page: Page, app, server: Server, record_property):
    """The phone thinks it is online, so the form posts; the server is unreachable, and
    the service worker hands the typed cards back to the page to queue. Once the server
    answers again the hand reaches it by itself, with no ``online`` event and no tap,
    within 3 s (the phone tries at least every 2 s while a hand waits; an earlier
    version's 20 s timer fails this). The time is read on the server's side: from the
    moment it listens again to the moment the hand is in the database."""
    page.add_init_script(COUNT_ONLINE_EVENTS)
    _, _, match_id = start_match(page, app, server)
    server.stop()
    queue_hand(page, 1, 2, {0: "ah", 1: "10c"})
    expect(page.locator('[data-queued-hand="1"]')).to_contain_text("Bo 10♣")
    page.wait_for_timeout(5000)  # down a while: the phone's retries have backed off
    assert stored(app, match_id) == []
    server.start()
    started = time.monotonic()
    while not stored(app, match_id) and time.monotonic() - started < 10:
        time.sleep(0.02)
    synced_after = time.monotonic() - started
    record_property("synced_after_s", round(synced_after, 2))
    print(f"hand stored {synced_after:.2f} s after the server started again")
    assert [n for n, _ in stored(app, match_id)] == [1]
    assert synced_after < 3, f"stored {synced_after:.2f} s after the server came back"
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert page.evaluate("[navigator.onLine, sessionStorage.getItem('online-events')]") == [
        True, None]


def test_a_spectator_board_updates_in_place_from_a_304_poll(page: Page, app, server: Server):
    _, token, match_id = start_match(page, app, server)
    with app.app_context():
        view = db.session.get(Match, match_id).view_token
    polls: list[int] = []
    live = f"/view/{view}/live"
    page.on("response", lambda r: polls.append(r.status) if r.url.endswith(live) else None)

    def polled(times: int) -> None:
        for _ in range(100):
            if len(polls) >= times:
                return
            page.wait_for_timeout(100)

    page.goto(f"{server.url()}/view/{view}")
    expect(page.locator("[data-live-status]")).to_contain_text("live · updated")
    polled(1)
    wake = "document.dispatchEvent(new Event('visibilitychange'))"  # poll now
    page.evaluate(wake)
    polled(2)
    # Nothing changed, no body: the page says which version it shows, so from the first.
    assert polls[:2] == [304, 304]
    page.evaluate("document.getElementById('board').dataset.marker = 'same element'")
    app.test_client().post(f"/api/v1/matches/{match_id}/hands",
                           headers={"Authorization": f"Bearer {token}"},
                           json={"number": 1, "out": 0, "held": {"1": "9d", "2": "4c"}})
    page.evaluate(wake)
    expect(page.locator(".hands-table tbody tr")).to_have_count(1)
    assert page.evaluate("document.getElementById('board').dataset.marker") == "same element"


def test_a_new_version_reaches_the_phone_on_the_next_visit(
        page: Page, app, server: Server, monkeypatch):
    """A change to the static files makes a new worker; the next page load installs it
    and its activation removes the old version's caches."""
    from scorekeeper.web.offline import views

    page.goto(server.url() + "/rules")
    kept_for_offline(page, "/rules")
    old = page.evaluate("caches.keys()")
    assert any(name.startswith("sk-shell-") for name in old)
    monkeypatch.setattr(views, "_version", lambda folder: "newversion01")
    page.reload()  # the next visit
    wait_until(page, """async () => {
        const names = await caches.keys();
        return names.includes('sk-pages-newversion01')
            && !names.some((n) => n.startsWith('sk-') && !n.endsWith('newversion01')
                                  && n !== 'sk-pending'); }""")


# ---- the board while hands wait, the same hand twice, and a person's choice

def until(page: Page, condition: Callable[[], object], timeout: float = 15.0) -> None:
    """Let the page run until ``condition()`` (test-side) holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not true after {timeout} s"
        page.wait_for_timeout(50)


def answer_dialogs(page: Page, accept: bool) -> list[str]:
    """Answer every confirm() from now on; the list of their messages."""
    seen: list[str] = []

    def answer(dialog) -> None:
        seen.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", answer)
    return seen


@pytest.mark.parametrize(("scheme", "outage"), [
    ("light", "browser offline"), ("dark", "browser offline"), ("light", "server down")],
    indirect=["outage"])
def test_a_queued_hand_moves_the_board_on_at_once(
        page: Page, app, outage: Outage, scheme: str, backend: str):
    page.emulate_media(color_scheme=scheme)
    _, _, match_id = start_match(page, app, outage.server)
    claims = page.locator("#board .standings [data-next-hand-fact]")
    expect(claims.filter(has_text="deals")).to_be_visible()  # the server's, for hand 1
    outage.begin()
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    # The board says one thing: the next-hand line says who deals is not known yet,
    # and no tile claims a dealer or a first player.
    expect(page.locator("[data-next-line]")).to_contain_text(
        "who deals and plays first are worked out once hand 1 is synced")
    expect(claims.filter(visible=True)).to_have_count(0)
    shown = page.locator("#board .standings").inner_text()  # the text on the screen
    assert "deals" not in shown and "plays first" not in shown, shown
    expect(page.locator('[data-queued-hand="1"]')).to_contain_text("Bo 8♠ K♥")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text("hand 2")
    expect(page.locator("#board").get_by_role("link", name="Record hand 2")).to_be_visible()
    note = page.locator("[data-before-waiting]")
    expect(note).to_contain_text("Totals before hand 1, waiting to sync")
    expect(page.locator(".standings .total")).to_have_text(["0", "0", "0"])  # the server's
    # The waiting hand is at the top: above the board, in view as the page opens.
    waiting = page.locator('[data-queued-hand="1"]')
    assert page.evaluate("""() => {
        const queue = document.querySelector('[data-offline-queue]');
        return queue.compareDocumentPosition(document.getElementById('board'))
            & Node.DOCUMENT_POSITION_FOLLOWING; }""")
    box = waiting.bounding_box()
    assert box and box["y"] + box["height"] <= 844
    if backend == "sqlite" and outage.kind == "browser offline":
        screenshot(page, SCREENSHOTS / f"offline-board-{scheme}.png", full_page=True)
    outage.end()
    expect(note).to_have_count(0)
    expect(page.locator(".standings .total")).to_have_text(["65", "0", "0"])  # Ann went out
    expect(heading).to_contain_text("hand 2")
    expect(claims.filter(has_text="deals")).to_be_visible()  # the server's, for hand 2
    assert [n for n, _ in stored(app, match_id)] == [1]


def test_the_same_hand_twice_is_queued_and_waits_with_the_servers_question(
        page: Page, app, outage: Outage):
    """The phone compares no cards: the server asks when it gets the hand (the question
    itself, and what a person does about it, below)."""
    board, _, match_id = start_match(page, app, outage.server)
    enter_hand(page, 1, 0, {1: "8s kh", 2: "5c"})  # online: stored at once
    page.wait_for_url(board)
    form_kept_for(page, board, 2)
    outage.begin()
    asked = answer_dialogs(page, accept=False)
    queue_hand(page, 2, 0, {1: "KH 8♠", 2: "c5"})  # the same cards, spelt otherwise
    assert asked == []
    outage.end()
    waiting = page.locator('[data-queued-hand="2"]')
    expect(waiting).to_contain_text("these are the cards of hand 1")
    expect(waiting).to_contain_text("not accepted")
    assert [n for n, _ in stored(app, match_id)] == [1]


def test_after_a_discard_nothing_is_sent_without_a_persons_choice(
        page: Page, app, outage: Outage):
    _, token, match_id = start_match(page, app, outage.server)
    outage.begin()
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    answer_dialogs(page, accept=True)  # the Discard buttons ask first
    queue_hand(page, 2, 0, {1: "8s kh", 2: "5c"})  # the same hand again, by mistake
    another_phone_records_hand_1(app, token, match_id)
    outage.end()
    refused = page.locator('[data-queued-hand="1"]')
    expect(refused).to_contain_text("not accepted")
    copy = page.locator('[data-queued-hand="2"]')
    expect(copy).to_contain_text("waiting to sync")  # behind the refused one: not sent
    refused.get_by_role("button", name="Discard").tap()
    expect(refused).to_have_count(0)
    expect(copy).to_contain_text("waiting for your choice")
    expect(copy).to_contain_text("recorded after hand 1, which was discarded")
    page.get_by_role("button", name="Sync now").tap()
    page.wait_for_timeout(1500)  # a send round, and the retry timer's chance
    expect(copy).to_contain_text("waiting for your choice")
    assert [n for n, _ in stored(app, match_id)] == [1]  # only the other phone's hand
    copy.get_by_role("button", name="Discard").tap()  # the person's choice: it was a copy
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    page.wait_for_timeout(500)
    assert [n for n, _ in stored(app, match_id)] == [1]
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"


def test_a_held_hand_goes_once_a_person_sends_it(page: Page, app, outage: Outage):
    _, token, match_id = two_hands_offline(page, app, outage)
    another_phone_records_hand_1(app, token, match_id)
    outage.end()
    refused = page.locator('[data-queued-hand="1"]')
    expect(refused).to_contain_text("not accepted")
    refused.get_by_role("button", name="Send as hand 2").tap()  # renumbered by a person
    expect(page.locator('[data-queued-hand="2"]').first).to_be_visible()
    held = page.locator(".queued-hand.is-held")
    expect(held).to_contain_text("recorded after hand 1 before it was sent as hand 2")
    until(page, lambda: len(stored(app, match_id)) == 2)  # the renumbered one is sent
    page.wait_for_timeout(300)
    assert [n for n, _ in stored(app, match_id)] == [1, 2]
    held.get_by_role("button", name="Send as hand 3").tap()
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert [n for n, _ in stored(app, match_id)] == [1, 2, 3]


# ---- the server's same-hand question on a queued hand (tests/browser/test_same_hand.py)

def the_same_hand_recorded_meanwhile(page: Page, app, outage: Outage
                                     ) -> tuple[str, int, Locator]:
    """Phone A queues hand 1 offline; phone B records the same cards as hand 1; A comes
    back, sends it on its own and is asked. The board, the match id, A's queued hand."""
    board, token, match_id = start_match(page, app, outage.server)
    outage.begin()
    queue_hand(page, 1, 0, {1: "8s kh", 2: "5c"})
    other = app.test_client().post(
        f"/api/v1/matches/{match_id}/hands", headers={"Authorization": f"Bearer {token}"},
        json={"number": 1, "out": 0, "held": {"1": "KH 8S", "2": "5C"}})
    assert other.status_code == 201
    outage.end()
    queued = page.locator('[data-queued-hand="1"]')
    expect(queued).to_contain_text("these are the cards of hand 1")
    return board, match_id, queued


def test_a_queued_hand_the_server_finds_the_same_waits_with_its_question(
        page: Page, app, outage: Outage, tmp_path: Path):
    board, match_id, queued = the_same_hand_recorded_meanwhile(page, app, outage)
    discard = queued.get_by_role("button", name=DISCARD)
    anyway = queued.get_by_role("button", name=re.compile("It's another hand"))
    expect(queued.get_by_role("button", name=re.compile("Send as hand"))).to_have_count(0)
    biggest_first(page, discard, anyway)
    # A board the live poll swaps in leaves the question's buttons alone: a tap that
    # began on a button rebuilt under the finger would be lost.
    discard.evaluate("button => { button.dataset.touched = 'yes'; }")
    page.evaluate("window.dispatchEvent(new Event('scorekeeper:board'))")
    expect(discard).to_have_attribute("data-touched", "yes")
    screenshot(page, tmp_path / "offline-clash-question.png")
    assert [n for n, _ in stored(app, match_id)] == [1]

    anyway.tap()  # a first step: both hands side by side, nothing sent yet
    compare = queued.locator("table")
    both_hands_shown(queued, [("Ann", "went out"), ("Bo", "8♠ K♥"), ("Cy", "5♣")])
    expect(compare).to_contain_text("Hand 1, recorded")
    screenshot(page, tmp_path / "offline-clash-both-hands.png")
    page.wait_for_timeout(500)
    assert [n for n, _ in stored(app, match_id)] == [1]
    queued.get_by_role("button", name="Back").tap()
    queued.get_by_role("button", name=DISCARD).tap()  # one tap: the copy is gone
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('scorekeeper.queue.v1')") == "[]"
    page.wait_for_timeout(500)
    assert [n for n, _ in stored(app, match_id)] == [1]
    assert board in page.url


def test_a_queued_hand_sent_anyway_after_seeing_both(
        page: Page, app, outage: Outage):
    _, match_id, queued = the_same_hand_recorded_meanwhile(page, app, outage)
    queued.get_by_role("button", name=re.compile("It's another hand")).tap()
    queued.get_by_role("button", name="Send it as hand 2").tap()  # the deliberate second tap
    expect(page.locator("[data-offline-queue]")).to_be_hidden()
    assert [n for n, _ in stored(app, match_id)] == [1, 2]


@pytest.mark.parametrize("outage", ["server down"], indirect=True)
def test_sending_anyway_answers_for_one_number_only(page: Page, app, outage: Outage):
    """"Send it as hand 2" answers the question about hand 1, for number 2 only. When
    another phone takes number 2 (with these very cards again) first, the hand offered
    as hand 3 is asked about again, not sent on the old answer."""
    _, token, match_id = start_match(page, app, outage.server)
    outage.begin()
    queue_hand(page, 1, 0, {1: "2c 3d", 2: "4h"})  # few points: the match goes on
    low = {"number": 1, "out": 0, "held": {"1": "2c 3d", "2": "4h"}}
    api = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    assert api.post(f"/api/v1/matches/{match_id}/hands", headers=auth, json=low).status_code == 201
    outage.end()
    queued = page.locator('[data-queued-hand="1"]')
    expect(queued).to_contain_text("these are the cards of hand 1")
    queued.get_by_role("button", name=re.compile("It's another hand")).tap()
    again = api.post(f"/api/v1/matches/{match_id}/hands", headers=auth,
                     json={**low, "number": 2, "same_as_confirmed": True})
    assert again.status_code == 201
    queued.get_by_role("button", name="Send it as hand 2").tap()
    refused = page.locator('[data-queued-hand="2"]')  # renumbered, then refused
    expect(refused).to_contain_text("hand 2 is already recorded")
    refused.get_by_role("button", name="Send as hand 3").tap()
    asked = page.locator('[data-queued-hand="3"]')
    expect(asked).to_contain_text("these are the cards of hand 2")
    expect(asked.get_by_role("button", name=DISCARD)).to_be_visible()
    assert [n for n, _ in stored(app, match_id)] == [1, 2]
