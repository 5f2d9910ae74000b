"""Pluggable ``map`` for evaluation: serial, a ``multiprocess`` pool, or any callable.

Every batch of matches goes through one ``map(func, jobs)``, so a run moves from
a laptop to all cores (and, in the synthesis issue, to a dask cluster) without
touching the search code. ``multiprocess`` (dill) is used rather than
``multiprocessing`` so closures and DEAP-built objects travel to workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, Protocol


class MapBackend(Protocol):
    workers: int

    def __call__(self, func: Callable[[Any], Any], jobs: Iterable[Any]) -> list[Any]: ...

    def close(self) -> None: ...


class SerialMap:
    """In-process map: the reference behaviour every backend must reproduce."""

    workers = 1

    def __call__(self, func, jobs):
        return [func(job) for job in jobs]

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PoolMap:
    """A long-lived ``multiprocess`` pool; results come back in job order."""

    def __init__(self, workers: int | None = None) -> None:
        import multiprocess

        self.workers = workers or os.cpu_count() or 1
        self._pool = multiprocess.get_context("fork" if os.name == "posix" else "spawn").Pool(
            self.workers)

    def __call__(self, func, jobs):
        return self._pool.map(func, list(jobs), chunksize=1)

    def close(self) -> None:
        self._pool.close()
        self._pool.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def make_map(workers: int | None) -> SerialMap | PoolMap:
    """``workers`` 1 → serial; 0 or None → all cores; n → a pool of n processes."""
    if workers is not None and workers < 0:
        raise ValueError(f"workers must be >= 0, got {workers}")
    if workers == 1:
        return SerialMap()
    return PoolMap(workers or None)
