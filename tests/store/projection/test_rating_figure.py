"""Ratings: the stored rows equal openskill's own ``rate`` applied to the group's finished
matches in finish order, with each match's places as the ranks; they follow every kind
of write (a finishing hand, an edit of a past match, a reopened match, an import) and a
recomputation finds nothing to mend; seasons start fresh; on both databases."""

from __future__ import annotations

import contextlib
import random
from datetime import date

import pytest
from openskill.models import PlackettLuce

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.places import places
from scorekeeper.core.ratings import order_key, shown
from scorekeeper.store import leaderboard
from scorekeeper.store.extensions import db
from scorekeeper.store.leaderboard import rating_history
from scorekeeper.store.match_views import MatchView, match_hands
from scorekeeper.store.models import Group, Rating, RatingStep
from scorekeeper.store.reading import current_standings, match_sheet, match_standings
from scorekeeper.store.records import delete_last_hand, edit_hand, record_hand
from scorekeeper.store.seasons import add_season, delete_season
from scorekeeper.store.transfer import import_document
from scorekeeper.store.upkeep import rebuild_groups
from tests.support.derived import assert_derived_rows_match_hands, differences
from tests.support.documents import random_document
from tests.support.figures import blocked, match_views
from tests.support.ratings import ONE_HAND, dated, finished_in_order, one_hand, rated_rows, rows_of

pytestmark = pytest.mark.usefixtures("ctx")


def _group(name: str = "Ratings") -> Group:
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    return group


def _verified(group: Group) -> None:
    """``db verify`` finds every derived row of the group, ratings included, as a
    full replay of its hands gives it."""
    assert_derived_rows_match_hands(group.id)


def _openskill(group: Group, game: str) -> dict[int, tuple[float, float]]:
    """The all-time ratings worked out here from the matches, with openskill's own
    objects: every finished match of the game in finish order, ranks = its places."""
    model = PlackettLuce()
    ratings: dict[int, object] = {}
    for match in finished_in_order(group, game):
        table = match_standings(match, match_hands(match))
        ranks = places(match_sheet(match), table)
        players = [seat.player_id for seat in match.seats]
        teams = [[ratings.get(p) or model.rating()] for p in players]
        for player, (after,) in zip(players, model.rate(teams, ranks=list(ranks)), strict=True):
            ratings[player] = after
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}  # type: ignore[attr-defined]


def test_stored_ratings_equal_openskill_rate_over_the_same_matches(app):
    group = _group()
    import_document(group, random_document(random.Random(3), 40))
    games = {m.game for m in match_views(group) if m.status == "finished"}
    assert len(games) >= 2
    for game in games:
        expected = _openskill(group, game)
        assert expected and rated_rows(group, game, "all") == expected, game
    _verified(group)


def _spread(count: int, seed: int, offset: str = "+00:00") -> dict:
    """``count`` one-hand matches among four players, finished over two years (so each
    match's all-time, year and month chains hold different matches)."""
    rng = random.Random(seed)
    return dated([one_hand(rng.sample(["Ann", "Bob", "Cat", "Dan"], rng.randint(2, 4)), 0,
                           f"{rng.choice([2025, 2026])}-{rng.randint(1, 12):02d}-"
                           f"{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00{offset}")
                  for _ in range(count)])


def test_an_import_into_a_rated_group_rates_old_and_new_matches_in_one_order(app):
    group = _group()
    import_document(group, _spread(12, 1))
    import_document(group, _spread(30, 2))  # many at once: the group's chains rated again
    expected = _openskill(group, "crazy-eights")
    assert len(expected) == 4 and rated_rows(group, "crazy-eights", "all") == expected
    months = {key[2] for key in db.session.execute(
        db.select(Rating.group_id, Rating.game, Rating.scope)).all()}
    assert len(months) > 3  # all time, years and months, rated apart
    _verified(group)


def test_imported_times_in_another_zone_are_stored_and_rated_as_their_instant(app):
    group = _group()
    doc = _spread(20, 3, "+05:00")
    # 01:30 UTC on 1 January 2027: a new year and month
    doc["matches"] += dated([one_hand(["Ann", "Bob"], 1, "2026-12-31T23:30:00-02:00")])[
        "matches"]
    import_document(group, doc)
    steps = rows_of(group, "y2027")
    assert len(steps) == 2
    assert {order_key(s.finished_at, 0)[0].isoformat() for s in steps.values()} == {
        "2027-01-01T01:30:00"}
    _verified(group)


# Each end rule: the hands, the places they give, and so the ranks the model is given.
END_RULES = [
    pytest.param("last-one", {"threshold": 50}, ["Ann", "Bob", "Cat"],
                 [(0, ["", "8S KH", "JK 2C"]), (1, ["5H 6H", "", "9C 9D"]),
                  (0, ["", "8H AC", ""])], (1, 2, 3), id="last-one-by-fall"),
    pytest.param("last-one", {"threshold": 50}, ["Ann", "Bob"],
                 [(None, ["JK JK", "8S 8H 8D"])], (2, 1), id="last-one-all-reach-it"),
    pytest.param("crazy-eights", {}, ["Ann", "Bob", "Cat"],
                 [(2, ["8S KH 7D AC", "KD", ""]), (0, ["", "8H 8D", "2C"])],
                 (1, 3, 2), id="crazy-eights-to-a-target"),
    pytest.param("crazy-eights", {"match_end": "one-hand"}, ["Ann", "Bob", "Cat", "Dan"],
                 [(2, ["KH", "3C", "", "3D"])], (4, 2, 1, 2), id="crazy-eights-one-hand-tie"),
    pytest.param("countdown", {"start_count": 2}, ["Ann", "Bob", "Cat"],
                 [(1, ["7C", "", "2D"]), (0, ["", "8C", "3D"]), (1, ["KD", "", "4D"])],
                 (2, 1, 3), id="countdown-by-count"),
]


@pytest.mark.parametrize(("game", "options", "seats", "hands", "expected"), END_RULES)
def test_places_are_the_ranks_given_to_the_model(app, game, options, seats, hands, expected):
    group = _group()
    import_document(group, dated([(game, options, seats, hands, "2026-03-04T20:00:00+00:00")]))
    (match,) = match_views(group)
    assert match.status == "finished"
    steps = rows_of(group, "all")
    assert tuple(steps[match.id, seat.player_id].place for seat in match.seats) == expected
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in seats], ranks=list(expected))
    assert [(s.mu, s.sigma) for (s,) in after] == [
        (steps[match.id, seat.player_id].mu, steps[match.id, seat.player_id].sigma)
        for seat in match.seats]


def test_a_finishing_hand_rates_its_players_and_shows_the_change(app):
    group = _group()
    import_document(group, dated([("crazy-eights", ONE_HAND, ["Ann", "Bob", "Cat"], [], None)]))
    match = match_views(group)[0]
    match = record_hand(match, 1, 1, [parse_cards("KH 2C"), [], parse_cards("3D")]).match
    steps = rows_of(group, "all")
    bob = match.seats[1].player_id
    assert steps[match.id, bob].place == 1
    assert steps[match.id, bob].change > 0  # a new player who wins goes up
    for seat in match.seats:
        step = steps[match.id, seat.player_id]
        assert step.shown == shown(step.mu, step.sigma)
    _verified(group)


def test_editing_a_past_matchs_last_hand_changes_its_places_and_every_rating_after(app):
    group = _group()
    seats = ["Ann", "Bob", "Cat"]
    import_document(group, dated([one_hand(seats, 0, f"2026-06-0{day}T20:00:00")
                                  for day in range(1, 6)]))
    matches = finished_in_order(group, "crazy-eights")
    before = rows_of(group, "all")
    first = matches[0]
    edit_hand(first, 1, 2, [parse_cards("KH"), parse_cards("9C"), []])  # Cat went out
    after = rows_of(group, "all")
    assert after[first.id, first.seats[2].player_id].place == 1
    assert after[first.id, first.seats[0].player_id].place == 3
    for match in matches:
        for seat in match.seats:
            key = (match.id, seat.player_id)
            assert (after[key].mu, after[key].sigma) != (before[key].mu, before[key].sigma)
    _verified(group)


def test_reopening_a_match_takes_it_out_of_the_ratings(app):
    group = _group()
    import_document(group, dated([one_hand(["Ann", "Bob"], 0, f"2026-06-0{d}T20:00:00")
                                  for d in (1, 2, 3)]))
    middle = finished_in_order(group, "crazy-eights")[1]
    delete_last_hand(middle)
    assert {m for m, _ in rows_of(group, "all")} == {
        m.id for m in finished_in_order(group, "crazy-eights")}
    assert middle.id not in {m for m, _ in rows_of(group, "all")}
    _verified(group)


def test_seasons_start_fresh_at_their_first_day(app):
    group = _group()
    days = ["2026-01-30T20:00:00", "2026-01-31T20:00:00", "2026-02-01T20:00:00",
            "2026-02-02T20:00:00"]
    import_document(group, dated([one_hand(["Ann", "Bob"], 0, day) for day in days]))
    matches = finished_in_order(group, "crazy-eights")
    february = rows_of(group, "m2026-02")
    all_time = rows_of(group, "all")
    first_of_february = matches[2]
    ann = first_of_february.seats[0].player_id
    model = PlackettLuce()
    new = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])[0][0]
    assert (february[first_of_february.id, ann].mu, february[first_of_february.id, ann].sigma) \
        == (new.mu, new.sigma)  # as if Ann had never played before February
    assert all_time[first_of_february.id, ann].mu != new.mu
    assert {m for m, _ in february} == {matches[2].id, matches[3].id}
    season = add_season(group, "Winter", date(2026, 1, 31), date(2026, 2, 1))
    named = rows_of(group, f"s{season.id}")
    assert {m for m, _ in named} == {matches[1].id, matches[2].id}
    assert named[matches[1].id, ann].mu == new.mu
    _verified(group)
    delete_season(group, season)
    assert rows_of(group, f"s{season.id}") == {}
    _verified(group)


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_random_writes_keep_the_ratings_equal_to_a_rebuild(app, seed):
    rng = random.Random(seed)
    group = _group()
    import_document(group, random_document(rng, 12))
    for _ in range(16):
        match = rng.choice(match_views(group))
        kind = rng.choice(["edit", "delete", "record", "import"])
        if kind == "edit" and match.hand_count:
            number = rng.randint(1, match.hand_count)
            with contextlib.suppress(InputError):
                match = edit_hand(match, number, None, blocked(match, number)).match
        elif kind == "delete" and match.hand_count:
            match = delete_last_hand(match).match
        elif kind == "record" and match.status == "active":
            with contextlib.suppress(InputError):
                match = record_hand(match, match.hand_count + 1, None, blocked_next(match),
                                    same_as_confirmed=True).match
        elif kind == "import":
            import_document(group, random_document(rng, 2))
        _verified(group)
    stored = rows_of(group, "all")
    assert rebuild_groups(db.engine, [group.id]) == {group.id: 0}
    assert rows_of(group, "all") == stored


def blocked_next(match: MatchView) -> list[list]:
    """A blocked next hand: every seat still in holds one low card."""
    table = current_standings(match)
    cards = iter(parse_cards("2C 2D 2H 2S 3C 3D 3H"))
    return [[next(cards)] if playing else [] for playing in table.in_play]


@pytest.mark.corrupts_derived
def test_verify_names_a_stored_rating_that_differs(app):
    group = _group()
    import_document(group, dated([one_hand(["Ann", "Bob"], 0, "2026-06-01T20:00:00")]))
    db.session.execute(db.update(Rating).where(Rating.scope == "all").values(mu=Rating.mu + 1))
    db.session.commit()
    problems = differences(group.id)
    assert len(problems) == 2 and {(p.table, p.column) for p in problems} == {("rating", "mu")}
    assert rebuild_groups(db.engine, [group.id]) == {group.id: 2}
    _verified(group)


def test_finish_order_decides_and_ties_go_by_id(app):
    group = _group()
    import_document(group, dated([one_hand(["Ann", "Bob"], 0, "2026-06-01T20:00:00"),
                                  one_hand(["Ann", "Bob"], 1, "2026-06-01T20:00:00")]))
    steps = db.session.scalars(db.select(RatingStep).where(RatingStep.scope == "all")
                               .order_by(RatingStep.finished_at, RatingStep.match_id)).all()
    keys = [order_key(s.finished_at, s.match_id) for s in steps]
    assert keys == sorted(keys)


def test_a_players_page_charts_their_last_matches_and_their_stored_row(app, monkeypatch):
    """The chart holds the ratings after the player's last CHART_POINTS matches (the page
    stays the same size however many they played) and the counts are the stored row's."""
    monkeypatch.setattr(leaderboard, "CHART_POINTS", 4)
    group = _group()
    import_document(group, random_document(random.Random(9), 30))
    compared = truncated = 0
    for player in group.players:
        for game, found in rating_history(player, "all").items():
            row = db.session.get_one(Rating, (player.id, game, "all"))
            standing = found.standing
            assert (standing.mu, standing.sigma, standing.shown, standing.change,
                    standing.matches, standing.wins, standing.best_streak,
                    standing.best_deficit, standing.best_hand, standing.worst_hand) == (
                row.mu, row.sigma, row.shown, row.change, row.matches, row.wins,
                row.best_streak, row.best_deficit, row.best_hand, row.worst_hand)
            steps = db.session.scalars(
                db.select(RatingStep).where(RatingStep.player_id == player.id,
                                            RatingStep.game == game, RatingStep.scope == "all")
                .order_by(RatingStep.finished_at, RatingStep.match_id)).all()
            assert [(p.match_id, p.rating) for p in found.points] == [
                (step.match_id, step.shown) for step in steps[-4:]]
            assert found.earlier == (row.matches > 4)
            truncated += found.earlier
            compared += 1
    assert compared > 3 and truncated
