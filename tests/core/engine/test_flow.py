"""Sequences of moves: whose turn follows, what is owed, how hands end."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.cards import parse_card
from scorekeeper.core.engine import (
    GameOverError,
    HandInPlay,
    IllegalPlayError,
    Move,
    NotYourTurnError,
    parse_position,
)


def run(position: str, *moves: str) -> HandInPlay:
    g = parse_position(position)
    for m in moves:
        g.apply(Move.parse(m))
    return g


def test_eight_naming_diamonds_refuses_the_covered_cards_rank() -> None:
    g = run("c8 | up 7H | turn 1 | hands 7C,3D,KS/8S,5C", "1:8S/D")
    assert g.current_player == 0 and g.active_suit.value == "D"
    verdict = g.check(Move.parse("0:7C"))
    assert (verdict.legal, verdict.rule) == (False, "c8-eights")
    assert g.is_legal(Move.parse("0:3D"))


def test_play_after_draw_only_the_card_drawn() -> None:
    g = run("c8 | up 4H | turn 1 | hands KH/9S,5C | stock 7H,2D", "1:draw")
    assert g.current_player == 1 and g.known[1][-1] == parse_card("7H")
    assert not g.is_legal(Move.parse("1:5C"))
    assert g.is_legal(Move.parse("1:pass"))
    g.apply(Move.parse("1:7H"))
    assert g.current_player == 0


def test_last_one_turn_moves_on_when_only_the_pass_is_left_after_a_draw() -> None:
    g = run("lo | up 4H | turn 1 | hands KH,QS/9S,5C | stock 7H", "1:draw")
    assert g.current_player == 0 and g.forced == (1,)
    assert [str(m) for m in g.legal_moves()] == ["0:KH", "0:draw"]
    written = g.apply(Move.parse("1:pass"))  # the pass written out is still accepted
    assert written.legal is True and g.current_player == 0 and g.forced == ()
    verdict = g.apply(Move.parse("0:KH"))
    assert verdict.implied == () and g.current_player == 1


@pytest.mark.parametrize(("limit", "draws", "current", "left"), [
    ("null", ["1:draw", "1:draw", "1:draw"], 1, ["1:7H", "1:pass"]),  # 7H: play or keep it
    ("2", ["1:draw", "1:draw"], 0, ["0:KH"]),  # up to 2, then the turn moves on
    ("1", ["1:draw"], 0, ["0:KH"]),
])
def test_draw_limits(limit: str, draws: list[str], current: int, left: list[str]) -> None:
    g = run(f"c8 | up 4H | turn 1 | hands KH/9S,5C | stock 9C,2D,7H | opt draw_limit={limit}",
            *draws)
    assert g.current_player == current and [str(m) for m in g.legal_moves()] == left


def test_draw_until_playable_refuses_a_pass_before_a_playable_card() -> None:
    g = run("c8 | up 4H | turn 1 | hands KH/9S,5C | stock 9C,2D,7H | opt draw_limit=null",
            "1:draw")
    assert g.check(Move.parse("1:pass")).legal is False
    assert g.check(Move.parse("1:draw")).legal is True


def test_draw_limit_with_the_card_unseen_cannot_be_told() -> None:
    g = run("c8 | up 4H | turn 1 | hands KH/9S,5C | opt draw_limit=3,draw_with_playable=true",
            "1:draw")
    assert g.unknown[1] == 1 and g.current_player == 1
    assert g.check(Move.parse("1:pass")).legal is None
    assert g.check(Move.parse("1:JH")).legal is True  # plays the unseen card drawn


@pytest.mark.parametrize(("opts", "players", "turn", "direction"), [
    ("queen_skips=true", 3, 0, 1),
    ("ace_reverses=true", 3, 0, -1),
    ("ace_reverses=true", 2, 1, 1),                         # two players: a skip
    ("ace_reverses=true,ace_two_players=\"none\"", 2, 0, 1),
    ("", 3, 2, 1),                                          # no add-ons: nothing happens
])
def test_crazy_eights_addons(opts: str, players: int, turn: int, direction: int) -> None:
    card = "QH" if "queen" in opts else "AH"
    hands = "/".join(["KS,2"] + [f"{card},3C"] + ["4"] * (players - 2))
    pos = f"c8 | up 4H | turn 1 | hands {hands}" + (f" | opt {opts}" if opts else "")
    g = run(pos, f"1:{card}")
    assert (g.current_player, g.direction) == (turn, direction)


@pytest.mark.parametrize(("option", "turn"), [("none", 0), ("skip", 1)])
def test_last_one_two_player_ace(option: str, turn: int) -> None:
    g = run(f"lo | up 4H | turn 1 | hands KS,2/AH,3C | opt ace_two_players=\"{option}\"",
            "1:AH")
    assert (g.current_player, g.direction) == (turn, 1)


def test_last_one_ace_reverses_and_jack_skips() -> None:
    g = run("lo | up 4H | turn 1 | hands KS,2/AH,JH,3C/4/4", "1:AH")
    assert (g.current_player, g.direction) == (0, -1)
    g = run("lo | up 4H | turn 1 | hands KS,2/JH,3C/4/4", "1:JH")
    assert g.current_player == 3


def test_two_draws_two_and_stacking() -> None:
    pos = "c8 | up 4H | turn 1 | hands KS,9D,2/2H,3C/2C,5D | opt two_draws_two=true"
    g = run(pos, "1:2H")
    assert g.debts == [(2, 2, "two", 2)] and g.current_player == 2
    g.apply(Move.parse("2:2C"))
    assert g.debts == [(0, 4, "two", 4)] and g.current_player == 0
    for _ in range(4):
        g.apply(Move.draw(0))
    assert g.current_player == 1 and g.hand_size(0) == 8


def test_last_one_two_without_stacking() -> None:
    g = run("lo | up 4H | turn 1 | hands KS,9D/2H,3C,7S/2C,5D", "1:2H")
    assert g.check(Move.parse("2:2C")).legal is False
    g.apply(Move.draw(2))
    assert g.check(Move.parse("2:pass")).legal is False
    assert g.check(Move.parse("2:2C")).legal is False  # drawing has begun
    g.apply(Move.draw(2))
    assert g.current_player == 0


def test_three_free_play_and_chain() -> None:
    g = run("lo | up 4H | turn 1 | hands KS,9D/3H,3C,9S,KD/5D,6D", "1:3H")
    assert g.current_player == 1 and g.free_play
    g.apply(Move.parse("1:3C"))
    assert g.current_player == 1 and g.free_play
    g.apply(Move.parse("1:9S"))
    assert g.current_player == 2
    g = run("lo | up 4H | turn 1 | hands KS,9D/3H,3C,9S/5D,6D | opt three_chain=false",
            "1:3H", "1:3C")
    assert g.current_player == 2


def test_free_card_takes_effect() -> None:
    g = run("lo | up 4H | turn 1 | hands KS,9D/3H,2C,9S/5D,6D", "1:3H", "1:2C")
    assert g.debts == [(2, 2, "two", 2)]


@pytest.mark.parametrize(("court", "drawn"), [("rank", 12), ("ten", 10)])
def test_melee_run_and_draw(court: str, drawn: int) -> None:
    g = run(f"lo | up JH | hands QH,KS,KD/4/9D,7C | melee 2>0 "
            f"| opt melee_court_values=\"{court}\"", "0:QH")
    assert g.melee == (0, 2) and g.current_player == 2
    assert g.actors() >= {2}
    g.apply(Move.draw(2))
    assert g.melee is not None and g.debts[0][1] == drawn - 1
    for _ in range(drawn - 1):
        g.apply(Move.draw(2))
    assert g.melee is None and g.current_player == 0 and g.hand_size(2) == 2 + drawn


def test_melee_out_of_turn_and_who_plays_next() -> None:
    g = run("lo | up 9H | turn 0 | hands 4H,KS,KD/JH,6H,6C/9D,5H,7C", "0:4H")
    assert g.melee == (0, 1)
    by = g.legal_moves_by_player()
    assert set(by) == {1, 2} and by[2]["play"] == ["5H"] and by[1]["draw"]
    g.apply(Move.parse("2:5H"))       # seat 2 plays out of turn: now 2 > 0
    assert g.melee == (2, 0) and g.current_player == 0
    g.apply(Move.parse("1:6H"))       # seat 1 continues: 1 > 2
    assert g.melee == (1, 2)
    for _ in range(6):
        g.apply(Move.draw(2))
    assert g.current_player == 0 and g.melee is None


def test_melee_eight_names_a_suit_only_with_melee_effects() -> None:
    g = run("lo | up 7H | hands KS,2/4/8H,5C,6C | melee 0>1 | opt melee_effects=true",
            "2:8H/S")
    for _ in range(8):
        g.apply(Move.draw(0))
    assert g.active_suit.value == "S" and g.current_player == 1
    g = run("lo | up 7H | hands KS,2/4/8H,5C,6C | melee 0>1", "2:8H")
    for _ in range(8):
        g.apply(Move.draw(0))
    assert g.active_suit.value == "H"


def test_missed_call_costs_two_when_the_next_player_acts() -> None:
    g = run("lo | up 9C | turn 1 | hands KS,2/5C,6H/5D,7C", "1:5C")
    assert g.uncalled == 1
    g.apply(Move.parse("2:5D"))
    assert g.current_player == 1 and g.debts == [(1, 2, "penalty", 2)]
    g.apply(Move.draw(1))
    g.apply(Move.draw(1))
    assert g.current_player == 0 and g.hand_size(1) == 3


def test_a_call_in_time_avoids_the_penalty() -> None:
    g = run("lo | up 9C | turn 1 | hands KS,2/5C,6H/5D,7C", "1:5C", "1:call", "2:5D")
    assert g.debts == [] and g.current_player == 0


def test_penalty_is_drawn_before_scoring_when_the_next_play_ends_the_hand() -> None:
    g = run("lo | up 9C | turn 1 | hands KS,2/5C,6H/5D", "1:5C", "2:5D")
    assert not g.is_over and g.current_player == 1
    g.apply(Move.draw(1))
    g.apply(Move.draw(1))
    out = g.outcome()
    assert g.is_over and out is not None and out.winner == 2 and out.unknown[1] == 2


@pytest.mark.parametrize(("effects", "owed"), [("none", 0), ("draws", 2)])
def test_going_out_with_a_two(effects: str, owed: int) -> None:
    g = run(f"lo | up 9C | turn 1 | hands KS,2/2C/9D | opt going_out_effects=\"{effects}\"",
            "1:2C")
    assert g.winner == 1 and len(g.debts) == (1 if owed else 0)
    for _ in range(owed):
        g.apply(Move.draw(2))
    assert g.is_over and g.outcome().result == "out"
    with pytest.raises(GameOverError):
        g.apply(Move.draw(2))


def test_going_out_ends_a_melee_with_draws() -> None:
    g = run("lo | up 4H | hands KS,2/4/5H | melee 0>1 | opt going_out_effects=\"draws\"",
            "2:5H")
    assert g.debts == [(0, 5, "melee", 5)]


def test_jammed_and_blocked_hands() -> None:
    g = run("c8 | up 4H | turn 1 | hands 49/9S,5C | stock 0", "1:pass")
    assert not g.is_over
    # seat 0's 49 unseen cards are the rest of the deck: some follow the 4♥
    assert g.check(Move.pass_(0)).legal is False
    # with every card in a hand and nothing to draw, someone always holds an 8: a
    # table that says all passed has misread a hand, and the engine says so
    g = run("lo | up 9H | turn 1 | hands 51/2C,5C | stock 0", "1:pass")
    assert g.check(Move.pass_(0)).legal is False



def test_crazy_eights_turns_the_pile_over_without_shuffling() -> None:
    g = run("c8 | up 4C | turn 1 | hands 5C,6C,21/7C,9C,21 | stock KD "
            "| opt draw_with_playable=true",
            "1:7C", "0:5C", "1:9C")
    before = list(g.pile)
    g.apply(Move.parse("0:draw"))  # the last card: the pile is turned over at once
    assert g.pile == [before[-1]] and g.stock == before[:-1][::-1]
    assert g.current_player == 0 and Move.pass_(0) in g.legal_moves()
    g.apply(Move.pass_(0))  # seat 0 keeps its 6C: a choice, so not taken as said
    g.apply(Move.draw(1))
    assert g.stock == before[:-1][::-1][:-1]  # turned over: the bottom card came first


def test_last_one_reshuffle_with_unseen_stock_is_a_count() -> None:
    g = run("lo | up 9H | turn 1 | hands 8S,40/9C,5C,9D,10H | stock 0")
    assert len(g.pile) == 9
    g.apply(Move.parse("1:draw"))
    assert g.stock == [None] * 7 and g.unknown[1] == 1


def test_partly_known_hands() -> None:
    g = run("lo | up 9H | turn 1 | hands 8S/2,9C", "1:KH")
    assert g.hand_size(1) == 2 and g.unknown[1] == 1
    with pytest.raises(IllegalPlayError):
        g.apply(Move.parse("0:5C"))


def test_errors_are_split_by_cause() -> None:
    g = parse_position("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C")
    with pytest.raises(NotYourTurnError) as err:
        g.apply(Move.parse("0:KH"))
    assert err.value.verdict.rule == "c8-turn" and isinstance(err.value, ValueError)
    with pytest.raises(IllegalPlayError) as err2:
        g.apply(Move.parse("1:5C"))
    assert "5♣" in str(err2.value)
    assert g.history == []


@pytest.mark.parametrize(("up", "opts", "current", "state"), [
    ("2H", "", 1, {"debts": [(1, 2, "two", 2)]}),
    ("3H", "", 0, {"free_play": True}),
    ("4H", "", 1, {"melee": (0, 1)}),
    ("8H", "", 0, {"naming": True}),
    ("JK", "", 0, {"naming": True}),
    ("JH", "", 2, {}),
    ("AH", "", 3, {"direction": -1}),
    ("2H", "starter_effects=false", 1, {"debts": []}),
    ("JH", "starter_effects=false", 1, {}),
])
def test_last_one_first_upcard(up: str, opts: str, current: int, state: dict) -> None:
    pos = f"lo | up {up} | fresh | hands 5/5/5/5" + (f" | opt {opts}" if opts else "")
    g = parse_position(pos)
    assert g.current_player == current
    for attr, value in state.items():
        assert getattr(g, attr) == value


def test_starting_joker_named_as_a_two() -> None:
    g = run("lo | up JK | fresh | hands 5/5/5", "0:name=2C")
    assert g.current_player == 1 and g.debts == [(1, 2, "two", 2)]
    assert g.upcard_as == parse_card("2C")


def test_countdown_outcome_counts_down() -> None:
    g = run("cd | up 4H | counts 3,5 | turn 1 | hands KS,2/4C", "1:4C")
    out = g.outcome()
    assert out.winner == 1 and out.counts == (3, 4)


def test_summary_is_json() -> None:
    g = parse_position("lo | up 4H | hands 8S,KH/5/4S,5H | melee 0>1")
    data = g.summary()
    assert json.loads(json.dumps(data)) == data
    assert data["melee"] == {"aggressor": 0, "defender": 1, "next": "5H"}
    assert data["actors"] == [1, 2]


def test_legal_moves_by_player_lists_an_eight_once() -> None:
    g = parse_position("c8 | up 4H | turn 1 | hands KH/8S,4C")
    assert g.legal_moves_by_player() == {
        1: {"play": ["8S", "4C"], "draw": False, "pass": False, "call": False, "name": False}}
