"""The new-match form: read the game, seats, first dealer and house rules from form data.

Works without JavaScript: every chosen player gets a numbered seat select (clockwise),
new players can be typed in, and every option of the rule sheet is a plain input named
``opt-<key>``. Errors are collected per field so the form can show them all at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.deal import DealError, nine_problem, plan_for_sheet
from scorekeeper.core.sheets import GAMES, LO, Option, Sheet, SheetError, options_for
from scorekeeper.core.text import FieldError, clean_int, clean_name, sentence
from scorekeeper.store.models import Group, Player

NEW_SLOTS = 3  # blank "new player" rows on the form


@dataclass
class Setup:
    """What the form asked for: the sheet, who sits where, the first dealer, the errors.

    ``seats`` holds players in clockwise order; a ``str`` is a new player to add.
    """

    game: str
    sheet: Sheet | None = None
    seats: list[Player | str] = field(default_factory=list)
    first_dealer: int = 0
    errors: dict[str, str] = field(default_factory=dict)


def option_value(opt: Option, raw: str | None) -> Any:
    """One option's form text as a sheet value (``None`` text means use the default)."""
    name = f"opt-{opt.key}"
    raw = (raw or "").strip()
    if opt.kind == "bool":
        if raw not in ("yes", "no"):
            raise FieldError("Choose yes or no.", name)
        return raw == "yes"
    if opt.kind == "choice":
        return raw
    if opt.kind == "int_or_none" and raw == "":
        return None
    return clean_int(raw, name)


def _sheet(game: str, form: Mapping[str, str], errors: dict[str, str]) -> Sheet | None:
    values: dict[str, Any] = {}
    for opt in options_for(game):
        raw = form.get(f"opt-{opt.key}")
        if raw is None:
            continue  # not on the form: the game's default
        try:
            values[opt.key] = option_value(opt, raw)
        except FieldError as exc:
            errors[exc.field or f"opt-{opt.key}"] = exc.message
    try:
        sheet = Sheet.make(game, values)
    except SheetError as exc:
        key = exc.field.removeprefix("options.")
        errors[f"opt-{key}"] = sentence(exc)
        return None
    return None if errors else sheet


def _seats(group: Group, form: Mapping[str, str], errors: dict[str, str]) -> list[Player | str]:
    """Chosen players sorted by their seat number; new names without a number go last."""
    by_id = {p.id: p for p in group.players}
    chosen: list[tuple[int, int, Player | str]] = []
    for key, raw in form.items():
        if not key.startswith("order-p") or not raw:
            continue
        pid = key.removeprefix("order-p")
        player = by_id.get(int(pid)) if pid.isdigit() else None
        if player is None:
            errors["players"] = "One of the chosen players is not in this group."
            continue
        chosen.append((_seat_number(raw, errors), len(chosen), player))
    for i in range(NEW_SLOTS):
        text = form.get(f"new-{i}", "").strip()
        if text:
            try:
                name = clean_name(text, f"new-{i}")
            except FieldError as exc:
                errors[exc.field or f"new-{i}"] = exc.message
                continue
            order = form.get(f"order-n{i}", "")
            number = _seat_number(order, errors) if order else 99
            chosen.append((number, len(chosen), name))
    numbers = [n for n, _, _ in chosen if n != 99]
    if len(set(numbers)) != len(numbers):
        errors["players"] = "Two players have the same seat number; give each their own."
    return [who for _, _, who in sorted(chosen, key=lambda c: (c[0], c[1]))]


def _seat_number(raw: str, errors: dict[str, str]) -> int:
    try:
        return clean_int(raw, "players", 1, 99)
    except FieldError as exc:
        errors["players"] = "Seat numbers are whole numbers from 1. " + exc.message
        return 99


def parse_setup(group: Group, form: Mapping[str, str]) -> Setup:
    """Read the whole form; ``errors`` is empty when a match can be started."""
    game = form.get("game", "")
    setup = Setup(game if game in GAMES else LO)
    if game not in GAMES:
        setup.errors["game"] = "Choose one of the games."
        return setup
    setup.sheet = _sheet(game, form, setup.errors)
    setup.seats = _seats(group, form, setup.errors)
    info, count = GAMES[game], len(setup.seats)
    problem = info.players_problem(count)
    if problem and "players" not in setup.errors:
        setup.errors["players"] = problem
    try:
        setup.first_dealer = clean_int(form.get("first_dealer"), "first_dealer", 1,
                                       max(count, 1)) - 1
    except FieldError as exc:
        setup.errors["first_dealer"] = "Pick the seat of the first dealer. " + exc.message
    sheet = setup.sheet
    nine = sheet and nine_problem(sheet, bool(form.get("agree_nine")), "tick the box")
    if nine:
        setup.errors["agree_nine"] = nine
    if sheet and not setup.errors:
        try:
            plan_for_sheet(sheet, count)
        except DealError as exc:
            where = "opt-hand_size" if exc.field == "hand_size" else "players"
            setup.errors[where] = exc.message
    return setup
