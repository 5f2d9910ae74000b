"""Simulated annealing over program trees, exactly as seed 000 describes it.

Start from a random program (or a given one); a neighbour regrows a uniformly
chosen subtree; accept with min(1, exp(β(v(p') − v(p)) / T_j)), T_j = T1 / (1 + α·j);
when T < ε, restart from the best program while the budget lasts.
Defaults α = 0.9, β = 200, T1 = 100, ε = 1. Two behaviours of seed 000's
reference code, each a switch: with ``restart_metric`` (e.g. ``psi-fresh``) the
program a schedule restarts from is first measured again on fresh matches, and the
schedule starts from that value (the best stays the best value ever measured, as
there); with ``restart_fresh`` a schedule restarts from a new random program
while the best value is still 0 (in the reference's grammar most programs fail
and score 0).

Candidates need not be bare trees: UCT's rollouts anneal only the holes of a
partial program, so the neighbour function and ``tree_of`` are parameters.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from .evaluator import BudgetSpent, Evaluator


def _identity(candidate: Any) -> Any:
    return candidate


class SimulatedAnnealing:
    def __init__(self, evaluator: Evaluator, rng: random.Random, metric: str = "psi",
                 alpha: float = 0.9, beta: float = 200.0, t1: float = 100.0,
                 epsilon: float = 1.0, restart_metric: str | None = None,
                 restart_fresh: Callable[[random.Random], Any] | None = None) -> None:
        self.evaluator = evaluator
        self.rng = rng
        self.metric = metric
        self.restart_metric = restart_metric
        self.restart_fresh = restart_fresh
        self.alpha, self.beta, self.t1, self.epsilon = alpha, beta, t1, epsilon

    def temperature(self, j: int) -> float:
        return self.t1 / (1 + self.alpha * j)

    def run(self, initial: Any, neighbour: Callable[[Any, random.Random], Any],
            until: Callable[[], bool] | None = None, restart: bool = True,
            tree_of: Callable[[Any], Any] = _identity,
            on_improve: Callable[[Any, float], None] | None = None,
            initial_metric: str | None = None) -> tuple[Any, float]:
        """Anneal from ``initial``; returns the best candidate and its value.

        Ends when the evaluator's budget is spent, ``until()`` turns true, or (with
        ``restart=False``) after one cooling schedule. ``initial_metric`` measures
        ``initial`` by another metric (e.g. ``psi-fresh``: the reference's
        best-response search measures its start program again).
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
            current, current_value = initial, score(initial, initial_metric)
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
                if self.restart_fresh is not None and best_value <= 0:
                    current = self.restart_fresh(self.rng)
                    current_value = score(current)
                elif self.restart_metric is not None:  # the best, on fresh matches
                    current, current_value = best, score(best, self.restart_metric)
                else:
                    current, current_value = best, best_value
        except BudgetSpent:
            pass
        return best, best_value
