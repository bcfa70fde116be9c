"""The engine's public surface: setup errors, notation, replay (its doctests run in
test_doctests.py, its purity in test_layers.py)."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import CardError, DeckError
from scorekeeper.core.engine import (
    HandInPlay,
    Move,
    SetupError,
    parse_position,
    read_events,
    read_game,
)
from scorekeeper.core.engine.notation import position_request
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet, SheetError


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"players": 8}, SetupError, "2 to 7 players; 8 is too many"),
    ({"dealer": 3}, SetupError, "dealer"),
    ({"hands": [["8S"]]}, SetupError, "one entry per seat"),
    ({"hands": [["8S"], []]}, SetupError, "empty"),
    ({"hands": [["8S"], ["8S"]]}, DeckError, "8♠"),
    ({"hands": [["JK"], 3]}, DeckError, "jokers"),
    ({"hands": [["XX"], 3]}, CardError, "'XX'"),
    ({"hands": [-1, 3]}, SetupError, "-1"),
    ({"stock": 60}, SetupError, "stock"),
    ({"situation": {"turn": 5}}, SetupError, "turn"),
    ({"situation": {"who": 1}}, SetupError, "'who'"),
    ({"situation": {"direction": 2}}, SetupError, "direction"),
    ({"situation": {"melee": {"aggressor": 0, "defender": 1}}}, SetupError, "Last One"),
    ({"counts": [8, 8]}, SetupError, "Countdown"),
    ({"sheet": {"game": "poker"}}, SheetError, "poker"),
])
def test_setup_errors(kwargs: dict, error: type, words: str) -> None:
    args = {"sheet": Sheet.make("crazy-eights"), "players": 2, "dealer": 0,
            "hands": [["8S", "KH"], 5], "upcard": "4H"} | kwargs
    with pytest.raises(error) as err:
        HandInPlay.start(**args)
    assert words in str(err.value)


C8_START = {"sheet": Sheet.make("crazy-eights"), "players": 2, "dealer": 0,
            "hands": [["8S", "KH"], 5], "upcard": "4H"}


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"players": 8}, "players"),
    ({"dealer": 3}, "dealer"),
    ({"hands": [["8S"]]}, "hands"),
    ({"hands": "8S KH"}, "hands"),
    ({"hands": [["8S"], []]}, "hands[1]"),
    ({"hands": [-1, 3]}, "hands[0]"),
    ({"hands": [["8S"], True]}, "hands[1]"),
    ({"hands": [["8S"], {"cards": ["4C"], "unknown": -1}]}, "hands[1]"),
    ({"hands": [["8S"], [7]]}, "hands[1]"),
    ({"hands": [30, 30]}, "hands"),                    # no upcard left
    ({"upcard": 4}, "upcard"),
    ({"stock": 60}, "stock"),
    ({"stock": ["2C"] * 60}, "stock"),
    ({"counts": [8, 8]}, "counts"),
    ({"sheet": Sheet.make("countdown"), "counts": [8, 9]}, "counts"),
    ({"situation": []}, "situation"),
    ({"situation": {"who": 1}}, "situation.who"),
    ({"situation": {"turn": 5}}, "situation.turn"),
    ({"situation": {"uncalled": -1}}, "situation.uncalled"),
    ({"situation": {"direction": 2}}, "situation.direction"),
    ({"situation": {"upcard_as": "5C"}}, "situation.upcard_as"),
    ({"situation": {"pending_draw": -1}}, "situation.pending_draw"),
    ({"situation": {"melee": {"aggressor": 0}}}, "situation.melee"),
    ({"situation": {"melee": {"aggressor": 0, "defender": 0}}}, "situation.melee"),
    ({"situation": {"melee": {"aggressor": 0, "defender": 1}}}, "situation.melee"),
    ({"situation": {"melee": {"aggressor": 0, "defender": 7}}}, "situation.melee.defender"),
    ({"names": ["Ann"]}, "names"),
    ({"names": ["Ann", " "]}, "names"),
])
def test_setup_errors_name_their_field(kwargs: dict, field: str) -> None:
    with pytest.raises(SetupError) as err:
        HandInPlay.start(**C8_START | kwargs)
    assert err.value.field == field, str(err.value)


def test_joker_upcard_field_and_request_fields() -> None:
    with pytest.raises(SetupError) as err:
        parse_position("lo | up JK | turn 1 | hands 5/5")
    assert err.value.field == "situation.upcard_as"
    with pytest.raises(InputError) as err:
        read_game({"sheet": {"game": "last-one"}, "players": 2, "hands": [5, 5]})
    assert err.value.field == "upcard"
    with pytest.raises(InputError) as err:
        read_game({"sheet": {"game": "last-one"}, "players": 2, "hands": [5, 5],
                   "upcard": "4H", "colour": "red"})
    assert err.value.field == "colour"
    with pytest.raises(InputError) as err:
        read_events([{"player": 1, "play": "4S"}, {"player": "1", "play": "5S"}], 2)
    assert err.value.field == "events[1].player"
    with pytest.raises(InputError) as err:
        read_events([{"player": 1, "play": 5}], 2)
    assert (err.value.field, str(err.value)) == (
        "events[0].play", "events[0].play must be card text (at most 200 characters)")
    with pytest.raises(SetupError) as err:
        HandInPlay.deal(Sheet.make("last-one", {"hand_size": 9}), 6, rng=1)
    assert err.value.field == "sheet.options.hand_size"


@pytest.mark.parametrize(("position", "move", "plain", "named"), [
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "0:KH",
     "it is seat 1's turn, not seat 0's", "it is Bo's turn, not Ann's"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/9S,5C", "1:draw", "seat 1 draws", "Bo draws"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "1:4C",
     "seat 1 does not hold 4♣", "Bo does not hold 4♣"),
    ("lo | up 4H | melee 0>1 | hands 8S,KH/4S/5H,5C", "2:5H",
     "5♥ continues the melee; seat 2 is the aggressor",
     "5♥ continues the melee; Cy is the aggressor"),
    ("lo | up 4H | melee 0>1 | hands 8S,KH/4S/5H,5C", "0:draw",
     "in the melee only the defender (seat 1) draws; others may only continue it",
     "in the melee only the defender (Bo) draws; others may only continue it"),
    ("lo | up 2H | owe 2 | turn 1 | hands 8S,KH/4S,5C", "1:4S",
     "seat 1 owes 2 cards: 2s do not stack under this sheet, so draw",
     "Bo owes 2 cards: 2s do not stack under this sheet, so draw"),
    ("lo | up 8H | fresh | hands 8S,KH/4S,5C", "1:4S",
     "the dealer (seat 0) first names the starter",
     "the dealer (Ann) first names the starter"),
])
def test_reasons_name_seats_when_names_are_given(position: str, move: str, plain: str,
                                                 named: str) -> None:
    request = position_request(position)
    g = read_game(request)
    assert g.check(Move.parse(move)).reason == plain
    names = ["Ann", "Bo", "Cy"][:request["players"]]
    g = read_game(request | {"names": names})
    assert g.check(Move.parse(move)).reason == named
    assert g.seat_name(1) == "Bo"


def test_joker_upcard_mid_hand_needs_its_card() -> None:
    with pytest.raises(SetupError, match="upcard_as"):
        parse_position("lo | up JK | turn 1 | hands 5/5")


def test_notation_errors() -> None:
    with pytest.raises(SetupError, match="lo, c8 or cd"):
        parse_position("poker | up 4H | hands 5/5")
    with pytest.raises(SetupError, match="'colour'"):
        parse_position("c8 | up 4H | hands 5/5 | colour red")
    with pytest.raises(SetupError, match="'up'"):
        parse_position("c8 | hands 5/5")


def test_move_text_round_trips() -> None:
    for text in ["1:8S/D", "0:JK=5H", "0:JK=8H/C", "2:draw", "2:draw:7C", "1:pass",
                 "1:call", "0:name/D", "0:name=8H/C"]:
        assert str(Move.parse(text)) == text
        assert eval(repr(Move.parse(text))) == Move.parse(text)
    with pytest.raises(CardError):
        Move.parse("x:8S")


def test_replay_request_names_the_first_illegal_event() -> None:
    request = {"sheet": Sheet.make("last-one").to_dict(), "players": 3, "dealer": 0,
               "hands": [["8S", "KH", "7D", "AC", "2C"], 5, ["4S", "9C"]], "upcard": "4H",
               "stock": 30,
               "situation": {"turn": 2, "direction": -1, "active_suit": "D",
                             "upcard_as": "4H"},
               "events": [{"player": 2, "play": "9C"}, {"player": 1, "draw": None},
                          {"player": 0, "play": "7D"}]}
    g = read_game(request)
    done, err = g.replay(read_events(request["events"], 3))
    assert done == 0 and err is not None and err.verdict.rule == "lo-eights"
    del request["situation"]["active_suit"]
    request["hands"][2] = ["9H", "9C"]
    request["events"] = [{"player": 2, "play": "9H"}, {"player": 2, "call": True},
                         {"player": 1, "draw": None}, {"player": 0, "play": "8S", "suit": "C"}]
    g = read_game(request)
    done, err = g.replay(read_events(request["events"], 3))
    assert done == 4 and err is None and g.current_player == 2 and g.debts == []


def test_replay_request_with_a_melee_and_pending_draw() -> None:
    g = read_game({
        "sheet": {"game": "last-one"}, "players": 3, "dealer": 0,
        "hands": [["8S", "KH"], 5, ["4S"]], "upcard": "6H",
        "situation": {"melee": {"aggressor": 0, "defender": 1}, "pending_draw": 6}})
    assert g.current_player == 1 and g.debts[0] == (1, 6, "melee", 6)
    for _ in range(6):
        g.apply(Move.draw(1))
    assert g.current_player == 2 and g.melee is None


def test_deal_sizes() -> None:
    assert HandInPlay.deal(Sheet.make("crazy-eights"), 2, rng=1).hand_sizes() == [7, 7]
    assert HandInPlay.deal(Sheet.make("last-one", {"hand_size": 5}), 4,
                           rng=1).hand_sizes() == [5] * 4
    g = HandInPlay.deal(Sheet.make("countdown"), 3, rng=1, counts=[8, 3, 1])
    assert g.hand_sizes() == [8, 3, 1] and g.wild[1].label == "3"
    assert HandInPlay.deal(Sheet.make("countdown", {"start_count": 4}), 7, rng=1).deck.size == 104
