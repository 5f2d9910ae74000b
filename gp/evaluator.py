"""The one door through which every search scores a program: synthesis and QD alike.

It owns the budget, the run log, the best programs and resumption:

* every call is one evaluation, appended to ``log.csv`` (seconds, evaluations,
  metric, value, a value and a best column per logged metric — Ψ and C in a
  built-in run: ``psi, c, best_psi, best_c`` — behaviour measures, program) and
  flushed at once; values are written exactly (``repr``), so a replay sees the same
  floats; metrics are named (``gp.metrics.Metrics``: one objective, extra metrics);
* a metric returns a value, or ``(value, measures)`` for a QD search (the
  measures are logged and replayed with it);
* a call after the budget is spent raises ``BudgetSpent``, which the
  synthesizers let end their loops (a half-finished GP generation is dropped);
* a charged budget (``Budget.cost_limit``): each evaluation is charged a cost that
  depends on its outcome (``Evaluator(charge=...)``, e.g. the CPU time another
  implementation would spend on it), logged in a ``charge`` column and replayed from
  it, so the same seed stops at the same evaluation in any process;
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

from .metrics import Metrics, as_metrics

LOG_FIELDS = ("seconds", "evaluations", "metric", "value", "psi", "c", "best_psi", "best_c",
              "measures", "program")
"""The columns of a built-in run's log (objective Ψ, extra column C)."""


def log_fields(logged: tuple[str, ...], charged: bool = False) -> tuple[str, ...]:
    """Log columns for these logged metric names: a value column each, then a best each;
    ``charged``: a last column with each evaluation's charge."""
    return ("seconds", "evaluations", "metric", "value", *logged,
            *(f"best_{name}" for name in logged), "measures", "program",
            *(("charge",) if charged else ()))


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
    or once a program's objective reaches ``stop_at`` (a search against a strong target
    can stop at the first program that wins every match instead of using all its
    time), or when the ``parent`` budget (``child``) is spent; or once the evaluations'
    charges (``count``) add up to ``cost_limit``."""

    seconds: float | None = None
    evaluations: int | None = None
    cost_limit: float | None = None
    charged: float = 0.0
    clock: str = "wall"
    used: int = 0
    offset: float = 0.0
    started: float | None = None
    stop_at: float | None = None
    reached: bool = False
    parent: Budget | None = None

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
        if self.seconds is not None and self.elapsed() >= self.seconds:
            return True
        if self.cost_limit is not None and self.charged >= self.cost_limit:
            return True
        return self.parent is not None and self.parent.spent()

    def count(self, evaluations: int = 1, charge: float = 0.0) -> None:
        """Count evaluations, and their charge, here and in every enclosing budget."""
        self.used += evaluations
        self.charged += charge
        if self.parent is not None:
            self.parent.count(evaluations, charge)

    def child(self, *, evaluations: int | None = None, seconds: float | None = None) -> Budget:
        """A budget inside this one (an inner search's): it counts into this one too and
        is spent when either is. Its clock is this budget's."""
        return Budget(seconds=seconds, evaluations=evaluations, clock=self.clock, parent=self)


@dataclass
class Scored:
    """What one evaluation produced: ``values`` and ``bests`` by logged metric name
    (a value is None where this evaluation did not measure that metric)."""

    seconds: float
    evaluations: int
    metric: str
    value: float
    values: dict[str, float | None]
    bests: dict[str, float]
    program: str
    objective: str
    measures: list[float] | None = None

    @property
    def best(self) -> float:
        """The best objective value so far."""
        return self.bests[self.objective]

    @property
    def psi(self) -> float | None:
        return self.values.get("psi")

    @property
    def c(self) -> float | None:
        return self.values.get("c")

    @property
    def best_psi(self) -> float:
        return self.bests.get("psi", -math.inf)

    @property
    def best_c(self) -> float:
        return self.bests.get("c", -math.inf)


def encode_program(text: str) -> str:
    """Program text on one log line (DSL texts never contain a backslash)."""
    return text.replace("\n", "\\n")


def decode_program(field: str) -> str:
    return field.replace("\\n", "\n")


def read_log(path: Path, repair: bool = False) -> list[dict[str, str]]:
    """Complete rows of a run log. Every row is one line, so a row cut by a kill (or
    still being written by a live run) is the text after the last newline: it is left
    out, and with ``repair`` (a resume, the only writer) also cut from the file."""
    if not path.exists():
        return []
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a run log (not text, UTF-8)") from None
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1] if "\n" in text else ""
        if repair:
            path.write_text(text)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = list(reader)
    for line, row in enumerate(rows, 2):
        if None in row or None in row.values() or "program" not in row:
            raise ValueError(f"{path}: line {line}: not a row of this log (it needs the "
                             f"{len(reader.fieldnames or [])} fields of its header)")
        for key, value in row.items():
            if key not in TEXT_COLUMNS and value != "" and not _is_number(value):
                raise ValueError(f"{path}: line {line}: {key} '{value[:40]}' is not a number")
        row["program"] = decode_program(row["program"])
    return rows


TEXT_COLUMNS = frozenset({"metric", "measures", "program"})
"""The log's columns that hold text; every other column holds a number (or nothing)."""


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class Evaluator:
    """Scores programs by named metrics, logs every call, tracks the best, replays logs.

    Args:
        metrics: a ``Metrics`` (objective, extra metrics, logged columns), or a plain
            ``{name: function}`` (objective ``psi`` if there is one).
        to_text: a program's text (the log's and the replay's key).
        budget: when to stop.
        run_dir: where ``log.csv``, ``best.txt`` go (None: nothing written).
        resume: replay ``run_dir``'s log first.
        on_score: called with every ``Scored``.
        present: how ``best.txt`` shows a program (e.g. simplified; the program as found
            then goes to ``best_raw.txt``).
        charge: the cost of an evaluation just computed, from its metric's name and the
            program (it may ask the metric how the evaluation went); logged, and
            counted into ``budget.charged``. With it, evaluations are computed one at a
            time, so a charged budget stops at the same evaluation however they are batched.
    """

    def __init__(self, metrics: Metrics | dict[str, Callable[[Any], Any]],
                 to_text: Callable[[Any], str], budget: Budget, run_dir: Path | None = None,
                 resume: bool = False, on_score: Callable[[Scored], None] | None = None,
                 present: Callable[[str], str] | None = None,
                 charge: Callable[[str, Any], float] | None = None) -> None:
        self.metrics = as_metrics(metrics)
        self.charge = charge
        self.to_text = to_text
        self.present = present or str
        self.budget = budget
        self.on_score = on_score
        self.history: list[Scored] = []
        self._replay: list[dict[str, str]] = []
        self._file = None
        if run_dir is not None:
            path = Path(run_dir) / "log.csv"
            if resume:
                self._replay = read_log(path, repair=True)
                self._adopt_log_names(path)
                self._file = path.open("a", newline="")
            else:
                self._file = path.open("w", newline="")
            self._csv = csv.writer(self._file, lineterminator="\n")
            if not self._replay:
                if not resume or path.stat().st_size == 0:
                    self._csv.writerow(log_fields(self.metrics.logged, self.charged))
                    self._file.flush()
        self.best = {name: -math.inf for name in self.metrics.logged}
        self.best_programs: dict[str, str | None] = {name: None for name in self.metrics.logged}
        self.best_tree = None
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self._replay.reverse()  # pop from the end

    def _adopt_log_names(self, path: Path) -> None:
        """A log written under other names for the same layout (e.g. a user fitness
        logged as ``psi`` before fitnesses had names) keeps its names."""
        if not path.exists() or not path.stat().st_size:
            return
        with path.open(newline="") as file:
            header = next(csv.reader(file), None)
        if not header or tuple(header) == log_fields(self.metrics.logged, self.charged):
            return
        logged = self.metrics.logged
        if len(header) == len(log_fields(logged, self.charged)) and \
                tuple(header[5:4 + len(logged)]) == logged[1:]:
            self.metrics = self.metrics.renamed(header[4])
            return
        raise ResumeMismatch(f"{path}: its columns ({', '.join(header)}) are not this run's "
                             f"({', '.join(log_fields(logged, self.charged))})")

    @property
    def charged(self) -> bool:
        """Whether evaluations are charged (the log's ``charge`` column)."""
        return self.charge is not None

    @property
    def objective(self) -> str:
        return self.metrics.objective

    @property
    def best_value(self) -> float:
        """The best objective value so far."""
        return self.best[self.objective]

    @property
    def best_program(self) -> str | None:
        """Text of the best program by the objective."""
        return self.best_programs[self.objective]

    # the built-in runs' names for the objective's best
    best_psi = best_value
    best_psi_program = best_program

    @property
    def best_psi_tree(self):
        return self.best_tree

    @property
    def best_c(self) -> float:
        return self.best.get("c", -math.inf)

    @property
    def best_c_program(self) -> str | None:
        return self.best_programs.get("c")

    @property
    def replaying(self) -> bool:
        return bool(self._replay)

    def score(self, tree: Any, metric: str | None = None) -> Any:
        """Value of ``tree`` under ``metric`` (default: the objective), or
        ``(value, measures)`` for a metric that returns behaviour measures too."""
        return self.score_many([tree], metric)[0]

    def score_many(self, trees: list, metric: str | None = None) -> list[Any]:
        """Values of several programs, computed together where the metric has ``many``.

        Why: a population scored as one batch keeps every worker busy across
        programs (one barrier per batch, not per program). Logged, budgeted and
        replayed as the same calls of ``score`` one by one: rows in order, an
        evaluation budget never overshot (the programs past it raise
        ``BudgetSpent`` after the ones within it are logged), a time budget checked
        before the batch.
        """
        metric = self.objective if metric is None else metric
        if metric not in self.metrics:
            raise KeyError(f"metric '{metric}' is not among this run's metrics "
                           f"({', '.join(self.metrics.names)})")
        trees = list(trees)
        values = [self._replayed(tree, metric) for tree in trees[:len(self._replay)]]
        left = trees[len(values):]
        if not left:
            return values
        if self.budget.spent():  # logged calls were within budget
            raise BudgetSpent()
        if self.charged:
            return values + self._charged_one_by_one(left, metric)
        fresh = left
        if self.budget.evaluations is not None:
            fresh = left[: self.budget.evaluations - self.budget.used]
        for tree, value in zip(fresh, self._compute(fresh, metric)):
            values.append(self._record(tree, metric, value, self.to_text(tree), None))
        if len(fresh) < len(left):
            raise BudgetSpent()
        return values

    def _charged_one_by_one(self, trees: list, metric: str) -> list[Any]:
        """Compute, charge and record each program in turn until the budget is spent:
        the charge of an evaluation is known only once it is computed."""
        values = []
        for tree in trees:
            if self.budget.spent():
                raise BudgetSpent()
            value = self._compute([tree], metric)[0]
            text = self.to_text(tree)
            values.append(self._record(tree, metric, value, text, None,
                                       float(self.charge(metric, tree))))
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
        charge = float(row["charge"]) if self.charged else 0.0
        return self._record(tree, metric, value, text,
                            {n: float(row[n]) if row[n] else None for n in self.metrics.logged},
                            charge)

    def _record(self, tree: Any, metric: str, result: Any, text: str,
                logged: dict[str, float | None] | None, charge: float = 0.0) -> Any:
        """Count, track the best, log (unless replayed) and report one evaluation."""
        value, measures = (result[0], list(result[1])) if isinstance(result, tuple) \
            else (result, None)
        value = float(value)
        values = logged if logged is not None else \
            {n: (value if n == metric else None) for n in self.metrics.logged}
        self.budget.count(charge=charge)
        objective = values[self.objective]
        if objective is not None and self.budget.stop_at is not None and \
                objective >= self.budget.stop_at:
            self.budget.reached = True
        for name, v in values.items():
            if v is not None and v > self.best[name]:
                self.best[name], self.best_programs[name] = v, text
                if name == self.objective:
                    self.best_tree = tree
                    if self.run_dir is not None and not self._replay:
                        self._write_best(f"# best {name} {v:.4f} after {self.budget.used} "
                                         "evaluations", text)
        scored = Scored(self.budget.elapsed(), self.budget.used, metric, value, values,
                        dict(self.best), text, self.objective, measures)
        self.history.append(scored)
        if self._file is not None and logged is None:
            self._csv.writerow((f"{scored.seconds:.3f}", scored.evaluations, metric,
                                repr(value), *(_fmt(values[n]) for n in self.metrics.logged),
                                *(_fmt(self.best[n]) for n in self.metrics.logged),
                                "" if measures is None else json.dumps(measures),
                                encode_program(text), *((repr(charge),) if self.charged else ())))
            self._file.flush()
        if self.on_score is not None:
            self.on_score(scored)
        return value if measures is None else (value, measures)

    def until(self, stop: Callable[[], bool]) -> EvaluatorView:
        """A view of this evaluator that raises ``BudgetSpent`` once ``stop()`` holds."""
        return EvaluatorView(self, stop)

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
        if self.run_dir is not None and self.best_program is not None:
            self._write_best(f"# best {self.objective} {self.best_value:.4f}",
                             self.best_program)

    def _write_best(self, header: str, text: str) -> None:
        """``best.txt``: the best program as ``present`` shows it; where that differs
        from the program as found (a simplified program), the found one beside it in
        ``best_raw.txt``, the text the log holds."""
        shown = self.present(text)
        (self.run_dir / "best.txt").write_text(f"{header}\n{shown}\n")
        raw = self.run_dir / "best_raw.txt"
        if shown != text:
            raw.write_text(f"{header} (as found; best.txt holds it simplified, same "
                           f"behaviour)\n{text}\n")
        elif raw.exists():
            raw.unlink()


def _fmt(value: float | None) -> str:
    if value is None or value == -math.inf:
        return ""
    return repr(float(value))


class EvaluatorView:
    """An evaluator whose budget ends early, once ``stop()`` holds (``Evaluator.until``).

    Why: a phase of a method (a sketch search given a share of the budget) is built
    over this view and ends where the share does, by the same ``BudgetSpent`` that ends
    the whole run; the parent evaluator logs and counts every call as usual.
    """

    def __init__(self, evaluator: Evaluator | EvaluatorView, stop: Callable[[], bool]) -> None:
        self.parent = evaluator
        self.stop = stop

    @property
    def budget(self) -> Budget:
        return self.parent.budget

    def spent(self) -> bool:
        return self.stop() or self.parent.budget.spent()

    def score(self, tree: Any, metric: str | None = None) -> Any:
        return self.score_many([tree], metric)[0]

    def score_many(self, trees: list, metric: str | None = None) -> list[Any]:
        if self.stop():
            raise BudgetSpent()
        return self.parent.score_many(trees, metric)

    def until(self, stop: Callable[[], bool]) -> EvaluatorView:
        return EvaluatorView(self, stop)

    def __getattr__(self, name: str) -> Any:  # the parent's bests, history, clock
        return getattr(self.parent, name)
