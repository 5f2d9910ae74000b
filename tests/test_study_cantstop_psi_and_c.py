"""``experiments.studies.cantstop_psi_and_c`` (the sketch-learning paper's Figs. 7-8) on a
hand-made log: which programs it keeps, where C comes from, the per-run summary."""

import csv
import json
from pathlib import Path

import pytest

from experiments.studies import cantstop_psi_and_c as study

HEADER = ("seconds", "evaluations", "metric", "value", "program")


def _run(root: Path, rows) -> Path:
    run_dir = root / "Sketch-SA_O" / "seed1"
    run_dir.mkdir(parents=True)
    (run_dir / "config.json").write_text(json.dumps({"game": "cantstop", "score": "O",
                                                     "data": "d.jsonl"}))
    with (run_dir / "log.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return run_dir


@pytest.fixture
def scored(monkeypatch):
    """C computed afterwards: 0.1 per line of the program; calls are counted."""
    calls = []

    def score(program: str) -> float:
        calls.append(program)
        return 0.1 * len(program.splitlines())

    monkeypatch.setattr(study, "cloning_score", lambda config: score)
    return calls


def test_measured_keeps_first_psi_of_each_program_with_its_c(tmp_path, scored):
    run_dir = _run(tmp_path, [
        (1.0, 1, "c", 0.45, "a"),                # C from the sketch search
        (2.0, 2, "psi", 0.1, "a"),
        (3.0, 3, "psi", 0.0, "b\\nb"),           # C computed: two lines
        (4.0, 4, "psi", 0.3, "a"),               # measured again: ignored
        (5.0, 5, "psi-fresh", 0.9, "c"),         # not Ψ of the search
        (6.0, 6, "psi", 0.2, "c\\nc\\nc"),
    ])
    rows = study.measured(run_dir)
    assert [(r["evaluation"], r["psi"], r["best_so_far"], r["program"]) for r in rows] == [
        (2, 0.1, True, "a"), (3, 0.0, False, "b\nb"), (6, 0.2, True, "c\nc\nc")]
    assert [r["c"] for r in rows] == pytest.approx([0.45, 0.2, 0.3])
    assert scored == ["b\nb", "c\nc\nc"]  # "a" kept the sketch search's C


def test_summary_counts_and_spearman_over_programs_above_zero():
    rows = [{"run": "r", "evaluation": e, "psi": psi, "c": c, "best_so_far": best,
             "program": str(e)}
            for e, psi, c, best in [(1, 0.1, 0.3, True), (2, 0.0, 0.9, False),
                                    (3, 0.2, 0.2, True), (4, 0.3, 0.1, True)]]
    lines = study.summary(rows).splitlines()
    assert lines[2] == ("| r | 4 | 3 | -1.00 | 1 (0.100, 0.300); 3 (0.200, 0.200); "
                        "4 (0.300, 0.100) |")
    few = study.summary(rows[:2]).splitlines()[2]
    assert few == "| r | 2 | 1 | — | 1 (0.100, 0.300) |"  # ρ needs three programs


def test_main_writes_the_shown_programs_summary_and_figures(tmp_path, scored):
    run_dir = _run(tmp_path, [(1.0, 1, "psi", 0.1, "a"), (2.0, 2, "psi", 0.0, "b"),
                              (3.0, 3, "psi", 0.0, "c"), (4.0, 4, "psi", 0.4, "d\\nd")])
    out = tmp_path / "out"
    assert study.main([str(run_dir), "--out", str(out)]) == 0
    with (out / "psi-and-c.csv").open(newline="") as fh:
        shown = list(csv.DictReader(fh))
    # the best so far and the programs with Ψ > 0; "b" and "c" are neither
    assert [r["program"] for r in shown] == ["a", "d\nd"]
    assert "| 4 | 2 |" in (out / "psi-and-c.md").read_text()
    for figure in ("fig7-psi-and-c-over-search.png", "fig8-programs-by-psi-and-c.png"):
        assert (out / figure).stat().st_size > 0


def test_a_run_without_its_log_is_read_back_from_the_earlier_report(tmp_path, scored,
                                                                    capsys):
    run_dir = _run(tmp_path, [(1.0, 1, "psi", 0.1, "a"), (2.0, 2, "psi", 0.0, "b"),
                              (3.0, 3, "psi", 0.0, "c"), (4.0, 4, "psi", 0.4, "d\\nd")])
    out = tmp_path / "out"
    assert study.main([str(run_dir), "--out", str(out)]) == 0
    first = {name: (out / name).read_bytes() for name in ("psi-and-c.csv", "psi-and-c.md")}
    (run_dir / "log.csv").unlink()
    scored.clear()
    assert study.main([str(run_dir), "--out", str(out)]) == 0
    assert scored == []  # nothing scored again
    for name, content in first.items():
        assert (out / name).read_bytes() == content, name
    other = tmp_path / "other"  # no log, not in the report: left out, said so
    assert study.main([str(run_dir), str(other), "--out", str(out)]) == 0
    assert "other: left out" in capsys.readouterr().err
    for name, content in first.items():
        assert (out / name).read_bytes() == content, name


def test_runs_in_seed_order_and_rho_undefined_where_c_is_constant():
    rows = [{"run": f"m/seed{seed}", "evaluation": e, "psi": 0.1 * e, "c": 0.5,
             "best_so_far": True, "program": str(e)} for seed in (11, 2) for e in (1, 2, 3)]
    lines = study.summary(rows).splitlines()[2:]
    assert [line.split(" | ")[0] for line in lines] == ["| m/seed2", "| m/seed11"]
    assert all(" | C constant | " in line for line in lines)


def test_the_report_says_which_runs_their_budget_and_the_command(tmp_path, scored):
    run_dir = _run(tmp_path, [(1.0, 1, "psi", 0.1, "a"), (2.0, 2, "psi", 0.4, "b")])
    config = json.loads((run_dir / "config.json").read_text())
    (run_dir / "config.json").write_text(json.dumps({**config, "evaluations": 10000,
                                                     "matches": 1000}))
    out = tmp_path / "out"
    assert study.main([str(run_dir), "--out", str(out)]) == 0
    text = (out / "psi-and-c.md").read_text()
    assert text.startswith("# Ψ against C: the sketch-learning paper's Figs. 7 and 8\n")
    assert "1 run (Sketch-SA_O seeds 1)" in text
    assert "Every run had 10,000 evaluations (C and Ψ), Ψ over 1,000 matches" in text
    assert f"cantstop_psi_and_c RUN... --out {out}`" in text


def test_the_report_gives_no_budget_where_the_runs_differ(tmp_path):
    a, b = tmp_path / "M" / "seed1", tmp_path / "M" / "seed2"
    for run, evaluations in ((a, 100), (b, 200)):
        run.mkdir(parents=True)
        (run / "config.json").write_text(json.dumps({"evaluations": evaluations,
                                                     "matches": 10}))
    text = study.header([b, a], tmp_path)
    assert "2 runs (M seeds 1, 2)" in text and "Every run had" not in text
