"""The deal helper page (``/deal``): how many cards with this many players?

A GET form, so it works without JavaScript and every answer is a shareable link. The
answer comes from :func:`deal.plan_deal`, the same function the scoreboard and the
API use; the answer box is the partial ``templates/deal/_answer.html``.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorekeeper.core.games import DEFAULT_GAME
from scorekeeper.core.sheets import GAMES, OPTIONS
from scorekeeper.web.deal.forms import START, DealForm

bp = Blueprint("deal", __name__, url_prefix="/deal")

HAND_SIZE = OPTIONS["hand_size"]
HAND_SIZES = range(HAND_SIZE.minimum or 1, (HAND_SIZE.maximum or 1) + 1)


@bp.get("", strict_slashes=False)
def index():
    """The form, and the answer once a game and a player count are chosen."""
    form = DealForm(request.args)
    answer = form.plan()
    game_key = form.game.data if form.game.data in GAMES else DEFAULT_GAME
    game = GAMES[game_key]  # only the table sizes the game is played at are offered
    return render_template(
        "deal/index.html", games=GAMES, game=game, game_key=game_key, args=request.args,
        answer=answer, form=form, note=form.note, counts=form.counts, hand_sizes=HAND_SIZES,
        player_choices=range(game.min_players, game.max_players + 1), start=START,
        nine=HAND_SIZE.maximum,
    ), (400 if form.errors else 200)
