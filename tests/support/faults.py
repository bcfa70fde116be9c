"""An app of a fault test's own: its database made, with one group, outside the
``app`` fixture (whose database a fault test must not break)."""

from __future__ import annotations

from flask import Flask

from scorekeeper import create_app
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group


def app_with_group(url: str, secret: str) -> tuple[Flask, str]:
    """An app on the database at ``url`` (tables made) holding one group: (app, the
    group's invite token). The caller sets the instance folder."""
    app = create_app({"TESTING": True, "SECRET_KEY": secret, "WTF_CSRF_ENABLED": False,
                      "RATE_LIMITS": False, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
        group = Group(name="Kitchen")
        db.session.add(group)
        db.session.commit()
        return app, group.invite_token
