"""the rules reference "Drawing, precisely", bullet by bullet: position → verdict tables for every
game and every combination of draw_limit (1, 3, none), play_after_draw and
draw_with_playable, plus the unsaid pass, the declined 3 and ``refill`` both ways.

Positions use cards with no effect in any game (9♥ up; 5♥ plays on it, K♦ and 6♣ do
not), so one table serves Last One, Crazy Eights and Countdown. ``drawn N`` says the
seat on turn has drawn N cards this turn (the last of its cards listed).
"""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.core.engine import Move, parse_card, parse_position

GAMES = {"lo": "lo-drawing", "c8": "c8-drawing", "cd": "cd-drawing"}
DECK = {"lo": 54, "c8": 52, "cd": 52}
COMBOS = list(itertools.product([1, 3, None], [True, False], [True, False]))


def opts(limit: int | None, after: bool, with_playable: bool) -> str:
    return (f"opt draw_limit={'null' if limit is None else limit},"
            f"play_after_draw={str(after).lower()},draw_with_playable={str(with_playable).lower()}")


def judge(game: str, rest: str, combo: tuple, move: str):
    g = parse_position(f"{game} | up 9H | turn 1 | {rest} | {opts(*combo)}")
    return g.check(Move.parse(move))


def cases(expect) -> list:
    """Every game × option combination, with the verdict ``expect(limit, after, with)``."""
    return [pytest.param(game, combo, expect(*combo), id=f"{game}-{combo}")
            for game in GAMES for combo in COMBOS]


# 1. Having drawn, a player holding a playable card may play ANY playable card (not only
#    the one drawn) when play_after_draw is on; otherwise no play after drawing.
@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: after))
def test_after_drawing_any_playable_card_may_be_played(game, combo, legal):
    v = judge(game, "hands 5/5H,KD | drawn 1", combo, "1:5H")
    assert v.legal is legal
    if not legal:
        assert v.rule == GAMES[game] and "drawn" in v.reason


# 2. With draw_with_playable on, a player may draw again while holding a playable card,
#    within the limit and the stock; with it off, drawing stops once a card can be played.
@pytest.mark.parametrize(("game", "combo", "legal"),
                         cases(lambda lim, after, dwp: dwp and lim != 1))
def test_drawing_again_while_holding_a_playable_card(game, combo, legal):
    v = judge(game, "hands 5/5H,KD | drawn 1", combo, "1:draw")
    assert v.legal is legal and v.rule == GAMES[game]


@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: dwp))
def test_drawing_instead_of_playing(game, combo, legal):
    v = judge(game, "hands 5/5H,KD", combo, "1:draw")
    assert v.legal is legal and v.rule == GAMES[game]


@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: lim != 1))
def test_drawing_again_with_nothing_playable_up_to_the_limit(game, combo, legal):
    v = judge(game, "hands 5/6C,KD | drawn 1", combo, "1:draw")
    assert v.legal is legal and v.rule == GAMES[game]
    if not legal:
        assert "the most this sheet allows" in v.reason


# 3. A player who has drawn and holds a playable card may decline it and pass. One who
#    holds no playable card may not pass while they can still draw.
@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: True))
def test_declining_a_playable_card_after_drawing(game, combo, legal):
    v = judge(game, "hands 5/5H,KD | drawn 1", combo, "1:pass")
    assert v.legal is legal and v.rule == GAMES[game]


@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: lim == 1))
def test_no_pass_while_a_player_who_cannot_play_may_still_draw(game, combo, legal):
    v = judge(game, "hands 5/6C,KD | drawn 1", combo, "1:pass")
    assert v.legal is legal and v.rule == GAMES[game]


@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: False))
def test_no_pass_before_drawing_while_cards_can_be_drawn(game, combo, legal):
    v = judge(game, "hands 5/6C,KD", combo, "1:pass")
    assert v.legal is legal and v.rule == GAMES[game]


# 4. When the player can neither play nor draw again, the turn ends with their pass,
#    said or not: the next seat acting takes it as said.
@pytest.mark.parametrize(("game", "combo", "legal"), cases(lambda lim, after, dwp: lim == 1))
def test_the_unsaid_pass_after_the_last_draw(game, combo, legal):
    g = parse_position(f"{game} | up 9H | turn 1 | hands 5H,QS/6C,KD/5 | drawn 1 "
                       f"| {opts(*combo)}")
    v = g.check(Move.parse("2:draw"))
    assert (v.legal is not False) is legal
    if legal:
        assert v.implied == (1,) and g.legal_moves() == [Move.pass_(1)]
        g.apply(Move.parse("2:draw"))
        # Seat 2 drew its one card; barred from playing after a draw, it has only the
        # pass left, so the turn moves on to seat 0.
        assert g.hand_size(2) == 6 and g.turn == (2 if combo[1] else 0)
    else:
        assert v.cause == "turn" and v.rule == GAMES[game]


# Holding a playable card after drawing, the seat may still play it (play_after_draw)
# or draw again (draw_with_playable, below the limit): then the pass is a choice, not
# the only thing left, and the next seat acting is out of turn.
@pytest.mark.parametrize(("game", "combo", "implied"), cases(
    lambda lim, after, dwp: not after and (lim == 1 or not dwp)))
def test_the_pass_is_not_taken_while_the_seat_still_has_a_choice(game, combo, implied):
    g = parse_position(f"{game} | up 9H | turn 1 | hands 5H,QS/6C,9D/5 | drawn 1 "
                       f"| {opts(*combo)}")
    v = g.check(Move.parse("2:draw"))
    assert (v.legal is not False) is implied
    assert (Move.pass_(1) in g.legal_moves()) and v.implied == ((1,) if implied else ())


@pytest.mark.parametrize("written", [True, False])
@pytest.mark.parametrize("position", [
    "lo | up 3H | free | turn 1 | hands 5/KD,QS/5H,2",          # a 3 just played
    "lo | up 3H | fresh | hands KD,QS/5H,2/5",                  # the dealer's starting 3
])
def test_a_declined_free_play_on_a_3(position, written):
    g = parse_position(position)
    three = g.turn
    nxt = g.next_seat(three)
    if written:
        assert g.apply(Move.pass_(three)).legal is True
    v = g.apply(Move.parse(f"{nxt}:5H"))
    assert v.legal is True and v.implied == (() if written else (three,))
    assert not g.free_play


# 5. With nothing left to draw, only a player who cannot play passes.
@pytest.mark.parametrize(("game", "combo"), [(g, c) for g in GAMES for c in COMBOS])
@pytest.mark.parametrize(("hand", "legal"), [("5H,KD", False), ("6C,KD", True)])
def test_with_nothing_to_draw_only_a_player_who_cannot_play_passes(game, combo, hand, legal):
    unseen = DECK[game] - 3
    v = judge(game, f"hands {unseen}/{hand} | stock 0 | pile 0", combo, "1:pass")
    assert v.legal is legal


# 6. Crazy Eights and Countdown turn the pile over in order (the next card is known);
#    with refill "shuffle", or in Last One, any unseen card may come next.
@pytest.mark.parametrize(("game", "refill", "bottom", "other"), [
    ("c8", "turn", True, False), ("c8", "shuffle", True, True),
    ("cd", "turn", True, False), ("cd", "shuffle", True, True),
    ("lo", None, True, True),
])
def test_refill(game, refill, bottom, other):
    unseen = DECK[game] - 5
    opt = f" | opt refill=\"{refill}\"" if refill else ""
    # the pile under the 9♥, nearest first: 2♣ then 3♣ (the first card played on it)
    g = parse_position(f"{game} | up 9H | turn 1 | hands {unseen}/6C,KD | stock 0 "
                       f"| pile 2C,3C{opt}")
    assert (g.check(Move.parse("1:draw:3C")).legal is True) is bottom
    assert (g.check(Move.parse("1:draw:2C")).legal is True) is other
    g.apply(Move.parse("1:draw:3C"))
    assert len(g.stock) == 1 and len(g.pile) == 1
    if refill == "turn":
        assert g.stock == [parse_card("2C")]


def test_refill_happens_as_the_stock_runs_out():
    g = parse_position("c8 | up 9H | turn 1 | hands 46/6C,KD | stock 4S | pile 2C,3C "
                       "| opt draw_limit=2,draw_with_playable=true")
    g.apply(Move.parse("1:draw:4S"))
    assert [str(c) for c in reversed(g.stock)] == ["3C", "2C"] and len(g.pile) == 1
