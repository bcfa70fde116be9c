"""The state of one hand: who holds what, the pile, the stock, whose turn it is.

:class:`HandInPlay` is the engine's one object. Build it with :meth:`HandInPlay.start` (a position
from the table, hands possibly partly unseen) or :meth:`HandInPlay.deal` (a random deal with
every card known, for simulation). The position's data is :class:`~.position.Position`;
legality lives in :mod:`.verdicts` and :mod:`.legal` (both asking the predicates of
:mod:`.facts`), the effects of moves in :mod:`.effects`; the methods here delegate to
them. A game keeps the position it started from and the moves made (as OpenSpiel
keeps its history), and takes a move back by making the moves before it again.

>>> g = HandInPlay.start(Sheet.make("crazy-eights"), 2, 0, ["8S KH", "4H 5C"], "4S")
>>> g.current_player, [str(m) for m in g.legal_moves()]
(1, ['1:4H'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.cards import Card, Deck
from scorekeeper.core.engine import effects, legal, setup, verdicts
from scorekeeper.core.engine.apply_listed import ListedVerdict, Made
from scorekeeper.core.engine.facts import melee_next, only_pass_left
from scorekeeper.core.engine.moves import (
    ERRORS,
    IllegalMoveError,
    Move,
    SetupError,
    Verdict,
)
from scorekeeper.core.engine.position import Debt, Melee, Position
from scorekeeper.core.engine.variant import Variant
from scorekeeper.core.scoring import score_hand
from scorekeeper.core.sheets import Sheet

__all__ = ["Debt", "HandInPlay", "Melee", "Outcome"]


@dataclass(frozen=True)
class Outcome:
    """How a hand ended: ``result`` is ``out`` (``winner`` went out), ``blocked``
    (Last One) or ``jammed`` (Crazy Eights, Countdown); ``hands`` are the cards each
    seat still holds where known, ``unknown`` how many more each holds unseen;
    ``counts`` are Countdown counts after the hand. ``points`` are what each seat
    scores for the hand (the same scoring as the score API), when every card still
    held is known; None while some are unseen."""

    result: str
    winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    unknown: tuple[int, ...]
    counts: tuple[int, ...] | None = None
    points: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"result": self.result, "winner": self.winner,
                "hands": [[str(c) for c in h] for h in self.hands],
                "unknown": list(self.unknown),
                "counts": None if self.counts is None else list(self.counts),
                "points": None if self.points is None else list(self.points)}


class HandInPlay(Position):
    """One hand of Last One, Crazy Eights or Countdown, move by move.

    The position's data and the questions read off it are :class:`~.position.Position`'s;
    a game adds the rules (legal moves, verdicts, applying a move) and what taking
    moves back needs: the moves made, each with the unsaid passes it implied
    (``history``), and the positions they led through as far as they are kept
    (``kept``: the position the game started from, and more once a move is taken
    back). Change the position only through :meth:`apply` and :meth:`undo`.
    """

    __slots__ = ("_exact", "history", "kept", "listed")
    variant: Variant

    def __init__(self, variant: Variant, players: int, dealer: int, deck: Deck,
                 counts: list[int] | None = None, seed: int | None = None,
                 names: list[str] | None = None) -> None:
        super().__init__(variant, players, dealer, deck, counts, seed, names)
        self.history: list[Made] = []
        self.kept: list[Position] = []  # kept[i]: the position after i moves (see _ready)
        self._exact = False  # every card known, now and after any refill: see legal_moves
        self.listed: tuple[Move, ...] = ()  # the moves allowed now, kept when every card is known

    # ----------------------------------------------------------------- setup

    @classmethod
    def start(cls, sheet: Sheet | Mapping[str, Any], players: int, dealer: int,
              hands: Sequence[Any], upcard: Card | str, stock: Any = None,
              situation: Mapping[str, Any] | None = None,
              counts: Sequence[int] | None = None, seed: int | None = None,
              names: Sequence[str] | None = None, pile: Any = None) -> HandInPlay:
        """A hand from what the table saw.

        ``hands`` gives each seat a card list (or text), a count of unseen cards, or
        ``{"cards": [...], "unknown": n}``. ``stock`` is a count or a card list (top
        card first); by default every card not dealt or turned up. ``pile`` says what
        lies under the upcard: a count, or the cards (the one nearest the upcard
        first); by default every card not in a hand or the stock. Without
        ``situation`` the hand starts fresh: the seat left of the dealer plays first
        and the upcard acts per ``starter_effects``. With it, play starts mid-hand
        (see :func:`.setup.read_situation`). ``counts`` are Countdown counts.
        ``seed`` (simulation) makes Last One's reshuffles deterministic so a stock
        known card by card stays known; without it a reshuffled stock is unseen, as
        at a real table. ``names`` name the seats in verdict reasons ("it is Ann's
        turn"); without them reasons say "seat 0", "seat 1"...

        >>> g = HandInPlay.start(Sheet.make("last-one"), 3, 0, [["8S"], 5, 5], "JH")
        >>> g.current_player, g.seat_name(2)
        (2, 'seat 2')
        """
        sheet = setup.read_sheet(sheet)
        setup.check_players(sheet, players, dealer)
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence) or len(
                hands) != players:
            raise SetupError(f"hands must list one entry per seat ({players})", "hands")
        counts_ = setup.read_counts(sheet, players, counts)
        game = cls(Variant.of(sheet), players, dealer, sheet.game_info.deck(players),
                   counts_, seed, setup.read_names(names, players))
        for seat, entry in enumerate(hands):
            game.known[seat], game.unknown[seat] = setup.read_hand(entry, seat)
            if not game.known[seat] and not game.unknown[seat]:
                raise SetupError(f"hands[{seat}] is empty: a hand somebody went out of "
                                 "is over", f"hands[{seat}]")
        up = setup.read_card(upcard, "upcard")
        game._place_cards(up, stock, pile)
        if situation is None:
            effects.begin(game)
        else:
            game._resume(setup.read_situation(situation, players, up, (dealer + 1) % players))
        game._ready(not any(game.unknown) and None not in game.stock
                    and None not in game.pile
                    and (game.known_stock or not game.variant.refill_shuffles))
        return game

    def _ready(self, exact: bool) -> None:
        """Set up: take the passes a seat that starts with nothing but the pass has
        made, note whether every card is known, now and after any refill (see
        :meth:`legal_moves`), and keep a copy of the position the moves start from."""
        self.move_on()
        self._exact = exact
        self.kept = [self.copy()]

    def _place_cards(self, up: Card, stock: Any, pile: Any) -> None:
        """Upcard, stock and the rest of the pile (unseen unless listed); check them
        against the deck."""
        held = sum(len(k) for k in self.known) + sum(self.unknown)
        room = self.deck.size - held - 1
        if room < 0:
            raise SetupError(f"{held} cards in hands leave no upcard from "
                             f"{self.deck.describe()}", "hands")
        under = setup.read_pile(pile, room)
        if stock is None and under is not None:
            stock = room - len(under)
        self.stock, listed = setup.read_stock(stock, room)
        if under is None:
            under = [None] * (room - len(self.stock))
        elif len(under) + len(self.stock) != room:
            raise SetupError(f"pile: {len(under)} cards under the upcard and {len(self.stock)} "
                             f"in the stock, but {room} are left after the hands and the "
                             f"upcard ({self.deck.describe()})", "pile")
        self.known_stock = listed and self.seed is not None
        seen = [c for k in self.known for c in k] + [up]
        seen += [c for c in self.stock if c is not None]
        seen += [c for c in under if c is not None]
        setup.check_deck(self.deck, seen, held + 1 + len(self.stock) + len(under))
        self.pile = [*under, up]
        self.upcard_as = up
        self.active_suit = up.suit
        self.rank_open = not up.is_joker

    def _resume(self, s: dict[str, Any]) -> None:
        """Start mid-hand from a checked situation."""
        self.turn, self.direction = s["turn"], s["direction"]
        self.upcard_as, self.active_suit = s["upcard_as"], s["active_suit"]
        self.rank_open, self.free_play, self.uncalled = (s["rank_open"], s["free_play"],
                                                         s["uncalled"])
        self.melee = None if s["melee"] is None else Melee(*s["melee"])
        if self.melee is not None:
            if not self.variant.info.has_melee:
                raise SetupError("a melee happens only in Last One", "situation.melee")
            self.turn = self.melee.defender
        if s["pending_draw"]:
            reason = "melee" if self.melee else "two"
            self.debts.append(Debt(self.turn, s["pending_draw"], reason, s["pending_draw"]))
        self.drawn = s["drawn"]
        if self.drawn and (self.melee is not None or self.debts or self.free_play):
            raise SetupError("situation.drawn: cards drawn this turn go with a plain turn, "
                             "not a melee, owed cards or a free play", "situation.drawn")

    @classmethod
    def deal(cls, sheet: Sheet | Mapping[str, Any], players: int, dealer: int = 0,
             rng: random.Random | int | None = None,
             counts: Sequence[int] | None = None) -> HandInPlay:
        """A random deal with every card known (simulation, benchmarks, tests).

        >>> g = HandInPlay.deal(Sheet.make("crazy-eights"), 4, rng=7)
        >>> g.hand_sizes(), len(g.stock)
        ([5, 5, 5, 5], 31)
        """
        sheet = setup.read_sheet(sheet)
        setup.check_players(sheet, players, dealer)
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        deck = sheet.game_info.deck(players)
        cards = deck.cards()
        rng.shuffle(cards)
        sizes = setup.hand_sizes(sheet, players, counts)
        if sum(sizes) >= len(cards):
            raise SetupError(f"{sum(sizes)} cards dealt leave no upcard",
                             "counts" if sheet.game_info.deal == "count"
                             else "sheet.options.hand_size")
        # A shuffled deck needs none of the checks a position from the table gets.
        game = cls(Variant.of(sheet), players, dealer, deck,
                   setup.read_counts(sheet, players, counts), rng.getrandbits(32))
        at = 0
        for seat, size in enumerate(sizes):
            game.known[seat] = cards[at:at + size]
            at += size
        up = cards[at]
        game.stock = [*cards[:at:-1]]  # the rest, top card last
        game.pile = [up]
        game.known_stock = True
        game.upcard_as, game.active_suit, game.rank_open = up, up.suit, not up.is_joker
        effects.begin(game)
        game._ready(True)
        return game

    # ------------------------------------------------------------ questions

    @property
    def sheet(self) -> Sheet:
        """The rule sheet this hand is played under."""
        return self.variant.sheet

    def legal_moves(self) -> list[Move]:
        """Every move allowed now, by any seat (see :func:`.legal.legal_moves`).

        When every card is known these moves are certainly legal: the game keeps them
        until the next move (``listed``), so asking again (:meth:`actors`,
        :meth:`summary`) copies them, and :meth:`apply` makes any of them unjudged."""
        listed = self.listed
        if listed:
            return [*listed]
        moves = legal.legal_moves(self)
        if self._exact:
            self.listed = tuple(moves)
        return moves

    def actors(self) -> set[int]:
        """Every seat that has a legal move now (several during a melee)."""
        return {m.player for m in self.legal_moves()}

    def legal_moves_by_player(self) -> dict[int, dict[str, Any]]:
        """``{seat: {"play": [cards], "draw": bool, "pass": bool, "call": bool}}`` for
        each seat that may act; an 8 or a joker is listed once."""
        return legal.by_player(self)

    def check(self, move: Move) -> Verdict:
        """Whether ``move`` is legal now, why, and the rule that says so. Judging never
        changes the game."""
        return verdicts.check(self, move)

    def is_legal(self, move: Move) -> bool:
        """True when the move is allowed (or cannot be ruled out from what was seen)."""
        return verdicts.check(self, move).legal is not False

    def outcome(self) -> Outcome | None:
        """How the hand ended, or None while it goes on."""
        if not self.is_over:
            return None
        counts = None
        if self.variant.info.scoring == "count" and self.counts is not None:
            counts = tuple(c - (seat == self.winner) for seat, c in enumerate(self.counts))
        hands = tuple(tuple(k) for k in self.known)
        points = None
        if not any(self.unknown):
            points = score_hand(self.sheet, hands, self.winner).points
        return Outcome(self.result or "", self.winner, hands, tuple(self.unknown), counts,
                       points)

    # -------------------------------------------------------------- moving

    def apply(self, move: Move) -> Verdict:
        """Make ``move`` and return its verdict (``legal`` may be None), or raise an
        :class:`IllegalMoveError` subclass carrying the verdict (nothing changes then).

        A move :meth:`legal_moves` listed with every card known (that very object) is
        certainly legal: it is made without judging it again, and its verdict is
        judged when first read (:class:`~.apply_listed.ListedVerdict`)."""
        for listed in self.listed:
            if listed is move:
                made = (move, ())
                self.make(made)
                return ListedVerdict(self, made)
        verdict = verdicts.check(self, move)
        if verdict.legal is False:
            raise ERRORS[verdict.cause](move, verdict)
        self.make((move, verdict.implied))
        return verdict

    push = apply

    def make(self, made: Made) -> None:
        """Carry out an accepted move after the unsaid passes it implies (``made``, as
        the history notes it), note it, let go of the moves listed before it and move
        on (:meth:`move_on`)."""
        self.history.append(made)
        move, implied = made
        for seat in implied:
            effects.unsaid_pass(self, seat)
        effects.apply(self, move)
        self.listed = ()
        if move.kind != "call":  # a call leaves the turn where it was
            self.move_on()

    def move_on(self) -> None:
        """Take the passes that are all the seats on turn have left, as far as the
        cards seen tell (:func:`.facts.only_pass_left`, the forced pass's one source):
        after every move but a call, and of the position the game starts from."""
        while why := only_pass_left(self):
            effects.forced_pass(self, why)

    def rebuilt(self, moves: int) -> HandInPlay:
        """This hand as it stood after its first ``moves`` moves, on a copy (the game
        itself does not change): the last position kept before it with the moves
        after it made again. Moves are deterministic, a refill's shuffle included
        (seeded by the game's seed and the refills so far), so this is exactly the
        position they led to."""
        start = min(moves, len(self.kept) - 1)
        game = HandInPlay(self.variant, self.players, self.dealer, self.deck)
        game.take(self.kept[start])
        game.kept = [self.kept[start]]  # a game of its own: it may take its moves back
        for made in self.history[start:moves]:
            game.make(made)
        return game

    def undo(self) -> None:
        """Take back the last move exactly. The positions the moves led through are
        rebuilt (:meth:`rebuilt`) and kept from the last one kept, so taking back
        move after move, or trying moves from one position, costs a copy a move."""
        history, kept = self.history, self.kept
        if not history:
            raise IndexError("no move to undo")
        del kept[len(history):]  # none after the move taken back
        while len(kept) < len(history):
            kept.append(self.rebuilt(len(kept)))
        self.take(kept[-1])
        history.pop()
        self.listed = ()

    pop = undo

    def replay(self, moves: Iterable[Move]) -> tuple[int, IllegalMoveError | None]:
        """Apply moves in order until one is refused: (moves applied, the error)."""
        done = 0
        for move in moves:
            try:
                self.apply(move)
            except IllegalMoveError as err:
                return done, err
            done += 1
        return done, None

    # ------------------------------------------------------------- summary

    def summary(self) -> dict[str, Any]:
        """The position as plain JSON data, for the API to return as is."""
        melee = None
        if self.melee is not None:
            nxt = melee_next(self)
            melee = {"aggressor": self.melee.aggressor, "defender": self.melee.defender,
                     "next": None if nxt is None else str(nxt)}
        out = self.outcome()
        return {
            "game": self.variant.game, "players": self.players, "dealer": self.dealer,
            "current_player": self.current_player, "actors": sorted(self.actors()),
            "turn": self.turn, "direction": self.direction,
            "upcard": str(self.upcard), "upcard_as": str(self.upcard_as),
            "active_suit": None if self.active_suit is None else self.active_suit.value,
            "hand_sizes": self.hand_sizes(), "stock": len(self.stock),
            "pending_draw": self.debts[0].left if self.debts else 0,
            "debts": [{"player": d.seat, "cards": d.left, "reason": d.reason}
                      for d in self.debts],
            "drawn": self.drawn,
            "melee": melee, "free_play": self.free_play, "naming": self.naming,
            "uncalled": None if self.uncalled < 0 else self.uncalled,
            "counts": self.counts, "over": self.is_over,
            "outcome": None if out is None else out.to_dict(),
        }

    def __repr__(self) -> str:
        return (f"<HandInPlay {self.variant.game} up={self.upcard_as} turn={self.current_player} "
                f"hands={self.hand_sizes()}>")

