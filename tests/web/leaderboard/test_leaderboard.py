"""The leaderboard page (places, ratings, provisional, the change, records linking to
their matches), the season picker and the seasons page (refusals keep nothing)."""

from __future__ import annotations

import html
import random
import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import event

from scorekeeper.core.games import GAMES
from scorekeeper.store.extensions import db
from scorekeeper.store.leaderboard import (
    BEST_HAND,
    HAND_TITLES,
    RECORD_KINDS,
    UNITS,
    WORST_HAND,
    Record,
)
from scorekeeper.store.models import Group, Season
from scorekeeper.store.transfer import import_document
from tests.support.documents import random_document
from tests.support.ratings import dated, one_hand
from tests.support.web import add_players, field_errors, record, start_group, start_match


@pytest.fixture
def member(app, client):
    """A joined group where Ann beat Bob and Cat in six one-hand matches this month
    and Cat won one last year: (client, group id)."""
    now = datetime.now(UTC)
    this_month = [one_hand(["Ann", "Bob", "Cat"], 0, now.replace(day=1, hour=h).isoformat())
                  for h in range(1, 7)]
    last_year = [one_hand(["Cat", "Bob"], 0, now.replace(year=now.year - 1, day=1).isoformat())]
    with app.app_context():
        group = Group(name="Thursday")
        db.session.add(group)
        db.session.commit()
        import_document(group, dated(this_month + last_year))
        ids = group.id, group.invite_token
    client.get(f"/join/{ids[1]}")
    return client, ids[0]


def _names_in_order(page: str) -> list[str]:
    table = page.split('<table class="leaderboard">')[1].split("</table>")[0]
    return re.findall(r'</svg>([^<]+)</span></a>', table)


def test_the_group_page_links_to_the_leaderboard(member):
    client, gid = member
    assert f"/groups/{gid}/leaderboard" in client.get(f"/groups/{gid}").text


def test_the_leaderboard_ranks_by_rating_with_changes_and_records(member):
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights").text
    assert _names_in_order(page) == ["Ann", "Cat", "Bob"]
    assert "up </span>" in page  # Ann's last change, said in words too
    assert "Most wins" in page and "Longest winning streak" in page
    # her streak, linking its match
    assert re.search(r"/groups/\d+/matches/\d+/record\">Ann: 6 wins in a row<", page)
    assert "provisional" not in page.split("<tbody>")[1].split("</tbody>")[0].split("Cat")[0]


def test_a_player_with_few_matches_is_provisional(member):
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights&season=year").text
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    assert len(rows) == 3 and all("provisional" not in row for row in rows)  # six each
    last_year = datetime.now(UTC).year - 1
    response = client.post(f"/groups/{gid}/seasons", data={
        "name": "Last year", "first_day": f"{last_year}-01-01",
        "last_day": f"{last_year}-12-31"})
    page = client.get(response.location + "&game=crazy-eights").text
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr")[1:]
    assert len(rows) == 2 and all("provisional</span>" in row for row in rows)  # one each


def test_the_season_picker_offers_every_season_and_starts_fresh(member, app):
    client, gid = member
    all_time = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights").text
    month = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights&season=month").text
    for label in ("All time", "This year", "This month"):
        assert label in month
    assert 'value="month" selected' in month
    cat = re.compile(r"Cat</span></a>.*?<strong class=\"board-rating\">([\d,]+)</strong>", re.S)
    assert cat.search(all_time).group(1) != cat.search(month).group(1)  # last year left out


def test_an_unknown_game_or_season_shows_the_default(member):
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=poker&season=nope")
    assert page.status_code == 200
    assert 'value="all" selected' in page.text


def test_adding_and_deleting_a_season(member, app):
    client, gid = member
    year = datetime.now(UTC).year
    response = client.post(f"/groups/{gid}/seasons", data={
        "name": "Winter league", "first_day": f"{year}-01-01", "last_day": f"{year}-12-31"})
    assert response.status_code == 302
    with app.app_context():
        season = db.session.scalar(db.select(Season))
        season_id = season.id
    page = client.get(response.location).text
    assert "Winter league" in page and f'value="{season_id}" selected' in page
    assert _names_in_order(page) == ["Ann", "Cat", "Bob"]
    response = client.post(f"/groups/{gid}/seasons/{season_id}/delete")
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(Season)) is None


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"name": "", "first_day": "2026-01-01", "last_day": "2026-02-01"}, "name", "Enter a name"),
    ({"name": "Spring", "first_day": "2026-03-01", "last_day": "2026-02-01"}, "last_day",
     "on or after"),
    ({"name": "Spring", "first_day": "soon", "last_day": "2026-02-01"}, "first_day", "date"),
])
def test_a_bad_season_is_refused_and_nothing_is_kept(member, app, data, field, words):
    client, gid = member
    response = client.post(f"/groups/{gid}/seasons", data=data)
    assert response.status_code == 400
    assert words.lower() in html.unescape(field_errors(response.text)[field]).lower()
    with app.app_context():
        assert db.session.scalar(db.select(Season)) is None


def test_a_season_name_is_unique_in_the_group(member, app):
    client, gid = member
    data = {"name": "Spring", "first_day": "2026-03-01", "last_day": "2026-05-31"}
    assert client.post(f"/groups/{gid}/seasons", data=data).status_code == 302
    response = client.post(f"/groups/{gid}/seasons", data={**data, "name": "SPRING"})
    assert response.status_code == 400
    assert "already" in field_errors(response.text)["name"]


def test_another_groups_season_is_not_found(member, app):
    client, gid = member
    with app.app_context():
        other = Group(name="Other")
        db.session.add(other)
        db.session.commit()
        season = Season(group_id=other.id, name="Theirs", first_day=datetime(2026, 1, 1).date(),
                        last_day=datetime(2026, 2, 1).date())
        db.session.add(season)
        db.session.commit()
        season_id = season.id
    assert client.post(f"/groups/{gid}/seasons/{season_id}/delete").status_code == 404


def test_a_match_finished_at_the_table_moves_the_leaderboard(client):
    gid = start_group(client)
    ann, bob = add_players(client, gid, "Ann", "Bob")
    mid = start_match(client, gid, [ann, bob], game="crazy-eights", **{"match_end": "one-hand"})
    assert record(client, gid, mid, 1, 1, "KH 9C", "").status_code == 302
    page = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights").text
    assert _names_in_order(page) == ["Bob", "Ann"]
    assert page.count("provisional</span>") == 2


def _statements(app, client, url: str) -> int:
    seen = [0]

    def count(*_args: object) -> None:
        seen[0] += 1

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return seen[0]


def test_the_leaderboard_reads_a_few_statements_however_many_matches(app, client):
    with app.app_context():
        group = Group(name="Counted")
        db.session.add(group)
        db.session.commit()
        gid, token = group.id, group.invite_token
    client.get(f"/join/{token}")
    counts = []
    for more in (10, 50):
        with app.app_context():
            import_document(db.session.get(Group, gid), random_document(random.Random(more), more))
        counts.append([_statements(app, client, f"/groups/{gid}/leaderboard{query}")
                       for query in ("", "?game=last-one&season=month")])
    assert counts[0] == counts[1]
    assert max(counts[0]) <= 4


def test_a_finished_matchs_board_shows_each_seats_rating_and_change(client):
    gid = start_group(client)
    ann, bob = add_players(client, gid, "Ann", "Bob")
    mid = start_match(client, gid, [ann, bob], game="crazy-eights", **{"match_end": "one-hand"})
    board = client.get(f"/groups/{gid}/matches/{mid}").text
    assert "Ratings after this match" not in board  # not finished yet
    record(client, gid, mid, 1, 1, "KH 9C", "")
    board = client.get(f"/groups/{gid}/matches/{mid}").text
    section = board.split('id="match-ratings-title"')[1].split("</section>")[0]
    bob_line = re.search(r"<li>Bob <strong>([\d,]+)</strong> (.*?)</li>", section, re.S)
    ann_line = re.search(r"<li>Ann <strong>([\d,]+)</strong> (.*?)</li>", section, re.S)
    assert int(bob_line.group(1).replace(",", "")) > int(ann_line.group(1).replace(",", ""))
    assert "up </span>" in bob_line.group(2) and "down </span>" in ann_line.group(2)


def test_the_player_page_charts_the_rating_with_a_table_saying_the_same(member):
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights").text
    ann = re.search(r"/players/(\d+)/stats\?game=crazy-eights[^\"]*\">[^\n]*?Ann<", page).group(1)
    page = client.get(f"/groups/{gid}/players/{ann}/stats").text
    section = page.split('id="ratings-title"')[1].split("</section>")[0]
    assert 'id="rating-crazy-eights-title"' in section and "<polyline" in section
    assert "after 6 rated matches (from 1,000)" in section
    rows = section.split("<tbody>")[1].split("</tbody>")[0].count("<tr>")
    assert rows == 6
    assert ">match</text>" in section  # the x axis counts matches, not hands
    assert "All time: 6 won · longest winning streak 6 · best hand 12" in section
    this_year = client.get(f"/groups/{gid}/players/{ann}/stats?season=year").text
    assert 'value="year" selected' in this_year
    assert "This year" in this_year and "6 won" in this_year


def _record(page: str, kind: str) -> tuple[str, str]:
    """A record's title and its link's text, by its kind."""
    item = page.split(f'class="record-{kind}')[1].split("</li>")[0]
    title = html.unescape(item.split('class="record-title">')[1].split("<")[0])
    return title, item


def test_the_leaderboard_shows_each_games_best_and_worst_hand_linking_to_its_match(member):
    """Ann scored 12 in each of her wins (Bob held 9 and Cat 3 each time): the best
    hand is her first such match, the worst Bob's first 9."""
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=crazy-eights&season=month").text
    title, best = _record(page, "best-hand")
    assert title == "Best hand (most points scored in one hand)"
    assert re.search(r'href="/groups/\d+/matches/\d+/record">Ann: 12 points scored<', best)
    title, worst = _record(page, "worst-hand")
    assert title == ("Worst hand (most points left holding in one hand, when someone else "
                     "went out or the hand jammed)")
    assert re.search(r'href="/groups/\d+/matches/\d+/record">Bob: 9 points held<', worst)
    assert best.split('href="')[1].split('"')[0] == worst.split('href="')[1].split('"')[0]


def test_the_countdown_leaderboard_says_why_it_has_no_worst_hand(app, client):
    with app.app_context():
        group = Group(name="Counting")
        db.session.add(group)
        db.session.commit()
        import_document(group, dated([("countdown", {"start_count": 2}, ["Ann", "Bob"],
                                       [(0, ["", ""]), (0, ["", ""])], None)]))
        gid, token = group.id, group.invite_token
    client.get(f"/join/{token}")
    page = client.get(f"/groups/{gid}/leaderboard?game=countdown").text
    title, best = _record(page, "best-hand")
    assert title == "Best hand (went out from the biggest deal: the most cards dealt)"
    assert re.search(r'/record">Ann: 2 cards dealt<', best)
    title, worst = _record(page, "worst-hand")
    assert title == "Worst hand" and 'href="' not in worst
    assert "a hand records only who went out" in html.unescape(worst)


@pytest.mark.parametrize(("game", "kind", "value", "said"), [
    ("crazy-eights", "most-wins", 1, "1 win"),
    ("last-one", "most-wins", 11, "11 wins"),
    ("last-one", "longest-streak", 1, "1 win in a row"),
    ("crazy-eights", "longest-streak", 11, "11 wins in a row"),
    ("last-one", "biggest-comeback", 30, "30 points behind"),
    ("crazy-eights", "biggest-comeback", 1, "1 point behind"),
    ("countdown", "biggest-comeback", 2, "2 counts behind"),
    ("crazy-eights", "best-hand", 1250, "1,250 points scored"),
    ("crazy-eights", "worst-hand", 9, "9 points held"),
    ("last-one", "best-hand", 132, "132 points caught"),
    ("last-one", "worst-hand", 95, "95 points caught"),
    ("countdown", "best-hand", 7, "7 cards dealt"),
])
def test_a_record_says_what_its_figure_counts(game, kind, value, said):
    record = Record(kind, "", 1, "Cat", value, None, UNITS[GAMES[game].scoring][kind])
    assert record.said == said


@pytest.mark.parametrize("game", list(HAND_TITLES))
def test_every_record_a_game_keeps_has_its_unit(game):
    kept = {kind for kind in RECORD_KINDS if kind not in (BEST_HAND, WORST_HAND)}
    kept |= set(HAND_TITLES[game])
    assert set(UNITS[game]) == kept
