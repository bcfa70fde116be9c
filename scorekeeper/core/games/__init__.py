"""The registry of games: each listed once, by key, in reading order.

A game is one definition (:class:`~scorekeeper.core.games.definition.Game`) in its own
module; the package asks the definition, never the key. :func:`add_game` adds a game
(the tests add one that exists only there); :data:`GAMES` is a live, read-only view.

Adding a game: its module here (a :class:`Game`, perhaps another's with a few fields
replaced), its line in ``_REGISTRY``, its rules prose in
``templates/rules/prose/<key>.html`` (one macro per section of ``Game.sections``) and
its tests. ``tests/test_games_structure.py`` holds everything else to asking.

>>> list(GAMES)
['last-one', 'crazy-eights', 'countdown']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scorekeeper.core.cards import Deck
from scorekeeper.core.games.countdown import COUNTDOWN
from scorekeeper.core.games.crazy_eights import CRAZY_EIGHTS
from scorekeeper.core.games.definition import Game, reaches
from scorekeeper.core.games.last_one import LAST_ONE

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "Game",
    "add_game",
    "deck_for",
    "game_named",
    "reaches",
    "remove_game",
]

_REGISTRY: dict[str, Game] = {g.key: g for g in (LAST_ONE, CRAZY_EIGHTS, COUNTDOWN)}
GAMES: Mapping[str, Game] = MappingProxyType(_REGISTRY)
DEFAULT_GAME = LAST_ONE.key  # what a form shows before a game is chosen


def add_game(game: Game) -> Game:
    """Add a game to the registry (its key must be new); return it."""
    if game.key in _REGISTRY:
        raise ValueError(f"a game with the key {game.key!r} is already registered")
    _REGISTRY[game.key] = game
    return game


def remove_game(key: str) -> None:
    """Take a game added by :func:`add_game` off the registry again."""
    del _REGISTRY[key]


def game_named(key: str) -> Game:
    """The registered game with that key (``KeyError`` when there is none; the sheet's
    :func:`~scorekeeper.core.sheets.game` says why to a person)."""
    return _REGISTRY[key]


def deck_for(key: str, players: int) -> Deck:
    """The deck a game uses at that table size (the rules reference "Cards").

    >>> deck_for("last-one", 4).size, deck_for("crazy-eights", 6).size
    (54, 104)
    """
    return _REGISTRY[key].deck(players)
