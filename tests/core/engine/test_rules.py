"""Position → verdict tables for every rule and option of the rules reference.

Each row is a one-line position (see ``scorekeeper.core.engine.notation``), a move in its
compact text form, the expected legality (True, False, or None: "cannot tell from
what the table saw") and the rules-reference id the verdict must cite.
"""

from __future__ import annotations

import pytest

from scorekeeper.core.engine import Move, parse_position
from scorekeeper.core.games import GAMES

EMPTY_C8 = "hands 49/9S,5C"  # 49 + 2 cards in hands + the upcard: nothing left to draw
EMPTY_LO = "hands 51/5D,5C"  # neither card follows the 9H upcard

ROWS = [
    # ---- Crazy Eights: a turn, eights
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "1:4S", True, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "1:5C", False, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C,QH", "1:QH", True, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "0:8S/D", False, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C", "1:7D", False, "c8-turn"),
    ("c8 | up 4H | turn 1 | hands KH/8D,5C", "1:8D/C", True, "c8-eights"),
    ("c8 | up 4H | turn 1 | hands KH/8D,5C", "1:8D", False, "c8-eights"),
    ("c8 | up 4H | turn 1 | hands KH/4S,5C", "1:4S/D", False, "c8-eights"),
    ("c8 | up 8S | suit D | turn 1 | hands KH/5S,3D,8C", "1:5S", False, "c8-eights"),
    ("c8 | up 8S | suit D | turn 1 | hands KH/5S,3D,8C", "1:3D", True, "c8-turn"),
    ("c8 | up 8S | suit D | turn 1 | hands KH/5S,3D,8C", "1:8C/H", True, "c8-eights"),
    ("c8 | up 8H | fresh | hands KH,2C,3D,4S,5S,6S,7S/9C,QC,KC,AC,2S,3S,4D", "1:9C", True,
     "c8-turn"),
    ("c8 | up 4H | turn 1 | hands KH/4S,5C | opt last_card_call=true", "1:JK=4S", False,
     "c8-turn"),
    # ---- Crazy Eights: drawing and the empty stock
    ("c8 | up 4H | turn 1 | hands KH/4S,5C", "1:draw", False, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/4S,5C | opt draw_with_playable=true", "1:draw", True,
     "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/9S,5C", "1:draw", True, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/3", "1:draw", None, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/9S,2", "1:draw", None, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/9S,5C", "1:pass", False, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/9S,5C | stock 7C,2D", "1:draw:2D", False, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands KH/9S,5C | stock 7C,2D", "1:draw:7C", True, "c8-drawing"),
    (f"c8 | up 4H | turn 1 | {EMPTY_C8} | stock 0", "1:pass", True, "c8-empty-stock"),
    (f"c8 | up 4H | turn 1 | {EMPTY_C8} | stock 0", "1:draw", False, "c8-empty-stock"),
    ("c8 | up 4H | turn 1 | hands 49/4S,5C | stock 0", "1:pass", False, "c8-drawing"),
    # draw_with_playable is about drawing: with nothing to draw, only a player who
    # cannot play passes (the rules reference, Crazy Eights, Empty stock)
    ("c8 | up 4H | turn 1 | hands 49/4S,5C | stock 0 | opt draw_with_playable=true",
     "1:pass", False, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands 48/9S,2 | stock 0", "1:pass", None, "c8-drawing"),
    ("c8 | up 4H | turn 1 | hands 48/4S,2 | stock 0", "1:pass", False, "c8-drawing"),
    # ---- Crazy Eights add-ons
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt two_draws_two=true", "1:2C", True,
     "c8-addons"),
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt two_draws_two=true", "1:5H", False,
     "c8-addons"),
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt two_draws_two=true", "1:draw", True,
     "c8-addons"),
    ("c8 | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt two_draws_two=true", "0:KH", False,
     "c8-addons"),
    ("c8 | up 4H | uncalled 0 | turn 1 | hands KH/9S,5C | opt last_card_call=true", "0:call",
     True, "c8-last-card"),
    ("c8 | up 4H | uncalled 0 | turn 1 | hands KH/9S,5C", "0:call", False, "c8-last-card"),
    ("c8 | up 4H | turn 1 | hands KH/9S,5C | opt last_card_call=true", "1:call", False,
     "c8-last-card"),
    # ---- Countdown: only your own rank is wild
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/7S,8C", "1:7S/D", True, "cd-wild"),
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/7S,8C", "1:8C/D", False, "cd-turn"),
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/7S,8C", "1:7S", False, "cd-wild"),
    ("cd | up 8S | suit D | counts 8,7 | turn 1 | hands KH/8C,3D", "1:8C", False, "cd-wild"),
    ("cd | up 8S | suit D | counts 8,7 | turn 1 | hands KH/8C,3D", "1:3D", True, "cd-turn"),
    ("cd | up 7S | suit D | counts 8,7 | turn 0 | hands 7C,8H/5", "0:7C", False, "cd-wild"),
    ("cd | up 7S | suit D | counts 8,7 | turn 0 | hands 7C,8H/5", "0:8H/S", True, "cd-wild"),
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/9S,5C", "1:draw", True, "cd-drawing"),
    ("cd | up 2H | owe 2 | counts 8,2 | turn 1 | hands KH/2C | opt two_draws_two=true",
     "1:2C", True, "cd-addons"),
    ("cd | up 4H | counts 8,7 | turn 1 | hands KH/9S,5C", "0:KH", False, "cd-drawing"),
    # ---- Last One: a turn, eights, drawing
    ("lo | up 9H | turn 1 | hands 8S/9C,5C", "1:9C", True, "lo-turn"),
    ("lo | up 9H | turn 1 | hands 8S/9C,5C", "1:5C", False, "lo-turn"),
    ("lo | up 9H | turn 1 | hands 8S/9C,5C", "0:8S/C", False, "lo-turn"),
    ("lo | up 9H | turn 1 | hands KH/8S,5C", "1:8S/D", True, "lo-eights"),
    ("lo | up 8S | suit D | turn 1 | hands KH/5S,3D", "1:5S", False, "lo-eights"),
    ("lo | up 8S | suit D | turn 1 | hands KH/5S,3D", "1:3D", True, "lo-turn"),
    ("lo | up 9H | turn 1 | hands 8S/9C,5C", "1:draw", True, "lo-drawing"),
    ("lo | up 9H | turn 1 | hands 8S/9C,5C | opt draw_with_playable=false", "1:draw", False,
     "lo-drawing"),
    ("lo | up 9H | turn 1 | hands 8S/4 | opt draw_with_playable=false", "1:draw", None,
     "lo-drawing"),
    (f"lo | up 9H | turn 1 | {EMPTY_LO} | stock 0", "1:pass", True, "lo-empty-stock"),
    (f"lo | up 9H | turn 1 | {EMPTY_LO} | stock 0", "1:draw", False, "lo-empty-stock"),
    # ---- Last One: twos
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H", "1:2C", False, "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H", "1:5H", False, "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H", "1:draw", True, "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H", "1:pass", False, "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/2C,5H | opt twos_stack=true", "1:2C", True,
     "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/JK,5H | opt twos_stack=true", "1:JK=2S", True,
     "lo-twos"),
    ("lo | up 2H | owe 2 | turn 1 | hands KH/JK,5H | opt twos_stack=true,joker_effects=false",
     "1:JK=2S", False, "lo-twos"),
    # ---- Last One: threes
    ("lo | up 3H | free | turn 1 | hands KH/9C,5C", "1:9C", True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/9C,5H | opt three_free_play=matching", "1:9C",
     False, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/9C,3C | opt three_free_play=matching", "1:3C",
     True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/9C,5C", "1:pass", True, "lo-threes"),
    ("lo | up 3H | free | turn 1 | hands KH/9C,5C", "1:draw", False, "lo-threes"),
    # ---- Last One: the melee
    ("lo | up 4H | hands 8S,KH/5/4S,5H,6H | melee 0>1", "2:5H", True, "lo-melee"),
    ("lo | up 4H | hands 8S,KH/5/4S,5C,6H | melee 0>1", "2:5C", False, "lo-melee"),
    ("lo | up 4H | hands 8S,KH/5/4S,5C,6H | melee 0>1", "2:6H", False, "lo-melee"),
    ("lo | up 4H | hands 5H,KH/5/4S,5C | melee 0>1", "0:5H", False, "lo-melee"),
    ("lo | up 4H | hands 9H,KH/5/4S,5C | melee 0>1", "1:5H", True, "lo-melee"),
    ("lo | up 4H | hands 5H,KH/5/4S,5C | melee 0>1", "1:5H", False, "lo-turn"),
    ("lo | up 4H | hands 5H,KH/5/4S,5C | melee 0>1", "1:draw", True, "lo-melee"),
    ("lo | up 4H | hands 5H,KH/5/4S,5C | melee 0>1", "2:draw", False, "lo-melee"),
    ("lo | up 4H | hands 5H,KH/5/4S,5C | melee 0>1", "1:pass", False, "lo-melee"),
    ("lo | up 4H | hands 5H,KH/5/4S,8C | melee 0>1", "2:8C/H", False, "lo-melee"),
    ("lo | up 7H | hands KH/5/8H | melee 0>1", "2:8H", True, "lo-melee"),
    ("lo | up 7H | hands KH/5/8H | melee 0>1", "2:8H/S", False, "lo-melee"),
    ("lo | up 7H | hands KH/5/8H | melee 0>1 | opt melee_effects=true", "2:8H/S", True,
     "lo-melee"),
    ("lo | up KH | hands 8S/5/AH,5C | melee 0>1", "2:AH", False, "lo-melee"),
    ("lo | up KH | hands 8S/5/AH,5C | melee 0>1 | opt melee_wrap=true", "2:AH", True,
     "lo-melee"),
    ("lo | up 4H | hands 8S/5/JK,2C | melee 0>1", "2:JK=5H", True, "lo-melee"),
    ("lo | up 4H | hands 8S/5/JK,2C | melee 0>1", "2:JK=6H", False, "lo-melee"),
    # ---- Last One: jokers
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK=9C", True, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK=5C", False, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C | opt joker_must_be_legal=false", "1:JK=5C", True,
     "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK", False, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK=8C", False, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C", "1:JK=8C/D", True, "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C | opt joker_effects=false", "1:JK=8C/D", False,
     "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/JK,5C | opt joker_effects=false", "1:JK=8C", True,
     "lo-jokers"),
    ("lo | up 9H | turn 1 | hands 8S/9C,5C", "1:9C=5C", False, "lo-jokers"),
    ("lo | up JK=5C | turn 1 | hands 8S/9C,5D", "1:5D", True, "lo-turn"),
    ("lo | up JK=5C | turn 1 | hands 8S/9H,5D", "1:9H", False, "lo-turn"),
    # ---- Last One: calling "last one"
    ("lo | up 9H | turn 1 | uncalled 0 | hands 8S/5C,6C", "0:call", True, "lo-last-one"),
    ("lo | up 9H | turn 1 | uncalled 0 | hands 8S/5C,6C", "1:call", False, "lo-last-one"),
    ("lo | up 9H | turn 1 | hands 8S/5C,6C", "0:call", False, "lo-last-one"),
    # ---- first upcards (fresh hands): the dealer acts on them
    ("lo | up 8H | fresh | hands KH/5C,6C", "0:name/D", True, "lo-first-upcard"),
    ("lo | up 8H | fresh | hands KH/5C,6C", "1:5C", False, "lo-first-upcard"),
    ("lo | up 8H | fresh | hands KH/5C,6C", "0:name", False, "lo-first-upcard"),
    ("lo | up JK | fresh | hands KH/5C,6C", "0:name=5C", True, "lo-first-upcard"),
    ("lo | up JK | fresh | hands KH/5C,6C", "0:name=8C", False, "lo-first-upcard"),
    ("lo | up 3H | fresh | hands KH/5C,6C", "0:KH", True, "lo-threes"),
    ("lo | up 3H | fresh | hands KH/5C,6C", "1:5C", False, "lo-turn"),
    ("lo | up 2H | fresh | hands KH/5C,6C", "1:5C", False, "lo-twos"),
    ("lo | up 4H | fresh | hands KH/5H,6C,7D", "1:5H", True, "lo-melee"),
    ("lo | up 3H | fresh | hands KH/5C,3C | opt starter_effects=false", "1:3C", True,
     "lo-turn"),
    ("lo | up JK | fresh | hands KH/5C,6C | opt starter_effects=false", "1:6C", True,
     "lo-turn"),
    ("c8 | up 2H | fresh | hands KH,2C,3D,4S,5S,6S,7S/9H,QC,KC,AC,2S,3S,4D "
     "| opt two_draws_two=true", "1:9H", True, "c8-turn"),
    ("c8 | up 2H | fresh | hands KH,2C,3D,4S,5S,6S,7S/9H,QC,KC,AC,2S,3S,4D "
     "| opt two_draws_two=true,starter_effects=true", "1:9H", False, "c8-addons"),
]


@pytest.mark.parametrize(("position", "move", "legal", "rule"), ROWS)
def test_verdict(position: str, move: str, legal: bool | None, rule: str) -> None:
    g = parse_position(position)
    verdict = g.check(Move.parse(move))
    assert (verdict.legal, verdict.rule) == (legal, rule), verdict.reason
    assert verdict.reason and verdict.reason[-1] != "."


def test_every_verdict_cites_a_reference_section() -> None:
    for position, move, _, _ in ROWS:
        g = parse_position(position)
        ids = {anchor for anchor, _ in GAMES[g.variant.game].sections}
        for m in [*g.legal_moves(), Move.parse(move)]:
            assert g.check(m).rule in ids
