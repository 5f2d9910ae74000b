"""Factories of OpenSpiel games, one per short name: ``factories:connect_four``.

A ``GameSpec`` names its factory by reference and generic code reads the game
parameters off the factory's signature (``games.game_parameters``), so each
OpenSpiel game gets a factory whose keyword parameters are OpenSpiel's own
parameters (with their defaults) plus ours: ``max_moves`` (a move cap, unless
the game has a parameter of that name) and ``search_depth``.
"""

from __future__ import annotations

import inspect
from functools import partial
from typing import Any

from .game import MOVE_CAP, OpenSpielGame, game_type

OURS = ("search_depth",)


def move_cap(name: str) -> str | None:
    """Our move-cap parameter for ``name``, or None if OpenSpiel's game owns the name."""
    return None if MOVE_CAP in dict(game_type(name).parameter_specification) else MOVE_CAP


def make_game(name: str, **params: Any) -> OpenSpielGame:
    ours = {key: params.pop(key) for key in OURS if key in params}
    cap = move_cap(name)
    max_moves = params.pop(cap, None) if cap else None
    return OpenSpielGame(name, params, max_moves=max_moves, **ours)


def factory(name: str):
    """``make_game`` bound to ``name``, with a signature listing the game's parameters."""
    function = partial(make_game, name)
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter(key, keyword, default=default) for key, default in
                  sorted(dict(game_type(name).parameter_specification).items())]
    cap = move_cap(name)
    if cap:
        parameters.append(inspect.Parameter(cap, keyword, default=None))
    parameters.append(inspect.Parameter("search_depth", keyword, default=1))
    function.__signature__ = inspect.Signature(parameters)
    return function


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    return factory(name)
