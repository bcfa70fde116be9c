"""The SQLite database file, and what can be wrong with it, named once.

A database server fails in one way the app sees (it does not answer: ``outage.py``);
a file fails in several, and each needs its own words for the person at the laptop:
the disk is full, the file (or its folder) is read-only or unreadable, it is not a
database or is damaged, or it is gone or empty where a database was. Three callers ask:

- ``scorekeeper serve`` before it starts (:func:`start_fault`, the quick checks and
  SQLite's own ``quick_check``), refusing to start with one sentence;
- ``/readyz`` (:func:`file_fault`, the quick checks only: a stat, the first bytes, the
  free space);
- a request whose statement failed (:func:`error_fault`, SQLite's error read), answered
  with a 503 naming the fault instead of a 500.

"Gone" is told from "a first start" by a marker beside the file (``….db.created``),
written once the database has been created (:func:`mark_created`): without the marker
a missing file is a new database; with it, a missing file is a lost one, and no
connection turns it into an empty database (:func:`refuse_lost`, asked on every new
connection before anything is written). An empty (0-byte) file is never a database
the app made.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

__all__ = ["LOST", "error_fault", "file_fault", "mark_created", "refuse_lost",
           "sqlite_file", "start_fault"]

LOST = "is empty or missing where a database was"  # refuse_lost's error, read back
HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
MIN_FREE = 1024 * 1024  # bytes: below this the disk is full for a database
_CANNOT_OPEN = "it cannot be opened"
# SQLite's error messages (their stable text) → the fault in our words.
_ERRORS = (
    ("database or disk is full", "the disk holding it is full"),
    ("readonly database", "it is read-only (the file or its folder cannot be written)"),
    ("malformed", "it is damaged (SQLite: database disk image is malformed)"),
    ("file is not a database", "it is not an SQLite database"),
    ("disk i/o error", "reading or writing it failed (disk I/O error: a full or "
                       "failing disk?)"),
    ("unable to open database file", _CANNOT_OPEN),
    (LOST, "it is empty or missing, though a database was created there; restore it "
           "from a backup"),
)


def sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL names, or None (a database server, an in-memory one)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".created")


def mark_created(url: str) -> None:
    """Remember that the database file exists (once it holds a database), so that a
    later start can tell a lost file from a first one."""
    path = sqlite_file(url)
    if path is not None and path.is_file() and path.stat().st_size > 0:
        _marker(path).touch()


def refuse_lost(connection: sqlite3.Connection) -> None:
    """Raise :class:`sqlite3.DatabaseError` when ``connection`` opened an empty file
    where a database was (SQLite makes a missing file anew, empty): asked before the
    first statement that would write to it."""
    for _, name, file in connection.execute("PRAGMA database_list").fetchall():
        if name != "main" or not file:
            continue
        path = Path(file)
        if _marker(path).is_file() and path.stat().st_size == 0:
            raise sqlite3.DatabaseError(f"the database file {path} {LOST}")


def _said(path: Path, fault: str) -> str:
    return f"the database file {path}: {fault}"


def _stated_size(header: bytes) -> int:
    """The file's size as its 100-byte header states it (page size × pages), 0 when
    the header does not vouch for its page count (SQLite's rule: the count is valid
    when the "version-valid-for" number equals the change counter)."""
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    return page * pages if header[24:28] == header[92:96] else 0


def _present_fault(path: Path) -> str | None:
    """What is wrong with a file that is there: empty, unreadable, not SQLite's, or
    read-only (the file or the folder SQLite writes its journal in)."""
    size = path.stat().st_size
    if size == 0:
        return ("it is empty (0 bytes), so not a database; restore it from a backup, or "
                "delete it to start a new, empty one")
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    if header[:len(HEADER)] != HEADER:
        return ("it is not an SQLite database (" + ("it is cut short" if size < len(HEADER)
                                                     else "its first bytes are not SQLite's")
                + "); restore it from a backup")
    if len(header) == 100 and size < _stated_size(header):
        return (f"it is cut short ({size} of the {_stated_size(header)} bytes its header "
                "states); restore it from a backup")
    if not os.access(path, os.W_OK):
        return "it is read-only; let the app's user write it"
    if not os.access(path.parent, os.W_OK):
        return f"its folder {path.parent} is read-only; SQLite writes its journal there"
    return None


def file_fault(url: str) -> str | None:
    """What is wrong with the database file, in one sentence naming it, or None: the
    quick checks (no database query), cheap enough for every ``/readyz``."""
    path = sqlite_file(url)
    fault = None if path is None else _fault(path)
    return None if path is None or fault is None else _said(path, fault)


def _fault(path: Path) -> str | None:
    """:func:`file_fault`'s finding, without the file's name."""
    try:
        there = path.exists()
    except OSError as exc:  # a folder on the way that this user may not open
        return f"it cannot be read ({exc.strerror or exc})"
    if not there:
        if _marker(path).is_file():
            return ("it is missing, though a database was created there; restore it from "
                    f"a backup (or delete {_marker(path)} to start a new, empty one)")
        return None
    if not path.is_file():
        return "it is not a file"
    fault = _present_fault(path)
    if fault is None and shutil.disk_usage(path.parent).free < MIN_FREE:
        fault = "the disk holding it is full"
    return fault


def start_fault(url: str) -> str | None:
    """:func:`file_fault`, then SQLite's own check of every page (``quick_check``):
    what ``serve`` asks before it starts."""
    fault = file_fault(url)
    path = sqlite_file(url)
    if fault is not None or path is None or not path.exists():
        return fault
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            verdict = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error as exc:
        return _said(path, error_fault(exc) or f"SQLite cannot read it ({exc})")
    if verdict != "ok":
        said = " ".join(str(verdict).split())
        return _said(path, f"it is damaged (SQLite: {said}); restore it from a backup")
    return None


def error_fault(exc: BaseException, url: str | None = None) -> str | None:
    """The fault of the file that SQLite's error ``exc`` names (a full disk, a
    read-only or damaged file…), or None for any other error. SQLite says only that it
    cannot open a file it may not write its journal beside: with the database's
    ``url`` the file is looked at to say why (without naming it)."""
    text = str(getattr(exc, "orig", None) or exc).lower()
    if not isinstance(getattr(exc, "orig", exc), sqlite3.Error):
        return None
    fault = next((fault for found, fault in _ERRORS if found in text), None)
    path = None if url is None else sqlite_file(url)
    if fault == _CANNOT_OPEN and path is not None:
        fault = _fault(path) or fault
    return fault
