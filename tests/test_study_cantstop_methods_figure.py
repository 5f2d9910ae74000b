"""``experiments.studies.cantstop_methods_figure``: finished runs grouped by label (the
method's name without one), refusals, and the figure written."""

import csv
import json
from pathlib import Path

import pytest

from experiments.studies import cantstop_methods_figure as study

HEADER = ("seconds", "evaluations", "metric", "value", "psi", "c", "best_psi", "best_c",
          "measures", "program")


def _run(root: Path, folder: str, seed: int, config: dict, values, done=True) -> None:
    run_dir = root / "runs" / folder / f"seed{seed}"
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text(json.dumps({"seed": seed, "clock": "cpu", **config}))
    with (run_dir / "log.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        for i, v in enumerate(values, 1):
            writer.writerow((60.0 * i, i, "psi", v, v, "", v, "", "", f"p{i}"))
    if done:
        (run_dir / "done").write_text("")


@pytest.fixture
def comparisons(tmp_path):
    typed, paper = tmp_path / "typed", tmp_path / "paper"
    _run(typed, "SA", 1, {"label": "SA", "method": "sa"}, [0.1, 0.3])
    _run(typed, "SA", 2, {"label": "SA", "method": "sa"}, [0.2])
    _run(typed, "SA", 3, {"label": "SA", "method": "sa"}, [0.9], done=False)
    _run(paper, "uct", 1, {"method": "uct"}, [0.05, 0.0, 0.2])  # no label: the method
    return typed, paper


def test_finished_runs_by_label_or_method(comparisons):
    typed, paper = comparisons
    methods = study.finished_runs(typed)
    assert list(methods) == ["SA"] and len(methods["SA"]) == 2  # seed 3 unfinished
    assert sorted(r["best"][-1] for r in methods["SA"]) == [0.2, 0.3]
    assert list(study.finished_runs(paper)) == ["uct"]


def test_no_finished_runs_is_refused(tmp_path):
    _run(tmp_path, "SA", 1, {"label": "SA", "method": "sa"}, [0.1], done=False)
    with pytest.raises(ValueError, match="no finished runs"):
        study.finished_runs(tmp_path)


def test_main_draws_one_panel_per_comparison(comparisons, tmp_path):
    out = tmp_path / "figure.png"
    assert study.main([*map(str, comparisons), "--titles", "typed", "paper",
                       "--out", str(out)]) == 0
    assert out.stat().st_size > 0


def test_main_wants_one_title_per_directory(comparisons, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        study.main([*map(str, comparisons), "--titles", "only one",
                    "--out", str(tmp_path / "f.png")])
    assert exit_.value.code == 2 and "one title per directory" in capsys.readouterr().err
