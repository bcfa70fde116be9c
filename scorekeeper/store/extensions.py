"""The database extensions (SQLAlchemy, Migrate), created unbound and initialised by
:func:`scorekeeper.create_app`. CSRF and the rate limiter are the app's, in
``scorekeeper/extensions.py``."""

import sqlite3
from typing import TYPE_CHECKING, Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

from scorekeeper.store.database_file import refuse_lost

# A naming convention gives every constraint a stable name, so migrations written on
# SQLite (batch mode) run unchanged on PostgreSQL.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base for every model."""

    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)

# The class models derive from. At run time it is db.Model (Base plus Flask-SQLAlchemy's
# table naming and session binding); a type checker cannot see through that attribute,
# so it is told the truth it needs: a model is a Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate(render_as_batch=True)


# SQLite, every connection: write-ahead logging with synchronous=NORMAL (a commit is one
# append to the log, and a committed hand survives an application crash; only a power
# loss can take back the last commits), and writers wait up to 5 s for the lock instead
# of failing with "database is locked"; foreign keys are enforced (SQLite leaves them
# off unless asked), so a seat can never point at a deleted player. PostgreSQL
# connections are left alone.
SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=5000",
                  "foreign_keys=ON")


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    if isinstance(connection, sqlite3.Connection):
        refuse_lost(connection)  # never an empty database where one was (database_file.py)
        cursor = connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()
