"""An independent audit of the engine against the rules reference, rule by rule.

Two tables in the one-line position notation (see ``scorekeeper.core.engine.notation``):
``VERDICTS`` (position, move → legality and the rule cited) and ``FLOWS`` (position,
a short move sequence → the state that follows: whose turn, direction, what is owed,
the active suit, the melee, hand sizes, how the hand ended). Rows focus on what the
first tables leave out: interactions between special cards and the options.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.core.cards import parse_card
from scorekeeper.core.engine import HandInPlay, Move, parse_position

EMPTY_LO = "hands 51/9C,5C | stock 0"  # 51 + 2 + the upcard = 54: nothing left to draw
FOUR = "hands 5/5/5/5"

VERDICTS = [
    # ---- Last One, 3s: the free card is any card and takes effect as if played
    ("lo | up 3H | free | turn 1 | hands KH/2C,5C", "1:2C", True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/8C,5C", "1:8C", False, "lo-eights"),
    ("lo | up 3H | free | turn 1 | hands KH/8C,5C", "1:8C/D", True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/JK,5C", "1:JK=5C", True, "lo-jokers"),
    ("lo | up 3H | free | turn 1 | hands KH/JK,5C | opt three_free_play=matching",
     "1:JK=5C", False, "lo-jokers"),
    ("lo | up 3H | free | turn 1 | hands KH/JK,5C | opt three_free_play=matching",
     "1:JK=7H", True, "lo-jokers"),
    ("lo | up 3H | free | turn 1 | hands KH/8C,5C | opt three_free_play=matching",
     "1:8C/S", True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/3C,5C | opt three_chain=false", "1:3C", True,
     "lo-threes"),
    # the next seat playing takes seat 1's unsaid decline of the free play as said
    ("lo | up 3H | free | turn 1 | hands KH/9C,5C", "0:KH", True, "lo-turn"),
    # ---- Last One, the melee: wrap, jokers, the 8's suit, who may act
    ("lo | up KH | hands 8S/5/JK,5C | melee 0>1", "2:JK=AH", False, "lo-melee"),
    ("lo | up KH | hands 8S/5/JK,5C | melee 0>1 | opt melee_wrap=true", "2:JK=AH", True,
     "lo-melee"),
    ("lo | up AH | hands 8S/5/2H,5C | melee 0>1 | opt melee_wrap=true", "2:2H", True,
     "lo-melee"),
    ("lo | up KH | hands 8S/5/AH,5C | melee 0>1", "1:draw", True, "lo-melee"),
    ("lo | up 7H | hands KH/5/JK,5C | melee 0>1", "2:JK=8H", True, "lo-melee"),
    ("lo | up 7H | hands KH/5/JK,5C | melee 0>1", "2:JK=8H/S", False, "lo-melee"),
    ("lo | up 7H | hands KH/5/JK,5C | melee 0>1 | opt melee_effects=true", "2:JK=8H/S",
     True, "lo-melee"),
    ("lo | up 4H | hands 8S,KH/5H,6/5C,6C | melee 0>1", "1:5H", True, "lo-melee"),
    ("lo | up 4H | hands 8S,KH/5/5C,6C | melee 0>1", "2:pass", False, "lo-melee"),
    ("lo | up 4H | hands 8S,KH/5/5C,6C | melee 0>1", "0:draw", False, "lo-melee"),
    # ---- Last One, jokers: the named card must be a legal play now (option: any card)
    ("lo | up 4C | turn 1 | hands KH/JK,5D", "1:JK=4H", True, "lo-jokers"),
    ("lo | up 8S | suit D | turn 1 | hands KH/JK,5C", "1:JK=5D", True, "lo-jokers"),
    ("lo | up 8S | suit D | turn 1 | hands KH/JK,5C", "1:JK=5S", False, "lo-jokers"),
    ("lo | up 8S | suit D | turn 1 | hands KH/JK,5C | opt joker_must_be_legal=false",
     "1:JK=5S", True, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK=JK", False, "lo-jokers"),
    # ---- Last One, 2s: stacking only before drawing has begun, only with a 2
    ("lo | up 2H | owe 2 | turn 1 | hands KH/8C,5H | opt twos_stack=true", "1:8C/H", False,
     "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt twos_stack=true", "0:KH", False,
     "lo-twos"),
    # ---- Last One, empty stock: blocked only when no one can play, so a player who
    # can play must play when nothing is left to draw (drawing is no longer possible)
    (f"lo | up 9H | turn 1 | {EMPTY_LO}", "1:pass", False, "lo-drawing"),
    (f"lo | up 9H | turn 1 | {EMPTY_LO}", "1:9C", True, "lo-turn"),
    ("lo | up 9H | turn 1 | hands 51/5D,5C | stock 0", "1:pass", True, "lo-empty-stock"),
    ("lo | up 9H | turn 1 | hands 51/5D,1 | stock 0", "1:pass", None, "lo-drawing"),
    # ---- Crazy Eights: drawing with a playable card, after drawing, the empty stock
    ("c8 | up 4H | turn 1 | hands KH/8S,5C", "1:draw", False, "c8-drawing"),
    ("c8 | up 8S | suit D | turn 1 | hands KH/4S,5C", "1:draw", True, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands 49/4S,5C | stock 0 | opt draw_with_playable=true",
     "1:pass", False, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands 49/4S,5C | stock 0 | opt draw_with_playable=true",
     "1:4S", True, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 48/5S,5C,1 | stock 0 | opt draw_with_playable=true",
     "1:pass", None, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands 49/4S,5C | stock 0 | opt draw_with_playable=true",
     "1:draw", False, "c8-empty-stock"),
    # ---- Crazy Eights add-ons: a queen or an ace names no suit; 2s pass the draw
    ("c8 | up 4H | turn 1 | hands KH/QH,5C | opt queen_skips=true", "1:QH/S", False,
     "c8-eights"),
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt two_draws_two=true", "1:2C/S",
     False, "c8-addons"),
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/8C,5H | opt two_draws_two=true", "1:8C/H",
     False, "c8-addons"),
    ("c8 | up 2H | turn 1 | hands KH/5C,7S | opt two_draws_two=false", "1:draw", True,
     "c8-drawing"),
    # ---- Crazy Eights, starter 8: the first player names the suit before playing
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", "1:9C", True, "c8-turn"),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", "1:name/D", True, "c8-eights"),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", "1:name=8D", False, "c8-eights"),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", "1:draw", False, "c8-eights"),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", "0:name/D", False, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 7/9C,QC", "1:name/D", False, "c8-turn"),
    ("cd | up 7H | fresh | counts 8,7 | hands 8/7", "1:name/S", True, "cd-wild"),
    ("cd | up 8H | fresh | counts 8,7 | hands 8/7", "1:name/S", False, "cd-turn"),
    # ---- Countdown: count 1 = aces wild; an 8 is ordinary for any count but 8
    ("cd | up 4H | counts 8,1 | turn 1 | hands KH/AS,8C", "1:AS/D", True, "cd-wild"),
    ("cd | up 4H | counts 8,1 | turn 1 | hands KH/AS,8C", "1:8C/D", False, "cd-turn"),
    ("cd | up 4H | counts 8,1 | turn 1 | hands KH/AS,8C", "1:AS", False, "cd-wild"),
    ("cd | up 8C | counts 8,7 | turn 1 | hands KH/8H,5D", "1:8H", True, "cd-turn"),
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/8C,5D", "1:draw", True, "cd-drawing"),
    ("cd | up 4H | counts 8,8 | turn 1 | hands KH/8C,5D", "1:draw", False, "cd-drawing"),
    ("cd | up 8C | suit S | counts 7,8 | turn 0 | hands 8H,7D,5/5D,4", "0:8H", False,
     "cd-wild"),
    ("cd | up 8C | suit S | counts 7,8 | turn 0 | hands 8H,7D,5/5D,4", "0:7D/H", True,
     "cd-wild"),
    ("cd | up 7S | suit D | counts 7,7 | turn 0 | hands 7C,9S/5", "0:9S", False, "cd-wild"),
]


@pytest.mark.parametrize(("position", "move", "legal", "rule"), VERDICTS)
def test_verdict(position: str, move: str, legal: bool | None, rule: str) -> None:
    verdict = parse_position(position).check(Move.parse(move))
    assert (verdict.legal, verdict.rule) == (legal, rule), verdict.reason


def run(position: str, moves: list[str]) -> HandInPlay:
    g = parse_position(position)
    for m in moves:
        g.apply(Move.parse(m))
    return g


def state(g: HandInPlay) -> dict[str, Any]:
    """The state a row may check, in the notation's terms."""
    return {
        "current": g.current_player,
        "dir": g.direction,
        "owe": [(d[0], d[1], d[2]) for d in g.debts],
        "suit": None if g.active_suit is None else g.active_suit.value,
        "rank_open": g.rank_open,
        "melee": g.melee,
        "free": g.free_play,
        "sizes": g.hand_sizes(),
        "result": g.result if g.is_over else None,
        "up": str(g.upcard_as),
    }


FLOWS = [
    # ---- aces and jacks: turn order
    ("lo | up 4H | turn 1 | hands KS,2/AH,3C/4C,4", ["1:AH"], {"current": 0, "dir": -1}),
    ("lo | up 4H | turn 1 | hands 5H,4/AH,3C,3D/5", ["1:AH", "0:5H"], {"current": 2, "dir": -1}),
    ("lo | up 4H | turn 2 | hands KS,2/3C,5/JH,4", ["2:JH"], {"current": 1}),
    ("lo | up 4H | turn 0 | hands JH,4/3C,5/4 | dir -1", ["0:JH"], {"current": 1}),
    ("lo | up 4H | turn 1 | hands KS,2/JH,3C", ["1:JH"], {"current": 1}),
    ("lo | up 4H | turn 1 | hands KS,2/AH,3C", ["1:AH"], {"current": 0, "dir": 1}),
    ("lo | up 4H | turn 1 | hands KS,2/AH,3C | opt ace_two_players=\"skip\"", ["1:AH"],
     {"current": 1, "dir": 1}),
    # ---- 3s: the free card acts as if played normally; 3 on 3 with three_chain off
    ("lo | up 4H | turn 1 | hands 5/3H,2C,9S/5/5", ["1:3H", "1:2C"],
     {"current": 2, "owe": [(2, 2, "two")]}),
    ("lo | up 4H | turn 1 | hands 5/3H,JC,9S/5/5", ["1:3H", "1:JC"], {"current": 3}),
    ("lo | up 4H | turn 1 | hands 5/3H,AC,9S/5/5", ["1:3H", "1:AC"],
     {"current": 0, "dir": -1}),
    ("lo | up 4H | turn 1 | hands 5/3H,8C,9S/5/5", ["1:3H", "1:8C/D"],
     {"current": 2, "suit": "D", "rank_open": False}),
    ("lo | up 4H | turn 1 | hands 5/3H,4C,9S/5/5", ["1:3H", "1:4C"],
     {"current": 2, "melee": (1, 2)}),
    ("lo | up 4H | turn 1 | hands 5/3H,JK,9S/5/5", ["1:3H", "1:JK=3C"],
     {"current": 1, "free": True}),
    ("lo | up 4H | turn 1 | hands 5/3H,JK,9S/5/5 | opt three_chain=false",
     ["1:3H", "1:JK=3C"], {"current": 2, "free": False}),
    ("lo | up 4H | turn 1 | hands 5/3H,9S/5/5", ["1:3H", "1:pass"],
     {"current": 2, "free": False}),
    # ---- jokers: a joker named as a 4 starts a melee (with its effect), as a 2 owes
    ("lo | up 4C | turn 1 | hands 5/JK,3C/5H,4", ["1:JK=4H"],
     {"current": 2, "melee": (1, 2), "up": "4H"}),
    ("lo | up 4C | turn 1 | hands 5/JK,3C/5H,4", ["1:JK=4H", "2:5H"],
     {"current": 1, "melee": (2, 1), "up": "5H"}),
    ("lo | up 4C | turn 1 | hands 5/JK,3C/5H,4 | opt joker_effects=false", ["1:JK=4H"],
     {"current": 2, "melee": None, "up": "4H", "suit": "H"}),
    ("lo | up 2C | turn 1 | hands 5/JK,3C/5H,4", ["1:JK=2H"], {"owe": [(2, 2, "two")]}),
    ("lo | up 9C | turn 1 | hands 5/JK,3C/5H,4", ["1:JK=8C/S"],
     {"current": 2, "suit": "S", "rank_open": False}),
    ("lo | up 9C | turn 1 | hands 5/JK,3C/5H,4 | opt joker_effects=false", ["1:JK=8C"],
     {"current": 2, "suit": "C", "rank_open": True, "up": "8C"}),
    # ---- the melee: who draws what, who plays next
    ("lo | up KH | hands 8S,2/5/AH,5C | melee 0>1 | opt melee_wrap=true",
     ["2:AH", "2:call", "0:draw"], {"current": 1, "melee": None, "sizes": [4, 5, 1]}),
    ("lo | up KH | hands 8S,2/5/5C,6C | melee 0>1 | opt melee_court_values=\"ten\"",
     ["1:draw"] * 10, {"current": 2, "melee": None, "sizes": [3, 15, 2]}),
    ("lo | up JH | hands 8S,2/5/5C,6C | melee 0>1 | opt melee_court_values=\"ten\"",
     ["1:draw"] * 10, {"current": 2, "melee": None, "sizes": [3, 15, 2]}),
    ("lo | up 9H | hands 8S,2/5/5C,6C | melee 0>1 | opt melee_court_values=\"ten\"",
     ["1:draw"] * 9, {"current": 2, "melee": None, "sizes": [3, 14, 2]}),
    ("lo | up 4H | hands 5H,2/5/6H,5C/5 | melee 3>0", ["0:5H", "2:6H", "2:call"],
     {"current": 0, "melee": (2, 0)}),
    ("lo | up 4H | hands 5H,2/5/6H,5C/5 | melee 3>0",
     ["0:5H", "2:6H", "2:call"] + ["0:draw"] * 6,
     {"current": 1, "melee": None, "sizes": [8, 5, 1, 5]}),
    ("lo | up 4H | hands 5H,2/5/6H,5C/5 | melee 3>0 | dir -1",
     ["0:5H", "2:6H", "2:call"] + ["0:draw"] * 6, {"current": 3, "melee": None}),
    ("lo | up 7H | hands KS,2/4/8H,5C,6C/5 | melee 0>1", ["2:8H"] + ["0:draw"] * 8,
     {"current": 1, "suit": "H", "rank_open": True}),
    ("lo | up 7H | hands KS,2/4/8H,5C,6C/5 | melee 0>1 | opt melee_effects=true",
     ["2:8H/S"] + ["0:draw"] * 8, {"current": 1, "suit": "S", "rank_open": False}),
    ("lo | up 10H | hands KS,2/4/JH,5C,6C/5 | melee 0>1", ["2:JH"] + ["0:draw"] * 11,
     {"current": 1}),
    ("lo | up 3H | hands KS,2/4/4H,5C,6C/5 | melee 0>1 | opt melee_wrap=true",
     ["2:4H"] + ["0:draw"] * 4, {"current": 1, "melee": None}),
    # ---- calling "last one": the penalty falls due when the next player acts
    ("lo | up 9C | turn 1 | hands KS,2/4C,6H/5C,7D/9D", ["1:4C", "2:5C"],
     {"current": 1, "owe": [(1, 2, "penalty")], "melee": (2, 1)}),
    ("lo | up 9C | turn 1 | hands KS,2/4C,6H/5C/9D", ["1:4C", "2:5C"],
     {"current": 1, "owe": [(1, 2, "penalty")], "melee": None, "result": None}),
    ("lo | up 9C | turn 1 | hands KS,2/4C,6H/5C/9D", ["1:4C", "2:5C", "1:draw", "1:draw"],
     {"current": None, "result": "out", "sizes": [3, 3, 0, 1]}),
    ("lo | up 9C | turn 1 | hands KS,2/2C,6H/5D,7C", ["1:2C", "2:draw"],
     {"current": 1, "owe": [(1, 2, "penalty"), (2, 1, "two")]}),
    ("lo | up 9C | turn 1 | hands KS,2/5C,6H/5D,7C | opt last_card_penalty=4",
     ["1:5C", "2:5D"], {"owe": [(1, 4, "penalty")]}),
    ("lo | up 9C | turn 1 | hands KS,2/5C,6H/5D,7C | opt last_card_call=false",
     ["1:5C", "2:5D"], {"owe": [], "current": 0}),
    ("c8 | up 9C | turn 1 | hands KS,2/5C,6H/5D | opt last_card_call=true",
     ["1:5C", "2:5D", "1:draw", "1:draw"], {"result": "out", "sizes": [3, 3, 0]}),
    # ---- going out: effects per option
    ("lo | up 9C | turn 1 | hands KS,2/JC/9D", ["1:JC"], {"result": "out", "current": None}),
    ("lo | up 9C | turn 1 | hands KS,2/4C/9D | opt going_out_effects=\"draws\"", ["1:4C"],
     {"owe": [(2, 4, "melee")], "melee": None}),
    ("lo | up 2H | owe 2 | turn 1 | hands KS,2/2C/9D | opt twos_stack=true,"
     "going_out_effects=\"draws\"", ["1:2C"], {"owe": [(2, 4, "two")]}),
    ("c8 | up 9C | turn 1 | hands KS,2/QC/9D | opt queen_skips=true", ["1:QC"],
     {"result": "out"}),
    # ---- first upcards (Last One), dealer 0 unless said; three players
    ("lo | up 2H | fresh | hands 5/5/5", [], {"current": 1, "owe": [(1, 2, "two")]}),
    ("lo | up 2H | fresh | hands 5/5/5", ["1:draw", "1:draw"], {"current": 2}),
    ("lo | up 3H | fresh | hands 5/5/5", ["0:pass"], {"current": 1, "free": False}),
    ("lo | up 4H | fresh | dealer 2 | hands 5/5/5", [], {"current": 0, "melee": (2, 0)}),
    ("lo | up 8H | fresh | dealer 1 | hands 5/5/5", ["1:name/S"],
     {"current": 2, "suit": "S", "rank_open": False}),
    ("lo | up JH | fresh | dealer 2 | hands 5/5/5", [], {"current": 1}),
    ("lo | up AH | fresh | dealer 1 | hands 5/5/5", [], {"current": 0, "dir": -1}),
    ("lo | up AH | fresh | hands 5/5", [], {"current": 1, "dir": 1}),
    ("lo | up AH | fresh | hands 5/5 | opt ace_two_players=\"skip\"", [], {"current": 0}),
    ("lo | up JH | fresh | hands 5/5", [], {"current": 0}),
    ("lo | up JK | fresh | dealer 1 | hands 5/5/5", ["1:name=4S"],
     {"current": 2, "melee": (1, 2), "up": "4S"}),
    ("lo | up JK | fresh | dealer 1 | hands 5/5/5", ["1:name=AS"], {"current": 0, "dir": -1}),
    ("lo | up JK | fresh | dealer 1 | hands 5/5/5", ["1:name=3S"],
     {"current": 1, "free": True}),
    ("lo | up JK | fresh | dealer 1 | hands 5/5/5", ["1:name=8S/D"],
     {"current": 2, "suit": "D"}),
    ("lo | up JK | fresh | dealer 1 | hands 5/5/5 | opt joker_effects=false", ["1:name=AS"],
     {"current": 2, "dir": 1, "up": "AS"}),
    ("lo | up 3H | fresh | hands 5/5/5 | opt starter_effects=false", [],
     {"current": 1, "free": False}),
    ("lo | up 4H | fresh | hands 5/5/5 | opt starter_effects=false", [],
     {"current": 1, "melee": None}),
    ("lo | up 8H | fresh | hands 5/5/5 | opt starter_effects=false", [],
     {"current": 1, "suit": "H", "rank_open": True}),
    ("lo | up AH | fresh | hands 5/5/5 | opt starter_effects=false", [],
     {"current": 1, "dir": 1}),
    # ---- Crazy Eights: starters and add-ons
    ("c8 | up QH | fresh | hands 5/5/5 | opt queen_skips=true,starter_effects=true", [],
     {"current": 2}),
    ("c8 | up QH | fresh | hands 5/5/5 | opt queen_skips=true", [], {"current": 1}),
    ("c8 | up AH | fresh | hands 5/5/5 | opt ace_reverses=true,starter_effects=true", [],
     {"current": 2, "dir": -1}),
    ("c8 | up AH | fresh | hands 7/7 | opt ace_reverses=true,starter_effects=true", [],
     {"current": 0, "dir": 1}),
    ("c8 | up AH | fresh | hands 5/5/5 | opt ace_reverses=true", [], {"current": 1, "dir": 1}),
    ("c8 | up 2H | fresh | hands 5/5/5 | opt two_draws_two=true", [],
     {"current": 1, "owe": []}),
    ("c8 | up 8H | fresh | hands 5/5/5 | opt starter_effects=true", [],
     {"current": 1, "suit": None}),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", ["1:name/D"],
     {"current": 1, "suit": "D", "rank_open": False}),
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S | stock 5H,6D",
     ["1:name/D", "1:draw"], {"current": 0, "suit": "D", "sizes": [7, 8]}),  # only the pass left
    ("c8 | up 8H | fresh | hands 7/9C,QC,KC,AC,2S,3S,4S", ["1:9C"],
     {"current": 0, "suit": "C", "rank_open": True}),
    ("c8 | up 4H | turn 0 | hands 2H,3C,5C/2C,5D/2D,5S | opt two_draws_two=true",
     ["0:2H", "1:2C", "2:2D"], {"current": 0, "owe": [(0, 6, "two")]}),
    ("c8 | up 4H | turn 0 | hands 2H,3C,5C/2C,5D/2D,5S | opt two_draws_two=true",
     ["0:2H", "1:2C", "2:2D"] + ["0:draw"] * 6, {"current": 1, "sizes": [8, 1, 1]}),
    ("c8 | up 4H | turn 1 | hands 5/AH,QH,3C/5/5 | opt queen_skips=true,ace_reverses=true",
     ["1:AH", "0:9H"], {"current": 3, "dir": -1}),
    ("c8 | up 4S | turn 1 | hands QS,5/AS,3C/5/5 | opt queen_skips=true,ace_reverses=true",
     ["1:AS", "0:QS"], {"current": 2, "dir": -1}),
    ("c8 | up 4H | turn 1 | hands QS,5/QH,AH,3C | opt queen_skips=true", ["1:QH"],
     {"current": 1}),
    ("c8 | up 4H | turn 1 | hands QS,5/AH,QH,3C | opt ace_reverses=true", ["1:AH"],
     {"current": 1, "dir": 1}),
    # ---- Countdown: an 8 played by a count-7 player is ordinary
    ("cd | up 4H | counts 8,7 | turn 1 | hands 5/8H,5C,4", ["1:8H"],
     {"current": 0, "suit": "H", "rank_open": True}),
    ("cd | up 4H | counts 7,8 | turn 1 | hands 8H,7D,5/8C,5D,4", ["1:8C/S"],
     {"current": 0, "suit": "S", "rank_open": False}),
    ("cd | up 8C | suit S | counts 7,8 | turn 0 | hands 8H,7D,5/5D,4", ["0:7D/H"],
     {"current": 1, "suit": "H", "rank_open": False}),
    # ---- drawing: limits and play after drawing
    ("lo | up 4H | turn 1 | hands 5/9S,5C | stock 7H,9C | opt play_after_draw=true",
     ["1:draw"], {"current": 1}),
    ("lo | up 4H | turn 1 | hands 5/9S,5C | stock 7H,9C", ["1:draw"], {"current": 0}),
    ("lo | up 4H | turn 1 | hands 5/9S,5C | stock 7H,9C", ["1:draw", "1:pass"],
     {"current": 0}),
    ("lo | up 4H | turn 1 | hands 5/9S,5C | stock 9C,2D,7H | opt draw_limit=null",
     ["1:draw", "1:draw", "1:draw", "1:pass"], {"current": 0, "sizes": [5, 5]}),
    ("c8 | up 4H | turn 1 | hands 5/9S,5C | stock 9C,2D,7H | opt draw_limit=2",
     ["1:draw", "1:draw", "1:pass"], {"current": 0, "sizes": [5, 4]}),
    ("c8 | up 4H | turn 1 | hands 5/9S,5C | stock 9C,7H,2D | opt draw_limit=3",
     ["1:draw", "1:draw", "1:7H"], {"current": 0, "sizes": [5, 3], "up": "7H"}),
    # ---- empty stock, jammed and blocked
    # seat 0's 48 unseen cards are all the deck has left, so some follow the 4♥
    ("c8 | up 4H | turn 1 | hands 48/9S,5C | stock 7H", ["1:draw", "1:pass", "0:5H"],
     {"result": None, "current": 1}),
    ("c8 | up 4H | turn 1 | hands 48/9S,5C | stock 2D", ["1:draw", "0:5H"],
     {"result": None, "current": 1}),
]


@pytest.mark.parametrize(("position", "moves", "expected"), FLOWS)
def test_flow(position: str, moves: list[str], expected: dict[str, Any]) -> None:
    got = state(run(position, moves))
    assert {k: got[k] for k in expected} == expected


def test_crazy_eights_turns_the_pile_over_in_order() -> None:
    g = run("c8 | up 4C | turn 1 | hands 5C,6C,QD,22/7C,9C,KD,22 | stock 3S",
            ["1:7C", "0:5C", "1:9C", "0:6C", "1:draw:3S"])
    # the stock ran out with that draw: the pile under the 6♣ is turned over at once,
    # without shuffling, so the bottom card of the pile is drawn first
    assert g.pile == [parse_card("6C")] and [str(c) for c in g.stock] == ["9C", "5C", "7C", "4C"]
    assert g.check(Move.parse("0:draw:7C")).legal is False
    g.apply(Move.parse("0:draw:4C"))
    assert g.pile == [parse_card("6C")] and [str(c) for c in g.stock] == ["9C", "5C", "7C"]
    g.apply(Move.parse("0:pass"))
    g.apply(Move.parse("1:draw:7C"))
    assert g.known[1][-1] == parse_card("7C")


def test_last_one_keeps_the_upcard_and_shuffles_the_rest() -> None:
    g = run("lo | up 4C | turn 1 | hands 5C,6C,QD,23/7C,9C,KD,23 | stock 3S",
            ["1:7C", "0:5C", "1:9C", "0:6C", "1:draw:3S", "0:draw"])
    assert g.pile == [parse_card("6C")] and len(g.stock) == 3 and g.unknown[0] == 24
