"""The self-play driver protocol: a driver is a class with ``Settings`` and ``run()``.

A self-play run (``stratsynth selfplay GAME --driver NAME``) builds one driver as
``cls(oracle=..., context=..., settings=...)`` and calls ``run(initial, budget, out,
after_step)``. The driver decides what each best response answers (the latest
program, a mixture, a restricted game's equilibrium, chosen reference opponents);
the oracle (SA, hill climbing, HSS) finds the response. Drivers are found by name:
the built-ins, then the ``stratsynth.selfplay_drivers`` entry-point group of
installed packages (entry name = driver name, value ``package.module:Class`` or
``package.module``), in the same way as synthesizers (``gp.synthesis``). A plug-in
that fails to import fails alone, with its one-line cause.

A driver's settings are a frozen keyword-only dataclass derived from
``DriverSettings``, declared like a synthesizer's (``gp.synthesis``: a default, a
simple type, ``metadata={"help": ..., "minimum": ..., "maximum": ...}``); the command
line gets a flag per setting and a run's ``config.json`` keeps them.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from gp.registry import Registry
from gp.synthesis import check_plugin_class, check_setting, setting_fields

ENTRY_POINT_GROUP = "stratsynth.selfplay_drivers"

BUILTIN_MODULES = ("qd.selfplay", "qd.double_oracle", "qd.local_learner")
"""Modules whose import registers the built-in drivers."""


@dataclass(frozen=True, kw_only=True)
class DriverSettings:
    """Base of every driver's settings (a driver without options uses it as is)."""


@dataclass(frozen=True, kw_only=True)
class SelfPlayContext:
    """What every driver may need besides its oracle.

    Args:
        game: the game object.
        strategy_class: the language's player class (program text -> player).
        matches: matches per evaluation (and per payoff-matrix entry).
        seed: the run's seed.
        map: the evaluation backend's ``map`` (None: serial).
        engine: the match engine (``games.engines.ENGINES``).
        opponents: fixed players (fictitious play's pool).
        mixture: how fictitious play plays its mixture (``sampled`` or ``stratified``).
    """

    game: Any
    strategy_class: Any
    matches: int
    seed: int
    map: Callable | None = None
    engine: str = "fast"
    opponents: Sequence = ()
    mixture: str = "sampled"


@dataclass
class SelfPlayBudget:
    """When a self-play run stops: after ``iterations`` oracle calls, once its
    best-response searches have played ``matches`` matches against their targets, or
    once this process has used ``cpu_seconds`` of CPU time (across resumes). The
    budget is checked before each oracle call (a call that starts runs to its end), so a
    run resumed from its checkpoint decides as the uninterrupted run did."""

    iterations: int
    matches: int | None = None
    cpu_seconds: float | None = None
    clock: Callable[[], float] = field(default=time.process_time, repr=False)

    def __post_init__(self) -> None:
        self._started = self.clock()

    def cpu_used(self, before: float) -> float:
        """CPU seconds so far: ``before`` (a checkpoint's) plus this process's since start."""
        return before + self.clock() - self._started

    def left(self, calls: int, matches: int, cpu_before: float = 0.0) -> bool:
        """Whether another oracle call may start after ``calls`` calls and ``matches``
        search matches."""
        if calls >= self.iterations:
            return False
        if self.matches is not None and matches >= self.matches:
            return False
        return self.cpu_seconds is None or self.cpu_used(cpu_before) < self.cpu_seconds


class SelfPlayDriver(abc.ABC):
    """A self-play scheme over best responses found by ``oracle``.

    Args:
        oracle: ``oracle(target, seed, start=None) -> program text``; ``target`` is a
            player, a list of players (each played ``matches`` times, the scores
            averaged) or a ``qd.empirical_game.ReferenceOpponents``; after each call
            ``oracle.used`` is the evaluations it made.
        context: the game, language, matches, seed and backend (``SelfPlayContext``).
        settings: an instance of the class's ``Settings``.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    Settings: ClassVar[type[DriverSettings]] = DriverSettings

    def __init__(self, *, oracle, context: SelfPlayContext,
                 settings: DriverSettings | None = None) -> None:
        settings = self.Settings() if settings is None else settings
        if not isinstance(settings, self.Settings):
            raise TypeError(f"driver {self.name} takes {self.Settings.__name__}, "
                            f"got {type(settings).__name__}")
        self.oracle = oracle
        self.context = context
        self.settings = settings

    @classmethod
    def check_context(cls, context: SelfPlayContext) -> None:
        """Refuse a context the driver cannot use (``ValueError``, one line); any by
        default."""
        return None

    @abc.abstractmethod
    def run(self, initial: str, budget: SelfPlayBudget, out: Path | None = None,
            after_step: Callable[[list[str]], None] | None = None) -> list[str]:
        """Start or continue (from ``out``'s checkpoint) until ``budget`` is spent; the
        programs found, oldest first (``initial`` first). ``after_step(programs)`` runs
        after each oracle call and before that call's checkpoint is written (what it
        saves, e.g. an HSS library, pairs itself with the checkpoint it precedes, so a
        kill between the two loses neither)."""

    @abc.abstractmethod
    def answer(self, programs: list[str]) -> str:
        """The run's answer among ``programs`` (what a tournament plays)."""

    @staticmethod
    def calls_done(out: Path) -> int:
        """Oracle calls a run directory's checkpoint holds (0 if none)."""
        return 0


DRIVERS: Registry[type[SelfPlayDriver]] = Registry(
    noun="self-play driver", group=ENTRY_POINT_GROUP, base=SelfPlayDriver,
    builtin_modules=BUILTIN_MODULES,
    check=partial(check_plugin_class, base=SelfPlayDriver, settings_base=DriverSettings,
                  noun="self-play driver"))
_REGISTRY = DRIVERS.entries


def register_driver(cls: type[SelfPlayDriver]) -> type[SelfPlayDriver]:
    """Class decorator: make ``cls`` available as ``--driver cls.name``."""
    return DRIVERS.register(cls)


def driver_names() -> list[str]:
    """Every driver's name: built-ins first, then installed plug-ins (not imported)."""
    return DRIVERS.names()


def driver_class(name: str) -> type[SelfPlayDriver]:
    """The driver called ``name``; ``ValueError`` naming the known ones if none is."""
    return DRIVERS.get(name)


def driver_setting_names() -> set[str]:
    """The settings of every loadable driver (keys a self-play config may carry)."""
    names: set[str] = set()
    for name in driver_names():
        try:
            names.update(f.name for f in setting_fields(driver_class(name).Settings))
        except ValueError:
            continue  # a broken plug-in: running it says why
    return names


def driver_settings_from(cls: type[SelfPlayDriver], values: Mapping[str, Any], *,
                         where: str) -> DriverSettings:
    """``cls.Settings`` from flat keys; a key of another driver is refused unless null."""
    own = {f.name for f in setting_fields(cls.Settings)}
    checked = {}
    for key, value in values.items():
        if key not in own:
            if value is None and key in driver_setting_names():
                continue
            raise ValueError(f"{where}: driver {cls.name} has no setting {key} "
                             f"(its settings: {', '.join(sorted(own)) or 'none'})")
        if value is None:
            continue
        try:
            checked[key] = check_setting(cls.Settings, key, value)
        except ValueError as err:
            raise ValueError(f"{where}: driver {cls.name}: {err}") from None
    try:
        return cls.Settings(**checked)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: driver {cls.name}: {err}") from None


CLOCK_FILE = "clock.json"
"""A run directory's CPU seconds so far, apart from its checkpoint: time differs between
runs, and the checkpoint of a resumed run equals the uninterrupted run's byte for byte."""


def read_cpu_seconds(out: Path | None) -> float:
    """CPU seconds a run directory's earlier processes used (0 if none recorded)."""
    import json

    if out is None or not (out / CLOCK_FILE).is_file():
        return 0.0
    try:
        return float(json.loads((out / CLOCK_FILE).read_text())["cpu_seconds"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{out / CLOCK_FILE}: not a self-play clock ({err})") from None


def write_cpu_seconds(out: Path | None, seconds: float) -> None:
    import json

    from games.files import write_atomically

    if out is not None:
        write_atomically(out / CLOCK_FILE, json.dumps({"cpu_seconds": round(seconds, 3)}) + "\n")
