"""Moves, verdicts and the errors the engine raises.

A :class:`Move` always names the seat that makes it, because in a melee players act
out of turn. Its text form is compact and round-trips through :meth:`Move.parse`:

>>> Move.play(1, parse_card("8S"), suit=Suit.DIAMONDS)
Move.parse('1:8S/D')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.core.cards import Card, CardError, Suit, parse_card
from scorekeeper.core.errors import InputError

__all__ = [
    "KINDS",
    "GameOverError",
    "IllegalMoveError",
    "IllegalPlayError",
    "Move",
    "NotYourTurnError",
    "SetupError",
    "Verdict",
]

KINDS = ("play", "draw", "pass", "call", "name")


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One action at the table, made by ``player`` (a seat number from 0).

    ``kind`` is ``play``, ``draw``, ``pass``, ``call`` ("last one"/"last card") or
    ``name`` (the dealer names the suit of a starting 8 or the card of a starting
    joker). ``card`` is the card played or drawn (None: a draw whose card nobody saw),
    ``suit`` the suit named with an 8 or a wild card, ``as_card`` what a joker stands
    for. Build moves with the constructors rather than by hand.
    """

    kind: str
    player: int
    card: Card | None = None
    suit: Suit | None = None
    as_card: Card | None = None

    @classmethod
    def play(cls, player: int, card: Card, suit: Suit | None = None,
             as_card: Card | None = None) -> Move:
        """Play ``card``, naming ``suit`` for an 8 or wild and ``as_card`` for a joker.

        >>> str(Move.play(0, parse_card("JK"), as_card=parse_card("5H")))
        '0:JK=5H'
        """
        return cls("play", player, card, suit, as_card)

    @classmethod
    def draw(cls, player: int, card: Card | None = None) -> Move:
        """Draw one card (``card`` when it is known, else None).

        >>> str(Move.draw(2)), str(Move.draw(2, parse_card("7C")))
        ('2:draw', '2:draw:7C')
        """
        return cls("draw", player, card)

    @classmethod
    def pass_(cls, player: int) -> Move:
        """End the turn without playing (declining a free play or a drawn card)."""
        return cls("pass", player)

    @classmethod
    def call(cls, player: int) -> Move:
        """Call "last one" / "last card"."""
        return cls("call", player)

    @classmethod
    def name(cls, player: int, suit: Suit | None = None, as_card: Card | None = None) -> Move:
        """The dealer names the suit of a starting 8 or the card of a starting joker.

        >>> str(Move.name(0, as_card=parse_card("8H"), suit=Suit.CLUBS))
        '0:name=8H/C'
        """
        return cls("name", player, None, suit, as_card)

    def __eq__(self, other: object) -> bool:
        # Cards and suits are interned (one object each), so they compare by identity;
        # the game compares a move with the moves it listed on every move it makes.
        if self is other:
            return True
        if other.__class__ is not Move:
            return NotImplemented
        return (self.card is other.card and self.player == other.player
                and self.kind == other.kind and self.suit is other.suit
                and self.as_card is other.as_card)

    def __hash__(self) -> int:
        return hash((self.kind, self.player, self.card, self.suit, self.as_card))

    def __str__(self) -> str:
        if self.kind == "play":
            head = f"{self.player}:{self.card}"
        elif self.kind == "draw" and self.card is not None:
            return f"{self.player}:draw:{self.card}"
        else:
            head = f"{self.player}:{self.kind}"
        if self.as_card is not None:
            head += f"={self.as_card}"
        if self.suit is not None:
            head += f"/{self.suit.value}"
        return head

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the compact form: ``1:8S/D``, ``0:JK=5H``, ``2:draw``, ``2:draw:7C``,
        ``1:pass``, ``1:call``, ``0:name/D``.

        >>> Move.parse("3:draw:10h").card
        Card.parse('10H')
        """
        try:
            seat, _, rest = text.strip().partition(":")
            player = int(seat)
        except ValueError:
            raise CardError(f"{text!r} is not a move: write seat:action, e.g. 1:8S/D") from None
        rest, _, suit_text = rest.partition("/")
        rest, _, as_text = rest.partition("=")
        suit = Suit.parse(suit_text) if suit_text else None
        as_card = parse_card(as_text) if as_text else None
        word, _, drawn = rest.lower().partition(":")
        if word == "draw":
            return cls.draw(player, parse_card(drawn) if drawn else None)
        if word in ("pass", "call", "name"):
            return cls(word, player, None, suit, as_card)
        return cls.play(player, parse_card(rest), suit, as_card)


class Verdict:
    """Whether a move is legal, why, and which rule says so, with what a caller needs
    as fields (nobody reads the reason but people).

    ``legal`` is True, False, or None when the answer depends on cards nobody at the
    table has seen. ``rule`` is a rules-reference anchor from the game's ``Game.sections``.
    ``cause`` sorts refusals: ``turn`` (not this player's turn), ``over`` (the hand
    has ended) or ``play`` (any other broken rule). ``implied`` lists the seats whose
    unsaid pass the move takes as said (the move is judged after those passes).
    ``needs_suit`` is True when the move is refused only for want of a named suit:
    the same play (or naming) with a suit is legal. ``assumed`` lists, when ``legal``
    is None, the seats assumed to hold no playable card (their cards unseen): the
    move is legal if they could not play. ``draws`` is what a legal draw costs in
    all: the cards the seat owes or must draw (one for a plain draw), 0 for any other
    move.

    >>> Verdict(True, "8♠ follows spades", "c8-turn")
    Verdict(legal=True, reason='8♠ follows spades', rule='c8-turn', cause='play', implied=())
    """

    __slots__ = ("assumed", "cause", "draws", "implied", "legal", "needs_suit", "reason",
                 "rule")

    def __init__(self, legal: bool | None, reason: str, rule: str, cause: str = "play",
                 implied: tuple[int, ...] = (), *, needs_suit: bool = False,
                 assumed: tuple[int, ...] = (), draws: int = 0) -> None:
        self.legal = legal
        self.reason = reason
        self.rule = rule
        self.cause = cause
        self.implied = implied
        self.needs_suit = needs_suit
        self.assumed = assumed
        self.draws = draws

    def but(self, **fields: Any) -> Verdict:
        """This verdict with some fields changed.

        >>> Verdict(True, "seat 1 draws", "c8-drawing", draws=1).but(legal=None).legal is None
        True
        """
        values = {name: getattr(self, name) for name in _VERDICT_FIELDS}
        values.update(fields)
        return Verdict(**values)

    def to_dict(self) -> dict[str, Any]:
        """The fields as plain JSON data (a replay step's, see replay.py)."""
        return {"legal": self.legal, "reason": self.reason, "rule": self.rule,
                "cause": self.cause, "needs_suit": self.needs_suit,
                "assumed": list(self.assumed), "draws": self.draws}

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _VERDICT_FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "".join(f", {name}={getattr(self, name)!r}" for name in _VERDICT_FIELDS[5:]
                        if getattr(self, name))
        return (f"Verdict(legal={self.legal!r}, reason={self.reason!r}, rule={self.rule!r}, "
                f"cause={self.cause!r}, implied={self.implied!r}{extra})")


_VERDICT_FIELDS = ("legal", "reason", "rule", "cause", "implied", "needs_suit", "assumed",
                   "draws")


class SetupError(InputError):
    """A starting position that cannot be: wrong seat count, bad hands, bad situation.

    ``field`` names the request field at fault, in the replay request's terms
    (``hands[1]``, ``situation.melee``, ``upcard``, ``stock``, ``counts``...), so a
    form or an API can show the message where it belongs without reading it.

    >>> SetupError("dealer must be a seat from 0 to 2, not 5", "dealer").field
    'dealer'
    """

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message, field)


class IllegalMoveError(ValueError):
    """A move the rules refuse; ``verdict`` says why and cites the rule."""

    def __init__(self, move: Move, verdict: Verdict) -> None:
        super().__init__(f"{str(move)!r} refused: {verdict.reason} [{verdict.rule}]")
        self.move = move
        self.verdict = verdict


class NotYourTurnError(IllegalMoveError):
    """The player may not act now (another player is to act)."""


class IllegalPlayError(IllegalMoveError):
    """The player may act, but not this way (wrong card, must draw, cannot pass...)."""


class GameOverError(IllegalMoveError):
    """The hand is already over."""


ERRORS: dict[str, type[IllegalMoveError]] = {
    "turn": NotYourTurnError,
    "play": IllegalPlayError,
    "over": GameOverError,
}
