"""``experiments.studies.hss_variants``: both variants run at the same budget and seeds,
the summary means their re-scored rates, the file goes where the committed ones are."""

import json
from pathlib import Path

import pytest

from experiments.studies import hss_variants as study

ROOT = Path(__file__).resolve().parents[1]


def test_results_go_beside_the_committed_comparisons():
    assert study.OUT_DIR == ROOT / "experiments" / "results" / "hss"
    assert (study.OUT_DIR / "variants-cantstop-224-evaluations.json").is_file()


def test_a_tiny_comparison_runs_both_variants_and_means_their_rescores(tmp_path, monkeypatch):
    monkeypatch.setattr(study, "OUT_DIR", tmp_path)
    result = study.run(evaluations=6, seeds=2, matches=2, rescore=4)
    assert result["command"] == "python -m experiments.studies.hss_variants 6 2 2 4"
    runs = result["runs"]
    assert [(r["variant"], r["seed"]) for r in runs] == [
        ("published", 1), ("published", 2), ("legacy", 1), ("legacy", 2)]
    for variant in ("published", "legacy"):
        rescored = [r["rescored"] for r in runs if r["variant"] == variant]
        assert result["summary"][variant]["rescored"] == rescored
        assert result["summary"][variant]["mean_rescored"] == pytest.approx(sum(rescored) / 2)
        # 4 fresh matches: each rate is a multiple of 1/8 (draws score ½)
        assert all(abs(r * 8 - round(r * 8)) < 1e-9 for r in rescored)
    written = json.loads((tmp_path / "variants-cantstop-6-evaluations.json").read_text())
    assert written["summary"] == result["summary"]
