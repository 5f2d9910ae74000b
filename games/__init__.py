"""Games for stratsynth: an OpenSpiel-like State API, match runner and the games.

``load_game(name)`` returns a game object; ``game_players(name)`` its built-in
player specs. New games register here by module path, so importing ``games``
stays cheap (the microRTS bridge, for one, starts a JVM).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

GAMES: dict[str, tuple[str, str]] = {
    "cantstop": ("games.cantstop", "CantStop"),
    "tictactoe": ("games.tictactoe", "TicTacToe"),
    "hexapawn": ("games.hexapawn", "Hexapawn"),
    "expendibots": ("games.expendibots", "Expendibots"),
    "microrts": ("games.microrts", "MicroRTS"),
    "tribes": ("games.tribes", "Tribes"),
}
"""Game name -> (module, game class); the module also defines ``PLAYERS``."""


def _module(name: str):
    if name not in GAMES:
        raise KeyError(f"unknown game '{name}' (known: {', '.join(sorted(GAMES))})")
    return importlib.import_module(GAMES[name][0])


def load_game(name: str, **params: Any):
    """A game object by name, e.g. ``load_game("cantstop", max_moves=300)``."""
    module = _module(name)
    return getattr(module, GAMES[name][1])(**params)


def game_players(name: str) -> dict[str, Callable[[], Any]]:
    """Built-in player factories of a game, by spec name."""
    return dict(_module(name).PLAYERS)
