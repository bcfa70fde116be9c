"""Last One: shed your cards; 2s, 3s, 4s, jacks, aces and jokers act; reach the
threshold and you are out (the rules reference "Last One")."""

from __future__ import annotations

from scorekeeper.core.cards import Rank
from scorekeeper.core.games.definition import Game

__all__ = ["LAST_ONE"]

LAST_ONE = Game(
    key="last-one",
    code="lo",
    name="Last One",
    min_players=2,
    max_players=6,
    blurb="Shed your cards; 2s, 3s, 4s, jacks, aces and jokers bite. "
          "Reach the threshold and you are out; the last player standing wins.",
    sections=(
        ("lo-overview", "Overview"),
        ("lo-deal", "Dealing"),
        ("lo-turn", "A turn"),
        ("lo-drawing", "Drawing"),
        ("lo-twos", "Twos: draw two"),
        ("lo-threes", "Threes: a free play"),
        ("lo-melee", "Fours: the melee"),
        ("lo-eights", "Eights: name a suit"),
        ("lo-jacks", "Jacks: skip"),
        ("lo-aces", "Aces: reverse"),
        ("lo-jokers", "Jokers: name a card"),
        ("lo-last-one", "Calling \"last one\""),
        ("lo-first-upcard", "The first upcard"),
        ("lo-going-out", "Going out"),
        ("lo-empty-stock", "When the stock runs out"),
        ("lo-scoring", "Scoring"),
        ("lo-elimination", "Elimination and the winner"),
    ),
    options={
        "hand_size": (7, "lo-deal"),
        "threshold": (250, "lo-elimination"),
        "draw_limit": (1, "lo-drawing"),
        "play_after_draw": (False, "lo-drawing"),
        "draw_with_playable": (True, "lo-drawing"),
        "going_out_effects": ("none", "lo-going-out"),
        "starter_effects": (True, "lo-first-upcard"),
        "ace_two_players": ("none", "lo-aces"),
        "last_card_call": (True, "lo-last-one"),
        "last_card_penalty": (2, "lo-last-one"),
        "twos_stack": (False, "lo-twos"),
        "three_free_play": ("any", "lo-threes"),
        "three_chain": (True, "lo-threes"),
        "melee_court_values": ("rank", "lo-melee"),
        "melee_wrap": (False, "lo-melee"),
        "melee_effects": (False, "lo-melee"),
        "joker_must_be_legal": (True, "lo-jokers"),
        "joker_effects": (True, "lo-jokers"),
    },
    rule_ids=dict(turn="lo-turn", draw="lo-drawing", two="lo-twos", three="lo-threes",
                  melee="lo-melee", eight="lo-eights", skip="lo-jacks", reverse="lo-aces",
                  joker="lo-jokers", call="lo-last-one", starter="lo-first-upcard",
                  out="lo-going-out", stock="lo-empty-stock", jam="lo-empty-stock"),
    deal="hand_size",
    scoring="own",
    end="threshold",
    values={Rank.EIGHT: 25, Rank.ACE: 15, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10},
    jokers=2,
    joker_points=40,
    lone_card_free=True,
    effects={Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "melee",
             Rank.JACK: "skip", Rank.ACE: "reverse"},
    twos_stack=False,
    refill_shuffles=True,  # the rules reference: "Last One always shuffles"
    dealer_plays_starter=True,
    stuck_word="blocked",
    end_words="Reach {threshold} points and you are out; the last player left wins.",
)
