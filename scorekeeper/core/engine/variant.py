"""A rule sheet turned into the flat facts the engine reads on every move.

A thin view: every sheet option is read here, once, under its own name (``variant.
twos_stack`` is the sheet's ``twos_stack``), and the game's own facts come from its
definition (:class:`~scorekeeper.core.games.definition.Game`): which ranks act and how
(a rank → effect table), whether 2s stack where no option says, whether the pile is
always shuffled, who names a starting wild. The rest of the engine asks the
:class:`Variant` instead of branching on option keys or on the game.

>>> v = Variant.of(Sheet.make("crazy-eights", {"queen_skips": True}))
>>> v.effects[Rank.QUEEN], v.rule["turn"], v.draw_limit
('skip', 'c8-turn', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorekeeper.core.cards import Rank
from scorekeeper.core.engine.book import MoveBook
from scorekeeper.core.games import Game
from scorekeeper.core.sheets import Sheet

__all__ = ["Variant"]

# Effect codes: "two" (next player draws two), "three" (free play), "melee" (a 4),
# "skip", "reverse". Wild cards (8s; a Countdown player's own rank) are handled apart.


@dataclass(frozen=True, slots=True)
class Variant:
    """The sheet's options as plain attributes under their own names (an option the
    game lacks reads as off), the game's definition, the effect table and rule ids.

    ``refill_shuffles`` is the one derived fact: the pile is shuffled into a new stock
    when the game always shuffles (its definition says so) or the sheet's ``refill``
    is ``"shuffle"``."""

    game: str
    sheet: Sheet
    info: Game
    effects: dict[Rank, str]
    rule: dict[str, str]
    draw_limit: int | None
    play_after_draw: bool
    draw_with_playable: bool
    going_out_effects: str
    starter_effects: bool
    ace_two_players: str
    last_card_call: bool
    last_card_penalty: int
    twos_stack: bool
    three_free_play: str
    three_chain: bool
    melee_court_values: str
    melee_wrap: bool
    melee_effects: bool
    joker_must_be_legal: bool
    joker_effects: bool
    refill_shuffles: bool
    draw_two_rank: Rank = Rank.TWO  # the rank whose draw a card of the same rank passes on
    rank_effects: tuple[str | None, ...] = ()  # effects by rank number: Enum hashing is slow
    moves: MoveBook = field(init=False, compare=False, repr=False)
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
        object.__setattr__(self, "moves", MoveBook(self.info.max_players))

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

    @classmethod
    def _read(cls, sheet: Sheet) -> Variant:
        info, opt = sheet.game_info, sheet.options
        effects = info.effects_under(opt)
        twos = [rank for rank, code in info.effects_under(
            {key: True for key in info.optional_effects}).items() if code == "two"]
        return cls(
            game=info.key, sheet=sheet, info=info, effects=effects,
            draw_two_rank=twos[0] if twos else Rank.TWO,
            rule=dict(info.rule_ids), draw_limit=opt["draw_limit"],
            play_after_draw=opt["play_after_draw"],
            draw_with_playable=opt["draw_with_playable"],
            going_out_effects=opt["going_out_effects"], starter_effects=opt["starter_effects"],
            ace_two_players=opt.get("ace_two_players", "none"),
            last_card_call=opt["last_card_call"], last_card_penalty=opt["last_card_penalty"],
            twos_stack=opt.get("twos_stack", info.twos_stack),
            three_free_play=opt.get("three_free_play", "any"),
            three_chain=opt.get("three_chain", False),
            melee_court_values=opt.get("melee_court_values", "rank"),
            melee_wrap=opt.get("melee_wrap", False),
            melee_effects=opt.get("melee_effects", False),
            joker_must_be_legal=opt.get("joker_must_be_legal", False),
            joker_effects=opt.get("joker_effects", False),
            refill_shuffles=info.refill_shuffles or opt.get("refill") == "shuffle",
        )

    def melee_value(self, rank: Rank) -> int:
        """Cards the defender draws when a melee ends on ``rank``."""
        if rank >= Rank.JACK and self.melee_court_values == "ten":
            return 10
        return int(rank)

