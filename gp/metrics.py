"""Named metrics: what a run maximises and what else its searches may ask for.

A run's evaluator scores programs by name. One metric is the *objective* (the value
the search maximises, tracked as "the best program" and written to ``best.txt``);
the others are extra metrics a method asks for (``Synthesizer.metrics``), e.g. the
cloning score a sketch search climbs. Some names are *logged columns*: each gets a
value column and a running-best column in ``log.csv``.

The built-in names: ``psi`` (Ψ, the win rate against the target), ``c`` (C, the
cloning score of a record), ``psi-fresh`` (Ψ on matches the program never played:
SA's restart re-measurement) and ``psi+c`` (Ψ with C breaking its ties). Whatever
the run's fitness (Ψ, Ψ+C, C alone), built-in runs log their objective as ``psi``
beside a ``c`` column, the format every existing log has. A user fitness is the
objective under its own name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

PSI = "psi"
CLONING = "c"
FRESH_PSI = "psi-fresh"
PSI_WITH_CLONING = "psi+c"
BUILTIN_FITNESSES = (PSI, PSI_WITH_CLONING, CLONING)
"""Fitness values a run config may name besides ``package.module:function``."""


@dataclass(frozen=True)
class Metrics:
    """One objective and named extra metrics.

    Args:
        objective: the name of the metric searches maximise.
        functions: name -> ``program -> value`` (or ``(value, measures)``); a function
            may have ``many(programs)`` (a batch) and ``remember(text, value)`` (told
            replayed values on resume).
        logged: names with their own value and best columns in the log, objective
            first (default: the objective alone).
    """

    objective: str
    functions: Mapping[str, Callable[[Any], Any]]
    logged: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.objective not in self.functions:
            raise ValueError(f"objective '{self.objective}' is not among the metrics "
                             f"({', '.join(self.functions)})")
        logged = self.logged or (self.objective,)
        if logged[0] != self.objective:
            logged = (self.objective,) + tuple(n for n in logged if n != self.objective)
        if len(set(logged)) != len(logged):
            raise ValueError(f"logged metric names repeat: {', '.join(logged)}")
        object.__setattr__(self, "logged", tuple(logged))

    @property
    def names(self) -> list[str]:
        return list(self.functions)

    def __getitem__(self, name: str) -> Callable[[Any], Any]:
        return self.functions[name]

    def __contains__(self, name: object) -> bool:
        return name in self.functions

    def renamed(self, objective: str) -> Metrics:
        """The same metrics with the objective under another name (an old log's)."""
        if objective == self.objective:
            return self
        functions = {(objective if n == self.objective else n): f
                     for n, f in self.functions.items()}
        logged = tuple(objective if n == self.objective else n for n in self.logged)
        return Metrics(objective, functions, logged)


def as_metrics(metrics: Metrics | Mapping[str, Callable[[Any], Any]]) -> Metrics:
    """A ``Metrics`` from a plain mapping too (objective ``psi`` if present, else the
    first; Ψ and C logged as every built-in log does)."""
    if isinstance(metrics, Metrics):
        return metrics
    functions = dict(metrics)
    if not functions:
        raise ValueError("an evaluator needs at least one metric")
    objective = PSI if PSI in functions else next(iter(functions))
    logged = (PSI, CLONING) if objective == PSI else (objective,)
    return Metrics(objective, functions, logged)
