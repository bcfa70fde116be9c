"""The deal helper's form (a GET form: every answer is a shareable link).

Fields are read with WTForms; each number is checked by the core's words
(:func:`~scorekeeper.web.fields.whole`) and the deal itself by
:func:`~scorekeeper.core.deal.plan_deal`, whose error lands on the field it names.
"""

from __future__ import annotations

from typing import Any

from wtforms import Form, StringField

from scorekeeper.core.deal import DealError, DealPlan, plan_deal
from scorekeeper.core.errors import InputError
from scorekeeper.core.games import DEFAULT_GAME
from scorekeeper.core.sheets import GAMES, OPTIONS
from scorekeeper.web.fields import WholeListField, asks_core, whole

START = OPTIONS["start_count"].maximum  # the highest count a seat can hold
MOST_PLAYERS = max(g.max_players for g in GAMES.values())
# The deal's own field names, as the form calls them.
_FIELDS = {"counts": "count", "game": "game", "players": "players", "hand_size": "hand_size",
           "dealer": "dealer"}


def _game(key: str | None) -> str:
    if (key or DEFAULT_GAME) not in GAMES:
        raise InputError(f"There is no game called {key!r} here.", "game")
    return key or DEFAULT_GAME


def _number(field: str) -> Any:
    return asks_core(lambda text: whole(text, field) if (text or "").strip() else None)


class DealForm(Form):
    """Game, players, Last One's cards each, Countdown's counts, and the dealer."""

    game = StringField(validators=[asks_core(_game)], default=DEFAULT_GAME)
    players = StringField(validators=[_number("players")])
    hand_size = StringField(validators=[_number("hand_size")])
    count = WholeListField(validators=[asks_core(lambda c: [whole(n, "counts") for n in c])])
    dealer = StringField(validators=[_number("dealer")])

    note: str | None = None
    counts: list[int]

    def plan(self) -> DealPlan | None:
        """The deal, once a game and a player count are chosen and valid; a problem the
        core finds becomes the error of the field it names."""
        self.counts = []
        if not self.validate() or self.players.data is None:
            return None
        game, players = self.game.data, self.players.data
        info = GAMES[game]
        if info.deal == "count" and players <= MOST_PLAYERS:
            # One count box per seat of the table the form last drew: new seats start
            # at the usual count.
            usual = info.default("start_count")
            self.counts = (list(self.count.data) + [usual] * players)[:players]
        elif info.deal == "count":
            self.counts = list(self.count.data)
        dealer = self._dealer(players)
        size = self.hand_size.data if info.deal == "hand_size" else None
        try:
            return plan_deal(game, players, hand_size=size,
                             counts=self.counts or None, dealer=dealer)
        except DealError as exc:
            field = self[_FIELDS.get(exc.field or "", "players")]
            field.errors = [*field.errors, exc.message]
            return None

    def _dealer(self, players: int) -> int:
        """The dealing seat (0-based) from the 1-based value; a note if it moved."""
        seat = self.dealer.data or 1
        if seat < 1 or (seat > players and players >= 2):
            self.note = f"There is no seat {seat} at a table of {players}, so seat 1 deals."
            return 0
        return seat - 1
