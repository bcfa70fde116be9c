"""The play checker's form (Flask-WTF): query parameters become the engine's question.

A GET form (no CSRF token: every ruling is a shareable link, and the parameter names
are part of those links). Each field's validator is the core (:mod:`.fields`): cards
by the card parser, suits by :meth:`Suit.parse`, counts and seats as bounded whole
numbers, a seat's hand by :func:`parse_cards`; the game and ``opt-<key>`` options
make the sheet through the sheet's own :class:`~scorekeeper.core.sheets.Option`
checks. What needs several fields (:func:`.build.ask`), and the replay itself, is
:mod:`.build`'s and the core's; their :class:`InputError` is put back on the field it
names, so every error renders from ``field.errors``. This module imports nothing of
the room's but the field kinds: :mod:`.build` reads the form, never the other way.
The engine names a field at fault in the request's terms (``hands[1]``); :func:`form_field`
is the one mapping from those to the form's inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, StringField, TextAreaField

from scorekeeper.core.engine.question import Question
from scorekeeper.core.errors import InputError
from scorekeeper.core.games import DEFAULT_GAME
from scorekeeper.core.sheets import GAMES, Sheet, SheetError, options_for
from scorekeeper.web.check.fields import (
    HAND_MOST,
    CardField,
    CheckField,
    HoldField,
    NumberField,
    OptionField,
    SeatField,
    SuitField,
    YesNoField,
)
from scorekeeper.web.fields import asks_core
from scorekeeper.web.sheet_text import sheet_from_args

OWED_CHOICES = (0, 2, 4, 6, 8)
MOST_SEATS = max(g.max_players for g in GAMES.values())
PLAYERS_USUAL = 4

__all__ = ["OWED_CHOICES", "Asked", "CheckForm", "check_form", "form_field"]


@dataclass(frozen=True)
class Asked:
    """What the form asks: the engine's question, the question in words, the mode
    (``sequence``: event lines, else one disputed play by ``who``, a seat from 0)."""

    question: Question
    words: str
    sequence: bool
    lines: tuple[str, ...] = ()
    held_seats: frozenset[int] = field(default_factory=frozenset)  # seats with own hands
    who: int = 0


def _game(key: str | None) -> str:
    key = key or DEFAULT_GAME
    if key not in GAMES:
        raise InputError(f"There is no game called {key!r} here.", "game")
    return key


class CheckForm(FlaskForm):
    """The fields every checker has; :func:`check_form` adds the seats' hands and the
    game's options. ``sheet`` and ``asked`` are what the form asks once read."""

    class Meta:
        csrf = False  # a GET form: nothing changes, and links must stay shareable

    game = StringField(validators=[asks_core(_game)])
    up = CardField()
    suit = SuitField()
    owed = NumberField(high=40)
    drew = NumberField(high=HAND_MOST)
    drawn = CardField()
    card = CardField()
    csuit = SuitField()
    cas = CardField()
    players = NumberField(low=1, default_value=PLAYERS_USUAL)
    turn = SeatField()
    who = SeatField()
    melee = CheckField()  # "1" (or any word but "no"): a melee is on; "no"; "": not said
    last = YesNoField()  # is the card played the player's last? "" when not said
    ma = SeatField()
    md = SeatField()
    events = TextAreaField()
    held = NumberField(low=1, high=HAND_MOST, default_value=5)
    dealer = SeatField()
    upas = CardField()

    names: list[str] | None = None
    sent: Any = None  # the query parameters as sent
    sheet: Sheet
    asked: Asked | None = None

    @property
    def seat_count(self) -> int:
        """The table size: the match's seats, else the players field (4 when unreadable)."""
        if self.names:
            return len(self.names)
        text = (self.players.data or "").strip()
        return int(text) if text.isdigit() and 1 <= int(text) <= 99 else PLAYERS_USUAL

    def melee_said(self) -> bool | None:
        """Whether the form says a melee is on (True), is not (False), or leaves it
        unsaid (None). Links from before the question was asked carry ``melee=1``."""
        text = self.melee.text.lower()
        return None if not text else text != "no"

    def named(self, name: str) -> Field:
        """The field whose input is called ``name`` (``hold-2``, ``opt-threshold``)."""
        return self._fields[name.replace("-", "_")]

    def holds(self) -> list[HoldField]:
        """Each seat's own-hand field, seat 1 first."""
        return [f for f in self if isinstance(f, HoldField)]

    def options(self) -> list[OptionField]:
        """The house-rule fields (``opt-<key>``), in the sheet's order."""
        return [f for f in self if isinstance(f, OptionField)]

    def is_asked(self) -> bool:
        """Whether the form describes a question yet (an upcard and a play or events)."""
        return bool((self.up.data or "").strip()) and bool(
            (self.card.data or "").strip() or (self.events.data or "").strip())

    def read_sheet(self, sheet: Sheet | None) -> Sheet:
        """The match's sheet, else the one ``game`` and the ``opt-`` fields make (a
        problem goes on its field and the usual Last One sheet stands in)."""
        if sheet is not None:
            self.sheet = sheet
            return sheet
        self.sheet = sheet_from_args({"game": DEFAULT_GAME})
        if not self.game.validate(self):
            return self.sheet
        # Every opt- parameter, as links always carried them (an unknown one is refused).
        values = {k[4:]: v for k, v in (self.sent or {}).items()
                  if k.startswith("opt-") and v.strip()}
        try:
            self.sheet = sheet_from_args({"game": self.game.data, **values})
        except SheetError as exc:
            target = self._fields.get("opt_" + exc.field.removeprefix("options."), self.game)
            target.errors = [*target.errors, exc.message]
        return self.sheet

    def refuse(self, exc: InputError) -> None:
        """Put the replay's error on the form field its request field comes from."""
        asked = self.asked
        name = form_field(exc.field, asked.sequence if asked else False,
                          asked.held_seats if asked else frozenset())
        self.put(name, exc.message)

    def put(self, name: str, message: str) -> None:
        """Add an error to the field whose input is called ``name`` (else ``up``)."""
        field = self._fields.get(name.replace("-", "_")) or self.up
        field.errors = [*field.errors, message]

    def errors_by_name(self) -> dict[str, str]:
        """The first error of each field, by its input name (``hold-2``...)."""
        return {f.name: f.errors[0] for f in self if f.errors}


def check_form(formdata: Any, sheet: Sheet | None = None, names: list[str] | None = None
               ) -> CheckForm:
    """The checker's form read from ``formdata`` (the query string): a hand field per
    seat the game allows (or per match seat), an option field per option outside a
    match. ``form.sheet`` is read at once; :meth:`CheckForm.ask` reads the rest."""
    fields: dict[str, Field] = {}
    for n in range(1, max(MOST_SEATS, len(names or [])) + 1):
        fields[f"hold_{n}"] = HoldField(name=f"hold-{n}")
    game = (formdata.get("game") if sheet is None else sheet.game) or DEFAULT_GAME
    for opt in options_for(game if game in GAMES else DEFAULT_GAME) if sheet is None else []:
        fields[f"opt_{opt.key}"] = OptionField(opt, name=f"opt-{opt.key}")
    form = type("CheckerForm", (CheckForm,), fields)(formdata=formdata)
    form.names, form.sent = names, formdata
    form.read_sheet(sheet)
    return form


# Which form field shows a replay error, by the request field it names.
_FIELD_MAP = (("upcard", "up"), ("situation.turn", "turn"), ("situation.active_suit", "suit"),
              ("situation.upcard_as", "upas"), ("situation.melee", "melee"),
              ("situation.pending_draw", "owed"), ("situation.drawn", "drew"),
              ("players", "players"), ("dealer", "dealer"),
              ("events", "events"), ("hands", "card"), ("stock", "held"))


def form_field(api_field: str | None, sequence: bool,
               held_seats: frozenset[int] | set[int] = frozenset()) -> str:
    """The form field for a replay request field (``sheet.options.x`` → ``opt-x``,
    ``hands[1]`` → ``hold-2`` when that seat's hand was given)."""
    api_field = api_field or "up"
    if api_field.startswith("sheet.options."):
        return "opt-" + api_field.removeprefix("sheet.options.")
    if api_field.startswith("events[") and not sequence:
        return "card"
    seat = _seat_of(api_field)
    if seat is not None and seat in held_seats:
        return f"hold-{seat + 1}"
    for prefix, name in _FIELD_MAP:
        if api_field.startswith(prefix):
            return "held" if name == "card" and sequence else name
    return "up"


def _seat_of(api_field: str) -> int | None:
    """The seat a request field ``hands[N]...`` names, else None."""
    number = api_field.removeprefix("hands[").partition("]")[0]
    return int(number) if api_field.startswith("hands[") and number.isdigit() else None
