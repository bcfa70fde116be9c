"""``GET /api/v1/leaderboard`` and the ratings on a finished match's body."""

from __future__ import annotations

import pytest

from tests.support.api import hand, start


def _finish_one_hand(api, out: int = 1) -> dict:
    """A one-hand Crazy Eights match that seat ``out`` wins at once."""
    match = start(api, options={"match_end": "one-hand"})
    held = {f"s{seat}": cards for seat, cards in enumerate(["KH 9C", "3D", "4S"]) if seat != out}
    response = api("POST", f"/matches/{match['id']}/hands", hand(1, out, **held))
    assert response.status_code == 201, response.json
    return api("GET", f"/matches/{match['id']}").json


def test_a_match_being_played_has_no_ratings(api):
    match = start(api)
    assert api("GET", f"/matches/{match['id']}").json["ratings"] is None


def test_a_finished_match_shows_each_seats_rating_change_and_place(api):
    body = _finish_one_hand(api, out=1)
    ratings = body["ratings"]
    assert [r["seat"] for r in ratings] == [0, 1, 2]
    assert [r["place"] for r in ratings] == [3, 1, 2]
    assert ratings[1]["change"] > 0 and ratings[0]["change"] < ratings[1]["change"]
    assert all(r["rating"] >= 0 for r in ratings)


def test_the_leaderboard_lists_players_by_rating(api):
    _finish_one_hand(api, out=1)
    _finish_one_hand(api, out=1)
    board = api("GET", "/leaderboard?game=crazy-eights").json
    assert board["season"]["value"] == "all"
    assert [p["name"] for p in board["players"]] == ["Bob", "Cy", "Ann"]
    assert [p["place"] for p in board["players"]] == [1, 2, 3]
    assert all(p["provisional"] and p["matches"] == 2 for p in board["players"])
    titles = {r["title"]: r for r in board["records"]}
    assert titles["Most wins"]["name"] == "Bob" and titles["Most wins"]["value"] == 2
    kinds = {r["kind"]: r for r in board["records"]}
    # Bob went out on Ann's KH 9C and Cy's 4S each time: 23 scored, Ann left with 19
    assert (kinds["best-hand"]["name"], kinds["best-hand"]["value"]) == ("Bob", 23)
    assert (kinds["worst-hand"]["name"], kinds["worst-hand"]["value"]) == ("Ann", 19)
    assert kinds["best-hand"]["match_id"] == kinds["worst-hand"]["match_id"] is not None
    assert board["no_records"] == []
    assert titles["Longest winning streak"]["match_id"] is not None
    month = api("GET", "/leaderboard?game=crazy-eights&season=month").json
    assert month["players"] == board["players"]  # all of it was this month


def test_a_game_with_no_finished_match_has_an_empty_board(api):
    board = api("GET", "/leaderboard?game=last-one&season=year").json
    assert board["players"] == [] and board["records"] == []


def test_the_countdown_board_says_why_it_has_no_worst_hand(api):
    board = api("GET", "/leaderboard?game=countdown").json
    assert [(r["kind"], r["title"]) for r in board["no_records"]] == [
        ("worst-hand", "Worst hand")]
    assert "only who went out" in board["no_records"][0]["reason"]


def test_a_missing_or_unknown_game_is_refused(api):
    for query in ("", "?game=poker"):
        response = api("GET", f"/leaderboard{query}")
        assert response.status_code == 400
        assert response.json["error"]["field"] == "game"


def test_an_unknown_season_is_not_found(api):
    response = api("GET", "/leaderboard?game=countdown&season=12345")
    assert response.status_code == 404
    assert response.json["error"]["field"] == "season"


@pytest.mark.parametrize("season", ["", "spring", "0", "-1"])
def test_a_season_that_is_no_season_name_is_refused(api, season):
    response = api("GET", f"/leaderboard?game=countdown&season={season}")
    assert response.status_code == 400
    assert response.json["error"]["field"] == "season"
    assert repr(season) in response.json["error"]["message"]


def test_the_leaderboard_needs_the_groups_token(client):
    assert client.get("/api/v1/leaderboard?game=countdown").status_code == 401
