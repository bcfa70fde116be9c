"""Alembic environment for Flask-Migrate: runs migrations on the app's own engine.

Rendered in batch mode (set on the Migrate extension) so ALTERs work on SQLite too.
Online runs hold the database's upgrade lock (``scorekeeper/store/upgrade_lock.py``),
so hosts starting together migrate one after another instead of racing.
"""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

from scorekeeper.store.upgrade_lock import upgrade_lock

if context.config.config_file_name:
    fileConfig(context.config.config_file_name, disable_existing_loggers=False)
log = logging.getLogger("alembic.env")

migrate_ext = current_app.extensions["migrate"]
metadata = migrate_ext.db.metadata


def _skip_empty(context_, revision, directives) -> None:
    """Don't write an empty revision when autogenerate finds no change."""
    if getattr(context_.config.cmd_opts, "autogenerate", False):
        script = directives[0]
        if script.upgrade_ops.is_empty():
            directives[:] = []
            log.info("No changes in schema detected.")


def run_offline() -> None:
    url = migrate_ext.db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    options = dict(migrate_ext.configure_args)
    options.setdefault("process_revision_directives", _skip_empty)
    with migrate_ext.db.engine.connect() as connection, upgrade_lock(connection):
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # batch mode copies and drops tables that others point at
            _foreign_keys(connection, "OFF")
        context.configure(connection=connection, target_metadata=metadata, **options)
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            _foreign_keys(connection, "ON")


def _foreign_keys(connection, state: str) -> None:
    """Switch SQLite's foreign keys (the app turns them on for every connection).

    A batch ALTER rebuilds a table by copying it and dropping the old one; with foreign
    keys on, dropping a table that seats and hands point at would fail or cascade. The
    pragma only works outside a transaction, so it is committed on its own.
    """
    connection.exec_driver_sql(f"PRAGMA foreign_keys={state}")
    connection.commit()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
