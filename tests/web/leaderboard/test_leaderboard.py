"""The leaderboard page (places, ratings, provisional, the change, records linking to
their matches), the season picker and the seasons page (refusals keep nothing)."""

from __future__ import annotations

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
from tests.support.parsed import Page, body_rows, headed, text
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


BOARD = re.compile("^(" + "|".join(re.escape(g.name) for g in GAMES.values()) + ") · ")


def _board(client, url: str) -> Page:
    return Page(client.get(url))


def _ranking(page: Page) -> dict[str, list[str]]:
    """The leaderboard's rows by player, in their order: place, the player's cell (name,
    provisional, counts), the rating's cell (the rating and its change in words)."""
    table = headed(page, BOARD).find("table")
    return {text(row.find("a")): [text(cell) for cell in row.find_all(["th", "td"])]
            for row in table.find("tbody").find_all("tr")}


def _names_in_order(page: Page) -> list[str]:
    return list(_ranking(page))


def _records(page: Page) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """Each record the page lists, by its title: what the line says after the title and
    where its links go (what each link says, its target)."""
    listed = headed(page, "Records").find("ul")
    read = {}
    for item in listed.find_all("li"):
        title = text(item.find("span"))
        read[title] = (text(item).removeprefix(title).strip(),
                       [(text(a), str(a["href"])) for a in item.find_all("a", href=True)])
    return read


def test_the_group_page_links_to_the_leaderboard(member):
    client, gid = member
    assert Page(client.get(f"/groups/{gid}")).href("Leaderboard") == f"/groups/{gid}/leaderboard"


def test_the_leaderboard_ranks_by_rating_with_changes_and_records(member):
    client, gid = member
    page = _board(client, f"/groups/{gid}/leaderboard?game=crazy-eights")
    ranking = _ranking(page)
    assert list(ranking) == ["Ann", "Cat", "Bob"]
    assert " up " in ranking["Ann"][2]  # Ann's last change, said in words too
    records = _records(page)
    assert "Most wins" in records and "Longest winning streak" in records
    # her streak, linking its match
    (said, href), = records["Longest winning streak"][1]
    assert said == "Ann: 6 wins in a row"
    assert re.fullmatch(rf"/groups/{gid}/matches/\d+/record", href)
    assert not [row for name, row in ranking.items() if name in ("Ann", "Cat")
                and "provisional" in row[1]]


def test_a_player_with_few_matches_is_provisional(member):
    client, gid = member
    rows = _ranking(_board(client, f"/groups/{gid}/leaderboard?game=crazy-eights&season=year"))
    assert len(rows) == 3 and all("provisional" not in row[1] for row in rows.values())
    last_year = datetime.now(UTC).year - 1
    response = client.post(f"/groups/{gid}/seasons", data={
        "name": "Last year", "first_day": f"{last_year}-01-01",
        "last_day": f"{last_year}-12-31"})
    rows = _ranking(_board(client, response.location + "&game=crazy-eights"))
    assert len(rows) == 2  # one match each
    assert all(row[1].startswith(f"{name} provisional ") for name, row in rows.items())


def test_the_season_picker_offers_every_season_and_starts_fresh(member, app):
    client, gid = member
    all_time = _board(client, f"/groups/{gid}/leaderboard?game=crazy-eights")
    month = _board(client, f"/groups/{gid}/leaderboard?game=crazy-eights&season=month")
    offered = [text(choice) for choice in month.get("combobox", "Season").find_all("option")]
    assert offered[0] == "All time"
    for label in ("This year (", "This month ("):
        assert [choice for choice in offered if choice.startswith(label)], label
    assert month.value("season") == "month"

    def rating(page: Page) -> str:
        return _ranking(page)["Cat"][2].split()[0]

    assert rating(all_time) != rating(month)  # last year left out


def test_an_unknown_game_or_season_shows_the_default(member):
    client, gid = member
    page = client.get(f"/groups/{gid}/leaderboard?game=poker&season=nope")
    assert page.status_code == 200
    assert Page(page).value("season") == "all"


def test_adding_and_deleting_a_season(member, app):
    client, gid = member
    year = datetime.now(UTC).year
    response = client.post(f"/groups/{gid}/seasons", data={
        "name": "Winter league", "first_day": f"{year}-01-01", "last_day": f"{year}-12-31"})
    assert response.status_code == 302
    with app.app_context():
        season = db.session.scalar(db.select(Season))
        season_id = season.id
    page = _board(client, response.location)
    assert page.value("season") == str(season_id)
    assert text(page.get("combobox", "Season").select_one("option[selected]")) == "Winter league"
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
    assert words.lower() in field_errors(response.text)[field].lower()
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
    rows = _ranking(_board(client, f"/groups/{gid}/leaderboard?game=crazy-eights"))
    assert list(rows) == ["Bob", "Ann"]
    assert all(row[1].startswith(f"{name} provisional ") for name, row in rows.items())


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
    board = _board(client, f"/groups/{gid}/matches/{mid}")
    assert "Ratings after this match" not in board.names("heading")  # not finished yet
    record(client, gid, mid, 1, 1, "KH 9C", "")
    board = _board(client, f"/groups/{gid}/matches/{mid}")
    lines = [text(item).split(" ", 3) for item in
             board.get("region", "Ratings after this match").find("ul").find_all("li")]
    seats = {name: (int(after.replace(",", "")), way) for name, after, way, _ in lines}
    assert seats["Bob"][0] > seats["Ann"][0]
    assert seats["Bob"][1] == "up" and seats["Ann"][1] == "down"


def test_the_player_page_charts_the_rating_with_a_table_saying_the_same(member):
    client, gid = member
    board = _board(client, f"/groups/{gid}/leaderboard?game=crazy-eights")
    ann = board.href("Ann").split("?", 1)[0]
    assert re.fullmatch(rf"/groups/{gid}/players/\d+/stats", ann)
    page = _board(client, ann)
    section = page.get("region", "Rating and season")
    (chart,) = [node for node in section.find_all("svg") if node.get("role") == "img"]
    assert page.accessible_name(chart).startswith("Ann's Crazy Eights rating after each rated")
    assert " after 6 rated matches (from 1,000)" in page.accessible_name(chart)
    assert chart.find("polyline") is not None
    assert "match" in [text(label) for label in chart.find_all("text")]  # x counts matches
    said = [text(line) for line in section.find_all("p")]
    assert [line for line in said if "after 6 rated matches (from 1,000)" in line]
    assert len(body_rows(section.find("table"))) == 6
    assert "All time: 6 won · longest winning streak 6 · best hand 12" in said
    this_year = _board(client, f"{ann}?season=year")
    assert this_year.value("season") == "year"
    assert [line for line in this_year.texts("p")
            if line.startswith("This year (") and ": 6 won · " in line]


def test_the_leaderboard_shows_each_games_best_and_worst_hand_linking_to_its_match(member):
    """Ann scored 12 in each of her wins (Bob held 9 and Cat 3 each time): the best
    hand is her first such match, the worst Bob's first 9."""
    client, gid = member
    records = _records(_board(client, f"/groups/{gid}/leaderboard?game=crazy-eights&season=month"))
    _, [(best, best_match)] = records["Best hand (most points scored in one hand)"]
    assert best == "Ann: 12 points scored"
    assert re.fullmatch(rf"/groups/{gid}/matches/\d+/record", best_match)
    _, [(worst, worst_match)] = records[
        "Worst hand (most points left holding in one hand, when someone else "
        "went out or the hand jammed)"]
    assert worst == "Bob: 9 points held"
    assert worst_match == best_match


def test_the_countdown_leaderboard_says_why_it_has_no_worst_hand(app, client):
    with app.app_context():
        group = Group(name="Counting")
        db.session.add(group)
        db.session.commit()
        import_document(group, dated([("countdown", {"start_count": 2}, ["Ann", "Bob"],
                                       [(0, ["", ""]), (0, ["", ""])], None)]))
        gid, token = group.id, group.invite_token
    client.get(f"/join/{token}")
    records = _records(_board(client, f"/groups/{gid}/leaderboard?game=countdown"))
    _, [(best, best_match)] = records[
        "Best hand (went out from the biggest deal: the most cards dealt)"]
    assert best == "Ann: 2 cards dealt" and best_match.endswith("/record")
    said, links = records["Worst hand"]
    assert not links
    assert "a hand records only who went out" in said


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
