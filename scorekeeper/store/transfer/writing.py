"""Writing an import: validated plans handed to the one writer, all or nothing.

Players are matched by name (case-folded NFC) within the target group and created
when missing (a look-alike of a player there refuses the file), seasons likewise by
name; matches the group holds already (the same stable ``uid``, from an
earlier import of the file) are skipped and counted. The rest go to
:func:`scorekeeper.store.records.add_matches` — the same write path as a match set up
on a phone, its derived rows written by the projection — in one transaction.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from scorekeeper.core.text import name_key
from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.groups import seen_text, told_apart
from scorekeeper.store.match_views import GroupView
from scorekeeper.store.models import Match, Player, Season
from scorekeeper.store.records import NewMatch, add_matches
from scorekeeper.store.seasons import group_seasons
from scorekeeper.store.timeouts import allow_long_statements
from scorekeeper.store.transfer.validation import (
    GroupNotes,
    Limits,
    Plan,
    Problem,
    TransferError,
    validate,
)

__all__ = ["ImportReport", "import_document", "write_plans"]


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote; ``already_imported`` counts the file's matches that were in
    the group already (the same stable id) and were left alone."""

    matches: int
    hands: int
    players_created: tuple[str, ...]
    already_imported: int = 0


def _already_here(group: GroupView, plans: list[Plan]) -> set[str]:
    """The stable ids of the file's matches that the group holds already."""
    uids = [plan.uid for plan in plans if plan.uid]
    if not uids:
        return set()
    return set(db.session.scalars(db.select(Match.uid).where(Match.group_id == group.id,
                                                              Match.uid.in_(uids))))


class _Keys(dict[str, str]):
    """:func:`name_key` of each name, worked out once per import."""

    def __missing__(self, name: str) -> str:
        self[name] = key = name_key(name)
        return key


def _players(group: GroupView, plans: list[Plan], notes: GroupNotes, key_of: _Keys
             ) -> tuple[dict[str, Player], list[Player]]:
    """Existing players by :func:`name_key`, plus the ones to create (not yet added):
    everyone seated in a new match and everyone the file lists, seated or not."""
    found = {name_key(p.name): p for p in db.session.scalars(
        db.select(Player).where(Player.group_id == group.id))}
    by_length: dict[int, list[str]] = {}  # look-alikes have the same length
    for player in found.values():
        by_length.setdefault(len(seen_text(player.name)), []).append(player.name)
    created = []
    for name in (*(n for plan in plans for n in plan.names), *notes.names):
        key = key_of[name]
        if key not in found:
            _check_told_apart(name, by_length.setdefault(len(seen_text(name)), []))
            found[key] = player = Player(group_id=group.id, name=name,
                                         colour=notes.colours.get(key, "#1f77b4"),
                                         hidden=key in notes.hidden)
            created.append(player)
    return found, created


def _seasons(group: GroupView, notes: GroupNotes) -> list[Season]:
    """The file's seasons the group lacks (not yet added); one the group has under the
    same name is skipped when its days agree, else the file is refused."""
    here = {name_key(s.name): s for s in group_seasons(group)}
    new = []
    for name, first, last in notes.seasons:
        season = here.get(name_key(name))
        if season is None:
            new.append(Season(group_id=group.id, name=name, first_day=first, last_day=last))
        elif (season.first_day, season.last_day) != (first, last):
            raise TransferError([Problem("seasons", (
                f"the group's season {season.name!r} runs {season.first_day} to "
                f"{season.last_day}, the file's {first} to {last}; rename one of them"))])
    return new


def _check_told_apart(name: str, others: list[str]) -> None:
    """Refuse the file if a new player's name looks the same as a player's of the
    group or another new one (the rule of :func:`told_apart`); else count it in."""
    for other in others:
        why = told_apart(name, other)
        if why is not None:
            raise TransferError([Problem("players", why)])
    others.append(name)


def _new_matches(plans: list[Plan], found: dict[str, Player], key_of: _Keys) -> list[NewMatch]:
    """The plans as the writer takes them, each seat a player of the group."""
    new = []
    for plan in plans:
        assert plan.replayed is not None  # set by validate()
        new.append(NewMatch(plan.sheet, plan.sheet_json,
                            [found[key_of[name]] for name in plan.names],
                            plan.first_dealer, plan.hands, plan.replayed, plan.texts,
                            plan.created_at, plan.finished_at, plan.uid, plan.rulings))
    return new


def import_document(group: GroupView, doc: Any, limits: Limits | None = None) -> ImportReport:
    """Validate and write a whole document in one transaction, or nothing at all.

    Everything is checked before the first write; the matches the group already holds
    (the same stable id, from an earlier import of this file) are skipped and counted.
    """
    plans, notes = validate(doc, limits or Limits())
    # The decoded file is let go before the write (when the caller holds no other
    # reference, as the API and the CLI do not): its many containers would otherwise
    # be walked by every full collection the write's allocations set off.
    del doc
    return write_plans(group, plans, notes)


@contextmanager
def _out_of_the_collectors_way() -> Iterator[None]:
    """Everything alive when the write starts (the file's plans above all) left out of
    the cycle collector's full passes until the write ends: the write allocates enough to
    set off several, and each would walk every plan again. On the import bench (50,005
    hands, SQLite, 2026-12-05, CPU of the write): 4.60–4.94 s with its five full
    collections taking 0.65–0.80 s, 4.41–4.45 s with the plans frozen (0.40–0.42 s).
    Nothing is kept longer: unfrozen, they are collected as before."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def write_plans(group: GroupView, plans: list[Plan], notes: GroupNotes) -> ImportReport:
    """The writing half of :func:`import_document`, for plans :func:`validate` returned:
    one transaction, committed, or rolled back on any error. Separate so that the
    import benchmark can time validation and writing apart."""
    try:
        allow_long_statements(db.session)  # many rows in one transaction, on purpose
        here = _already_here(group, plans)
        fresh = [plan for plan in plans if plan.uid not in here]
        key_of = _Keys()
        found, created = _players(group, fresh, notes, key_of)
        seasons = _seasons(group, notes)
        db.session.add_all([*created, *seasons])
        with _out_of_the_collectors_way():
            add_matches(group, _new_matches(fresh, found, key_of))
        if seasons:  # their ratings, from every match the group now holds
            db.session.flush()
            projection.reseason(db.session.connection(), group.id)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise TransferError([Problem("", "these matches or players were added at the same "
                                     "moment (the file imported twice at once?); nothing "
                                     "was imported, try again")]) from None
    except BaseException:
        db.session.rollback()
        raise
    return ImportReport(len(fresh), sum(len(p.hands) for p in fresh),
                        tuple(p.name for p in created), len(plans) - len(fresh))
