"""Hierarchical Synthesis Search (seed 001, Algorithm 1) with a persistent library.

Level 1 chooses a feature vector V with two-phase Naive Sampling. Level 2 starts
a local search (simulated annealing) from the library program whose features
are nearest to V (Σ|F(p)[i] − V[i]|) and maximises U, ties broken by similarity
to V (per feature 1 − |a − b| / max(a, b, 1), averaged). Every program evaluated
enters the library, keyed by its features; level 1 is updated with U of each.
The library persists across calls (``save``/``load``) and can seed a search on
another map or against another opponent (transfer).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gp.evaluator import Budget, BudgetSpent, Evaluator
from gp.sa import SimulatedAnnealing

from .naive_sampling import NaiveSampling


def similarity(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(1 - abs(x - y) / max(x, y, 1) for x, y in zip(a, b)) / len(a)


@dataclass
class LibraryEntry:
    program: str
    features: list[float]
    utility: float


@dataclass
class Library:
    entries: dict[str, LibraryEntry] = field(default_factory=dict)

    def add(self, program: str, features: Sequence[float], utility: float) -> None:
        self.entries[program] = LibraryEntry(program, list(features), utility)

    def nearest(self, target: Sequence[float]) -> LibraryEntry | None:
        if not self.entries:
            return None
        return min(self.entries.values(),
                   key=lambda e: (sum(abs(f - v) for f, v in zip(e.features, target)),
                                  -e.utility))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps([e.__dict__ for e in self.entries.values()]) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Library:
        try:
            items = json.loads(Path(path).read_text())
            return cls({e["program"]: LibraryEntry(**e) for e in items})
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a program library ({err})") from None

    def __len__(self) -> int:
        return len(self.entries)


class HSS:
    """``evaluate(text) -> (utility, features)``; ``snap`` maps features to level values."""

    def __init__(self, dsl, evaluate: Callable[[str], tuple[float, list[float]]],
                 levels: Sequence[Sequence[float]], seed: int = 0,
                 library: Library | None = None, local_evaluations: int = 20,
                 tie_scale: float = 1e-3) -> None:
        self.dsl = dsl
        self.evaluate = evaluate
        self.levels = [list(v) for v in levels]
        self.rng = random.Random(seed)
        self.bandit = NaiveSampling(self.levels, seed)
        self.library = library if library is not None else Library()
        self.local_evaluations = local_evaluations
        self.tie_scale = tie_scale
        self.best: tuple[float, str] | None = None
        self.evaluations = 0

    def snap(self, features: Sequence[float]) -> tuple:
        return tuple(min(vals, key=lambda v: abs(v - f)) for vals, f in zip(self.levels, features))

    def _score(self, target: Sequence[float]):
        def fitness(tree) -> float:
            text = self.dsl.to_text(tree)
            utility, features = self.evaluate(text)
            self.evaluations += 1
            self.library.add(text, features, utility)
            self.bandit.update(self.snap(features), utility)
            if self.best is None or utility > self.best[0]:
                self.best = (utility, text)
            return utility + self.tie_scale * similarity(features, target)
        return fitness

    def step(self, budget: Budget) -> None:
        """One HSS iteration: choose V, start from the nearest program, search locally."""
        target = self.bandit.choose()
        nearest = self.library.nearest(target)
        start = (self.dsl.parse(nearest.program) if nearest is not None
                 else self.dsl.random_program(self.rng))
        local = Budget(evaluations=self.local_evaluations)
        evaluator = Evaluator({"psi": self._score(target)}, self.dsl.to_text, local)
        used = budget.used

        def outer_spent() -> bool:
            budget.used = used + local.used
            return budget.spent()

        SimulatedAnnealing(evaluator, self.rng).run(start, self.dsl.neighbour,
                                                    until=outer_spent)
        budget.used = used + local.used

    def run(self, budget: Budget) -> tuple[float, str]:
        try:
            while not budget.spent():
                self.step(budget)
        except BudgetSpent:
            pass
        if self.best is None:
            raise RuntimeError("HSS ran out of budget before evaluating any program")
        return self.best


def feature_levels(ranges: Sequence[tuple[float, float]], count: int = 5) -> list[list[float]]:
    """``count`` evenly spaced values per feature range (a level grid for level 1)."""
    return [[lo + (hi - lo) * i / (count - 1) for i in range(count)] for lo, hi in ranges]

