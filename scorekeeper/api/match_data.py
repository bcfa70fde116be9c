"""A match as the JSON API shows it: seats, frozen sheet, hands and derived standings,
once finished its play for BG Stats; and the short answer to a recorded hand: that
hand and the standings after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import url_for
from werkzeug.routing import BuildError

from scorekeeper.api.leaderboard import seat_ratings
from scorekeeper.core.scoring import Standings
from scorekeeper.store.bg_stats import bg_stats_play
from scorekeeper.store.match_views import HandView, MatchView, match_hands
from scorekeeper.store.places import seat_places
from scorekeeper.store.reading import current_standings, match_sheet


def _view_path(match: MatchView) -> str | None:
    """The spectators' page, once the pages publish it."""
    try:
        return url_for("matches.view", token=match.view_token)
    except BuildError:
        return None


def standings_json(table: Standings) -> dict[str, Any]:
    """Standings as plain JSON (object keys are seat indexes as text)."""
    return {
        "totals": list(table.totals),
        "eliminated": {str(s): h for s, h in table.eliminated.items()},
        "winners": list(table.winners),
        "over": table.over,
        "reason": table.reason,
        "next_dealer": table.next_dealer,
        "next_first": table.next_first,
        "next_deal": {str(s): n for s, n in table.next_deal.items()},
        "next_hand": None if table.over else table.played + 1,
        "goal": table.goal,
        "goal_kind": table.goal_kind,
    }


def _hand_json(hand: HandView, seats: int) -> dict[str, Any]:
    """A stored hand as the API shows it, read off its view: each seat's cards as stored
    (canonical text) and points, "" and 0 for a seat without an entry."""
    cards, points = [""] * seats, [0] * seats
    for entry in hand.entries:
        cards[entry.seat], points[entry.seat] = entry.cards, entry.points
    return {"number": hand.number, "dealer": hand.dealer, "out": hand.out_seat,
            "blocked": hand.out_seat is None, "hand_size": hand.hand_size,
            "cards": cards, "points": points}


def recorded_json(match: MatchView, hand: HandView) -> dict[str, Any]:
    """The answer to a recorded hand: the match's id, status and version, the new hand
    and the standings after it. Not every hand: the answer stays the same size however
    long the match is (``GET /matches/{id}`` has them all)."""
    return {"id": match.id, "status": match.status, "version": match.version,
            "hand": stored_hand_json(match, hand),
            "standings": standings_json(current_standings(match))}


def stored_hand_json(match: MatchView, hand: HandView) -> dict[str, Any]:
    """One stored hand as :func:`match_json` lists it (the hand a new one looks like)."""
    return _hand_json(hand, len(match.seats))


def _bg_stats(match: MatchView, table: Standings) -> dict[str, Any] | None:
    """A finished match's play for BG Stats and the link that opens its import."""
    play = bg_stats_play(match, table, seat_places(match, match_sheet(match), table))
    return None if play is None else {"play": play.data, "link": play.link}


def match_json(match: MatchView, stored: Sequence[HandView] | None = None) -> dict[str, Any]:
    """A match as the API shows it with every hand: ``stored`` if the caller has them
    (an edit or a delete just wrote them), else read here."""
    stored = match_hands(match) if stored is None else stored
    table = current_standings(match)
    hands = [_hand_json(hand, len(match.seats)) for hand in stored]
    return {
        "id": match.id,
        "game": match.game,
        "sheet": match_sheet(match).to_dict(),
        "status": match.status,
        "version": match.version,
        "first_dealer": match.first_dealer,
        "seats": [{"seat": s.position, "player_id": s.player.id, "name": s.player.name,
                   "colour": s.player.colour} for s in match.seats],
        "hands": hands,
        "standings": standings_json(table),
        "view_path": _view_path(match),
        "ratings": seat_ratings(match.id) if match.status == "finished" else None,
        "bg_stats": _bg_stats(match, table),
    }
