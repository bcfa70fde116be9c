"""The new-match form (WTForms): the game, who sits where, the first dealer, house rules.

Built per group and game by :func:`setup_form`. Works without JavaScript: every player
has a numbered seat select (``order-p<id>``, clockwise; the page script fills them by
tapping), new players can be typed in (``new-<i>``), and every option of the rule sheet
is a :class:`SheetOptionField` (``opt-<key>``). The validators are the core's: names by
:func:`~scorekeeper.core.text.clean_name`, options by the sheet's
:class:`~scorekeeper.core.sheets.Option`, the table by the game's player range and the
deal plan. Seating problems gather on the ``players`` note so they show above the seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, StringField
from wtforms.validators import StopValidation

from scorekeeper.core.deal import DealError, nine_problem, plan_for_sheet
from scorekeeper.core.errors import InputError
from scorekeeper.core.games import DEFAULT_GAME
from scorekeeper.core.sheets import GAMES, Option, Sheet, SheetError, options_for
from scorekeeper.core.text import clean_int, clean_name, sentence
from scorekeeper.store.groups import GroupPlayer

NEW_SLOTS = 3  # blank "new player" rows on the form
LAST = 99  # a new player with no seat number sits after everyone numbered


def option_value(opt: Option, raw: str | None) -> Any:
    """One option's form text as a sheet value (``None`` text means use the default)."""
    name = f"opt-{opt.key}"
    raw = (raw or "").strip()
    if opt.kind == "bool":
        if raw not in ("yes", "no"):
            raise InputError("Choose yes or no.", name)
        return raw == "yes"
    if opt.kind == "choice":
        return raw
    if opt.kind == "int_or_none" and raw == "":
        return None
    return clean_int(raw, name)


class NoteField(Field):
    """Renders nothing; carries errors about several inputs at once (the seating)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None


class SeatingField(StringField):
    """Where one player sits at the new match: a seat number from 1, or empty (sitting
    out; a new player: last)."""

    number: int | None = None

    def pre_validate(self, form: Any) -> None:
        self.number = None
        text = (self.data or "").strip()
        if not text:
            return
        try:
            self.number = clean_int(text, "players", 1, LAST)
        except InputError as exc:
            form.players.errors.append("Seat numbers are whole numbers from 1. " + exc.message)
            raise StopValidation() from None


class NewPlayerField(StringField):
    """A new player's name, cleaned by the core; empty when the row is not used."""

    clean: str | None = None

    def pre_validate(self, form: Any) -> None:
        self.clean = None
        if (self.data or "").strip():
            try:
                self.clean = clean_name(self.data, self.name)
            except InputError as exc:
                raise StopValidation(exc.message) from None


class SheetOptionField(StringField):
    """One rule-sheet option as form text; the option itself (the core) reads it."""

    value: Any = None

    def __init__(self, option: Option, **kwargs: Any) -> None:
        super().__init__(option.label, **kwargs)
        self.option = option

    def pre_validate(self, form: Any) -> None:
        self.value = None
        if self.raw_data is None or not self.raw_data:
            return  # not sent: the game's usual rule
        try:
            self.value = option_value(self.option, self.data)
        except InputError as exc:
            raise StopValidation(exc.message) from None


class SetupForm(FlaskForm):
    """The fields of every new match; :func:`setup_form` adds seats and options."""

    class Meta:
        csrf = False  # CSRFProtect checks every POST of the app already

    game = HiddenField()
    first_dealer = StringField("First dealer")
    agree_nine = BooleanField(false_values=("", "false", "no", "0"))
    players = NoteField()

    candidates: list[GroupPlayer]
    sheet: Sheet | None = None
    seats: list[GroupPlayer | str]
    dealer: int = 0
    _sent: Any = None  # the raw form data, to spot players not in the group

    def fields_named(self, prefix: str) -> list[Any]:
        """The dynamic fields whose names start with ``prefix``, in form order."""
        return [f for f in self if f.name.startswith(prefix)]

    def validate(self, extra_validators: Any = None) -> bool:
        """Each field, then the table as a whole: the sheet, the seating, the deal."""
        super().validate(extra_validators)
        if self.game.data not in GAMES:
            self.game.errors = ["Choose one of the games."]
            return False
        self.sheet = self._sheet()
        self.seats = self._seats()
        info, count = GAMES[self.game.data], len(self.seats)
        problem = info.players_problem(count)
        if problem and not self.players.errors:
            self.players.errors.append(problem)
        try:
            self.dealer = clean_int(self.first_dealer.data, "first_dealer", 1,
                                    max(count, 1)) - 1
        except InputError as exc:
            self.first_dealer.errors = ["Pick the seat of the first dealer. " + exc.message]
        self._check_deal(count)
        return not self.errors_by_name()

    def _sheet(self) -> Sheet | None:
        values = {f.option.key: f.value for f in self.fields_named("opt-")
                  if f.raw_data and not f.errors}
        if any(f.errors for f in self.fields_named("opt-")):
            return None
        try:
            return Sheet.make(self.game.data, values)
        except SheetError as exc:
            self[f"opt_{exc.field.removeprefix('options.')}"].errors = [sentence(exc)]
            return None

    def _seats(self) -> list[GroupPlayer | str]:
        """Chosen players by seat number; new names without a number go last."""
        chosen: list[tuple[int, int, GroupPlayer | str]] = []
        for player in self.candidates:
            number = self[f"order_p{player.id}"].number
            if number is not None:
                chosen.append((number, len(chosen), player))
        for i in range(NEW_SLOTS):
            name = self[f"new_{i}"].clean
            if name:
                chosen.append((self[f"order_n{i}"].number or LAST, len(chosen), name))
        known = {f"order-p{p.id}" for p in self.candidates}
        if any(key.startswith("order-p") and key not in known and value
               for key, value in (self._sent or {}).items()):
            self.players.errors.append("One of the chosen players is not in this group.")
        numbers = [n for n, _, _ in chosen if n != LAST]
        if len(set(numbers)) != len(numbers):
            self.players.errors.append(
                "Two players have the same seat number; give each their own.")
        return [who for _, _, who in sorted(chosen, key=lambda c: (c[0], c[1]))]

    def _check_deal(self, count: int) -> None:
        sheet = self.sheet
        if sheet is None:
            return
        nine = nine_problem(sheet, bool(self.agree_nine.data), "tick the box")
        if nine:
            self.agree_nine.errors = [nine]
        if self.errors_by_name():
            return
        try:
            plan_for_sheet(sheet, count)
        except DealError as exc:
            where = self.opt_hand_size if exc.field == "hand_size" else self.players
            where.errors.append(exc.message)

    def errors_by_name(self) -> dict[str, str]:
        """The first error of each field, by its input name (``opt-threshold``...)."""
        return {f.name: f.errors[0] for f in self if f.errors}

    def rules_differ(self) -> list[str]:
        """The house rules sent that differ from the game's usual rule, in words
        ("Elimination threshold: 100"), for the one line the rules fold behind."""
        game = GAMES.get(self.game.data) or GAMES[DEFAULT_GAME]
        differ = []
        for field in self.fields_named("opt-"):
            opt = field.option
            if not field.raw_data:
                continue
            try:
                value = option_value(opt, field.data)
            except InputError:
                value = None
            if field.errors or (value is None and opt.kind != "int_or_none"):
                differ.append(f"{opt.label}: to fix")
            elif value != game.default(opt.key):
                differ.append(opt.said(value))
        return differ

    def refuse(self, field: str, message: str) -> None:
        """An error from the store, on the input it names (else on the seating)."""
        target = next((f for f in self if f.name == field), self.players)
        target.errors = [*target.errors, message]


def setup_form(game: str, candidates: Sequence[GroupPlayer], formdata: Any = None) -> SetupForm:
    """The form for a group and game: a seat select per candidate player, the new-player
    rows and one field per option of the game's rule sheet."""
    fields: dict[str, Field] = {}
    for p in candidates:
        fields[f"order_p{p.id}"] = SeatingField(p.name, name=f"order-p{p.id}")
    for i in range(NEW_SLOTS):
        fields[f"new_{i}"] = NewPlayerField(f"New player {i + 1}", name=f"new-{i}")
        fields[f"order_n{i}"] = SeatingField(f"Seat of new player {i + 1}", name=f"order-n{i}")
    for opt in options_for(game if game in GAMES else DEFAULT_GAME):
        fields[f"opt_{opt.key}"] = SheetOptionField(opt, name=f"opt-{opt.key}")
    form_class = type("GroupSetupForm", (SetupForm,), fields)
    form = form_class(formdata=formdata, data={"game": game, "first_dealer": "1"})
    form.candidates = list(candidates)
    form.seats = []
    form._sent = formdata
    return form
