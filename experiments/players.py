"""Player specs on the command line: ``ga``, ``random``, ``human`` or ``PREFIX:ARG``.

A bare name is one of the game's built-in players (``games.game_players``), or a
former name of one (``player_aliases`` in the game's ``CLISpec``).
``PREFIX:ARG`` forms are ``program:FILE`` (a program of the game's language, any
game with one) and the prefixes a game declares in its ``GameSpec``
(``player_prefixes``, e.g. ``weights:FILE``). ``ARG`` may carry options,
``FILE?depth=2``.
"""

from __future__ import annotations

from typing import Any

from games import game_players, game_spec, resolve
from gp.programs import load_program_player


class SpecError(ValueError):
    """A player spec that names nothing we can build."""


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


def split_specs(text: str, what: str = "pool") -> list[str]:
    """``a,b,c`` -> [a, b, c]: a comma-separated list of player specs (a pool of
    opponents); an empty item or a repeated spec is a ``SpecError`` naming it."""
    specs = [item.strip() for item in text.split(",")]
    if any(not spec for spec in specs):
        raise SpecError(f"{what} '{text}': an empty player spec (two commas, or one at an end)")
    repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
    if repeated:
        raise SpecError(f"{what} '{text}': {', '.join(repeated)} named twice")
    return specs


def make_targets(game_name: str, text: str, dsl: str | None = None) -> list[Any]:
    """The players a target names: one spec, or a comma-separated pool of specs
    (Ψ is then the mean score against them, ``gp.fitness.PoolWinRate``)."""
    return [make_player(game_name, spec, dsl=dsl) for spec in split_specs(text, "target")]


def _prefixes(game_name: str) -> list[str]:
    return ["program", *game_spec(game_name).cli.player_prefixes]


def make_player(game_name: str, spec: str, dsl: str | None = None) -> Any:
    """Build the strategy a spec names, or raise ``SpecError`` saying what is known."""
    game = game_spec(game_name)
    if ":" in spec:
        prefix, _, argument = spec.partition(":")
        path, options = split_options(argument)
        if prefix == "program":
            return load_program_player(game_name, path, dsl=dsl, **options)
        if prefix not in game.cli.player_prefixes:
            known = ", ".join(f"{p}:..." for p in _prefixes(game_name))
            raise SpecError(f"unknown player spec prefix '{prefix}:' for {game_name} "
                            f"(known: {known})")
        try:
            return resolve(game.cli.player_prefixes[prefix])(path, **options)
        except TypeError:
            raise SpecError(f"{spec}: unknown option(s) {sorted(options)}") from None
    players = game_players(game_name)
    spec = game.cli.player_aliases.get(spec, spec)
    if spec not in players:
        known = ", ".join([*sorted(players), *(f"{p}:FILE" for p in _prefixes(game_name))])
        raise SpecError(f"unknown player '{spec}' for {game_name} (known: {known})")
    return players[spec]()
