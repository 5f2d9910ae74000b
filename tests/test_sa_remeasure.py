"""SA re-measuring its restart program on fresh matches (the sketch-learning paper's reference
code)."""

import subprocess
import sys
from pathlib import Path

from experiments.cli import main
from games import load_game
from games.cantstop import glenn_aloi_player
from gp.evaluator import read_log
from gp.fitness import FreshWinRate, WinRate, program_seed
from gp.languages.cantstop import SketchStrategy

ROOT = Path(__file__).parent.parent
GA_TEXT = (ROOT / "experiments" / "programs" / "cantstop_ga.txt").read_text()


def test_each_re_measurement_plays_matches_not_played_before():
    psi = WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy, matches=50, seed=3)
    fresh = FreshWinRate(psi)
    text = SketchStrategy(GA_TEXT).text
    seeds = {program_seed(3, text), fresh.seed_for(text, 1), fresh.seed_for(text, 2)}
    assert len(seeds) == 3
    values = [fresh(GA_TEXT) for _ in range(4)]
    assert fresh.calls[text] == 4 and len(set(values)) > 1  # other matches, other Ψ
    fresh.remember(text, values[0])
    assert fresh.calls[text] == 5


def synth(out, *extra):
    return ["synth", "cantstop", "--method", "sa", "--remeasure-restarts", "--evaluations", "260",
            "--matches", "20", "--seed", "4", "--workers", "1", "--quiet", "--out", str(out),
            *extra]


def test_restarts_are_re_measured_and_replay_after_a_kill(tmp_path):
    assert main(synth(tmp_path / "whole")) == 0
    rows = read_log(tmp_path / "whole" / "log.csv")
    fresh = [i for i, r in enumerate(rows) if r["metric"] == "psi-fresh"]
    assert fresh, "no schedule ended within the budget"
    for i in fresh:  # the restart program is the best so far, measured again
        best = max((r for r in rows[:i] if r["metric"] == "psi"), key=lambda r: float(r["psi"]))
        assert rows[i]["program"] == best["program"]
    cut = tmp_path / "cut"
    subprocess.run([sys.executable, "-m", "experiments.cli", *synth(cut)], cwd=ROOT, check=True,
                   capture_output=True)
    lines = (cut / "log.csv").read_text().splitlines(keepends=True)
    (cut / "log.csv").write_text("".join(lines[:fresh[0] + 30]))  # killed after a re-measure
    (cut / "done").unlink()
    resumed = subprocess.run([sys.executable, "-m", "experiments.cli", "resume", str(cut),
                              "--quiet"], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    again = read_log(cut / "log.csv")
    assert [(r["metric"], r["program"], r["value"]) for r in again] == \
        [(r["metric"], r["program"], r["value"]) for r in rows]


def test_remeasuring_needs_sa_on_psi(capsys, tmp_path):
    assert main(synth(tmp_path / "gp", "--method", "gp")) == 2
    assert "remeasure_restarts" in capsys.readouterr().err
