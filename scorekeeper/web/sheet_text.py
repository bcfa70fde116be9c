"""A rule sheet as query text and back: ``game=last-one&threshold=200``.

Shared by the pages that take a sheet from a link (the rules card, the play checker)
so each reads and writes the same spelling of every option: booleans as true/false
(yes/no, on/off, 1/0 accepted), "none" for an option left unset, whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.deal import DealError
from scorekeeper.core.sheets import GAMES, OPTIONS, Option, Sheet, SheetError

__all__ = ["players_from_args", "sheet_from_args", "sheet_query"]

_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def players_from_args(raw: str | None) -> int | None:
    """The table size a link asks for (None when it does not say), or DealError."""
    if raw is None or raw == "":
        return None
    if not raw.strip().isdigit():
        raise DealError(f"players must be a whole number, not {raw!r}", "players")
    return int(raw)


def sheet_from_args(args: Mapping[str, str]) -> Sheet:
    """Build a sheet from ``game=...&<option>=...`` text, or :class:`SheetError`."""
    if not args.get("game"):
        names = ", ".join(GAMES)
        raise SheetError(f"say which game: game= one of {names}", "game")
    options = {}
    for key, raw in args.items():
        if key in ("game", "players"):
            continue
        opt = OPTIONS.get(key)
        if opt is None:
            raise SheetError(f"unknown option {key!r}", key)
        options[key] = _parse_value(opt, raw.strip())
    return Sheet.make(args["game"], options)


def _parse_value(opt: Option, raw: str) -> Any:
    low = raw.lower()
    if opt.kind == "bool":
        if low in _TRUE | _FALSE:
            return low in _TRUE
        raise SheetError(f"{opt.key} must be true or false, not {raw!r}", opt.key)
    if opt.kind == "choice":
        return raw
    if opt.kind == "int_or_none" and low in ("", "none", "null"):
        return None
    if raw.isdigit() or (raw[:1] == "-" and raw[1:].isdigit()):
        return int(raw)
    raise SheetError(f"{opt.key} must be a whole number, not {raw!r}", opt.key)


def sheet_query(sheet: Sheet) -> dict[str, str]:
    """The sheet's non-default options as query text that :func:`sheet_from_args` reads."""
    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return {key: text(value) for key, value in sheet.differences().items()}
