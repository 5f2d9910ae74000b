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
import json
import random
import time
from pathlib import Path

import numpy as np
from deap import gp
from ribs.emitters import EmitterBase
from ribs.schedulers import Scheduler

from gp.dsl import DSL
from gp.fitness import WinRate, score_of
from gp.variation import cxOnePoint, mutSubtree

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
                a, _ = cxOnePoint(gp.PrimitiveTree(child), gp.PrimitiveTree(other), self.rng)
                child = a if self.dsl.within_limits(a) else child
            child = mutSubtree(child, self.rng, dsl=self.dsl)
            out[i] = self.dsl.to_text(child)
        return out


class BehaviourWinRate:
    """(win rate against ``target``, behaviour features) from the same matches
    (``WinRate``'s, with the features averaged over them)."""

    def __init__(self, game, target, strategy_class, features: dict, names, matches: int,
                 seed: int, map=None) -> None:
        self.names = list(names)
        self.psi = WinRate(game, target, strategy_class, matches=matches, seed=seed, map=map,
                           behavior={n: features[n] for n in names})
        self.cache: dict[str, tuple[float, list[float]]] = {}

    def __call__(self, text: str) -> tuple[float, list[float]]:
        return self.many([text])[0]

    def many(self, texts: list[str]) -> list[tuple[float, list[float]]]:
        """A batch's matches through one ``map`` call (``WinRate.play_many``), so
        every worker stays busy across the batch's programs."""
        fresh = [t for t in dict.fromkeys(texts) if t not in self.cache]
        for text, summary in zip(fresh, self.psi.play_many(fresh)):
            means = summary.behavior(0)
            self.cache[text] = (score_of(self.psi.game, summary), [means[n] for n in self.names])
        return [self.cache[t] for t in texts]


EVALUATIONS_LOG = "evaluations.jsonl"


def _replayable(out: Path, evaluate: BehaviourWinRate) -> tuple[int, float]:
    """Load a killed run's evaluation log into the cache; (evaluations, seconds) logged.

    The run is deterministic given its seed and the values it sees, so replaying
    it from the start with logged values answered from the cache rebuilds the
    same archive; a line cut by the kill is dropped and evaluated again.
    """
    path = out / EVALUATIONS_LOG
    if not path.exists():
        return 0, 0.0
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1] if "\n" in text else ""
        path.write_text(text)
    count, seconds = 0, 0.0
    for line in text.splitlines():
        row = json.loads(line)
        evaluate.cache[row["program"]] = (row["objective"], row["measures"])
        count, seconds = count + 1, row["seconds"]
    return count, seconds


def run_map_elites(archive: ProgramArchive, dsl: DSL, evaluate: BehaviourWinRate, seed: int,
                   out: Path, seconds: float | None = None, evaluations: int | None = None,
                   batch_size: int = 8, emitters: int = 2, progress=None,
                   resume: bool = False) -> ProgramArchive:
    """Ask/evaluate/tell until the budget is spent.

    ``stats.csv`` logs every iteration, ``archive.json`` is saved after each, and
    ``evaluations.jsonl`` holds every evaluation (the checkpoint): with ``resume``
    the run replays from it and goes on, losing no finished evaluation.
    """
    scheduler = Scheduler(archive.archive, [
        ProgramEmitter(archive.archive, dsl, batch_size, seed * 101 + i) for i in range(emitters)])
    out.mkdir(parents=True, exist_ok=True)
    logged, offset = _replayable(out, evaluate) if resume else (0, 0.0)
    started = time.perf_counter()
    done = 0

    def elapsed() -> float:
        return offset + time.perf_counter() - started if done >= logged else offset

    mode = "a" if resume and logged else "w"
    with (out / "stats.csv").open("w", newline="") as fh, \
            (out / EVALUATIONS_LOG).open(mode) as evals:
        log = csv.writer(fh, lineterminator="\n")
        log.writerow(("seconds", "evaluations", "elites", "coverage", "qd_score", "best"))
        while True:
            if evaluations is not None and done >= evaluations:
                break
            if seconds is not None and done >= logged and elapsed() >= seconds:
                break
            programs = scheduler.ask()
            texts = [str(program) for program in programs]
            results = evaluate.many(texts)
            for k, text in enumerate(texts):
                replayed = done + k < logged
                if not replayed:
                    evals.write(json.dumps({"seconds": round(elapsed(), 3), "program": text,
                                            "objective": results[k][0],
                                            "measures": list(results[k][1])}) + "\n")
                    evals.flush()
            scheduler.tell(np.array([r[0] for r in results]), np.array([r[1] for r in results]))
            done += len(programs)
            stats = archive.stats()
            log.writerow((f"{elapsed():.2f}", done, stats["elites"],
                          f"{stats['coverage']:.4f}", f"{stats['qd_score']:.4f}",
                          f"{stats['best']:.4f}"))
            fh.flush()
            archive.save(out / "archive.json")
            if progress is not None:
                progress(done, stats)
    return archive
