"""The synthesizer protocol: a method is a class with ``Settings`` and ``run()``.

A run builds one method as ``cls(language=..., evaluator=..., rng=..., settings=...,
initial=..., game=...)`` and calls ``run()``. The evaluator owns the budget, the log and the
best programs, so a method only asks it for values (``evaluator.score``) until it
raises ``BudgetSpent``. Methods are found by name: the built-ins, then the
``stratsynth.synthesizers`` entry-point group of installed packages (entry name =
method name, value ``package.module:Class`` or ``package.module``). A plug-in that
fails to import fails alone, with its one-line cause; every other method keeps working.

A method's settings are a frozen keyword-only dataclass derived from
``SynthesizerSettings``. Each field has a default, a simple type (``int``, ``float``,
``bool``, ``str``, ``Literal[...]``, or one of these ``| None``) and
``metadata={"help": ..., "minimum": n, "maximum": n, "legacy": ("old_key", ...)}``.
From that one declaration the command line gets its flags, configs their keys and
``settings_from`` its checks.
"""

from __future__ import annotations

import abc
import dataclasses
import math
import random
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Literal

from .registry import Registry

ENTRY_POINT_GROUP = "stratsynth.synthesizers"

BUILTIN_MODULES = ("gp.methods", "gp.sketch", "gp.hill_climbing")
"""Modules whose import registers the built-in methods."""

LEGACY_UNSET: Mapping[str, tuple[Any, ...]] = {
    "population": (None,),
    "sketch_share": (None,),
    "rollout_evaluations": (None,),
    "sketch_schedule": (None, "text"),
    "remeasure_restarts": (None, False),
    "restart_random": (None, False),
}
"""Keys that run configs written before per-method settings carry for every method,
and the values that meant "not used" there: such a key is ignored for a method that
does not have the setting."""


@dataclass(frozen=True, kw_only=True)
class SynthesizerSettings:
    """Base of every method's settings (a method without options uses it as is)."""


class Synthesizer(abc.ABC):
    """A search over programs of ``language`` scored by ``evaluator``.

    Args:
        language: the DSL (random programs, neighbours, parsing).
        evaluator: the one door to values; ``evaluator.score(tree)`` scores the run's
            objective, ``evaluator.score(tree, name)`` an extra metric the method asked
            for in ``metrics``; raises ``BudgetSpent`` once the budget is spent.
        rng: the method's only source of randomness (same seed, same run).
        settings: an instance of the class's ``Settings``.
        initial: a program to start from, or None.
        game: the run's game object (with the run's parameters), for a method whose
            moves depend on the game (a semantic neighbourhood records on it), or None.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    Settings: ClassVar[type[SynthesizerSettings]] = SynthesizerSettings

    def __init__(self, *, language, evaluator, rng: random.Random,
                 settings: SynthesizerSettings | None = None, initial: Any = None,
                 game: Any = None) -> None:
        settings = self.Settings() if settings is None else settings
        if not isinstance(settings, self.Settings):
            raise TypeError(f"method {self.name} takes {self.Settings.__name__}, "
                            f"got {type(settings).__name__}")
        self.language = language
        self.evaluator = evaluator
        self.rng = rng
        self.settings = settings
        self.initial = initial
        self.game = game

    @classmethod
    def metrics(cls, settings: SynthesizerSettings) -> frozenset[str]:
        """Metrics the method asks the evaluator for beyond the objective (e.g. ``{"c"}``)."""
        return frozenset()

    @abc.abstractmethod
    def run(self) -> None:
        """Search until the evaluator's budget is spent (or the method is done)."""


def check_plugin_class(cls: Any, *, base: type, settings_base: type, noun: str) -> None:
    """Refuse (``TypeError``, one line) a class that cannot be registered as a ``base``
    plug-in: it needs a ``name``, a ``summary`` and a ``Settings`` dataclass derived
    from ``settings_base`` whose fields each have a default, a simple type and help."""
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise TypeError(f"{cls!r} is not a {base.__name__} subclass")
    for attr in ("name", "summary"):
        if not isinstance(getattr(cls, attr, None), str) or not getattr(cls, attr):
            raise TypeError(f"{noun} {cls.__qualname__} needs a class attribute {attr}")
    settings_class = cls.Settings
    if not (isinstance(settings_class, type) and issubclass(settings_class, settings_base)):
        raise TypeError(f"{noun} {cls.name}: Settings must derive from {settings_base.__name__}")
    if not dataclasses.is_dataclass(settings_class):
        raise TypeError(f"{noun} {cls.name}: Settings must be a dataclass")
    for f in setting_fields(settings_class):
        setting_type(settings_class, f.name)
        if f.default is dataclasses.MISSING:
            raise TypeError(f"{noun} {cls.name}: setting {f.name} needs a default")
        if not f.metadata.get("help"):
            raise TypeError(f"{noun} {cls.name}: setting {f.name} needs "
                            "metadata={'help': ...}")


SYNTHESIZERS: Registry[type[Synthesizer]] = Registry(
    noun="method", registered_noun="synthesizer", group=ENTRY_POINT_GROUP, base=Synthesizer,
    builtin_modules=BUILTIN_MODULES,
    check=partial(check_plugin_class, base=Synthesizer, settings_base=SynthesizerSettings,
                  noun="synthesizer"))
_REGISTRY = SYNTHESIZERS.entries


def register_synthesizer(cls: type[Synthesizer]) -> type[Synthesizer]:
    """Class decorator: make ``cls`` available as ``--method cls.name``."""
    return SYNTHESIZERS.register(cls)


def synthesizer_names() -> list[str]:
    """Every method's name: built-ins first, then installed plug-ins (not imported)."""
    return SYNTHESIZERS.names()


def synthesizer_class(name: str) -> type[Synthesizer]:
    """The method called ``name``; ``ValueError`` naming the known ones if none is."""
    return SYNTHESIZERS.get(name)


# ---- settings -------------------------------------------------------------------------

def setting_fields(settings_class: type[SynthesizerSettings]) -> list[dataclasses.Field]:
    """The declared settings of a method, in declaration order."""
    return list(dataclasses.fields(settings_class))


def setting_type(settings_class: type[SynthesizerSettings], name: str) -> tuple[Any, bool]:
    """A field's base type (``int``, ``float``, ``bool``, ``str`` or a ``Literal``) and
    whether it may be None."""
    hint = typing.get_type_hints(settings_class)[name]
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) != 1:
            raise TypeError(f"{settings_class.__qualname__}.{name}: a setting has one type "
                            "(or that type | None)")
        hint = args[0]
    if hint not in (int, float, bool, str) and typing.get_origin(hint) is not Literal:
        raise TypeError(f"{settings_class.__qualname__}.{name}: a setting is an int, float, "
                        "bool, str or Literal (or one of these | None)")
    return hint, optional


def _legacy_names(settings_class: type[SynthesizerSettings]) -> dict[str, str]:
    """Old config key -> field name."""
    return {old: f.name for f in setting_fields(settings_class)
            for old in f.metadata.get("legacy", ())}


def _describe(hint: Any) -> str:
    if typing.get_origin(hint) is Literal:
        return "one of " + ", ".join(str(a) for a in typing.get_args(hint))
    return {int: "a whole number", float: "a number", bool: "true or false",
            str: "a text"}[hint]


def check_setting(settings_class: type[SynthesizerSettings], name: str, value: Any) -> Any:
    """``value`` checked against the field's type and range (ints widen to floats);
    ``ValueError`` saying what was expected."""
    hint, optional = setting_type(settings_class, name)
    if value is None:
        if optional:
            return None
        raise ValueError(f"{name} must be {_describe(hint)}, got null")
    if typing.get_origin(hint) is Literal:
        if not any(value == a and type(value) is type(a) for a in typing.get_args(hint)):
            raise ValueError(f"{name} must be {_describe(hint)}, got {value!r}")
        return value
    ok = {bool: isinstance(value, bool),
          int: isinstance(value, int) and not isinstance(value, bool),
          float: isinstance(value, (int, float)) and not isinstance(value, bool),
          str: isinstance(value, str)}[hint]
    if not ok:
        raise ValueError(f"{name} must be {_describe(hint)}, got {value!r}")
    if hint is float:
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")
    metadata_ = {f.name: f.metadata for f in setting_fields(settings_class)}[name]
    low, high = metadata_.get("minimum"), metadata_.get("maximum")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value!r}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value!r}")
    return value


def _other_setting_names() -> set[str]:
    """Setting names (and old keys) of the methods loaded so far."""
    names = set(LEGACY_UNSET)
    for cls in _REGISTRY.values():
        names.update(f.name for f in setting_fields(cls.Settings))
        names.update(_legacy_names(cls.Settings))
    return names


def settings_from(cls: type[Synthesizer], values: Mapping[str, Any], *,
                  where: str) -> SynthesizerSettings:
    """``cls.Settings`` from flat keys (CLI, TOML, ``config.json``, Python keywords).

    Old config keys are mapped to the field that declares them; a key the method does
    not have is an error, except an old key with the value that meant "not used"
    (``LEGACY_UNSET``) and a null value of another method's setting. Errors are one
    line starting with ``where``.
    """
    settings_class = cls.Settings
    fields = {f.name for f in setting_fields(settings_class)}
    legacy = _legacy_names(settings_class)
    given: dict[str, Any] = {}
    source: dict[str, str] = {}
    others = None
    for key, value in values.items():
        name = key if key in fields else legacy.get(key)
        if name is None:
            if key in LEGACY_UNSET and any(value is u or (value == u and type(value) is
                                                          type(u)) for u in LEGACY_UNSET[key]):
                continue
            others = _other_setting_names() if others is None else others
            if value is None and key in others:
                continue
            known = ", ".join(sorted(fields)) or "none"
            raise ValueError(f"{where}: method {cls.name} has no setting {key} "
                             f"(its settings: {known})")
        if name in given:
            if given[name] == value:
                continue
            raise ValueError(f"{where}: {source[name]} and {key} both set {cls.name}'s "
                             f"setting {name}, differently")
        given[name], source[name] = value, key
    checked = {}
    for name, value in given.items():
        if value is None and (source[name] != name or name in LEGACY_UNSET):
            continue  # an old key left null: the default
        try:
            checked[name] = check_setting(settings_class, name, value)
        except ValueError as err:
            raise ValueError(f"{where}: method {cls.name}: {err}") from None
    try:
        return settings_class(**checked)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: method {cls.name}: {err}") from None


def settings_to_dict(settings: SynthesizerSettings) -> dict[str, Any]:
    """The settings as JSON-ready flat keys (field names), for ``config.json``."""
    return {f.name: getattr(settings, f.name) for f in setting_fields(type(settings))}
