"""Optional parts of the toolkit and the extra that installs each.

A plain ``pip install .`` gives the whole Can't Stop toolkit; the Java engine of
microRTS (``[microrts]``), dask clusters (``[dask]``) and the DQN learner
(``[dqn]``) come with extras. Asking for one that is missing is one clear line.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise RuntimeError(f"{purpose} needs the '{extra}' extra: pip install "
                           f"'stratsynth[{extra}]' (in a clone, make test installs it)") from None
