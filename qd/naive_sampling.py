"""Two-phase Naive Sampling over a combinatorial bandit (Ontañón 2017; Aleixo 2023, §2.2.2).

A macro-arm V assigns one value to each variable (here: a behaviour feature).
Naive Sampling keeps one local bandit per variable and a global bandit over the
macro-arms seen so far. Each step the policy π0 either *explores* (builds a new V,
each variable's value chosen by its local ε-greedy policy πl) or *exploits* (picks a
macro-arm of the global bandit with the ε-greedy policy πg).

**ε convention (Ontañón's NaiveMCTS): every ε is the probability of the exploring
branch.** ε0: probability of building a new V from the local bandits (else the
global bandit is used); εl: probability that a variable's value is drawn uniformly
(else its best mean); εg: probability that a global arm is drawn uniformly (else the
best mean). NaiveMCTSNode.selectLeaf samples the global bandit when
``r.nextFloat() >= epsilon_0``, i.e. explores with probability ε0.

The reference values of the HSS code (ε0, εl, εg) = (0.3, 0.3, 0.6), then
(0.9, 0.7, 0.9), are probabilities of the *greedy* branch there (its
``random() < e0`` picks the exploit branch), and the dissertation says the first
phase is the more exploratory one. In our convention they are ``1 - value``:
``PHASE1 = (0.7, 0.7, 0.4)``, ``PHASE2 = (0.1, 0.3, 0.1)`` (the default).
``from_reference`` converts; ``LEGACY_PHASES`` are the reference numbers read as
exploring probabilities (what this module did before; the second phase then
explored more than the first).

Phase switch: Ontañón's TwoPhaseNaiveMCTS spends ``phase1_ratio`` (0.5) of the
budget in phase 1; the dissertation switches "after k iterations"; the reference
HSS code after a wall-clock time. ``phase(progress)`` supports all three
(``phase1_ratio`` of the caller's budget progress — the default —, ``switch_after``
steps, ``switch_seconds``).

Decay γ: before each choice (once statistics exist) every arm's mean μ is
multiplied by γ, local and global (the reference code's ``desconto``), so arms
evaluated recently weigh more than ones evaluated long ago (``decay="means"``, the
default). ``decay="weights"`` is the earlier behaviour: at every update all sums and
counts are multiplied by γ, a discounted average that leaves unvisited arms' means
unchanged.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

Epsilons = tuple[float, float, float]
REFERENCE_PHASES: tuple[Epsilons, Epsilons] = ((0.3, 0.3, 0.6), (0.9, 0.7, 0.9))
"""(ε0, εl, εg) of the reference HSS code, as probabilities of exploiting."""


def from_reference(exploit: Epsilons) -> Epsilons:
    """Greedy-branch probabilities (the reference code's) -> exploring probabilities."""
    return tuple(round(1.0 - e, 10) for e in exploit)  # type: ignore[return-value]


PHASE1: Epsilons = from_reference(REFERENCE_PHASES[0])  # (0.7, 0.7, 0.4)
PHASE2: Epsilons = from_reference(REFERENCE_PHASES[1])  # (0.1, 0.3, 0.1)
LEGACY_PHASES: tuple[Epsilons, Epsilons] = REFERENCE_PHASES
"""The reference numbers read as exploring probabilities (this module's old default)."""
DECAYS = ("means", "weights")


@dataclass
class _Arm:
    mean: float = 0.0
    count: float = 0.0  # with decay="weights": the discounted weight of the rewards
    total: float = 0.0  # with decay="weights": the discounted sum of the rewards

    def add(self, reward: float, decay: str) -> None:
        if decay == "weights":
            self.total += reward
            self.count += 1
            self.mean = self.total / self.count
        else:
            self.count += 1
            self.mean += (reward - self.mean) / self.count


class NaiveSampling:
    """``values[i]``: the values variable ``i`` may take. See the module doc for ε."""

    def __init__(self, values: Sequence[Sequence[float]], seed: int = 0,
                 phase1: Epsilons = PHASE1, phase2: Epsilons = PHASE2,
                 switch_after: int | None = None, switch_seconds: float | None = None,
                 phase1_ratio: float = 0.5, gamma: float = 0.95,
                 decay: str = "means") -> None:
        if not values or any(len(v) == 0 for v in values):
            raise ValueError("every variable needs at least one value")
        for eps in (*phase1, *phase2):
            if not 0.0 <= eps <= 1.0:
                raise ValueError(f"ε must be a probability, got {eps}")
        if decay not in DECAYS:
            raise ValueError(f"decay must be one of {DECAYS}, got '{decay}'")
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"γ must be in (0, 1], got {gamma}")
        self.values = [list(v) for v in values]
        self.rng = random.Random(seed)
        self.phase1, self.phase2 = tuple(phase1), tuple(phase2)
        self.switch_after, self.switch_seconds = switch_after, switch_seconds
        self.phase1_ratio = phase1_ratio
        self.gamma, self.decay = gamma, decay
        self.steps = 0
        self.started = time.perf_counter()
        self.local: list[dict[float, _Arm]] = [{v: _Arm() for v in vs} for vs in self.values]
        self.glob: dict[tuple, _Arm] = {}

    def phase(self, progress: float | None = None) -> int:
        """1 or 2: by steps (``switch_after``), else wall time (``switch_seconds``), else
        the fraction ``progress`` of the caller's budget against ``phase1_ratio``."""
        if self.switch_after is not None:
            return 1 if self.steps < self.switch_after else 2
        if self.switch_seconds is not None:
            return 1 if time.perf_counter() - self.started < self.switch_seconds else 2
        return 1 if progress is None or progress < self.phase1_ratio else 2

    def epsilons(self, progress: float | None = None) -> Epsilons:
        return self.phase1 if self.phase(progress) == 1 else self.phase2

    def _local_value(self, arms: dict[float, _Arm], epsilon: float) -> float:
        visited = [v for v, a in arms.items() if a.count > 0]
        if not visited or self.rng.random() < epsilon:
            return self.rng.choice(list(arms))
        best = max(arms[v].mean for v in visited)
        return self.rng.choice([v for v in visited if arms[v].mean == best])

    def _global_arm(self, epsilon: float) -> tuple:
        keys = list(self.glob)
        if self.rng.random() < epsilon:
            return keys[self.rng.randrange(len(keys))]
        best = max(self.glob[k].mean for k in keys)
        return self.rng.choice([k for k in keys if self.glob[k].mean == best])

    def choose(self, progress: float | None = None) -> tuple:
        """The next macro-arm V; ``progress`` in [0, 1] is how much of the caller's budget
        is used (for the ``phase1_ratio`` switch)."""
        eps0, eps_l, eps_g = self.epsilons(progress)
        self.steps += 1
        if self.decay == "means" and self.glob:
            self._decay_means()
        if not self.glob or self.rng.random() < eps0:
            return tuple(self._local_value(local, eps_l) for local in self.local)
        return self._global_arm(eps_g)

    def _decay_means(self) -> None:
        for arms in (self.glob, *self.local):
            for arm in arms.values():
                arm.mean *= self.gamma

    def update(self, arm: tuple, reward: float) -> None:
        """Credit ``reward`` to macro-arm ``arm`` (global) and to each of its values
        (local)."""
        if len(arm) != len(self.local):
            raise ValueError(f"arm {arm} has {len(arm)} values, expected {len(self.local)}")
        if self.decay == "weights":
            for arms in (self.glob, *self.local):
                for a in arms.values():
                    a.total *= self.gamma
                    a.count *= self.gamma
        self.glob.setdefault(tuple(arm), _Arm()).add(reward, self.decay)
        for local, value in zip(self.local, arm):
            if value not in local:
                raise ValueError(f"value {value} is not one of {list(local)}")
            local[value].add(reward, self.decay)

    def best(self) -> tuple:
        return max(self.glob, key=lambda a: self.glob[a].mean)

    def mean(self, arm: tuple) -> float:
        return self.glob[tuple(arm)].mean
