"""Helpers for the engine's tests and its benchmark: random sheets, random moves that
finish games like real ones, and the sheet that plays like OpenSpiel's crazy_eights."""

from __future__ import annotations

import random
import sys

from scorekeeper.core.cards import ALL_CARDS, JOKER, Suit
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.state import HandInPlay
from scorekeeper.core.sheets import OPTIONS, Sheet, options_for

# Our Crazy Eights sheet that plays like OpenSpiel's: draw up to five cards a turn even
# holding a playable card, then play any playable card or pass; no special cards.
OPENSPIEL_SHEET = {"draw_limit": 5, "play_after_draw": True, "draw_with_playable": True,
                   "starter_effects": False, "match_end": "one-hand",
                   "ace_two_players": "none", "queen_skips": False, "ace_reverses": False,
                   "two_draws_two": False}
if "refill" in OPTIONS:  # OpenSpiel reshuffles the pile into an unseen stock
    OPENSPIEL_SHEET["refill"] = "shuffle"

MOVE_CAP = 5000


def choose(moves: list[Move], rng: random.Random) -> Move:
    """A random move, preferring plays (so random games finish like real ones)."""
    plays = [m for m in moves if m.kind in ("play", "call")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(moves)


def candidates(g: HandInPlay, rng: random.Random) -> list[Move]:
    """Moves worth asking about, by every seat: draws, passes, calls, and plays of the
    cards it holds, with and without a named suit (a joker as a random card)."""
    out: list[Move] = []
    for p in range(g.players):
        out += [Move.draw(p), Move.pass_(p), Move.call(p)]
        for c in set(g.known[p]):
            if c is JOKER:
                named = rng.choice(ALL_CARDS)
                out += [Move.play(p, c, as_card=named), Move.play(p, c, Suit.HEARTS, named)]
            else:
                out += [Move.play(p, c), Move.play(p, c, rng.choice(list(Suit)))]
    return out


def play_out(game: HandInPlay, rng: random.Random, cap: int = MOVE_CAP) -> int:
    """Play random legal moves until the hand ends; returns the moves made.
    Raises RuntimeError if ``cap`` moves do not finish it."""
    moves = 0
    while not game.is_over:
        if moves >= cap:
            raise RuntimeError(f"no end after {cap} moves: {game!r}")
        game.apply(choose(game.legal_moves(), rng))
        moves += 1
    return moves


def random_sheet(game: str, rng: random.Random, players: int = 2) -> Sheet:
    """A sheet with every option drawn at random within its range (a hand size that
    leaves an upcard)."""
    values = {}
    for opt in options_for(game):
        if opt.kind == "bool":
            values[opt.key] = rng.random() < 0.5
        elif opt.kind == "choice":
            values[opt.key] = rng.choice(list(opt.choices))
        elif opt.key == "draw_limit":
            values[opt.key] = rng.choice([None, 1, 1, 2, 3])
        elif opt.key in ("hand_size", "start_count", "last_card_penalty"):
            values[opt.key] = rng.randint(opt.minimum or 1, opt.maximum or 8)
    if values.get("hand_size") == 9 and players == 6:
        values["hand_size"] = 8
    return Sheet.make(game, values)


def undo_bytes(g: HandInPlay) -> int:
    """Bytes a game keeps to take its moves back: the history list and each entry (the
    move's pair with the passes it implied; moves are the move book's, shared, and
    the passes usually the one empty tuple). The positions kept to rebuild from are
    not counted: one per game, the one it started from, until a move is taken back."""
    total = sys.getsizeof(g.history)
    for move, implied in g.history:
        total += sys.getsizeof((move, implied))
        if implied:
            total += sys.getsizeof(implied)
    return total
