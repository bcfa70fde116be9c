"""The replay's question and answer as objects: what the table saw, and the verdicts.

A :class:`Question` is a hand as the table saw it (the sheet, the seats, what each
seat holds, the upcard, a mid-hand :class:`Situation`) and the events that followed,
each as the engine's :class:`~scorekeeper.core.engine.moves.Move` objects. An
:class:`Answer` is a :class:`Judged` step per event (the engine's
:class:`~scorekeeper.core.engine.moves.Verdict` and the passes taken with it), the
first illegal event and the position after the last.

The JSON API reads a request into a question (:func:`.replay.read_question`, the one
parser) and sends back :meth:`Answer.to_json`; the play checker builds its question
from its form and reads the answer's verdicts. :meth:`Question.to_json` writes the
question in the request format again (a ruling keeps it with the match, and reading it
back gives the same question).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.core.cards import Card, Suit, parse_card
from scorekeeper.core.engine.moves import Move, Verdict
from scorekeeper.core.sheets import Sheet

__all__ = ["Answer", "Held", "Judged", "Question", "Situation"]


@dataclass(frozen=True)
class Held:
    """What one seat holds as far as the table knows: the cards seen and how many
    more nobody saw."""

    cards: tuple[Card, ...] = ()
    unknown: int = 0

    def with_card(self, card: Card) -> Held:
        """This hand holding ``card`` too: one of the unseen cards was it, unless it
        was seen already.

        >>> from scorekeeper.core.cards import parse_card
        >>> held = Held(unknown=3).with_card(parse_card("8S"))
        >>> held.to_json()
        {'cards': ['8S'], 'unknown': 2}
        >>> held.with_card(parse_card("8S")) == held
        True
        """
        if card in self.cards:
            return self
        return Held((*self.cards, card), max(self.unknown - 1, 0))

    def to_json(self) -> Any:
        """As a request gives it: the cards, a count, or both."""
        cards = [str(c) for c in self.cards]
        if cards and self.unknown:
            return {"cards": cards, "unknown": self.unknown}
        return cards or self.unknown


@dataclass(frozen=True)
class Situation:
    """A hand under way (every field may be left out; the engine fills it in).

    ``active_suit`` None leaves the upcard's suit; ``any_suit`` says the request's
    ``"active_suit": null`` (any card may follow). ``melee`` is (aggressor, defender).
    The fields and their meaning are the request's ``situation`` (:mod:`.replay`).
    """

    turn: int | None = None
    direction: int = 1
    active_suit: Suit | None = None
    any_suit: bool = False
    upcard_as: Card | None = None
    melee: tuple[int, int] | None = None
    pending_draw: int = 0
    free_play: bool = False
    uncalled: int | None = None
    drawn: int = 0

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Situation:
        """A situation from request data the engine has already accepted."""
        melee, suit, up_as = data.get("melee"), data.get("active_suit"), data.get("upcard_as")
        return cls(turn=data.get("turn"), direction=data.get("direction", 1),
                   active_suit=None if suit is None else Suit.parse(suit),
                   any_suit="active_suit" in data and suit is None,
                   upcard_as=None if up_as is None else parse_card(up_as),
                   melee=None if melee is None else (melee["aggressor"], melee["defender"]),
                   pending_draw=data.get("pending_draw", 0),
                   free_play=data.get("free_play", False), uncalled=data.get("uncalled"),
                   drawn=data.get("drawn", 0))

    def to_json(self) -> dict[str, Any]:
        """The fields said, as the request writes them."""
        said: dict[str, Any] = {}
        if self.turn is not None:
            said["turn"] = self.turn
        if self.direction != 1:
            said["direction"] = self.direction
        if self.any_suit or self.active_suit is not None:
            said["active_suit"] = None if self.active_suit is None else self.active_suit.value
        if self.upcard_as is not None:
            said["upcard_as"] = str(self.upcard_as)
        if self.melee is not None:
            said["melee"] = {"aggressor": self.melee[0], "defender": self.melee[1]}
        for key in ("pending_draw", "free_play", "uncalled", "drawn"):
            if getattr(self, key):
                said[key] = getattr(self, key)
        return said


@dataclass(frozen=True)
class Question:
    """A hand as the table saw it and the events that followed (each as its moves).

    ``stock``, ``pile`` and ``counts`` are as the request gave them (a count or the
    cards; Countdown's counts) and read with the deck when the game starts.
    """

    sheet: Sheet
    players: int
    hands: tuple[Held, ...]
    upcard: Card
    dealer: int = 0
    situation: Situation | None = None
    names: tuple[str, ...] | None = None
    events: tuple[tuple[Move, ...], ...] = ()
    stock: Any = None
    pile: Any = None
    counts: tuple[Any, ...] | None = None
    include_legal_moves: bool = False

    def holding(self, seat: int, held: Held) -> Question:
        """The same question with ``seat`` holding ``held``."""
        return replace(self, hands=(*self.hands[:seat], held, *self.hands[seat + 1:]))

    def to_json(self) -> dict[str, Any]:
        """The question in the request format (:mod:`.replay`)."""
        data: dict[str, Any] = {
            "sheet": {"game": self.sheet.game, "options": dict(self.sheet.options)},
            "players": self.players, "dealer": self.dealer, "upcard": str(self.upcard),
            "situation": None if self.situation is None else self.situation.to_json(),
            "names": None if self.names is None else list(self.names),
            "hands": [h.to_json() for h in self.hands],
            "events": [_event_json(moves) for moves in self.events]}
        for key in ("stock", "pile", "counts"):
            value = getattr(self, key)
            if value is not None:
                data[key] = list(value) if isinstance(value, tuple) else value
        if self.include_legal_moves:
            data["include_legal_moves"] = True
        return data


def _event_json(moves: Sequence[Move]) -> dict[str, Any]:
    """One event as the request writes it: its seat and its action."""
    first = moves[0]
    event: dict[str, Any] = {"player": first.player}
    if first.kind == "draw":
        cards = [None if m.card is None else str(m.card) for m in moves]
        many: Any = cards if any(cards) else len(cards)
        event["draw"] = cards[0] if len(cards) == 1 else many
        return event
    if first.kind == "play":
        event["play"] = str(first.card)
    else:
        event[first.kind] = True
    if first.suit is not None:
        event["suit"] = first.suit.value
    if first.as_card is not None:
        event["as"] = str(first.as_card)
    return event


@dataclass(frozen=True)
class Judged:
    """One event judged: the engine's verdict, where its rule is explained, the seats
    whose unsaid pass was taken before it (``implied``) and those whose pass the engine
    took after it because nothing else was left (``moved_on``). ``seat_names`` name
    the seats in the words of the JSON answer; ``legal_moves`` is what each seat could
    do just before, when asked."""

    verdict: Verdict
    rule_url: str
    implied: tuple[int, ...] = ()
    moved_on: tuple[int, ...] = ()
    seat_names: tuple[str, ...] = ()
    legal_moves: Mapping[str, Any] | None = None

    @property
    def legal(self) -> bool | None:
        """The verdict's ``legal``: True, False, or None when it cannot be told."""
        return self.verdict.legal

    def to_json(self) -> dict[str, Any]:
        """The step as the API answers it (``ReplayStep``)."""
        step = self.verdict.to_dict()
        step["rule_url"] = self.rule_url
        for key, seats in (("implied", self.implied), ("moved_on", self.moved_on)):
            if seats:
                step[key] = [f"pass by {self.seat_names[seat]}" for seat in seats]
                step[f"{key}_seats"] = list(seats)
        if self.legal_moves is not None:
            step["legal_moves"] = self.legal_moves
        return step


@dataclass(frozen=True)
class Answer:
    """A verdict per event replayed, up to the first illegal one, and the position
    after the last (``state``: the API's ``ReplayState``, plain data)."""

    steps: tuple[Judged, ...]
    first_illegal: int | None
    state: Mapping[str, Any] = field(default_factory=dict)

    @property
    def uncertain(self) -> list[int]:
        """The events the engine could not rule on (their verdict's ``legal`` is None)."""
        return [i for i, s in enumerate(self.steps) if s.legal is None]

    def to_json(self) -> dict[str, Any]:
        """The answer as the API sends it (``ReplayResponse``)."""
        return {"ok": self.first_illegal is None, "first_illegal": self.first_illegal,
                "uncertain": self.uncertain, "steps": [s.to_json() for s in self.steps],
                "state": dict(self.state)}
