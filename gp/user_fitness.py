"""A user's fitness function, named ``package.module:function``, as a run's objective.

The function is called as ``function(strategy, game=game, seed=seed)``: ``strategy``
is the program as a player (callable ``state -> action``, ``.text`` its program
text), ``game`` the game object, ``seed`` derived from the run seed and the program
text. Higher is better. Values are cached by program text.

Programs are scored through the run's ``map`` (serial, process pool, dask), like Ψ, so
a population keeps every worker busy; what crosses processes is the function (pickled
by reference: a module-level function or a ``functools.partial`` of one), the game and
the players (pickled by program text).

A failing evaluation is contained: an exception, a time-out (``time_limit`` seconds per
evaluation), None, NaN or a non-number scores the program ``failure_value`` (-inf:
worse than any number) and is logged (logger ``stratsynth.fitness`` and the run's
``failures.log``); with ``on_failure="stop"`` the run stops instead, with one line
naming the function, the program and the cause.
"""

from __future__ import annotations

import importlib
import logging
import math
import numbers
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from .fitness import program_seed, uncached

log = logging.getLogger("stratsynth.fitness")

USER_FITNESS_SIGNATURE = "function(strategy, *, game, seed) -> float"
ON_FAILURE = ("score", "stop")


class FitnessFailed(RuntimeError):
    """A user fitness failed on a program and the run was set to stop on failures."""


class EvaluationTimeout(Exception):
    """An evaluation ran past its time limit."""


@dataclass(frozen=True)
class Outcome:
    """What one call of the function gave: a number, or why not."""

    value: float | None
    error: str | None = None


def load_function(spec: str) -> Callable:
    """Import ``package.module:function``; errors say which part is wrong."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"fitness '{spec}' must look like package.module:function")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"fitness '{spec}': cannot import {module_name} ({err})") from None
    except (Exception, SystemExit) as err:  # the module fails as it loads: name it
        cause = (str(err).strip().splitlines() or [""])[0]
        raise ValueError(f"fitness '{spec}': importing {module_name} raised "
                         f"{type(err).__name__}" + (f": {cause}" if cause else "")) from None
    function = getattr(module, attr, None)
    if not callable(function):
        raise ValueError(f"fitness '{spec}': {module_name} has no function {attr}")
    return function


def function_name(function: Callable) -> str:
    """The name a function's values are logged under (a partial: its function's)."""
    while isinstance(function, partial):
        function = function.func
    return getattr(function, "__name__", None) or type(function).__name__


def _describe(function: Callable) -> str:
    while isinstance(function, partial):
        function = function.func
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", None) or function_name(function)
    return f"{module}:{name}" if module else name


def _alarm(seconds: float, call: Callable[[], Any]) -> Any:
    """``call()`` stopped after ``seconds``: by a timer signal in a process's main
    thread; elsewhere (e.g. a dask worker thread) it runs in a helper thread that is
    abandoned when late (a thread cannot be killed; its result is discarded)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def expire(signum, frame):
            raise EvaluationTimeout()

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    result: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(call())
        except BaseException as err:  # reported to the caller
            errors.append(err)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise EvaluationTimeout()
    if errors:
        raise errors[0]
    return result[0]


def call_fitness(function: Callable, game: Any, time_limit: float | None,
                 job: tuple[Any, int]) -> Outcome:
    """One evaluation, in whatever process the ``map`` runs it: never raises."""
    player, seed = job
    try:
        if time_limit is None:
            value = function(player, game=game, seed=seed)
        else:
            value = _alarm(time_limit, partial(function, player, game=game, seed=seed))
    except EvaluationTimeout:
        return Outcome(None, f"took longer than {time_limit:g} s")
    except (Exception, SystemExit) as err:  # sys.exit() in a fitness ends no run
        cause = (str(err).strip().splitlines() or [""])[0]
        return Outcome(None, f"{type(err).__name__}: {cause}" if cause
                       else type(err).__name__)
    if value is None:
        return Outcome(None, "returned None")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return Outcome(None, f"returned {type(value).__name__} {value!r:.60}, not a number")
    value = float(value)
    if math.isnan(value):
        return Outcome(None, "returned NaN")
    return Outcome(value)


class UserFitness:
    """A user's fitness as a metric: ``program -> value``, ``many(programs)`` in one map.

    Args:
        function: the function, or its ``package.module:function`` name.
        game: the game object given to it.
        strategy_class: makes a player of a program.
        seed: the run seed (each program's seed derives from it and the program text).
        map: the run's backend (None: in this process).
        on_failure: ``score`` (the program scores ``failure_value``, logged) or ``stop``.
        failure_value: the value of a failed evaluation.
        time_limit: seconds one evaluation may take (None: no limit).
        failure_log: a file to append failed evaluations to.
        name: the name values are logged and reported under (default: the function's).
    """

    def __init__(self, function: Callable | str, *, game: Any, strategy_class: Any,
                 seed: int = 0, map: Callable | None = None,
                 on_failure: Literal["score", "stop"] = "score",
                 failure_value: float = -math.inf, time_limit: float | None = None,
                 failure_log: str | Path | None = None, name: str | None = None) -> None:
        if on_failure not in ON_FAILURE:
            raise ValueError(f"fitness on_failure must be one of {', '.join(ON_FAILURE)}, "
                             f"got {on_failure!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"fitness time_limit must be > 0 seconds, got {time_limit!r}")
        self.spec = function if isinstance(function, str) else _describe(function)
        self.function = load_function(function) if isinstance(function, str) else function
        if not callable(self.function):
            raise ValueError(f"fitness {self.spec!r} is not callable")
        self.name = name or function_name(self.function)
        self.game = game
        self.strategy_class = strategy_class
        self.seed = seed
        self.map = map
        self.on_failure = on_failure
        self.failure_value = float(failure_value)
        self.time_limit = time_limit
        self.failure_log = failure_log
        self.failures = 0
        self.cache: dict[str, float] = {}

    def __call__(self, program: Any) -> float:
        return self.many([program])[0]

    def many(self, programs: list) -> list[float]:
        players = [self.strategy_class(program) for program in programs]
        fresh = uncached(players, self.cache)
        if fresh:
            jobs = [(player, program_seed(self.seed, text)) for text, player in fresh.items()]
            call = partial(call_fitness, self.function, self.game, self.time_limit)
            outcomes = self.map(call, jobs) if self.map is not None else [call(j) for j in jobs]
            for text, outcome in zip(fresh, outcomes):
                self.cache[text] = self._value(text, outcome)
        return [self.cache[player.text] for player in players]

    def _value(self, text: str, outcome: Outcome) -> float:
        if outcome.error is None:
            return outcome.value
        one_line = text.replace("\n", " | ")
        if self.on_failure == "stop":
            raise FitnessFailed(f"fitness {self.spec} failed ({outcome.error}) on program: "
                                f"{one_line}")
        self.failures += 1
        log.info("%s = %s: the fitness %s failed (%s): %s", self.name, self.failure_value,
                 self.spec, outcome.error, one_line)
        if self.failure_log is not None:
            with open(self.failure_log, "a") as file:
                file.write(f"{self.name}\tfitness {self.spec} failed\t{outcome.error}\t"
                           f"{one_line}\n")
        return self.failure_value

    def remember(self, text: str, value: Any) -> None:
        """A replayed value (resume): later calls for the program answer it from cache."""
        self.cache[text] = float(value[0] if isinstance(value, tuple) else value)
