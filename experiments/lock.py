"""Run directories: one lock per directory, so two processes never work in the same
run, and the check that a new run's directory holds no other run.

The lock is an OS lock (``flock``) on ``NAME.lock`` beside the run directory, so
it is released when its process dies, however it dies, and a killed run can be
resumed at once; ``stratsynth run --jobs N`` uses it to share a comparison.
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
    """Hold an exclusive lock on ``run_dir`` while a run works in it; False if taken."""
    path = lock_path(run_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            if not Path(run_dir).exists():  # no run was made: no lock file is left either
                path.unlink(missing_ok=True)  # (while still held: nobody takes it meanwhile)
            fcntl.flock(handle, fcntl.LOCK_UN)


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


def check_empty(run_dir: Path) -> None:
    """A new run's directory must not exist or be empty (a run there is resumed instead)."""
    if run_dir.exists() and any(run_dir.iterdir()):
        raise ValueError(f"{run_dir}: run directory exists and is not empty "
                         "(use 'stratsynth resume' to continue it)")
