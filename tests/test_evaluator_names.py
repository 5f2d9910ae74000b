"""The evaluator by names: one objective, extra metrics, logged columns; budgets inside
budgets and views that end a phase early."""

import pytest

from gp.evaluator import Budget, BudgetSpent, Evaluator, ResumeMismatch, read_log
from gp.metrics import Metrics


def _length(text):
    return float(len(text))


def _vowels(text):
    return float(sum(ch in "aeiou" for ch in text))


def test_a_second_auxiliary_metric_is_declared_not_coded(tmp_path):
    metrics = Metrics("score", {"score": _length, "aux": _vowels, "other": _length},
                      ("score", "aux"))
    ev = Evaluator(metrics, str, Budget(evaluations=10), run_dir=tmp_path)
    ev.score("banana")
    ev.score("kiwi", "aux")
    ev.score("fig", "other")
    ev.close()
    rows = read_log(tmp_path / "log.csv")
    assert list(rows[0])[4:8] == ["score", "aux", "best_score", "best_aux"]
    assert [(r["metric"], r["score"], r["aux"]) for r in rows] == [
        ("score", "6.0", ""), ("aux", "", "2.0"), ("other", "", "")]
    assert rows[-1]["best_score"] == "6.0" and rows[-1]["best_aux"] == "2.0"
    assert ev.best_value == 6.0 and ev.best_program == "banana"
    assert (tmp_path / "best.txt").read_text() == "# best score 6.0000\nbanana\n"
    with pytest.raises(KeyError, match="metric 'psi' is not among this run's metrics"):
        ev.score("x", "psi")


def test_an_old_log_keeps_its_objective_name_on_resume(tmp_path):
    ev = Evaluator({"psi": _length}, str, Budget(evaluations=3), run_dir=tmp_path)
    for text in ("ab", "abc"):
        ev.score(text)
    ev.close()
    before = (tmp_path / "log.csv").read_text()
    renamed = Metrics("mine", {"mine": _length}, ("mine", "c"))
    ev = Evaluator(renamed, str, Budget(evaluations=3), run_dir=tmp_path, resume=True)
    assert ev.objective == "psi"
    for text in ("ab", "abc", "abcd"):
        ev.score(text)
    ev.close()
    assert (tmp_path / "log.csv").read_text().startswith(before)
    assert read_log(tmp_path / "log.csv")[-1]["best_psi"] == "4.0"
    other = Metrics("mine", {"mine": _length}, ("mine", "d", "e"))
    with pytest.raises(ResumeMismatch, match="its columns"):
        Evaluator(other, str, Budget(evaluations=9), run_dir=tmp_path, resume=True)


def test_a_child_budget_counts_into_its_parent_and_ends_with_it():
    parent = Budget(evaluations=5)
    child = parent.child(evaluations=3)
    ev = Evaluator({"psi": _length}, str, child)
    for text in ("a", "b", "c"):
        ev.score(text)
    with pytest.raises(BudgetSpent):
        ev.score("d")
    assert (child.used, parent.used) == (3, 3)
    second = Evaluator({"psi": _length}, str, parent.child(evaluations=10))
    second.score("e")
    second.score("f")
    with pytest.raises(BudgetSpent):  # the parent's 5 are used
        second.score("g")
    assert parent.used == 5 and parent.spent()


def test_a_view_ends_a_phase_and_the_evaluator_goes_on():
    ev = Evaluator({"psi": _length}, str, Budget(evaluations=6))
    view = ev.until(lambda: ev.budget.used >= 2)
    view.score("a")
    view.score_many(["bb"])
    with pytest.raises(BudgetSpent):
        view.score("ccc")
    assert view.best_value == 2.0 and view.budget is ev.budget
    ev.score("dddd")
    assert [s.program for s in ev.history] == ["a", "bb", "dddd"]


def test_reading_a_live_log_leaves_its_unfinished_row_alone(tmp_path):
    """A report may read a running run's log: only a resume (the one writer) cuts a row."""
    log = tmp_path / "log.csv"
    text = "seconds,evaluations,program\n1.0,1,a\n2.0,2,b"
    log.write_text(text)
    assert [row["program"] for row in read_log(log)] == ["a"]
    assert log.read_text() == text
    assert [row["program"] for row in read_log(log, repair=True)] == ["a"]
    assert log.read_text() == "seconds,evaluations,program\n1.0,1,a\n"
