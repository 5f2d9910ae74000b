"""The Python API gives what the command line gives, from the same settings."""

import json

import pytest

from experiments.api import play, resume, run_qd, synthesize
from experiments.cli import main
from gp.evaluator import read_log

from .fitness_plugin import brevity


def test_play_matches_the_command_line(capsys):
    summary = play("cantstop", "random", "ga", matches=30, seed=5)
    assert main(["play", "cantstop", "--p0", "random", "--p1", "ga", "-n", "30", "--seed", "5",
                 "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"] == summary.wins


def test_synthesize_writes_the_same_run_as_the_command_line(tmp_path):
    result = synthesize("cantstop", method="sa", evaluations=10, matches=30, seed=2, workers=1,
                        out=tmp_path / "api")
    assert main(["synth", "cantstop", "--method", "sa", "--evaluations", "10", "--matches", "30",
                 "--seed", "2", "--workers", "1", "--quiet", "--out", str(tmp_path / "cli")]) == 0
    api_log, cli_log = read_log(result.log), read_log(tmp_path / "cli" / "log.csv")
    assert [r["program"] for r in api_log] == [r["program"] for r in cli_log]
    assert result.evaluations == 10 and result.best_program in {r["program"] for r in api_log}
    assert resume(result.run_dir).best_psi == pytest.approx(result.best_psi, abs=1e-6)


def test_a_fitness_function_is_recorded_by_reference(tmp_path):
    result = synthesize("cantstop", fitness=brevity, evaluations=4, workers=1,
                        out=tmp_path / "run")
    config = json.loads((result.run_dir / "config.json").read_text())
    assert config["fitness"] == "tests.fitness_plugin:brevity"
    with pytest.raises(ValueError, match="importable"):
        synthesize("cantstop", fitness=lambda p, game, seed: 0.0, evaluations=2,
                   out=tmp_path / "lambda")


def test_run_qd_returns_the_archive(tmp_path):
    archive = run_qd("cantstop", features=["markers_per_stop", "bust_rate"], dims=[4, 4],
                     evaluations=16, matches=20, batch=4, workers=1, out=tmp_path / "qd")
    assert archive.stats()["elites"] >= 1
    assert json.loads((tmp_path / "qd" / "config.json").read_text())["kind"] == "qd"
