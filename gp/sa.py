"""Simulated annealing over program trees.

Start from a random program (or a given one); a neighbour regrows a uniformly
chosen subtree; accept with min(1, exp(β(v(p') − v(p)) / T_j)), T_j = T1 / (1 + α·j);
when T < ε, a restart rule picks where the next schedule starts, while the budget
lasts. Defaults α = 0.9, β = 200, T1 = 100, ε = 1.

Restart rules (``restart=``) are small objects, so that variants compose instead of
switching inside the loop:

* ``RestartFromBest``: the next schedule starts from the best program and its value;
* ``RestartRemeasured(metric)``: from the best program, measured again by ``metric``
  (e.g. Ψ on matches never played before: a best kept among noisy values is biased
  upwards), optionally measuring the very first start program that way too;
* ``RestartRandomWhileZero(then)``: from a new random program while the best value is
  still 0 (a grammar where most programs fail and score 0), else as ``then``.

Candidates need not be bare trees: UCT's rollouts anneal only the holes of a
partial program, so the neighbour function and ``tree_of`` are parameters.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .evaluator import BudgetSpent, Evaluator

Score = Callable[..., float]
"""``score(candidate, metric=None)``: the annealer's scoring (tracks the best)."""


class RestartRule(Protocol):
    def start(self, initial: Any, score: Score) -> float:
        """Value of the first schedule's start program."""

    def __call__(self, best: Any, best_value: float, score: Score,
                 rng: random.Random) -> tuple[Any, float]:
        """Start program and value of the next schedule."""


@dataclass(frozen=True)
class RestartFromBest:
    def start(self, initial: Any, score: Score) -> float:
        return score(initial)

    def __call__(self, best, best_value, score, rng):
        return best, best_value


@dataclass(frozen=True)
class RestartRemeasured:
    """From the best program, measured again by ``metric`` (the best stays the best
    value ever measured); ``measure_start``: the first start program too."""

    metric: str
    measure_start: bool = False

    def start(self, initial: Any, score: Score) -> float:
        return score(initial, self.metric if self.measure_start else None)

    def __call__(self, best, best_value, score, rng):
        return best, score(best, self.metric)


@dataclass(frozen=True)
class RestartRandomWhileZero:
    """From ``program(rng)`` (a new random program) while the best value is <= 0."""

    program: Callable[[random.Random], Any]
    then: RestartRule = field(default_factory=RestartFromBest)

    def start(self, initial: Any, score: Score) -> float:
        return self.then.start(initial, score)

    def __call__(self, best, best_value, score, rng):
        if best_value <= 0:
            current = self.program(rng)
            return current, score(current)
        return self.then(best, best_value, score, rng)


def _identity(candidate: Any) -> Any:
    return candidate


class SimulatedAnnealing:
    """The annealer.

    Args:
        evaluator: scores candidates (``tree_of(candidate)``).
        rng: the search's random stream.
        metric: what to maximise; None is the evaluator's objective.
        alpha, beta, t1, epsilon: the cooling schedule and acceptance scale.
        restart: where each schedule after the first starts (``RestartFromBest``).
    """

    def __init__(self, evaluator: Evaluator | None, rng: random.Random | None, *,
                 metric: str | None = None, alpha: float = 0.9, beta: float = 200.0,
                 t1: float = 100.0, epsilon: float = 1.0,
                 restart: RestartRule | None = None) -> None:
        self.evaluator = evaluator
        self.rng = rng
        self.metric = metric
        self.restart = restart or RestartFromBest()
        self.alpha, self.beta, self.t1, self.epsilon = alpha, beta, t1, epsilon

    def temperature(self, j: int) -> float:
        return self.t1 / (1 + self.alpha * j)

    def run(self, initial: Any, neighbour: Callable[[Any, random.Random], Any],
            until: Callable[[], bool] | None = None, restart: bool = True,
            tree_of: Callable[[Any], Any] = _identity,
            on_improve: Callable[[Any, float], None] | None = None) -> tuple[Any, float]:
        """Anneal from ``initial``; returns the best candidate and its value.

        Ends when the evaluator's budget is spent, ``until()`` turns true, or (with
        ``restart=False``) after one cooling schedule.
        """
        best, best_value = initial, -math.inf
        stop = until or (lambda: False)

        def score(candidate, metric=None):
            nonlocal best, best_value
            value = self.evaluator.score(tree_of(candidate), metric or self.metric)
            if value > best_value:
                best, best_value = candidate, value
                if on_improve is not None:
                    on_improve(candidate, value)
            return value

        try:
            current, current_value = initial, self.restart.start(initial, score)
            while not stop():
                j = 1
                temperature = self.t1
                while temperature >= self.epsilon and not stop():
                    candidate = neighbour(current, self.rng)
                    value = score(candidate)
                    delta = self.beta * (value - current_value) / temperature
                    if delta >= 0 or self.rng.random() < math.exp(delta):
                        current, current_value = candidate, value
                    temperature = self.temperature(j)
                    j += 1
                if not restart:
                    break
                current, current_value = self.restart(best, best_value, score, self.rng)
        except BudgetSpent:
            pass
        return best, best_value
