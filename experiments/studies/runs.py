"""What the comparison studies share about a comparison's run directories."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from pathlib import Path


def finished_run_dirs(root: Path) -> Iterator[Path]:
    """``root/runs/LABEL/seedN`` of the finished runs (a ``done`` file), by label then
    seed number."""
    for run_dir in sorted((root / "runs").glob("*/seed*/"),
                          key=lambda p: (p.parent.name, int(p.name[4:]))):
        if (run_dir / "done").exists():
            yield run_dir


def value_at(points: Iterable[tuple[float, float]], x: float) -> float:
    """The value of a step curve ``(at, value)``, sorted by ``at``, at ``x`` (NaN before
    its first point)."""
    value = math.nan
    for at, y in points:
        if at > x:
            break
        value = y
    return value
