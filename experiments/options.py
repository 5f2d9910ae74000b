"""Command-line options, made from the run configurations (``experiments.config``).

A run kind's flags come from its config class (``add_config``): one flag per field,
its help and default from the field, its value read as text by the field's type and
then checked by the same loader as a TOML or ``config.json`` value (``config_from``).
``GAME`` with ``--game-param KEY=VALUE`` (plus ``--map`` and ``--max-moves`` as short
forms of the game's map and move-cap parameters) is shared by every game command.
This module imports nothing heavy, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import json
import types
import typing
from dataclasses import MISSING, fields
from typing import Any, Literal

from games import game_names, game_spec

from .config import cores, workers_check
from .loader import hints, load


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


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None


def workers(text: str) -> int:
    """0 = all cores, 1 = serial, n = a pool of n processes (at most the core count)."""
    value = non_negative(text)
    problem = workers_check(value)
    if problem:
        raise argparse.ArgumentTypeError(f"workers {problem}")
    return value


def check_output_file(out: str, flag: str = "--out") -> None:
    """An output file's path, checked before the work that fills it: not a directory,
    and no file where a directory of its path must be (missing ones are made, as for a
    run's ``--out``: ``-o data/random.jsonl`` works in a fresh checkout)."""
    from pathlib import Path

    path = Path(out)
    if path.is_dir():
        raise UsageError(f"{flag} {out}: a directory; give a file in it")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"{flag} {out}: {parent} is a file, not a directory")
            break


def add_game(parser: argparse.ArgumentParser, dsl: bool = False) -> None:
    """The game positional and its parameters (``--game-param``, ``--map``, ``--max-moves``)."""
    from games import GAME_FAMILIES

    names = game_names() + [f"{prefix}:NAME" for prefix in GAME_FAMILIES]
    parser.add_argument("game", help=f"game name ({', '.join(names)})")
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
    parser.add_argument("--seed", type=non_negative, default=0,
                        help="seed of everything random in the command (default 0)")


def add_workers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=workers, default=0,
                        help=f"0 = all cores (default), 1 = serial, n <= {cores()} processes")


def add_engine(parser: argparse.ArgumentParser, default: str | None = "fast",
               shown: str = "fast") -> None:
    """``--engine``: the match engine (``games.engines.ENGINES``); results are the same on
    all of them."""
    from games.engines import ENGINES

    parser.add_argument("--engine", choices=ENGINES, default=default,
                        help=f"match engine (default {shown}; every engine gives the same "
                        "results, reference is the slowest)")


def _reader(hint: Any) -> tuple[dict[str, Any], bool]:
    """argparse keywords reading a field of type ``hint`` from text, and whether it is a
    switch (``store_true``)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        hint = args[0]
    if hint is bool:
        return {"action": "store_true"}, True
    if typing.get_origin(hint) is Literal:
        return {"choices": typing.get_args(hint)}, False
    return {"type": {int: whole, float: number}.get(hint, str)}, False


def add_config(parser: argparse.ArgumentParser | Any, cls: type,
               skip: tuple[str, ...] = ()) -> None:
    """One flag per command-line field of ``cls``; a value not given stays ``None``
    (the loader fills the field's default)."""
    types_ = hints(cls)
    for f in fields(cls):
        meta = f.metadata
        if not meta.get("cli", True) or f.name in skip or f.name in ("dsl",):
            continue
        keywords, switch = _reader(types_[f.name])
        shown = "" if switch or f.default in (None, MISSING) else f" (default {f.default})"
        required = f.default is None and not typing.get_args(types_[f.name]) \
            and types_[f.name] is not dict
        parser.add_argument(*(meta.get("flags") or ("--" + f.name.replace("_", "-"),)),
                            dest=f.name, default=None, help=(meta.get("help") or "") + shown,
                            required=required, **keywords)


def add_method_settings(parser: argparse.ArgumentParser, skip: set[str]) -> None:
    """Every registered synthesizer's settings as flags, one group per method (a setting
    several methods share is one flag, in the first one's group); a plug-in that cannot
    be loaded is listed with its cause."""
    from gp.synthesis import setting_fields, synthesizer_class, synthesizer_names

    seen: dict[str, list[str]] = {}
    keys: list[str] = []
    broken = []
    for name in synthesizer_names():
        try:
            method = synthesizer_class(name)
        except ValueError as err:
            broken.append(str(err))
            continue
        own = [f for f in setting_fields(method.Settings) if f.name not in skip]
        group = parser.add_argument_group(f"--method {name}", method.summary)
        types_ = hints(method.Settings)
        shared = [f for f in own if f.name in seen]
        if shared:
            group.description += "; also " + ", ".join(
                f"--{f.name.replace('_', '-')} (see --method {seen[f.name][0]})"
                for f in shared)
        for f in own:
            if f.name in seen:
                seen[f.name].append(name)
                continue
            seen[f.name] = [name]
            keywords, switch = _reader(types_[f.name])
            if switch and f.default is True:
                keywords = {"action": argparse.BooleanOptionalAction}
            shown = "" if switch or f.default is None else f" (default {f.default})"
            group.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                               help=f.metadata.get("help", "") + shown, **keywords)
            keys.append(f.name)
    if broken:
        parser.epilog = ((parser.epilog or "") + " Methods that cannot be loaded: "
                         + "; ".join(broken)).strip()
    parser.set_defaults(method_setting_keys=tuple(keys))


def config_from(cls: type, args: argparse.Namespace, where: str = "command line",
                **extra: Any):
    """The config a command line gives, through the one loader (with the method
    settings ``add_method_settings`` added, where the parser has them)."""
    names = [f.name for f in fields(cls)] + list(getattr(args, "method_setting_keys", ()))
    values = {name: getattr(args, name, None) for name in names}
    if "game_params" in values and values["game_params"] is None:
        values["game_params"] = game_params(args) or None
    values.update(extra)
    return load(cls, {k: v for k, v in values.items() if v is not None}, where)


def parse_game_params(items: list[str] | None, flag: str = "--game-param") -> dict[str, Any]:
    """``KEY=VALUE`` pairs (values read as JSON when they parse, else as text)."""
    params: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{flag} '{item}' is not KEY=VALUE")
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
