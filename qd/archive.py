"""pyribs archives whose solutions are programs (their text), indexed by behaviour.

Two features or fewer: a ``GridArchive``; more: a ``CVTArchive``. Solutions are
stored as program text (``solution_dtype=object``) so an archive is readable,
saves to JSON and loads back into the same archive.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from ribs.archives import CVTArchive, GridArchive

FORMAT = "stratsynth.program-archive"


class ProgramArchive:
    def __init__(self, features: Sequence[str], ranges: Sequence[tuple[float, float]],
                 dims: Sequence[int] | None = None, cells: int = 100, seed: int = 0) -> None:
        if len(features) != len(ranges) or not features:
            raise ValueError("give one range per feature")
        self.features = list(features)
        self.ranges = [tuple(map(float, r)) for r in ranges]
        self.seed = seed
        self.cells: int | None = None  # a CVT archive's
        if len(features) <= 2:
            self.dims = list(dims or [10] * len(features))
            if len(self.dims) != len(features):
                raise ValueError("give one dimension per feature")
            self.archive = GridArchive(solution_dim=(), dims=self.dims, ranges=self.ranges,
                                       solution_dtype=object, seed=seed)
        else:
            self.dims = None
            self.cells = cells
            self.archive = CVTArchive(solution_dim=(), centroids=cells, ranges=self.ranges,
                                      samples=max(20 * cells, 2000),
                                      solution_dtype=object, seed=seed)

    def like(self) -> ProgramArchive:
        """An empty archive of the same shape: features, ranges, cells, seed."""
        return ProgramArchive(self.features, self.ranges, self.dims, self.cells or 100, self.seed)

    def cell_of(self, measures: Sequence[float]) -> int:
        """The cell (pyribs index) that behaviour ``measures`` falls in."""
        return int(self.archive.index_of_single(np.asarray(measures, dtype=float)))

    def add(self, programs: Sequence[str], objectives: Sequence[float],
            measures: Sequence[Sequence[float]]) -> np.ndarray:
        solutions = np.empty(len(programs), dtype=object)
        solutions[:] = list(programs)
        return self.archive.add(solutions, np.asarray(objectives, dtype=float),
                                np.asarray(measures, dtype=float))["status"]

    def elites(self) -> list[dict]:
        data = self.archive.data()
        return [{"program": str(p), "objective": float(o), "measures": [float(m) for m in ms]}
                for p, o, ms in zip(data["solution"], data["objective"], data["measures"])]

    def stats(self) -> dict:
        s = self.archive.stats
        return {"elites": int(s.num_elites), "coverage": float(s.coverage),
                "qd_score": float(s.qd_score),
                "best": float(s.obj_max) if s.num_elites else float("nan")}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({
            "format": FORMAT, "version": 1, "features": self.features, "ranges": self.ranges,
            "dims": self.dims, "cells": self.cells, "seed": self.seed,
            "elites": self.elites()}, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> ProgramArchive:
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a program archive ({err})") from None
        if data.get("format") != FORMAT:
            raise ValueError(f"{path}: not a {FORMAT} file")
        archive = cls(data["features"], data["ranges"], data.get("dims"),
                      data.get("cells") or 100, data.get("seed", 0))
        elites = data["elites"]
        if elites:
            archive.add([e["program"] for e in elites], [e["objective"] for e in elites],
                        [e["measures"] for e in elites])
        return archive

    def corner_elites(self) -> tuple[dict, dict]:
        """Elites nearest the low and the high corner of the (normalised) feature space."""
        elites = self.elites()
        lo = np.array([r[0] for r in self.ranges])
        span = np.array([r[1] - r[0] for r in self.ranges])

        def norm(e):
            return (np.array(e["measures"]) - lo) / span

        low = min(elites, key=lambda e: float(norm(e).sum()))
        high = max(elites, key=lambda e: float(norm(e).sum()))
        return low, high

    def heatmap(self, path: str | Path, title: str = "", colorbar: str = "win rate") -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from ribs.visualize import cvt_archive_heatmap, grid_archive_heatmap

        if len(self.features) != 2:
            raise ValueError("a heatmap needs exactly two features")
        fig, ax = plt.subplots(figsize=(6, 4.8))
        if isinstance(self.archive, GridArchive):
            grid_archive_heatmap(self.archive, ax=ax, vmin=0, vmax=1,
                                 cbar_kwargs={"label": colorbar})
        else:
            cvt_archive_heatmap(self.archive, ax=ax, vmin=0, vmax=1,
                                cbar_kwargs={"label": colorbar})
        ax.set_xlabel(self.features[0])
        ax.set_ylabel(self.features[1])
        ax.set_title(title or "win rate of the elite in each cell")
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
