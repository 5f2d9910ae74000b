"""MAP-Elites over programs with pyribs' archive / emitter / scheduler split.

``ProgramEmitter`` is a pyribs emitter whose ``ask`` returns program texts: random
programs while the archive is empty, then mutations of elites (our SA move:
regrow a uniformly chosen subtree, ``gp.variation.mutSubtree``) and, with
probability ``crossover``, typed one-point crossover of two elites
(``gp.variation.cxOnePoint``, the same in every process). Objective and measures
come from the same matches (``BehaviourWinRate``).
"""

from __future__ import annotations

import csv
import random
from functools import partial
from pathlib import Path

import numpy as np
from deap import gp
from ribs.emitters import EmitterBase
from ribs.schedulers import Scheduler

from gp.dsl import DSL
from gp.evaluator import Budget, BudgetSpent, Evaluator
from gp.metrics import PSI
from gp.simplify import simplified_text
from gp.variation import cxOnePoint, mutSubtree

from .archive import ProgramArchive
from .behaviour import BehaviourWinRate
from .resampling import PlainSampling, Resampling


class ProgramEmitter(EmitterBase):
    def __init__(self, archive, dsl: DSL, batch_size: int = 8, seed: int = 0,
                 crossover: float = 0.2) -> None:
        super().__init__(archive, solution_dim=(), bounds=None, lower_bounds=None,
                         upper_bounds=None)
        self.dsl = dsl
        self.batch_size = batch_size
        self.rng = random.Random(seed)
        self.crossover = crossover

    def _tree(self, text: str) -> gp.PrimitiveTree:
        return self.dsl.parse(text)

    def ask(self) -> np.ndarray:
        out = np.empty(self.batch_size, dtype=object)
        if self.archive.empty:
            for i in range(self.batch_size):
                out[i] = self.dsl.to_text(self.dsl.random_program(self.rng))
            return out
        parents = self.archive.sample_elites(2 * self.batch_size)["solution"]
        for i in range(self.batch_size):
            child = self._tree(parents[2 * i])
            if self.rng.random() < self.crossover:
                other = self._tree(parents[2 * i + 1])
                a, _ = cxOnePoint(gp.PrimitiveTree(child), gp.PrimitiveTree(other), self.rng)
                child = a if self.dsl.within_limits(a) else child
            child = mutSubtree(child, self.rng, dsl=self.dsl)
            out[i] = self.dsl.to_text(child)
        return out


def run_map_elites(archive: ProgramArchive, dsl: DSL, evaluate: BehaviourWinRate, seed: int,
                   out: Path, seconds: float | None = None, evaluations: int | None = None,
                   batch_size: int = 8, emitters: int = 2, progress=None,
                   resume: bool = False, emitter_list: list | None = None,
                   present=None, objective: str = PSI, resampling: Resampling | None = None
                   ) -> ProgramArchive:
    """Ask/evaluate/tell until the budget is spent.

    Every evaluation goes through ``gp.evaluator.Evaluator``, the one run log of
    synthesis and QD (``log.csv``, with each program's behaviour measures): with
    ``resume`` the run replays from it and goes on, losing no finished evaluation.
    ``stats.csv`` logs every iteration and ``archive.json`` is saved after each.
    The last batch of an evaluation budget may be cut short; the programs of it that
    were evaluated still enter the archive, ``stats.csv`` and the progress.
    ``emitter_list`` replaces the program emitters (a ``qd.vectors`` search: its
    solutions are texts too, ``dsl`` unused) and ``present`` how ``best.txt`` shows a
    solution. ``objective`` names the archive's objective in the log and ``best.txt``
    (Ψ, ``psi``, by default).
    ``resampling`` (``qd.resampling``; default plain) decides what the evaluator scores
    and what the scheduler adds to: its re-evaluations are evaluations like any other
    (budgeted, logged, replayed).
    """
    policy = resampling or PlainSampling()
    out.mkdir(parents=True, exist_ok=True)
    budget = Budget(seconds=seconds, evaluations=evaluations)
    evaluator = Evaluator({objective: policy.metric(evaluate)}, str, budget, out,
                          resume=resume, present=present or partial(simplified_text, dsl))
    target = policy.archive(archive.archive, evaluator.score_many)
    scheduler = Scheduler(target, emitter_list or [
        ProgramEmitter(archive.archive, dsl, batch_size, seed * 101 + i) for i in range(emitters)])
    with (out / "stats.csv").open("w", newline="") as fh:
        log = csv.writer(fh, lineterminator="\n")
        log.writerow(("seconds", "evaluations", "elites", "coverage", "qd_score", "best"))
        while True:
            texts = [str(program) for program in scheduler.ask()]
            room = len(texts) if evaluations is None else evaluations - budget.used
            try:
                results = evaluator.score_many(texts[:room])
            except BudgetSpent:
                break
            objectives = [r[0] for r in results]
            measures = [r[1] for r in results]
            cut = len(results) < len(texts)  # the budget ends inside this batch
            if not results:
                break
            try:
                if cut:
                    solutions = np.empty(len(results), dtype=object)
                    solutions[:] = texts[:len(results)]
                    target.add(solutions, np.array(objectives), np.array(measures))
                else:
                    scheduler.tell(np.array(objectives), np.array(measures))
            except BudgetSpent:  # a policy's re-evaluation found the budget spent
                cut = True
            stats = archive.stats()
            log.writerow((f"{evaluator.logged_seconds():.2f}", budget.used, stats["elites"],
                          f"{stats['coverage']:.4f}", f"{stats['qd_score']:.4f}",
                          f"{stats['best']:.4f}"))
            fh.flush()
            archive.save(out / "archive.json")
            if progress is not None:
                progress(budget.used, stats)
            if cut:
                break
    evaluator.close()
    archive.save(out / "archive.json")
    return archive
