"""What the scoreboard shows: the standings from the match's running state and its most
recent hands, so the page costs the same at hand 500 as at hand 5 (the match record
shows every hand).

The page is shown after every save, so the hands table is worked out here, each cell's
classes and contents at once, and the template only prints it (deciding forty cells
in the template was the bulk of the page's rendering). A finished match's seats carry
their places (:func:`~scorekeeper.store.places.seat_places`, from the core's rule),
and the match its play for BG Stats. Shared by the rooms that show
the board (matches, and hands after a save), so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from scorekeeper.core.deal import DealError, DealPlan, plan_for_sheet
from scorekeeper.core.scoring import Standings
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.bg_stats import bg_stats_play
from scorekeeper.store.groups import recent_hands
from scorekeeper.store.match_views import MatchView, PlayerView
from scorekeeper.store.places import seat_places
from scorekeeper.store.projection.running_state import KEPT, Recent
from scorekeeper.store.reading import (
    current_standings,
    match_sheet,
    running_state_of,
)
from scorekeeper.web.links import url_pattern

RECENT = KEPT  # hands on the scoreboard: what a player at the table needs at a glance


@dataclass(frozen=True)
class Row:
    """One seat on the scoreboard."""

    seat: int
    player: PlayerView
    total: int
    bar: int  # percent of the way to the threshold / target / zero
    to_go: str  # words under the bar, e.g. "130 to go"
    eliminated_in: int | None
    winner: bool
    deals_next: bool
    plays_first: bool
    cards_next: int | None
    place: int | None = None  # 1 = first, once the match is finished

    @property
    def bar_width(self) -> int:
        """The bar's drawn width: at least a sliver, so a bar at zero still shows colour."""
        return max(self.bar, 1)


@dataclass(frozen=True)
class HandLine:
    """One hand in the scoreboard's table: its number, the link to edit it, "blocked" or
    "jammed" when nobody went out (else empty), and its seats' cells, one ``<td>`` each
    (see :func:`_cells`)."""

    number: int
    edit_url: str
    stuck: str
    cells: Markup


# A cell's classes by (went out, dealt, gone): "num went-out dealt gone" in that order.
_CLASSES = {(out, dealt, gone): "num" + " went-out" * out + " dealt" * dealt + " gone" * gone
            for out in (False, True) for dealt in (False, True) for gone in (False, True)}
# What a cell can hold besides points; the hidden words are for screen readers.
GONE = '–<span class="visually-hidden"> out of the match</span>'
NO_CHANGE = '<span class="muted">·<span class="visually-hidden"> no change</span></span>'
COUNT_DOWN = "−1"
WENT_OUT = '<span class="mark" title="went out">★</span>'


def _cells(countdown: bool, eliminated: Mapping[int, int], hand: Recent) -> Markup:
    """A hand's cells: a seat already out before this hand shows a dash; in Countdown
    the player who went out counts one down and the others stay; else the seat's
    points. A star marks who went out; the dealer's cell is marked for the stylesheet."""
    number, out, dealer = hand.number, hand.out_seat, hand.dealer
    tds = []
    for seat, points in enumerate(hand.points):
        out_in = eliminated.get(seat)
        gone = out_in is not None and out_in < number
        went_out = out == seat
        if gone:
            body = GONE
        elif countdown:
            body = COUNT_DOWN if went_out else NO_CHANGE
        else:
            body = str(int(points))
        if went_out:
            body += WENT_OUT
        tds.append(f'<td class="{_CLASSES[went_out, dealer == seat, gone]}">{body}</td>')
    return Markup("".join(tds))


def _hand_rows(match: MatchView, sheet: Sheet, st: Standings) -> list[HandLine]:
    """The last :data:`RECENT` hands as table rows, oldest first: kept in the match's
    running state (read from the hands for a state stored before it kept them)."""
    if not match.hand_count:
        return []
    recent = running_state_of(match).recent
    if recent is None:
        recent = tuple(recent_hands(match, RECENT))
    info = sheet.game_info
    countdown, stuck = info.scoring == "count", info.stuck_word
    edit = url_pattern("hands.edit", "group_id", "match_id", "number")
    group_id, match_id = match.group_id, match.id
    return [HandLine(hand.number,
                     edit.format(group_id=group_id, match_id=match_id, number=hand.number),
                     "" if hand.out_seat is not None else stuck,
                     _cells(countdown, st.eliminated, hand))
            for hand in recent]


def _bar(sheet: Sheet, st: Standings, total: int) -> tuple[int, str]:
    if sheet.game_info.scoring == "count":
        start = sheet["start_count"]
        done = start - total
        return round(100 * done / start), f"{total} to go"
    if not st.goal:
        return 0, ""
    pct = min(100, round(100 * total / st.goal))
    left = st.goal - total
    word = "until out" if st.goal_kind == "threshold" else "to win"
    return pct, (f"{left} {word}" if left > 0 else "reached")


def _plan(sheet: Sheet, st: Standings, players: Sequence[PlayerView]
          ) -> DealPlan | None:
    """The next deal from the deal helper (None when the match is over)."""
    if st.over or st.next_dealer is None:
        return None
    seats = [s for s in range(len(players)) if st.in_play[s]]
    counts = [st.totals[s] for s in seats] if sheet.game_info.deal == "count" else None
    try:
        return plan_for_sheet(sheet, [players[s].name for s in seats], counts=counts,
                              dealer=seats.index(st.next_dealer))
    except DealError:
        return None


def board(match: MatchView) -> dict[str, Any]:
    """Template context of the scoreboard: sheet, standings, one row per seat (``rows``
    in seat order; ``ranked`` by place once the match is finished), the deal, and the
    last :data:`RECENT` hands as :class:`HandLine` (``earlier``: how many hands are
    left out), and once finished its play for BG Stats (``bg_stats``)."""
    sheet = match_sheet(match)
    st = current_standings(match)
    players = [seat.player for seat in match.seats]
    ranks = seat_places(match, sheet, st)
    rows = []
    for seat, player in enumerate(players):
        bar, to_go = _bar(sheet, st, st.totals[seat])
        rows.append(Row(seat, player, st.totals[seat], bar, to_go, st.eliminated.get(seat),
                        seat in st.winners, seat == st.next_dealer, seat == st.next_first,
                        st.next_deal.get(seat), None if ranks is None else ranks[seat]))
    ranked = rows if ranks is None else sorted(rows, key=lambda row: (row.place, row.seat))
    return {
        "match": match, "sheet": sheet, "standings": st, "rows": rows, "ranked": ranked,
        "players": players,
        "plan": _plan(sheet, st, players),
        "winner_names": " and ".join(players[s].name for s in st.winners),
        "next_number": match.hand_count + 1,
        "hands": _hand_rows(match, sheet, st),
        "earlier": max(0, match.hand_count - RECENT),
        "bg_stats": bg_stats_play(match, st, ranks),
        "rematch_question": rematch_question(match),
    }


def rematch_question(match: MatchView) -> str:
    """What Rematch asks before it starts a match: the board's dialog and the page
    without script say the same."""
    dealer = match.seats[(match.first_dealer + 1) % len(match.seats)].player.name
    return f"Start a rematch? Same players and rules; {dealer} deals first."


def hand_news(match: MatchView, number: int) -> str:
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
