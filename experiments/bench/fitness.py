"""Ψ evaluations per second (1000 matches each against GA): serial, pool, dask.

Run with ``make bench`` or ``stratsynth bench --fitness`` (which first compares
the reference and fast engines on one core, ``experiments.bench.fast_fitness``;
Ψ here runs on ``WinRate``'s default, the fast engine). Each backend scores
the same set of programs (the GA program and random programs, every one a fresh
evaluation: the cache is cleared), so the figures compare like with like.

Why rounds: on this shared 2-core machine one backend's rate moves by tens of
percent within a minute (the same serial batch measured 1.93 and then 1.33
evals/s in one process). Measuring each backend once, one after the other, lets
that drift pass for parallel (in)efficiency. So every backend is measured in
every round, in an order rotated from round to round, and efficiency is the
median of the per-round ratios parallel / (workers × serial of the same round).

The ceiling line is what the machine itself allows: whole evaluations, one per
worker, with no splitting of an evaluation at all (``workers`` independent
serial evaluations at once). Splitting one evaluation across workers cannot beat it.
The "whole batch" lines score all the programs in one call (``WinRate.many``),
as GP scores a population and MAP-Elites a batch: one barrier per batch instead
of one per evaluation. SA and UCT score one program at a time (each step needs
the last value), so their rate is the per-evaluation line.

Why a serial baseline in its own process: the in-process serial line shares its
process with the dask client and the LocalCluster's scheduler (their event loop
runs in a thread of this process). In session 5 a one-worker dask cluster scored
114% of that in-process serial rate, which a clean baseline cannot allow. So the
efficiencies divide by the serial rate of whole evaluations in a one-process
pool, a process with no event loop in it; the in-process line is still printed.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

from games import load_game
from games.backends import DaskMap, PoolMap, SerialMap
from games.cantstop import glenn_aloi_player
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

PROGRAM_FILE = "experiments/programs/cantstop_ga.txt"


def _programs(n: int, seed: int) -> list:
    rng = random.Random(seed)
    with open(PROGRAM_FILE) as fh:
        ga = CANTSTOP_DSL.parse(fh.read())
    return [ga] + [CANTSTOP_DSL.random_program(rng) for _ in range(n - 1)]


def _fitness(backend, matches: int) -> WinRate:
    return WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                   matches=matches, seed=1, map=backend)


def _rate(backend, programs, matches: int) -> float:
    """Evaluations/s with each evaluation's matches split across ``backend``."""
    fitness = _fitness(backend, matches)
    started = time.perf_counter()
    for program in programs:
        fitness(program)
    return len(programs) / (time.perf_counter() - started)


def _batch_rate(backend, programs, matches: int) -> float:
    """Evaluations/s with the whole batch scored at once (``WinRate.many``, as GP
    scores a population and MAP-Elites a batch): one barrier per batch."""
    fitness = _fitness(backend, matches)
    started = time.perf_counter()
    fitness.many(programs)
    return len(programs) / (time.perf_counter() - started)


def _serial_value(job: tuple) -> float:
    program_text, matches = job
    return _fitness(None, matches)(program_text)


def _ceiling_rate(pool: PoolMap, programs, matches: int) -> float:
    """Evaluations/s with whole evaluations farmed out, one per worker."""
    jobs = [(CANTSTOP_DSL.to_text(program), matches) for program in programs]
    started = time.perf_counter()
    pool(_serial_value, jobs)
    return len(programs) / (time.perf_counter() - started)


def measure_in_rounds(measures: dict[str, Callable[[], float]],
                      rounds: int) -> dict[str, list[float]]:
    """Every measure once per round, in an order rotated from round to round."""
    names = list(measures)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            rates[name].append(measures[name]())
        print(f"round {r + 1}: " + ", ".join(f"{name} {rates[name][-1]:.2f}"
                                             for name in names), flush=True)
    return rates


BASELINE = "serial (own process)"


def run_fitness_bench(programs: int = 12, matches: int = 1000, seed: int = 0,
                      workers: int = 0, rounds: int = 3) -> dict[str, list[float]]:
    """Print per-round rates and median efficiencies; return the rates per backend."""
    workers = workers or os.cpu_count() or 1
    batch = _programs(programs, seed)
    print(f"Ψ evaluations per second ({matches} matches each vs GA, {programs} programs, "
          f"{workers} workers, {rounds} rounds in rotated order)")
    serial = SerialMap()
    with PoolMap(1) as solo, PoolMap(workers) as pool, DaskMap(workers) as dask:
        measures: dict[str, Callable[[], float]] = {
            BASELINE: lambda: _ceiling_rate(solo, batch, matches),
            "serial (in this process)": lambda: _rate(serial, batch, matches),
            "multiprocess pool": lambda: _rate(pool, batch, matches),
            "dask LocalCluster": lambda: _rate(dask, batch, matches),
            "pool, whole batch": lambda: _batch_rate(pool, batch, matches),
            "dask, whole batch": lambda: _batch_rate(dask, batch, matches),
            "ceiling (1 eval/worker)": lambda: _ceiling_rate(pool, batch, matches),
        }
        for backend in (pool, dask):  # start the workers before any clock runs
            _rate(backend, batch[:1], matches)
        rates = measure_in_rounds(measures, rounds)
        names = list(measures)
    print(f"{'backend':<24} {'median evals/s':>14} {'median efficiency':>18}")
    for name in names:
        line = f"{name:<24} {statistics.median(rates[name]):>14.2f}"
        if name != BASELINE:
            share = 1 if name.startswith("serial") else workers
            ratios = [p / (share * s) for p, s in zip(rates[name], rates[BASELINE])]
            line += f" {statistics.median(ratios):>18.0%}"
        print(line)
    return rates


if __name__ == "__main__":
    run_fitness_bench()
