"""What a game is, as data: the shared parts every game's definition is made of.

A game's module (:mod:`~scorekeeper.core.games.last_one`, ...) builds one :class:`Game`;
the registry (:mod:`scorekeeper.core.games`) lists them. Everything the package asks
about a game — its table size, deck, deal, card values and who scores them, which
ranks act and how, the lone-card and jam rules, the match's end, its words — is a field
or a method here, so scoring, the deal, standings, places, statistics, forms, the rules
card and the engine ask the definition instead of comparing a game's key.

>>> from scorekeeper.core.games import game_named
>>> lo = game_named("last-one")
>>> lo.deck(4).size, lo.stuck_word, lo.leader((120, 80, 95))
(54, 'blocked', 80)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from scorekeeper.core.cards import Card, Deck, Rank

__all__ = ["DEALS", "ENDS", "SCORINGS", "Game", "reaches"]

# How each seat's cards are counted out: the sheet's ``hand_size``; the standard deal
# (7 each with two players, else 5); or each player's own count.
DEALS = ("hand_size", "standard", "count")
# Who scores a hand: each seat its own cards (low is good); whoever goes out scores the
# others' cards (a jammed hand by the jam rule); or nobody (counts, not points).
SCORINGS = ("own", "out", "count")
# When the match ends: a threshold eliminates; a target is reached; a count reaches 0.
ENDS = ("threshold", "target", "count")


def reaches(total: int, line: int) -> bool:
    """Whether a total has reached a threshold or a target ("reaching means ≥", the
    rules reference): the one statement of it, for elimination and targets alike.

    >>> reaches(250, 250), reaches(249, 250)
    (True, False)
    """
    return total >= line


@dataclass(frozen=True, eq=False)
class Game:
    """One game: everything the package asks about it (see the module docstring).

    ``options`` maps each house-rule option the game has (a key of
    :data:`~scorekeeper.core.sheets.OPTIONS`) to its default and the rules-reference
    section that explains it. ``effects`` is a rank → what it does ("two", "three",
    "melee", "skip", "reverse"); ``optional_effects`` the same, switched on by a bool
    option named as the key. ``rule_ids`` maps the engine's kinds of rule to sections.
    Compared by identity: one object per game.
    """

    key: str
    code: str  # a short code, for positions written in one line (``c8 | up 4H | ...``)
    name: str
    min_players: int
    max_players: int
    blurb: str
    sections: tuple[tuple[str, str], ...]
    options: Mapping[str, tuple[Any, str]]
    rule_ids: Mapping[str, str]
    deal: str
    scoring: str
    end: str
    values: Mapping[Rank, int]
    ranks: frozenset[Rank] = frozenset(Rank)
    jokers: int = 0
    joker_points: int | None = None
    two_decks_from: int | None = None
    lone_card_free: bool = False
    effects: Mapping[Rank, str] = field(default_factory=dict)
    optional_effects: Mapping[str, tuple[Rank, str]] = field(default_factory=dict)
    twos_stack: bool = True  # whether draw-two cards stack when no option says
    refill_shuffles: bool = False  # the pile is always shuffled into a new stock
    dealer_plays_starter: bool = False  # a starting wild or joker is named by the dealer
    stuck_word: str = "jammed"  # a hand nobody can finish
    total_word: str = "total"  # what a seat's running figure is called
    wild_words: str | None = None  # which rank is wild, when it is not plainly the 8s
    end_words: str = ""  # the match's end, with {threshold}/{start_count} from the sheet

    def __post_init__(self) -> None:
        for name, value, allowed in (("deal", self.deal, DEALS),
                                     ("scoring", self.scoring, SCORINGS),
                                     ("end", self.end, ENDS)):
            if value not in allowed:
                raise ValueError(f"{self.key}: {name} {value!r} is not one of {allowed}")
        known = {anchor for anchor, _ in self.sections}
        cited = set(self.rule_ids.values()) | {s for _, s in self.options.values()}
        if cited - known:
            raise ValueError(f"{self.key}: unknown reference ids {sorted(cited - known)}")

    def players_problem(self, count: int) -> str | None:
        """Why ``count`` players cannot sit at this game, or None when they can.

        The one table-size check: the deal helper, the scorer, the engine, the records,
        the importer and both front doors all ask it, so they all say the same thing.

        >>> from scorekeeper.core.games import game_named
        >>> game_named("last-one").players_problem(1)
        'Last One needs at least 2 players; 1 is too few.'
        """
        if count < self.min_players:
            return f"{self.name} needs at least {self.min_players} players; {count} is too few."
        if count > self.max_players:
            return (f"{self.name} is for {self.min_players} to {self.max_players} players; "
                    f"{count} is too many. Split into two tables, or pick a game that "
                    "seats more.")
        return None

    def default(self, option: str) -> Any:
        """The game's default value of one of its options."""
        return self.options[option][0]

    def deck(self, players: int) -> Deck:
        """The deck this game uses at that table size (the rules reference "Cards")."""
        return _deck(self, players)

    def points(self, card: Card) -> int | None:
        """What a card left in hand is worth, or None when the game has no such card."""
        if card.rank is None:
            return self.joker_points
        if card.rank not in self.ranks:
            return None
        return self.values.get(card.rank, int(card.rank))

    @property
    def carries_cards(self) -> bool:
        """Whether a hand is recorded with the cards each seat still holds (not when
        nobody scores points: a hand then records only who went out)."""
        return self.scoring != "count"

    @property
    def low_leads(self) -> bool:
        """Whether the lowest total (or count) leads; else the highest."""
        return self.scoring != "out"

    @property
    def has_melee(self) -> bool:
        """Whether some rank starts a melee."""
        return "melee" in self.effects.values()

    def lone_card(self, cards: Sequence[Card]) -> bool:
        """Whether a seat holding ``cards`` at the end of a hand scores 0 because it
        holds exactly one card (the lone-card rule): the scorer applies it, the hand
        form's preview is told it with the page."""
        return self.lone_card_free and len(cards) == 1

    def leader(self, totals: Sequence[int]) -> int:
        """The leading total among ``totals`` (the lowest when low leads)."""
        return min(totals) if self.low_leads else max(totals)

    def behind(self, total: int, lead: int) -> int:
        """How far a total stands behind the leading one (0 for the leader)."""
        return total - lead if self.low_leads else lead - total

    def falls(self, totals: Sequence[int], threshold: int | None, fallen: Mapping[int, int],
              winners: Sequence[int]) -> list[int]:
        """The seats that fall with these totals: those reaching the threshold, not
        fallen before and not winners (a winner never falls). None without elimination.

        >>> from scorekeeper.core.games import game_named
        >>> game_named("last-one").falls((250, 90, 300), 250, {2: 4}, ())
        [0]
        """
        if self.end != "threshold" or threshold is None:
            return []
        return [seat for seat, total in enumerate(totals)
                if reaches(total, threshold) and seat not in fallen and seat not in winners]

    def start_total(self, options: Mapping[str, Any]) -> int:
        """Every seat's total (or count) before the first hand."""
        return int(options["start_count"]) if self.scoring == "count" else 0

    def cards_each(self, options: Mapping[str, Any], players: int) -> int | None:
        """Cards dealt to each seat, or None when each seat's count decides."""
        if self.deal == "hand_size":
            return int(options["hand_size"])
        if self.deal == "count":
            return None
        return 7 if players == 2 else 5

    def threshold(self, options: Mapping[str, Any]) -> int | None:
        """The total that eliminates a seat, or None in a game without elimination."""
        return int(options["threshold"]) if self.end == "threshold" else None

    def target(self, options: Mapping[str, Any], players: int) -> int | None:
        """The total that wins, or None when points do not decide (one hand, counts)."""
        if self.end != "target":
            return None
        end = options["match_end"]
        if end == "first-to-100":
            return 100
        if end == "first-to-50-per-player":
            return 50 * players
        if end == "first-to-target":
            return int(options["target"])
        return None

    def effects_under(self, options: Mapping[str, Any]) -> dict[Rank, str]:
        """Rank → what it does under these options (wild cards are apart)."""
        table = dict(self.effects)
        for key, (rank, effect) in self.optional_effects.items():
            if options[key]:
                table[rank] = effect
        return table


@lru_cache(maxsize=64)
def _deck(game: Game, players: int) -> Deck:
    """:meth:`Game.deck`, one object per game and table size (asked for every hand)."""
    two = game.two_decks_from is not None and players >= game.two_decks_from
    return Deck(decks=2 if two else 1, jokers=game.jokers, ranks=game.ranks)
