"""A fourth game that exists only in the tests: Crazy Eights on a 32-card deck (7 to A),
where a 7 makes the next player draw two (answered with another 7).

It is made the way a shipped game is: one definition over the shared parts (here,
Crazy Eights' own with a few fields changed, as python-chess builds a variant on its
board), added to the registry by :func:`registered` for the length of a test and taken
off after. Nothing else in the package knows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from scorekeeper.core.cards import Rank
from scorekeeper.core.games import Game, add_game, remove_game
from scorekeeper.core.games.crazy_eights import CRAZY_EIGHTS

SHORT_RANKS = frozenset(r for r in Rank if r >= Rank.SEVEN or r is Rank.ACE)

SHORT_EIGHTS = replace(
    CRAZY_EIGHTS,
    key="short-eights",
    code="s8",
    name="Short Eights",
    max_players=4,
    blurb="Crazy Eights with the short pack, 7 to A; a 7 makes the next player draw two.",
    ranks=SHORT_RANKS,
    two_decks_from=None,
    effects={Rank.SEVEN: "two"},
    optional_effects={key: effect for key, effect in CRAZY_EIGHTS.optional_effects.items()
                      if key != "two_draws_two"},
    options={key: use for key, use in CRAZY_EIGHTS.options.items() if key != "two_draws_two"},
)


@contextmanager
def registered() -> Iterator[Game]:
    """The game in the registry while the block runs."""
    add_game(SHORT_EIGHTS)
    try:
        yield SHORT_EIGHTS
    finally:
        remove_game(SHORT_EIGHTS.key)
