"""Crazy Eights: match the suit or rank, eights are wild; whoever goes out scores what
the others still hold (the rules reference "Crazy Eights")."""

from __future__ import annotations

from scorekeeper.core.cards import Rank
from scorekeeper.core.games.definition import Game

__all__ = ["CRAZY_EIGHTS", "EIGHTS_VALUES"]

# A card left in hand in Crazy Eights (and what Countdown's cards would be worth).
EIGHTS_VALUES = {Rank.EIGHT: 50, Rank.ACE: 1, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10}

CRAZY_EIGHTS = Game(
    key="crazy-eights",
    code="c8",
    name="Crazy Eights",
    min_players=2,
    max_players=7,
    blurb="Match the suit or rank, eights are wild. "
          "Whoever goes out scores what the others still hold.",
    sections=(
        ("c8-overview", "Overview"),
        ("c8-deal", "Dealing"),
        ("c8-turn", "A turn"),
        ("c8-eights", "Eights: name a suit"),
        ("c8-drawing", "Drawing"),
        ("c8-empty-stock", "When the stock runs out"),
        ("c8-addons", "Add-on cards"),
        ("c8-last-card", "Calling \"last card\""),
        ("c8-starter", "The starter card"),
        ("c8-going-out", "Going out"),
        ("c8-scoring", "Scoring"),
        ("c8-jammed", "A jammed hand"),
        ("c8-match-end", "How the match ends"),
    ),
    options={
        "draw_limit": (1, "c8-drawing"),
        "play_after_draw": (True, "c8-drawing"),
        "draw_with_playable": (False, "c8-drawing"),
        "going_out_effects": ("none", "c8-going-out"),
        "starter_effects": (False, "c8-starter"),
        "ace_two_players": ("skip", "c8-addons"),
        "last_card_call": (False, "c8-last-card"),
        "last_card_penalty": (2, "c8-last-card"),
        "match_end": ("first-to-100", "c8-match-end"),
        "target": (100, "c8-match-end"),
        "jam_scoring": ("difference", "c8-jammed"),
        "queen_skips": (False, "c8-addons"),
        "ace_reverses": (False, "c8-addons"),
        "two_draws_two": (False, "c8-addons"),
        "refill": ("turn", "c8-empty-stock"),
    },
    rule_ids=dict(turn="c8-turn", draw="c8-drawing", two="c8-addons", three="c8-turn",
                  melee="c8-turn", eight="c8-eights", skip="c8-addons", reverse="c8-addons",
                  joker="c8-turn", call="c8-last-card", starter="c8-starter",
                  out="c8-going-out", stock="c8-empty-stock", jam="c8-jammed"),
    deal="standard",
    scoring="out",
    end="target",
    values=EIGHTS_VALUES,
    two_decks_from=6,
    optional_effects={"queen_skips": (Rank.QUEEN, "skip"), "ace_reverses": (Rank.ACE, "reverse"),
                      "two_draws_two": (Rank.TWO, "two")},
)
