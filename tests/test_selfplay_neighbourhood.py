"""Self-play's SA and hill-climbing oracles with the synthesizers' neighbourhood setting:
the semantic one replays in another process and is recorded; the syntactic default
leaves runs (and their config.json) as they were."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main

ROOT = Path(__file__).parent.parent
FILES = ("config.json", "sequence.json", "program0.txt", "program1.txt", "program2.txt",
         "final.txt")


def selfplay(oracle: str, *extra: str) -> list[str]:
    return ["selfplay", "cantstop", "--oracle", oracle, "--iterations", "2",
            "--evaluations", "12", "--matches", "4", "--seed", "3", "--workers", "1", *extra]


def run_in_process(hash_seed: str, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def contents(run: Path) -> dict[str, str]:
    return {name: (run / name).read_text() for name in FILES}


def test_a_semantic_sa_oracle_replays_in_another_process_and_is_recorded(tmp_path):
    argv = selfplay("sa", "--neighbourhood", "semantic")
    first, second = tmp_path / "first", tmp_path / "second"
    done = run_in_process("1", *argv, "--out", str(first))
    assert done.returncode == 0, done.stderr
    assert run_in_process("2", *argv, "--out", str(second)).returncode == 0
    assert contents(first) == contents(second)
    config = json.loads((first / "config.json").read_text())
    assert config["neighbourhood"] == "semantic" and config["semantic_epsilon"] == 0.2
    syntactic = tmp_path / "syntactic"
    assert main([*selfplay("sa"), "--out", str(syntactic)]) == 0
    assert (json.loads((syntactic / "sequence.json").read_text())["programs"]
            != json.loads((first / "sequence.json").read_text())["programs"])


@pytest.mark.parametrize("oracle", ["sa", "hc"])
def test_the_syntactic_default_writes_the_same_run_as_saying_it(tmp_path, oracle):
    extra = ("--neighbours", "4") if oracle == "hc" else ()
    assert main([*selfplay(oracle, *extra), "--out", str(tmp_path / "default")]) == 0
    assert main([*selfplay(oracle, *extra), "--neighbourhood", "syntactic",
                 "--out", str(tmp_path / "said")]) == 0
    assert contents(tmp_path / "default") == contents(tmp_path / "said")
    config = json.loads((tmp_path / "default" / "config.json").read_text())
    assert "neighbourhood" not in config and "semantic_epsilon" not in config


def test_a_semantic_hill_climbing_oracle_records_its_epsilon(tmp_path):
    assert main([*selfplay("hc", "--neighbours", "4"), "--neighbourhood", "semantic",
                 "--semantic-epsilon", "0.5", "--out", str(tmp_path / "hc")]) == 0
    config = json.loads((tmp_path / "hc" / "config.json").read_text())
    assert config["neighbourhood"] == "semantic" and config["semantic_epsilon"] == 0.5
    assert (tmp_path / "hc" / "final.txt").is_file()


@pytest.mark.parametrize("argv, problem", [
    (["selfplay", "tictactoe", "--oracle", "sa", "--neighbourhood", "semantic"],
     "declares no behaviour"),
    (["selfplay", "cantstop", "--oracle", "hss", "--neighbourhood", "semantic"],
     "only the SA and hill-climbing oracles"),
    (["selfplay", "cantstop", "--neighbourhood", "semnatic"],
     "neighbourhood must be one of syntactic, semantic")])
def test_a_neighbourhood_the_run_cannot_take_is_refused_before_anything_is_written(
        tmp_path, capsys, argv, problem):
    out = tmp_path / "run"
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0] and not out.exists()


def test_the_hill_climber_tells_each_move_to_a_better_program():
    import random

    from gp.evaluator import Budget, Evaluator
    from qd.hill_climbing import sampled_hill_climbing

    ev = Evaluator({"psi": lambda x: -abs(x - 5)}, str, Budget(evaluations=60))
    moves = []
    sampled_hill_climbing(ev, 0, lambda x, rng: x + rng.choice((-1, 1)), random.Random(2), 3,
                          on_move=lambda program, value: moves.append((program, value)))
    assert moves and [p for p, _ in moves] == list(range(1, 6))
    assert [v for _, v in moves] == [-4, -3, -2, -1, 0]
