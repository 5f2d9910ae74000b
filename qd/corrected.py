"""The corrected archive of a QD run: what its elites are worth on fresh evaluations.

In a noisy domain an archive built from single evaluations flatters itself: an
elite is often the luckiest of the programs tried in its cell, and a noisy
behaviour can put it in a cell it does not belong to. The corrected archive
re-evaluates every elite (the mean of N fresh samples) and re-inserts them all
into an empty grid of the same shape; elites that now fall in the same cell
compete again and the worse are lost. Its coverage, QD score and best objective
are the run's honest figures; ``kept`` is the share of elites whose fresh
behaviour falls in the cell they were archived in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .archive import ProgramArchive

Result = tuple[float, Sequence[float]]


@dataclass(frozen=True)
class Correction:
    """The archive as it was and as re-evaluation leaves it.

    Args:
        elites, coverage, qd_score, best: the archive's own statistics.
        corrected_elites, corrected_coverage, corrected_qd_score, corrected_best: the
            corrected archive's.
        kept: share of the elites whose re-evaluated behaviour is in their archived cell.
        samples: fresh samples behind each re-evaluated elite.
    """

    elites: int
    coverage: float
    qd_score: float
    best: float
    corrected_elites: int
    corrected_coverage: float
    corrected_qd_score: float
    corrected_best: float
    kept: float
    samples: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """A Markdown table: the archive beside its corrected archive."""
        return ["| | elites | coverage | QD score | best |", "|---|---|---|---|---|",
                f"| archive | {self.elites} | {self.coverage:.3f} | {self.qd_score:.2f} | "
                f"{self.best:.3f} |",
                f"| corrected | {self.corrected_elites} | {self.corrected_coverage:.3f} | "
                f"{self.corrected_qd_score:.2f} | {self.corrected_best:.3f} |", "",
                f"Share of elites that keep their cell: {self.kept:.3f} "
                f"({round(self.kept * self.elites)} of {self.elites})."]


def corrected_archive(archive: ProgramArchive, fresh: Sequence[Result], samples: int
                      ) -> tuple[ProgramArchive, Correction]:
    """``archive``'s elites (in ``archive.elites()`` order) re-inserted at their
    re-evaluated values ``fresh`` into an empty archive of the same shape."""
    elites = archive.elites()
    if len(fresh) != len(elites):
        raise ValueError(f"{len(fresh)} re-evaluations for {len(elites)} elites")
    corrected = archive.like()
    if elites:
        corrected.add([e["program"] for e in elites], [float(f[0]) for f in fresh],
                      [list(map(float, f[1])) for f in fresh])
    kept = sum(archive.cell_of(e["measures"]) == archive.cell_of(f[1])
               for e, f in zip(elites, fresh))
    before, after = archive.stats(), corrected.stats()
    return corrected, Correction(
        elites=before["elites"], coverage=before["coverage"], qd_score=before["qd_score"],
        best=before["best"], corrected_elites=after["elites"],
        corrected_coverage=after["coverage"], corrected_qd_score=after["qd_score"],
        corrected_best=after["best"], kept=kept / len(elites) if elites else float("nan"),
        samples=samples)


def reevaluate(texts: Sequence[str], metric: Callable) -> list[Result]:
    """Each text through ``metric`` (its ``many`` if it has one: one ``map`` call)."""
    many = getattr(metric, "many", None)
    return list(many(list(texts))) if many is not None else [metric(t) for t in texts]
