"""How MAP-Elites turns evaluations into archive entries: its resampling policy.

A policy (``stratsynth qd --resample NAME``) decides two things for a run:

* ``metric(evaluate)``: what the run's evaluator scores on each call. ``plain``
  scores a program once (a repeat answers the same value); ``adaptive`` draws a
  fresh sample on every call (``SampleCounter``: the k-th call for a solution is its
  k-th sample), so re-evaluations are new information.
* ``archive(archive, sample)``: what pyribs' ``Scheduler`` adds the batch to. ``plain``
  adds to the grid as it is (one evaluation decides); ``adaptive`` puts
  ``AdaptiveSamplingArchive`` in front of it, whose ``add`` runs a contest per
  solution and may ask ``sample`` for more evaluations.

Every evaluation, re-evaluations included, goes through the run's
``gp.evaluator.Evaluator``: counted in the budget, logged in ``log.csv`` and
replayed on resume, so an adaptive run resumes after a kill as a plain one does.

A policy is a class with a ``name``, a keyword-only constructor (its settings) and
the two methods above, registered with ``register_resampling`` (or, from another
package, an entry point in the group ``stratsynth.qd_resampling``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import numpy as np

from gp.registry import Registry

ENTRY_POINT_GROUP = "stratsynth.qd_resampling"

Result = tuple[float, list[float]]
"""One evaluation: (objective, behaviour measures)."""


class Resampling:
    """A resampling policy; the base class is plain MAP-Elites (one evaluation each)."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def metric(self, evaluate: Any) -> Any:
        """What the evaluator scores: here the run's metric itself."""
        return evaluate

    def archive(self, archive: Any, sample: Callable[[list[str]], list[Result]]) -> Any:
        """What the scheduler adds to: here the pyribs archive itself."""
        return archive


def _check_resampling_class(cls: Any) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Resampling)) or not cls.name:
        raise TypeError(f"{cls!r} is not a named Resampling subclass")


RESAMPLINGS: Registry[type[Resampling]] = Registry(
    noun="resampling", group=ENTRY_POINT_GROUP, base=Resampling, check=_check_resampling_class)
_REGISTRY = RESAMPLINGS.entries


def register_resampling(cls: type[Resampling]) -> type[Resampling]:
    """Class decorator: make ``cls`` available as ``--resample cls.name``."""
    return RESAMPLINGS.register(cls)


def resampling_names() -> list[str]:
    """Built-in policies first, then installed plug-ins (not imported)."""
    return RESAMPLINGS.names()


def resampling_class(name: str) -> type[Resampling]:
    """The policy called ``name``; ``ValueError`` naming the known ones if none is."""
    return RESAMPLINGS.get(name)


def make_resampling(name: str, **settings: Any) -> Resampling:
    """The policy ``name`` with the given settings (None: the policy's default)."""
    cls = resampling_class(name)
    given = {k: v for k, v in settings.items() if v is not None}
    try:
        return cls(**given)
    except TypeError:
        raise ValueError(f"resampling '{name}' takes no setting(s) "
                         f"{', '.join(sorted(given))}") from None


@register_resampling
class PlainSampling(Resampling):
    """MAP-Elites as published: one evaluation per solution decides its cell and place."""

    name = "plain"
    summary = "one evaluation per solution (plain MAP-Elites)"


class SampleCounter:
    """The k-th call for a solution text answers its k-th sample (k = 0: the run
    metric's own evaluation, the one a plain run sees).

    Why: a re-evaluation must be fresh matches, and a resumed run must draw the same
    ones. The count is kept per text and ``remember`` (the evaluator's replay) counts
    logged calls, so the k-th call stays the k-th after a kill.

    Args:
        metric: a metric with ``sample_many(requests)``, ``requests`` a list of
            ``(text, k)``, returning one ``(objective, measures)`` per request.
    """

    def __init__(self, metric: Any) -> None:
        if not callable(getattr(metric, "sample_many", None)):
            raise ValueError(f"{type(metric).__name__} cannot draw fresh samples of a "
                             "solution (it has no sample_many), so it cannot be resampled")
        self.metric = metric
        self.counts: dict[str, int] = {}

    def __call__(self, text: str) -> Result:
        return self.many([text])[0]

    def many(self, texts: Sequence[str]) -> list[Result]:
        requests = []
        for text in map(str, texts):
            k = self.counts.get(text, 0)
            self.counts[text] = k + 1
            requests.append((text, k))
        return list(self.metric.sample_many(requests))

    def remember(self, text: str, result: Any) -> None:
        self.counts[text] = self.counts.get(text, 0) + 1


class Samples:
    """All samples of one solution, as running sums: its mean objective and measures."""

    __slots__ = ("n", "objective", "measures")

    def __init__(self, dims: int) -> None:
        self.n = 0
        self.objective = 0.0
        self.measures = np.zeros(dims)

    def add(self, objective: float, measures: Sequence[float]) -> None:
        self.n += 1
        self.objective += float(objective)
        self.measures = self.measures + np.asarray(measures, dtype=float)

    @property
    def mean(self) -> float:
        return self.objective / self.n

    @property
    def mean_measures(self) -> np.ndarray:
        return self.measures / self.n


class AdaptiveSamplingArchive:
    """A pyribs archive in front of another: ``add`` runs the adaptive-sampling
    contest for each solution, and the inner archive holds every elite at its mean.

    The contest of a challenger x' with one new sample:

    1. its cell is the one of its **mean** measures; an empty cell takes it;
    2. the cell's incumbent x is **re-evaluated once** (it is challenged); if its mean
       measures now fall in another cell it moves there (see 5) and x' faces what is
       left;
    3. x' is **sampled again while its mean is better than x's and it has fewer samples
       than x**; if its mean measures leave the cell, the contest follows it to the new
       cell (``drift="follow"``, back to 1; a cell it already left drops it) or x' is
       dropped (``drift="drop"``);
    4. x' takes the cell if its mean is better and it has at least x's samples (or
       ``max_samples``); else it is dropped (its samples are kept: if a later mutation
       asks for it again, it starts from them);
    5. an elite whose re-evaluated mean leaves its cell is re-inserted at its new
       cell by its mean: it takes that cell if empty or if its mean beats the
       elite there, else it is dropped.

    "Better" is a strictly higher mean (``ties="incumbent"``) or a mean at least as
    high (``ties="challenger"``). A solution proposed again while it is an elite adds
    its new sample to that elite (rule 5 applies).

    Args:
        archive: the pyribs archive that stores the elites (a ``GridArchive`` or
            ``CVTArchive``); emitters read it as usual.
        sample: evaluates solution texts once more each (``Evaluator.score_many``
            over a ``SampleCounter``): one fresh ``(objective, measures)`` per text.
        max_samples: most samples of one solution; an elite with that many is not
            re-evaluated and a challenger with that many may take its cell. None: no cap.
        drift: what happens to a challenger whose mean measures leave the contested cell.
        ties: who keeps a cell on equal means.
    """

    def __init__(self, *, archive: Any, sample: Callable[[list[str]], list[Result]],
                 max_samples: int | None = None, drift: Literal["follow", "drop"] = "follow",
                 ties: Literal["incumbent", "challenger"] = "incumbent") -> None:
        if max_samples is not None and max_samples < 1:
            raise ValueError(f"max_samples must be at least 1, got {max_samples}")
        if drift not in ("follow", "drop"):
            raise ValueError(f"drift must be 'follow' or 'drop', got {drift!r}")
        if ties not in ("incumbent", "challenger"):
            raise ValueError(f"ties must be 'incumbent' or 'challenger', got {ties!r}")
        self.inner = archive
        self.sample = sample
        self.max_samples = max_samples
        self.drift = drift
        self.ties = ties
        self.store: dict[str, Samples] = {}
        self.cells: dict[int, str] = {}   # cell index -> elite text
        self.where: dict[str, int] = {}   # elite text -> cell index
        self.resamples = 0                # evaluations beyond a solution's first

    def __getattr__(self, name: str) -> Any:  # everything else is the inner archive's
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    @property
    def empty(self) -> bool:
        return not self.cells

    # -- the contest -----------------------------------------------------------------------

    def cell_of(self, text: str) -> int:
        return int(self.inner.index_of_single(self.store[text].mean_measures))

    def better(self, a: str, b: str) -> bool:
        """Is ``a``'s mean better than ``b``'s (the tie rule decides equal means)?"""
        ma, mb = self.store[a].mean, self.store[b].mean
        return ma > mb or (self.ties == "challenger" and ma == mb)

    def can_sample(self, text: str) -> bool:
        return self.max_samples is None or self.store[text].n < self.max_samples

    def resample(self, text: str) -> None:
        objective, measures = self.sample([text])[0]
        self.store[text].add(objective, measures)
        self.resamples += 1

    def record(self, text: str, objective: float, measures: Sequence[float]) -> None:
        samples = self.store.get(text)
        if samples is None:
            samples = self.store[text] = Samples(len(measures))
        samples.add(objective, measures)

    def relocate(self, elite: str) -> bool:
        """Rule 5 for ``elite`` after a new sample; True if it left its cell."""
        old, new = self.where[elite], self.cell_of(elite)
        if new == old:
            return False
        del self.cells[old], self.where[elite]
        other = self.cells.get(new)
        if other is None or self.better(elite, other):
            if other is not None:
                del self.where[other]
            self.cells[new], self.where[elite] = elite, new
        return True

    def place(self, text: str) -> int:
        """Run the contest for ``text`` (its samples recorded); pyribs' add status:
        2 a new cell, 1 an occupied cell taken, 0 not added."""
        if text in self.where:
            self.relocate(text)
            return 0
        cell, left = self.cell_of(text), set()
        while True:
            incumbent = self.cells.get(cell)
            if incumbent is None:
                self.cells[cell], self.where[text] = text, cell
                return 2
            if self.can_sample(incumbent):
                self.resample(incumbent)
                if self.relocate(incumbent):
                    continue  # the incumbent left: x' faces what is there now
            moved = False
            while (self.better(text, incumbent) and self.store[text].n < self.store[incumbent].n
                   and self.can_sample(text)):
                self.resample(text)
                now = self.cell_of(text)
                if now != cell:
                    left.add(cell)
                    if self.drift == "drop" or now in left:
                        return 0
                    cell, moved = now, True
                    break
            if moved:
                continue
            n, m = self.store[text].n, self.store[incumbent].n
            if self.better(text, incumbent) and (n >= m or not self.can_sample(text)):
                del self.where[incumbent]
                self.cells[cell], self.where[text] = text, cell
                return 1
            return 0

    # -- the pyribs archive interface ------------------------------------------------------

    def add(self, solution, objective, measures, **fields) -> dict[str, np.ndarray]:
        """Contest each solution in order; the inner archive then holds the elites at
        their means. A ``BudgetSpent`` from a re-evaluation ends the batch there (the
        archive stays consistent)."""
        status = np.zeros(len(solution), dtype=np.int32)
        try:
            for i, (text, value, ms) in enumerate(zip(solution, objective, measures)):
                text = str(text)
                self.record(text, float(value), [float(m) for m in ms])
                status[i] = self.place(text)
        finally:
            self.sync()
        return {"status": status, "value": np.zeros(len(solution))}

    def add_single(self, solution, objective, measures, **fields) -> dict[str, Any]:
        info = self.add([solution], [objective], [measures])
        return {name: values[0] for name, values in info.items()}

    def sync(self) -> None:
        """The inner archive: exactly the elites, each at its mean objective and measures."""
        self.inner.clear()
        if not self.cells:
            return
        texts = [self.cells[c] for c in sorted(self.cells)]
        solutions = np.empty(len(texts), dtype=object)
        solutions[:] = texts
        self.inner.add(solutions, np.array([self.store[t].mean for t in texts]),
                       np.array([self.store[t].mean_measures for t in texts]))

    def samples_of(self, text: str) -> int:
        """How many samples a solution has (0: never evaluated)."""
        samples = self.store.get(text)
        return 0 if samples is None else samples.n


@register_resampling
class AdaptiveSampling(Resampling):
    """MAP-Elites with adaptive sampling: incumbents re-evaluated when challenged,
    challengers sampled until worse or as often as the incumbent, cells from mean
    measures (``AdaptiveSamplingArchive``).

    Args:
        max_samples: most samples of one solution (None: no cap).
        drift: a challenger whose mean measures leave the contested cell: ``follow``
            (the contest moves with it) or ``drop``.
        ties: who keeps a cell on equal means: ``incumbent`` or ``challenger``.
    """

    name = "adaptive"
    summary = ("incumbents re-evaluated when challenged, challengers sampled until worse "
               "or as often, cells from mean measures")

    def __init__(self, *, max_samples: int | None = None,
                 drift: Literal["follow", "drop"] = "follow",
                 ties: Literal["incumbent", "challenger"] = "incumbent") -> None:
        self.max_samples, self.drift, self.ties = max_samples, drift, ties

    def metric(self, evaluate: Any) -> SampleCounter:
        return SampleCounter(evaluate)

    def archive(self, archive: Any, sample: Callable[[list[str]], list[Result]]
                ) -> AdaptiveSamplingArchive:
        return AdaptiveSamplingArchive(archive=archive, sample=sample,
                                       max_samples=self.max_samples, drift=self.drift,
                                       ties=self.ties)
