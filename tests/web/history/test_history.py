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


def ids_on(html: str) -> list[int]:
    return [int(m) for m in re.findall(r"/matches/(\d+)/record", html)]


def test_history_lists_newest_first_in_pages(app, member):
    client, gid = member
    first = client.get(f"/groups/{gid}/history")
    assert first.status_code == 200
    page1 = ids_on(first.text)
    assert len(page1) == 25 and page1 == sorted(page1, reverse=True)
    older = re.search(r'href="([^"]+before=\d+[^"]*)"', first.text).group(1)
    page2 = ids_on(client.get(older.replace("&amp;", "&")).text)
    assert len(page2) == 5 and not set(page1) & set(page2)


def test_history_filters(app, member):
    client, gid = member
    with app.app_context():
        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
        want = {m.id for m in db.session.scalars(db.select(Match).where(
            Match.game == "countdown", Match.status == "finished"))
            if ann.id in {s.player_id for s in m.seats}}
        ann_id = ann.id
    html = client.get(f"/groups/{gid}/history?game=countdown&status=finished"
                      f"&player={ann_id}").text
    assert set(ids_on(html)) == want
    junk = client.get(f"/groups/{gid}/history?game=poker&player=99999999999&before=x")
    assert junk.status_code == 200 and len(ids_on(junk.text)) == 25


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
    html = client.get(f"/groups/{gid}/matches/{mid}/record").text
    chart = html.index("<figure class=\"chart\">")
    svg = html[chart:html.index("</svg>", chart)]
    assert svg.count("<polyline") == seats and f'stroke="{colour}"' in svg
    assert 'class="goal"' in svg and "out at 100" in svg
    assert html.count('class="card record-hand"') == hands
    assert re.search(r'class="pc (red|black|joker)">[^<]+<span class="pts">\d+</span>', html)


def test_player_page(app, member):
    client, gid = member
    with app.app_context():
        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
        ann_id = ann.id
    html = client.get(f"/groups/{gid}/players/{ann_id}/stats").text
    for words in ("Win rate", "Caught holding an 8", "Head to head", "Best comeback"):
        assert words in html
    assert client.get(f"/groups/{gid}/players/999999/stats").status_code == 404


def _stat_line(html: str) -> tuple[int, int]:
    won, played = re.search(r"<strong>(\d+)</strong> won of <strong>(\d+)</strong>", html).groups()
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
    all_time = client.get(url).text
    this_year = client.get(f"{url}?season=year").text  # every match here finished today
    assert _stat_line(this_year) == _stat_line(all_time) and _stat_line(all_time)[1] > 0
    assert "Head to head · This year" in this_year and "Head to head ·" not in all_time
    assert "still being played" not in this_year  # a season counts finished matches
    past = client.get(f"{url}?season={old_id}").text
    assert _stat_line(past) == (0, 0)
    assert "No matches finished in Long ago." in past and "Head to head" not in past
    assert f'<option value="{old_id}" selected>' in past


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
    form = client.get(f"/groups/{target}/import").text
    assert 'name="csrf_token"' in form and 'enctype="multipart/form-data"' in form
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
    assert "Nothing was imported" in sent.text and "match 5, hand 1" in sent.text
    assert "matches[4].hands[0].held[0]" in sent.text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == before
    assert client.post(f"/groups/{gid}/import", data={}).status_code == 400


def test_upload_size_limit(app, member):
    client, gid = member
    app.config["IMPORT_MAX_BYTES"] = 1000
    sent = client.post(f"/groups/{gid}/import",
                       data={"file": (io.BytesIO(b" " * 200_000), "big.json")})
    assert sent.status_code == 413
