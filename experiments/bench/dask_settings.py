"""Where dask loses time: rotated rounds over dask settings.

Run ``python -m experiments.bench.dask_settings 3`` (3 rounds) on an idle machine.

Prints the latency of a map of 16 no-op tasks per backend, then Ψ evaluations/s
of the fitness benchmark's programs for the pool and for dask with 8, 2 and 1
chunks per worker, with the scheduler's task queuing off (``worker-saturation:
inf``), with one worker, and with dask's default worker diagnostics (profiler,
20 ms tick; ``DaskMap`` now starts its workers with ``QUIET_WORKERS``), one
program at a time and a whole batch at once (``WinRate.many``). Efficiency here
divides by the in-process serial rate, which the dask event loops in this process
slow down (see ``fitness.py``); compare the lines with each other, not with the aim.
Every line cuts an evaluation into equal chunks, as when the recorded outputs were
measured (guided chunks, the default since, are compared in ``chunking.py``).
"""

from __future__ import annotations

import statistics
import sys
import time
from functools import partial

import dask

from experiments.bench.chunking import equal_chunks
from experiments.bench.fitness import _batch_rate, _programs, _rate, measure_in_rounds
from games.backends import DaskMap, PoolMap, SerialMap


def _noop(x):
    return x


def _noop_map_seconds(backend, tasks: int = 16, repeats: int = 20) -> float:
    backend(_noop, list(range(tasks)))
    started = time.perf_counter()
    for _ in range(repeats):
        backend(_noop, list(range(tasks)))
    return (time.perf_counter() - started) / repeats


class Rechunked:
    """The same backend, cut into a different number of chunks per worker."""

    def __init__(self, inner, chunks_per_worker: int) -> None:
        self.inner, self.chunks_per_worker = inner, chunks_per_worker
        self.workers = inner.workers

    def __call__(self, func, jobs):
        return self.inner(func, jobs)


def main(rounds: int = 3, workers: int = 2, programs: int = 12, matches: int = 1000) -> None:
    batch = _programs(programs, 0)
    pool, dask_map, single = PoolMap(workers), DaskMap(workers), DaskMap(1)
    noisy = DaskMap(workers, quiet=False)
    with dask.config.set({"distributed.scheduler.worker-saturation": float("inf")}):
        unqueued = DaskMap(workers)
    backends = {"pool": pool, "dask": dask_map, "dask, no queuing": unqueued,
                "dask, 1 worker": single, "dask, default diagnostics": noisy}
    for name, backend in backends.items():
        print(f"no-op map of 16 tasks, {name}: "
              f"{_noop_map_seconds(backend) * 1000:.1f} ms", flush=True)
        _rate(backend, batch[:1], matches)
    variants = {"serial": SerialMap(), "pool, 8 chunks/worker": pool,
                "dask, 8 chunks/worker": dask_map, "dask, 2 chunks/worker": Rechunked(dask_map, 2),
                "dask, 1 chunk/worker": Rechunked(dask_map, 1),
                "dask, no queuing, 8": unqueued, "dask, 1 worker, 8": single,
                "dask, default diagnostics": noisy}
    measures = {name: partial(_rate, backend, batch, matches)
                for name, backend in variants.items()}
    for name, backend in (("pool, whole batch", pool), ("dask, whole batch", dask_map),
                          ("dask, default diagnostics, whole batch", noisy)):
        variants[name] = backend
        measures[name] = partial(_batch_rate, backend, batch, matches)
    with equal_chunks():
        rates = measure_in_rounds(measures, rounds)
    for name in variants:
        share = variants[name].workers
        efficiency = statistics.median(p / (share * s)
                                       for p, s in zip(rates[name], rates["serial"]))
        print(f"{name:<38} median {statistics.median(rates[name]):.2f} evals/s, "
              f"{efficiency:.0%} of serial per worker")
    for backend in backends.values():
        backend.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
