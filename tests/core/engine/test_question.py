"""The replay's question and answer as objects (core/engine/question.py): the one reader
makes a Question, a Question writes itself back as the same request, and its Answer is
the engine's verdicts, sent as the API's JSON."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_card
from scorekeeper.core.engine import Move, Verdict
from scorekeeper.core.engine.question import Held, Question, Situation
from scorekeeper.core.engine.replay import answer, read_question, run
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet

REQUESTS = [
    {"sheet": {"game": "crazy-eights"}, "players": 2, "hands": [["8S", "KH"], 3],
     "upcard": "KD", "events": [{"player": 1, "play": "QD"},
                                {"player": 0, "play": "8S", "suit": "H"}]},
    {"sheet": {"game": "last-one"}, "players": 3, "hands": [["8S", "KH", "7D"], 5, ["4S"]],
     "upcard": "4H", "names": ["Ann", "Bo", "Cy"],
     "situation": {"turn": 2, "melee": {"aggressor": 0, "defender": 1}},
     "events": [{"player": 1, "play": "5H"}, {"player": 2, "draw": None}]},
    {"sheet": {"game": "last-one"}, "players": 3, "hands": [5, {"cards": ["2C"], "unknown": 4}, 5],
     "upcard": "JK", "situation": {"upcard_as": "5H", "active_suit": None, "pending_draw": 2,
                                    "direction": -1},
     "events": [{"player": 1, "draw": 2}, {"player": 2, "draw": ["7C", "KD"]},
                {"player": 0, "pass": True}],
     "include_legal_moves": True},
    {"sheet": {"game": "countdown"}, "players": 3, "hands": [5, 5, 5], "upcard": "8H",
     "counts": [8, 7, 8], "stock": 20,
     "events": [{"player": 1, "play": "8C", "suit": "D"}, {"player": 2, "call": True}]},
    {"sheet": {"game": "last-one"}, "players": 2, "dealer": 1, "hands": [["8S", "4S"], ["5C"]],
     "upcard": "8H", "pile": 3, "events": [{"player": 0, "name": True, "suit": "D"}]},
]


@pytest.mark.parametrize("request_data", REQUESTS)
def test_a_question_writes_itself_as_the_request_it_was_read_from(request_data):
    question = read_question(request_data)
    assert read_question(question.to_json()) == question
    assert answer(question).to_json() == run(question.to_json()) == run(request_data)


def test_the_answer_is_the_engines_verdicts():
    got = answer(read_question(REQUESTS[1]))
    step = got.steps[0]
    assert isinstance(step.verdict, Verdict) and step.legal is True
    assert step.rule_url == "/rules/last-one#" + step.verdict.rule
    assert got.first_illegal == 1 and got.steps[1].legal is False and got.uncertain == []


def test_a_question_built_from_objects_is_checked_as_a_request_is():
    sheet = Sheet.make("crazy-eights")
    card = parse_card("8S")
    question = Question(sheet, 2, (Held((card,)), Held((card,))), parse_card("KD"))
    with pytest.raises(InputError) as refused:
        answer(question)
    assert refused.value.field == "hands"
    question = Question(sheet, 2, (Held(unknown=3), Held(unknown=3)), parse_card("KD"),
                        situation=Situation(turn=5))
    with pytest.raises(InputError) as refused:
        answer(question)
    assert refused.value.field == "situation.turn"


def test_built_and_read_questions_are_the_same_object():
    sheet = Sheet.make("last-one")
    built = Question(sheet, 2, (Held((parse_card("5H"),), 2), Held(unknown=5)),
                     parse_card("4H"), situation=Situation(turn=0, melee=(1, 0)),
                     names=("Ann", "Bo"), events=((Move.play(0, parse_card("5H")),),))
    assert read_question(built.to_json()) == built
    assert built.to_json()["hands"] == [{"cards": ["5H"], "unknown": 2}, 5]


def test_a_hand_holding_the_card_played():
    five, six = parse_card("5H"), parse_card("6H")
    assert Held(unknown=3).with_card(five) == Held((five,), 2)
    assert Held((five,)).with_card(five) == Held((five,))
    assert Held((five,), 0).with_card(six).to_json() == ["5H", "6H"]
