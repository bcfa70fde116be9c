"""Verdicts: whether a move is allowed now, why, and which rule says so.

:func:`check` notes a pass the engine already took, then answers by the phase of the
hand (:meth:`.position.Position.phase`): the hand is over, someone owes cards, the
dealer names the starter, a melee is on, or the turn player has a free play (after a
3) or a turn (before or after drawing). The questions themselves are the predicates of
:mod:`.facts`, which the listing asks too; this module puts their answers into words.
A seat acting while another is on turn is judged after that seat's pass, left unsaid,
when the pass written out would be legal: on a copy of the position, and the verdict
lists the pass as ``implied``.

>>> from scorekeeper.core.engine import HandInPlay, Move, Sheet, parse_card
>>> g = HandInPlay.start(Sheet.make("crazy-eights"), 2, 0, ["8S KH", "4H 5C"], "4S")
>>> v = check(g, Move.play(1, parse_card("5C")))
>>> v.legal, v.reason, v.rule
(False, '5♣ does not follow the upcard: play a spade or a 4', 'c8-turn')
"""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.core.cards import JOKER, Card
from scorekeeper.core.engine import effects
from scorekeeper.core.engine.facts import (
    can_draw,
    can_play,
    holds,
    is_two_answer,
    may_call,
    may_continue_melee,
    may_name_for_joker,
    may_play_card,
    may_play_now,
    may_stack,
    melee_next,
    melee_pass,
    melee_rank,
    starter_naming,
    suit_naming,
    turn_choices,
)
from scorekeeper.core.engine.moves import Move, Verdict
from scorekeeper.core.engine.position import Position
from scorekeeper.core.engine.wording import (
    article,
    check_draw_card,
    draw_reason,
    follow_text,
    forced_reason,
    not_held,
    pass_reason,
)

__all__ = ["article", "check"]


def check(g: Position, move: Move) -> Verdict:
    """The verdict on ``move`` in position ``g`` (which it never changes): a pass the
    engine already took, a seat that is not at the table and a call come first, then
    the check of the hand's phase (:meth:`.position.Position.phase`, which the listing
    reads too)."""
    rule = g.variant.rule
    p = move.player
    if move.kind == "pass" and p in g.forced:
        return Verdict(True, f"{g.seat_name(p)} had nothing left but the pass, which the "
                       "turn already took: the pass is noted", rule[forced_reason(g, p)[1]])
    phase = g.phase()
    if phase == "over":
        return Verdict(False, "the hand is over", rule["out"], "over")
    if not isinstance(p, int) or not 0 <= p < g.players:
        return Verdict(False, f"there is no seat {p!r} at this table", rule["turn"], "turn")
    if move.kind == "call":
        return _check_call(g, p)
    return _CHECKS[phase](g, move)


def _check_other_seat(g: Position, move: Move) -> Verdict:
    """A seat acting while another is on turn: the turn seat's pass, left unsaid, is
    judged as the written one (:func:`check` on it); when it is legal, the move is
    judged on a copy of the position after that pass. Passes chain seat by seat; the
    chain ends because each pass either ends a turn that began with a draw or a free
    play, or comes from a seat that can neither play nor draw (counted towards a jam)."""
    seat = g.turn
    passing = check(g, g.variant.moves.passes[seat])
    if passing.legal is False:
        return _wrong_turn(g, move.player)
    after_pass = g.copy()
    effects.unsaid_pass(after_pass, seat)
    after = check(after_pass, move)
    if after.cause == "turn" and not after.implied and after.legal is False:
        return _wrong_turn(g, move.player)
    implied = (seat, *after.implied)
    if passing.legal is None and after.legal is True:
        could = "could not play" if passing.assumed else "could pass"
        return after.but(legal=None, reason=f"{after.reason} (assuming {g.seat_name(seat)} "
                         f"{could})", implied=implied,
                         assumed=(*passing.assumed, *after.assumed))
    return after.but(implied=implied)


def _wrong_turn(g: Position, p: int) -> Verdict:
    """Not this seat's turn; when the turn seat is in the middle of drawing, say so and
    cite drawing; when this seat's own turn passed because a pass was all it had
    left, say that."""
    v, turn = g.variant, g.turn
    on_turn, who = g.seat_name(turn), g.seat_name(p)
    head = f"it is {on_turn}'s turn, not {who}'s"
    if p in g.forced:
        why, kind = forced_reason(g, p)
        return Verdict(False, f"{why}, so with nothing left but the pass the turn moved "
                       f"on ({head})", v.rule[kind], "turn")
    if g.free_play or g.melee is not None:
        return Verdict(False, head, v.rule["turn"], "turn")
    playable = can_play(g, turn)
    if g.drawn:
        left = "play or pass" if playable and may_play_now(g) else "draw again"
        return Verdict(False, f"{head}: {on_turn} has drawn and may still {left}",
                       v.rule["draw"], "turn")
    if playable is False and can_draw(g):
        return Verdict(False, f"{head}: {on_turn} cannot play and must draw",
                       v.rule["draw"], "turn")
    return Verdict(False, head, v.rule["turn"], "turn")


def _check_call(g: Position, p: int) -> Verdict:
    rule = g.variant.rule["call"]
    allowed, why = may_call(g, p)
    who = g.seat_name(p)
    if why == "no-call":
        return Verdict(False, "this sheet has no last-card call", rule)
    if why == "not-one":
        n = g.hand_size(p)
        return Verdict(False, f"{who} holds {n} cards; the call is made with one", rule)
    if not allowed:
        return Verdict(False, f"{who} has no call to make now", rule)
    return Verdict(True, f"{who} calls with one card left", rule)


def _check_debt(g: Position, move: Move) -> Verdict:
    seat, left, reason, _ = g.debts[0]
    rule = g.variant.rule["call" if reason == "penalty" else reason]
    owed = f"{g.seat_name(seat)} owes {left} card{'s' if left > 1 else ''}"
    if move.player != seat:
        return Verdict(False, f"{owed} and draws first", rule, "turn")
    if move.kind == "draw":
        return check_draw_card(g, move, Verdict(True, f"{owed} and draws one", rule,
                                                draws=left))
    stacks, why = may_stack(g)
    if move.kind == "play" and stacks:
        return _check_stack(g, move, owed, rule)
    if move.kind == "play" and why == "no-stacking":
        return Verdict(False, f"{owed}: 2s do not stack under this sheet, so draw", rule)
    return Verdict(False, f"{owed} and must draw", rule)


def _check_stack(g: Position, move: Move, owed: str, rule: str) -> Verdict:
    c = move.card
    if c is None:
        return Verdict(False, "say which card is played", rule)
    if not is_two_answer(g, c, move.as_card) or move.suit is not None:
        return Verdict(False, f"{owed}: the only answer is a 2, which passes the draw on", rule)
    if not holds(g, move.player, c):
        return not_held(g, move.player, c)
    return Verdict(True, "a 2 passes the draw on, increased by two", rule)


def _check_naming(g: Position, move: Move) -> Verdict:
    rule, dealer = g.variant.rule["starter"], g.dealer
    if move.player != dealer:
        return Verdict(False, f"the dealer ({g.seat_name(dealer)}) first names the starter",
                       rule, "turn")
    if move.kind != "name":
        return Verdict(False, "the dealer first names the suit or card of the starter", rule)
    if g.upcard.is_joker:
        if move.as_card is None or move.as_card.is_joker:
            return Verdict(False, "name the card the starting joker stands for", rule)
        naming = starter_naming(g, move.as_card)
    else:
        if move.as_card is not None:
            return Verdict(False, "only a joker stands for a named card", rule)
        naming = "needed"
    bad = _suit_verdict(move, naming, rule)
    return bad if bad is not None else Verdict(True, "the dealer names the starter", rule)


def _suit_verdict(move: Move, naming: str, rule: str) -> Verdict | None:
    """Refuse a missing or needless named suit (see :func:`.facts.suit_naming`); None
    when the move is consistent."""
    if naming == "needed" and move.suit is None:
        return Verdict(False, "name a suit with this card", rule, needs_suit=True)
    if naming == "none" and move.suit is not None:
        return Verdict(False, "this card names no suit here", rule)
    return None


def _check_melee(g: Position, move: Move) -> Verdict:
    defender = g.melee.defender  # type: ignore[union-attr]
    rule, p = g.variant.rule["melee"], move.player
    if move.kind == "play":
        return _check_melee_play(g, move, rule)
    if p != defender:
        return Verdict(False, f"in the melee only the defender ({g.seat_name(defender)}) "
                       "draws; others may only continue it", rule, "turn")
    if move.kind == "draw":
        value = g.variant.melee_value(melee_rank(g))
        ok = Verdict(True, f"{g.seat_name(p)} ends the melee and draws {value}", rule,
                     draws=value)
        return check_draw_card(g, move, ok)
    if move.kind == "pass" and melee_pass(g):
        return Verdict(True, "nothing is left to draw: the melee ends", rule)
    return Verdict(False, "the defender continues the melee or draws", rule)


def _check_melee_play(g: Position, move: Move, rule: str) -> Verdict:
    p, c, nxt = move.player, move.card, melee_next(g)
    allowed, why = may_continue_melee(g, p, nxt)
    if why == "aggressor":
        return Verdict(False, f"{g.seat_name(p)} is the aggressor and cannot continue the "
                       "melee", rule, "turn")
    if not allowed or nxt is None:
        return Verdict(False, "the run stops at the king: the defender draws", rule)
    if c is None:
        return Verdict(False, "say which card is played", rule)
    named = move.as_card if c.is_joker else c
    if named != nxt or (move.as_card is not None and not c.is_joker):
        return Verdict(False, f"only {nxt.pretty} continues the melee", rule)
    naming = suit_naming(g, p, nxt, c.is_joker, True)
    settled = _named_held_or_out(g, move, c, nxt, naming, rule, rule)
    if settled is not None:
        return settled
    return Verdict(True, f"{c.pretty} continues the melee; {g.seat_name(p)} is the aggressor",
                   rule)


def _check_free_play(g: Position, move: Move) -> Verdict:
    """The turn seat's free card on a 3, or its pass declining it."""
    if move.player != g.turn:
        return _check_other_seat(g, move)
    rule = g.variant.rule["three"]
    if move.kind == "pass":
        return Verdict(True, "declining the free play ends the turn", rule)
    if move.kind == "play":
        return _check_play(g, move, free=True)
    return Verdict(False, "after a 3, put a free card on it or decline (pass)", rule)


def _check_turn(g: Position, move: Move) -> Verdict:
    """The turn seat's play, naming, draw or pass, before or after drawing this turn,
    as :func:`.facts.turn_choices` answers."""
    v, p, kind = g.variant, move.player, move.kind
    if p != g.turn:
        return _check_other_seat(g, move)
    playable = can_play(g, p) if kind in ("draw", "pass") else None
    may_play, name_first, draw, pass_ = turn_choices(g, playable)
    if kind == "play":
        if not may_play:
            return Verdict(False, f"{g.seat_name(p)} has drawn this turn, and under this "
                           "sheet a player who draws may not also play", v.rule["draw"])
        return _check_play(g, move)
    if kind == "name" and name_first:
        return _check_open_suit(g, move)
    if kind not in ("draw", "pass"):
        return Verdict(False, "play a card, draw or pass", v.rule["turn"])
    if name_first:
        return Verdict(False, f"{g.seat_name(p)} first names the suit to follow on the "
                       "starter, then plays or draws", v.rule["eight"])
    if kind == "draw":
        allowed, why = draw
        verdict = Verdict(allowed, draw_reason(g, p, why), v.rule[
            "stock" if why == "empty" else "draw"], draws=1,
            assumed=(p,) if allowed is None else ())
        return verdict if allowed is False else check_draw_card(g, move, verdict)
    allowed, why = pass_
    return Verdict(allowed, pass_reason(g, p, why, draw[0]),
                   v.rule["stock" if why == "stuck" else "draw"],
                   assumed=(p,) if why == "unsure-stuck" else ())


def _check_open_suit(g: Position, move: Move) -> Verdict:
    """Crazy Eights' starter 8 (a Countdown player's own wild rank): the first player
    names the suit before playing, so may then draw when holding none of it."""
    rule = g.variant.rule["eight"]
    if move.suit is None or move.as_card is not None:
        return Verdict(False, "name a suit, and only a suit, for the starter", rule)
    return Verdict(True, f"{g.seat_name(move.player)} names {move.suit.label} for the "
                   "starter", rule)


def _check_play(g: Position, move: Move, free: bool = False) -> Verdict:
    """A play on the turn player's own turn (``free``: the free card after a 3)."""
    v, p, c = g.variant, move.player, move.card
    if c is None:
        return Verdict(False, "say which card is played", v.rule["turn"])
    if c.is_joker:
        return _check_joker(g, move, free)
    if move.as_card is not None:
        return Verdict(False, "only a joker stands for a named card", v.rule["joker"])
    if not may_play_card(g, c, p, free):
        rule = v.rule["turn" if g.rank_open or g.active_suit is None else "eight"]
        if free:
            rule = v.rule["three"]
        return Verdict(False, f"{c.pretty} does not follow the upcard: {follow_text(g)}",
                       rule)
    naming = suit_naming(g, p, c, False, False)
    settled = _named_held_or_out(g, move, c, c, naming, v.rule["eight"], v.rule["out"])
    if settled is not None:
        return settled
    if free:
        return Verdict(True, f"{c.pretty} is the free card on the 3", v.rule["three"])
    if naming == "needed":
        return Verdict(True, f"{c.pretty} is wild: always playable", v.rule["eight"])
    return Verdict(True, f"{c.pretty} follows the upcard", v.rule["turn"])


def _named_held_or_out(g: Position, move: Move, c: Card, named: Card, naming: str,
                       suit_rule: str, out_rule: str) -> Verdict | None:
    """What every play of a card that may name a suit settles the same way: a card the
    seat does not hold, a missing or needless suit (under ``suit_rule``), and going out
    on a wild (no suit needed, under ``out_rule``). None when the play goes on to its
    own verdict."""
    if not holds(g, move.player, c):
        return not_held(g, move.player, c)
    bad = _suit_verdict(move, naming, suit_rule)
    if bad is not None:
        return bad
    if naming == "free":
        return _going_out(g, move.player, c, named, out_rule)
    return None


def _going_out(g: Position, p: int, c: Card, named: Card, rule: str) -> Verdict:
    """A wild (or a joker named as one) played as the seat's last card."""
    card = c.pretty if c == named else f"joker as the {named.pretty}"
    return Verdict(True, f"{g.seat_name(p)} goes out on the {card}: no suit is needed",
                   rule)


def _check_joker(g: Position, move: Move, free: bool) -> Verdict:
    v, p, named = g.variant, move.player, move.as_card
    rule = v.rule["joker"]
    if named is None or named.is_joker:
        return Verdict(False, "name the card the joker stands for", rule)
    if not may_name_for_joker(g, named, p, free):
        return Verdict(False, f"the joker cannot stand for {named.pretty}: that card could "
                       f"not be played now ({follow_text(g)})", rule)
    naming = suit_naming(g, p, named, True, False)
    settled = _named_held_or_out(g, move, JOKER, named, naming, rule, v.rule["out"])
    if settled is not None:
        return settled
    return Verdict(True, f"the joker stands for {named.pretty}", rule)


_CHECKS: dict[str, Callable[[Position, Move], Verdict]] = {
    "debt": _check_debt, "naming": _check_naming, "melee": _check_melee,
    "free": _check_free_play, "turn": _check_turn}
