"""The history pages: list with filters and keyset pages, match record with its chart,
player statistics, downloads and the upload form; query counts that do not grow."""

from __future__ import annotations

import io
import json
import random
import re
from datetime import date

import pytest
from sqlalchemy import event

from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Hand, Match, Player
from scorekeeper.store.seasons import add_season
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.parsed import Page, definitions, headed, role, text


def _group(name: str, matches: int, seed: int = 11) -> tuple[int, str]:
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    if matches:
        import_document(group, random_document(random.Random(seed), matches))
    return group.id, group.invite_token


@pytest.fixture
def member(app, client):
    """A joined group with 30 random matches: (client, group id)."""
    with app.app_context():
        group_id, token = _group("Thursday", 30)
    client.get(f"/join/{token}")
    return client, group_id


RECORD = re.compile(r"/groups/\d+/matches/(\d+)/record")


def ids_on(page: Page) -> list[int]:
    """The matches the history lists, newest first: the record each item links to."""
    listed = [item.find("a", href=True) for lst in page.by_role("list")
              for item in lst.find_all("li")]
    return [int(found[1]) for link in listed if link is not None
            and (found := RECORD.fullmatch(str(link["href"]))) is not None]


def test_history_lists_newest_first_in_pages(app, member):
    client, gid = member
    first = client.get(f"/groups/{gid}/history")
    assert first.status_code == 200
    page1 = ids_on(Page(first))
    assert len(page1) == 25 and page1 == sorted(page1, reverse=True)
    older = Page(first).href("Older matches")
    assert "before=" in older
    page2 = ids_on(Page(client.get(older)))
    assert len(page2) == 5 and not set(page1) & set(page2)


def test_history_filters(app, member):
    client, gid = member
    with app.app_context():
        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
        want = {m.id for m in db.session.scalars(db.select(Match).where(
            Match.game == "countdown", Match.status == "finished"))
            if ann.id in {s.player_id for s in m.seats}}
        ann_id = ann.id
    page = Page(client.get(f"/groups/{gid}/history?game=countdown&status=finished"
                           f"&player={ann_id}"))
    assert set(ids_on(page)) == want
    junk = client.get(f"/groups/{gid}/history?game=poker&player=99999999999&before=x")
    assert junk.status_code == 200 and len(ids_on(Page(junk))) == 25


def test_pages_are_for_members_only(app, member):
    client, gid = member
    with app.app_context():
        other, _ = _group("Other", 1)
        their_match = db.session.scalar(db.select(Match.id).where(Match.group_id == other))
    assert client.get(f"/groups/{other}/history").status_code == 404
    assert client.get(f"/groups/{gid}/matches/{their_match}/record").status_code == 404
    assert client.get(f"/groups/{gid}/matches/{their_match}/export.json").status_code == 404


def test_match_record_shows_cards_points_and_chart(app, member):
    client, gid = member
    with app.app_context():
        match = db.session.scalar(db.select(Match).where(Match.game == "last-one")
                                  .order_by(Match.hand_count.desc()).limit(1))
        mid, seats, hands = match.id, len(match.seats), match.hand_count
        colour = match.seats[0].player.colour
    page = Page(client.get(f"/groups/{gid}/matches/{mid}/record"))
    chart = page.get("img", "Totals after each hand")
    lines = chart.find_all("polyline")
    assert len(lines) == seats and colour in [line["stroke"] for line in lines]
    assert chart.select("line.goal") and "out at 100" in [text(t) for t in chart.find_all("text")]
    assert len([h for h in page.names("heading") if re.fullmatch(r"Hand \d+", h)]) == hands
    held = headed(page, "Hand 1").find("table")
    assert [chip for chip in held.select(".pc.red, .pc.black, .pc.joker")
            if chip.find(string=True, recursive=False) and chip.select_one(".pts")
            and text(chip.select_one(".pts")).isdigit()]  # a card with its points


def test_player_page(app, member):
    client, gid = member
    with app.app_context():
        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
        ann_id = ann.id
    page = Page(client.get(f"/groups/{gid}/players/{ann_id}/stats"))
    figures = definitions(headed(page, "By game"))
    for words in ("Win rate", "Caught holding an 8", "Best comeback"):
        assert words in figures
    assert "Head to head" in page.names("heading")
    assert client.get(f"/groups/{gid}/players/999999/stats").status_code == 404


def _stat_line(page: Page) -> tuple[int, int]:
    """The player page's first line: how many matches won of how many finished."""
    lines = [line for line in page.texts("p") if " won of " in line]
    won, played = re.match(r"(\d+) won of (\d+) finished match", lines[0]).groups()
    return int(won), int(played)


def test_the_season_picker_scopes_the_player_figures(app, member):
    client, gid = member
    with app.app_context():
        group = db.session.get(Group, gid)
        ann = db.session.scalar(db.select(Player).where(Player.group_id == gid,
                                                         Player.name == "Ann"))
        ann_id = ann.id
        old = add_season(group, "Long ago", date(2020, 1, 1), date(2020, 12, 31))
        old_id = old.id
    url = f"/groups/{gid}/players/{ann_id}/stats"
    all_time = Page(client.get(url))
    this_year = Page(client.get(f"{url}?season=year"))  # every match here finished today
    assert _stat_line(this_year) == _stat_line(all_time) and _stat_line(all_time)[1] > 0
    assert [h for h in this_year.names("heading") if h.startswith("Head to head · This year")]
    assert "Head to head" in all_time.names("heading")
    assert not [h for h in all_time.names("heading") if h.startswith("Head to head ·")]
    assert "still being played" not in this_year.text()  # a season counts finished matches
    past = Page(client.get(f"{url}?season={old_id}"))
    assert _stat_line(past) == (0, 0)
    assert "No matches finished in Long ago." in past.texts("p")
    assert "Head to head" not in past.text()
    assert past.value("season") == str(old_id)


def count_queries(app, client, url: str) -> int:
    seen = []
    with app.app_context():
        engine = db.engine
    listener = lambda *args: seen.append(1)  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    return len(seen)


def test_query_counts_do_not_grow_with_matches(app, client):
    counts = {}
    for n in (3, 30):
        with app.app_context():
            gid, token = _group(f"G{n}", n, seed=n)
            player = db.session.scalar(db.select(Player.id).where(Player.group_id == gid)
                                       .order_by(Player.id))
            mid = db.session.scalar(db.select(Match.id).where(Match.group_id == gid)
                                    .order_by(Match.hand_count.desc()))
        client.get(f"/join/{token}")
        counts[n] = [count_queries(app, client, url) for url in (
            f"/groups/{gid}/history", f"/groups/{gid}/history?player={player}&status=finished",
            f"/groups/{gid}/matches/{mid}/record", f"/groups/{gid}/players/{player}/stats")]
    assert counts[3] == counts[30], counts


def test_download_and_upload_round_trip(app, member):
    client, gid = member
    exported = client.get(f"/groups/{gid}/export.json")
    assert exported.headers["Content-Disposition"].endswith('.json"')
    csv = client.get(f"/groups/{gid}/export.csv")
    assert csv.text.startswith("match,game,started,hand")
    with app.app_context():
        target, token = _group("Target", 0)
    client.get(f"/join/{token}")
    form = Page(client.get(f"/groups/{target}/import")).get("button", "Import").find_parent("form")
    assert form.select_one('input[name="csrf_token"]') is not None
    assert form["enctype"] == "multipart/form-data" and form["method"] == "post"
    sent = client.post(f"/groups/{target}/import",
                       data={"file": (io.BytesIO(exported.data), "export.json")})
    assert sent.status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Match)
                                 .where(Match.group_id == target)) == 30


def test_bad_upload_lists_problems_and_writes_nothing(app, member):
    client, gid = member
    doc = json.loads(client.get(f"/groups/{gid}/export.json").data)
    doc["matches"][4]["hands"][0]["held"][0] = "8s 99x"
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count()).select_from(Hand))
    sent = client.post(f"/groups/{gid}/import",
                       data={"file": (io.BytesIO(json.dumps(doc).encode()), "x.json")})
    assert sent.status_code == 400
    problems = headed(Page(sent), "Nothing was imported")
    assert role(problems) == "alert"
    listed = [text(item) for item in problems.find("ul").find_all("li")]
    assert [line for line in listed if "match 5, hand 1" in line
            and line.endswith(" matches[4].hands[0].held[0]")], listed
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == before
    assert client.post(f"/groups/{gid}/import", data={}).status_code == 400


def test_upload_size_limit(app, member):
    client, gid = member
    app.config["IMPORT_MAX_BYTES"] = 1000
    sent = client.post(f"/groups/{gid}/import",
                       data={"file": (io.BytesIO(b" " * 200_000), "big.json")})
    assert sent.status_code == 413
