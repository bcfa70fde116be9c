"""The games' definitions and their registry (scorekeeper.core.games)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.core.cards import Rank, parse_card
from scorekeeper.core.games import GAMES, add_game, game_named, reaches
from scorekeeper.core.sheets import OPTIONS, Sheet

LO, C8, CD = "last-one", "crazy-eights", "countdown"


def test_the_registry_lists_each_game_once_in_reading_order() -> None:
    assert list(GAMES) == [LO, C8, CD]
    with pytest.raises(ValueError, match="already registered"):
        add_game(GAMES[LO])


@pytest.mark.parametrize("key", [LO, C8, CD])
def test_every_option_a_game_names_is_a_sheet_option(key: str) -> None:
    assert set(GAMES[key].options) <= set(OPTIONS)


def test_a_definition_refuses_a_section_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="unknown reference ids"):
        replace(GAMES[C8], rule_ids={**GAMES[C8].rule_ids, "turn": "lo-turn"})
    with pytest.raises(ValueError, match="scoring 'most'"):
        replace(GAMES[C8], scoring="most")


@pytest.mark.parametrize(("key", "facts"), [
    (LO, ("blocked", "total", True, 54, 40, True)),
    (C8, ("jammed", "total", False, 52, None, False)),
    (CD, ("jammed", "count", True, 52, None, False)),
])
def test_the_words_and_facts_of_each_game(key: str, facts: tuple) -> None:
    g = game_named(key)
    assert (g.stuck_word, g.total_word, g.low_leads, g.deck(2).size,
            g.points(parse_card("jk")), g.has_melee) == facts


def test_rules_once_the_threshold_the_leader_and_the_lone_card() -> None:
    lo, c8 = game_named(LO), game_named(C8)
    assert reaches(250, 250) and not reaches(249, 250)
    assert lo.falls((250, 260, 10), 250, {1: 3}, ()) == [0]
    assert lo.falls((250,), 250, {}, (0,)) == [] and c8.falls((250,), 250, {}, ()) == []
    assert (lo.leader((5, 3)), c8.leader((5, 3))) == (3, 5)
    assert (lo.behind(9, 3), c8.behind(3, 9)) == (6, 6)
    one = [parse_card("8h")]
    assert lo.lone_card(one) and not c8.lone_card(one) and not lo.lone_card(one * 2)


def test_effects_are_data_some_switched_on_by_options() -> None:
    assert game_named(LO).effects_under(Sheet.make(LO).options)[Rank.FOUR] == "melee"
    c8 = game_named(C8)
    assert c8.effects_under(Sheet.make(C8).options) == {}
    assert c8.effects_under(Sheet.make(C8, {"queen_skips": True}).options) == {
        Rank.QUEEN: "skip"}


def test_last_one_always_shuffles_as_a_stated_fact() -> None:
    assert game_named(LO).refill_shuffles and not game_named(C8).refill_shuffles
