"""All synthesizers behind one interface: ``SYNTHESIZERS[name](job)``.

A ``SynthesisJob`` carries the DSL, the evaluator (which owns the budget, the
log and the best programs), the seed, an optional initial program and the
method's options. Methods:

* ``sa``: simulated annealing on Ψ (seed 000).
* ``uct``: UCT over partial programs on Ψ (seed 000).
* ``gp`` / ``gp-simple``: DEAP's ``eaMuPlusLambda`` / ``eaSimple`` on Ψ.
* ``sketch-sa`` / ``sketch-uct``: a sketch-search on the cloning score C for a
  share of the budget (evaluating Ψ whenever C improves), then the best-response
  search on Ψ from the best-Ψ program (SA: its initial program; UCT: its branch
  inserted in the tree). ``sketch-sa`` with the option ``sketch_schedule =
  "reference"`` runs the reference code's schedule instead
  (``run_reference_sketch_sa``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .dsl import DSL
from .evaluator import BudgetSpent, Evaluator
from .evolution import GPSettings, run_gp
from .sa import SimulatedAnnealing
from .uct import UCT
from .variation import mutSubtree

SKETCH_SHARE = {"sketch-sa": 1 / 48, "sketch-uct": 10 / 48}
"""Seed 000: the sketch-search gets 1 h (SA) or 10 h (UCT) of a 48 h run."""


@dataclass
class SynthesisJob:
    dsl: DSL
    evaluator: Evaluator
    seed: int
    initial: Any = None
    options: dict = field(default_factory=dict)


def run_sa(job: SynthesisJob) -> None:
    rng = random.Random(job.seed)
    start = job.initial if job.initial is not None else job.dsl.random_program(rng)
    fresh = job.dsl.random_program if job.options.get("restart_random") else None
    SimulatedAnnealing(job.evaluator, rng, restart_metric=job.options.get("restart_metric"),
                       restart_fresh=fresh).run(start, partial(mutSubtree, dsl=job.dsl))


def run_uct(job: SynthesisJob) -> None:
    uct = UCT(job.dsl, job.evaluator, random.Random(job.seed),
              rollout_evaluations=job.options.get("rollout_evaluations"))
    if job.initial is not None:
        try:
            uct.insert_branch(job.initial, job.evaluator.score(job.initial, "psi"))
        except BudgetSpent:
            return
    uct.run()


def _gp(algorithm: str) -> Callable[[SynthesisJob], None]:
    def run(job: SynthesisJob) -> None:
        keys = ("mu", "lambda_", "cxpb", "mutpb", "tournament", "mutation_height")
        settings = GPSettings(algorithm=algorithm,
                              **{k: job.options[k] for k in keys if k in job.options})
        run_gp(job.dsl, job.evaluator, job.seed, settings, job.initial)
    return run


def _sketch_until(job: SynthesisJob, method: str) -> Callable[[], bool]:
    ev = job.evaluator
    budget = ev.budget
    share = job.options.get("sketch_share")
    share = float(SKETCH_SHARE[method] if share is None else share)
    if budget.seconds is not None:
        limit = share * budget.seconds
        return lambda: ev.logged_seconds() >= limit
    limit_evals = int(share * budget.evaluations)
    return lambda: budget.used >= limit_evals


def _also_psi(job: SynthesisJob) -> Callable[[Any, float], None]:
    return lambda tree, value: job.evaluator.score(tree, "psi")


REFERENCE_SKETCH_SEARCHES = 5
REFERENCE_SKETCH_SCHEDULES = 10
"""Seed 000's reference Sketch-SA (``sketch_simulated_annealing.py``, ``search``): 5
independent sketch searches of at most ``max_sa_runs = 10`` SA schedules each."""


def run_sketch_sa(job: SynthesisJob) -> None:
    if job.options.get("sketch_schedule", "text") == "reference":
        run_reference_sketch_sa(job)
        return
    rng = random.Random(job.seed)
    ev = job.evaluator
    start = job.initial if job.initial is not None else job.dsl.random_program(rng)
    SimulatedAnnealing(ev, rng, metric="c").run(
        start, partial(mutSubtree, dsl=job.dsl), until=_sketch_until(job, "sketch-sa"),
        on_improve=_also_psi(job))
    if ev.best_psi_tree is None or ev.budget.spent():
        return
    SimulatedAnnealing(ev, rng, restart_metric=job.options.get("restart_metric")).run(
        ev.best_psi_tree, partial(mutSubtree, dsl=job.dsl))


def run_reference_sketch_sa(job: SynthesisJob) -> None:
    """Sketch-SA as seed 000's reference code schedules it (not as its text does).

    Sketch search: ``REFERENCE_SKETCH_SEARCHES`` independent searches on C, each
    from a random program (or the initial one) through at most
    ``REFERENCE_SKETCH_SCHEDULES`` SA schedules; a schedule restarts from the
    search's best program, or from a new random one while the best C is 0
    (``search_sa``). Ψ is measured only for each search's best-C program. The
    best-response search then anneals on Ψ from the best of those, each schedule
    restarting from the previous schedule's best (``single_iteration`` calls of
    ``search_sa``), which is our SA's restart; with ``restart_metric`` the start
    program of every schedule, the first included, is measured on fresh matches,
    as the reference (which caches nothing) does. A ``sketch_share`` option, if
    given, also ends the sketch search.
    """
    rng = random.Random(job.seed)
    ev = job.evaluator
    neighbour = partial(mutSubtree, dsl=job.dsl)
    stop = (_sketch_until(job, "sketch-sa") if job.options.get("sketch_share") is not None
            else (lambda: False))
    best, best_psi = None, -math.inf
    try:
        for _ in range(REFERENCE_SKETCH_SEARCHES):
            if stop() or ev.budget.spent():
                break
            program = _reference_sketch_search(job, rng, neighbour, stop)
            if program is None:
                continue
            psi = ev.score(program, "psi")
            if best is None or psi > best_psi:
                best, best_psi = program, psi
    except BudgetSpent:
        return
    if best is None or ev.budget.spent():
        return
    restart_metric = job.options.get("restart_metric")
    SimulatedAnnealing(ev, rng, restart_metric=restart_metric).run(
        best, neighbour, initial_metric=restart_metric)


def _reference_sketch_search(job: SynthesisJob, rng: random.Random, neighbour,
                             stop: Callable[[], bool]):
    """One sketch search of the reference (``search_sa`` on C): its best-C program."""
    ev = job.evaluator
    sa = SimulatedAnnealing(ev, rng, metric="c")
    start = job.initial if job.initial is not None else job.dsl.random_program(rng)
    best, best_c = None, -math.inf
    for _ in range(REFERENCE_SKETCH_SCHEDULES):
        program, value = sa.run(start, neighbour, until=stop, restart=False)
        if value > best_c:
            best, best_c = program, value
        if stop() or ev.budget.spent():
            break
        if job.initial is not None:
            start = job.initial
        elif best_c == 0:
            start = job.dsl.random_program(rng)
        else:
            start = best
    return best


def run_sketch_uct(job: SynthesisJob) -> None:
    rng = random.Random(job.seed)
    ev = job.evaluator
    until = _sketch_until(job, "sketch-uct")
    sketch = UCT(job.dsl, ev, rng, metric="c", on_improve=_also_psi(job),
                 rollout_evaluations=job.options.get("rollout_evaluations"))
    sketch.evaluator = _Limited(ev, until)
    sketch.run()
    if ev.best_psi_tree is None or ev.budget.spent():
        return
    response = UCT(job.dsl, ev, rng, rollout_evaluations=job.options.get("rollout_evaluations"))
    response.insert_branch(ev.best_psi_tree, ev.best_psi)
    response.run()


class _Limited:
    """An evaluator view that reports the budget spent once ``until()`` holds."""

    def __init__(self, evaluator: Evaluator, until: Callable[[], bool]) -> None:
        self._ev = evaluator
        self._until = until
        self.budget = evaluator.budget

    def score(self, tree, metric="psi"):
        if self._until():
            raise BudgetSpent()
        return self._ev.score(tree, metric)


SYNTHESIZERS: dict[str, Callable[[SynthesisJob], None]] = {
    "sa": run_sa,
    "uct": run_uct,
    "gp": _gp("mu+lambda"),
    "gp-simple": _gp("simple"),
    "sketch-sa": run_sketch_sa,
    "sketch-uct": run_sketch_uct,
}
