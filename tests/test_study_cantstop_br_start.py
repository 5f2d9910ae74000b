"""``experiments.studies.cantstop_br_start`` on hand-made run directories: the per-seed
pairing, the digest that tells identical runs, and the tests of the final best Ψ."""

import csv
import json
from pathlib import Path

from experiments.studies import cantstop_br_start as study

HEADER = ("seconds", "evaluations", "metric", "value", "program")


def _run(root: Path, label: str, seed: int, rows) -> Path:
    run_dir = root / "runs" / label / f"seed{seed}"
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text(json.dumps({
        "label": label, "seed": seed, "method": "sketch-uct", "fitness": "psi",
        "matches": 1000, "sketch_share": 0.9, "evaluations": 6000, "br_start": label}))
    with (run_dir / "log.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows(rows)
    (run_dir / "done").write_text("")
    return run_dir


def test_a_run_improving_after_the_sketch_share_counts_as_improved_in_br(tmp_path):
    _run(tmp_path, "complete", 1, _rows(0.1) + [(9.0, 5401, "psi", 0.2, "late")])
    _run(tmp_path, "complete", 2, _rows(0.1) + [(9.0, 5400, "psi", 0.2, "sketch")])
    runs = study.finished(tmp_path)["complete"]
    assert runs[1]["improved_in_br"] and not runs[2]["improved_in_br"]


def _rows(*psi, late=0.0):
    return [(1.0 + late, 1, "c", 0.5, "x")] + [
        (2.0 + i + late, 2 + i, "psi", v, f"p{i}_{v}") for i, v in enumerate(psi)]


def test_report_pairs_seeds_marks_identical_runs_and_tests_final_best(tmp_path):
    _run(tmp_path, "complete", 1, _rows(0.0, 0.2, 0.1))
    _run(tmp_path, "incomplete", 1, _rows(0.0, 0.05, 0.1))
    _run(tmp_path, "complete", 2, _rows(0.0, 0.3))
    _run(tmp_path, "incomplete", 2, _rows(0.0, 0.3, late=5.0))  # same, later
    _run(tmp_path, "complete", 3, _rows(0.1, 0.0, 0.4))
    _run(tmp_path, "incomplete", 3, _rows(0.1, 0.0, 0.0))
    path = study.report(tmp_path, tmp_path / "out", "cmd")
    text = path.read_text()
    # seed 1: complete 0.2 reached at its 2nd Ψ evaluation, incomplete 0.1 at its 3rd
    assert "| 1 | 0.200 (2) | 0.100 (3) | no |" in text
    assert "| 2 | 0.300 (2) | 0.300 (2) | yes |" in text
    assert "| 3 | 0.400 (3) | 0.100 (1) | no |" in text
    assert "medians 0.300 (complete) against 0.100 (incomplete)" in text
    assert "Wilcoxon signed-rank" in text
    # the sketch share ends at evaluation 5,400: no run here improved after it
    assert "complete 0 of 3, incomplete 0 of 3" in text
    assert (tmp_path / "out" / "psi-by-evaluations.png").stat().st_size > 0
    # the digest ignores times: the same evaluations at other times digest the same
    a = json.loads((tmp_path / "runs/complete/seed2" / study.DIGEST_FILE).read_text())
    b = json.loads((tmp_path / "runs/incomplete/seed2" / study.DIGEST_FILE).read_text())
    assert a == b


def test_report_names_the_shipped_config_of_its_runs(tmp_path):
    from pathlib import Path

    root = Path(study.__file__).resolve().parents[2]
    runs = root / "experiments/results/cantstop-br-start/fig5-paper-budget"
    assert study.config_file(runs) == \
        "experiments/configs/cantstop_br_start_fig5_paper_budget.toml"
    assert study.config_file(runs.parent / "fig5") == \
        "experiments/configs/cantstop_br_start_fig5.toml"
    assert study.config_file(tmp_path) == "CONFIG.toml"  # no shipped config writes there
