"""The derived rows checked the way ``scorekeeper db verify`` checks them: every
figure recomputed from the stored hands and compared with what is stored."""

from __future__ import annotations

from scorekeeper.store.extensions import db
from scorekeeper.store.projection import DERIVED_FIGURES, Difference
from scorekeeper.store.upkeep import group_ids, verify_groups


def differences(group_id: int | None = None) -> list[Difference]:
    """What verify finds in one group, or in all of them (read on connections of its
    own: whatever the test's session has not committed is not seen)."""
    groups = group_ids(db.engine) if group_id is None else [group_id]
    return verify_groups(db.engine, groups)


def assert_derived_rows_match_hands(group_id: int | None = None) -> None:
    """Every derived row of the group (or of every group) is what its hands give."""
    found = differences(group_id)
    assert not found, "\n".join(str(d) for d in found)


def stored_rows(group_id: int) -> dict[str, list[tuple]]:
    """Every derived table's stored rows for the group, as sorted plain tuples (a row
    of sums back at nothing counts as absent, as verify counts it)."""
    found = {}
    with db.engine.connect() as connection:
        for figure in DERIVED_FIGURES:
            for kept in figure.tables:
                found[kept.table] = sorted(
                    tuple((k, row[k]) for k in (*kept.key, *kept.columns))
                    for row in kept.stored(connection, group_id)
                    if not kept.sums or any(row[c] for c in kept.columns))
    return found
