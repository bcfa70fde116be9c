"""Scorekeeper: the table-side companion for Crazy Eights and Last One.

The package is built in layers, each a folder, imports pointing one way::

    core   pure rules: cards, sheets, scoring, deal, engine (standard library only)
    store  the database: models, the one writer (records), queries, export/import
    web    the pages, a package per user task;     } never import each other
           the error pages and security headers    }
    api    the JSON API, a module per resource     }
    cli    the ``scorekeeper`` command: serve, db, export/import, check-names

This module only wires them together.

The web stack is imported inside :func:`create_app`, not at the top of the package, so
``scorekeeper.core`` can be imported and used without Flask or SQLAlchemy being loaded.
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

    from scorekeeper import api, cli, config, health, secret_key, web
    from scorekeeper.api.common import api_error
    from scorekeeper.extensions import csrf, init_limiter
    from scorekeeper.store import keys, models, versions  # noqa: F401  (models: the tables)
    from scorekeeper.store.extensions import db, migrate
    from scorekeeper.web import assets, error_pages, security
    from scorekeeper.web.matches import live

    app = Flask(
        __name__,
        instance_path=config.instance_path(),
        instance_relative_config=True,
        template_folder=_asset_folder("templates"),
        static_folder=_asset_folder("static"),
        static_url_path="/static",  # the folder is "_static" in an installed package
    )
    config.configure(app, test_config)
    live.answer_unchanged_polls(app)  # innermost: behind ProxyFix, before Flask's request
    security.register(app)  # before CSRF reads a form: the body limit comes first
    init_limiter(app)

    db.init_app(app)
    versions.init_app(app)  # the live polls' own engine on a database server
    migrate.init_app(app, db, directory=str(_PACKAGE / "store" / "migrations"))
    csrf.init_app(app)
    error_pages.register(app, json_prefix=api.ERROR_PREFIX, json_error=api_error)

    api.register(app)
    web.register(app)
    assets.register(app)  # fingerprinted, cached static files; compressed responses
    cli.register(app)
    health.register(app)  # outermost: answered before proxies and hosts are looked at
    secret_key.check_at_start(app)  # a host whose key differs from the others' stops here
    return app


def main() -> None:
    """The ``scorekeeper`` command: Flask's command line bound to :func:`create_app`, so
    the app's own commands (``serve``, ``export``…) and Flask's (``db upgrade``…) work."""
    from flask.cli import FlaskGroup

    FlaskGroup(name="scorekeeper", create_app=create_app,
               help="Scorekeeper for Crazy Eights and Last One.")()
