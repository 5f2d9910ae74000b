"""``experiments.studies.microrts_from_scratch`` on hand-made run directories: Ψ and C split
from a ``psi+c`` log, when Ψ first leaves 0, the plateau share, and the method table."""

import csv
import json
import math
from pathlib import Path

import pytest

from experiments.studies import microrts_from_scratch as study

HEADER = ("seconds", "evaluations", "metric", "value", "program")


def _run(root: Path, label: str, seed: int, rows, *, done: bool = True, **config) -> Path:
    run_dir = root / "runs" / label.replace(" ", "_") / f"seed{seed}"
    run_dir.mkdir(parents=True)
    settings = {"label": label, "seed": seed, "target": "coac", "matches": None,
                "game_params": {"map": "16x16"}, "fitness": "psi", **config}
    (run_dir / "config.json").write_text(json.dumps(settings))
    with (run_dir / "log.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows((*row, "p") for row in rows)
    if done:
        (run_dir / "done").write_text("")
    return run_dir


@pytest.fixture
def comparison(tmp_path) -> Path:
    _run(tmp_path, "SA", 1, [(1.0, 1, "psi", 0.0), (2.0, 2, "psi", 0.0), (3.0, 3, "psi", 0.25),
                             (4.0, 4, "psi", 0.0), (60.0, 5, "psi", 0.5)])
    _run(tmp_path, "SA", 2, [(1.0, 1, "psi", 0.0), (2.0, 2, "psi", 0.0),
                             (120.0, 3, "psi", 0.0)])
    _run(tmp_path, "SA", 3, [(1.0, 1, "psi", 1.0)], done=False)
    # Ψ + C * 0.25 / 1.25: (0, 0.8), (0.25, 0.9), (0, 0.5)
    _run(tmp_path, "SA psi+c", 1, [(1.0, 1, "psi", 0.16), (2.0, 2, "psi", 0.43),
                                   (3.0, 3, "psi", 0.1)], fitness="psi+c")
    _run(tmp_path, "Sketch-SA(O)", 1, [(1.0, 1, "c", 0.5), (2.0, 2, "psi", 0.0),
                                       (3.0, 3, "c", 0.7), (4.0, 4, "psi", 1.0)])
    return tmp_path


def test_resolution_is_half_a_match():
    assert study.resolution({"matches": None}) == 0.25
    assert study.resolution({"matches": 4}) == 0.125


@pytest.mark.parametrize("value, expected", [
    (0.16, (0.0, 0.8)), (0.43, (0.25, 0.9)), (0.5, (0.5, 0.0)), (1.1, (1.0, 0.5))])
def test_split_tie_break_recovers_psi_and_c(value, expected):
    assert study.split_tie_break(value, 0.25) == pytest.approx(expected)


def test_run_facts_first_exit_from_zero_and_plateau(comparison):
    run = study.read_run(comparison / "runs" / "SA" / "seed1")
    assert study.run_facts(run) == {"best": 0.5, "first_above_0": 3,
                                    "first_above_0_seconds": 3.0, "at_0": 0.6,
                                    "psi_evaluations": 5}
    never = study.run_facts(study.read_run(comparison / "runs" / "SA" / "seed2"))
    assert never["first_above_0"] is None and never["best"] == 0.0 and never["at_0"] == 1.0


def test_best_by_is_the_best_psi_logged_so_far(comparison):
    run = study.read_run(comparison / "runs" / "SA" / "seed1")
    assert math.isnan(study.best_by(run, 0.5))
    assert [study.best_by(run, s) for s in (2.5, 3.0, 100.0)] == [0.0, 0.25, 0.5]


def test_best_after_counts_psi_evaluations_not_c_ones(comparison):
    run = study.read_run(comparison / "runs" / "SA" / "seed1")
    assert math.isnan(study.best_after(run, 0))
    assert [study.best_after(run, k) for k in (1, 2, 3, 4, 5, 99)] == \
        [0.0, 0.0, 0.25, 0.25, 0.5, 0.5]
    sketch = study.read_run(comparison / "runs" / "Sketch-SA(O)" / "seed1")
    assert sketch["improvements_by_evaluation"] == [(1, 0.0), (2, 1.0)]


def test_psi_plus_c_runs_are_split_and_c_metric_rows_kept(comparison):
    tie = study.read_run(comparison / "runs" / "SA_psi+c" / "seed1")
    assert [t for t, _ in tie["improvements"]] == [1.0, 2.0]
    assert [psi for _, psi in tie["improvements"]] == pytest.approx([0.0, 0.25])
    assert tie["facts"]["at_0"] == pytest.approx(2 / 3)
    assert tie["best_c"] == pytest.approx(0.9)
    sketch = study.read_run(comparison / "runs" / "Sketch-SA(O)" / "seed1")
    assert sketch["best_c"] == 0.7 and sketch["improvements"] == [(2.0, 0.0), (4.0, 1.0)]
    assert study.read_run(comparison / "runs" / "SA" / "seed1")["best_c"] is None


def test_condensed_runs_give_the_same_table_without_logs(comparison):
    before = study.table_lines(study.finished_runs(comparison))
    for log in comparison.glob("runs/*/seed*/log.csv"):
        log.unlink()  # full logs are not committed
    assert study.table_lines(study.finished_runs(comparison)) == before


def test_table_per_method(comparison):
    methods = study.finished_runs(comparison)
    assert [r["seed"] for r in methods["SA"]] == [1, 2]  # seed 3 is unfinished
    lines = study.table_lines(methods)
    # best Ψ 0.5 and 0; plateau shares 3/5 and 3/3; CPU seconds 60 and 120
    assert "| SA | 2 | 0.250 [0.125–0.375] | 1/2 | 0/2 | 3 (1) | 80% | not scored | 4 | " \
        "1.5 |" in lines
    assert "| SA psi+c | 1 | 0.250 [0.250–0.250] | 1/1 | 0/1 | 2 (1) | 67% | " \
        "0.900 [0.900–0.900] | 3 | 0.1 |" in lines
    assert "| Sketch-SA(O) | 1 | 1.000 [1.000–1.000] | 1/1 | 1/1 | 2 (1) | 50% | " \
        "0.700 [0.700–0.700] | 2 | 0.1 |" in lines


def test_report_writes_page_and_figure(comparison):
    path = study.report(comparison)
    text = path.read_text()
    assert path.name == study.REPORT_FILE and (comparison / study.FIGURE_FILE).stat().st_size
    assert text.startswith("# microRTS from random programs against coac: 16x16")
    assert "Longest run: 2.0 CPU minutes, 0.069% of the paper's 2 days per run." in text


def test_report_without_finished_runs_says_so(tmp_path):
    _run(tmp_path, "SA", 1, [(1.0, 1, "psi", 0.0)], done=False)
    with pytest.raises(SystemExit, match="no finished runs"):
        study.report(tmp_path)
