"""Two-phase Naive Sampling over a combinatorial bandit (Ontañón 2017; seed 001).

A macro-arm V assigns one value to each variable (here: a behaviour feature).
Naive Sampling keeps one local bandit per variable and a global bandit over the
macro-arms tried so far. Each step, with probability ε0 it explores (builds a
new V from the local bandits, each ε_l-greedy) and otherwise exploits the global
bandit (ε_g-greedy). After ``switch_after`` steps the second phase's ε values
apply. Rewards are discounted by γ at every update, so recent evaluations weigh
more. ε is the probability of the exploring / random branch in each policy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class _Arm:
    total: float = 0.0
    count: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0


class NaiveSampling:
    def __init__(self, values: Sequence[Sequence[float]], seed: int = 0,
                 phase1: tuple[float, float, float] = (0.3, 0.3, 0.6),
                 phase2: tuple[float, float, float] = (0.9, 0.7, 0.9),
                 switch_after: int = 50, gamma: float = 0.95) -> None:
        if not values or any(len(v) == 0 for v in values):
            raise ValueError("every variable needs at least one value")
        self.values = [list(v) for v in values]
        self.rng = random.Random(seed)
        self.phase1, self.phase2 = phase1, phase2
        self.switch_after = switch_after
        self.gamma = gamma
        self.steps = 0
        self.local = [{v: _Arm() for v in vs} for vs in self.values]
        self.glob: dict[tuple, _Arm] = {}

    def epsilons(self) -> tuple[float, float, float]:
        return self.phase1 if self.steps < self.switch_after else self.phase2

    def _greedy(self, arms: dict, epsilon: float):
        keys = list(arms)
        if self.rng.random() < epsilon:
            return keys[self.rng.randrange(len(keys))]
        best = max(arms[k].mean for k in keys)
        return self.rng.choice([k for k in keys if arms[k].mean == best])

    def choose(self) -> tuple:
        eps0, eps_l, eps_g = self.epsilons()
        self.steps += 1
        if not self.glob or self.rng.random() < eps0:
            arm = tuple(self._greedy(local, eps_l) for local in self.local)
            self.glob.setdefault(arm, _Arm())
            return arm
        return self._greedy(self.glob, eps_g)

    def update(self, arm: tuple, reward: float) -> None:
        for arms in [self.glob, *self.local]:
            for a in arms.values():
                a.total *= self.gamma
                a.count *= self.gamma
        self.glob.setdefault(arm, _Arm())
        self.glob[arm].total += reward
        self.glob[arm].count += 1
        for local, value in zip(self.local, arm):
            local[value].total += reward
            local[value].count += 1

    def best(self) -> tuple:
        return max(self.glob, key=lambda a: self.glob[a].mean)
