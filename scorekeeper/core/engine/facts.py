"""The facts of a position and the rule predicates, each written once.

A predicate answers one question of the rules ("may the seat on turn draw?", "may it
pass?", "may this card be played?", "does this play name a suit?") from a
:class:`~.position.Position`. :mod:`.verdicts` turns the answer into a reason and a
rule id; :mod:`.legal` lists the moves the answers allow. Answers are True, False,
or None when they depend on cards nobody has seen; predicates that explain themselves
return ``(answer, why)``, where ``why`` is a short code the verdicts put into words.

>>> from scorekeeper.core.engine import parse_position
>>> g = parse_position("c8 | up 9H | turn 1 | hands 5/6C,KD")
>>> may_draw(g, can_play(g, 1)), may_pass(g, can_play(g, 1))
((True, 'draw'), (False, 'may-draw'))
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from scorekeeper.core.cards import ALL_CARDS, JOKER, Card, Rank
from scorekeeper.core.cards import card as make_card
from scorekeeper.core.engine.position import Position

__all__ = [
    "available",
    "can_draw",
    "can_play",
    "effect_of",
    "holds",
    "is_stuck",
    "is_two_answer",
    "joker_names",
    "may_call",
    "may_continue_melee",
    "may_draw",
    "may_name_for_joker",
    "may_pass",
    "may_play_card",
    "may_play_now",
    "may_stack",
    "melee_next",
    "melee_pass",
    "melee_rank",
    "next_in_run",
    "only_pass_left",
    "peek",
    "playable_cards",
    "plays_open",
    "refill_order",
    "starter_naming",
    "suit_naming",
    "turn_choices",
    "unseen_cards",
    "wild_naming",
]

Answer = bool | None


# ------------------------------------------------------------------ cards

def playable_cards(g: Position, p: int, cards: Iterable[Card], free: bool = False
                   ) -> list[Card]:
    """The cards among ``cards`` (jokers aside) that seat ``p`` may play now: its wild
    rank, the active suit, or the upcard's rank while it counts; with no active suit,
    or as the free card on a 3 that may be any card (``free``), every one of them.
    The one statement of what may follow the upcard."""
    s = g.active_suit
    if s is None or (free and g.variant.three_free_play != "matching"):
        return [c for c in cards if c.rank is not None]
    # The suit first (the usual match), then the wild rank and the upcard's rank while
    # it counts, each by identity (ranks and suits are enum members; a joker has
    # neither). A plain loop: the listing asks this once a move, and for a hand of five
    # to eight cards it runs about a quarter faster than a comprehension on Python 3.11
    # (the rank read once: 0.3% fewer instructions in a two-player simulation).
    wild = g.wild[p]
    up = g.upcard_as.rank if g.rank_open else wild  # type: ignore[union-attr]
    out: list[Card] = []
    for c in cards:
        if c.suit is s:
            out.append(c)
        else:
            rank = c.rank
            if rank is wild or rank is up:
                out.append(c)
    return out


def may_play_card(g: Position, c: Card, p: int, free: bool) -> bool:
    """Whether seat ``p`` may play non-joker ``c`` now: it follows the upcard, or it
    is the free card on a 3 that may be any card."""
    return bool(playable_cards(g, p, (c,), free))


def joker_names(g: Position, p: int, free: bool) -> Sequence[Card]:
    """The cards a joker played by seat ``p`` may stand for now: any card, or, when
    the sheet says the named card must be legal, one that could be played itself."""
    if not g.variant.joker_must_be_legal:
        return ALL_CARDS
    return playable_cards(g, p, ALL_CARDS, free)


def may_name_for_joker(g: Position, named: Card, p: int, free: bool) -> bool:
    """Whether a joker may stand for ``named`` now (:func:`joker_names`)."""
    return named in joker_names(g, p, free)


def effect_of(g: Position, eff: Card, p: int, joker: bool) -> str | None:
    """The effect code of card ``eff`` played by ``p`` (``eight`` for a wild)."""
    if joker and not g.variant.joker_effects:
        return None
    if eff.rank is g.wild[p]:
        return "eight"
    return g.variant.rank_effects[eff.rank]  # type: ignore[no-any-return]


def suit_naming(g: Position, p: int, eff: Card, joker: bool, in_melee: bool) -> str:
    """Whether seat ``p``'s play of ``eff`` (a joker's named card when ``joker``)
    names a suit: a wild does (:func:`wild_naming`), any other card does not
    (``none``). In a melee a wild names a suit only with ``melee_effects``."""
    if in_melee and not g.variant.melee_effects:
        return "none"
    if effect_of(g, eff, p, joker) != "eight":
        return "none"
    return wild_naming(g, p)


def starter_naming(g: Position, named: Card) -> str:
    """Whether the dealer, naming the card a starting joker stands for, also names a
    suit: ``needed`` when that card is wild for the dealer and jokers have effects,
    else ``none`` (the dealer keeps its cards, so the starter never goes out)."""
    return "none" if suit_naming(g, g.dealer, named, True, False) == "none" else "needed"


def wild_naming(g: Position, p: int) -> str:
    """How seat ``p``'s wild names a suit: ``needed``, or ``free`` when it is the
    seat's last card (the hand is over: no suit is needed, one named anyway is fine)."""
    return "free" if len(g.known[p]) + g.unknown[p] == 1 else "needed"


def unseen_cards(g: Position) -> list[Card]:
    """The deck's cards nobody has seen: not in a known hand, the pile or the stock
    (one entry per copy; they fill the unseen places in hands, stock and pile)."""
    seen = Counter(c for k in g.known for c in k)
    seen.update(c for c in g.pile if c is not None)
    seen.update(c for c in g.stock if c is not None)
    out: list[Card] = []
    for c in g.deck.cards():
        if seen[c]:
            seen[c] -= 1
        else:
            out.append(c)
    return out


def can_play(g: Position, p: int, free: bool = False) -> Answer:
    """Whether seat ``p`` holds a card that could be played now (``free``: as the free
    card on a 3); None when it depends on unseen cards. A joker can always be played:
    some 8 is always a legal card for it to name. Unseen cards are deduced from the
    deck: when the unseen cards hold fewer unplayable cards than the seat holds unseen,
    some of its cards must be playable; when none of them could be played, it cannot
    play."""
    known = g.known[p]
    if JOKER in known or playable_cards(g, p, known, free):
        return True
    held = g.unknown[p]
    if not held:
        return False
    pool = unseen_cards(g)
    playable = pool.count(JOKER) + len(playable_cards(g, p, pool, free))
    if playable == 0:
        return False
    return True if len(pool) - playable < held else None


def plays_open(g: Position, p: int, free: bool) -> tuple[Answer, Collection[Card], bool]:
    """What seat ``p`` may play now: whether it can play (:func:`can_play`), the cards
    it may play (jokers aside) and whether it may play a joker. The cards are those of
    its known hand; when none of those can be played but the deck shows that one of
    its unseen cards must be, each card that one may be."""
    known = g.known[p]
    cards: Collection[Card] = playable_cards(g, p, known, free)
    joker = bool(g.deck.jokers) and JOKER in known
    if cards or joker or not g.unknown[p]:
        return bool(cards) or joker, cards, joker
    answer = can_play(g, p, free)
    if answer is not True:
        return answer, (), False
    pool = list(dict.fromkeys(unseen_cards(g)))
    return True, playable_cards(g, p, pool, free), JOKER in pool


def available(g: Position, c: Card) -> bool:
    """Whether a copy of ``c`` may still be unseen somewhere (for unseen hands)."""
    seen = sum(k.count(c) for k in g.known) + g.pile.count(c) + g.stock.count(c)
    return seen < g.deck.copies(c)


def holds(g: Position, p: int, c: Card) -> bool:
    """Whether seat ``p`` holds ``c`` or may hold it among unseen cards."""
    return c in g.known[p] or (g.unknown[p] > 0 and available(g, c))


# ------------------------------------------------------------------ stock

def can_draw(g: Position) -> bool:
    """Whether a card can be drawn (from the stock, or from the pile turned over)."""
    return bool(g.stock) or len(g.pile) > 1


def refill_order(g: Position) -> list[Card | None]:
    """The new stock (top last) made from the pile under the upcard: turned over in
    order (Crazy Eights and Countdown, ``refill`` "turn"), or shuffled (Last One, and
    ``refill`` "shuffle"), so unseen unless the stock is tracked card by card."""
    rest = g.pile[:-1]
    if not g.variant.refill_shuffles:
        return rest[::-1]
    if not g.known_stock:
        return [None] * len(rest)
    random.Random((g.seed or 0) * 1_000_003 + g.refills).shuffle(rest)
    return rest


def peek(g: Position) -> Card | None:
    """The card the next draw takes, when known."""
    if g.stock:
        return g.stock[-1]
    order = refill_order(g)
    return order[-1] if order else None


# ------------------------------------------------------------------ turns

Explained = tuple[Answer, str]  # an answer with why


def turn_choices(g: Position, playable: Answer) -> tuple[bool, bool, Explained, Explained]:
    """The choices of the seat on turn on a plain turn, ``playable`` being whether it
    can play (:func:`can_play`): may it play a card now (:func:`may_play_now`), must it
    first name the suit of a starting wild, may it draw (again) (:func:`may_draw`), and
    may it pass (:func:`may_pass`), the last two with why. Each rule is stated here
    once: the listing, :func:`only_pass_left` and the turn's verdict ask for all four
    at once.

    A seat plays before drawing, or after drawing when ``play_after_draw`` allows it.
    In Crazy Eights and Countdown, when the starter is the first player's wild rank,
    that player names its suit before it draws or passes (or plays any card, naming
    the suit by playing it). A seat that has drawn may draw again while it has drawn
    fewer cards this turn than the limit."""
    v = g.variant
    drawn = g.drawn
    play = not drawn or v.play_after_draw
    name = g.active_suit is None and not drawn and not v.info.dealer_plays_starter
    if not can_draw(g):
        return play, name, (False, "empty"), _PASSES[False, drawn > 0, playable]
    if drawn and v.draw_limit is not None and drawn >= v.draw_limit:
        return play, name, (False, "limit"), _PASSES[False, True, playable]
    if v.draw_with_playable or playable is False:
        draw: Explained = (True, "draw")
    else:
        draw = (False, "playable") if playable else (None, "unsure")
    return play, name, draw, _PASSES[True, drawn > 0, playable]


def _pass_answer(drawable: bool, drawn: bool, playable: Answer) -> tuple[Answer, str]:
    """May the seat on turn pass, given whether it may still draw (cards and the
    limit allow), whether it has drawn, and whether it can play (see :func:`may_pass`).
    Before drawing, a seat that may not draw has nothing to draw: ``stuck`` is
    :func:`is_stuck` then."""
    if playable:
        return (True, "decline") if drawn else (False, "playable")
    if drawable:
        # Before drawing nobody passes: one who can play plays, one who cannot draws.
        return (None, "unsure-draw") if playable is None and drawn else (False, "may-draw")
    if playable is None and not drawn:
        return None, "unsure-stuck"
    return True, "drawn-out" if drawn else "stuck"


# Every answer of _pass_answer, looked up by turn_choices (no call on the listing's path).
_PASSES = {(drawable, drawn, playable): _pass_answer(drawable, drawn, playable)
           for drawable in (True, False) for drawn in (True, False)
           for playable in (True, False, None)}


def may_play_now(g: Position) -> bool:
    """Whether the seat on turn may play a card now: before drawing, or after drawing
    when ``play_after_draw`` allows it (:func:`turn_choices`)."""
    return turn_choices(g, None)[0]


def may_draw(g: Position, playable: Answer) -> Explained:
    """May the seat on turn draw (again)? Why not: ``empty`` (nothing to draw),
    ``limit`` (the draw limit is reached) or ``playable`` (it holds a playable card
    and the sheet stops drawing then); ``unsure`` when that depends on unseen cards
    (:func:`turn_choices`)."""
    return turn_choices(g, playable)[2]


def may_pass(g: Position, playable: Answer) -> Explained:
    """May the seat on turn pass? After drawing, to keep a playable card
    (``decline``) or when it may draw no more (``drawn-out``); before drawing, only
    with nothing to draw and nothing to play (``stuck``). Why not: ``playable``
    (play it), ``may-draw`` (it may still draw, and before drawing nobody passes);
    ``unsure`` when that depends on unseen cards (:func:`turn_choices`)."""
    return turn_choices(g, playable)[3]


def only_pass_left(g: Position) -> str | None:
    """Why the seat on turn certainly has nothing left but the pass, so the turn moves
    on by itself (the rules reference "Drawing, precisely"); None when it has a choice.
    On a 3's free play, ``three``: no card it holds may go on the 3. On a plain turn,
    when it may not draw again (:func:`may_draw`) and cannot play: ``empty`` (nothing
    is left to draw), ``drawn`` (it has drawn and may not play after drawing) or
    ``limit`` (it has drawn as many cards as the sheet allows). The one source of the
    forced pass: the game asks it after every move and of the position it starts from,
    and keeps the answer with the pass it takes (``Position.passes_taken``).

    Only a free play or a plain turn can be left with nothing but the pass, and a seat
    that has not drawn and could draw always has a choice: that common case is
    answered first. The draw answer of :func:`turn_choices` reads what the seat holds
    only when ``draw_with_playable`` is off, so only then is that worked out first."""
    if g.free_play:
        return "three" if g.phase() == "free" and can_play(g, g.turn, True) is False else None
    if not g.drawn and can_draw(g):
        return None
    if g.phase() != "turn":
        return None
    p = g.turn
    playable = None if g.variant.draw_with_playable else can_play(g, p)
    play, name, (draw, why), _ = turn_choices(g, playable)
    if name or draw is not False:
        return None
    if not play:
        return "empty" if why == "empty" else "drawn"
    if playable is None:
        playable = can_play(g, p)
    return why if playable is False else None


def is_stuck(g: Position, p: int) -> bool:
    """Whether seat ``p``, on a plain turn, can neither draw (nothing is left to draw)
    nor play (:func:`can_play` is not True): before drawing it may then pass
    (:func:`may_pass`: ``stuck``, or ``unsure-stuck`` when that depends on unseen
    cards), and its pass, drawn or not, counts towards a blocked or jammed hand."""
    return not can_draw(g) and g.phase() == "turn" and can_play(g, p) is not True


def melee_pass(g: Position) -> bool:
    """Whether the melee's defender ends it with a pass rather than a draw: nothing is
    left to draw."""
    return not can_draw(g)


def may_call(g: Position, p: int) -> tuple[bool, str]:
    """May seat ``p`` call "last one"/"last card" now? Only under a sheet with the
    call, holding one card, before another seat plays or draws. Why not:
    ``no-call`` (the sheet has none), ``not-one`` (it holds more or fewer cards) or
    ``nothing`` (it has no call to make: made, or too late)."""
    if not g.variant.last_card_call:
        return False, "no-call"
    if g.hand_size(p) != 1:
        return False, "not-one"
    return (True, "call") if g.uncalled == p else (False, "nothing")


# ------------------------------------------------------------------ owed cards

def may_stack(g: Position) -> tuple[bool, str]:
    """May the seat owing cards answer with a 2 instead of drawing? Only a 2's draw,
    not yet begun, in a hand still going on, under a sheet whose 2s stack. Why not:
    ``no-stacking`` (2s do not stack here) or ``must-draw``."""
    debt = g.debts[0]
    if debt.reason != "two" or debt.left != debt.total or g.result is not None:
        return False, "must-draw"
    return (True, "stack") if g.variant.twos_stack else (False, "no-stacking")


def is_two_answer(g: Position, c: Card, named: Card | None) -> bool:
    """Whether playing ``c`` (a joker standing for ``named``) is a 2 that passes the
    draw on: a 2 as itself, or a joker named as a 2 when jokers have effects."""
    if c.is_joker:
        return (g.variant.joker_effects and named is not None
                and named.rank is g.variant.draw_two_rank)
    return c.rank is g.variant.draw_two_rank and named is None


# ------------------------------------------------------------------ melee

def melee_rank(g: Position) -> Rank:
    """The rank a running melee stands on (a melee only starts on a ranked card)."""
    up = g.upcard_as
    if up is None or up.rank is None:
        raise ValueError("no melee is running on a ranked upcard")
    return up.rank


def melee_next(g: Position) -> Card | None:
    """The card that continues the melee, or None when the run has stopped at K."""
    up = g.upcard_as
    if up is None:
        return None
    return next_in_run(up, g.variant.melee_wrap)


def next_in_run(up: Card, wrap: bool) -> Card | None:
    """The card that goes on from ``up`` in a melee's run: the next rank up of its
    suit; None on a joker, or after the K unless the run wraps (``melee_wrap``).

    >>> from scorekeeper.core.cards import parse_card
    >>> four, king = parse_card("4h"), parse_card("kh")
    >>> next_in_run(four, False) is parse_card("5h"), next_in_run(king, False)
    (True, None)
    """
    if up.rank is None or up.suit is None:
        return None  # no melee runs on a joker
    rank = up.rank.next_up(wrap)
    return None if rank is None else make_card(rank, up.suit)


def may_continue_melee(g: Position, p: int, nxt: Card | None) -> tuple[bool, str]:
    """May seat ``p`` continue the melee with ``nxt``, the card that continues it
    (:func:`melee_next`, worked out once by the caller for every seat)? Why not:
    ``aggressor`` (it played the last card) or ``king`` (the run stopped at K)."""
    if g.melee is not None and p == g.melee.aggressor:
        return False, "aggressor"
    if nxt is None:
        return False, "king"
    return True, "continue"
