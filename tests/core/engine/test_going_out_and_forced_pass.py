"""Position → verdict tables: going out on a wild needs no suit, and a turn with nothing
left but the pass has passed.

Going out: an 8 (Crazy Eights, Last One), a joker standing for an 8 (Last One) and a
Countdown player's own wild rank, played as the last card, with and without a named
suit; the same cards with another card still held need the suit. The forced pass: a
seat draws at 2 and 4 players under every ``play_after_draw`` × ``draw_limit``
combination (and ``draw_with_playable`` both ways); when it has nothing left but the
pass, the turn moves on, and the pass written out afterwards is still accepted.
"""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.core.engine import Move, parse_position, run
from scorekeeper.core.sheets import Sheet

NO_SUIT = "no suit is needed"

GOING_OUT = [
    # game, hand of seat 1, move, legal, rule, words in the reason
    ("c8", "8S", "1:8S", True, "c8-going-out", "seat 1 goes out on the 8♠: " + NO_SUIT),
    ("c8", "8S", "1:8S/D", True, "c8-going-out", NO_SUIT),
    ("c8", "8S,KD", "1:8S", False, "c8-eights", "name a suit with this card"),
    ("c8", "8S,KD", "1:8S/D", True, "c8-eights", "wild"),
    ("lo", "8S", "1:8S", True, "lo-going-out", "seat 1 goes out on the 8♠: " + NO_SUIT),
    ("lo", "8S", "1:8S/C", True, "lo-going-out", NO_SUIT),
    ("lo", "8S,KD", "1:8S", False, "lo-eights", "name a suit with this card"),
    ("lo", "JK", "1:JK=8C", True, "lo-going-out", "goes out on the joker as the 8♣: " + NO_SUIT),
    ("lo", "JK", "1:JK=8C/D", True, "lo-going-out", NO_SUIT),
    ("lo", "JK", "1:JK", False, "lo-jokers", "name the card the joker stands for"),
    ("lo", "JK,KD", "1:JK=8C", False, "lo-jokers", "name a suit with this card"),
    ("lo", "JK", "1:JK=9C", True, "lo-jokers", "stands for 9♣"),
    # Countdown: seat 1's count is 3, so its 3s are wild and its 8s are not
    ("cd", "3S", "1:3S", True, "cd-going-out", "seat 1 goes out on the 3♠: " + NO_SUIT),
    ("cd", "3S", "1:3S/H", True, "cd-going-out", NO_SUIT),
    ("cd", "3S,KD", "1:3S", False, "cd-wild", "name a suit with this card"),
    ("cd", "8S", "1:8S", False, "cd-turn", "does not follow"),
    ("cd", "8S", "1:8S/H", False, "cd-turn", "does not follow"),
]


@pytest.mark.parametrize(("game", "hand", "move", "legal", "rule", "words"), GOING_OUT)
def test_going_out_on_a_wild(game, hand, move, legal, rule, words):
    counts = " | counts 8,3" if game == "cd" else ""
    g = parse_position(f"{game} | up 9H | turn 1 | hands 5/{hand}{counts}")
    key = g.state_key()
    v = g.check(Move.parse(move))
    assert (v.legal, v.rule) == (legal, rule) and words in v.reason, v
    assert g.state_key() == key
    if legal and "," not in hand:
        g.apply(Move.parse(move))
        assert g.is_over and g.outcome().result == "out" and g.outcome().winner == 1


@pytest.mark.parametrize("written", ["1:8H", "1:8H/S"])
def test_going_out_on_an_eight_that_ends_a_melee(written):
    """With melee_effects an 8 continuing a melee names a suit, unless it goes out."""
    g = parse_position("lo | up 7H | hands KS,2/4/8H/5 | melee 0>1 | opt melee_effects=true")
    written = written.replace("1:", "2:")
    v = g.check(Move.parse(written))
    assert v.legal is True and NO_SUIT in v.reason and v.rule == "lo-melee"


def test_going_out_on_an_eight_is_listed_with_and_without_a_suit():
    g = parse_position("c8 | up 9H | turn 1 | hands 5/8S")
    assert [str(m) for m in g.legal_moves()] == ["1:8S", "1:8S/C", "1:8S/D", "1:8S/H",
                                                 "1:8S/S"]


# The forced pass. Up 9♥; seat 1 holds K♦ 6♣ (nothing to play) and draws the stock's
# top card: 7♣ (still nothing) or 5♥ (playable).
def moves_on(drew: str, after: bool, limit: int | None, with_playable: bool) -> bool:
    """Whether seat 1 has nothing left but the pass after drawing ``drew``."""
    more = limit is None or limit > 1  # the limit allows another draw
    if drew == "7C":
        return not more
    if after:
        return False  # it may play the 5♥
    return not (more and with_playable)


COMBOS = list(itertools.product(["lo", "c8", "cd"], [2, 4], ["7C", "5H"], [True, False],
                                [1, 2, None], [True, False]))


@pytest.mark.parametrize(("game", "players", "drew", "after", "limit", "with_playable"),
                         COMBOS)
def test_the_turn_moves_on_when_only_the_pass_is_left(game, players, drew, after, limit,
                                                      with_playable):
    others = "/".join(["KS,QS,JS", "KC,QC,JC"][:players - 2])
    hands = f"4/KD,6C{'/' + others if others else ''}"
    opts = (f"draw_limit={'null' if limit is None else limit},"
            f"play_after_draw={str(after).lower()},"
            f"draw_with_playable={str(with_playable).lower()}")
    g = parse_position(f"{game} | up 9H | turn 1 | hands {hands} | stock {drew},7D,6D "
                       f"| opt {opts}")
    g.apply(Move.parse("1:draw"))
    expected = moves_on(drew, after, limit, with_playable)
    nxt = 2 % players
    assert g.current_player == (nxt if expected else 1)
    assert g.forced == ((1,) if expected else ())
    # Why, kept with the pass: it may not play after drawing, or drew its last allowed card.
    why = "limit" if after else "drawn"
    assert g.passes_taken == (((1, why),) if expected else ())
    if expected:
        late = g.check(Move.parse("1:draw"))
        words = "the most cards this sheet allows" if after else "may not also play"
        assert late.legal is False and words in late.reason and late.rule.endswith("drawing")
    if expected:  # the pass written out is still accepted, and changes nothing else
        key = g.state_key()
        v = g.apply(Move.parse("1:pass"))
        assert v.legal is True and g.current_player == nxt and g.forced == ()
        assert g.state_key()[:-1] == key[:-1]
        g.undo()
        assert g.state_key() == key
        g.undo()
        assert g.current_player == 1 and g.forced == ()


def test_the_table_case_two_players_last_one():
    """Last One, two players, dealer 1: seat 0 plays A♥, seat 1 draws 2♣ (no play
    after a draw by default): it is seat 0's turn."""
    result = run({"sheet": Sheet.make("last-one").to_dict(), "players": 2, "dealer": 1,
                  "hands": [["AH", "5H", "6C"], ["KD", "QD"]], "upcard": "9H",
                  "stock": ["2C", "7S", "8D"],
                  "events": [{"player": 0, "play": "AH"}, {"player": 1, "draw": "2C"}]})
    assert result["ok"] and result["state"]["current_player"] == 0
    written = run({"sheet": Sheet.make("last-one").to_dict(), "players": 2, "dealer": 1,
                   "hands": [["AH", "5H", "6C"], ["KD", "QD"]], "upcard": "9H",
                   "stock": ["2C", "7S", "8D"],
                   "events": [{"player": 0, "play": "AH"}, {"player": 1, "draw": "2C"},
                              {"player": 1, "pass": True}, {"player": 0, "play": "5H"}]})
    assert written["ok"] and all(step["legal"] for step in written["steps"])
