"""What a legal move does: cards move, effects fire, the turn passes on.

:func:`apply` assumes :func:`.verdicts.check` has accepted the move. A missed
"last one"/"last card" call becomes due when another player plays or draws; the
penalty is then drawn first, before play goes on (or before scoring, if that move
ended the hand); drawing a penalty is not such an action. Owed cards nobody can draw
(stock and pile exhausted) are forgiven. A draw never ends the turn by itself: the
player then plays, draws again or passes (the rules reference "Drawing, precisely"); a pass left
unsaid is taken by :func:`.verdicts.check` when the next seat acts; when the engine
knows the seat on turn may do nothing but pass, it takes that pass itself
(:func:`forced_pass`) and the turn moves on (the seat is kept in ``passes_taken``, with
why, until the next play or draw, so the pass written out is still accepted). The game asks
:func:`.facts.only_pass_left` after each move and of the position it starts from.

``game.debts`` is replaced, never changed in place, so a copy of the position
(:meth:`.position.Position.copy`) can share it.

>>> from scorekeeper.core.engine import HandInPlay, Move, Sheet, parse_card
>>> g = HandInPlay.start(Sheet.make("last-one"), 3, 0, [["8S"], ["2H", "5C"], 5], "4H",
...                situation={"turn": 1})
>>> apply(g, Move.play(1, parse_card("2H"))); g.debts
[Debt(seat=2, left=2, reason='two', total=2)]
"""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.core.cards import Card
from scorekeeper.core.engine.facts import (
    can_draw,
    effect_of,
    is_stuck,
    melee_rank,
    refill_order,
)
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Debt, Melee, Position

__all__ = ["apply", "begin", "forced_pass", "unsaid_pass"]


def begin(game: Position) -> None:
    """Start a fresh hand: the seat left of the dealer plays first, and the upcard
    acts as if the dealer had played it when ``starter_effects`` says so.

    Choices: in Crazy Eights (and Countdown, with the first player's wild rank) a
    starting 8 lets the first player play any card, naming its suit by playing it,
    or name a suit first (a ``name`` move), which a draw or pass needs.
    In Last One with starter effects off, a starting joker lets any card follow.
    """
    v, up, dealer = game.variant, game.upcard, game.dealer
    first = game.next_seat(dealer)
    _start_turn(game, first)
    if v.info.dealer_plays_starter:
        if not v.starter_effects:
            if up.is_joker:
                game.active_suit, game.rank_open = None, False
            return
        if up.is_joker or up.rank is game.wild[dealer]:
            game.naming = True
            return
        _card_effect(game, dealer, v.effects.get(up.rank))
        return
    if up.rank is game.wild[first]:
        game.active_suit, game.rank_open = None, False
    elif v.starter_effects:
        _card_effect(game, dealer, v.effects.get(up.rank))


def apply(game: Position, move: Move) -> None:
    """Carry out an accepted move, with the call penalty it makes due, then settle
    debts and the blocked/jammed check. The passes that are all the seats on turn
    then have left are the caller's to take (:func:`forced_pass`)."""
    kind = move.kind
    if game.passes_taken:  # rarely: only just after the engine took a pass
        if kind == "pass" and move.player in game.forced:
            _noted(game, move.player)  # a pass the engine already took, written out
            return
        if kind != "call":
            game.passes_taken = ()
    prev = game.uncalled
    due = (prev >= 0 and prev != move.player and kind in ("play", "draw")
           and not (game.debts and game.debts[0].reason == "penalty"))
    if due:
        game.uncalled = -1
    _HANDLERS[kind](game, move)
    if due:
        n = game.variant.last_card_penalty
        game.debts = [Debt(prev, n, "penalty", n), *game.debts]
    if game.debts and not can_draw(game):
        _forgive(game)


def forced_pass(game: Position, why: str) -> None:
    """Take the pass that is all the seat on turn has left, ``why`` being
    :func:`.facts.only_pass_left`'s answer: the turn moves on, and the seat is kept in
    ``passes_taken`` with why until the next play or draw. Taking such passes one after
    another ends: each comes from a seat that can neither play nor draw (counted
    towards a jam) or that has drawn its last card this turn, and the next seat has
    drawn nothing yet."""
    seat = game.turn
    _pass(game, game.variant.moves.passes[seat])  # the book's pass: no new Move
    game.passes_taken = (*game.passes_taken, (seat, why))


def unsaid_pass(game: Position, seat: int) -> None:
    """The pass of the seat on turn that the table left unsaid and the next seat's
    action implies: carried out alone (the verdict on that action lists it)."""
    apply(game, game.variant.moves.passes[seat])


def _noted(game: Position, seat: int) -> None:
    """A written-out pass of a seat whose pass the engine took: it changes nothing
    but the list of such passes (the seat's first one leaves it)."""
    taken = list(game.passes_taken)
    del taken[game.forced.index(seat)]
    game.passes_taken = tuple(taken)


# -------------------------------------------------------------- turns

def _start_turn(game: Position, seat: int) -> None:
    game.turn = seat
    game.drawn = 0
    game.free_play = False


def _card_effect(game: Position, p: int, code: str | None, free: bool = False) -> None:
    """What follows seat ``p`` playing a card with effect ``code`` (not going out);
    ``free``: the card was a 3's free play, so a 3 gives another only if 3s chain."""
    if code is None:  # most cards: the next seat's turn
        game.turn, game.drawn, game.free_play = (p + game.direction) % game.players, 0, False
    elif code == "two":
        nxt = game.next_seat(p)
        _start_turn(game, nxt)
        game.debts = [*game.debts, Debt(nxt, 2, "two", 2)]
    elif code == "three":  # a free play, unless this 3 was one and 3s do not chain
        again = not free or game.variant.three_chain
        _start_turn(game, p if again else game.next_seat(p))
        game.free_play = again
    elif code == "melee":
        defender = game.next_seat(p)
        _start_turn(game, defender)
        game.melee = Melee(p, defender)
    elif code == "skip":
        _start_turn(game, game.next_seat(p, 2))
    elif code == "reverse":
        _start_turn(game, game.next_seat(p, _reverse(game)))
    else:
        _start_turn(game, game.next_seat(p))


def _reverse(game: Position) -> int:
    """Reverse (or, with two players, skip or nothing); returns the steps to the next
    player."""
    if game.players == 2:
        return 2 if game.variant.ace_two_players == "skip" else 1
    game.direction = -game.direction
    return 1


# -------------------------------------------------------------- moves

def _play(game: Position, move: Move) -> None:
    p, c = move.player, move.card
    assert c is not None
    try:
        game.known[p].remove(c)
    except ValueError:  # one of the seat's unseen cards
        game.unknown[p] -= 1
    joker = c.rank is None
    eff = move.as_card if joker else c
    assert eff is not None
    game.pile.append(c)
    game.upcard_as = eff
    game.passes = 0
    was_free, game.free_play = game.free_play, False
    in_melee = game.melee is not None
    if move.suit is not None and not in_melee:
        game.active_suit, game.rank_open = move.suit, False
    else:
        game.active_suit, game.rank_open = eff.suit, True
    left = len(game.known[p]) + game.unknown[p]
    if left == 0:
        _go_out(game, p, eff, joker, in_melee)
        return
    if left == 1 and game.variant.last_card_call:
        game.uncalled = p
    elif game.uncalled == p:
        game.uncalled = -1
    if in_melee:
        game.melee = Melee(p, game.melee.aggressor)  # type: ignore[union-attr]
        game.melee_suit = move.suit
        game.turn = game.melee.defender
    elif game.debts:
        _pass_draw_on(game, p)
    else:
        code = effect_of(game, eff, p, joker)
        if code is None:  # most cards: the next seat's turn
            game.turn, game.drawn = (p + game.direction) % game.players, 0
        else:
            _card_effect(game, p, code, was_free)


def _pass_draw_on(game: Position, p: int) -> None:
    """A 2 played by the seat owing a 2's draw passes it on, increased by two."""
    total = game.debts[0].total + 2
    nxt = game.next_seat(p)
    _start_turn(game, nxt)
    game.debts = [Debt(nxt, total, "two", total), *game.debts[1:]]


def _go_out(game: Position, p: int, eff: Card, joker: bool, in_melee: bool) -> None:
    """The hand ends; with ``going_out_effects`` = draws, draw effects still resolve:
    a 2 (its draw passed on if it answered one), a 4, or a card continuing a melee
    (the defender draws its value as if nobody continued)."""
    owed = game.debts[0].total if game.debts else 0
    game.winner, game.result = p, "out"
    game.debts, game.free_play, game.naming = [], False, False
    if game.uncalled == p:
        game.uncalled = -1
    melee, game.melee = game.melee, None
    if game.variant.going_out_effects != "draws":
        return
    code = effect_of(game, eff, p, joker)
    value = game.variant.melee_value(eff.rank)
    if in_melee:
        game.debts = [Debt(melee.aggressor, value, "melee", value)]  # type: ignore[union-attr]
    elif code == "two":
        game.debts = [Debt(game.next_seat(p), owed + 2, "two", owed + 2)]
    elif code == "melee":
        game.debts = [Debt(game.next_seat(p), value, "melee", value)]


def _draw(game: Position, move: Move) -> None:
    p = move.player
    if not game.stock:  # a position given with an empty stock and a pile to turn over
        _refill(game)
    top = game.stock.pop()
    if not game.stock and len(game.pile) > 1:
        _refill(game)  # the stock ran out: the pile under the upcard becomes the stock
    c = top if top is not None else move.card
    if c is None:
        game.unknown[p] += 1
    else:
        game.known[p].append(c)
    game.passes = 0
    if game.uncalled == p:
        game.uncalled = -1
    if not game.debts and game.melee is not None:
        value = game.variant.melee_value(melee_rank(game))
        game.debts = [*game.debts, Debt(p, value, "melee", value)]
    if game.debts:
        _pay(game)
        return
    game.drawn += 1


def _refill(game: Position) -> None:
    """Turn the pile under the upcard into the new stock (the rules reference: when the stock
    runs out; in order or shuffled per the sheet)."""
    game.stock = refill_order(game)
    game.pile = [game.pile[-1]]
    game.refills += 1


def _pay(game: Position) -> None:
    seat, left, reason, total = game.debts[0]
    if left > 1:
        game.debts = [Debt(seat, left - 1, reason, total), *game.debts[1:]]
        return
    game.debts = game.debts[1:]
    _debt_done(game, seat, reason)


def _debt_done(game: Position, seat: int, reason: str) -> None:
    """A debt is drawn (or forgiven): a 2's victim loses the turn; a melee ends."""
    if game.result is not None:
        return
    if reason == "two":
        _start_turn(game, game.next_seat(seat))
    elif reason == "melee":
        _end_melee(game, seat)


def _end_melee(game: Position, defender: int) -> None:
    """Play goes on after the defender. With ``melee_effects`` the card that ended the
    melee acts now: an 8 takes its named suit, a J skips, an A reverses, a 2 makes
    the next player draw two (a 3 gives nothing: its player is not on turn)."""
    aggressor = game.melee.aggressor  # type: ignore[union-attr]
    game.melee = None
    code = None
    if game.variant.melee_effects:
        code = effect_of(game, game.upcard_as, aggressor,  # type: ignore[arg-type]
                               game.upcard.is_joker)
    if code == "eight" and game.melee_suit is not None:
        game.active_suit, game.rank_open = game.melee_suit, False
    game.melee_suit = None
    steps = 2 if code == "skip" else _reverse(game) if code == "reverse" else 1
    nxt = game.next_seat(defender, steps)
    _start_turn(game, nxt)
    if code == "two":
        game.debts = [*game.debts, Debt(nxt, 2, "two", 2)]


def _pass(game: Position, move: Move) -> None:
    """End the turn without playing (said, or taken as said when the next seat acted).
    Only the pass of a seat that is stuck (:func:`.facts.is_stuck`) counts towards a
    blocked/jammed hand: one who passes after drawing may keep a playable card, and
    declining a free play or ending a melee is no such pass."""
    p = move.player
    stuck = is_stuck(game, p)
    game.passes = game.passes + 1 if stuck else 0
    if game.melee is not None:
        _end_melee(game, p)
    else:
        _start_turn(game, game.next_seat(p))
    if game.passes >= game.players:
        game.result = game.variant.info.stuck_word


def _call(game: Position, move: Move) -> None:
    game.uncalled = -1


def _name(game: Position, move: Move) -> None:
    """The dealer names the starter's suit (an 8) or card (a joker); a named card
    then acts as the dealer's play when jokers have effects. In Crazy Eights the
    first player names the suit of a starting 8 and keeps the turn."""
    if not game.naming:
        game.active_suit, game.rank_open = move.suit, False
        return
    game.naming = False
    dealer, up = game.dealer, game.upcard
    eff = move.as_card if up.is_joker else up
    assert eff is not None
    game.upcard_as = eff
    if move.suit is not None:
        game.active_suit, game.rank_open = move.suit, False
    else:
        game.active_suit, game.rank_open = eff.suit, True
    code = effect_of(game, eff, dealer, up.is_joker)
    _card_effect(game, dealer, None if code == "eight" else code)


def _forgive(game: Position) -> None:
    """Nothing at all is left to draw: every owed card is forgiven (a debt that ends
    a melee may bring a 2's draw, forgiven in turn)."""
    while game.debts:
        debt, game.debts = game.debts[0], game.debts[1:]
        _debt_done(game, debt.seat, debt.reason)


_HANDLERS: dict[str, Callable[[Position, Move], None]] = {
    "play": _play, "draw": _draw, "pass": _pass, "call": _call, "name": _name}
