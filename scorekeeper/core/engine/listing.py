"""The moves allowed now: the predicates of :mod:`.facts`, asked for every candidate.

Plays are listed only for cards known to be held, except when the deck shows that a
seat's unseen cards must hold a playable one (then each unseen card it may be); a draw
is listed without its card. Every move listed is one :func:`.verdicts.check` does not
refuse, because both ask the same predicates. Moves come from the variant's
:class:`~.book.MoveBook`, built once.

>>> from scorekeeper.core.engine import parse_position
>>> [str(m) for m in legal_moves(parse_position("c8 | up 9H | turn 1 | hands 5/6C,KD"))]
['1:draw']
"""

from __future__ import annotations

from collections.abc import Collection

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, Rank, Suit
from scorekeeper.core.cards import card as make_card
from scorekeeper.core.engine.book import MoveBook
from scorekeeper.core.engine.facts import (
    can_draw,
    can_play,
    is_two_answer,
    joker_names,
    may_continue_melee,
    may_stack,
    melee_next,
    only_pass,
    playable_cards,
    suit_naming,
    turn_choices,
    unseen_cards,
    wild_naming,
)
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Position

__all__ = ["by_player", "legal_moves", "listed"]

SUITS = tuple(Suit)


def legal_moves(g: Position) -> list[Move]:
    """Every move allowed now (verdict True or None), by any seat."""
    return listed(g)[0]


def listed(g: Position) -> tuple[list[Move], bool]:
    """Every move allowed now, and whether the seat on turn may do nothing but pass
    (:func:`.facts.only_pass`), from the one pass over the position's facts that
    lists its moves: with every card known, the engine moves the turn on from this
    answer rather than work the facts out a second time.

    A turn (the common case) is listed here: plays, then the draw and the pass when
    the rules allow them (or cannot rule them out); after drawing, plays only with
    play_after_draw; on a 3's free play, plays and the pass. Plays are wild cards once
    per suit they may name, a joker once per card it may stand for. One function
    rather than a dispatch and helpers, as simulation lists once a move."""
    if g.debts or g.result is not None or g.naming or g.melee is not None:
        return _phase_moves(g), False
    v, p, drawn = g.variant, g.turn, g.drawn
    free = g.free_play  # apart: assigning four names at once builds a tuple
    book = v.moves
    moves: list[Move] = []
    may_play = not drawn or v.play_after_draw
    unseen = g.unknown[p]
    if may_play:
        cards: Collection[Card] = g.known[p]
        playable: Collection[Card] = playable_cards(g, p, cards, free)
        jokers = _joker_plays(g, p, free) if g.deck.jokers and JOKER in cards else ()
        if unseen and not playable and not jokers and not free and can_play(g, p):
            # Deduced from the deck: some unseen card must be playable; list each it
            # may be.
            cards = list(dict.fromkeys(unseen_cards(g)))
            playable = playable_cards(g, p, cards)
            jokers = _joker_plays(g, p, free) if JOKER in cards else ()
        if playable:
            if g.deck.decks > 1 and len(playable) > 1:
                # Only two-deck games hold duplicates: each playable card once, in order
                # (the filter keeps the order, so filtering first leaves fewer to sort
                # out).
                playable = dict.fromkeys(playable)  # its keys serve as they are
            plays = book.by_seat[p]
            # A card of the seat's wild rank is wild for it (effect_of: "eight"); it
            # names a suit as wild_naming says: always, or as the last card also not at
            # all.
            wild = g.wild[p]
            for c in playable:
                if c.rank is not wild:
                    moves.append(plays[c])
                    continue
                if wild_naming(g, p) == "free":
                    moves.append(plays[c])
                moves += book.wilds[p][c]
        if jokers:
            moves += jokers
    if free:
        moves.append(book.passes[p])
        return _with_call(g, moves), False
    if g.active_suit is None and not drawn and not v.is_last_one:
        moves += book.names[p]
        return _with_call(g, moves), False
    # With every card of the seat known, it can play exactly when a play is listed.
    playable_now = bool(moves) if may_play and not unseen else can_play(g, p)
    (draw_ok, _), (pass_ok, _) = turn_choices(g, playable_now)
    if draw_ok is not False:
        moves.append(book.draws[p])
    if pass_ok is not False:
        moves.append(book.passes[p])
    if g.uncalled >= 0:
        _with_call(g, moves)
    # Only a seat that may not draw can be left with nothing but the pass (only_pass).
    return moves, draw_ok is False and only_pass(playable_now if may_play else False,
                                                 False) is True


def _phase_moves(g: Position) -> list[Move]:
    """The moves allowed outside a turn: owed cards, the hand over, the starter to
    name, a melee."""
    if g.debts:
        moves = _debt_moves(g)
    elif g.result is not None:
        return []
    elif g.naming:
        moves = _naming_moves(g)
    else:
        moves = _melee_moves(g)
    return _with_call(g, moves)


def _with_call(g: Position, moves: list[Move]) -> list[Move]:
    """``moves`` with the call first when it is legal: for the uncalled seat holding
    one card (see verdicts._check_call)."""
    seat = g.uncalled
    if seat >= 0 and g.variant.call_required and g.hand_size(seat) == 1:
        moves.insert(0, g.variant.moves.calls[seat])
    return moves


def _joker_plays(g: Position, p: int, free: bool) -> list[Move]:
    """A joker's plays: each card it may stand for (with each suit for a wild one; no
    suit too when the joker is the seat's last card). They depend only on the seat, its
    wild rank, what follows the upcard and whether it is the last card, so each such
    situation is worked out once and then looked up in the variant's move book."""
    v = g.variant
    book: MoveBook = v.moves
    anything = not v.joker_must_be_legal or (free and not v.three_matching)
    up = g.upcard_as
    follow = None if anything else (g.active_suit, g.rank_open and up is not None
                                    and up.rank)
    key = (p, g.wild[p], follow, g.hand_size(p) == 1)
    moves: list[Move] | None = book.jokers.get(key)
    if moves is None:
        moves = book.jokers[key] = []
        for named in joker_names(g, p, free):
            moves += _named(book, p, JOKER, named, suit_naming(g, p, named, True, False))
    return moves


def _named(book: MoveBook, p: int, c: Card, named: Card | None, naming: str) -> list[Move]:
    """The plays of ``c`` (a joker standing for ``named``) as
    :func:`.facts.suit_naming` says: with each suit (``needed``), without one
    (``none``), or both ways (``free``: going out)."""
    if naming == "none":
        return [book.play(p, c, None, named)]
    suited = book.suited(p, c, named)
    return suited if naming == "needed" else [book.play(p, c, None, named), *suited]


def _debt_moves(g: Position) -> list[Move]:
    """The draw, and the 2s that pass the draw on."""
    seat = g.debts[0].seat
    book = g.variant.moves
    moves = [book.draws[seat]] if can_draw(g) else []
    if not may_stack(g)[0]:
        return moves
    for c in dict.fromkeys(g.known[seat]):
        for named in (None,) if c.rank is not None else _twos():
            if is_two_answer(g, c, named):
                moves.append(book.play(seat, c, None, named))
    return moves


def _twos() -> tuple[Card, ...]:
    """The 2 of each suit (what a joker may stand for to pass a draw on)."""
    return tuple(make_card(Rank.TWO, s) for s in SUITS)


def _naming_moves(g: Position) -> list[Move]:
    """The dealer names a starting 8's suit, or the card a starting joker stands for
    (with a suit when that card is wild for the dealer and jokers have effects)."""
    d, book = g.dealer, g.variant.moves
    if not g.upcard.is_joker:
        return list(book.names[d])
    moves: list[Move] = []
    for c in ALL_CARDS:
        if suit_naming(g, d, c, True, False) == "none":
            moves.append(Move.name(d, as_card=c))
        else:
            moves += [Move.name(d, s, c) for s in SUITS]
    return moves


def _melee_moves(g: Position) -> list[Move]:
    """Plays of the next card up (or a joker standing for it) by every seat that may
    continue, then the defender's draw (or pass, with nothing to draw)."""
    defender = g.melee.defender  # type: ignore[union-attr]
    nxt, book = melee_next(g), g.variant.moves
    moves: list[Move] = []
    for p in range(g.players):
        if not may_continue_melee(g, p, nxt)[0]:
            continue
        assert nxt is not None  # else the run has stopped at the king: nobody continues
        for c in (nxt, JOKER):
            if c in g.known[p]:
                named = None if c is nxt else nxt
                moves += _named(book, p, c, named, suit_naming(g, p, nxt, c is JOKER, True))
    moves.append(book.draws[defender] if can_draw(g) else book.passes[defender])
    return moves


def by_player(g: Position) -> dict[int, dict[str, object]]:
    """Legal moves grouped by seat; cards as text, an 8 or joker listed once."""
    out: dict[int, dict[str, object]] = {}
    for m in legal_moves(g):
        entry = out.setdefault(m.player, {"play": [], "draw": False, "pass": False,
                                          "call": False, "name": False})
        if m.kind == "play":
            plays: list[str] = entry["play"]  # type: ignore[assignment]
            if str(m.card) not in plays:
                plays.append(str(m.card))
        else:
            entry[m.kind] = True
    return out
