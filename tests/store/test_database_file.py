"""Faults of the SQLite database file, each named once: ``scorekeeper serve`` refuses to
start with one sentence naming the file and the fault (exit 1, no traceback),
``/readyz`` names it, and a save answers a 503 saying it (never a 500), with nothing
half-saved. SQLite only: a database server has no file here (its faults are
``tests/test_faults_database.py``'s).

Real faults: a file emptied, deleted, filled with garbage, cut short; a read-only and a
full disk are a small tmpfs of the test's own (mounted as root; skipped otherwise), an
unreadable file is read by an unprivileged user (root reads any file).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.store import database_file
from scorekeeper.store.extensions import db
from tests.support.faults import app_with_group


def _app(folder: Path, monkeypatch: pytest.MonkeyPatch):
    """An app whose instance folder and SQLite file are in ``folder``, tables made,
    one group (its invite token in ``app.config["TOKEN"]``)."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder))
    url = f"sqlite:///{folder / 'scorekeeper.db'}"
    app, app.config["TOKEN"] = app_with_group(url, "file-faults")
    with app.app_context():
        db.engine.dispose()  # no connection left holding the file
    database_file.mark_created(url)
    return app


def _refusal(app) -> str:
    """What ``scorekeeper serve`` says when it will not start (it must not start)."""
    result = app.test_cli_runner().invoke(args=["serve", "--port", "0"])
    said = result.output if result.output.strip() else result.stderr
    assert result.exit_code == 1, (said, result.exception, result.exc_info)
    assert "Traceback" not in said, said
    (line,) = [line for line in said.splitlines() if line.strip()]
    assert line.startswith("Error: Scorekeeper will not start: the database file ")
    return line


def _ready(app) -> dict:
    answer = app.test_client().get("/readyz")
    return {} if answer.status_code == 200 else answer.json["failed"]


def _damage(path: Path, how: str) -> None:
    for journal in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        journal.unlink(missing_ok=True)
    if how == "empty":
        path.write_bytes(b"")
    elif how == "gone":
        path.unlink()
    elif how == "garbage":
        path.write_bytes(os.urandom(64 * 1024))
    elif how == "cut short":
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 3])


@pytest.mark.parametrize(("how", "said"), [
    ("empty", "it is empty (0 bytes), so not a database"),
    ("gone", "it is missing, though a database was created there"),
    ("garbage", "it is not an SQLite database"),
    ("cut short", "it is cut short"),
])
def test_a_damaged_or_lost_file_is_named(tmp_path, monkeypatch, how, said):
    app = _app(tmp_path, monkeypatch)
    path = tmp_path / "scorekeeper.db"
    _damage(path, how)
    line = _refusal(app)
    assert str(path) in line and said in line
    assert said in _ready(app)["database"]
    assert not path.exists() or how != "gone"  # nothing made in a lost file's place


def test_a_first_start_is_not_a_lost_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert database_file.start_fault(url) is None
    assert database_file.start_fault("postgresql+psycopg://db/x") is None


@contextlib.contextmanager
def _small_disk(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (root only), unmounted after."""
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _hand(app, number: int):
    headers = {"Authorization": f"Bearer {app.config['TOKEN']}"}
    client = app.test_client()
    if number == 1:
        started = client.post("/api/v1/matches", headers=headers, json={
            "sheet": {"game": "crazy-eights", "options": {}}, "players": ["Ann", "Bob"]})
        if started.status_code != 201:
            return started
    return client.post("/api/v1/matches/1/hands", headers=headers, json={
        "number": number, "out": 0, "held": {"1": ["5h", "6h", "7h"][number % 3]}})


def test_a_full_disk(tmp_path, monkeypatch):
    with _small_disk(tmp_path / "disk", "4m") as disk:
        folder = disk / "instance"
        folder.mkdir()
        (tmp_path / "static").mkdir()
        (folder / "static-cache").symlink_to(tmp_path / "static")  # the app's files elsewhere
        app = _app(folder, monkeypatch)
        for player in ("Ann", "Bob"):
            app.test_client().post("/api/v1/players", json={"name": player}, headers={
                "Authorization": f"Bearer {app.config['TOKEN']}"})
        filler = disk / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as out:
            while True:  # every byte of the disk taken
                out.write(b"\0" * 65536)
                out.flush()
        answer = _hand(app, 1)
        assert answer.status_code == 503, answer.text
        assert "the disk holding it is full" in answer.json["error"]["message"]
        assert "the disk holding it is full" in _ready(app)["database"]
        assert "the disk holding it is full" in _refusal(app)
        filler.unlink()
        assert _ready(app) == {}
        assert _hand(app, 1).status_code == 201  # nothing half-saved: hand 1 goes in


def test_a_read_only_disk(tmp_path, monkeypatch):
    with _small_disk(tmp_path / "disk", "4m") as disk:
        folder = disk / "instance"
        folder.mkdir()
        (tmp_path / "static").mkdir()
        (folder / "static-cache").symlink_to(tmp_path / "static")
        app = _app(folder, monkeypatch)
        # The folder mounted again over itself, read-only (root writes a read-only file).
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        try:
            _read_only(app)
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def _read_only(app) -> None:
    """What a read-only database file gives: no start, not ready, a save a 503."""
    assert "it is read-only" in _refusal(app)
    assert "it is read-only" in _ready(app)["database"]
    answer = app.test_client().post("/api/v1/players", json={"name": "Ann"}, headers={
        "Authorization": f"Bearer {app.config['TOKEN']}"})
    assert answer.status_code == 503, answer.text
    assert "read-only" in answer.json["error"]["message"]


def test_an_unreadable_file(tmp_path, monkeypatch):
    # Root reads any file, so the file is asked about by an unprivileged user, in a
    # folder every user may open (pytest's own folders are root's alone).
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("setpriv is needed to read the file as another user")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-unreadable-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        app = _app(folder, monkeypatch)
        path = folder / "scorekeeper.db"
        path.chmod(0)
        if os.geteuid() != 0:
            assert "it cannot be read (Permission denied)" in _refusal(app)
            return
        asked = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
             "-c", "import sys; from scorekeeper.store.database_file import file_fault; "
             "print(file_fault(sys.argv[1]))", app.config["SQLALCHEMY_DATABASE_URI"]],
            capture_output=True, text=True, cwd=Path(__file__).parents[2])
        assert asked.returncode == 0, asked.stderr
        assert f"the database file {path}: it cannot be read (Permission denied)" in asked.stdout
    finally:
        shutil.rmtree(folder)


def test_a_file_deleted_while_serving_is_not_made_anew(tmp_path, monkeypatch):
    app = _app(tmp_path, monkeypatch)
    path = tmp_path / "scorekeeper.db"
    _damage(path, "gone")
    answer = app.test_client().post("/api/v1/players", json={"name": "Ann"}, headers={
        "Authorization": f"Bearer {app.config['TOKEN']}"})
    assert answer.status_code == 503, answer.text
    assert "empty or missing, though a database was created" in answer.json["error"]["message"]
    assert "it is empty (0 bytes)" in _ready(app)["database"]
    assert path.stat().st_size == 0  # SQLite's new file left empty: no database in its place
