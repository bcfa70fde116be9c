"""A finished match handed to BG Stats: the play and its link, built by
:mod:`scorekeeper.core.bg_stats` from what the store already knows — the places, totals
and winners the caller has from the standings, the first player of the first hand,
the match's uid and times, each player's uid (all in the match's view: nothing is
read). The scoreboard, the match record and the JSON API all ask
:func:`bg_stats_play`, so they hand over the same play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core import bg_stats
from scorekeeper.core.scoring import Standings, next_seat
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.reading import match_sheet

__all__ = ["BgStatsPlay", "bg_stats_play"]


@dataclass(frozen=True)
class BgStatsPlay:
    """The play as BG Stats' JSON (``data``) and the link that opens its import."""

    data: dict[str, Any]
    link: str


def bg_stats_play(match: MatchView, st: Standings, places: Sequence[int] | None
                  ) -> BgStatsPlay | None:
    """The finished match for BG Stats, from its standings and places (None while it is
    being played)."""
    if not st.over or places is None:
        return None
    first = next_seat(match.first_dealer, (True,) * len(match.seats))
    seats = [bg_stats.PlayedSeat(seat.player.name, seat.player.uid, places[i],
                                 st.totals[i], i in st.winners, i == first)
             for i, seat in enumerate(match.seats)]
    data = bg_stats.play(bg_stats.PlayedMatch(match_sheet(match), match.uid, match.created_at,
                                              match.finished_at, seats))
    return BgStatsPlay(data, bg_stats.link(data))
