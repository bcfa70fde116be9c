"""Legality: whether a move is allowed now, why, and which rule says so.

:func:`check` answers for any move; :func:`legal_moves` lists the moves allowed now
(plays only of cards known to be held). Both read the phase of the hand in the same
order: the hand is over; someone owes cards; the dealer names the starter; a melee
is on; then the turn player's free play (after a 3) or turn (before or after drawing).
A seat acting while the seat on turn has nothing left but a pass (or may only decline
a 3's free play) is judged after that pass, which the verdict lists as ``implied``.

>>> from scorekeeper.core.engine import Game, Move, Sheet, parse_card
>>> g = Game.start(Sheet.make("crazy-eights"), 2, 0, ["8S KH", "4H 5C"], "4S")
>>> v = check(g, Move.play(1, parse_card("5C")))
>>> v.legal, v.reason, v.rule
(False, '5♣ does not follow the upcard: play a spade or a 4', 'c8-turn')
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, Rank, Suit
from scorekeeper.core.cards import card as make_card
from scorekeeper.core.engine.moves import Move, Verdict

if TYPE_CHECKING:
    from scorekeeper.core.engine.state import Game

__all__ = ["by_player", "can_draw", "can_play", "check", "fits", "legal_moves",
           "melee_next", "more_draws", "owes_pass", "peek", "refill_order", "unseen_cards"]

SUITS = tuple(Suit)


# ------------------------------------------------------------------ facts

def fits(game: Game, c: Card, p: int) -> bool:
    """Whether non-joker ``c`` may follow the upcard for seat ``p`` (wild, suit, rank)."""
    if c.rank is game.wild[p]:
        return True
    s = game.active_suit
    up = game.upcard_as
    return s is None or c.suit is s or (game.rank_open and up is not None and c.rank is up.rank)


def can_play(game: Game, p: int) -> bool | None:
    """Whether seat ``p`` holds a card that could be played now (None: it depends on
    unseen cards). A joker can always be played: some 8 is always a legal card for it
    to name. Unseen cards are deduced from the deck: when the unseen cards hold fewer
    unplayable cards than the seat holds unseen, some of its cards must be playable;
    when none of them could be played, it cannot play."""
    for c in game.known[p]:
        if c.rank is None or fits(game, c, p):
            return True
    held = game.unknown[p]
    if not held:
        return False
    pool = unseen_cards(game)
    playable = sum(1 for c in pool if c.rank is None or fits(game, c, p))
    if playable == 0:
        return False
    return True if len(pool) - playable < held else None


def unseen_cards(game: Game) -> list[Card]:
    """The deck's cards nobody has seen: not in a known hand, the pile or the stock
    (one entry per copy; they fill the unseen places in hands, stock and pile)."""
    seen = Counter(c for k in game.known for c in k)
    seen.update(c for c in game.pile if c is not None)
    seen.update(c for c in game.stock if c is not None)
    out: list[Card] = []
    for c in game.deck.cards():
        if seen[c]:
            seen[c] -= 1
        else:
            out.append(c)
    return out


def can_draw(game: Game) -> bool:
    """Whether a card can be drawn (from the stock, or from the pile turned over)."""
    return bool(game.stock) or len(game.pile) > 1


def more_draws(game: Game) -> bool:
    """Whether the turn player may draw again after drawing (limit and stock)."""
    limit = game.variant.draw_limit
    return (limit is None or game.drawn < limit) and can_draw(game)


def owes_pass(game: Game) -> bool | None:
    """Whether the seat on turn has nothing left to do but pass (the rules reference "Drawing,
    precisely"): it may only decline a 3's free play, or can neither play nor draw
    again. None when that depends on unseen cards. Asked only on a plain turn (no
    owed cards, no melee, no starter to name)."""
    if game.free_play:
        return True
    v, p = game.variant, game.turn
    if game.active_suit is None and not v.is_last_one and not game.drawn:
        return False  # the starter 8's suit is still to be named
    playable = can_play(game, p)
    could_play = False if game.drawn and not v.play_after_draw else playable
    if could_play is True:
        return False
    drawable = more_draws(game) if game.drawn else can_draw(game)
    if not drawable:
        return True if could_play is False else None
    if v.draw_with_playable or playable is False:
        return False
    if playable is True:
        return True  # holds a card it may not play after drawing, and may not draw
    return None if could_play is False else False


def melee_rank(game: Game) -> Rank:
    """The rank a running melee stands on (a melee only starts on a ranked card)."""
    up = game.upcard_as
    if up is None or up.rank is None:
        raise ValueError("no melee is running on a ranked upcard")
    return up.rank


def melee_next(game: Game) -> Card | None:
    """The card that continues the melee, or None when the run has stopped at K."""
    up = game.upcard_as
    if up is None or up.rank is None or up.suit is None:
        return None  # no melee runs on a joker
    rank = up.rank.next_up(game.variant.melee_wrap)
    return None if rank is None else make_card(rank, up.suit)


def refill_order(game: Game) -> list[Card | None]:
    """The new stock (top last) made from the pile under the upcard: turned over in
    order (Crazy Eights and Countdown, ``refill`` "turn"), or shuffled (Last One, and
    ``refill`` "shuffle"), so unseen unless the stock is tracked card by card."""
    rest = game.pile[:-1]
    if not game.variant.refill_shuffles:
        return rest[::-1]
    if not game.known_stock:
        return [None] * len(rest)
    random.Random((game.seed or 0) * 1_000_003 + game.refills).shuffle(rest)
    return rest


def peek(game: Game) -> Card | None:
    """The card the next draw takes, when known."""
    if game.stock:
        return game.stock[-1]
    order = refill_order(game)
    return order[-1] if order else None


def available(game: Game, c: Card) -> bool:
    """Whether a copy of ``c`` may still be unseen somewhere (for unseen hands)."""
    seen = sum(k.count(c) for k in game.known) + game.pile.count(c) + game.stock.count(c)
    return seen < game.deck.copies(c)


def holds(game: Game, p: int, c: Card) -> bool:
    """Whether seat ``p`` holds ``c`` or may hold it among unseen cards."""
    return c in game.known[p] or (game.unknown[p] > 0 and available(game, c))


def effect_of(game: Game, eff: Card, p: int, joker: bool) -> str | None:
    """The effect code of card ``eff`` played by ``p`` (``eight`` for a wild)."""
    if joker and not game.variant.joker_effects:
        return None
    if eff.rank is game.wild[p]:
        return "eight"
    return game.variant.rank_effects[eff.rank]  # type: ignore[index]


# ----------------------------------------------------------------- check

def check(game: Game, move: Move) -> Verdict:
    """The verdict on ``move`` in the current position."""
    rule = game.variant.rule
    if game.is_over:
        return Verdict(False, "the hand is over", rule["out"], "over")
    p = move.player
    if not isinstance(p, int) or not 0 <= p < game.players:
        return Verdict(False, f"there is no seat {p!r} at this table", rule["turn"], "turn")
    if move.kind == "call":
        return _check_call(game, p)
    if game.debts:
        return _check_debt(game, move)
    if game.naming:
        return _check_naming(game, move)
    if game.melee is not None:
        return _check_melee(game, move)
    if p != game.turn:
        return _check_other_seat(game, move)
    if game.free_play:
        return _check_free_play(game, move)
    return _check_turn(game, move)


def _check_other_seat(game: Game, move: Move) -> Verdict:
    """A seat acting while another is on turn: fine after the turn seat's unsaid pass
    when a pass is all that seat had left (or it may only decline a free play). Passes
    chain seat by seat; the chain ends because each such pass either comes from a seat
    that can neither play nor draw (counted towards a jam) or ends a free play."""
    owed = owes_pass(game)
    if owed is False:
        return _wrong_turn(game, move.player)
    seat = game.turn
    game.pass_taken(seat)
    try:
        after = check(game, move)
    finally:
        game.pass_undone()
    if after.cause == "turn" and not after.implied and after.legal is False:
        return _wrong_turn(game, move.player)
    legal, reason = after.legal, after.reason
    if owed is None and legal is True:
        legal = None
        reason = f"{reason} (assuming {game.seat_name(seat)} could not play)"
    return Verdict(legal, reason, after.rule, after.cause, (seat, *after.implied))


def _wrong_turn(game: Game, p: int) -> Verdict:
    """Not this seat's turn; when the turn seat is in the middle of drawing, say so and
    cite drawing."""
    v, turn = game.variant, game.turn
    on_turn, who = game.seat_name(turn), game.seat_name(p)
    head = f"it is {on_turn}'s turn, not {who}'s"
    if game.free_play or game.melee is not None:
        return Verdict(False, head, v.rule["turn"], "turn")
    playable = can_play(game, turn)
    if game.drawn:
        left = "play or pass" if playable and v.play_after_draw else "draw again"
        return Verdict(False, f"{head}: {on_turn} has drawn and may still {left}",
                       v.rule["draw"], "turn")
    if playable is False and can_draw(game):
        return Verdict(False, f"{head}: {on_turn} cannot play and must draw",
                       v.rule["draw"], "turn")
    return Verdict(False, head, v.rule["turn"], "turn")


def _check_call(game: Game, p: int) -> Verdict:
    rule = game.variant.rule["call"]
    if not game.variant.call_required:
        return Verdict(False, "this sheet has no last-card call", rule)
    n, who = game.hand_size(p), game.seat_name(p)
    if n != 1:
        return Verdict(False, f"{who} holds {n} cards; the call is made with one", rule)
    if game.uncalled != p:
        return Verdict(False, f"{who} has no call to make now", rule)
    return Verdict(True, f"{who} calls with one card left", rule)


def _check_debt(game: Game, move: Move) -> Verdict:
    seat, left, reason, total = game.debts[0]
    rule = game.variant.rule["call" if reason == "penalty" else reason]
    owed = f"{game.seat_name(seat)} owes {left} card{'s' if left > 1 else ''}"
    if move.player != seat:
        return Verdict(False, f"{owed} and draws first", rule, "turn")
    if move.kind == "draw":
        return _check_draw_card(game, move, Verdict(True, f"{owed} and draws one", rule))
    stackable = reason == "two" and left == total and game.result is None
    if move.kind == "play" and stackable and game.variant.stacking:
        return _check_stack(game, move, owed, rule)
    if move.kind == "play" and stackable:
        return Verdict(False, f"{owed}: 2s do not stack under this sheet, so draw", rule)
    return Verdict(False, f"{owed} and must draw", rule)


def _check_stack(game: Game, move: Move, owed: str, rule: str) -> Verdict:
    c = move.card
    if c is None:
        return Verdict(False, "say which card is played", rule)
    two = c.rank is Rank.TWO and move.as_card is None
    if c.is_joker:
        two = (game.variant.joker_effects and move.as_card is not None
               and move.as_card.rank is Rank.TWO)
    if not two or move.suit is not None:
        return Verdict(False, f"{owed}: the only answer is a 2, which passes the draw on", rule)
    if not holds(game, move.player, c):
        return _not_held(game, move.player, c)
    return Verdict(True, "a 2 passes the draw on, increased by two", rule)


def _check_naming(game: Game, move: Move) -> Verdict:
    rule, dealer = game.variant.rule["starter"], game.dealer
    if move.player != dealer:
        return Verdict(False, f"the dealer ({game.seat_name(dealer)}) first names the starter",
                       rule, "turn")
    if move.kind != "name":
        return Verdict(False, "the dealer first names the suit or card of the starter", rule)
    if game.upcard.is_joker:
        if move.as_card is None or move.as_card.is_joker:
            return Verdict(False, "name the card the starting joker stands for", rule)
        names = game.variant.joker_effects and move.as_card.rank is game.wild[dealer]
    else:
        if move.as_card is not None:
            return Verdict(False, "only a joker stands for a named card", rule)
        names = True
    bad = _suit_verdict(move, names, rule)
    return bad if bad is not None else Verdict(True, "the dealer names the starter", rule)


def _suit_verdict(move: Move, names: bool, rule: str) -> Verdict | None:
    """Refuse a missing or needless named suit; None when the move is consistent."""
    if names and move.suit is None:
        return Verdict(False, "name a suit with this card", rule)
    if not names and move.suit is not None:
        return Verdict(False, "this card names no suit here", rule)
    return None


def _check_melee(game: Game, move: Move) -> Verdict:
    aggressor, defender = game.melee  # type: ignore[misc]
    rule, p = game.variant.rule["melee"], move.player
    if move.kind == "play":
        return _check_melee_play(game, move, aggressor, rule)
    if p != defender:
        return Verdict(False, f"in the melee only the defender ({game.seat_name(defender)}) draws; "
                       "others may only continue it", rule, "turn")
    if move.kind == "draw":
        value = game.variant.melee_value(melee_rank(game))
        ok = Verdict(True, f"{game.seat_name(p)} ends the melee and draws {value}", rule)
        return _check_draw_card(game, move, ok)
    if move.kind == "pass" and not can_draw(game):
        return Verdict(True, "nothing is left to draw: the melee ends", rule)
    return Verdict(False, "the defender continues the melee or draws", rule)


def _check_melee_play(game: Game, move: Move, aggressor: int, rule: str) -> Verdict:
    p, c, nxt = move.player, move.card, melee_next(game)
    if p == aggressor:
        return Verdict(False, f"{game.seat_name(p)} is the aggressor and cannot continue the melee",
                       rule, "turn")
    if nxt is None:
        return Verdict(False, "the run stops at the king: the defender draws", rule)
    if c is None:
        return Verdict(False, "say which card is played", rule)
    named = move.as_card if c.is_joker else c
    if named != nxt or (move.as_card is not None and not c.is_joker):
        return Verdict(False, f"only {nxt.pretty} continues the melee", rule)
    names = game.variant.melee_effects and effect_of(game, nxt, p, c.is_joker) == "eight"
    bad = _suit_verdict(move, names, rule)
    if bad is not None:
        return bad
    if not holds(game, p, c):
        return _not_held(game, p, c)
    return Verdict(True, f"{c.pretty} continues the melee; {game.seat_name(p)} is the aggressor",
                   rule)


def _check_free_play(game: Game, move: Move) -> Verdict:
    rule = game.variant.rule["three"]
    if move.kind == "pass":
        return Verdict(True, "declining the free play ends the turn", rule)
    if move.kind == "play":
        return _check_play(game, move, free=True)
    return Verdict(False, "after a 3, put a free card on it or decline (pass)", rule)


def _check_turn(game: Game, move: Move) -> Verdict:
    """The turn seat's play, draw or pass, before or after drawing this turn."""
    v, p = game.variant, move.player
    if move.kind == "play":
        if game.drawn and not v.play_after_draw:
            return Verdict(False, f"{game.seat_name(p)} has drawn this turn, and under this "
                           "sheet a player who draws may not also play", v.rule["draw"])
        return _check_play(game, move)
    open_suit = game.active_suit is None and not v.is_last_one and not game.drawn
    if move.kind == "name" and open_suit:
        return _check_open_suit(game, move)
    if move.kind not in ("draw", "pass"):
        return Verdict(False, "play a card, draw or pass", v.rule["turn"])
    if open_suit:
        return Verdict(False, f"{game.seat_name(p)} first names the suit to follow on the "
                       "starter, then plays or draws", v.rule["eight"])
    if move.kind == "draw":
        return _check_draw(game, move)
    return _check_pass(game, p)


def _check_draw(game: Game, move: Move) -> Verdict:
    """Drawing: cards left, the limit, and (draw_with_playable off) no playable card."""
    v, p = game.variant, move.player
    who, again = game.seat_name(p), " again" if game.drawn else ""
    if not can_draw(game):
        return Verdict(False, "nothing is left to draw: play or pass", v.rule["stock"])
    if game.drawn and not more_draws(game):
        n = game.drawn
        return Verdict(False, f"{who} has drawn {n} card{'s' if n > 1 else ''}, the most "
                       "this sheet allows in one turn", v.rule["draw"])
    playable = False if v.draw_with_playable else can_play(game, p)
    if playable:
        return Verdict(False, f"{who} holds a playable card and may not draw{again}: under "
                       "this sheet drawing stops once a card can be played", v.rule["draw"])
    if playable is None:
        ok = Verdict(None, f"cannot tell from what the table saw whether {who} could play "
                     f"(only a player who cannot play may draw{again})", v.rule["draw"])
    else:
        ok = Verdict(True, f"{who} draws{again}", v.rule["draw"])
    return _check_draw_card(game, move, ok)


def _check_pass(game: Game, p: int) -> Verdict:
    """Passing: after drawing, to decline a playable card or when nothing is left to
    do; before drawing, only with nothing to draw and nothing to play."""
    v, who = game.variant, game.seat_name(p)
    playable = can_play(game, p)
    drawable = more_draws(game) if game.drawn else can_draw(game)
    rule = v.rule["draw"]
    if game.drawn and playable:
        return Verdict(True, f"{who} has drawn and may keep the playable card: the turn ends",
                       rule)
    if not game.drawn and playable:
        more = " or draw" if drawable and v.draw_with_playable else ""
        return Verdict(False, f"{who} holds a playable card: play it{more}; only a player who "
                       "cannot play passes", rule)
    if drawable:
        if playable is None:
            return Verdict(None, f"cannot tell from what the table saw whether {who} could "
                           "play; one who cannot must draw while cards and the limit allow",
                           rule)
        return Verdict(False, f"{who} cannot play and may still draw, so may not pass yet",
                       rule)
    if playable is None and not game.drawn:
        return Verdict(None, f"cannot tell from what the table saw whether {who} could play; "
                       "with nothing left to draw only one who cannot play passes", rule)
    if game.drawn:
        return Verdict(True, f"{who} may draw no more this turn: the turn ends with a pass",
                       rule)
    return Verdict(True, f"nothing is left to draw and {who} cannot play: {who} passes",
                   v.rule["stock"])


def _check_open_suit(game: Game, move: Move) -> Verdict:
    """Crazy Eights' starter 8 (a Countdown player's own wild rank): the first player
    names the suit before playing, so may then draw when holding none of it."""
    rule = game.variant.rule["eight"]
    if move.suit is None or move.as_card is not None:
        return Verdict(False, "name a suit, and only a suit, for the starter", rule)
    return Verdict(True, f"{game.seat_name(move.player)} names {move.suit.label} for the "
                   "starter", rule)


def _check_draw_card(game: Game, move: Move, ok: Verdict) -> Verdict:
    """Refuse a draw when nothing can be drawn or the named card cannot be on top."""
    rule = game.variant.rule
    if not can_draw(game):
        return Verdict(False, "nothing is left to draw", rule["stock"])
    c = move.card
    if c is not None:
        top = peek(game)
        if top is not None and top != c:
            return Verdict(False, f"the next card of the stock is {top.pretty}, "
                           f"not {c.pretty}", rule["draw"])
        shuffled_in = not game.stock and c in game.pile[:-1]  # the pile becomes the stock
        if top is None and not shuffled_in and not available(game, c):
            return Verdict(False, f"no {c.pretty} is left unseen to draw", rule["draw"])
    return ok


def _not_held(game: Game, p: int, c: Card) -> Verdict:
    return Verdict(False, f"{game.seat_name(p)} does not hold {c.pretty}",
                   game.variant.rule["turn"])


def article(word: str) -> str:
    """``word`` with "a" or "an" as spoken: an 8, an A, an ace; a 10, a spade.

    >>> article("8"), article("A"), article("10"), article("heart")
    ('an 8', 'an A', 'a 10', 'a heart')
    """
    return f"{'an' if word[:1] in ('8', 'A', 'a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def _follow_text(game: Game) -> str:
    s, up = game.active_suit, game.upcard_as
    if s is None:
        return "any card may follow"
    if game.rank_open:
        return f"play {article(s.label[:-1])} or {article(up.rank.label)}"  # type: ignore[union-attr]
    return f"play {article(s.label[:-1])} (the suit named)"


def _check_play(game: Game, move: Move, free: bool = False) -> Verdict:
    """A play on the turn player's own turn (``free``: the free card after a 3)."""
    v, p, c = game.variant, move.player, move.card
    if c is None:
        return Verdict(False, "say which card is played", v.rule["turn"])
    if c.is_joker:
        return _check_joker(game, move, free)
    if move.as_card is not None:
        return Verdict(False, "only a joker stands for a named card", v.rule["joker"])
    anything = free and not v.three_matching
    wild = c.rank is game.wild[p]
    if not anything and not fits(game, c, p):
        rule = v.rule["turn" if game.rank_open or game.active_suit is None else "eight"]
        if free:
            rule = v.rule["three"]
        return Verdict(False, f"{c.pretty} does not follow the upcard: {_follow_text(game)}",
                       rule)
    bad = _suit_verdict(move, wild, v.rule["eight"])
    if bad is not None:
        return bad
    if not holds(game, p, c):
        return _not_held(game, p, c)
    return _play_ok(game, c, wild, free)


def _play_ok(game: Game, c: Card, wild: bool, free: bool) -> Verdict:
    v = game.variant
    if free:
        return Verdict(True, f"{c.pretty} is the free card on the 3", v.rule["three"])
    if wild:
        return Verdict(True, f"{c.pretty} is wild: always playable", v.rule["eight"])
    return Verdict(True, f"{c.pretty} follows the upcard", v.rule["turn"])


def _check_joker(game: Game, move: Move, free: bool) -> Verdict:
    v, p, named = game.variant, move.player, move.as_card
    rule = v.rule["joker"]
    if named is None or named.is_joker:
        return Verdict(False, "name the card the joker stands for", rule)
    anything = free and not v.three_matching
    if v.joker_must_be_legal and not anything and not fits(game, named, p):
        return Verdict(False, f"the joker cannot stand for {named.pretty}: that card could "
                       f"not be played now ({_follow_text(game)})", rule)
    names = v.joker_effects and named.rank is game.wild[p]
    bad = _suit_verdict(move, names, rule)
    if bad is not None:
        return bad
    if not holds(game, p, JOKER):
        return _not_held(game, p, JOKER)
    return Verdict(True, f"the joker stands for {named.pretty}", rule)


# ------------------------------------------------------------ listing

def legal_moves(game: Game) -> list[Move]:
    """Every move allowed now (verdict True or None). Plays are listed only for cards
    known to be held, except when the deck shows that a seat's unseen cards must hold a
    playable one (then each unseen card it may be); a draw is listed without its card."""
    if game.debts:
        moves = _debt_moves(game)
    elif game.result is not None:
        return []
    elif game.naming:
        moves = _filtered(game, _naming_candidates(game))
    elif game.melee is not None:
        moves = _melee_moves(game)
    elif game.free_play:
        moves = _play_moves(game, game.turn, game.known[game.turn], free=True)
        moves.append(_PASSES[game.turn])
    else:
        moves = _turn_moves(game)
    seat = game.uncalled
    # The call is legal for the uncalled seat holding one card (see _check_call).
    if seat >= 0 and game.variant.call_required and len(game.known[seat]) + game.unknown[
            seat] == 1:
        moves.insert(0, _CALLS[seat])
    return moves


_PLAYS: dict[tuple[int, Card, Suit | None, Card | None], Move] = {}


def _play(p: int, c: Card, suit: Suit | None = None, named: Card | None = None) -> Move:
    """A play move, built once and reused: building frozen dataclasses is the slow
    part of listing moves. Moves are values, so one per (seat, card, suit, named card)
    serves every game; the table is bounded by seats × cards × suits."""
    key = (p, c, suit, named)
    move = _PLAYS.get(key)
    if move is None:
        move = _PLAYS[key] = Move("play", p, c, suit, named)
    return move


class _WildPlays(dict[Card, list[Move]]):
    """One seat's plays of a wild card, one per named suit, built on first use."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, c: Card) -> list[Move]:
        plays = self[c] = [_play(self.seat, c, s) for s in SUITS]
        return plays


_WILD_PLAYS = tuple(_WildPlays(p) for p in range(16))


class _PlainPlays(dict[Card, Move]):
    """One seat's plays of a card naming nothing, built on first use."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, c: Card) -> Move:
        move = self[c] = _play(self.seat, c)
        return move


_PLAIN_PLAYS = tuple(_PlainPlays(p) for p in range(16))
_NO_RANK = object()  # matches no card's rank: the upcard's rank does not count
_ANY_SUIT = object()  # stands for "any card may follow" (matches no card's suit)
_DRAWS = tuple(Move("draw", p) for p in range(16))
_PASSES = tuple(Move("pass", p) for p in range(16))
_CALLS = tuple(Move("call", p) for p in range(16))
_NAMES = tuple(tuple(Move("name", p, None, s) for s in SUITS) for p in range(16))


def _filtered(game: Game, candidates: list[Move]) -> list[Move]:
    return [m for m in candidates if check(game, m).legal is not False]


def _turn_moves(game: Game) -> list[Move]:
    """Plays, then the draw and the pass when the rules allow them (or cannot rule
    them out). After drawing, plays only with play_after_draw."""
    v, p, drawn = game.variant, game.turn, game.drawn
    may_play = not drawn or v.play_after_draw
    moves = _play_moves(game, p, game.known[p]) if may_play else []
    unknown = game.unknown[p]
    if unknown and may_play and not moves and can_play(game, p):
        # Deduced from the deck: some unseen card must be playable; list each it may be.
        moves = _play_moves(game, p, list(dict.fromkeys(unseen_cards(game))))
    if game.active_suit is None and not drawn and not v.is_last_one:
        return moves + list(_NAMES[p])
    if unknown:  # unseen cards: ask the full rules (deductions, cannot tell)
        return moves + _filtered(game, [Move.draw(p), Move.pass_(p)])
    # Every card known: the same answers as _check_draw and _check_pass, directly.
    # The plays listed are those of every playable card held, unless plays are barred.
    playable = bool(moves) if may_play else can_play(game, p)
    drawable = bool(game.stock) or len(game.pile) > 1
    if drawn and drawable:  # may draw again (more_draws)
        limit = v.draw_limit
        drawable = limit is None or drawn < limit
    if drawable and (v.draw_with_playable or not playable):
        moves.append(_DRAWS[p])
    if (drawn and playable) or not (playable or drawable):
        moves.append(_PASSES[p])
    return moves


def _play_moves(game: Game, p: int, cards: list[Card], free: bool = False) -> list[Move]:
    """Plays of the given cards that are legal on a turn (or as the free card): the
    test of :func:`fits`, inlined, as this runs for every position of a playout."""
    up, wild = game.upcard_as, game.wild[p]
    suit: object = game.active_suit
    if suit is None or (free and not game.variant.three_matching):
        suit = _ANY_SUIT
    up_rank = up.rank if game.rank_open and up is not None else _NO_RANK
    moves: list[Move] = []
    add = moves.append
    plain, wilds = _PLAIN_PLAYS[p], _WILD_PLAYS[p]
    joker_done = False
    # Only two-deck games hold duplicates (jokers are listed once below).
    for c in dict.fromkeys(cards) if game.deck.decks > 1 else cards:
        rank = c.rank
        if rank is wild:
            moves += wilds[c]
        elif rank is None:
            if not joker_done:
                moves += _joker_moves(game, p, suit is _ANY_SUIT)
            joker_done = True
        elif c.suit is suit or rank is up_rank or suit is _ANY_SUIT:
            add(plain[c])
    return moves


_JOKER_PLAYS: dict[tuple[object, ...], list[Move]] = {}


def _joker_moves(game: Game, p: int, anything: bool) -> list[Move]:
    """A joker's plays: each card it may stand for (with a suit for a wild one). They
    depend only on the seat, its wild rank and what follows the upcard, so each such
    situation is worked out once (52 candidates) and then looked up."""
    v, wild = game.variant, game.wild[p]
    free = anything or not v.joker_must_be_legal
    up = game.upcard_as
    follow = None if free else (game.active_suit, game.rank_open and up is not None
                                and up.rank)
    key = (p, wild, v.joker_effects, follow)
    moves = _JOKER_PLAYS.get(key)
    if moves is None:
        moves = _JOKER_PLAYS[key] = _joker_candidates(game, p, free)
    return moves


def _joker_candidates(game: Game, p: int, free: bool) -> list[Move]:
    v, wild = game.variant, game.wild[p]
    moves: list[Move] = []
    for named in ALL_CARDS:
        if free or fits(game, named, p):
            if v.joker_effects and named.rank is wild:
                moves += [_play(p, JOKER, s, named) for s in SUITS]
            else:
                moves.append(_play(p, JOKER, None, named))
    return moves


def _debt_moves(game: Game) -> list[Move]:
    """The draw, and the 2s that pass the draw on; directly when the seat's every card
    is known (the answers of :func:`_check_debt`), else through the full rules."""
    seat, left, reason, total = game.debts[0]
    if game.unknown[seat]:
        return _filtered(game, _debt_candidates(game))
    v = game.variant
    moves = [_DRAWS[seat]] if can_draw(game) else []
    if reason == "two" and left == total and game.result is None and v.stacking:
        for c in dict.fromkeys(game.known[seat]):
            if c.rank is Rank.TWO:
                moves.append(_play(seat, c))
            elif c.rank is None and v.joker_effects:
                moves += [_play(seat, JOKER, None, make_card(Rank.TWO, s)) for s in SUITS]
    return moves


def _debt_candidates(game: Game) -> list[Move]:
    seat = game.debts[0][0]
    moves = [Move.draw(seat)]
    for c in dict.fromkeys(game.known[seat]):
        if c.rank is Rank.TWO:
            moves.append(Move.play(seat, c))
        elif c.is_joker:
            moves += [Move.play(seat, JOKER, as_card=make_card(Rank.TWO, s)) for s in SUITS]
    return moves


def _naming_candidates(game: Game) -> list[Move]:
    d = game.dealer
    if not game.upcard.is_joker:
        return [Move.name(d, s) for s in SUITS]
    moves = [Move.name(d, as_card=c) for c in ALL_CARDS]
    return moves + [Move.name(d, s, c) for c in ALL_CARDS if c.rank is Rank.EIGHT
                    for s in SUITS]


def _melee_moves(game: Game) -> list[Move]:
    aggressor, defender = game.melee  # type: ignore[misc]
    nxt = melee_next(game)
    moves: list[Move] = []
    holders = [] if nxt is None else [
        (p, c) for p in range(game.players) if p != aggressor for c in (nxt, JOKER)
        if c in game.known[p]]
    if any(game.unknown):  # unseen cards: ask the full rules
        for p, c in holders:
            named = None if c is nxt else nxt
            moves += _filtered(game, [Move.play(p, c, s, named) for s in (None, *SUITS)])
        return moves + _filtered(game, [Move.draw(defender), Move.pass_(defender)])
    # Every card known: the answers of _check_melee and _check_melee_play, directly.
    for p, c in holders:
        named = None if c is nxt else nxt
        if nxt and game.variant.melee_effects and effect_of(game, nxt, p, c is JOKER) == "eight":
            moves += [_play(p, c, s, named) for s in SUITS]
        else:
            moves.append(_play(p, c, None, named))
    moves.append(_DRAWS[defender] if can_draw(game) else _PASSES[defender])
    return moves


def by_player(game: Game) -> dict[int, dict[str, object]]:
    """Legal moves grouped by seat; cards as text, an 8 or joker listed once."""
    out: dict[int, dict[str, object]] = {}
    for m in legal_moves(game):
        entry = out.setdefault(m.player, {"play": [], "draw": False, "pass": False,
                                          "call": False, "name": False})
        if m.kind == "play":
            plays: list[str] = entry["play"]  # type: ignore[assignment]
            if str(m.card) not in plays:
                plays.append(str(m.card))
        else:
            entry[m.kind] = True
    return out
