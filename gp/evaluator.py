"""The one door through which every search scores a program: synthesis and QD alike.

It owns the budget, the run log, the best programs and resumption:

* every call is one evaluation, appended to ``log.csv`` (seconds, evaluations,
  metric, value, Ψ, C, best Ψ, best C, behaviour measures, program) and flushed at
  once; values are written exactly (``repr``), so a replay sees the same floats;
* a metric returns a value, or ``(value, measures)`` for a QD search (the
  measures are logged and replayed with it);
* a call after the budget is spent raises ``BudgetSpent``, which the
  synthesizers let end their loops (a half-finished GP generation is dropped);
* ``resume``: the searches are deterministic given the seed and the values they
  see, so a killed run restarts from scratch and the evaluator answers the
  calls it already logged from the log (same program, same order, value from the
  log, clock moved to the logged time). No finished evaluation is lost or
  repeated; the log is the checkpoint.
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOG_FIELDS = ("seconds", "evaluations", "metric", "value", "psi", "c", "best_psi", "best_c",
              "measures", "program")


class BudgetSpent(Exception):
    """Raised by an evaluation requested after the budget is spent."""


class ResumeMismatch(RuntimeError):
    """The logged run and the replayed search disagree (different settings or code)."""


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""Budget clocks: wall time, or this process's CPU time (fair to compare runs that share
a loaded machine; serial evaluation only, since worker processes' time is not counted)."""


@dataclass
class Budget:
    """Stop after ``seconds`` of (resumable) time on ``clock`` or ``evaluations`` calls,
    or once a program's Ψ reaches ``stop_at`` (a search against a strong target can
    stop at the first program that wins every match instead of using all its time)."""

    seconds: float | None = None
    evaluations: int | None = None
    clock: str = "wall"
    used: int = 0
    offset: float = 0.0
    started: float | None = None
    stop_at: float | None = None
    reached: bool = False

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {self.clock!r}")
        self._now = CLOCKS[self.clock]
        if self.started is None:
            self.started = self._now()

    def elapsed(self) -> float:
        return self.offset + self._now() - self.started

    def set_elapsed(self, seconds: float) -> None:
        self.offset = seconds
        self.started = self._now()

    def spent(self) -> bool:
        if self.reached:
            return True
        if self.evaluations is not None and self.used >= self.evaluations:
            return True
        return self.seconds is not None and self.elapsed() >= self.seconds


@dataclass
class Scored:
    """What one evaluation produced."""

    seconds: float
    evaluations: int
    metric: str
    value: float
    psi: float | None
    c: float | None
    best_psi: float
    best_c: float
    program: str
    measures: list[float] | None = None


def encode_program(text: str) -> str:
    """Program text on one log line (DSL texts never contain a backslash)."""
    return text.replace("\n", "\\n")


def decode_program(field: str) -> str:
    return field.replace("\\n", "\n")


def read_log(path: Path) -> list[dict[str, str]]:
    """Complete rows of a run log. Every row is one line, so a row cut by a kill is
    the text after the last newline: it is dropped (and written again later)."""
    if not path.exists():
        return []
    text = path.read_text()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1] if "\n" in text else ""
        path.write_text(text)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    for row in rows:
        row["program"] = decode_program(row["program"])
    return rows


class Evaluator:
    """Scores programs by named metrics, logs every call, tracks the best, replays logs."""

    def __init__(self, metrics: dict[str, Callable[[Any], Any]], to_text: Callable[[Any], str],
                 budget: Budget, run_dir: Path | None = None, resume: bool = False,
                 on_score: Callable[[Scored], None] | None = None,
                 present: Callable[[str], str] | None = None) -> None:
        self.metrics = metrics
        self.to_text = to_text
        self.present = present or str  # how best.txt shows a program (e.g. simplified)
        self.budget = budget
        self.on_score = on_score
        self.best_psi, self.best_psi_program, self.best_psi_tree = -math.inf, None, None
        self.best_c, self.best_c_program = -math.inf, None
        self.history: list[Scored] = []
        self._replay: list[dict[str, str]] = []
        self._file = None
        if run_dir is not None:
            path = Path(run_dir) / "log.csv"
            if resume:
                self._replay = read_log(path)
                self._file = path.open("a", newline="")
            else:
                self._file = path.open("w", newline="")
            self._csv = csv.writer(self._file, lineterminator="\n")
            if not self._replay:
                if not resume or path.stat().st_size == 0:
                    self._csv.writerow(LOG_FIELDS)
                    self._file.flush()
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self._replay.reverse()  # pop from the end

    @property
    def replaying(self) -> bool:
        return bool(self._replay)

    def score(self, tree: Any, metric: str = "psi") -> Any:
        """Value of ``tree`` under ``metric`` (``psi``, ``c`` or a combined metric), or
        ``(value, measures)`` for a metric that returns behaviour measures too."""
        return self.score_many([tree], metric)[0]

    def score_many(self, trees: list, metric: str = "psi") -> list[Any]:
        """Values of several programs, computed together where the metric has ``many``.

        Why: a population scored as one batch keeps every worker busy across
        programs (one barrier per batch, not per program). Logged, budgeted and
        replayed as the same calls of ``score`` one by one: rows in order, an
        evaluation budget never overshot (the programs past it raise
        ``BudgetSpent`` after the ones within it are logged), a time budget checked
        before the batch.
        """
        trees = list(trees)
        values = [self._replayed(tree, metric) for tree in trees[:len(self._replay)]]
        left = trees[len(values):]
        if not left:
            return values
        if self.budget.spent():  # logged calls were within budget
            raise BudgetSpent()
        fresh = left
        if self.budget.evaluations is not None:
            fresh = left[: self.budget.evaluations - self.budget.used]
        for tree, value in zip(fresh, self._compute(fresh, metric)):
            values.append(self._record(tree, metric, value, self.to_text(tree), False))
        if len(fresh) < len(left):
            raise BudgetSpent()
        return values

    def _compute(self, trees: list, metric: str) -> list[Any]:
        function = self.metrics[metric]
        many = getattr(function, "many", None)
        if many is not None and len(trees) > 1:
            return list(many(trees))
        return [function(tree) for tree in trees]

    def _replayed(self, tree: Any, metric: str) -> float:
        text = self.to_text(tree)
        row = self._replay.pop()
        if row["program"] != text or row["metric"] != metric:
            raise ResumeMismatch(
                f"log row {row['evaluations']} holds another evaluation than the replayed "
                "search asks for: the run's settings or code changed since it was logged")
        self.budget.set_elapsed(float(row["seconds"]))
        value = float(row["value"])
        if row.get("measures"):
            value = (value, json.loads(row["measures"]))
        remember = getattr(self.metrics[metric], "remember", None)
        if remember is not None:  # a metric that caches answers a later repeat as it did
            remember(text, value)
        return self._record(tree, metric, value, text, True,
                            psi=float(row["psi"]) if row["psi"] else None,
                            c=float(row["c"]) if row["c"] else None)

    def _record(self, tree: Any, metric: str, result: Any, text: str, logged: bool,
                psi: float | None = None, c: float | None = None) -> Any:
        """Count, track the best, log (unless replayed) and report one evaluation."""
        value, measures = (result[0], list(result[1])) if isinstance(result, tuple) \
            else (result, None)
        value = float(value)
        if not logged:
            psi = value if metric == "psi" else None
            c = value if metric == "c" else None
        self.budget.used += 1
        if psi is not None and self.budget.stop_at is not None and psi >= self.budget.stop_at:
            self.budget.reached = True
        if psi is not None and psi > self.best_psi:
            self.best_psi, self.best_psi_program, self.best_psi_tree = psi, text, tree
            if self.run_dir is not None and not self._replay:
                (self.run_dir / "best.txt").write_text(
                    f"# best psi {psi:.4f} after {self.budget.used} evaluations\n"
                    f"{self.present(text)}\n")
        if c is not None and c > self.best_c:
            self.best_c, self.best_c_program = c, text
        scored = Scored(self.budget.elapsed(), self.budget.used, metric, value, psi, c,
                        self.best_psi, self.best_c, text, measures)
        self.history.append(scored)
        if self._file is not None and not logged:
            self._csv.writerow((f"{scored.seconds:.3f}", scored.evaluations, metric,
                                repr(value), _fmt(psi), _fmt(c), _fmt(self.best_psi),
                                _fmt(self.best_c),
                                "" if measures is None else json.dumps(measures),
                                encode_program(text)))
            self._file.flush()
        if self.on_score is not None:
            self.on_score(scored)
        return value if measures is None else (value, measures)

    def logged_seconds(self) -> float:
        """Time of the last evaluation as the log holds it: decisions that depend on
        time use this, so that a resumed run replays them identically."""
        return round(self.history[-1].seconds, 3) if self.history else 0.0

    def close(self) -> None:
        if self._replay:
            raise ResumeMismatch(f"{len(self._replay)} logged evaluations were never replayed")
        if self._file is not None:
            self._file.close()
            self._file = None
        if self.run_dir is not None and self.best_psi_program is not None:
            (self.run_dir / "best.txt").write_text(
                f"# best psi {self.best_psi:.4f}\n{self.present(self.best_psi_program)}\n")


def _fmt(value: float | None) -> str:
    if value is None or value == -math.inf:
        return ""
    return repr(float(value))

