"""The deal helper page (``/deal``): how many cards with this many players?

A GET form, so it works without JavaScript and every answer is a shareable link. The
answer comes from :func:`deal.plan_deal`, the same function the scoreboard and the
API use; the answer box is the partial ``templates/deal/_answer.html``.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from scorekeeper.core.deal import DealError, DealPlan, plan_deal
from scorekeeper.core.sheets import CD, GAMES, LO, OPTIONS

bp = Blueprint("deal", __name__, url_prefix="/deal")

START = OPTIONS["start_count"].defaults[CD]
HAND_SIZES = range(OPTIONS["hand_size"].minimum or 4, (OPTIONS["hand_size"].maximum or 9) + 1)
PLAYER_CHOICES = range(2, max(g.max_players for g in GAMES.values()) + 1)


@bp.get("", strict_slashes=False)
def index():
    """The form, and the answer once a game and a player count are chosen."""
    args = request.args
    game_key = args.get("game") or LO
    answer: DealPlan | None = None
    error: DealError | None = None
    note, counts = None, []
    try:
        if game_key not in GAMES:
            raise DealError(f"There is no game called {game_key!r} here.", "game")
        if args.get("players"):
            answer, counts, note = _plan(args, game_key)
    except DealError as exc:
        error = exc
    return render_template(
        "deal/index.html", games=GAMES, game_key=game_key, args=args, answer=answer,
        error=error, note=note, counts=counts, hand_sizes=HAND_SIZES,
        player_choices=PLAYER_CHOICES, start=START,
    ), (400 if error else 200)


def _plan(args: MultiDict[str, str], game_key: str) -> tuple[DealPlan, list[int], str | None]:
    """Read the form and ask the core; :class:`DealError` says what is wrong."""
    players = _whole(args["players"], "players")
    counts = _counts(args.getlist("count"), players) if game_key == CD else []
    dealer, note = _dealer(args.get("dealer", ""), players)
    size = args.get("hand_size", "") if game_key == LO else ""
    hand_size = _whole(size, "hand_size") if size else None
    plan = plan_deal(game_key, players, hand_size=hand_size, counts=counts or None,
                     dealer=dealer)
    return plan, counts, note


def _whole(raw: str, field: str) -> int:
    text = raw.strip()
    if not text.isdigit() or len(text) > 3:
        raise DealError(f"{field.replace('_', ' ')} must be a whole number, not {raw!r}", field)
    return int(text)


def _counts(raw: list[str], players: int) -> list[int]:
    """Each seat's count. The form shows one box per seat of the table it last drew,
    so after the player count changes, missing seats start at the usual count."""
    counts = [_whole(c, "counts") for c in raw if c.strip()]
    if players > max(PLAYER_CHOICES):
        return counts
    return (counts + [START] * players)[:players]


def _dealer(raw: str, players: int) -> tuple[int, str | None]:
    """The dealing seat (0-based) from the 1-based form value, and a note if it moved."""
    seat = _whole(raw, "dealer") if raw.strip() else 1
    if seat < 1 or (seat > players and players >= 2):
        return 0, f"There is no seat {seat} at a table of {players}, so seat 1 deals."
    return seat - 1, None
