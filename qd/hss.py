"""Hierarchical Synthesis Search (Aleixo 2023, Algorithm 1) with a persistent library.

Level 1 chooses a feature vector V with two-phase Naive Sampling
(``qd.naive_sampling``: ε conventions and phases there). Level 2 starts a local
search (simulated annealing, one full cooling schedule by default) from the library
program whose features are nearest to V (Σ|F(p)[i] − V[i]|) and maximises U, ties
broken by similarity to V (per feature 1 − |a − b| / max(a, b, 1), averaged). Every
program the local search evaluated then updates level 1 at its own features and
enters the library, keyed by its text.
The library persists across calls (``save``/``load``) and can seed a search on
another map or against another opponent (transfer).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from games.files import write_atomically
from gp.evaluator import Budget, BudgetSpent, Evaluator
from gp.sa import SimulatedAnnealing

from .naive_sampling import LEGACY_PHASES, NaiveSampling


def similarity(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(1 - abs(x - y) / max(x, y, 1) for x, y in zip(a, b)) / len(a)


@dataclass
class LibraryEntry:
    """A program with the features and utility it was measured at; a program given
    without them (``features`` None) is measured by the next HSS call that uses the
    library."""

    program: str
    features: list[float] | None
    utility: float | None


@dataclass
class Library:
    entries: dict[str, LibraryEntry] = field(default_factory=dict)

    def add(self, program: str, features: Sequence[float], utility: float) -> None:
        self.entries[program] = LibraryEntry(program, list(features), utility)

    def add_unmeasured(self, program: str) -> None:
        """A start for local searches (e.g. a program synthesized elsewhere), measured
        against the target of the next HSS call that uses this library."""
        self.entries.setdefault(program, LibraryEntry(program, None, None))

    def unmeasured(self) -> list[LibraryEntry]:
        return [e for e in self.entries.values() if e.features is None]

    def nearest(self, target: Sequence[float], by: str = "distance") -> LibraryEntry | None:
        """The program whose features are closest to ``target``: least Σ|F(p)[i] − V[i]|
        (Algorithm 1, line 6; ``by="distance"``) or greatest ``similarity`` (the
        reference code's lookup; ``by="similarity"``); ties go to the higher utility,
        then to the earlier entry."""
        measured = [e for e in self.entries.values() if e.features is not None]
        if not measured:
            return None
        if by == "distance":
            def key(e: LibraryEntry):
                return (sum(abs(f - v) for f, v in zip(e.features, target)), -e.utility)
        elif by == "similarity":
            def key(e: LibraryEntry):
                return (-similarity(e.features, target), -e.utility)
        else:
            raise ValueError(f"library lookup must be 'distance' or 'similarity', got '{by}'")
        return min(measured, key=key)

    def save(self, path: str | Path) -> None:
        write_atomically(path, json.dumps([e.__dict__ for e in self.entries.values()]) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Library:
        try:
            items = json.loads(Path(path).read_text())
            return cls({e["program"]: LibraryEntry(**e) for e in items})
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not a program library (not text, UTF-8)") from None
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a program library ({err})") from None

    def __len__(self) -> int:
        return len(self.entries)


def cooling_steps(sa: SimulatedAnnealing) -> int:
    """Evaluations in one SA cooling schedule: the start, then one per temperature
    T_j = T1 / (1 + α·j) until T < ε (112 with the sketch-learning paper's α = 0.9, T1 = 100, ε =
    1)."""
    j = 1
    temperature = sa.t1
    while temperature >= sa.epsilon:
        temperature = sa.temperature(j)
        j += 1
    return j


UTILITY = "utility"
"""The local search's objective: U plus the tie-break by similarity to V."""

SCHEDULE_EVALUATIONS = cooling_steps(SimulatedAnnealing(None, None))
"""One cooling schedule of SA with its default constants: 112 evaluations."""

@dataclass(frozen=True)
class HSSVariant:
    """How an HSS implementation differs, as named parts.

    Args:
        name: the variant's name (``hss_variant`` in configs).
        bandit: makes the level-1 bandit from the levels and the seed.
        local_evaluations: the local search's length when no other is given (None:
            one full cooling schedule).
        update_as_it_goes: level 1 and the library learn from every evaluation as it
            happens (else from all of a local search's programs after it, lines 8-9).
    """

    name: str
    bandit: Callable[[list, int], NaiveSampling]
    local_evaluations: int | None = None
    update_as_it_goes: bool = False


def _published_bandit(levels: list, seed: int) -> NaiveSampling:
    return NaiveSampling(levels, seed)


def _legacy_bandit(levels: list, seed: int) -> NaiveSampling:
    return NaiveSampling(levels, seed, *LEGACY_PHASES, switch_after=50, decay="weights")


PUBLISHED = HSSVariant("published", _published_bandit)
"""Algorithm 1 as published (Aleixo 2023)."""

LEGACY = HSSVariant("legacy", _legacy_bandit, local_evaluations=20, update_as_it_goes=True)
"""The earlier implementation (see ``HSS``)."""

VARIANTS = {variant.name: variant for variant in (PUBLISHED, LEGACY)}

VARIANT_ALIASES = {"dissertation": "published"}
"""Former variant names (committed runs' ``config.json`` files record them)."""


def variant_name(name: str) -> str:
    """A variant's current name, given it or a former one."""
    return VARIANT_ALIASES.get(name, name)


class HSS:
    """Algorithm 1 of Aleixo (2023). ``evaluate(text) -> (utility, features)``; ``levels[i]``
    are the values feature ``i`` is snapped to for level 1.

    Level 2 (``local_search``): SA from the library program nearest to V, maximising
    U + ``tie_scale``·similarity(F(p), V). Its length: ``local_seconds`` (Algorithm 1's
    time limit; SA restarts from its best while time remains), else
    ``local_evaluations``, else — the default — one full cooling schedule
    (``cooling_steps``: 112 evaluations with the sketch-learning paper's constants, so T falls from
    100 to below 1). Then (lines 8-9) every program p' the local search evaluated
    updates level 1 at its own snapped features F(p') with U(p'), and enters the
    library.

    ``variant`` (an ``HSSVariant`` or its name): ``"legacy"`` is the earlier
    implementation: 20-evaluation local searches
    (T never falls below ≈5.5), ε values read as exploring probabilities
    (``LEGACY_PHASES``), a 50-step phase switch that short calls never reach, and γ as
    a discounted average (``decay="weights"``). ``bandit`` shares one level-1 bandit
    between calls (the reference code keeps its statistics for the whole run;
    Algorithm 1, line 2, starts each call with an empty T).
    """

    def __init__(self, dsl, evaluate: Callable[[str], tuple[float, list[float]]],
                 levels: Sequence[Sequence[float]], seed: int = 0,
                 library: Library | None = None, local_evaluations: int | None = None,
                 local_seconds: float | None = None, tie_scale: float = 1e-3,
                 variant: str | HSSVariant = "published",
                 bandit: NaiveSampling | None = None, lookup: str = "distance") -> None:
        if isinstance(variant, str):
            variant = variant_name(variant)
            if variant not in VARIANTS:
                raise ValueError(f"HSS variant must be one of {tuple(VARIANTS)}, "
                                 f"got '{variant}'")
            variant = VARIANTS[variant]
        self.dsl = dsl
        self.evaluate = evaluate
        self.levels = [list(v) for v in levels]
        self.rng = random.Random(seed)
        self.variant = variant
        self.bandit = bandit if bandit is not None else variant.bandit(self.levels, seed)
        self.library = library if library is not None else Library()
        if local_evaluations is None and local_seconds is None:
            local_evaluations = variant.local_evaluations
        self.local_evaluations = local_evaluations
        self.local_seconds = local_seconds
        self.tie_scale = tie_scale
        self.lookup = lookup
        self.best: tuple[float, str] | None = None
        self.evaluations = 0
        self.iterations: list[dict] = []

    def snap(self, features: Sequence[float]) -> tuple:
        return tuple(min(vals, key=lambda v: abs(v - f)) for vals, f in zip(self.levels, features))

    def _score(self, target: Sequence[float], evaluated: list):
        def fitness(tree) -> float:
            text = self.dsl.to_text(tree)
            utility, features = self.evaluate(text)
            self.evaluations += 1
            evaluated.append((text, list(features), utility))
            if self.variant.update_as_it_goes:
                self.library.add(text, features, utility)
                self.bandit.update(self.snap(features), utility)
            if self.best is None or utility > self.best[0]:
                self.best = (utility, text)
            return utility + self.tie_scale * similarity(features, target)
        return fitness

    def _local_budget(self, budget: Budget) -> tuple[Budget, bool]:
        """The local search's own budget inside ``budget``, and whether SA restarts
        within it."""
        if self.local_seconds is not None:
            return budget.child(seconds=self.local_seconds), True
        if self.local_evaluations is not None:
            return budget.child(evaluations=self.local_evaluations), True
        return budget.child(evaluations=SCHEDULE_EVALUATIONS), False

    def measure_library(self, budget: Budget) -> None:
        """Library programs given without features are measured first, against this
        call's target; each is one evaluation of the budget, updates level 1 and can
        be the call's best."""
        for entry in self.library.unmeasured():
            if budget.spent():
                raise BudgetSpent
            utility, features = self.evaluate(entry.program)
            budget.count()
            self.evaluations += 1
            entry.features, entry.utility = list(features), utility
            self.bandit.update(self.snap(features), utility)
            if self.best is None or utility > self.best[0]:
                self.best = (utility, entry.program)

    def step(self, budget: Budget) -> None:
        """One HSS iteration (Algorithm 1, lines 5-11)."""
        self.measure_library(budget)
        progress = _progress(budget)
        phase = self.bandit.phase(progress)
        target = self.bandit.choose(progress)
        nearest = self.library.nearest(target, by=self.lookup)
        start = (self.dsl.parse(nearest.program) if nearest is not None
                 else self.dsl.random_program(self.rng))
        evaluated: list[tuple[str, list[float], float]] = []
        local, restart = self._local_budget(budget)
        evaluator = Evaluator({UTILITY: self._score(target, evaluated)}, self.dsl.to_text, local)
        try:
            SimulatedAnnealing(evaluator, self.rng).run(start, self.dsl.neighbour,
                                                        restart=restart)
        finally:
            if not self.variant.update_as_it_goes:
                for text, features, utility in evaluated:  # lines 8-9
                    self.bandit.update(self.snap(features), utility)
                    self.library.add(text, features, utility)
            self.iterations.append({
                "target": list(target), "phase": phase,
                "start": nearest.program if nearest is not None else None,
                "evaluations": len(evaluated),
                "best": max((u for _, _, u in evaluated), default=None)})

    def run(self, budget: Budget) -> tuple[float, str]:
        try:
            while not budget.spent():
                self.step(budget)
        except BudgetSpent:
            pass
        if self.best is None:
            raise RuntimeError("HSS ran out of budget before evaluating any program")
        return self.best


def _progress(budget: Budget) -> float:
    """Fraction of ``budget`` used (evaluations or seconds, whichever is further)."""
    parts = [0.0]
    if budget.evaluations:
        parts.append(budget.used / budget.evaluations)
    if budget.seconds:
        parts.append(budget.elapsed() / budget.seconds)
    return min(1.0, max(parts))


def feature_levels(ranges: Sequence[tuple[float, float]], count: int = 5) -> list[list[float]]:
    """``count`` evenly spaced values per feature range (a level grid for level 1)."""
    return [[lo + (hi - lo) * i / (count - 1) for i in range(count)] for lo, hi in ranges]

