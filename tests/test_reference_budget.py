"""A budget charged per evaluation outcome (``reference_cost``, ``reference_budget``):
each evaluation costs what its outcome costs, the run stops once the charges reach the
budget, the log holds each charge and a resumed run replays it; bad values are refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.charging import OutcomeCharge
from gp.evaluator import Budget, BudgetSpent, Evaluator, read_log
from gp.metrics import Metrics

ROOT = Path(__file__).parent.parent
COST = {"ran": 41.6, "failed": 1.9, "c": 0.5}


class FakePsi:
    """Ψ of a string program: 'x' fails in every match, 'h' in half, others run."""

    def __call__(self, program: str) -> float:
        return 0.0 if program.startswith(("x", "h")) else 0.1 * len(program)

    def forfeit_share(self, program: str) -> float:
        return {"x": 1.0, "h": 0.5}.get(program[0], 0.0)


def _vowels(program: str) -> float:
    return float(sum(ch in "aeiou" for ch in program))


def evaluator(tmp_path: Path | None, limit: float, resume: bool = False) -> Evaluator:
    metrics = Metrics("psi", {"psi": FakePsi(), "c": _vowels}, ("psi", "c"))
    return Evaluator(metrics, str, Budget(cost_limit=limit), tmp_path, resume=resume,
                     charge=OutcomeCharge(metrics=metrics, cost=COST))


def test_each_evaluation_is_charged_by_its_outcome():
    ev = evaluator(None, 1000.0)
    ev.score("abc")
    ev.score("xyz")
    ev.score("hop")
    ev.score("abc", "c")
    assert ev.budget.charged == pytest.approx(41.6 + 1.9 + (41.6 + 1.9) / 2 + 0.5)
    assert ev.budget.used == 4


def test_the_run_stops_at_the_first_evaluation_that_reaches_the_budget(tmp_path):
    ev = evaluator(tmp_path, 45.0)
    ev.score_many(["xa", "xb"])  # 3.8
    ev.score("run")  # 45.4: spent
    with pytest.raises(BudgetSpent):
        ev.score_many(["xc", "xd"])
    ev.close()
    rows = read_log(tmp_path / "log.csv")
    assert [r["charge"] for r in rows] == ["1.9", "1.9", "41.6"]
    assert ev.budget.used == 3


def test_a_batch_is_charged_one_program_at_a_time(tmp_path):
    ev = evaluator(tmp_path, 43.0)
    with pytest.raises(BudgetSpent):
        ev.score_many(["run", "xa", "xb"])
    assert ev.budget.used == 2  # 41.6 + 1.9 reached 43 before the third


def test_a_resumed_log_replays_the_charges(tmp_path):
    first = evaluator(tmp_path, 1000.0)
    for program in ("abc", "xyz", "hop"):
        first.score(program)
    first.close()
    again = evaluator(tmp_path, 1000.0, resume=True)
    for program in ("abc", "xyz", "hop"):
        again.score(program)
    assert again.budget.charged == pytest.approx(first.budget.charged)
    assert not again.replaying


def cli(*argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def comparison(tmp_path: Path, cost: str, budget: str = "120") -> Path:
    path = tmp_path / "refcpu.toml"
    path.write_text(f"""[experiment]
out = "{tmp_path / 'out'}"
game = "cantstop"
game_params = {{ rules = "reference" }}
target = "ga"
{cost}
{budget and f"reference_budget = {budget}"}
matches = 20
seeds = [3]
workers = 1
paper = true

[[methods]]
label = "SA"
method = "sa"
""")
    return path


def without_seconds(log: Path) -> list[tuple]:
    return [tuple(v for k, v in row.items() if k != "seconds") for row in read_log(log)]


def test_a_run_killed_and_resumed_gives_the_same_log(tmp_path):
    config = comparison(tmp_path, "reference_cost = { ran = 41.6, failed = 1.9 }")
    done = cli("run", str(config), "--jobs", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    run = tmp_path / "out" / "runs" / "SA" / "seed3"
    rows = read_log(run / "log.csv")
    charges = [float(r["charge"]) for r in rows]
    assert set(charges) <= {41.6, 1.9} and sum(charges) >= 120 > sum(charges[:-1])
    reference = without_seconds(run / "log.csv")
    # a kill: the log cut inside a row, the run not done
    text = (run / "log.csv").read_text()
    lines = text.splitlines(keepends=True)
    (run / "log.csv").write_text("".join(lines[:len(lines) // 2]) + lines[len(lines) // 2][:9])
    (run / "done").unlink()
    resumed = cli("resume", str(run), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert without_seconds(run / "log.csv") == reference


@pytest.mark.parametrize(("cost", "budget", "message"), [
    ("reference_cost = { ran = -1, failed = 1.9 }", "120", "ran must be a number >= 0"),
    ("reference_cost = { ran = 41.6 }", "120", "needs a cost for failed"),
    ("reference_cost = { ran = 41.6, failed = 1.9, crashed = 3 }", "120", "unknown outcome"),
    ("reference_cost = { ran = 41.6, failed = 1.9 }", "0", "reference_budget must be"),
    ("reference_cost = { ran = 41.6, failed = 1.9 }", "", "reference_cost needs reference_budget"),
    ("", "120", "reference_budget needs reference_cost"),
])
def test_bad_values_are_one_line_and_write_nothing(tmp_path, cost, budget, message):
    result = cli("run", str(comparison(tmp_path, cost, budget)), "--jobs", "1", "--quiet")
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
