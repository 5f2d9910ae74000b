"""The one loader of run settings: typed fields and the checks every source goes through.

A config class is a frozen keyword-only dataclass whose fields are declared with
``setting`` (default, help, range, extra checks). ``load`` builds one from settings
by field name, whatever their source (command line, TOML, ``config.json``, Python
keywords): each value is checked against its field's type and range, then the class
checks across fields (``check(where)``); every error is one line starting with the
source (``where``), raised as ``ValueError`` before anything is written.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any, Literal, TypeVar

from gp.synthesis import SynthesizerSettings, settings_to_dict

T = TypeVar("T")


def setting(default: Any = None, help: str = "", *, minimum: float | None = None,
            maximum: float | Callable[[], float] | None = None,
            check: Callable[[Any], str | None] | None = None,
            flags: tuple[str, ...] = (), cli: bool = True,
            legacy: tuple[str, ...] = (), saved_if_set: bool = False) -> Any:
    """A config field.

    Args:
        default: its value when a source leaves it out or gives ``None``.
        help: one line for ``--help`` and the docs.
        minimum: smallest value allowed (numbers).
        maximum: largest value allowed, or a function giving it (e.g. the core count).
        check: more checks: returns what is wrong with a value, or None.
        flags: command-line flags (default ``--field-name``).
        cli: False for fields no command-line flag sets.
        legacy: old names of the field that saved configs may still use.
        saved_if_set: a run's ``config.json`` records the field only when it is set
            (not ``None``), so runs that leave it unset keep the config (and identity)
            they had before the field existed.
    """
    return dataclasses.field(default=default, metadata={
        "help": help, "minimum": minimum, "maximum": maximum, "check": check,
        "flags": flags, "cli": cli, "legacy": legacy, "saved_if_set": saved_if_set})


LEGACY_KEYS = frozenset({"command", "argv", "out", "quiet"})
"""Keys older ``config.json`` files carry that say nothing about the run."""


# -- the loader ----------------------------------------------------------------------------------

def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in args if a is not type(None))
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin is list:
        return f"a list of {_describe(args[0]).removeprefix('a ')}s" if args else "a list"
    return {int: "a whole number", float: "a number", bool: "true or false", str: "text",
            dict: "a table"}.get(hint, getattr(hint, "__name__", str(hint)))


def _fits(hint: Any, value: Any) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(a, value) for a in args)
    if hint is type(None):
        return value is None
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(_fits(args[0], v) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
    if hint is dict:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    return isinstance(value, hint)


def check_field(field: dataclasses.Field, hint: Any, value: Any, where: str) -> None:
    """One field's value against its type, range and checks: a one-line ``ValueError``."""
    if not _fits(hint, value):
        raise ValueError(f"{where}: {field.name} must be {_describe(hint)}, got {value!r}")
    meta = field.metadata
    numbers = [value] if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else [v for v in value if isinstance(v, (int, float))] if isinstance(value, list) else []
    maximum = meta.get("maximum")
    maximum = maximum() if callable(maximum) else maximum
    for number in numbers:
        if meta.get("minimum") is not None and number < meta["minimum"]:
            raise ValueError(f"{where}: {field.name} must be at least {meta['minimum']}, "
                             f"got {number!r}")
        if maximum is not None and number > maximum:
            raise ValueError(f"{where}: {field.name} must be at most {maximum}, got {number!r}")
    if meta.get("check") is not None and value is not None:
        problem = meta["check"](value)
        if problem:
            raise ValueError(f"{where}: {field.name} {problem}")


def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def check_fields(cls: type, values: Mapping[str, Any], where: str) -> None:
    """Check the fields ``values`` gives (``None`` = not set); unknown keys are errors."""
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"{where}: unknown setting(s) {', '.join(unknown)} "
                         f"(known: {', '.join(known)})")
    types_ = hints(cls)
    for name, value in values.items():
        if value is not None:
            check_field(known[name], types_[name], value, where)


def load(cls: type[T], values: Mapping[str, Any], where: str = "command line",
         *, saved: bool = False) -> T:
    """The config ``values`` describe, checked field by field, then across fields.

    Args:
        cls: the run kind's config class.
        values: settings by field name (legacy names mapped); ``None`` = the default.
        where: the source, named in every error (a file, ``command line``, a function).
        saved: the values come from a run's ``config.json``: keys older versions wrote
            that say nothing about the run are skipped, and the run's identity
            (``with_identity``) must still match its settings.
    """
    if not isinstance(values, Mapping):
        raise ValueError(f"{where}: expected a table of settings, got {type(values).__name__}")
    values = dict(values)
    kept_identity = values.pop(IDENTITY, None) if saved else None
    original = dict(values)
    for f in fields(cls):
        for old in f.metadata.get("legacy", ()):
            if old in values and values.get(f.name) is None:
                values[f.name] = values.pop(old)
    if saved:
        values = {k: v for k, v in values.items() if k not in LEGACY_KEYS}
    prepare = getattr(cls, "prepare", None)
    if prepare is not None:
        values = prepare(values, where)
    resolve_defaults = getattr(cls, "resolve_defaults", None)
    if resolve_defaults is not None:  # defaults that differ for a new and a saved run
        values = resolve_defaults(values, saved)
    check_fields(cls, values, where)
    config = cls(**{k: v for k, v in values.items() if v is not None})
    for f in fields(cls):
        if getattr(config, f.name) is None and f.default is None and _required(hints(cls)[f.name]):
            raise ValueError(f"{where}: {f.name} is required")
    check = getattr(config, "check", None)
    if check is not None:
        check(where)
    if kept_identity is not None:
        _check_identity(cls, original, kept_identity, where)
    return config


IDENTITY = "identity"
"""The ``config.json`` key holding a fingerprint of each setting that shapes the results."""


def _fingerprint(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]


def with_identity(config: Any) -> dict[str, Any]:
    """``to_dict(config)`` plus the fingerprints of the settings that shape its results
    (all but the class's ``NOT_IDENTITY``): a ``config.json`` edited later is refused on
    resume, naming the settings that changed, instead of continuing a mixed log."""
    values = to_dict(config)
    skip = getattr(type(config), "NOT_IDENTITY", frozenset())
    values[IDENTITY] = {k: _fingerprint(v) for k, v in values.items() if k not in skip}
    return values


def _check_identity(cls: type, values: Mapping[str, Any], kept: Any, where: str) -> None:
    if not isinstance(kept, dict):
        raise ValueError(f"{where}: identity must be a table of fingerprints, got {kept!r}")
    keys = (set(kept) | set(values)) - getattr(cls, "NOT_IDENTITY", frozenset())
    changed = sorted(k for k in keys if kept.get(k) != _fingerprint(values.get(k)))
    if changed:
        raise ValueError(f"{where}: setting(s) {', '.join(changed)} changed since the run "
                         "started (its results were made with the old values); put them "
                         "back or start a new run")


def _required(hint: Any) -> bool:
    """A field whose type does not admit None must be given."""
    return not _fits(hint, None)


def to_dict(config: Any) -> dict[str, Any]:
    """A config as ``config.json`` keeps it (every field, JSON-ready, but a
    ``saved_if_set`` field only when set; a method's settings as flat keys beside the
    run's)."""
    out: dict[str, Any] = {}
    for f in fields(config):
        value = getattr(config, f.name)
        if value is None and f.metadata.get("saved_if_set"):
            continue
        if isinstance(value, SynthesizerSettings):
            out.update(settings_to_dict(value))
        else:
            out[f.name] = value
    return out


def read_text(path: Path) -> str:
    """A text file's contents; a binary file is one line naming it."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not text (UTF-8)") from None


def read_json(path: Path) -> Any:
    """A JSON file; errors name it."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None


def read_run_config(run_dir: Path) -> dict[str, Any]:
    """A run directory's ``config.json`` (a table); errors name the file."""
    path = Path(run_dir) / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: not a run directory (no config.json)")
    data = read_json(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a table of settings, got {type(data).__name__}")
    return data
