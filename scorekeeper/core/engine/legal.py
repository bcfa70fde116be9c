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

from collections.abc import Callable, Collection

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, Rank, Suit
from scorekeeper.core.cards import card as make_card
from scorekeeper.core.engine.book import MoveBook
from scorekeeper.core.engine.facts import (
    can_draw,
    is_two_answer,
    joker_names,
    may_call,
    may_continue_melee,
    may_stack,
    melee_next,
    melee_pass,
    plays_open,
    starter_naming,
    suit_naming,
    turn_choices,
    wild_naming,
)
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.position import Position

__all__ = ["by_player", "legal_moves"]

SUITS = tuple(Suit)


def legal_moves(g: Position) -> list[Move]:
    """Every move allowed now (verdict True or None), by any seat: the moves of the
    hand's phase (:meth:`.position.Position.phase`), with the call first when
    :func:`.facts.may_call` allows it.

    A plain turn (the common case) is listed here, as :func:`.facts.turn_choices`
    answers: the plays (:func:`.facts.plays_open`) when the seat may play now, the
    naming of the starter's suit while it must name one first, else the draw and the
    pass (listed unless refused)."""
    phase = g.phase()
    if phase != "turn":
        moves = _PHASES[phase](g)
    else:
        p = g.turn
        book = g.variant.moves
        playable, cards, joker = plays_open(g, p, False)
        play, name, (draw_ok, _), (pass_ok, _) = turn_choices(g, playable)
        moves = _plays(g, p, cards, joker, False) if play and (cards or joker) else []
        if name:
            moves += book.names[p]
        else:
            if draw_ok is not False:
                moves.append(book.draws[p])
            if pass_ok is not False:
                moves.append(book.passes[p])
    seat = g.uncalled
    if seat >= 0 and may_call(g, seat)[0]:
        moves.insert(0, g.variant.moves.calls[seat])
    return moves


def _free_moves(g: Position) -> list[Move]:
    """A 3's free play: the cards that may go on the 3, and the pass that declines."""
    p = g.turn
    moves = _plays(g, p, *plays_open(g, p, True)[1:], True)
    moves.append(g.variant.moves.passes[p])
    return moves


def _plays(g: Position, p: int, cards: Collection[Card], joker: bool, free: bool
           ) -> list[Move]:
    """Seat ``p``'s plays of ``cards`` (each card once: two decks hold duplicates), and
    of a joker: each card as :func:`.facts.suit_naming` says it names a suit. Outside a
    melee that answer reads of the position only the seat's wild rank (through
    :func:`.facts.effect_of`) and :func:`.facts.wild_naming`'s answer, so the plays
    made for one seat, wild rank and answer are kept in the move book (for every card
    at once, the first time) and serve every position alike."""
    book = g.variant.moves
    key = (p, g.wild[p], wild_naming(g, p))
    plays = book.turn_plays.get(key)
    if plays is None:
        plays = book.turn_plays[key] = _every_play(g, p, book)
    if g.deck.decks > 1 and len(cards) > 1:
        cards = dict.fromkeys(cards)  # its keys serve as they are, in order
    moves: list[Move] = []
    for c in cards:
        moves += plays[c]
    if joker:
        moves += _joker_plays(g, p, free)
    return moves


def _every_play(g: Position, p: int, book: MoveBook) -> dict[Card, list[Move]]:
    """Seat ``p``'s plays of every card (jokers aside) as :func:`.facts.suit_naming`
    answers in ``g``."""
    return {c: _named(book, p, c, None, suit_naming(g, p, c, False, False))
            for c in ALL_CARDS}


def _joker_plays(g: Position, p: int, free: bool) -> list[Move]:
    """A joker's plays: each card it may stand for (:func:`.facts.joker_names`), with
    each suit for a wild one and no suit too when the joker is the seat's last card
    (:func:`.facts.suit_naming`). Kept in the move book by the answers they depend on:
    the names, and what a card's plays depend on (see :func:`_plays`). Jokers are rare:
    the names are worked out each time, the moves once."""
    book: MoveBook = g.variant.moves
    names = tuple(joker_names(g, p, free))
    key = (p, g.wild[p], wild_naming(g, p), names)
    moves: list[Move] | None = book.jokers.get(key)
    if moves is None:
        moves = book.jokers[key] = []
        for named in names:
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
        for named in (None,) if c.rank is not None else _twos(g.variant.draw_two_rank):
            if is_two_answer(g, c, named):
                moves.append(book.play(seat, c, None, named))
    return moves


def _twos(rank: Rank) -> tuple[Card, ...]:
    """The draw-two rank (a 2) of each suit: what a joker may stand for to pass a draw on."""
    return tuple(make_card(rank, s) for s in SUITS)


def _naming_moves(g: Position) -> list[Move]:
    """The dealer names a starting 8's suit, or the card a starting joker stands for
    (with a suit when that card is wild for the dealer and jokers have effects)."""
    d, book = g.dealer, g.variant.moves
    if not g.upcard.is_joker:
        return list(book.names[d])
    moves: list[Move] = []
    for c in ALL_CARDS:
        if starter_naming(g, c) == "none":
            moves.append(Move.name(d, as_card=c))
        else:
            moves += [Move.name(d, s, c) for s in SUITS]
    return moves


def _melee_moves(g: Position) -> list[Move]:
    """Plays of the next card up (or a joker standing for it) by every seat holding
    one that may continue, then the defender's draw (or pass, with nothing to draw)."""
    defender = g.melee.defender  # type: ignore[union-attr]
    nxt, book = melee_next(g), g.variant.moves
    moves: list[Move] = []
    for p in range(g.players):
        held = g.known[p]
        for c in (nxt, JOKER):
            if c in held and may_continue_melee(g, p, nxt)[0]:
                assert nxt is not None  # else the run stopped at the king: nobody continues
                named = None if c is nxt else nxt
                moves += _named(book, p, c, named, suit_naming(g, p, nxt, c is JOKER, True))
    moves.append(book.passes[defender] if melee_pass(g) else book.draws[defender])
    return moves


_PHASES: dict[str, Callable[[Position], list[Move]]] = {
    "debt": _debt_moves, "over": lambda g: [], "naming": _naming_moves,
    "melee": _melee_moves, "free": _free_moves}


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
