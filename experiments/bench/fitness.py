"""Ψ evaluations per second (1000 matches each against GA): serial, pool, dask.

Run with ``make bench`` or ``stratsynth bench --fitness``. Each backend scores
the same set of programs (the GA program and random programs, every one a fresh
evaluation: the cache is cleared), so the figures compare like with like.
"""

from __future__ import annotations

import os
import random
import time

from games import load_game
from games.backends import DaskMap, PoolMap, SerialMap
from games.cantstop import glenn_aloi_player
from gp.cantstop_dsl import CANTSTOP_DSL, SketchStrategy
from gp.fitness import WinRate

PROGRAM_FILE = "experiments/programs/cantstop_ga.txt"


def _programs(n: int, seed: int) -> list:
    rng = random.Random(seed)
    with open(PROGRAM_FILE) as fh:
        ga = CANTSTOP_DSL.parse(fh.read())
    return [ga] + [CANTSTOP_DSL.random_program(rng) for _ in range(n - 1)]


def _rate(backend, programs, matches: int) -> float:
    fitness = WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                      matches=matches, seed=1, map=backend)
    fitness(programs[0])  # warm the workers
    fitness.cache.clear()
    started = time.perf_counter()
    for program in programs:
        fitness(program)
    return len(programs) / (time.perf_counter() - started)


def run_fitness_bench(programs: int = 12, matches: int = 1000, seed: int = 0,
                      workers: int = 0) -> None:
    workers = workers or os.cpu_count() or 1
    batch = _programs(programs, seed)
    print(f"Ψ evaluations per second ({matches} matches each vs GA, {programs} programs, "
          f"{workers} workers)")
    serial = _rate(SerialMap(), batch, matches)
    print(f"{'serial':<22} {serial:>8.2f} evals/s")
    for name, factory in (("multiprocess pool", lambda: PoolMap(workers)),
                          ("dask LocalCluster", lambda: DaskMap(workers))):
        with factory() as backend:
            rate = _rate(backend, batch, matches)
        print(f"{name:<22} {rate:>8.2f} evals/s   efficiency {rate / (serial * workers):.0%}")


if __name__ == "__main__":
    run_fitness_bench()
