"""Crazy Eights Countdown: Crazy Eights where each player's count is both their hand
size and their own wild rank; first to count down to 0 wins (the rules reference
"Crazy Eights Countdown")."""

from __future__ import annotations

from scorekeeper.core.cards import Rank
from scorekeeper.core.games.crazy_eights import EIGHTS_VALUES
from scorekeeper.core.games.definition import Game

__all__ = ["COUNTDOWN"]

COUNTDOWN = Game(
    key="countdown",
    code="cd",
    name="Crazy Eights Countdown",
    min_players=2,
    max_players=7,
    blurb="Crazy Eights where each player's count sets their hand size and their own "
          "wild rank; first to count down to 0 wins.",
    sections=(
        ("cd-overview", "Overview"),
        ("cd-count", "Your count"),
        ("cd-wild", "Your wild rank"),
        ("cd-turn", "A turn"),
        ("cd-drawing", "Drawing and the empty stock"),
        ("cd-addons", "Add-on cards"),
        ("cd-going-out", "Going out and counting down"),
        ("cd-match-end", "How the match ends"),
    ),
    options={
        "draw_limit": (1, "cd-drawing"),
        "play_after_draw": (True, "cd-drawing"),
        "draw_with_playable": (False, "cd-drawing"),
        "going_out_effects": ("none", "cd-going-out"),
        "starter_effects": (False, "cd-addons"),
        "ace_two_players": ("skip", "cd-addons"),
        "last_card_call": (False, "cd-addons"),
        "last_card_penalty": (2, "cd-addons"),
        "queen_skips": (False, "cd-addons"),
        "ace_reverses": (False, "cd-addons"),
        "two_draws_two": (False, "cd-addons"),
        "refill": ("turn", "cd-drawing"),
        "start_count": (8, "cd-count"),
    },
    rule_ids=dict(turn="cd-turn", draw="cd-drawing", two="cd-addons", three="cd-turn",
                  melee="cd-turn", eight="cd-wild", skip="cd-addons", reverse="cd-addons",
                  joker="cd-turn", call="cd-addons", starter="cd-addons",
                  out="cd-going-out", stock="cd-drawing", jam="cd-going-out"),
    deal="count",
    scoring="count",
    end="count",
    values=EIGHTS_VALUES,
    two_decks_from=6,
    optional_effects={"queen_skips": (Rank.QUEEN, "skip"), "ace_reverses": (Rank.ACE, "reverse"),
                      "two_draws_two": (Rank.TWO, "two")},
    total_word="count",
    wild_words="your own count's rank, for you alone: at count 8 your 8s, at 7 your 7s, "
               "… at 1 your aces; every other 8 is an ordinary card",
    end_words="Everyone starts at count {start_count}; going out takes one off; "
              "first to 0 wins.",
)
