"""A finished match handed to BG Stats: the play and its link, built by
:mod:`scorekeeper.core.bg_stats` from what the store already knows — the places, totals
and winners the caller has from the standings, the first player of the first hand,
the match's uid and times, each player's uid. The scoreboard, the match record and the
JSON API all ask :func:`bg_stats_play`, so they hand over the same play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.core import bg_stats
from scorekeeper.core.scoring import Standings, next_seat
from scorekeeper.store.boards import MatchView
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Match, Player, Seat
from scorekeeper.store.records import match_sheet

__all__ = ["BgStatsPlay", "bg_stats_play"]


@dataclass(frozen=True)
class BgStatsPlay:
    """The play as BG Stats' JSON (``data``) and the link that opens its import."""

    data: dict[str, Any]
    link: str


def _stored(match: MatchView) -> tuple[str, datetime, dict[int, str]]:
    """The match's uid and start and its players' uids: one plain query."""
    m, s, p = Match.__table__, Seat.__table__, Player.__table__
    rows = db.session.connection().execute(
        select(m.c.uid, m.c.created_at, p.c.id, p.c.uid).join(s, s.c.match_id == m.c.id)
        .join(p, p.c.id == s.c.player_id).where(m.c.id == match.id)).all()
    return rows[0][0], rows[0][1], {player_id: uid for *_, player_id, uid in rows}


def bg_stats_play(match: MatchView, st: Standings, places: Sequence[int] | None,
                  loaded: Match | None = None) -> BgStatsPlay | None:
    """The finished match for BG Stats, from its standings and places (None while it is
    being played). What the view does not carry (the match's uid and start, its
    players' uids) comes from ``loaded``, the match's model when the caller has it with
    its seats and players, else from one plain query."""
    if not st.over or places is None:
        return None
    if loaded is None:
        uid, started, uids = _stored(match)
    else:
        uid, started = loaded.uid, loaded.created_at
        uids = {seat.player.id: seat.player.uid for seat in loaded.seats}
    first = next_seat(match.first_dealer, (True,) * len(match.seats))
    seats = [bg_stats.PlayedSeat(seat.player.name, uids[seat.player.id], places[i],
                                 st.totals[i], i in st.winners, i == first)
             for i, seat in enumerate(match.seats)]
    data = bg_stats.play(bg_stats.PlayedMatch(match_sheet(match), uid, started,
                                              match.finished_at, seats))
    return BgStatsPlay(data, bg_stats.link(data))
