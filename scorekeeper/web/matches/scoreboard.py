"""What the scoreboard shows: the standings from the match's running state and its most
recent hands, so the page costs the same at hand 500 as at hand 5 (the match record
shows every hand)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.core.deal import DealError, DealPlan, plan_for_sheet
from scorekeeper.core.scoring import Standings
from scorekeeper.core.sheets import CD, Sheet
from scorekeeper.store.groups import recent_hands
from scorekeeper.store.models import Match, Player
from scorekeeper.store.records import current_standings, match_sheet

RECENT = 10  # hands on the scoreboard: what a player at the table needs at a glance


@dataclass(frozen=True)
class Row:
    """One seat on the scoreboard."""

    seat: int
    player: Player
    total: int
    bar: int  # percent of the way to the threshold / target / zero
    to_go: str  # words under the bar, e.g. "130 to go"
    eliminated_in: int | None
    winner: bool
    deals_next: bool
    plays_first: bool
    cards_next: int | None


def _bar(sheet: Sheet, st: Standings, total: int) -> tuple[int, str]:
    if sheet.game == CD:
        start = sheet["start_count"]
        done = start - total
        return round(100 * done / start), f"{total} to go"
    if not st.goal:
        return 0, ""
    pct = min(100, round(100 * total / st.goal))
    left = st.goal - total
    word = "until out" if st.goal_kind == "threshold" else "to win"
    return pct, (f"{left} {word}" if left > 0 else "reached")


def _plan(sheet: Sheet, st: Standings, players: list[Player]) -> DealPlan | None:
    """The next deal from the deal helper (None when the match is over)."""
    if st.over or st.next_dealer is None:
        return None
    seats = [s for s in range(len(players)) if st.in_play[s]]
    counts = [st.totals[s] for s in seats] if sheet.game == CD else None
    try:
        return plan_for_sheet(sheet, [players[s].name for s in seats], counts=counts,
                              dealer=seats.index(st.next_dealer))
    except DealError:
        return None


def board(match: Match) -> dict[str, Any]:
    """Template context of the scoreboard: sheet, standings, one row per seat, the deal,
    and the last :data:`RECENT` hands with each seat's points (``earlier``: how many
    hands are left out)."""
    sheet = match_sheet(match)
    st = current_standings(match)
    players = [seat.player for seat in match.seats]
    rows = []
    for seat, player in enumerate(players):
        bar, to_go = _bar(sheet, st, st.totals[seat])
        rows.append(Row(seat, player, st.totals[seat], bar, to_go, st.eliminated.get(seat),
                        seat in st.winners, seat == st.next_dealer, seat == st.next_first,
                        st.next_deal.get(seat)))
    return {
        "match": match, "sheet": sheet, "standings": st, "rows": rows, "players": players,
        "plan": _plan(sheet, st, players),
        "winner_names": " and ".join(players[s].name for s in st.winners),
        "next_number": match.hand_count + 1,
        "hands": recent_hands(match, RECENT) if match.hand_count else [],
        "earlier": max(0, match.hand_count - RECENT),
    }


def hand_news(match: Match, number: int) -> str:
    """What hand ``number`` changed, in words, for the message after saving it."""
    st = current_standings(match)
    names = [seat.player.name for seat in match.seats]
    words = [f"Hand {number} saved."]
    fallen = [names[s] for s, n in st.eliminated.items() if n == number]
    if fallen:
        words.append(f"{' and '.join(fallen)} {'is' if len(fallen) == 1 else 'are'} out.")
    if st.over:
        words.append(f"{' and '.join(names[s] for s in st.winners)} won! {st.reason}.")
    elif st.next_dealer is not None:
        words.append(f"{names[st.next_dealer]} deals hand {st.played + 1}.")
    return " ".join(words)
