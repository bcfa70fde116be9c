"""The words of the verdicts: what to follow, why a draw or pass is refused or allowed.

The predicates of :mod:`.facts` answer with short codes (``limit``, ``may-draw``...);
the texts for them live here, once, so :mod:`.verdicts` stays a list of decisions.

>>> article("8"), article("A"), article("10"), article("heart")
('an 8', 'an A', 'a 10', 'a heart')
"""

from __future__ import annotations

from scorekeeper.core.cards import Card
from scorekeeper.core.engine.facts import available, can_draw, peek
from scorekeeper.core.engine.moves import Move, Verdict
from scorekeeper.core.engine.position import Position

__all__ = ["article", "check_draw_card", "draw_reason", "draws_reason", "follow_text",
           "forced_reason", "not_held", "pass_reason"]


def article(word: str) -> str:
    """``word`` with "a" or "an" as spoken: an 8, an A, an ace; a 10, a spade."""
    return f"{'an' if word[:1] in ('8', 'A', 'a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def follow_text(g: Position) -> str:
    """What may follow the upcard now, in words."""
    s, up = g.active_suit, g.upcard_as
    if s is None:
        return "any card may follow"
    if g.rank_open:
        return f"play {article(s.label[:-1])} or {article(up.rank.label)}"  # type: ignore[union-attr]
    return f"play {article(s.label[:-1])} (the suit named)"


def not_held(g: Position, p: int, c: Card) -> Verdict:
    """The refusal of a card the seat does not hold."""
    return Verdict(False, f"{g.seat_name(p)} does not hold {c.pretty}",
                   g.variant.rule["turn"])


def draw_reason(g: Position, p: int, why: str) -> str:
    """The reason for :func:`.facts.may_draw`'s answer ``why``."""
    who, again = g.seat_name(p), " again" if g.drawn else ""
    if why == "empty":
        return "nothing is left to draw: play or pass"
    if why == "limit":
        n = g.drawn
        return (f"{who} has drawn {n} card{'s' if n > 1 else ''}, the most this sheet "
                "allows in one turn")
    if why == "playable":
        return (f"{who} holds a playable card and may not draw{again}: under this sheet "
                "drawing stops once a card can be played")
    if why == "unsure":
        return (f"cannot tell from what the table saw whether {who} could play (only a "
                f"player who cannot play may draw{again})")
    return f"{who} draws{again}"


def forced_reason(g: Position, p: int) -> tuple[str, str]:
    """Why seat ``p``'s pass was all it had left (the engine took it and the turn moved
    on), and the rule's kind: :func:`.facts.only_pass_left`'s answer, kept with the
    pass in ``passes_taken`` (the seat's first, the one a written-out pass notes)."""
    why = next(answer for seat, answer in g.passes_taken if seat == p)
    who = g.seat_name(p)
    if why == "empty":
        return f"nothing is left to draw and {who} had no card to play", "stock"
    if why == "three":
        return f"{who} had no card that matches the 3 for the free play", "three"
    if why == "drawn":
        return (f"{who} has drawn this turn, and under this sheet a player who draws may "
                "not also play", "draw")
    return (f"{who} has drawn the most cards this sheet allows in one turn and holds no "
            "card to play", "draw")


def draws_reason(who: str, owed: int, n: int) -> str:
    """The reason for one event of ``n`` draws by ``who``, who owed ``owed`` cards
    (0: it drew of its own accord; see ``Verdict.draws``).

    >>> draws_reason("Bo", 2, 2), draws_reason("Bo", 0, 3)
    ('Bo owes 2 cards and draws 2', 'Bo draws 3 cards')
    """
    if owed > 1:
        return f"{who} owes {owed} cards and draws {n}"
    return f"{who} draws {n} cards"


def pass_reason(g: Position, p: int, why: str, draw: bool | None) -> str:
    """The reason for :func:`.facts.may_pass`'s answer ``why``; ``draw`` is
    :func:`.facts.may_draw`'s answer in the same position."""
    who = g.seat_name(p)
    if why == "decline":
        return f"{who} has drawn and may keep the playable card: the turn ends"
    if why == "playable":
        more = " or draw" if draw else ""
        return (f"{who} holds a playable card: play it{more}; only a player who cannot "
                "play passes")
    if why == "unsure-draw":
        return (f"cannot tell from what the table saw whether {who} could play; one who "
                "cannot must draw while cards and the limit allow")
    if why == "may-draw":
        return f"{who} cannot play and may still draw, so may not pass yet"
    if why == "unsure-stuck":
        return (f"cannot tell from what the table saw whether {who} could play; with "
                "nothing left to draw only one who cannot play passes")
    if why == "drawn-out":
        return f"{who} may draw no more this turn: the turn ends with a pass"
    return f"nothing is left to draw and {who} cannot play: {who} passes"


def check_draw_card(g: Position, move: Move, ok: Verdict) -> Verdict:
    """Refuse a draw when nothing can be drawn or the named card cannot be on top;
    else ``ok``."""
    rule = g.variant.rule
    if not can_draw(g):
        return Verdict(False, "nothing is left to draw", rule["stock"])
    c = move.card
    if c is not None:
        top = peek(g)
        if top is not None and top != c:
            return Verdict(False, f"the next card of the stock is {top.pretty}, "
                           f"not {c.pretty}", rule["draw"])
        shuffled_in = not g.stock and c in g.pile[:-1]  # the pile becomes the stock
        if top is None and not shuffled_in and not available(g, c):
            return Verdict(False, f"no {c.pretty} is left unseen to draw", rule["draw"])
    return ok
