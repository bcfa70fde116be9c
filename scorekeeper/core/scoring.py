"""Hand scoring, match standings and the dealer rotation (the rules reference "Scoring").

Standings are a pure function of the sheet, the number of seats, the first dealer and
the recorded hands: nothing here is stored, so totals can never drift from the hands.
The replay is also exposed one hand at a time (:func:`play_hand` from a
:class:`MatchTally`), so the records can keep the position after a match's last hand and
score the next hand without replaying the ones before it; both give the same result.

>>> from scorekeeper.core.cards import parse_cards
>>> sheet = Sheet.make("crazy-eights")
>>> score_hand(sheet, [parse_cards("8s kh 7d ac"), parse_cards("9c 9h"), []], out=2).points
(0, 0, 86)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorekeeper.core.cards import (
    JOKER,
    Card,
    DeckError,
    check_entries,
    fits_deck,
    parse_cards,
)
from scorekeeper.core.errors import InputError
from scorekeeper.core.games import GAMES, Game, reaches
from scorekeeper.core.sheets import Sheet

__all__ = [
    "HandResult",
    "MatchTally",
    "ScoringError",
    "Standings",
    "card_points",
    "check_complete",
    "check_hand",
    "deal_size",
    "hands_carry_cards",
    "held_points",
    "play_hand",
    "score_hand",
    "standings",
    "standings_at",
    "start_position",
    "stored_hand",
    "tally_of",
]


class ScoringError(InputError):
    """A hand that cannot be scored as entered. ``field`` is the path of the input at
    fault, the same in every layer: ``"held.<n>"`` (the cards of seat ``n``; ``seat``
    is then ``n``), ``"held"`` (the cards as a whole), ``"out"``, ``"number"``. In a
    replay, ``hand`` is the number of the hand at fault. A layer that names the input
    otherwise (the hand form's ``seat-<n>``, the score request's ``remaining.<name>``,
    an import's ``hands[k].held[n]``) builds its name from ``seat`` and ``hand``; no
    one reads them off the message.

    >>> err = ScoringError("Bo went out, so holds no cards", seat=1)
    >>> err.field, err.seat, err.hand
    ('held.1', 1, None)
    """

    field: str  # always given, unlike the base class's

    def __init__(self, message: str, field: str = "held", *, seat: int | None = None,
                 hand: int | None = None) -> None:
        super().__init__(message, field if seat is None else f"held.{seat}")
        self.seat = seat
        self.hand = hand


WINNERS = "{winners}"  # in a stored reason, where the winners' names go


def card_points(game: str, card: Card) -> int:
    """What a card left in hand is worth in a game (its definition's values); a card
    the game is played without is refused.

    >>> from scorekeeper.core.cards import parse_card
    >>> card_points("last-one", parse_card("8h")), card_points("crazy-eights", parse_card("8h"))
    (25, 50)
    """
    points = GAMES[game].points(card)
    if points is None:
        what = "jokers" if card.rank is None else f"{card.rank.label}s"
        raise ScoringError(f"{game} is played without {what}")
    return points


class _Points(dict[Card, int]):
    """:func:`card_points` of each card in one game, worked out once per card (a replay
    scores the same 53 cards over and over); a card the game refuses raises as there."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def __missing__(self, card: Card) -> int:
        self[card] = points = card_points(self.game, card)
        return points


_POINTS: dict[str, _Points] = {}


def _points_of(game: str) -> _Points:
    """The card values of a game (one table per game, filled as cards are met)."""
    return _POINTS.get(game) or _POINTS.setdefault(game, _Points(game))


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand, the core's one shape of it: who went out (None: blocked or jammed),
    what each seat held, and, once scored (:func:`score_hand`), what each seat scored.

    ``held`` has one entry per seat of the match, empty for the player who went out and
    for players no longer in the match. ``hand_size`` is Last One's per-hand deal size,
    when the table changed it for that hand. A scored hand also has ``points`` (one per
    seat), ``notes`` where a rule changed a seat's sum (e.g. Last One's one-card zero)
    and the ``game`` it was scored in, which gives each card's value
    (:attr:`breakdown`); a hand as entered has none of them.
    """

    out: int | None
    held: tuple[tuple[Card, ...], ...]
    hand_size: int | None = None
    points: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    game: str = ""

    @classmethod
    def of(cls, out: int | None, held: Sequence[Sequence[Card]], hand_size: int | None = None
           ) -> HandResult:
        """Build from any sequences."""
        return cls(out, tuple(tuple(cards) for cards in held), hand_size)

    @property
    def breakdown(self) -> tuple[tuple[tuple[Card, int], ...], ...]:
        """Each seat's cards, each with its value in the game it was scored in (worked
        out when read: the record page and the API read it, a replay never does)."""
        points_of = _points_of(self.game)
        return tuple([tuple([(c, points_of[c]) for c in cards]) for cards in self.held])


def held_points(game: str, cards: Iterable[Card]) -> int:
    """What cards left in hand are worth in a game: the sum of their
    :func:`card_points`, each read from the game's table of values.

    >>> held_points("crazy-eights", parse_cards("8S KH 7D AC"))
    68
    """
    return sum(map(_points_of(game).__getitem__, cards))


def stored_hand(game: str, out: int | None, texts: Sequence[str], points: Sequence[int],
                hand_size: int | None = None) -> HandResult:
    """A scored hand as the store keeps its facts: who went out, each seat's cards as
    canonical text (``"8S KH"``, read by :func:`~scorekeeper.core.cards.parse_cards`)
    and each seat's points as scored when it was saved, in the game it was scored in.
    The notes are not stored, so it has none. What every reader of stored hands hands
    the core (statistics, hand records, the seat figures' backfill).

    >>> stored_hand("crazy-eights", 1, ("8S KH", ""), (0, 60)).held
    ((Card.parse('8S'), Card.parse('KH')), ())
    """
    held = tuple([tuple(parse_cards(text)) if text else () for text in texts])  # most: ""
    return HandResult(out, held, hand_size, tuple(points), (), game)


def score_hand(sheet: Sheet, held: Sequence[Sequence[Card]], out: int | None,
               in_play: Sequence[bool] | None = None, hand_size: int | None = None
               ) -> HandResult:
    """Score one hand under a sheet: the hand with its points. Call :func:`check_hand`
    first for entered data."""
    in_play = in_play if in_play is not None else (True,) * len(held)
    kept = _frozen(held)
    value = _points_of(sheet.game).__getitem__  # a card a game refuses raises here
    values = [sum(map(value, cards)) for cards in kept]
    notes = [""] * len(held)
    info = sheet.game_info
    if info.scoring == "own":
        points = _score_own(info, held, out, in_play, values, notes)
    elif info.scoring == "out":
        points = _score_out(sheet, out, in_play, values, notes)
    else:
        points = [0] * len(held)
        if out is not None:
            notes[out] = "went out: count down by one"
    return HandResult(out, kept, hand_size, tuple(points), tuple(notes), sheet.game)


def _frozen(held: Sequence[Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
    """``held`` as tuples (a score keeps it), the same object when it is already."""
    if type(held) is tuple and all([type(cards) is tuple for cards in held]):
        return held  # checked just above
    return tuple([tuple(cards) for cards in held])


def _score_own(info: Game, held: Sequence[Sequence[Card]], out: int | None,
               in_play: Sequence[bool], values: list[int], notes: list[str]) -> list[int]:
    """Each seat scores its own cards (low is good); who went out scores 0."""
    points = []
    for seat, cards in enumerate(held):
        if not in_play[seat]:
            points.append(0)
        elif seat == out:
            points.append(0)
            notes[seat] = "went out"
        elif info.lone_card(cards):
            points.append(0)
            notes[seat] = "held one card: scores 0"
        else:
            points.append(values[seat])
    return points


def _score_out(sheet: Sheet, out: int | None, in_play: Sequence[bool],
               values: list[int], notes: list[str]) -> list[int]:
    """Who went out scores the others' cards; a jammed hand scores by the jam rule."""
    points = [0] * len(values)
    if out is not None:
        points[out] = sum(v for seat, v in enumerate(values) if seat != out and in_play[seat])
        notes[out] = "went out: scores the others' cards"
        return points
    playing = [seat for seat in range(len(values)) if in_play[seat]]
    low = min(values[seat] for seat in playing)
    lowest = [seat for seat in playing if values[seat] == low]
    others = [seat for seat in playing if values[seat] != low]
    full = sheet["jam_scoring"] == "full"
    for seat in lowest:
        points[seat] = sum(values[o] if full else values[o] - low for o in others)
        notes[seat] = "lowest in a jammed hand"
    return points


def check_hand(sheet: Sheet, names: Sequence[str], result: HandResult,
               in_play: Sequence[bool] | None = None) -> None:
    """Check an entered hand against the sheet and the deck; raise :class:`ScoringError`.

    The player who went out holds nothing, players out of the match hold nothing, and
    no card appears more often than the deck holds it (the rules reference "Cards"). A card
    entered too often is blamed on the later seat holding the extra copy.

    >>> from scorekeeper.core.cards import parse_cards
    >>> held = [parse_cards("8s kh"), [], parse_cards("8s")]
    >>> try:
    ...     check_hand(Sheet.make("crazy-eights"), ["Ann", "Bo", "Cy"], HandResult.of(1, held))
    ... except ScoringError as exc:
    ...     print(exc.field, exc)
    held.2 8♠ is entered 2 times (Ann and Cy); the deck holds it once
    """
    seats = len(names)
    held = result.held
    in_play = in_play if in_play is not None else (True,) * seats
    if len(held) != seats:
        raise ScoringError(f"expected cards for {seats} seats, got {len(held)}")
    if result.out is not None:
        if not 0 <= result.out < seats:
            raise ScoringError(f"seat {result.out} is not at this table", "out")
        if not in_play[result.out]:
            raise ScoringError(f"{names[result.out]} is out of the match", "out")
        if held[result.out]:
            raise ScoringError(f"{names[result.out]} went out, so holds no cards",
                               seat=result.out)
    every = [c for cards in held for c in cards]
    deck = sheet.game_info.deck(sum(in_play))
    if not all(in_play) or (not deck.jokers and JOKER in every):  # else nothing to find
        for seat, cards in enumerate(held):
            if cards and not in_play[seat]:
                raise ScoringError(f"{names[seat]} is out of the match and holds no cards",
                                   seat=seat)
            if not deck.jokers and JOKER in cards:  # cards are interned: one joker object
                raise ScoringError(f"{names[seat]}: {sheet.game_info.name} is played "
                                   "without jokers", seat=seat)
    if fits_deck(every, deck):  # the usual hand: check_entries would find nothing
        return
    try:
        check_entries(dict(zip(names, held, strict=True)), deck)
    except DeckError as exc:
        seat_of = {name: seat for seat, name in enumerate(names)}
        raise ScoringError(str(exc), seat=None if exc.key is None else seat_of[exc.key]
                           ) from None


def hands_carry_cards(sheet: Sheet) -> bool:
    """Whether a hand is recorded with the cards each player still holds: every game
    that scores points (not Countdown, which scores who went out alone). The hand page
    (no card fields), the JSON API (``held`` may be left out) and :func:`check_complete`
    all ask this.

    >>> hands_carry_cards(Sheet.make("countdown")), hands_carry_cards(Sheet.make("last-one"))
    (False, True)
    """
    return sheet.game_info.carries_cards


def check_complete(sheet: Sheet, names: Sequence[str], result: HandResult,
                   in_play: Sequence[bool] | None = None) -> None:
    """Refuse a hand entered only in part: raise :class:`ScoringError` on the first seat
    still in the hand that holds nothing although it did not go out.

    Only the player who went out can end a hand with no cards; in a blocked or jammed
    hand nobody can. Countdown scores who went out alone, so its hands carry no cards.
    Checked when a hand is written, not when stored hands are replayed, so hands kept
    before this rule still score.

    >>> from scorekeeper.core.cards import parse_cards
    >>> held = [parse_cards("8s kh"), [], []]
    >>> try:
    ...     check_complete(Sheet.make("last-one"), ["Ann", "Ben", "Cy"], HandResult.of(2, held))
    ... except ScoringError as exc:
    ...     print(exc.field, exc)
    held.1 Ben's cards are missing
    """
    if not hands_carry_cards(sheet):
        return
    in_play = tuple(in_play) if in_play is not None else (True,) * len(names)
    for seat, cards in enumerate(result.held):
        if in_play[seat] and seat != result.out and not cards:
            raise ScoringError(f"{names[seat]}'s cards are missing", seat=seat)


def deal_size(sheet: Sheet, players: int) -> int | None:
    """Cards dealt to each player in a hand, or None when each seat's count decides
    (Countdown: see ``Standings.next_deal``)."""
    return sheet.game_info.cards_each(sheet.options, players)


@dataclass(frozen=True)
class Standings:
    """Where a match stands after its recorded hands.

    ``totals`` are points (Last One, Crazy Eights) or counts (Countdown). ``progress``
    holds the totals after each hand; ``eliminated`` maps a seat to the hand number in
    which it fell; ``next_deal`` maps each seat still playing to its cards next hand.
    ``played`` is the number of hands recorded. Standings made by :func:`standings_at`
    from a stored :class:`MatchTally` carry no per-hand history: ``progress``, ``hands``
    and ``dealers`` are empty there, everything else is the same as a full replay's.
    """

    game: str
    totals: tuple[int, ...]
    progress: tuple[tuple[int, ...], ...]
    hands: tuple[HandResult, ...]
    dealers: tuple[int, ...]
    eliminated: Mapping[int, int]
    winners: tuple[int, ...]
    over: bool
    reason: str
    next_dealer: int | None
    next_first: int | None
    next_deal: Mapping[int, int]
    goal: int | None = None
    goal_kind: str = ""
    in_play: tuple[bool, ...] = field(default=())
    played: int = 0
    why: str = ""  # ``reason`` with ``{winners}`` for the winners' names (see MatchTally)


@dataclass(frozen=True)
class MatchTally:
    """Where a match stands after its last hand: all the replay of :func:`standings`
    carries from one hand to the next, as plain values that can be stored.

    ``why`` is the match's end in words with ``{winners}`` in place of the winners'
    names, so a stored position stays right when a player is renamed. Two positions
    are equal exactly when a replay of the same hands would give equal standings
    (apart from the per-hand history).
    """

    played: int
    totals: tuple[int, ...]
    in_play: tuple[bool, ...]
    eliminated: tuple[tuple[int, int], ...]  # (seat, hand it fell in), by seat
    winners: tuple[int, ...]
    over: bool
    why: str
    next_dealer: int | None

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready values."""
        return {"played": self.played, "totals": list(self.totals),
                "in_play": list(self.in_play), "eliminated": [list(e) for e in self.eliminated],
                "winners": list(self.winners), "over": self.over, "why": self.why,
                "next_dealer": self.next_dealer}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchTally:
        """Read back what :meth:`to_dict` gave (trusted: the database's own values)."""
        return cls(int(data["played"]), tuple(data["totals"]), tuple(data["in_play"]),
                   tuple((s, n) for s, n in data["eliminated"]), tuple(data["winners"]),
                   bool(data["over"]), str(data["why"]), data["next_dealer"])


def next_seat(seat: int, in_play: Sequence[bool]) -> int:
    """The next seat clockwise from ``seat`` that is still in the match."""
    n = len(in_play)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if in_play[candidate]:
            return candidate
    raise ScoringError("nobody is left at the table")


def standings(sheet: Sheet, names: Sequence[str], first_dealer: int,
              hands: Sequence[HandResult]) -> Standings:
    """Replay the recorded hands: totals, eliminations, winner(s), the next deal.

    Raises :class:`ScoringError` when a hand is invalid or when hands are recorded after
    the match was already decided (for example after an edit ended it earlier).
    """
    tally = _Tally(sheet, names, start_position(sheet, len(names), first_dealer))
    for result in hands:
        tally.step(result)
    return tally.standings()


def start_position(sheet: Sheet, seats: int, first_dealer: int) -> MatchTally:
    """A match of ``seats`` seats before its first hand."""
    if not 0 <= first_dealer < seats:
        raise ScoringError(f"first dealer {first_dealer} is not a seat", "first_dealer")
    start = sheet.game_info.start_total(sheet.options)
    return MatchTally(0, (start,) * seats, (True,) * seats, (), (), False, "", first_dealer)


def play_hand(sheet: Sheet, names: Sequence[str], position: MatchTally, result: HandResult
              ) -> tuple[MatchTally, HandResult, int]:
    """One step of :func:`standings`: the position after one more hand, that hand's
    score and its dealer. Replaying hands one at a time from :func:`start_position`
    gives exactly the standings of replaying them all at once (same checks, same
    errors), so a match's stored position can go on without reading its hands."""
    tally = _Tally(sheet, names, position)
    dealer = tally.step(result)
    return tally.position(), tally.scores[-1], dealer


def tally_of(table: Standings) -> MatchTally:
    """The position full standings end in (what :func:`play_hand` would have reached)."""
    return MatchTally(table.played, table.totals, table.in_play,
                    tuple(sorted(table.eliminated.items())), table.winners, table.over,
                    table.why, table.next_dealer)


def standings_at(sheet: Sheet, names: Sequence[str], position: MatchTally) -> Standings:
    """The standings a stored position stands for, without the per-hand history."""
    return _Tally(sheet, names, position).standings()


class _Tally:
    """The running state of :func:`standings`, resumed from a :class:`MatchTally`; one
    method per kind of match end (:attr:`Game.end`)."""

    def __init__(self, sheet: Sheet, names: Sequence[str], at: MatchTally) -> None:
        self.sheet = sheet
        self.info = sheet.game_info
        self.names = list(names)
        self.played = at.played
        self.totals = list(at.totals)
        self.in_play = list(at.in_play)
        self.progress: list[tuple[int, ...]] = []
        self.scores: list[HandResult] = []
        self.dealers: list[int] = []
        self.eliminated: dict[int, int] = dict(at.eliminated)
        self.winners: tuple[int, ...] = at.winners
        self.over = at.over
        self.why = at.why
        self.next_dealer = at.next_dealer

    def step(self, result: HandResult) -> int:
        """Check and add the next hand; return its dealer."""
        number = self.played + 1
        if self.over or self.next_dealer is None:
            raise ScoringError(f"the match was decided in hand {number - 1}, but hand "
                               f"{number} is recorded after it", "number")
        try:
            check_hand(self.sheet, self.names, result, self.in_play)
        except ScoringError as exc:
            raise ScoringError(f"hand {number}: {exc}", exc.field, seat=exc.seat,
                               hand=number) from None
        dealer = self.next_dealer
        self.add(number, dealer, result)
        self.played = number
        self.next_dealer = None if self.over else next_seat(dealer, self.in_play)
        return dealer

    def position(self) -> MatchTally:
        return MatchTally(self.played, tuple(self.totals), tuple(self.in_play),
                        tuple(sorted(self.eliminated.items())), self.winners, self.over,
                        self.why, self.next_dealer)

    def add(self, number: int, dealer: int, result: HandResult) -> None:
        score = score_hand(self.sheet, result.held, result.out, self.in_play,
                           result.hand_size)
        self.scores.append(score)
        self.dealers.append(dealer)
        if self.info.scoring == "count":
            if result.out is not None:
                self.totals[result.out] -= 1
        else:
            self.totals = [t + p for t, p in zip(self.totals, score.points, strict=True)]
        self.progress.append(tuple(self.totals))
        _ENDS[self.info.end](self, number, result)

    def _end_threshold(self, number: int, result: HandResult) -> None:
        threshold = self.sheet["threshold"]
        fallen = self.info.falls(self.totals, threshold, self.eliminated, ())
        left = [s for s, playing in enumerate(self.in_play) if playing and s not in fallen]
        if not left:  # everyone still in reached the threshold together
            low = self.info.leader([self.totals[s] for s in fallen])
            self.winners = tuple(s for s in fallen if self.totals[s] == low)
            fallen = [s for s in fallen if s not in self.winners]
            self.why = (f"everyone left reached {threshold} in hand {number}; "
                        f"{WINNERS} had the lowest total")
        for s in fallen:
            self.eliminated[s] = number
            self.in_play[s] = False
        if len(left) == 1:
            self.winners = (left[0],)
            self.why = f"{WINNERS} is the last player left"
        self.over = bool(self.winners)

    def _end_target(self, number: int, result: HandResult) -> None:
        target = self.sheet.target_for(len(self.names))
        if target is None:  # one hand: whoever went out wins, else the lowest holder(s)
            if result.out is not None:
                self.winners, how = (result.out,), "went out"
            else:
                best = self.info.leader(self.totals)
                self.winners = tuple(s for s, t in enumerate(self.totals) if t == best)
                how = "held the least in the jammed hand"
            self.why = f"{WINNERS} {how} in the only hand"
        else:
            reached = [s for s, t in enumerate(self.totals) if reaches(t, target)]
            if reached:
                best = self.info.leader([self.totals[s] for s in reached])
                self.winners = tuple(s for s in reached if self.totals[s] == best)
                self.why = f"{WINNERS} reached {target} in hand {number}"
        self.over = bool(self.winners)

    def _end_count(self, number: int, result: HandResult) -> None:
        if result.out is not None and self.totals[result.out] <= 0:
            self.winners = (result.out,)
            self.why = f"{WINNERS} counted down to 0 in hand {number}"
            self.over = True

    def standings(self) -> Standings:
        sheet, n = self.sheet, len(self.names)
        next_dealer = self.next_dealer
        active = sum(self.in_play)
        next_first = None if next_dealer is None else next_seat(next_dealer, self.in_play)
        size = None if self.over else deal_size(sheet, active)
        if self.over:
            deal: dict[int, int] = {}
        elif size is None:  # each seat's count is its deal
            deal = {s: self.totals[s] for s in range(n)}
        else:
            deal = {s: size for s in range(n) if self.in_play[s]}
        goal, kind = self.info.threshold(sheet.options), "threshold"
        if goal is None:
            goal = sheet.target_for(n)
            kind = "" if goal is None else "target"
        names = " and ".join(self.names[s] for s in self.winners)
        return Standings(
            game=sheet.game, totals=tuple(self.totals), progress=tuple(self.progress),
            hands=tuple(self.scores), dealers=tuple(self.dealers),
            eliminated=MappingProxyType(dict(sorted(self.eliminated.items()))),
            winners=self.winners, over=self.over, reason=self.why.replace(WINNERS, names),
            next_dealer=next_dealer, next_first=next_first,
            next_deal=MappingProxyType(deal), goal=goal, goal_kind=kind,
            in_play=tuple(self.in_play), played=self.played, why=self.why,
        )


# Each kind of match end (functions, not bound methods: a tally holding its own bound
# method would be a reference cycle, freed only by the cycle collector).
_ENDS: dict[str, Callable[[_Tally, int, HandResult], None]] = {
    "threshold": _Tally._end_threshold, "target": _Tally._end_target,
    "count": _Tally._end_count}
