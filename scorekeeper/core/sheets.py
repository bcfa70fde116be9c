"""Rule sheets: the games, their house-rule options, and validated option sets.

A sheet is data: a game key, a value for every option that game has, and a version.
Each option carries its label, help text and the id of the rules-reference section
that explains it, so one definition drives the setup form, the rules reference, the
scorer and the engine (the rules reference "Option keys").

>>> sheet = Sheet.make("last-one", {"threshold": 200})
>>> sheet["threshold"], sheet["hand_size"], sheet.version
(200, 7, 2)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorekeeper.core.errors import InputError
from scorekeeper.core.games import GAMES, Game

__all__ = [
    "GAMES",
    "OPTIONS",
    "READABLE_VERSIONS",
    "SHEET_KEYS",
    "SHEET_VERSION",
    "STANDARD_RULES",
    "Game",
    "Option",
    "Sheet",
    "SheetError",
    "game",
    "rules_summary",
]

# Version 2: "Drawing, precisely" (the rules reference) changed what draw_limit, play_after_draw
# and draw_with_playable allow after a draw, and added ``refill``. A stored version-1
# sheet still reads, as version 2: its keys are the same and refill defaults to "turn",
# today's order, so nothing scored changes; only the engine's rulings on drawing do.
SHEET_VERSION = 2
READABLE_VERSIONS = (1, 2)
STANDARD_RULES = "standard rules"  # a sheet's summary when no option differs
SHEET_KEYS = ("game", "options", "version")  # what :meth:`Sheet.to_dict` writes


class SheetError(InputError):
    """An unknown game, an unknown option, or a value outside the option's range.

    ``field`` names what is at fault (``game`` or ``options.<key>``).
    """

    field: str  # always given, unlike the base class's

    def __init__(self, message: str, field: str = "options") -> None:
        super().__init__(message, field)


def rules_summary(lines: list[str]) -> str:
    """The one line that says a sheet's house rules: the lines of the options that
    differ (:meth:`Option.said`), or :data:`STANDARD_RULES` when none does. The setup
    form's folded rules and :meth:`Sheet.summary` both say it this way."""
    return "; ".join(lines) if lines else STANDARD_RULES


def game(key: str) -> Game:
    """The game with that key, or :class:`SheetError`."""
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        names = ", ".join(repr(k) for k in GAMES)
        raise SheetError(f"unknown game {key!r}: choose one of {names}", "game") from None


@dataclass(frozen=True)
class Option:
    """One house-rule option.

    ``kind`` is ``bool``, ``int``, ``choice`` or ``int_or_none`` (an integer, or None
    for "no limit"). Which games have it, with what default and under which section of
    their rules, each game's definition says (:attr:`Game.options`); ``defaults`` and
    ``sections`` read them back per game key. ``choices`` maps each allowed value of a
    ``choice`` option to its label.
    """

    key: str
    label: str
    help: str
    kind: str
    choices: Mapping[Any, str] = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None

    def allows(self, value: int) -> bool:
        """Whether a number lies within this option's bounds (either may be open)."""
        return ((self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    @property
    def defaults(self) -> dict[str, Any]:
        """The default per game key, for the games that have this option."""
        return {k: g.options[self.key][0] for k, g in GAMES.items() if self.key in g.options}

    @property
    def sections(self) -> dict[str, str]:
        """The rules-reference section per game key, for the games that have it."""
        return {k: g.options[self.key][1] for k, g in GAMES.items() if self.key in g.options}

    def applies_to(self, game_key: str) -> bool:
        """Whether this option exists for that game."""
        found = GAMES.get(game_key)
        return found is not None and self.key in found.options

    def validate(self, value: Any) -> Any:
        """Return the value if allowed, else raise :class:`SheetError` naming the option."""
        where = f"options.{self.key}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SheetError(f"{self.key} must be true or false, not {value!r}", where)
            return value
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            allowed = ", ".join(repr(c) for c in self.choices)
            raise SheetError(f"{self.key} must be one of {allowed}, not {value!r}", where)
        if value is None and self.kind == "int_or_none":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise SheetError(f"{self.key} must be a whole number, not {value!r}", where)
        if self.minimum is not None and value < self.minimum:
            raise SheetError(f"{self.key} must be at least {self.minimum}, not {value}", where)
        if self.maximum is not None and value > self.maximum:
            raise SheetError(f"{self.key} must be at most {self.maximum}, not {value}", where)
        return value

    def describe(self, value: Any) -> str:
        """A value in words, for forms and the table's rules card."""
        if self.kind == "bool":
            return "yes" if value else "no"
        if self.kind == "choice":
            return self.choices[value]
        if value is None:
            return "no limit"
        return str(value)

    def said(self, value: Any) -> str:
        """The option and a value in a few words ("Elimination threshold: 100"): one
        line of a sheet's summary (:func:`rules_summary`)."""
        return f"{self.label}: {self.describe(value)}"


# Bounds for the open-ended numbers: far beyond any table's game, small enough that
# every total, chart and comparison stays an ordinary number (10³⁰⁹ once broke charts).
MAX_POINTS = 1_000_000
MAX_DRAWS = 200


_OPTION_LIST = [
    Option("hand_size", "Cards dealt", "How many cards each player is dealt (4 to 9; 9 only "
           "when everybody agrees).", "int", minimum=4, maximum=9),
    Option("threshold", "Elimination threshold", "A player whose total reaches this is out "
           "of the match.", "int", minimum=1,
           maximum=MAX_POINTS),
    Option("draw_limit", "Draw limit", "The most cards a player may draw in one turn. "
           "Empty means no limit: keep drawing while the stock lasts. Whether a drawn "
           "card may then be played, or a player holding a playable card may draw at all, "
           "is set by the next two options.", "int_or_none", minimum=1,
           maximum=MAX_DRAWS),
    Option("play_after_draw", "Play after drawing", "Once a player has drawn, they may still "
           "play this turn: any card in hand that fits, not only the one drawn. They may "
           "also keep it and pass.", "bool"),
    Option("draw_with_playable", "Draw while holding a playable card", "A player may draw "
           "(and draw again, within the limit) even while holding a card that could be "
           "played. Off: drawing is only for a player who cannot play, and stops once "
           "they can.", "bool"),
    Option("going_out_effects", "Effects of the last card", "Whether the card a player goes "
           "out with still makes others draw before the hand is scored.", "choice",
           {"none": "no effects", "draws": "draw effects resolve first"}),
    Option("starter_effects", "First upcard acts", "The first upcard has its effect as if "
           "the dealer had played it.", "bool"),
    Option("ace_two_players", "Ace with two players", "What an ace does when only two "
           "players are in the hand.", "choice",
           {"none": "no effect", "skip": "the other player is skipped"}),
    Option("last_card_call", "Call the last card", "A player left holding one card must "
           "say so, or draw a penalty.", "bool"),
    Option("last_card_penalty", "Penalty for a missed call", "Cards drawn by a player who "
           "forgot to call their last card.", "int", minimum=1, maximum=4),
    Option("twos_stack", "Stack twos", "A player told to draw two may play a 2 instead and "
           "pass the growing draw on.", "bool"),
    Option("three_free_play", "Free play on a 3", "What the extra card put on a 3 must be.",
           "choice",
           {"any": "any card", "matching": "a card that matches the 3"}),
    Option("three_chain", "3 on a 3", "A 3 played as the free card gives another free "
           "play.", "bool"),
    Option("melee_court_values", "Melee court cards", "What a defender draws when a melee "
           "ends on a court card.", "choice",
           {"rank": "J 11, Q 12, K 13", "ten": "J, Q and K draw 10"}),
    Option("melee_wrap", "Melee wraps round", "The run continues past the king to the ace, "
           "2, 3 and so on.", "bool"),
    Option("melee_effects", "Melee cards act", "Cards played into a melee keep their own "
           "effects (an 8 that ends it names a suit).", "bool"),
    Option("joker_must_be_legal", "Joker must be playable", "The card a joker stands for "
           "must be one that could be played right now.", "bool"),
    Option("joker_effects", "Joker acts", "A joker has the effect of the card it stands "
           "for.", "bool"),
    Option("match_end", "Match ends", "When the match is over.", "choice",
           {"one-hand": "after one hand", "first-to-100": "first to 100 points",
            "first-to-50-per-player": "first to 50 points per player",
            "first-to-target": "first to a target you choose"}),
    Option("target", "Target", "The points that win, when the match is first to a target.",
           "int", minimum=1,
           maximum=MAX_POINTS),
    Option("jam_scoring", "Jammed hands", "How a hand that nobody can finish is scored.",
           "choice",
           {"difference": "lowest holder scores the differences",
            "full": "lowest holder scores the others' full totals"}),
    Option("queen_skips", "Queens skip", "A queen skips the next player.", "bool"),
    Option("ace_reverses", "Aces reverse", "An ace reverses the direction of play.", "bool"),
    Option("two_draws_two", "Twos draw two", "A 2 makes the next player draw two unless "
           "they answer with a 2.", "bool"),
    Option("refill", "Refilling the stock", "What happens to the discard pile when the "
           "stock runs out: it is turned over as it lies (the next card is the one played "
           "first), or shuffled (nobody knows what comes next).", "choice",
           {"turn": "turned over in order", "shuffle": "shuffled"}),
    Option("start_count", "Starting count", "Every player's count at the start (1 to 8): "
           "both their hand size and their wild rank.", "int",
           minimum=1, maximum=8),
]

OPTIONS: Mapping[str, Option] = MappingProxyType({o.key: o for o in _OPTION_LIST})


def options_for(game_key: str) -> list[Option]:
    """The options of a game, in a stable order."""
    game(game_key)
    return [o for o in _OPTION_LIST if o.applies_to(game_key)]


@dataclass(frozen=True)
class Sheet:
    """A validated rule sheet: a game and a value for every one of its options.

    Build with :meth:`make` or :meth:`from_json`; read options with ``sheet[key]``.
    """

    game: str
    options: Mapping[str, Any]
    version: int = SHEET_VERSION

    @classmethod
    def make(cls, game_key: Any, options: Mapping[str, Any] | None = None) -> Sheet:
        """Fill defaults for the game and validate the given options.

        Unknown keys, options of another game and out-of-range values are refused.
        """
        g = game(game_key)
        if options is not None and not isinstance(options, Mapping):
            raise SheetError("options must be an object of option keys and values")
        given = dict(options or {})
        values: dict[str, Any] = {}
        for key in given:
            opt = OPTIONS.get(key) if isinstance(key, str) else None
            if opt is None:
                raise SheetError(f"unknown option {key!r}", f"options.{key}")
            if not opt.applies_to(g.key):
                raise SheetError(f"option {key!r} does not apply to {g.name}", f"options.{key}")
        for opt in options_for(g.key):
            value = given.get(opt.key, g.default(opt.key))
            values[opt.key] = opt.validate(value)
        return cls(g.key, MappingProxyType(values))

    def __getitem__(self, key: str) -> Any:
        return self.options[key]

    @property
    def game_info(self) -> Game:
        """The :class:`Game` this sheet is for."""
        return GAMES[self.game]

    def differences(self) -> dict[str, Any]:
        """The options whose value differs from the game's default."""
        info = self.game_info
        return {k: v for k, v in self.options.items() if info.default(k) != v}

    def summary(self) -> str:
        """The sheet in a few words: "standard rules", or the options that differ.

        >>> Sheet.make("last-one", {"threshold": 100}).summary()
        'Elimination threshold: 100'
        """
        return rules_summary([OPTIONS[k].said(v) for k, v in self.differences().items()])

    def target_for(self, players: int) -> int | None:
        """The winning score of a match to a target, or None when points don't decide."""
        return self.game_info.target(self.options, players)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"game": ..., "options": {...}, "version": 2}``."""
        return {"game": self.game, "options": dict(self.options), "version": self.version}

    def to_json(self) -> str:
        """The sheet as compact JSON (stored with every match)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> Sheet:
        """Rebuild and re-validate a sheet from :meth:`to_dict` data: a key it does not
        have (a typo such as ``option``) is refused, not read as the standard rules."""
        if not isinstance(data, Mapping):
            raise SheetError("a sheet must be an object with a game and options", "sheet")
        for key in data:
            if key not in SHEET_KEYS:
                raise SheetError(f"unknown sheet key {key!r}: a sheet has "
                                 f"{', '.join(SHEET_KEYS)}", f"sheet.{key}")
        version = data.get("version", SHEET_VERSION)
        if type(version) is not int or version not in READABLE_VERSIONS:  # not True, not 1.0
            raise SheetError(f"unsupported sheet version {version!r}", "sheet.version")
        return cls.make(data.get("game"), data.get("options"))

    @classmethod
    def from_json(cls, text: str) -> Sheet:
        """Parse :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))


def read_sheet(data: Any, field: str = "sheet") -> Sheet:
    """A request's ``sheet`` object (``{"game", "options"}``, and ``version`` as a
    match's answer gives it back) as a validated sheet, read as :meth:`Sheet.from_dict`;
    :class:`SheetError` names the field at fault (``sheet.options.threshold``).

    >>> read_sheet({"game": "last-one", "options": {"threshold": 150}})["threshold"]
    150
    """
    if not isinstance(data, dict):
        raise SheetError("sheet must be an object with a game and options", field)
    try:
        return Sheet.from_dict(data)
    except SheetError as exc:
        raise SheetError(exc.message, f"{field}.{exc.field.removeprefix('sheet.')}") from None
