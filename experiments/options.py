"""The options every ``stratsynth`` command shares, defined once.

Each shared option has one meaning and one default wherever it appears:
``GAME`` with ``--game-param KEY=VALUE`` (plus ``--map`` and ``--max-moves`` as
short forms of the game's map and move-cap parameters), ``--dsl``, ``--target``
(default: the game's own, from its ``GameSpec``), ``--seed`` (0), ``--workers``
(0 = all cores; more than the machine has is refused). This module imports
nothing heavy, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from games import game_names, game_spec

from .config import COMMON


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit code 2."""


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive(text: str) -> int:
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def cores() -> int:
    return os.cpu_count() or 1


def workers(text: str) -> int:
    """0 = all cores, 1 = serial, n = a pool of n processes (at most the core count)."""
    value = non_negative(text)
    if value > cores():
        raise argparse.ArgumentTypeError(
            f"{value} workers on a machine with {cores()} cores would only slow every one "
            f"down; use at most {cores()} (0 = all cores)")
    return value


def add_game(parser: argparse.ArgumentParser, dsl: bool = False) -> None:
    """The game positional and its parameters (``--game-param``, ``--map``, ``--max-moves``)."""
    parser.add_argument("game", help=f"game name ({', '.join(game_names())})")
    parser.add_argument("--game-param", dest="game_param", action="append", default=None,
                        metavar="KEY=VALUE", help="game parameter, e.g. max_moves=300 or "
                        "map=24x24 (repeatable; values read as JSON when they parse)")
    parser.add_argument("--map", default=None,
                        help="short for --game-param map=MAP (games played on maps)")
    parser.add_argument("--max-moves", dest="max_moves", type=positive, default=None,
                        help="short for the game's move-cap parameter")
    if dsl:
        parser.add_argument("--dsl", default=None,
                            help="the game's language for programs (default: its first)")


def add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=non_negative, default=COMMON["seed"],
                        help=f"seed of everything random in the command (default {COMMON['seed']})")


def add_workers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=workers, default=COMMON["workers"],
                        help=f"0 = all cores (default), 1 = serial, n <= {cores()} processes")


def add_target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", default=None,
                        help="opponent spec of the win rate Ψ, or a comma-separated pool (Ψ = mean "
                        "score against them; default: the game's own, "
                        "see its GameSpec)")


def parse_game_params(items: list[str] | None) -> dict[str, Any]:
    """``KEY=VALUE`` pairs (values read as JSON when they parse, else as text)."""
    params: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--game-param '{item}' is not KEY=VALUE")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def game_params(args: argparse.Namespace) -> dict[str, Any]:
    """The game parameters a command line gives, short forms included."""
    params = parse_game_params(getattr(args, "game_param", None))
    if getattr(args, "map", None) is not None:
        params["map"] = args.map
    if getattr(args, "max_moves", None) is not None:
        cap = game_spec(args.game).cli.move_cap
        if cap is None:
            raise UsageError(f"--max-moves: {args.game} has no move cap (its matches always "
                             "end by themselves)")
        params[cap] = args.max_moves
    return params


def target_of(game: str, target: str | None) -> str:
    """The opponent Ψ is measured against: the one given, else the game's default."""
    return game_spec(game).synthesis.target(target)
