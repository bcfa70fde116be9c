"""A finished match's places as the pages and the API read them: from the standings
a caller already has, replaying the hands only where the rule needs them."""

from __future__ import annotations

from scorekeeper.core.places import needs_hands, places
from scorekeeper.core.scoring import Standings
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.match_views import MatchView, match_records
from scorekeeper.store.reading import match_standings

__all__ = ["seat_places"]


def seat_places(match: MatchView, sheet: Sheet, st: Standings
                ) -> tuple[int, ...] | None:
    """Each seat's place once the match is finished (None before), from the standings
    given; a one-hand Crazy Eights match ranks by the cards held, which only its hand
    says, so that one hand is replayed (read with the match in one snapshot: an edit
    landing meanwhile cannot part the hand from the match it is replayed with)."""
    if not st.over:
        return None
    if needs_hands(sheet, len(st.totals)) and not st.hands:
        found = match_records(match.group_id, match.id)
        if found:
            st = match_standings(found[0].match, found[0].hands)
    return places(sheet, st)
