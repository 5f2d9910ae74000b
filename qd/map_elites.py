"""MAP-Elites over programs with pyribs' archive / emitter / scheduler split.

``ProgramEmitter`` is a pyribs emitter whose ``ask`` returns program texts: random
programs while the archive is empty, then mutations of elites (our SA move:
regrow a uniformly chosen subtree) and, with probability ``crossover``, DEAP's
typed one-point crossover of two elites. Objective and measures come from the
same matches (``BehaviourWinRate``).
"""

from __future__ import annotations

import csv
import random
import time
from pathlib import Path

import numpy as np
from deap import gp
from ribs.emitters import EmitterBase
from ribs.schedulers import Scheduler

from games.match import play_matches
from gp.dsl import DSL
from gp.fitness import program_seed, score_of

from .archive import ProgramArchive


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
                state = random.getstate()
                random.seed(self.rng.random())  # DEAP's crossover draws from `random`
                a, _ = gp.cxOnePoint(gp.PrimitiveTree(child), gp.PrimitiveTree(other))
                random.setstate(state)
                child = a if self.dsl.within_limits(a) else child
            child = self.dsl.neighbour(child, self.rng)
            out[i] = self.dsl.to_text(child)
        return out


class BehaviourWinRate:
    """(win rate against ``target``, behaviour features) from the same matches."""

    def __init__(self, game, target, strategy_class, features: dict, names, matches: int,
                 seed: int, map=None) -> None:
        self.game, self.target, self.cls = game, target, strategy_class
        self.behavior = {n: features[n] for n in names}
        self.names = list(names)
        self.matches, self.seed, self.map = matches, seed, map
        self.cache: dict[str, tuple[float, list[float]]] = {}

    def __call__(self, text: str) -> tuple[float, list[float]]:
        if text not in self.cache:
            player = self.cls(text)
            summary = play_matches(self.game, (player, self.target), self.matches,
                                   program_seed(self.seed, text), map=self.map,
                                   behavior=self.behavior)
            means = summary.behavior(0)
            self.cache[text] = (score_of(self.game, summary),
                                [means[n] for n in self.names])
        return self.cache[text]


def run_map_elites(archive: ProgramArchive, dsl: DSL, evaluate: BehaviourWinRate, seed: int,
                   out: Path, seconds: float | None = None, evaluations: int | None = None,
                   batch_size: int = 8, emitters: int = 2, progress=None) -> ProgramArchive:
    """Ask/evaluate/tell until the budget is spent; ``stats.csv`` logs every iteration."""
    scheduler = Scheduler(archive.archive, [
        ProgramEmitter(archive.archive, dsl, batch_size, seed * 101 + i) for i in range(emitters)])
    started = time.perf_counter()
    done = 0
    out.mkdir(parents=True, exist_ok=True)
    with (out / "stats.csv").open("w", newline="") as fh:
        log = csv.writer(fh, lineterminator="\n")
        log.writerow(("seconds", "evaluations", "elites", "coverage", "qd_score", "best"))
        while True:
            if evaluations is not None and done >= evaluations:
                break
            if seconds is not None and time.perf_counter() - started >= seconds:
                break
            programs = scheduler.ask()
            results = [evaluate(str(p)) for p in programs]
            scheduler.tell(np.array([r[0] for r in results]), np.array([r[1] for r in results]))
            done += len(programs)
            stats = archive.stats()
            log.writerow((f"{time.perf_counter() - started:.2f}", done, stats["elites"],
                          f"{stats['coverage']:.4f}", f"{stats['qd_score']:.4f}",
                          f"{stats['best']:.4f}"))
            fh.flush()
            archive.save(out / "archive.json")
            if progress is not None:
                progress(done, stats)
    return archive
