"""The syntactic-against-semantic study: both runs per seed, their figures, and a
second call that reads the finished runs instead of running them again."""

import json

from experiments.studies.semantic_search import main


def test_the_study_runs_both_neighbourhoods_and_reports_their_figures(tmp_path, capsys):
    argv = ["--evaluations", "8", "--matches", "10", "--seeds", "1", "--fresh", "20",
            "--marks", "4", "--out", str(tmp_path)]
    assert main(argv) == 0
    runs = json.loads((tmp_path / "comparison.json").read_text())["runs"]
    assert [(r["neighbourhood"], r["seed"]) for r in runs] == [("syntactic", 1),
                                                                ("semantic", 1)]
    for r in runs:
        assert 0 <= r["best_at_4"] <= r["best"] <= 1 and 1 <= r["found_at"] <= 8
        assert 0 <= r["look_alike"] < 1 and 0 <= r["fresh"] <= 1
    logs = [(tmp_path / f"{nb}-seed1" / "log.csv").read_text() for nb in ("syntactic",
                                                                          "semantic")]
    assert logs[0] != logs[1]
    report = (tmp_path / "comparison.md").read_text()
    assert "look-alike evaluations" in report and "best Ψ after 4 evaluations" in report
    capsys.readouterr()
    assert main(argv) == 0 and json.loads((tmp_path / "comparison.json").read_text())[
        "runs"] == runs
