"""Hierarchical Synthesis Search (Aleixo 2023, Algorithm 1) with a persistent library.

Level 1 chooses a feature vector V with two-phase Naive Sampling
(``qd.naive_sampling``: ε conventions and phases there). Level 2 starts a local
search from the library program whose features are nearest to V (Σ|F(p)[i] − V[i]|).
By default it is Sketch-SA, the dissertation's program search: a sketch phase (SA on
the similarity of F(p) to V, per feature 1 − |a − b| / max(a, b, 1), averaged), then a
best-response phase (SA from the sketch phase's best-U program, maximising U with ties
broken by similarity to V); ``local_search="sa"`` is the best-response phase alone
(what every earlier HSS run used). Every program the local search evaluated then
updates level 1 at its own features and enters the library, keyed by its text.
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

    def save(self, path: str | Path, follows: str | None = None) -> None:
        """A list of entries; with ``follows`` (a run's checkpoint digest, see
        ``experiments.selfplay``) an object ``{"follows", "entries"}``."""
        entries = [e.__dict__ for e in self.entries.values()]
        saved = entries if follows is None else {"follows": follows, "entries": entries}
        write_atomically(path, json.dumps(saved) + "\n")

    @staticmethod
    def follows_of(path: str | Path) -> str | None:
        """The checkpoint digest a saved library names (None for a plain list)."""
        try:
            saved = json.loads(Path(path).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        return saved.get("follows") if isinstance(saved, dict) else None

    @classmethod
    def load(cls, path: str | Path) -> Library:
        try:
            items = json.loads(Path(path).read_text())
            if isinstance(items, dict):
                items = items["entries"]
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

SKETCH = "similarity"
"""The sketch phase's objective (Sketch-SA): the similarity of F(p) to V."""

LOCAL_SEARCHES = ("sketch-sa", "sa")
"""Level 2's local searches: Sketch-SA (a sketch phase on the similarity to V, then SA
on U from its best program) or plain SA on U."""

SCHEDULE_EVALUATIONS = cooling_steps(SimulatedAnnealing(None, None))
"""One cooling schedule of SA with its default constants: 112 evaluations."""

@dataclass(frozen=True)
class HSSVariant:
    """How an HSS implementation differs, as named parts.

    Args:
        name: the variant's name (``hss_variant`` in configs).
        bandit: makes the level-1 bandit from the levels and the seed.
        local_evaluations: the local search's length when no other is given (None:
            one full cooling schedule per phase).
        local_search: level 2's search when no other is given (``LOCAL_SEARCHES``).
        update_as_it_goes: level 1 and the library learn from every evaluation as it
            happens (else from all of a local search's programs after it, lines 8-9).
    """

    name: str
    bandit: Callable[[list, int], NaiveSampling]
    local_evaluations: int | None = None
    update_as_it_goes: bool = False
    local_search: str = "sketch-sa"


def _published_bandit(levels: list, seed: int) -> NaiveSampling:
    return NaiveSampling(levels, seed)


def _legacy_bandit(levels: list, seed: int) -> NaiveSampling:
    return NaiveSampling(levels, seed, *LEGACY_PHASES, switch_after=50, decay="weights")


PUBLISHED = HSSVariant("published", _published_bandit)
"""Algorithm 1 as published (Aleixo 2023)."""

LEGACY = HSSVariant("legacy", _legacy_bandit, local_evaluations=20, update_as_it_goes=True,
                    local_search="sa")
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

    Level 2 (Algorithm 1, line 7), from the library program nearest to V.
    ``local_search="sketch-sa"`` (the default of the published variant): a sketch phase,
    SA maximising similarity(F(p), V) (every program it evaluates is measured for U
    too, from the same matches), then a best-response phase, SA from the sketch phase's
    best program by U (ties by similarity) maximising U + ``tie_scale``·similarity(F(p),
    V). ``local_search="sa"``: the best-response phase alone, from the library program.
    Each phase's length: half of ``local_seconds`` (Algorithm 1's time limit; SA
    restarts from its best while time remains) or of ``local_evaluations`` (all of it
    for ``sa``), else — the default — one full cooling schedule (``cooling_steps``: 112
    evaluations with the sketch-learning paper's constants, so T falls from 100 to
    below 1). Then (lines 8-9) every program p' the local search evaluated updates
    level 1 at its own snapped features F(p') with U(p'), and enters the library.

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
                 bandit: NaiveSampling | None = None, lookup: str = "distance",
                 local_search: str | None = None) -> None:
        if isinstance(variant, str):
            variant = variant_name(variant)
            if variant not in VARIANTS:
                raise ValueError(f"HSS variant must be one of {tuple(VARIANTS)}, "
                                 f"got '{variant}'")
            variant = VARIANTS[variant]
        local_search = variant.local_search if local_search is None else local_search
        if local_search not in LOCAL_SEARCHES:
            raise ValueError(f"HSS local search must be one of {LOCAL_SEARCHES}, "
                             f"got '{local_search}'")
        self.local_search = local_search
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

    def _score(self, target: Sequence[float], evaluated: list, sketch: bool = False):
        """The local search's fitness: U + tie·similarity to ``target`` (or, in the
        sketch phase, the similarity alone); every evaluation is recorded."""
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
            if sketch:
                return similarity(features, target)
            return utility + self.tie_scale * similarity(features, target)
        return fitness

    def _local_budget(self, budget: Budget, phase: str = "all") -> tuple[Budget, bool]:
        """A local search phase's own budget inside ``budget``, and whether SA restarts
        within it: ``all`` of the local search's length (plain SA), or the ``sketch`` or
        ``response`` half of it (Sketch-SA); one cooling schedule each by default."""
        if self.local_seconds is not None:
            share = 1.0 if phase == "all" else 0.5
            return budget.child(seconds=self.local_seconds * share), True
        if self.local_evaluations is not None:
            sketch = max(1, self.local_evaluations // 2)
            length = {"all": self.local_evaluations, "sketch": sketch,
                      "response": self.local_evaluations - sketch}[phase]
            return budget.child(evaluations=length), True
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
        sketched = 0
        try:
            if self.local_search == "sketch-sa":
                start = self._sketch(start, target, evaluated, budget)
                sketched = len(evaluated)
            local, restart = self._local_budget(
                budget, "response" if self.local_search == "sketch-sa" else "all")
            if local.evaluations != 0:
                evaluator = Evaluator({UTILITY: self._score(target, evaluated)},
                                      self.dsl.to_text, local)
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
                **({"sketch_evaluations": sketched} if self.local_search == "sketch-sa"
                   else {}),
                "best": max((u for _, _, u in evaluated), default=None)})

    def _sketch(self, start, target: Sequence[float], evaluated: list, budget: Budget):
        """Sketch-SA's sketch phase: SA on the similarity of F(p) to ``target`` from
        ``start``; the program it evaluated with the greatest U (ties by similarity),
        where the best-response phase starts."""
        local, restart = self._local_budget(budget, "sketch")
        evaluator = Evaluator({SKETCH: self._score(target, evaluated, sketch=True)},
                              self.dsl.to_text, local)
        SimulatedAnnealing(evaluator, self.rng).run(start, self.dsl.neighbour, restart=restart)
        if not evaluated:
            return start
        best = max(evaluated, key=lambda e: e[2] + self.tie_scale * similarity(e[1], target))
        return self.dsl.parse(best[0])

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

