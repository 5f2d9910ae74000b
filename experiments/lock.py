"""Run directories: one lock per directory, so two processes never work in the same
run, and the check that a new run's directory holds no other run.

The lock is an OS lock (``flock``) on ``NAME.lock`` beside the run directory, so
it is released when its process dies, however it dies, and a killed run can be
resumed at once (the file stays only then; a run that ends removes it);
``stratsynth run --jobs N`` uses it to share a comparison.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def lock_path(run_dir: Path) -> Path:
    """``NAME.lock`` beside the run directory (``.`` too: named by its absolute path)."""
    run_dir = Path(os.path.abspath(run_dir))
    return run_dir.with_name(run_dir.name + ".lock")


@contextmanager
def claim(run_dir: Path) -> Iterator[bool]:
    """Hold an exclusive lock on ``run_dir`` while a run works in it; False if taken.

    The holder removes the lock file before it lets go, so no ``NAME.lock`` stays
    behind. A process that opened the file before it was removed finds, once it holds
    the lock, that the path no longer names its file, and opens the path again: two
    processes never hold the lock on the same run."""
    path = lock_path(run_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        handle = open(path, "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            yield False
            return
        if _names(path, handle):
            break
        handle.close()  # removed (or replaced) by the holder we waited for: again
    try:
        yield True
    finally:
        path.unlink(missing_ok=True)
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def _names(path: Path, handle) -> bool:
    """Whether ``path`` is still the file ``handle`` has open."""
    try:
        return os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
    except FileNotFoundError:
        return False


@contextmanager
def hold(run_dir: Path, held: bool = False) -> Iterator[None]:
    """The lock on ``run_dir``, or a one-line ``RunBusy`` if another process has it
    (``held``: the caller holds it already, through ``claim``)."""
    if held:
        yield
        return
    with claim(run_dir) as mine:
        if not mine:
            raise RunBusy(f"{run_dir}: another process is working in this run "
                          f"(it holds {lock_path(run_dir)})")
        yield


class RunBusy(RuntimeError):
    """The run directory is locked by another process."""


def check_not_a_run(out: str | Path, where: str = "--out") -> None:
    """A directory holding a run (its ``config.json``) is not written into by another
    command (a tournament, a pool, regret curves, a comparison): one line, before any
    work."""
    if (Path(out) / "config.json").is_file():
        raise ValueError(f"{where} {out}: holds a run (config.json); give another directory")


def check_empty(run_dir: Path) -> None:
    """A new run's directory must not exist or be empty (a run there is resumed instead)."""
    if run_dir.exists() and any(run_dir.iterdir()):
        raise ValueError(f"{run_dir}: run directory exists and is not empty "
                         "(use 'stratsynth resume' to continue it)")
