"""A finished match as a play for BG Stats: a table of matches (places with ties,
winners, totals) and what BG Stats hears of each — ranks, winners, scores, and how it
is to read the game's totals; the link decodes to exactly the play, in the fields BG
Stats' page "Push plays to BG Stats from other apps or websites" documents."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import unquote, urlsplit

import pytest

from scorekeeper.core.bg_stats import PlayedMatch, PlayedSeat, link, play
from scorekeeper.core.sheets import Sheet

LO, C8, CD = "last-one", "crazy-eights", "countdown"
NAMES = ("Ann", "Ben", "Cy", "Di")
START = datetime(2026, 12, 1, 19, 30, 5, tzinfo=UTC)

# The fields BG Stats' page documents, at each level of the JSON.
PAGE_TOP = {"sourceName", "sourcePlayId", "game", "playDate", "durationMin", "location",
            "board", "comments", "players"}
PAGE_GAME = {"name", "bggId", "highestWins", "noPoints", "sourceGameId"}
PAGE_PLAYER = {"name", "rank", "score", "winner", "startPlayer", "sourcePlayerId", "role"}


def finished(game: str, options: dict, places: tuple[int, ...], totals: tuple[int, ...],
             winners: tuple[int, ...], first: int = 1, minutes: float = 41.6) -> PlayedMatch:
    """A finished match in one line: its places, totals and winners by seat."""
    seats = [PlayedSeat(NAMES[s], f"uid-{NAMES[s].lower()}", place, total, s in winners,
                        s == first)
             for s, (place, total) in enumerate(zip(places, totals, strict=True))]
    return PlayedMatch(Sheet.make(game, options), "0f3a9c", START,
                       START + timedelta(minutes=minutes), seats)


CASES = [
    # game, options, places, totals, winners -> highestWins, noPoints
    pytest.param(LO, {"threshold": 50}, (1, 2, 2, 2), (0, 50, 50, 50), (0,), False, False,
                 id="last-one-fallen-together-share-second"),
    pytest.param(LO, {}, (1, 3, 2), (12, 262, 251), (0,), False, False,
                 id="last-one-penalties-low-is-good"),
    pytest.param(C8, {"match_end": "first-to-target", "target": 50}, (2, 1, 3, 3),
                 (40, 60, 0, 0), (1,), True, False, id="crazy-eights-ties-share-third"),
    pytest.param(C8, {"match_end": "one-hand", "jam_scoring": "full"}, (1, 1, 3, 4),
                 (30, 30, 0, 0), (0, 1), True, False, id="crazy-eights-shared-win"),
    pytest.param(CD, {"start_count": 3}, (2, 1, 2), (1, 0, 1), (1,), False, True,
                 id="countdown-counts-no-points"),
]


@pytest.mark.parametrize(("game", "options", "places", "totals", "winners", "highest",
                          "no_points"), CASES)
def test_the_play_says_places_winners_and_scores(game, options, places, totals, winners,
                                                  highest, no_points):
    data = play(finished(game, options, places, totals, winners))
    assert data["game"]["highestWins"] is highest
    assert data["game"]["noPoints"] is no_points
    players = data["players"]
    assert [p["name"] for p in players] == list(NAMES[:len(places)])
    assert [p["rank"] for p in players] == list(places)
    assert [p["winner"] for p in players] == [s in winners for s in range(len(places))]
    assert [p["startPlayer"] for p in players] == [s == 1 for s in range(len(places))]
    assert [p["sourcePlayerId"] for p in players] == [f"uid-{n.lower()}"
                                                      for n in NAMES[:len(places)]]
    if no_points:
        assert all("score" not in p for p in players)
    else:
        assert [p["score"] for p in players] == list(totals)


@pytest.mark.parametrize(("game", "options", "places", "totals", "winners", "highest",
                          "no_points"), CASES)
def test_the_link_decodes_to_exactly_the_documented_fields(game, options, places, totals,
                                                           winners, highest, no_points):
    data = play(finished(game, options, places, totals, winners))
    url = urlsplit(link(data))
    assert (url.scheme, url.netloc, url.path) == ("https", "app.bgstatsapp.com",
                                                  "/createPlay.html")
    assert url.query.startswith("data=") and "&" not in url.query
    decoded = json.loads(unquote(url.query.removeprefix("data=")))
    assert decoded == data
    assert set(decoded) == {"sourceName", "sourcePlayId", "game", "playDate", "durationMin",
                            "board", "players"} <= PAGE_TOP
    assert set(decoded["game"]) == {"name", "sourceGameId", "highestWins", "noPoints"} <= PAGE_GAME
    points = set() if no_points else {"score"}
    for player in decoded["players"]:
        assert set(player) == {"name", "rank", "winner", "startPlayer", "sourcePlayerId",
                               *points} <= PAGE_PLAYER


@pytest.mark.parametrize(("game", "name"), [(LO, "Last One"), (C8, "Crazy Eights"),
                                            (CD, "Crazy Eights Countdown")])
def test_the_game_goes_by_its_name_and_key(game, name):
    data = play(finished(game, {}, (1, 2), (0, 0), (0,)))
    assert data["sourceName"] == "Scorekeeper"
    assert data["sourcePlayId"] == "0f3a9c"
    assert data["game"]["name"] == name
    assert data["game"]["sourceGameId"] == game  # the same for every match of the game
    assert "bggId" not in data["game"]  # none checked: BG Stats matches by name


@pytest.mark.parametrize(("game", "options", "board"), [
    (LO, {}, "standard rules"),
    (LO, {"threshold": 100}, "Elimination threshold: 100"),
    (C8, {"match_end": "one-hand", "queen_skips": True},
     "Match ends: after one hand; Queens skip: yes"),
    (CD, {"start_count": 5}, "Starting count: 5"),
])
def test_board_says_the_rule_sheet_in_a_few_words(game, options, board):
    sheet = Sheet.make(game, options)
    assert play(finished(game, options, (1, 2), (0, 0), (0,)))["board"] == sheet.summary() == board


@pytest.mark.parametrize(("started", "finished_at", "date", "minutes"), [
    (START, START + timedelta(minutes=41, seconds=40), "2026-12-01 19:30:05", 42),
    (datetime(2026, 12, 1, 23, 50), datetime(2026, 12, 2, 0, 5), "2026-12-01 23:50:00", 15),
    # A start stored with another zone is said in UTC.
    (datetime(2026, 12, 2, 1, 0, tzinfo=timezone(timedelta(hours=2))),
     datetime(2026, 12, 1, 23, 30, tzinfo=UTC), "2026-12-01 23:00:00", 30),
])
def test_play_date_is_the_start_and_duration_runs_to_the_finish(started, finished_at, date,
                                                                minutes):
    match = finished(LO, {}, (1, 2), (0, 0), (0,))
    data = play(PlayedMatch(match.sheet, match.uid, started, finished_at, match.seats))
    assert (data["playDate"], data["durationMin"]) == (date, minutes)


def test_names_travel_as_typed():
    seat = PlayedSeat("Zoë & \"Bo\" 😀", "u1", 1, 0, True, True)
    data = play(PlayedMatch(Sheet.make(LO), "m", START, START, [seat, seat]))
    decoded = json.loads(unquote(link(data).split("?data=", 1)[1]))
    assert decoded["players"][0]["name"] == "Zoë & \"Bo\" 😀"
