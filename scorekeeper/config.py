"""Configuration: defaults, the instance folder, environment variables.

Order (later wins): built-in defaults, ``instance/config.py``, environment variables,
``test_config``. The secret key is generated once and kept in the instance folder, so
cookies survive restarts and no key is ever a constant in the code.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

ENV_PREFIX = "SCOREKEEPER_"


def instance_path() -> str | None:
    """The instance folder named by ``SCOREKEEPER_INSTANCE_PATH``, if any."""
    path = os.environ.get(ENV_PREFIX + "INSTANCE_PATH")
    return str(Path(path).resolve()) if path else None


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Load every configuration source into ``app.config``."""
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "scorekeeper.db"),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        MEMBERSHIP_COOKIE="scorekeeper_groups",
        MEMBERSHIP_MAX_AGE=60 * 60 * 24 * 365 * 5,
        JSON_SORT_KEYS=False,
    )
    app.config.from_pyfile("config.py", silent=True)
    env = {
        "DATABASE_URL": "SQLALCHEMY_DATABASE_URI",
        "SECRET_KEY": "SECRET_KEY",
    }
    for name, key in env.items():
        value = os.environ.get(ENV_PREFIX + name)
        if value:
            app.config[key] = value
    if test_config:
        app.config.update(test_config)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if uri.startswith("postgres://"):  # the old scheme some hosts still hand out
        app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://" + uri[len("postgres://"):]
    elif uri.startswith("postgresql://"):
        app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://" + uri[len("postgresql://"):]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _persisted_secret(Path(app.instance_path) / "secret_key")


def _persisted_secret(path: Path) -> str:
    """Read the instance's secret key, creating it (readable by the owner only) once.

    The key is written to a private temporary file and then linked into place, so
    another worker never reads a half-written (empty) key; an empty file left by a
    crash is replaced rather than used.
    """
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(secrets.token_urlsafe(48))
    try:
        os.link(tmp, path)  # atomic; fails if another worker got there first
    except FileExistsError:
        if not path.read_text().strip():  # an empty file left by a crash: replace it
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip()
