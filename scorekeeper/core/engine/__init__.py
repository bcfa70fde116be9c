"""The rules engine: a pure state machine for Last One, Crazy Eights and Countdown.

It imports only the standard library and the rest of ``scorekeeper.core``.

Quick tour::

    g = HandInPlay.start(sheet, players, dealer, hands, upcard, stock=None, situation=None,
                   counts=None, seed=None, names=None)  # or HandInPlay.deal(sheet, players, ...)
    g.current_player, g.actors(), g.legal_moves(), g.legal_moves_by_player()
    g.check(move) -> Verdict(legal True/False/None, reason, rule id, cause, implied,
                             needs_suit, assumed, draws)
    g.apply(move)  # raises NotYourTurnError / IllegalPlayError / GameOverError
    g.undo(); g.is_over; g.outcome(); g.summary()

>>> g = parse_position("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C")
>>> g.check(Move.parse("1:4S")).legal, g.check(Move.parse("1:5C")).rule
(True, 'c8-turn')

A replay request (what the table saw: the deal and the events that followed) is read
into a :class:`~.question.Question` by :func:`~.replay.read_question` and judged by
:func:`~.replay.answer` into an :class:`~.question.Answer` (a :class:`Verdict` per
event); its format is documented once, in :mod:`scorekeeper.core.engine.replay`, and
a question built in code is checked as a request is. In code, build a game with
:meth:`HandInPlay.start` and apply :class:`Move` objects; ``g.replay(moves)`` returns how many
were applied and the error of the first refused one (its ``verdict`` says why and
cites the rule). ``g.summary()`` is JSON-ready. A position that cannot be raises
:class:`SetupError`, whose ``field`` names what is at fault. Reasons name seats
"seat 0", "seat 1"... unless ``names`` are given.

Move text (``Move.parse``): ``1:8S/D`` (seat 1 plays an 8 naming diamonds), ``0:JK=5H``
(a joker as 5♥), ``2:draw`` or ``2:draw:7C`` (one card, owed cards too), ``1:pass``,
``1:call`` ("last one"/"last card", by the seat holding one card, any time before
another seat plays or draws) and ``0:name/D`` / ``0:name=5H``: in a fresh Last One
hand whose upcard is an 8 or a joker (with ``starter_effects``), the dealer first names
its suit or card; in Crazy Eights the first player may name the suit of a starting 8
(``1:name/D``) before playing, and must before drawing.

The engine is split by concern: :mod:`.position` holds a hand's data; :mod:`.facts`
the predicates (may draw, may pass, may play this card, only the pass left...), each
written once and asked by both :mod:`.verdicts` (``check``, with the reason and the
rule) and :mod:`.legal` (``legal_moves``); :mod:`.effects` carries moves out, and a
game takes one back by making the moves before it again from a position it kept; a
move listed with every card known is made without judging it again, its verdict judged
when read (:mod:`.apply_listed`). Judging never changes the game. When the seat on turn
has nothing left but the pass (:func:`.facts.only_pass_left`), the turn moves on by
itself, after a move and in the position a game starts from (``g.forced`` names the
seats passed so; a pass written out for them is still accepted). A pass the table
leaves unsaid is judged as the written one when the next seat acts. A wild (or a joker
as one) played as the last card needs no suit. What a caller needs of a verdict is a
field (``needs_suit``, ``assumed``, ``draws``); the reason is for people.
"""

from __future__ import annotations

from scorekeeper.core.cards import parse_card
from scorekeeper.core.engine.moves import (
    GameOverError,
    IllegalMoveError,
    IllegalPlayError,
    Move,
    NotYourTurnError,
    SetupError,
    Verdict,
)
from scorekeeper.core.engine.notation import parse_position
from scorekeeper.core.engine.replay import read_events, read_game, run
from scorekeeper.core.engine.state import HandInPlay, Outcome
from scorekeeper.core.sheets import Sheet

__all__ = [
    "GameOverError",
    "HandInPlay",
    "IllegalMoveError",
    "IllegalPlayError",
    "Move",
    "NotYourTurnError",
    "Outcome",
    "SetupError",
    "Sheet",
    "Verdict",
    "parse_card",
    "parse_position",
    "read_events",
    "read_game",
    "run",
]
