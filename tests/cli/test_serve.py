"""The command line: ``scorekeeper serve`` as a real process, and the installable wheel."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.support.serve import SCOREKEEPER, STARTED, Served, free_port, serve_env

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MIGRATIONS = ROOT / "scorekeeper" / "store" / "migrations" / "versions"


def _head_revision() -> str:
    """The newest migration, as Alembic itself reads the versions folder."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS.parent)).get_current_head()


def test_cli_help_lists_serve(tmp_path):
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(tmp_path)}
    result = subprocess.run([str(SCOREKEEPER), "--help"], capture_output=True, text=True,
                            timeout=STARTED, env=env)
    assert result.returncode == 0, result.stderr
    assert "serve" in result.stdout and "db" in result.stdout


def test_serve_upgrades_the_database_and_answers(tmp_path):
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    port = free_port()
    instance = tmp_path / "instance"
    served = Served(["--host", "127.0.0.1", "--port", str(port)], serve_env(instance), tmp_path)
    try:
        url = served.wait_for(r"Open (http://\S+/) ").group(1)
        assert url == f"http://127.0.0.1:{port}/", served.printed
        # The loopback is no address for a phone: the line says where it opens.
        assert "in a browser on this computer" in served.printed
        assert "phone" not in served.printed

        with urllib.request.urlopen(url + "api/v1/openapi.json", timeout=30) as response:
            assert response.status == 200
            assert b'"openapi"' in response.read()

        database = instance / "scorekeeper.db"
        assert database.exists()
        with sqlite3.connect(database) as conn:
            version = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type = 'table'")}
        assert version == _head_revision()
        assert {"group", "player", "match", "hand", "hand_entry"} <= tables
        assert (instance / "secret_key").exists()
    finally:
        served.stop()


def test_wheel_carries_templates_static_and_migrations(tmp_path):
    # Build from a copy: building in the shared checkout would leave build/ behind.
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for folder in ("scorekeeper", "templates", "static"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    result = subprocess.run(
        [str(BIN / "pip"), "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=2 * STARTED,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "dist").glob("scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "scorekeeper/_templates/base.html" in names
    assert "scorekeeper/_templates/error.html" in names
    assert "scorekeeper/_static/style.css" in names
    assert "scorekeeper/store/migrations/env.py" in names
    assert "scorekeeper/store/migrations/alembic.ini" in names
    assert "scorekeeper/store/migrations/script.py.mako" in names
    for migration in MIGRATIONS.glob("*.py"):
        assert f"scorekeeper/store/migrations/versions/{migration.name}" in names
    templates = {p.relative_to(ROOT / "templates").as_posix()
                 for p in (ROOT / "templates").rglob("*.html")}
    assert {f"scorekeeper/_templates/{t}" for t in templates} <= names
    assert not any(n.startswith("tests/") for n in names)
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "scorekeeper").rglob("*.py")}
    assert modules <= names, sorted(modules - names)

    # Installed (not a checkout): pages, static files and migrations all work.
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = (
        "import os, sys\n"
        "from scorekeeper import create_app\n"
        "from flask_migrate import upgrade\n"
        "app = create_app()\n"
        "assert 'site' in app.template_folder, app.template_folder\n"
        "with app.app_context():\n"
        "    upgrade()\n"
        "client = app.test_client()\n"
        "for url in ('/', '/rules/last-one', '/static/style.css', '/static/app.js',\n"
        "            '/api/v1/openapi.json'):\n"
        "    status = client.get(url).status_code\n"
        "    assert status == 200, (url, status)\n"
        "import re\n"
        "css = re.search(r'/static/style\\.[0-9a-f]{12}\\.css', client.get('/').text).group()\n"
        "assert 'immutable' in client.get(css).headers['Cache-Control'], css\n"
        "print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target),
           "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance")}
    ran = subprocess.run([str(BIN / "python"), "-c", probe], capture_output=True, text=True,
                         timeout=STARTED, env=env, cwd=tmp_path)
    assert ran.stdout.strip() == "ok", ran.stderr
