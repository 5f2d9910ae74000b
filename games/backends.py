"""Pluggable ``map`` for evaluation: serial, a ``multiprocess`` pool, or any callable.

Every batch of matches goes through one ``map(func, jobs)``, so a run moves from
a laptop to all cores or to a dask cluster without touching the search code.
``multiprocess`` (dill) is used rather than ``multiprocessing`` so closures and
DEAP-built objects travel to workers.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError
from typing import Any, Protocol


class MapBackend(Protocol):
    workers: int

    def __call__(self, func: Callable[[Any], Any], jobs: Iterable[Any]) -> list[Any]: ...

    def close(self) -> None: ...


class MapDefaults:
    """Declared defaults of a ``map`` backend's optional attributes: any callable
    ``map(func, jobs)`` works; these are what generic code assumes where it says
    nothing."""

    workers: int = 1
    chunks_per_worker: int = 8
    """Jobs a batch is cut into per worker (``games.match.play_many``)."""


def workers_of(map) -> int:
    """Worker processes behind ``map`` (1 for none or a plain callable)."""
    return 1 if map is None else getattr(map, "workers", MapDefaults.workers)


def chunks_per_worker(map) -> int:
    """Jobs per worker a batch is cut into on ``map`` (``MapDefaults``)."""
    return getattr(map, "chunks_per_worker", MapDefaults.chunks_per_worker)


class WorkerDied(RuntimeError):
    """A worker process died mid-batch; the batch may be retried."""


class SchedulerLost(RuntimeError):
    """The dask scheduler went away mid-batch (killed, its machine down): the batch's
    results are lost; a run's log keeps every evaluation finished before it."""


def _first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]


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


def _start_method() -> str:
    """``fork`` where it is safe; ``spawn`` on Windows or once this process runs a JVM
    (a forked child inherits the JVM's locks but not its threads and can wait forever)."""
    if os.name != "posix":
        return "spawn"
    jpype = sys.modules.get("jpype")
    if jpype is not None and jpype.isJVMStarted():
        return "spawn"
    return "fork"


class PoolMap:
    """A long-lived ``multiprocess`` pool; results come back in job order."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = self._new_pool()

    def __call__(self, func, jobs):
        pids = self._pids()
        result = self._pool.map_async(func, list(jobs), chunksize=1)
        while not result.ready():
            result.wait(0.5)
            if not result.ready() and self._pids() != pids:
                # a worker died (e.g. its JVM crashed): its job would never come back
                self._pool.terminate()
                self._pool = self._new_pool()
                raise WorkerDied("a worker process died during the batch; the pool was restarted")
        return result.get()

    def _new_pool(self):
        import multiprocess

        return multiprocess.get_context(_start_method()).Pool(self.workers)

    def _pids(self) -> list[int]:
        return [p.pid for p in self._pool._pool]

    def close(self) -> None:
        self._pool.close()
        self._pool.join()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:  # e.g. Ctrl-C: the workers were interrupted too, so joining could wait forever
            self._pool.terminate()
            self._pool.join()


def make_map(workers: int | None) -> SerialMap | PoolMap:
    """``workers`` 1 → serial; 0 or None → all cores; n → a pool of n processes."""
    if workers is not None and workers < 0:
        raise ValueError(f"workers must be >= 0, got {workers}")
    if workers == 1:
        return SerialMap()
    return PoolMap(workers or None)


QUIET_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "5s",
}
"""Worker diagnostics that a LocalCluster without a dashboard does not need. By
default a worker's profiler samples the running task's stack every 10 ms and its
event loop ticks every 20 ms, each time taking the GIL from the task; with these
off, whole-batch Ψ evaluation measured faster in every round
(``python -m experiments.bench.dask_settings``)."""


CLIENT_LOGS = ("distributed.client", "distributed.batched")
"""The dask client's loggers that print tracebacks when its scheduler goes away."""


class DaskMap:
    """``dask.distributed``: a scheduler address, or a LocalCluster started for you.

    ``chunks_per_worker`` sets how finely a batch is cut. 8, 2 and 1 measured the
    same on 2 workers, and turning dask's task queuing off measured worse
    (``python -m experiments.bench.dask_settings``), so both backends use 8 with
    dask's default scheduler settings. A LocalCluster's workers start with
    ``QUIET_WORKERS`` (``quiet=False`` keeps dask's defaults); a cluster at an
    address keeps its own settings."""

    chunks_per_worker = 8

    def __init__(self, workers: int | None = None, address: str | None = None,
                 quiet: bool = True) -> None:
        from .extras import require

        dask = require("dask", "dask", "the dask backend")
        from dask.distributed import Client, LocalCluster

        self._cluster = None
        self.address = address or "(a LocalCluster)"
        # a lost scheduler is our one line (``SchedulerLost``), not the client's tracebacks
        # (its batched sender logs one too when the scheduler dies mid-send)
        self._client_logs = [logging.getLogger(name) for name in CLIENT_LOGS]
        self._client_levels = [log.level for log in self._client_logs]
        for log in self._client_logs:
            log.setLevel(logging.CRITICAL)
        try:
            if address:
                self._client = Client(address)
            else:
                with dask.config.set(QUIET_WORKERS if quiet else {}):  # workers inherit it
                    self._cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                                 threads_per_worker=1, processes=True,
                                                 dashboard_address=None)
                self._client = Client(self._cluster)
        except BaseException:
            self._restore_logs()
            raise
        self.workers = max(1, len(self._client.scheduler_info()["workers"]))

    def __call__(self, func, jobs):
        try:
            futures = self._client.map(func, list(jobs), pure=False)
            return self._client.gather(futures)
        except Exception as err:
            from distributed.comm.core import CommClosedError

            if isinstance(err, (CancelledError, CommClosedError)) \
                    or self._client.status != "running":
                raise SchedulerLost(f"dask scheduler {self.address}: the connection was "
                                    f"lost during a batch ({_first_line(err)})") from None
            raise  # a task's own error

    def close(self) -> None:
        try:
            self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            self._restore_logs()

    def _restore_logs(self) -> None:
        for log, level in zip(self._client_logs, self._client_levels):
            log.setLevel(level)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


BACKENDS = ("serial", "pool", "dask")


def make_backend(name: str | None, workers: int | None = 0, address: str | None = None):
    """A backend by name; ``None`` picks serial for one worker, else the pool."""
    if name is None:
        return make_map(workers)
    if name == "serial":
        return SerialMap()
    if name == "pool":
        return PoolMap(workers or None)
    if name == "dask":
        return DaskMap(workers or None, address)
    raise ValueError(f"unknown backend '{name}' (known: {', '.join(BACKENDS)})")
