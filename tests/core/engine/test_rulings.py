"""Three rulings from the rule sheets ("Drawing, precisely"), as position → verdict rows
under every drawing option (draw_limit 1, 3, none × play_after_draw × draw_with_playable)
and every game they apply to.

1. A position that *starts* with the seat on turn left nothing but the pass (nothing to
   draw, nothing it may play) has passed, as it would after a move: the turn has moved
   on, and the pass written out is still accepted.
2. Last One, a 3's free play under ``three_free_play: matching`` with nothing in hand
   that matches: the pass is all that is left, so the turn moves on (a 3 just played,
   and the dealer's starting 3).
3. A pass the table left unsaid is judged as the written one: after a one-card draw
   nobody saw, the seat may pass (declining a playable card or having nothing to play),
   so the next seat's play is legal, not "cannot tell".
"""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.core.engine import Move, parse_position

GAMES = ("lo", "c8", "cd")
DECK = {"lo": 54, "c8": 52, "cd": 52}
COMBOS = list(itertools.product([1, 3, None], [True, False], [True, False]))


def opts(limit: int | None, after: bool, with_playable: bool, extra: str = "") -> str:
    return (f"opt draw_limit={'null' if limit is None else limit},"
            f"play_after_draw={str(after).lower()},"
            f"draw_with_playable={str(with_playable).lower()}{extra}")


def every(games: tuple[str, ...]) -> list:
    return [pytest.param(game, combo, id=f"{game}-{combo}")
            for game in games for combo in COMBOS]


# 1. Up 9♥, nothing left to draw (stock and pile empty); seat 1 holds 6♣ K♦ (nothing
#    plays on the 9♥); seat 2 holds every other card.
@pytest.mark.parametrize(("game", "combo"), every(GAMES))
def test_a_starting_position_with_only_the_pass_left_has_passed(game, combo):
    rest = DECK[game] - 3
    g = parse_position(f"{game} | up 9H | turn 1 | hands 0,KS/6C,KD/{rest - 1} | stock 0 "
                       f"| pile 0 | {opts(*combo)}".replace("0,KS", "KS"))
    assert g.forced == (1,) and g.current_player == 2
    assert g.passes_taken == ((1, "empty"),)
    assert all(m.player != 1 for m in g.legal_moves())
    noted = g.check(Move.parse("1:pass"))
    assert noted.legal is True and noted.rule == f"{game}-empty-stock".replace(
        "cd-empty-stock", "cd-drawing")
    drew = g.check(Move.parse("1:draw"))
    assert (drew.legal, drew.cause) == (False, "turn")
    assert "nothing left but the pass" in drew.reason


# 2. Up 3♥, seat 1's free play may only be a heart or a 3 (matching): with 9♣ K♦ the
#    pass is all it has; with 5♥ it still has a choice.
@pytest.mark.parametrize(("game", "combo"), every(("lo",)))
@pytest.mark.parametrize(("hand", "moved_on"), [("9C,KD", True), ("9C,5H", False)])
def test_a_free_play_with_nothing_that_matches_has_passed(game, combo, hand, moved_on):
    matching = ",three_free_play=\"matching\""
    g = parse_position(f"lo | up 3H | free | turn 1 | hands 5/{hand}/5 "
                       f"| {opts(*combo, matching)}")
    assert g.forced == ((1,) if moved_on else ())
    assert g.passes_taken == (((1, "three"),) if moved_on else ())
    assert g.current_player == (2 if moved_on else 1)
    noted = g.check(Move.parse("1:pass"))
    assert noted.legal is True and noted.rule == "lo-threes"  # taken or written: the 3's rule
    later = g.check(Move.parse("2:draw"))
    assert later.legal is not False and later.implied == (() if moved_on else (1,))


@pytest.mark.parametrize(("game", "combo"), every(("lo",)))
@pytest.mark.parametrize(("free_play", "moved_on"), [("matching", True), ("any", False)])
def test_the_dealers_starting_3_with_nothing_that_matches(game, combo, free_play, moved_on):
    g = parse_position(f"lo | up 3H | fresh | hands 9C,KD/5/5 "
                       f"| {opts(*combo, f',three_free_play={chr(34)}{free_play}{chr(34)}')}")
    assert g.forced == ((0,) if moved_on else ())
    assert g.current_player == (1 if moved_on else 0)


# 3. Up 9♥, one-card drawing; seat 1 has drawn one card nobody saw (6♣ K♦ and that
#    card); seat 2 then plays 5♥.
@pytest.mark.parametrize(("game", "combo"),
                         [p for p in every(GAMES) if p.values[1][0] == 1])
def test_an_unsaid_pass_after_an_unseen_draw_is_judged_as_the_written_one(game, combo):
    g = parse_position(f"{game} | up 9H | turn 1 | hands 5/6C,KD,1/5H,QS | drawn 1 "
                       f"| {opts(*combo)}")
    written = g.check(Move.parse("1:pass"))
    unsaid = g.check(Move.parse("2:5H"))
    assert written.legal is True and unsaid.legal is True, (written, unsaid)
    assert "assuming" not in unsaid.reason and unsaid.assumed == ()
    # With play_after_draw off seat 1 may not play the card it drew: the position
    # starts with its pass taken; with it on, seat 2's play takes the pass as said.
    assert unsaid.implied == ((1,) if combo[1] else ())
    assert g.forced == (() if combo[1] else (1,))
