"""Simulated annealing over program trees, exactly as seed 000 describes it.

Start from a random program (or a given one); a neighbour regrows a uniformly
chosen subtree; accept with min(1, exp(β(Ψ(p') − Ψ(p)) / T_j)), T_j = T1 / (1 + α·j);
when T < ε, restart from the best program while the budget lasts.
Defaults α = 0.9, β = 200, T1 = 100, ε = 1.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from deap import gp

from .dsl import DSL


@dataclass
class Budget:
    """Stop after ``seconds`` of wall time or ``evaluations`` fitness calls (either)."""

    seconds: float | None = None
    evaluations: int | None = None
    started: float = field(default_factory=time.perf_counter)
    used: int = 0

    def spent(self) -> bool:
        if self.seconds is not None and time.perf_counter() - self.started >= self.seconds:
            return True
        return self.evaluations is not None and self.used >= self.evaluations

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


@dataclass
class Evaluation:
    """One fitness call as the log records it."""

    seconds: float
    evaluations: int
    value: float
    best_value: float
    program: str
    best_program: str


class SimulatedAnnealing:
    def __init__(self, dsl: DSL, fitness: Callable[[gp.PrimitiveTree], float], seed: int,
                 alpha: float = 0.9, beta: float = 200.0, t1: float = 100.0,
                 epsilon: float = 1.0, neighbour_height: int = 4,
                 on_evaluation: Callable[[Evaluation], None] | None = None) -> None:
        self.dsl = dsl
        self.fitness = fitness
        self.rng = random.Random(seed)
        self.alpha, self.beta, self.t1, self.epsilon = alpha, beta, t1, epsilon
        self.neighbour_height = neighbour_height
        self.on_evaluation = on_evaluation
        self.best: gp.PrimitiveTree | None = None
        self.best_value = -math.inf

    def _evaluate(self, tree: gp.PrimitiveTree, budget: Budget) -> float:
        value = self.fitness(tree)
        budget.used += 1
        if value > self.best_value:
            self.best, self.best_value = tree, value
        if self.on_evaluation is not None:
            self.on_evaluation(Evaluation(budget.elapsed(), budget.used, value, self.best_value,
                                          self.dsl.to_text(tree), self.dsl.to_text(self.best)))
        return value

    def run(self, budget: Budget, initial: gp.PrimitiveTree | None = None
            ) -> tuple[gp.PrimitiveTree, float]:
        current = initial if initial is not None else self.dsl.random_program(self.rng)
        current_value = self._evaluate(current, budget)
        while not budget.spent():
            j = 1
            temperature = self.t1
            while temperature >= self.epsilon and not budget.spent():
                candidate = self.dsl.neighbour(current, self.rng, self.neighbour_height)
                value = self._evaluate(candidate, budget)
                delta = self.beta * (value - current_value) / temperature
                if delta >= 0 or self.rng.random() < math.exp(delta):
                    current, current_value = candidate, value
                temperature = self.t1 / (1 + self.alpha * j)
                j += 1
            current, current_value = self.best, self.best_value  # restart from the best
        return self.best, self.best_value
