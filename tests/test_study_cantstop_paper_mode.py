"""``experiments.studies.cantstop_paper_mode``: the failure counts, medians and error kinds
of random programs, worked by hand, and a few real random programs measured."""

from types import SimpleNamespace

import pytest

from experiments.studies import cantstop_paper_mode as study


def _row(psi, seconds, error=None):
    return {"dsl": "d", "psi": psi, "failed": error is not None, "error": error,
            "seconds": seconds, "program": "p"}


ROWS = [_row(0.0, 0.01, "ProgramFailure: TypeError: bad operand"),
        _row(0.0, 0.03, "ProgramFailure: TypeError: other"),
        _row(0.0, 0.02, "ProgramFailure: IndexError: list index"),
        _row(0.1, 0.5), _row(0.3, 0.7)]


def test_summarize_counts_failures_by_kind_and_takes_medians():
    s = study.summarize(ROWS)
    assert s["programs"] == 5 and s["failed"] == 3
    assert s["median_psi"] == 0.0 and s["median_psi_of_programs_that_run"] == pytest.approx(0.2)
    assert s["share_with_psi_above_0"] == pytest.approx(0.4) and s["best_psi"] == 0.3
    assert s["mean_seconds_failing"] == pytest.approx(0.02)
    assert s["mean_seconds_running"] == pytest.approx(0.6)
    assert s["errors"] == {"TypeError": 2, "IndexError": 1}
    assert list(s["errors"]) == ["TypeError", "IndexError"]  # most frequent first


def test_summarize_without_failures_or_runs_leaves_those_cells_empty():
    assert study.summarize(ROWS[3:])["mean_seconds_failing"] is None
    only_failures = study.summarize(ROWS[:3])
    assert only_failures["median_psi_of_programs_that_run"] is None
    assert only_failures["mean_seconds_running"] is None


def test_table_rows_and_failure_lines():
    args = SimpleNamespace(programs=5, matches=10, seed=0, rules="paper",
                           languages=["sketch-paper", "sketch"], out="o")
    text = study.table({"sketch-paper": study.summarize(ROWS),
                        "sketch": study.summarize(ROWS[3:])}, args)
    assert "| sketch-paper | 3/5 | 0.000 | 0.200 | 0.40 | 0.300 | 0.0200 | 0.6000 |" in text
    assert "| sketch | 0/2 | 0.200 | 0.200 | 1.00 | 0.300 | – | 0.6000 |" in text
    assert "Failures of sketch-paper by error: TypeError 2, IndexError 1" in text
    assert "Failures of sketch " not in text
    assert "--languages sketch-paper sketch --out o" in text


def test_measure_random_programs_of_both_languages():
    for dsl in ("sketch", "sketch-paper"):
        rows = study.measure(dsl, programs=4, matches=2, seed=3, rules="paper")
        assert len(rows) == 4 and all(r["dsl"] == dsl for r in rows)
        for r in rows:
            assert 0.0 <= r["psi"] <= 1.0
            assert (r["error"] is not None) == r["failed"]
        again = study.measure(dsl, programs=4, matches=2, seed=3, rules="paper")
        assert [dict(r, seconds=0) for r in rows] == [dict(r, seconds=0) for r in again]
        if dsl == "sketch":  # the typed language: every program runs
            assert not any(r["failed"] for r in rows)
