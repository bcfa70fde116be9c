"""The group's best and worst hand per game, as a table would count them: hands in,
the record holder, the figure and the match that holds it out (both databases), kept
by the writer hand by hand as a full replay gives them, and Countdown's missing worst
hand said in words."""

from __future__ import annotations

import random

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.hand_records import NO_WORST, HandMarks, hand_records
from scorekeeper.core.scoring import held_points, stored_hand
from scorekeeper.store.extensions import db
from scorekeeper.store.leaderboard import BEST_HAND, WORST_HAND, game_leaderboard
from scorekeeper.store.models import Group
from scorekeeper.store.records import record_hand
from scorekeeper.store.transfer import import_document, load_matches
from tests.support.derived import assert_derived_rows_match_hands
from tests.support.documents import random_document
from tests.support.ratings import dated

AT = "2026-03-0{}T20:00:00+00:00"
needs_store = pytest.mark.usefixtures("ctx")
C8_TARGET = ("crazy-eights", {})
C8_ONE = ("crazy-eights", {"match_end": "one-hand"})
LO_50 = ("last-one", {"threshold": 50})

# Matches (each: sheet, seats, hands as (who went out, what each seat held)) → for
# each hand record, (holder, figure, which of the matches holds it); None: no holder.
TABLE = [
    pytest.param(
        [(C8_TARGET, ["Ann", "Bob", "Cat"],
          [(0, ["", "8S KH", "3D"]),          # Ann scores 63; Bob is left holding 60
           (1, ["9C", "", "8H 8D"])])],       # Bob scores 109; Cat is left holding 100
        {BEST_HAND: ("Bob", 109, 0), WORST_HAND: ("Cat", 100, 0)},
        id="crazy-eights-scored-and-held"),
    pytest.param(
        [(C8_ONE, ["Ann", "Bob", "Cat"], [(None, ["2C", "KH QH", "5D"])]),  # jammed
         (C8_ONE, ["Ann", "Bob"], [(0, ["", "7S"])])],
        # the lowest holder scores the differences, 18 + 3; Bob held the most, 20
        {BEST_HAND: ("Ann", 21, 0), WORST_HAND: ("Bob", 20, 0)},
        id="crazy-eights-jammed-hand"),
    pytest.param(
        [(LO_50, ["Ann", "Bob", "Cat"],
          [(0, ["", "8S KH JK", "KS"]),       # Bob catches 75; Cat holds one card: 0
           (2, ["8S 8H", "", ""])])],         # Ann catches 50 and falls; Cat wins
        # Ann went out leaving 75 + 0 in the others' hands; Cat left 50
        {BEST_HAND: ("Ann", 75, 0), WORST_HAND: ("Bob", 75, 0)},
        id="last-one-left-and-caught"),
    pytest.param(
        [(("countdown", {"start_count": 3}), ["Ann", "Bob"],
          [(0, ["", ""]), (1, ["", ""]), (0, ["", ""]), (0, ["", ""])]),
         (("countdown", {"start_count": 5}), ["Ann", "Bob"],
          [(1, ["", ""])] * 5)],
        # Ann went out from 3 cards in the first; Bob from 5 in the second
        {BEST_HAND: ("Bob", 5, 1), WORST_HAND: None},
        id="countdown-biggest-deal"),
]


def _imported(matches: list) -> Group:
    group = Group(name="Hands")
    db.session.add(group)
    db.session.commit()
    import_document(group, dated([(game, options, seats, hands, AT.format(day))
                                  for day, ((game, options), seats, hands)
                                  in enumerate(matches, start=1)]))
    return group


@needs_store
@pytest.mark.parametrize(("matches", "expected"), TABLE)
def test_each_games_best_and_worst_hand_has_the_holder_a_table_would_name(app, matches,
                                                                           expected):
    group = _imported(matches)
    played = [record.match for record in load_matches(group)]
    assert all(match.status == "finished" for match in played)
    game = played[0].game
    found = {record.kind: record for record in game_leaderboard(group, game).records}
    for kind, holder in expected.items():
        if holder is None:
            assert kind not in found
            continue
        name, value, index = holder
        record = found[kind]
        assert (record.name, record.value, record.match_id) == (name, value,
                                                                 played[index].id), kind
    assert_derived_rows_match_hands(group.id)


@needs_store
def test_countdown_says_why_it_has_no_worst_hand(app):
    group = _imported([(("countdown", {"start_count": 1}), ["Ann", "Bob"], [(0, ["", ""])])])
    found = game_leaderboard(group, "countdown")
    assert [(r.kind, r.reason) for r in found.no_records] == [(WORST_HAND,
                                                              NO_WORST["count"])]
    assert "only who went out" in found.no_records[0].reason
    assert game_leaderboard(group, "crazy-eights").no_records == ()


@needs_store
def test_the_writer_keeps_the_records_a_full_replay_gives(app):
    """Hands recorded one by one (the writer reads the stored hands) give the records
    of the same hands imported at once, and ``db verify`` agrees."""
    group = _imported([(C8_TARGET, ["Ann", "Bob", "Cat"], [])])
    match = load_matches(group)[0].match
    match = record_hand(match, 1, 0, [[], parse_cards("8S KH"), parse_cards("3D")]).match
    record_hand(load_matches(group)[0].match, 2, 1,
                [parse_cards("9C"), [], parse_cards("8H 8D")])
    found = {r.kind: (r.name, r.value) for r in game_leaderboard(group, "crazy-eights").records}
    assert found[BEST_HAND] == ("Bob", 109) and found[WORST_HAND] == ("Cat", 100)
    assert_derived_rows_match_hands(group.id)


@pytest.mark.parametrize(("game", "hands", "start", "expected"), [
    ("crazy-eights", [stored_hand("crazy-eights", 1, ("8S KH", "", "AC"), (0, 61, 0))], 0,
     ((0, 60), (61, 0), (0, 1))),
    ("last-one", [stored_hand("last-one", 2, ("JK 8S", "QH", ""), (65, 0, 0))], 0,
     ((0, 65), (0, 0), (65, 0))),
    ("countdown", [stored_hand("countdown", out, ("", ""), (0, 0)) for out in (0, 1, 0)], 4,
     ((4, 0), (4, 0))),
], ids=["crazy-eights", "last-one", "countdown"])
def test_hand_records_per_seat(game, hands, start, expected):
    assert hand_records(game, len(expected), hands, start) == tuple(
        HandMarks(best, worst) for best, worst in expected)


def test_held_points_are_the_cards_values_in_the_game():
    assert held_points("crazy-eights", parse_cards("8S KH 7D AC")) == 68
    assert held_points("last-one", parse_cards("JK 8S")) == 65
    assert held_points("crazy-eights", ()) == 0


@needs_store
def test_a_second_large_import_keeps_the_records_of_the_first(app):
    """A bulk write rates the group again taking the matches it did not change as
    their stored steps have them: the same records as one import of everything."""
    first, second = (random_document(random.Random(seed), 12) for seed in (21, 22))
    twice = Group(name="Twice")
    once = Group(name="Once")
    db.session.add_all([twice, once])
    db.session.commit()
    import_document(twice, first)
    import_document(twice, second)
    import_document(once, {**first, "matches": first["matches"] + second["matches"]})
    for game in ("crazy-eights", "last-one", "countdown"):
        assert ([(r.kind, r.name, r.value) for r in game_leaderboard(twice, game).records]
                == [(r.kind, r.name, r.value) for r in game_leaderboard(once, game).records]), game
    assert_derived_rows_match_hands(twice.id)
