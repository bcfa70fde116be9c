"""Judging never changes the game: over seeded random games, ``check`` (and
``is_legal``) on every listed move and on every other candidate leaves the game's
``state_key`` and its undo history exactly as they were.

The games cover every game and table size with the default sheet and random sheets,
with every card known and with some seats' cards unseen (where a seat acting out of
turn is judged after the turn seat's unsaid pass, on a copy of the position).
"""

from __future__ import annotations

import random

import pytest

from scorekeeper.core.cards import format_cards
from scorekeeper.core.engine import HandInPlay
from scorekeeper.core.sheets import GAMES, Sheet
from tests.support.engine import candidates, choose, random_sheet

TABLES = [(game, n) for game in GAMES for n in (GAMES[game].min_players, 4,
                                                 GAMES[game].max_players)]
MOVES_PER_GAME = 120


def with_unseen_seats(g: HandInPlay, rng: random.Random) -> HandInPlay:
    """The same deal as the table would see it: every other seat's cards unseen."""
    hands = [format_cards(k) if seat % 2 else len(k) for seat, k in enumerate(g.known)]
    return HandInPlay.start(g.sheet, g.players, g.dealer, hands, g.upcard,
                      counts=g.counts, seed=rng.getrandbits(16))


def judged_without_change(g: HandInPlay, rng: random.Random) -> int:
    """Check every listed move and every candidate; assert nothing changed. Returns
    how many moves were judged."""
    key, history = g.state_key(), list(g.history)
    moves = g.legal_moves() + candidates(g, rng)
    for move in moves:
        g.check(move)
        g.is_legal(move)
        assert g.state_key() == key, f"judging {move} changed the game"
        assert g.history == history, f"judging {move} changed the undo history"
    return len(moves)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_check_never_changes_the_game(game: str, players: int) -> None:
    rng = random.Random(f"pure/{game}/{players}")
    judged = 0
    for n in range(6):
        sheet = Sheet.make(game) if n < 2 else random_sheet(game, rng, players)
        g = HandInPlay.deal(sheet, players, n % players, random.Random(n))
        if n % 2:
            g = with_unseen_seats(g, rng)
        for _ in range(MOVES_PER_GAME):
            if g.is_over:
                break
            judged += judged_without_change(g, rng)
            g.apply(choose(g.legal_moves(), rng))
    assert judged > 1000
