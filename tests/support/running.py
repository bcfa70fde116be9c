"""The running state's oracle: what a full replay of a match's stored hands gives,
compared with what the records keep (``match.running_json``, the seat figures)."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.scoring import Standings
from scorekeeper.store import running
from scorekeeper.store.extensions import db
from scorekeeper.store.figures import figures_of, rows_before_save
from scorekeeper.store.models import Group, Match, SeatFigures
from scorekeeper.store.records import current_standings, match_standings, running_state
from scorekeeper.store.transfer import load_matches


def replayed(match: Match) -> running.Running:
    """The state from scratch: every stored hand replayed, figures from every hand."""
    table = match_standings(match)
    return running.of_replay(table, figures_of(match, table), [h.out_seat for h in match.hands])


def assert_state_is_a_replay(group: Group) -> int:
    """Compare every match of the group as freshly read from the database."""
    db.session.expire_all()
    matches = load_matches(group)
    for match in matches:
        assert match.running_json is not None, match.id
        expected = replayed(match)
        assert running.from_text(match.running_json) == expected, match.id
        rows = db.session.scalars(db.select(SeatFigures).where(SeatFigures.match_id == match.id)
                                  .order_by(SeatFigures.seat)).all()
        assert [(r.hands, r.points, r.fell, r.deficit, r.deficit_hand) for r in rows] == [
            (f.hands, f.points, f.fell, f.deficit, f.deficit_hand) for f in expected.figures]
        assert current_standings(match) == without_history(match_standings(match))
        if match.status != "finished":  # a save takes the rows it replaces from the state
            stored = {r.seat: {c.key: getattr(r, c.key) for c in SeatFigures.__table__.c
                               if c.key != "id"} for r in rows}
            assert rows_before_save(match, running_state(match).figures) == stored, match.id
    return len(matches)


def without_history(table: Standings) -> Standings:
    """Full standings as :func:`standings_at` gives them: no per-hand history."""
    return replace(table, progress=(), hands=(), dealers=())
