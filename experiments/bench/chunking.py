"""Equal against guided chunks for one evaluation at a time: rotated rounds.

Run ``python -m experiments.bench.chunking 5`` (5 rounds) on an idle machine.
Scores the fitness benchmark's 12 programs one at a time with the pool and with
dask, the matches of each evaluation cut into 16 equal chunks ("equal", as before
session 6) or large-first, small-last (``games.match.guided_bounds``, the default
since). Prints each line's median efficiency against the own-process serial
baseline, and its median rate relative to the ceiling (whole evaluations, one per
worker) of the same round.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import partial

import games.match as match
from experiments.bench.fitness import _ceiling_rate, _programs, _rate, measure_in_rounds
from games.backends import DaskMap, PoolMap

GUIDED = match.guided_bounds
MATCHES = 1000


def equal_bounds(n: int, chunks: int, workers: int) -> list[int]:
    """The pre-session-6 cut: ``chunks`` equal contiguous chunks."""
    return [n * i // chunks for i in range(chunks + 1)]


@contextmanager
def equal_chunks() -> Iterator[None]:
    """Within it, one evaluation's matches are cut into equal chunks (``equal_bounds``)."""
    match.guided_bounds = equal_bounds
    try:
        yield
    finally:
        match.guided_bounds = GUIDED


def rate_with(backend, programs, how: str) -> float:
    """Evaluations/s with the chunking ``how`` (``equal`` or ``guided``)."""
    with equal_chunks() if how == "equal" else nullcontext():
        return _rate(backend, programs, MATCHES)


def main(rounds: int = 5) -> None:
    programs = _programs(12, 0)
    solo, pool, dask_map = PoolMap(1), PoolMap(2), DaskMap(2)
    for backend in (pool, dask_map):  # start the workers before any clock runs
        _rate(backend, programs[:1], MATCHES)
    measures = {"serial": partial(_ceiling_rate, solo, programs, MATCHES),
                "pool equal": partial(rate_with, pool, programs, "equal"),
                "pool guided": partial(rate_with, pool, programs, "guided"),
                "dask equal": partial(rate_with, dask_map, programs, "equal"),
                "dask guided": partial(rate_with, dask_map, programs, "guided"),
                "ceiling": partial(_ceiling_rate, pool, programs, MATCHES)}
    rates = measure_in_rounds(measures, rounds)
    for name in measures:
        if name == "serial":
            continue
        efficiency = statistics.median(p / (2 * s) for p, s in zip(rates[name], rates["serial"]))
        of_ceiling = statistics.median(p / c for p, c in zip(rates[name], rates["ceiling"]))
        print(f"{name:<12} median efficiency {efficiency:.0%}, {of_ceiling:.2f} of the ceiling")
    for backend in (solo, pool, dask_map):
        backend.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
