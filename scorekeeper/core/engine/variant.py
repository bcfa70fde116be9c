"""A rule sheet turned into the flat facts the engine reads on every move.

Every sheet option is read here, once; the rest of the engine asks the
:class:`Variant` (``variant.stacking``, ``variant.effects[rank]`` ...) instead of
branching on option keys. Effects are data: a table from rank to effect code.

>>> v = Variant.of(Sheet.make("crazy-eights", {"queen_skips": True}))
>>> v.effects[Rank.QUEEN], v.rule["turn"], v.draw_limit
('skip', 'c8-turn', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorekeeper.core.cards import Rank
from scorekeeper.core.engine.book import MoveBook
from scorekeeper.core.sheets import C8, CD, GAMES, LO, SECTIONS, Sheet

__all__ = ["C8", "CD", "LO", "Variant"]

# Effect codes: "two" (next player draws two), "three" (free play), "melee" (a 4),
# "skip", "reverse". Wild cards (8s; a Countdown player's own rank) are handled apart.
_LO_EFFECTS = {Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "melee",
               Rank.JACK: "skip", Rank.ACE: "reverse"}

# Which reference section each kind of rule lives in, per game.
_RULE_IDS = {
    LO: dict(turn="lo-turn", draw="lo-drawing", two="lo-twos", three="lo-threes",
             melee="lo-melee", eight="lo-eights", skip="lo-jacks", reverse="lo-aces",
             joker="lo-jokers", call="lo-last-one", starter="lo-first-upcard",
             out="lo-going-out", stock="lo-empty-stock", jam="lo-empty-stock"),
    C8: dict(turn="c8-turn", draw="c8-drawing", two="c8-addons", three="c8-turn",
             melee="c8-turn", eight="c8-eights", skip="c8-addons", reverse="c8-addons",
             joker="c8-turn", call="c8-last-card", starter="c8-starter",
             out="c8-going-out", stock="c8-empty-stock", jam="c8-jammed"),
    CD: dict(turn="cd-turn", draw="cd-drawing", two="cd-addons", three="cd-turn",
             melee="cd-turn", eight="cd-wild", skip="cd-addons", reverse="cd-addons",
             joker="cd-turn", call="cd-addons", starter="cd-addons",
             out="cd-going-out", stock="cd-drawing", jam="cd-going-out"),
}


def _check_rule_ids() -> None:
    for game, ids in _RULE_IDS.items():
        known = {anchor for anchor, _ in SECTIONS[game]}
        missing = set(ids.values()) - known
        assert not missing, f"{game}: unknown reference ids {missing}"


_check_rule_ids()


@dataclass(frozen=True, slots=True)
class Variant:
    """The sheet's options as plain attributes, plus the effect table and rule ids."""

    game: str
    sheet: Sheet
    effects: dict[Rank, str]
    rule: dict[str, str]
    draw_limit: int | None
    play_after_draw: bool
    draw_with_playable: bool
    going_out_draws: bool
    starter_effects: bool
    ace_skips_two: bool
    call_required: bool
    call_penalty: int
    stacking: bool
    three_matching: bool
    three_chain: bool
    court_ten: bool
    melee_wrap: bool
    melee_effects: bool
    joker_must_be_legal: bool
    joker_effects: bool
    refill_shuffles: bool
    rank_effects: tuple[str | None, ...] = ()  # effects by rank number: Enum hashing is slow
    moves: MoveBook = field(init=False, compare=False, repr=False)
    # The undo log's rarely changing facts, one tuple per value, shared by the records
    # of every game under this variant (few values recur; bounded all the same).
    rare_facts: dict[tuple[Any, ...], tuple[Any, ...]] = field(
        init=False, compare=False, repr=False)

    RARE_MOST: ClassVar[int] = 1024
    _known: ClassVar[dict[tuple[Any, ...], Variant]] = {}  # by sheet value, bounded
    _KNOWN_MOST: ClassVar[int] = 64
    # The sheet object last read and its variant: a simulation deals every hand from
    # one Sheet, and building the value key above (its options sorted) cost about
    # 24,000 instructions a deal, 1% of a two-player Crazy Eights hand. A Sheet is
    # frozen, so the same object always reads the same (held here, not keyed by id()).
    _last: ClassVar[tuple[Sheet, Variant] | None] = None

    def __post_init__(self) -> None:
        table = tuple(self.effects.get(Rank(n)) if n else None for n in range(14))
        object.__setattr__(self, "rank_effects", table)
        object.__setattr__(self, "moves", MoveBook(GAMES[self.game].max_players))
        object.__setattr__(self, "rare_facts", {})

    @classmethod
    def of(cls, sheet: Sheet) -> Variant:
        """Read every option of ``sheet`` once: a simulation deals many hands under
        one sheet, and each equal sheet gets the same variant (and its move book)."""
        last = cls._last
        if last is not None and last[0] is sheet:
            return last[1]
        key = (sheet.game, sheet.version, *sorted(sheet.options.items()))
        variant = cls._known.get(key)
        if variant is None:
            if len(cls._known) >= cls._KNOWN_MOST:
                cls._known.clear()
            variant = cls._known[key] = cls._read(sheet)
        cls._last = (sheet, variant)
        return variant

    def shared(self, facts: tuple[Any, ...]) -> tuple[Any, ...]:
        """The one tuple kept for this value of the undo log's rare facts."""
        kept = self.rare_facts.get(facts)
        if kept is None:
            if len(self.rare_facts) >= self.RARE_MOST:
                self.rare_facts.clear()
            kept = self.rare_facts[facts] = facts
        return kept

    @classmethod
    def _read(cls, sheet: Sheet) -> Variant:
        g = sheet.game
        opt = sheet.options
        lo = g == LO
        return cls(
            game=g, sheet=sheet, effects=_effects(g, opt), rule=_RULE_IDS[g],
            draw_limit=opt["draw_limit"], play_after_draw=opt["play_after_draw"],
            draw_with_playable=opt["draw_with_playable"],
            going_out_draws=opt["going_out_effects"] == "draws",
            starter_effects=opt["starter_effects"],
            ace_skips_two=opt.get("ace_two_players", "none") == "skip",
            call_required=opt["last_card_call"], call_penalty=opt["last_card_penalty"],
            # Crazy Eights' optional 2s always stack; Last One's only by option.
            stacking=opt["twos_stack"] if lo else True,
            three_matching=lo and opt["three_free_play"] == "matching",
            three_chain=lo and opt["three_chain"],
            court_ten=lo and opt["melee_court_values"] == "ten",
            melee_wrap=lo and opt["melee_wrap"], melee_effects=lo and opt["melee_effects"],
            joker_must_be_legal=lo and opt["joker_must_be_legal"],
            joker_effects=lo and opt["joker_effects"],
            # Last One always shuffles the pile into a new stock (the rules reference).
            refill_shuffles=lo or opt["refill"] == "shuffle",
        )

    @property
    def is_last_one(self) -> bool:
        """True for Last One (jokers, melees, 3s; blocked rather than jammed)."""
        return self.game == LO

    def melee_value(self, rank: Rank) -> int:
        """Cards the defender draws when a melee ends on ``rank``."""
        if rank >= Rank.JACK and self.court_ten:
            return 10
        return int(rank)


def _effects(game: str, opt: Any) -> dict[Rank, str]:
    """Rank → effect code for the game under these options (8s are wild apart)."""
    if game == LO:
        return dict(_LO_EFFECTS)
    table: dict[Rank, str] = {}
    if opt["queen_skips"]:
        table[Rank.QUEEN] = "skip"
    if opt["ace_reverses"]:
        table[Rank.ACE] = "reverse"
    if opt["two_draws_two"]:
        table[Rank.TWO] = "two"
    return table
