"""Determinism shipped as tests: the same run in fresh processes gives the same log,
for every synthesizer and for MAP-Elites, and a ``stratsynth qd`` process killed
with SIGKILL resumes, in a new process, to the uninterrupted run's log (and a killed
``stratsynth selfplay`` continues to the uninterrupted run's programs)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gp.evaluator import read_log

ROOT = Path(__file__).parent.parent
RANDOM_DATA = ROOT / "experiments" / "data" / "cantstop_random.jsonl"


def cli(*argv, hash_seed: str = "0", check: bool = True) -> subprocess.CompletedProcess:
    """``stratsynth ARGV`` in a fresh interpreter (its own type addresses and hash seed)."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=check)


def search_of(run: Path) -> list[tuple]:
    return [(r["evaluations"], r["metric"], r["value"], r["program"])
            for r in read_log(run / "log.csv")]


def archive_of(run: Path) -> list[tuple]:
    return [(r["program"], r["value"], r["measures"]) for r in read_log(run / "log.csv")]


@pytest.mark.parametrize("method", [
    ["sa"], ["uct"], ["gp", "--population", "6"], ["gp-simple", "--population", "6"],
    ["sketch-sa", "--score", "O", "--data", str(RANDOM_DATA), "--sketch-share", "0.5"],
    ["sketch-uct", "--score", "A", "--data", str(RANDOM_DATA), "--sketch-share", "0.5"],
])
def test_every_synthesizer_gives_the_same_log_in_two_processes(tmp_path, method):
    runs = []
    for k, hash_seed in enumerate(("1", "2")):
        run = tmp_path / f"run{k}"
        cli("synth", "cantstop", "--method", *method, "--evaluations", "16", "--matches", "20",
            "--seed", "7", "--workers", "1", "--quiet", "--out", str(run), hash_seed=hash_seed)
        runs.append(search_of(run))
    assert len(runs[0]) == 16 and runs[0] == runs[1]


QD = ("qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims", "6,6",
      "--matches", "30", "--batch", "4", "--evaluations", "48", "--seed", "11", "--workers", "1",
      "--quiet")


def test_map_elites_gives_the_same_archive_in_two_processes(tmp_path):
    for k, hash_seed in enumerate(("1", "2")):
        cli(*QD, "--out", str(tmp_path / f"run{k}"), hash_seed=hash_seed)
    first, second = archive_of(tmp_path / "run0"), archive_of(tmp_path / "run1")
    assert len(first) == 48 and first == second


def test_qd_killed_with_sigkill_resumes_in_a_new_process_to_the_same_archive(tmp_path):
    reference = tmp_path / "reference"
    cli(*QD, "--out", str(reference))
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *QD, "--out", str(killed)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = killed / "log.csv"
    deadline = time.time() + 300  # generous: CI machines may be loaded
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= 17:  # header + 16 evaluations
            break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    interrupted = len(read_log(log))
    assert 0 < interrupted < 48, "the run finished before it could be killed"
    resumed = cli("resume", str(killed), "--quiet", hash_seed="3")
    assert resumed.returncode == 0, resumed.stderr
    assert archive_of(killed) == archive_of(reference)
    assert json.loads((killed / "archive.json").read_text()) == \
        json.loads((reference / "archive.json").read_text())


SELFPLAY = ("selfplay", "cantstop", "--oracle", "hss", "--driver", "fp", "--features",
            "markers_per_stop,bust_rate", "--levels", "3", "--iterations", "4",
            "--evaluations", "6", "--matches", "10", "--local-evaluations", "3",
            "--seed", "9", "--workers", "1")


def test_selfplay_killed_with_sigkill_continues_in_a_new_process_to_the_same_programs(tmp_path):
    reference = tmp_path / "reference"
    cli(*SELFPLAY, "--out", str(reference), hash_seed="1")
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *SELFPLAY,
                             "--out", str(killed)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "2"})
    sequence = killed / "sequence.json"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        try:
            if len(json.loads(sequence.read_text())["programs"]) >= 2:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(json.loads(sequence.read_text())["programs"]) - 1
    assert 1 <= done < 4, "the run finished before it could be killed"
    assert cli(*SELFPLAY, "--out", str(killed), hash_seed="3").returncode == 0
    for name in ("sequence.json", "library.json", "program4.txt"):
        assert (killed / name).read_text() == (reference / name).read_text()


POPULATION = {
    "do": ("selfplay", "cantstop", "--driver", "do", "--oracle", "hss", "--features",
           "markers_per_stop,bust_rate", "--levels", "3", "--iterations", "4",
           "--evaluations", "6", "--matches", "10", "--local-evaluations", "3",
           "--seed", "9", "--workers", "1"),
    "2l": ("selfplay", "cantstop", "--driver", "2l", "--oracle", "hc", "--neighbours", "3",
           "--iterations", "4", "--evaluations", "8", "--matches", "10", "--seed", "9",
           "--workers", "1"),
}


@pytest.mark.parametrize("driver", sorted(POPULATION))
def test_a_population_driver_killed_with_sigkill_continues_to_the_same_state(tmp_path, driver):
    command = POPULATION[driver]
    reference = tmp_path / "reference"
    cli(*command, "--out", str(reference), hash_seed="1")
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *command,
                             "--out", str(killed)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "2"})
    state = killed / "state.json"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        try:
            if json.loads(state.read_text())["calls"] >= 1:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = json.loads(state.read_text())["calls"]
    assert 1 <= done < 4, "the run finished before it could be killed"
    assert cli(*command, "--out", str(killed), hash_seed="3").returncode == 0
    for name in ("state.json", "calls.csv", "final.txt", "config.json"):
        assert (killed / name).read_text() == (reference / name).read_text()
