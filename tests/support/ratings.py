"""Helpers for the ratings' tests: dated export documents and the stored rows read back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.core.ratings import order_key
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.models import Group, Rating, RatingStep
from scorekeeper.store.transfer import FORMAT, VERSION, load_matches

ONE_HAND = {"match_end": "one-hand"}
# What the seats who did not go out hold in :func:`one_hand`: 10, 9, 3 and 4 points.
HELD = ("KH", "9C", "3D", "4S", "5H", "6C")

Spec = tuple[str, dict[str, Any], Sequence[str], Sequence[tuple[int | None, list[str]]],
             str | None]


def one_hand(seats: Sequence[str], out: int, finished_at: str | None) -> Spec:
    """A one-hand Crazy Eights match that seat ``out`` won, finished at that time."""
    held = ["" if seat == out else HELD[seat] for seat in range(len(seats))]
    return ("crazy-eights", ONE_HAND, seats, [(out, held)], finished_at)


def dated(specs: Sequence[Spec]) -> dict[str, Any]:
    """An export document of these matches (game, options, seats, hands as (out,
    held), finish time), in this order."""
    matches = []
    for game, options, seats, hands, finished_at in specs:
        match = {"sheet": Sheet.make(game, options).to_dict(), "seats": list(seats),
                 "first_dealer": 0, "hands": [{"out": out, "held": held}
                                              for out, held in hands]}
        if finished_at is not None:
            match["finished_at"] = finished_at
        matches.append(match)
    return {"format": FORMAT, "version": VERSION, "matches": matches}


def finished_in_order(group: Group, game: str) -> list[MatchView]:
    """The group's finished matches of a game, in the order they finished."""
    found = [record.match for record in load_matches(group)
             if record.match.status == "finished" and record.match.game == game]
    return sorted(found, key=lambda m: order_key(m.finished_at, m.id))


def rows_of(group: Group, scope: str) -> dict[tuple[int, int], Any]:
    """The group's stored rating steps in a scope as plain rows, by (match, player)."""
    S = RatingStep
    steps = db.session.execute(db.select(
        S.match_id, S.player_id, S.place, S.mu, S.sigma, S.shown, S.change, S.finished_at)
        .where(S.group_id == group.id, S.scope == scope))
    return {(s.match_id, s.player_id): s for s in steps}


def rated_rows(group: Group, game: str, scope: str) -> dict[int, tuple[float, float]]:
    """The group's stored ratings (μ, σ) of a game in a scope, by player."""
    rows = db.session.execute(db.select(Rating.player_id, Rating.mu, Rating.sigma).where(
        Rating.group_id == group.id, Rating.game == game, Rating.scope == scope))
    return {player: (mu, sigma) for player, mu, sigma in rows}
