"""The secret key every host shares, proved by a fingerprint kept in the database.

The secret key signs cookies and CSRF tokens: hosts that do not share it fail every
form posted to another host and forget the groups a phone joined on another. So the
first host to start stores a fingerprint of its key, and every host compares its own
with it as it starts (``scorekeeper/secret_key.py`` does the app's part).

The fingerprint is an HMAC-SHA256 of a fixed text under the key: it tells keys apart
and reveals nothing of the key. The table holds one row at most (its id is fixed at 1,
a check constraint says so), so hosts starting at once settle the first start in the
database: each inserts with "on conflict do nothing", exactly one insert lands, and
every host then reads the one fingerprint that did.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, DateTime, String, inspect, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.store.extensions import Model, db
from scorekeeper.store.models import utcnow

FINGERPRINT_TEXT = b"scorekeeper: the secret key every host of this database shares"
ROW = 1
Verdict = Literal["stored", "same", "differs", "no table"]


class SecretKeyFingerprint(Model):
    """The fingerprint of the secret key the hosts share (one row)."""

    __tablename__ = "secret_key_fingerprint"
    __table_args__ = (CheckConstraint(f"id = {ROW}", name="one_row"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    fingerprint: Mapped[str] = mapped_column(String(64))
    stored_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def fingerprint(key: str | bytes) -> str:
    """The key's fingerprint: HMAC-SHA256 of :data:`FINGERPRINT_TEXT`, in hex.

    >>> fingerprint("k") == fingerprint(b"k") != fingerprint("other")
    True
    """
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, FINGERPRINT_TEXT, hashlib.sha256).hexdigest()


def settle(key: str | bytes) -> Verdict:
    """Compare ``key`` with the stored fingerprint, storing it first if none is.

    ``"stored"``: this was the first start; ``"same"`` or ``"differs"``: another host
    (or an earlier start) stored one; ``"no table"``: the database is not upgraded yet.
    A database that does not answer raises SQLAlchemy's error.
    """
    engine = db.engine
    with engine.connect() as connection:
        if not inspect(connection).has_table(SecretKeyFingerprint.__tablename__):
            return "no table"
    mine = fingerprint(key)
    values = {"id": ROW, "fingerprint": mine, "stored_at": utcnow()}
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    insert = (dialect.insert(SecretKeyFingerprint).values(values).on_conflict_do_nothing()
              .returning(SecretKeyFingerprint.id))
    with engine.begin() as connection:
        landed = connection.execute(insert).first() is not None
        stored = connection.execute(select(SecretKeyFingerprint.fingerprint)).scalar_one()
    if landed:
        return "stored"
    return "same" if hmac.compare_digest(stored, mine) else "differs"


def adopt(key: str | bytes) -> None:
    """Make ``key`` the shared one: its fingerprint replaces the stored one (a rotation
    on purpose; hosts still holding the old key then refuse, as they should)."""
    session = db.session
    row = session.get(SecretKeyFingerprint, ROW)
    if row is None:
        row = SecretKeyFingerprint(id=ROW)
        session.add(row)
    row.fingerprint, row.stored_at = fingerprint(key), utcnow()
    session.commit()
