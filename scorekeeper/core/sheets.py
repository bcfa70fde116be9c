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

__all__ = [
    "GAMES",
    "OPTIONS",
    "READABLE_VERSIONS",
    "SECTIONS",
    "SHEET_KEYS",
    "SHEET_VERSION",
    "STANDARD_RULES",
    "Game",
    "Option",
    "Sheet",
    "SheetError",
    "game",
    "rules_summary",
    "standard_deal",
]

# Version 2: "Drawing, precisely" (the rules reference) changed what draw_limit, play_after_draw
# and draw_with_playable allow after a draw, and added ``refill``. A stored version-1
# sheet still reads, as version 2: its keys are the same and refill defaults to "turn",
# today's order, so nothing scored changes; only the engine's rulings on drawing do.
SHEET_VERSION = 2
READABLE_VERSIONS = (1, 2)
LO, C8, CD = "last-one", "crazy-eights", "countdown"
STANDARD_RULES = "standard rules"  # a sheet's summary when no option differs
SHEET_KEYS = ("game", "options", "version")  # what :meth:`Sheet.to_dict` writes


class SheetError(InputError):
    """An unknown game, an unknown option, or a value outside the option's range.

    ``field`` names what is at fault (``game`` or ``options.<key>``).
    """

    field: str  # always given, unlike the base class's

    def __init__(self, message: str, field: str = "options") -> None:
        super().__init__(message, field)


@dataclass(frozen=True)
class Game:
    """A game that ships: its key, name, table size and reference page."""

    key: str
    name: str
    min_players: int
    max_players: int
    blurb: str

    def players_problem(self, count: int) -> str | None:
        """Why ``count`` players cannot sit at this game, or None when they can.

        The one table-size check: the deal helper, the scorer, the engine, the records,
        the importer and both front doors all ask it, so they all say the same thing.

        >>> GAMES["last-one"].players_problem(1)
        'Last One needs at least 2 players; 1 is too few.'
        """
        if count < self.min_players:
            return f"{self.name} needs at least {self.min_players} players; {count} is too few."
        if count > self.max_players:
            return (f"{self.name} is for {self.min_players} to {self.max_players} players; "
                    f"{count} is too many. Split into two tables, or pick a game that "
                    "seats more.")
        return None


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        LO: Game(LO, "Last One", 2, 6, "Shed your cards; 2s, 3s, 4s, jacks, aces and jokers bite. "
                 "Reach the threshold and you are out; the last player standing wins."),
        C8: Game(C8, "Crazy Eights", 2, 7, "Match the suit or rank, eights are wild. "
                 "Whoever goes out scores what the others still hold."),
        CD: Game(CD, "Crazy Eights Countdown", 2, 7, "Crazy Eights where each player's count "
                 "sets their hand size and their own wild rank; first to count down to 0 wins."),
    }
)


def rules_summary(lines: list[str]) -> str:
    """The one line that says a sheet's house rules: the lines of the options that
    differ (:meth:`Option.said`), or :data:`STANDARD_RULES` when none does. The setup
    form's folded rules and :meth:`Sheet.summary` both say it this way."""
    return "; ".join(lines) if lines else STANDARD_RULES


def standard_deal(players: int) -> int:
    """Cards each in a Crazy Eights deal: 7 with two players, else 5 (Last One deals
    its sheet's ``hand_size``, Countdown each player's count).

    >>> standard_deal(2), standard_deal(4)
    (7, 5)
    """
    return 7 if players == 2 else 5


def game(key: str) -> Game:
    """The game with that key, or :class:`SheetError`."""
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        names = ", ".join(repr(k) for k in GAMES)
        raise SheetError(f"unknown game {key!r}: choose one of {names}", "game") from None


# Rules-reference sections per game, in reading order: (anchor id, title).
# Option help, engine verdicts and the reference page all cite these ids.
SECTIONS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType(
    {
        LO: (
            ("lo-overview", "Overview"),
            ("lo-deal", "Dealing"),
            ("lo-turn", "A turn"),
            ("lo-drawing", "Drawing"),
            ("lo-twos", "Twos: draw two"),
            ("lo-threes", "Threes: a free play"),
            ("lo-melee", "Fours: the melee"),
            ("lo-eights", "Eights: name a suit"),
            ("lo-jacks", "Jacks: skip"),
            ("lo-aces", "Aces: reverse"),
            ("lo-jokers", "Jokers: name a card"),
            ("lo-last-one", "Calling \"last one\""),
            ("lo-first-upcard", "The first upcard"),
            ("lo-going-out", "Going out"),
            ("lo-empty-stock", "When the stock runs out"),
            ("lo-scoring", "Scoring"),
            ("lo-elimination", "Elimination and the winner"),
        ),
        C8: (
            ("c8-overview", "Overview"),
            ("c8-deal", "Dealing"),
            ("c8-turn", "A turn"),
            ("c8-eights", "Eights: name a suit"),
            ("c8-drawing", "Drawing"),
            ("c8-empty-stock", "When the stock runs out"),
            ("c8-addons", "Add-on cards"),
            ("c8-last-card", "Calling \"last card\""),
            ("c8-starter", "The starter card"),
            ("c8-going-out", "Going out"),
            ("c8-scoring", "Scoring"),
            ("c8-jammed", "A jammed hand"),
            ("c8-match-end", "How the match ends"),
        ),
        CD: (
            ("cd-overview", "Overview"),
            ("cd-count", "Your count"),
            ("cd-wild", "Your wild rank"),
            ("cd-turn", "A turn"),
            ("cd-drawing", "Drawing and the empty stock"),
            ("cd-addons", "Add-on cards"),
            ("cd-going-out", "Going out and counting down"),
            ("cd-match-end", "How the match ends"),
        ),
    }
)


@dataclass(frozen=True)
class Option:
    """One house-rule option.

    ``kind`` is ``bool``, ``int``, ``choice`` or ``int_or_none`` (an integer, or None
    for "no limit"). ``defaults`` and ``sections`` are per game key; an option applies
    to exactly the games in ``defaults``. ``choices`` maps each allowed value of a
    ``choice`` option to its label.
    """

    key: str
    label: str
    help: str
    kind: str
    defaults: Mapping[str, Any]
    sections: Mapping[str, str]
    choices: Mapping[Any, str] = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None

    def allows(self, value: int) -> bool:
        """Whether a number lies within this option's bounds (either may be open)."""
        return ((self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    def applies_to(self, game_key: str) -> bool:
        """Whether this option exists for that game."""
        return game_key in self.defaults

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


def _all(lo: Any = None, c8: Any = None, *, cd: bool = True) -> dict[str, Any]:
    """Defaults for LO and C8; Countdown inherits C8's unless ``cd`` is False."""
    out = {}
    if lo is not None:
        out[LO] = lo
    if c8 is not None:
        out[C8] = c8
        if cd:
            out[CD] = c8
    return out

# Bounds for the open-ended numbers: far beyond any table's game, small enough that
# every total, chart and comparison stays an ordinary number (10³⁰⁹ once broke charts).
MAX_POINTS = 1_000_000
MAX_DRAWS = 200


def _sec(lo: str | None = None, c8: str | None = None, cd: str | None = None) -> dict[str, str]:
    return {k: v for k, v in ((LO, lo), (C8, c8), (CD, cd)) if v}


_OPTION_LIST = [
    Option("hand_size", "Cards dealt", "How many cards each player is dealt (4 to 9; 9 only "
           "when everybody agrees).", "int", _all(7), _sec("lo-deal"), minimum=4, maximum=9),
    Option("threshold", "Elimination threshold", "A player whose total reaches this is out "
           "of the match.", "int", _all(250), _sec("lo-elimination"), minimum=1,
           maximum=MAX_POINTS),
    Option("draw_limit", "Draw limit", "The most cards a player may draw in one turn. "
           "Empty means no limit: keep drawing while the stock lasts. Whether a drawn "
           "card may then be played, or a player holding a playable card may draw at all, "
           "is set by the next two options.", "int_or_none",
           _all(1, 1), _sec("lo-drawing", "c8-drawing", "cd-drawing"), minimum=1,
           maximum=MAX_DRAWS),
    Option("play_after_draw", "Play after drawing", "Once a player has drawn, they may still "
           "play this turn: any card in hand that fits, not only the one drawn. They may "
           "also keep it and pass.", "bool", _all(False, True),
           _sec("lo-drawing", "c8-drawing", "cd-drawing")),
    Option("draw_with_playable", "Draw while holding a playable card", "A player may draw "
           "(and draw again, within the limit) even while holding a card that could be "
           "played. Off: drawing is only for a player who cannot play, and stops once "
           "they can.", "bool",
           _all(True, False), _sec("lo-drawing", "c8-drawing", "cd-drawing")),
    Option("going_out_effects", "Effects of the last card", "Whether the card a player goes "
           "out with still makes others draw before the hand is scored.", "choice",
           _all("none", "none"), _sec("lo-going-out", "c8-going-out", "cd-going-out"),
           {"none": "no effects", "draws": "draw effects resolve first"}),
    Option("starter_effects", "First upcard acts", "The first upcard has its effect as if "
           "the dealer had played it.", "bool", _all(True, False),
           _sec("lo-first-upcard", "c8-starter", "cd-addons")),
    Option("ace_two_players", "Ace with two players", "What an ace does when only two "
           "players are in the hand.", "choice", _all("none", "skip"),
           _sec("lo-aces", "c8-addons", "cd-addons"),
           {"none": "no effect", "skip": "the other player is skipped"}),
    Option("last_card_call", "Call the last card", "A player left holding one card must "
           "say so, or draw a penalty.", "bool", _all(True, False),
           _sec("lo-last-one", "c8-last-card", "cd-addons")),
    Option("last_card_penalty", "Penalty for a missed call", "Cards drawn by a player who "
           "forgot to call their last card.", "int", _all(2, 2),
           _sec("lo-last-one", "c8-last-card", "cd-addons"), minimum=1, maximum=4),
    Option("twos_stack", "Stack twos", "A player told to draw two may play a 2 instead and "
           "pass the growing draw on.", "bool", _all(False), _sec("lo-twos")),
    Option("three_free_play", "Free play on a 3", "What the extra card put on a 3 must be.",
           "choice", _all("any"), _sec("lo-threes"),
           {"any": "any card", "matching": "a card that matches the 3"}),
    Option("three_chain", "3 on a 3", "A 3 played as the free card gives another free "
           "play.", "bool", _all(True), _sec("lo-threes")),
    Option("melee_court_values", "Melee court cards", "What a defender draws when a melee "
           "ends on a court card.", "choice", _all("rank"), _sec("lo-melee"),
           {"rank": "J 11, Q 12, K 13", "ten": "J, Q and K draw 10"}),
    Option("melee_wrap", "Melee wraps round", "The run continues past the king to the ace, "
           "2, 3 and so on.", "bool", _all(False), _sec("lo-melee")),
    Option("melee_effects", "Melee cards act", "Cards played into a melee keep their own "
           "effects (an 8 that ends it names a suit).", "bool", _all(False), _sec("lo-melee")),
    Option("joker_must_be_legal", "Joker must be playable", "The card a joker stands for "
           "must be one that could be played right now.", "bool", _all(True),
           _sec("lo-jokers")),
    Option("joker_effects", "Joker acts", "A joker has the effect of the card it stands "
           "for.", "bool", _all(True), _sec("lo-jokers")),
    Option("match_end", "Match ends", "When the match is over.", "choice",
           _all(None, "first-to-100", cd=False), _sec(c8="c8-match-end"),
           {"one-hand": "after one hand", "first-to-100": "first to 100 points",
            "first-to-50-per-player": "first to 50 points per player",
            "first-to-target": "first to a target you choose"}),
    Option("target", "Target", "The points that win, when the match is first to a target.",
           "int", _all(None, 100, cd=False), _sec(c8="c8-match-end"), minimum=1,
           maximum=MAX_POINTS),
    Option("jam_scoring", "Jammed hands", "How a hand that nobody can finish is scored.",
           "choice", _all(None, "difference", cd=False), _sec(c8="c8-jammed"),
           {"difference": "lowest holder scores the differences",
            "full": "lowest holder scores the others' full totals"}),
    Option("queen_skips", "Queens skip", "A queen skips the next player.", "bool",
           _all(None, False), _sec(c8="c8-addons", cd="cd-addons")),
    Option("ace_reverses", "Aces reverse", "An ace reverses the direction of play.", "bool",
           _all(None, False), _sec(c8="c8-addons", cd="cd-addons")),
    Option("two_draws_two", "Twos draw two", "A 2 makes the next player draw two unless "
           "they answer with a 2.", "bool", _all(None, False),
           _sec(c8="c8-addons", cd="cd-addons")),
    Option("refill", "Refilling the stock", "What happens to the discard pile when the "
           "stock runs out: it is turned over as it lies (the next card is the one played "
           "first), or shuffled (nobody knows what comes next).", "choice",
           _all(None, "turn"), _sec(c8="c8-empty-stock", cd="cd-drawing"),
           {"turn": "turned over in order", "shuffle": "shuffled"}),
    Option("start_count", "Starting count", "Every player's count at the start (1 to 8): "
           "both their hand size and their wild rank.", "int", {CD: 8}, _sec(cd="cd-count"),
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
            value = given.get(opt.key, opt.defaults[g.key])
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
        return {k: v for k, v in self.options.items() if OPTIONS[k].defaults[self.game] != v}

    def summary(self) -> str:
        """The sheet in a few words: "standard rules", or the options that differ.

        >>> Sheet.make("last-one", {"threshold": 100}).summary()
        'Elimination threshold: 100'
        """
        return rules_summary([OPTIONS[k].said(v) for k, v in self.differences().items()])

    def target_for(self, players: int) -> int | None:
        """The winning score of a Crazy Eights match, or None when points don't decide."""
        if self.game != C8:
            return None
        end = self["match_end"]
        if end == "first-to-100":
            return 100
        if end == "first-to-50-per-player":
            return 50 * players
        if end == "first-to-target":
            target: int = self["target"]
            return target
        return None

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
