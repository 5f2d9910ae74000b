"""Games for stratsynth: an OpenSpiel-like State API, match runner and the games.

Each game package ends with ``register_game(GameSpec(...))`` (``games.spec``).
``game_spec(name)`` imports the package that declares ``name`` on first use: a
built-in one, or a third-party one advertised under the ``stratsynth.games``
entry-point group (value: the module to import). Importing ``games`` itself
stays cheap (the microRTS bridge, for one, starts a JVM only when it plays).

A game whose module fails to import is a failed game, not a failed program:
``game_spec`` raises ``GameLoadError`` for that game only, with the cause in one
line, and listings (``loaded_games``, ``failed_games``) show it beside the others.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from .spec import _REGISTRY, GameSpec, register_game, resolve

BUILTIN_GAMES: dict[str, str] = {
    "cantstop": "games.cantstop",
    "tictactoe": "games.tictactoe",
    "hexapawn": "games.hexapawn",
    "expendibots": "games.expendibots",
    "microrts": "games.microrts",
    "tribes": "games.tribes",
}
"""Game name -> the package whose import registers it."""

GAME_FAMILIES: dict[str, str] = {
    "openspiel": "games.openspiel:family_spec",
}
"""Prefix -> ``family_spec(rest) -> GameSpec``: games named ``PREFIX:REST`` whose spec is
made (and registered) on first use, e.g. ``openspiel:connect_four``."""

ENTRY_POINT_GROUP = "stratsynth.games"

_FAILED: dict[str, str] = {}
"""Game name -> one-line cause, for games whose module failed to import."""


class GameLoadError(ValueError):
    """A known game whose module raised on import (or did not register it)."""


def _declaring_modules() -> dict[str, str]:
    modules = dict(BUILTIN_GAMES)
    for name, value in _plugin_games():
        modules.setdefault(name, value)
    return modules


@functools.cache
def _plugin_games() -> tuple[tuple[str, str], ...]:
    """Installed games' entry points, read once per process (reading the installed
    packages' metadata takes a good part of a short command's start)."""
    return tuple((ep.name, ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP))


def game_names() -> list[str]:
    """Every game that can be loaded, without importing any of them (families, such as
    ``openspiel:NAME``, are not listed: ``game_spec`` makes their specs on demand)."""
    return sorted(set(_declaring_modules()) | set(_REGISTRY))


def game_spec(name: str) -> GameSpec:
    """The spec a game registered; ``ValueError`` naming the known games if none."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    prefix, colon, rest = name.partition(":")
    if colon and prefix in GAME_FAMILIES and name not in _FAILED:
        try:
            family = resolve(GAME_FAMILIES[prefix])
        except Exception as err:  # a missing extra: this family fails, the others go on
            _FAILED[name] = f"module {GAME_FAMILIES[prefix]} raised {_one_line(err)}"
        else:
            return family(rest)
    if name not in _FAILED:
        module = _declaring_modules().get(name)
        if module is None:
            raise ValueError(f"unknown game '{name}' (known: {', '.join(game_names())})")
        try:
            importlib.import_module(module)
        except Exception as err:  # a third-party game may fail in any way; others go on
            _FAILED[name] = f"module {module} raised {_one_line(err)}"
        else:
            if name in _REGISTRY:
                return _REGISTRY[name]
            _FAILED[name] = f"module {module} did not register game '{name}'"
    raise GameLoadError(f"game '{name}' failed to load: {_FAILED[name]}")


def _one_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return type(err).__name__ + (f": {lines[0]}" if lines else "")


def loaded_games() -> dict[str, GameSpec]:
    """The spec of every game that loads, by name (imports them all; the ones that
    fail are in ``failed_games``)."""
    specs = {}
    for name in game_names():
        try:
            specs[name] = game_spec(name)
        except GameLoadError:
            continue
    return specs


def failed_games() -> dict[str, str]:
    """Game name -> why it fails to load (one line), after trying every game."""
    loaded_games()
    return dict(sorted(_FAILED.items()))


def game_parameters(name: str) -> list[str]:
    """The keyword parameters a game's factory accepts (``--game-param`` keys)."""
    signature = inspect.signature(resolve(game_spec(name).factory))
    return [p for p in signature.parameters if p != "self"]


def load_game(name: str, **params: Any):
    """A game object by name, e.g. ``load_game("cantstop", max_moves=300)``.

    An unknown parameter is a ``ValueError`` that names the known ones."""
    spec = game_spec(name)
    known = game_parameters(name)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{name}: unknown game parameter(s) {', '.join(unknown)} "
                         f"(known: {', '.join(known) or 'none'})")
    return resolve(spec.factory)(**params)


def game_players(name: str) -> dict[str, Callable[[], Any]]:
    """Built-in player factories of a game, by spec name."""
    return dict(resolve(game_spec(name).players))


__all__ = ["BUILTIN_GAMES", "GameLoadError", "GameSpec", "failed_games", "game_names",
           "game_parameters", "game_players", "game_spec", "load_game", "loaded_games",
           "register_game", "resolve"]
