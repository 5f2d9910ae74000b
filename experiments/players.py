"""Player specs on the command line: ``ga``, ``random``, ``human`` or ``PREFIX:ARG``.

A bare name is one of the game's built-in players (``games.game_players``).
``PREFIX:ARG`` forms are looked up in ``SPEC_PREFIXES``, where later parts of the
toolkit register their own (the synthesis package adds ``program:FILE``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import game_players
from gp.programs import load_program_player


def _weights_player(game_name: str, argument: str) -> Any:
    if game_name != "expendibots":
        raise SpecError(f"weights:FILE players exist for expendibots only, not {game_name}")
    from gp.tdleaf import load_weights_player

    path, options = split_options(argument)
    unknown = sorted(set(options) - {"depth", "book"})
    if unknown:
        raise SpecError(f"weights:FILE takes options depth and book, not {', '.join(unknown)}")
    return load_weights_player(path, **options)


def _program_player(game_name: str, argument: str) -> Any:
    path, options = split_options(argument)
    return load_program_player(game_name, path, **options)


def split_options(argument: str) -> tuple[str, dict[str, int]]:
    """``FILE?depth=2`` -> (``FILE``, {"depth": 2}); options are whole numbers."""
    path, _, query = argument.partition("?")
    options = {}
    for item in filter(None, query.split("&")):
        key, sep, value = item.partition("=")
        if not sep or not value.isdigit():
            raise SpecError(f"player option '{item}' must be NAME=NUMBER")
        options[key] = int(value)
    return path, options


SPEC_PREFIXES: dict[str, Callable[[str, str], Any]] = {"program": _program_player,
                                                      "weights": _weights_player}
"""Prefix -> ``factory(game_name, argument)`` for specs such as ``program:FILE``."""


DEFAULT_TARGETS = {"microrts": "coac"}


def default_target(game_name: str) -> str:
    """The opponent Ψ is measured against unless a run names one (seed 000: GA, COAC)."""
    return DEFAULT_TARGETS.get(game_name, "ga")


class SpecError(ValueError):
    """A player spec that names nothing we can build."""


def make_player(game_name: str, spec: str) -> Any:
    """Build the strategy a spec names, or raise ``SpecError`` saying what is known."""
    if ":" in spec:
        prefix, _, argument = spec.partition(":")
        if prefix not in SPEC_PREFIXES:
            known = ", ".join(f"{p}:..." for p in sorted(SPEC_PREFIXES)) or "none yet"
            raise SpecError(f"unknown player spec prefix '{prefix}:' (known: {known})")
        return SPEC_PREFIXES[prefix](game_name, argument)
    if game_name == "microrts":
        from games.microrts import BOTS, BotSpec

        if spec not in BOTS:
            raise SpecError(f"unknown microrts player '{spec}' (known: {', '.join(BOTS)}, "
                            "program:FILE)")
        return BotSpec(spec)
    players = game_players(game_name)
    if spec not in players:
        raise SpecError(f"unknown player '{spec}' for {game_name} "
                        f"(known: {', '.join(sorted(players))})")
    return players[spec]()
