"""Scorekeeper: the table-side companion for Crazy Eights and Last One.

The web stack is imported inside :func:`create_app`, not at the top of the package, so
the pure core (``scorekeeper.cards``, ``sheets``, ``scoring``, ``deal``, ``engine``) can
be imported and used without Flask or SQLAlchemy ever being loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

_PACKAGE = Path(__file__).resolve().parent


def _asset_folder(name: str) -> str:
    """Top-level ``templates``/``static`` in a checkout; the packaged copy when installed."""
    checkout = _PACKAGE.parent / name
    return str(checkout if checkout.is_dir() else _PACKAGE / f"_{name}")


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints."""
    from flask import Flask

    from . import (  # noqa: F401  (models registers tables)
        api,
        check,
        cli,
        config,
        deal_helper,
        errors,
        groups,
        hands,
        history,
        matches,
        models,
        players,
        rules,
    )
    from .extensions import csrf, db, migrate

    app = Flask(
        __name__,
        instance_path=config.instance_path(),
        instance_relative_config=True,
        template_folder=_asset_folder("templates"),
        static_folder=_asset_folder("static"),
        static_url_path="/static",  # the folder is "_static" in an installed package
    )
    config.configure(app, test_config)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(_PACKAGE / "migrations"))
    csrf.init_app(app)
    errors.register(app)

    api.register(app)
    for blueprint in (groups.bp, players.bp, matches.bp, hands.bp, rules.bp,
                      deal_helper.bp, check.bp, history.bp):
        app.register_blueprint(blueprint)
    cli.register(app)
    return app
