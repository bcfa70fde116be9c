"""The deal-size helper's pure core: every game at every table size, and the refusals."""

from __future__ import annotations

import pytest

from scorekeeper.core.deal import DealError, plan_deal, plan_for_sheet
from scorekeeper.core.sheets import GAMES, Sheet

# game, players, extra arguments -> cards each, decks, deck size, stock after the upcard
TABLE = [
    ("last-one", 2, {}, 7, 1, 54, 39),
    ("last-one", 3, {}, 7, 1, 54, 32),
    ("last-one", 4, {}, 7, 1, 54, 25),
    ("last-one", 5, {}, 7, 1, 54, 18),
    ("last-one", 6, {}, 7, 1, 54, 11),
    ("last-one", 4, {"hand_size": 4}, 4, 1, 54, 37),
    ("last-one", 6, {"hand_size": 8}, 8, 1, 54, 5),
    ("last-one", 5, {"hand_size": 9}, 9, 1, 54, 8),
    ("crazy-eights", 2, {}, 7, 1, 52, 37),
    ("crazy-eights", 3, {}, 5, 1, 52, 36),
    ("crazy-eights", 4, {}, 5, 1, 52, 31),
    ("crazy-eights", 5, {}, 5, 1, 52, 26),
    ("crazy-eights", 6, {}, 5, 2, 104, 73),
    ("crazy-eights", 7, {}, 5, 2, 104, 68),
    ("countdown", 2, {}, 8, 1, 52, 35),
    ("countdown", 3, {}, 8, 1, 52, 27),
    ("countdown", 4, {}, 8, 1, 52, 19),
    ("countdown", 5, {}, 8, 1, 52, 11),
    ("countdown", 6, {}, 8, 2, 104, 55),
    ("countdown", 7, {}, 8, 2, 104, 47),
]


@pytest.mark.parametrize(("game", "players", "extra", "each", "decks", "size", "stock"), TABLE)
def test_plan(game, players, extra, each, decks, size, stock):
    plan = plan_deal(game, players, **extra)
    assert plan.cards_each == (each,) * players
    assert (plan.decks, plan.deck_size, plan.stock_after_upcard) == (decks, size, stock)
    assert plan.jokers == (2 if game == "last-one" else 0)
    assert plan.cards_dealt + 1 + plan.stock_after_upcard == plan.deck_size


def test_every_game_and_table_size_is_covered():
    covered = {(g, p) for g, p, *_ in TABLE}
    wanted = {(g.key, n) for g in GAMES.values() for n in range(g.min_players, g.max_players + 1)}
    assert wanted <= covered


def test_countdown_counts_differ_per_player():
    plan = plan_deal("countdown", 3, counts=[8, 7, 5])
    assert plan.cards_each == (8, 7, 5)
    assert plan.cards_dealt == 20
    assert plan.stock_after_upcard == 31
    assert not plan.same_for_all


@pytest.mark.parametrize(
    ("players", "dealer", "first"), [(2, 0, 1), (2, 1, 0), (4, 3, 0), (6, 2, 3)]
)
def test_play_starts_left_of_the_dealer(players, dealer, first):
    assert plan_deal("crazy-eights", players, dealer=dealer).first_player == first


def test_no_dealer_means_no_first_player():
    plan = plan_deal("last-one", 4)
    assert plan.dealer is None and plan.first_player is None


def test_seat_names_after_eliminations():
    plan = plan_deal("last-one", ["Ann", "Cy", "Di"], dealer=2)
    assert plan.players == 3
    assert plan.seat_name(plan.dealer) == "Di"
    assert plan.seat_name(plan.first_player) == "Ann"
    assert plan_deal("last-one", 3, dealer=0).seat_name(1) == "Seat 2"


@pytest.mark.parametrize(
    ("game", "players", "extra", "field", "words"),
    [
        ("last-one", 1, {}, "players", "at least 2"),
        ("last-one", 7, {}, "players", "2 to 6 players; 7 is too many"),
        ("crazy-eights", 8, {}, "players", "2 to 7 players"),
        ("countdown", 0, {}, "players", "at least 2"),
        ("crazy-eights", 1, {}, "players", "at least 2"),
        ("countdown", 9, {}, "players", "too many"),
        ("last-one", 6, {"hand_size": 9}, "hand_size", "no card is left to turn up"),
        ("last-one", 4, {"hand_size": 3}, "hand_size", "use 4 to 9"),
        ("last-one", 4, {"hand_size": 10}, "hand_size", "use 4 to 9"),
        ("crazy-eights", 4, {"hand_size": 7}, "hand_size", "only applies to Last One"),
        ("last-one", 4, {"counts": [8, 8, 8, 8]}, "counts", "only apply to Countdown"),
        ("countdown", 3, {"counts": [8, 8]}, "counts", "2 counts for 3 players"),
        ("countdown", 3, {"counts": [8, 0, 8]}, "counts", "already won"),
        ("countdown", 3, {"counts": [8, 9, 8]}, "counts", "use 1 to 8"),
        ("crazy-eights", 4, {"dealer": 4}, "dealer", "0 to 3"),
        ("crazy-eights", 4, {"dealer": -1}, "dealer", "0 to 3"),
        ("poker", 4, {}, "game", "unknown game 'poker'"),
        ("last-one", True, {}, "players", "whole number"),
        ("last-one", "4", {}, "players", "whole number"),
    ],
)
def test_refusals_explain_themselves(game, players, extra, field, words):
    with pytest.raises(DealError) as caught:
        plan_deal(game, players, **extra)
    assert caught.value.field == field
    assert words in str(caught.value)


def test_refusal_is_a_value_error():
    assert issubclass(DealError, ValueError)


@pytest.mark.parametrize(
    ("game", "players", "extra", "words"),
    [
        ("last-one", 6, {"hand_size": 8}, "Only 5 cards stay in the stock for 6 players"),
        ("last-one", 5, {"hand_size": 9}, "every player agrees"),
        ("last-one", 4, {"hand_size": 9}, "every player agrees"),
    ],
)
def test_warnings_for_deals_that_barely_work(game, players, extra, words):
    assert any(words in w for w in plan_deal(game, players, **extra).warnings)


def test_ordinary_deals_have_no_warnings():
    for g in GAMES.values():
        for n in range(g.min_players, g.max_players + 1):
            assert plan_deal(g.key, n).warnings == ()


def test_plan_for_sheet_uses_the_sheets_values():
    assert plan_for_sheet(Sheet.make("last-one", {"hand_size": 5}), 4).cards_each == (5,) * 4
    assert plan_for_sheet(Sheet.make("countdown", {"start_count": 3}), ["A", "B"]).cards_each == (
        3, 3)
    assert plan_for_sheet(Sheet.make("countdown"), 2, counts=[2, 6]).cards_each == (2, 6)
    assert plan_for_sheet(Sheet.make("crazy-eights"), 2, dealer=1).first_player == 0


def test_to_dict_is_plain_data():
    data = plan_deal("crazy-eights", 3, dealer=0).to_dict()
    assert data["cards_each"] == [5, 5, 5]
    assert data["first_player"] == 1
    assert data["warnings"] == []
