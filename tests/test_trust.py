"""A run directory received from someone else cannot make ``stratsynth resume`` (or
``stratsynth run``) run its code, connect to its scheduler or read files outside it,
unless the user names them on the command line (docs/run-directories.md)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.config import SynthesisConfig
from experiments.loader import load, with_identity

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ("from pathlib import Path\n"
           "Path(__file__).with_name('RAN').write_text('hostile code ran')\n"
           "def fit(strategy, *, game, seed):\n    return 1.0\n")


def one_line_error(capsys, argv, *needles) -> str:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:"), err
    for needle in needles:
        assert needle in err, err
    return err


def snapshot(path: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def rows(run: Path) -> list[str]:
    """The log without its seconds column (the rest replays byte for byte)."""
    return [row.split(",", 1)[1] for row in (run / "log.csv").read_text().splitlines()]


def unfinish(run: Path) -> None:
    """The run as a kill leaves it: no ``done``, the last log row lost."""
    (run / "done").unlink(missing_ok=True)
    rows = (run / "log.csv").read_text().splitlines()
    (run / "log.csv").write_text("\n".join(rows[:-1]) + "\n")


def rewrite(run: Path, **changes) -> None:
    """``config.json`` as a sender could write it: changed settings, fresh fingerprints."""
    saved = json.loads((run / "config.json").read_text())
    saved.pop("identity")
    config = load(SynthesisConfig, {**saved, **changes}, "test")
    (run / "config.json").write_text(json.dumps(with_identity(config), indent=2))


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run started with an initial program kept outside its directory."""
    base = tmp_path_factory.mktemp("trust")
    first = base / "first"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "6", "--workers", "1",
                 "--quiet", "--out", str(first)]) == 0
    program = base / "program.txt"
    program.write_text((first / "best.txt").read_text())
    run = base / "run"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "6", "--workers", "1",
                 "--quiet", "--initial", str(program), "--out", str(run)]) == 0
    return run, program


@pytest.fixture
def received(tmp_path, finished):
    """A killed copy of the finished run, as someone could send it."""
    run = tmp_path / "received"
    shutil.copytree(finished[0], run)
    unfinish(run)
    return run


def test_a_fitness_module_shipped_in_the_run_is_not_imported(received, capsys, monkeypatch):
    (received / "hostile.py").write_text(HOSTILE)
    rewrite(received, fitness="hostile:fit", initial=None)
    monkeypatch.chdir(received)
    monkeypatch.syspath_prepend(str(received))  # as `python -m` from there would have it
    before = snapshot(received)
    capsys.readouterr()
    one_line_error(capsys, ["resume", ".", "--quiet"], "fitness 'hostile:fit'",
                   "--fitness hostile:fit", "--trust-config")
    assert not (received / "RAN").exists() and "hostile" not in sys.modules
    assert snapshot(received) == before


def test_python_m_from_a_run_directory_does_not_import_from_it(received):
    """Named on the command line, the module is still looked for where the user's modules
    are, not in the working directory (``python -m`` put it first on sys.path)."""
    (received / "hostile.py").write_text(HOSTILE)
    rewrite(received, fitness="hostile:fit", initial=None)
    before = snapshot(received)
    child = subprocess.run([sys.executable, "-m", "experiments.cli", "resume", ".", "--quiet",
                            "--fitness", "hostile:fit"], cwd=received, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.returncode == 2 and child.stderr.count("\n") == 1, child.stderr
    assert "cannot import hostile" in child.stderr
    assert not (received / "RAN").exists()
    assert snapshot(received) == before


def test_a_fitness_named_again_must_be_the_runs(received, capsys):
    one_line_error(capsys, ["resume", str(received), "--fitness", "tests.fitness_plugin:brevity",
                            "--initial", str(received.parent / "none.txt")],
                   "--fitness tests.fitness_plugin:brevity is not the run's fitness 'psi'")


def test_a_scheduler_named_by_the_run_is_not_connected_to(received, capsys):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    saved = json.loads((received / "config.json").read_text())
    # where it evaluates is not part of a run's identity: no fingerprint to forge
    (received / "config.json").write_text(json.dumps({**saved, "backend": "dask",
                                                      "scheduler": address}))
    before = snapshot(received)
    try:
        one_line_error(capsys, ["resume", str(received), "--quiet"],
                       f"dask scheduler {address}", f"--scheduler {address}")
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody called
    finally:
        listener.close()
    assert snapshot(received) == before


@pytest.mark.parametrize("key", ["initial", "data"])
def test_files_outside_the_run_are_read_only_when_named(received, capsys, key, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("not yours\n")
    extra = {"method": "sketch-sa", "score": "A", "initial": None, "neighbourhood": None,
             "semantic_epsilon": None} if key == "data" else {}  # SA's own settings unset
    for path in (str(outside), "../secret.txt"):
        rewrite(received, **extra, **{key: path})
        before = snapshot(tmp_path)
        one_line_error(capsys, ["resume", str(received), "--quiet"],
                       f"{key} '{path}' is not a file in the run directory", f"--{key} PATH")
        assert snapshot(tmp_path) == before


def test_an_initial_program_named_again_or_inside_the_run_resumes(received, capsys, finished):
    program = finished[1]
    log = rows(finished[0])
    one_line_error(capsys, ["resume", str(received), "--quiet"], "--initial PATH")
    assert main(["resume", str(received), "--quiet", "--initial", str(program)]) == 0
    assert rows(received) == log
    unfinish(received)
    shutil.copy(program, received / "program.txt")
    rewrite(received, initial="program.txt")  # shipped with the run: relative to it
    assert main(["resume", str(received), "--quiet"]) == 0
    assert rows(received) == log
    unfinish(received)
    capsys.readouterr()
    assert main(["resume", str(received), "--quiet", "--trust-config",
                 "--initial", str(program)]) == 0


def test_trust_config_says_what_it_lets_through(received, capsys, finished):
    assert main(["resume", str(received), "--quiet", "--trust-config"]) == 0
    err = capsys.readouterr().err
    assert "trusted (--trust-config): reads " + str(finished[1]) in err
    assert rows(received) == rows(finished[0])


def test_a_qd_run_takes_no_synthesis_trust_flags(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps({"kind": "qd"}))
    one_line_error(capsys, ["resume", str(tmp_path), "--scheduler", "tcp://x:1"],
                   "--scheduler names a setting of synthesis runs")


def test_a_comparison_resumes_with_its_own_settings_not_the_saved_ones(tmp_path, capsys):
    toml = tmp_path / "cmp.toml"
    toml.write_text(f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\n'
                    'evaluations = 3\nworkers = 1\nmatches = 6\n[[methods]]\nmethod = "sa"\n')
    assert main(["run", str(toml), "--quiet"]) == 0
    run = tmp_path / "out" / "runs" / "sa" / "seed0"
    log = rows(run)
    unfinish(run)
    saved = json.loads((run / "config.json").read_text())
    (run / "config.json").write_text(json.dumps({**saved, "backend": "dask",
                                                 "scheduler": "tcp://127.0.0.1:9"}))
    assert main(["run", str(toml), "--quiet"]) == 0  # serial, as the TOML says
    assert rows(run) == log


def test_run_jobs_children_do_not_import_from_the_working_directory(tmp_path, monkeypatch,
                                                                     capsys):
    toml = tmp_path / "cmp.toml"
    toml.write_text(f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\n'
                    'evaluations = 2\nworkers = 1\nmatches = 4\nseeds = [0, 1]\n'
                    '[[methods]]\nmethod = "sa"\n')
    (tmp_path / "tqdm.py").write_text(HOSTILE)  # every run imports tqdm for its progress
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(toml), "--quiet", "--jobs", "2"]) == 0
    assert not (tmp_path / "RAN").exists()
    assert len(list((tmp_path / "out" / "runs" / "sa").glob("seed*/done"))) == 2


def test_two_resumes_of_one_run_one_works_the_other_exits_2(tmp_path, capsys):
    """Two real ``stratsynth resume`` processes: the second is refused at once while the
    first works (here: in a fitness that sleeps), and the log is left as the first wrote
    it."""
    import signal
    import time

    run = tmp_path / "run"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "2", "--workers", "1",
                 "--fitness", "tests.fitness_plugin:brevity", "--quiet", "--out", str(run)]) == 0
    saved = json.loads((run / "config.json").read_text())
    saved.pop("identity")
    sleeper = "tests.fitness_plugin:announces_then_sleeps"
    config = load(SynthesisConfig, {**saved, "fitness": sleeper, "evaluations": 50}, "test")
    (run / "config.json").write_text(json.dumps(with_identity(config)))
    (run / "log.csv").write_text((run / "log.csv").read_text().splitlines()[0] + "\n")
    (run / "done").unlink()
    command = [sys.executable, "-m", "experiments.cli", "resume", str(run), "--quiet",
               "--fitness", sleeper]
    mark = tmp_path / "working"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FITNESS_MARK": str(mark)}
    first = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and first.poll() is None and not mark.exists():
            time.sleep(0.1)  # until the first resume evaluates, holding the run
        assert first.poll() is None, "the first resume ended before it was seen working"
        before = (run / "log.csv").read_bytes()
        second = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
        assert "another process is working in this run" in second.stderr
        assert (run / "log.csv").read_bytes()[:len(before)] == before
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    evaluations = [int(r.split(",")[1]) for r in (run / "log.csv").read_text().splitlines()[1:]]
    assert evaluations == list(range(1, len(evaluations) + 1))


def test_a_target_reading_a_file_outside_the_run_is_read_only_when_named(capsys, finished,
                                                                         tmp_path):
    opponent = finished[1]  # a program file outside the run
    received = tmp_path / "run"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "2", "--workers", "1",
                 "--quiet", "--target", f"program:{opponent}", "--out", str(received)]) == 0
    unfinish(received)
    before = snapshot(tmp_path)
    one_line_error(capsys, ["resume", str(received), "--quiet"],
                   f"reads {opponent}, outside the run directory",
                   f"--target program:{opponent}")
    one_line_error(capsys, ["resume", str(received), "--quiet", "--target", "ga"],
                   "--target ga is not the run's target")
    assert snapshot(tmp_path) == before
    assert main(["resume", str(received), "--quiet", "--target", f"program:{opponent}"]) == 0


def test_a_qd_target_reading_a_file_outside_the_run_is_refused(tmp_path, capsys, finished):
    run = tmp_path / "qd"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"kind": "qd", "game": "cantstop", "evaluations": 2,
                                                 "target": f"program:{finished[1]}"}))
    before = snapshot(tmp_path)
    one_line_error(capsys, ["resume", str(run)], "outside the run directory", "--target")
    one_line_error(capsys, ["qd-check", str(run)], "outside the run directory", "--target")
    assert snapshot(tmp_path) == before


@pytest.fixture(scope="module")
def against_a_file(tmp_path_factory, finished):
    """A finished run whose target is a program file outside it."""
    run = tmp_path_factory.mktemp("against") / "run"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "2", "--workers", "1",
                 "--quiet", "--target", f"program:{finished[1]}", "--out", str(run)]) == 0
    return run, finished[1]


def test_select_plays_a_target_outside_the_run_only_when_named(tmp_path, capsys,
                                                               against_a_file):
    run, opponent = against_a_file
    received = tmp_path / "run"
    shutil.copytree(run, received)
    before = snapshot(tmp_path)
    one_line_error(capsys, ["select", str(received), "--top", "1", "--matches", "2"],
                   f"reads {opponent}, outside the run directory",
                   f"--target program:{opponent}")
    one_line_error(capsys, ["select", str(received), "--target", "ga"],
                   "--target ga is not the run's target")
    assert snapshot(tmp_path) == before
    assert main(["select", str(received), "--top", "1", "--matches", "2", "--target",
                 f"program:{opponent}"]) == 0
    assert main(["select", str(received), "--top", "1", "--matches", "2",
                 "--trust-config"]) == 0
    assert f"reads {opponent} (target)" in capsys.readouterr().err


def test_report_plays_a_target_outside_the_comparison_only_when_named(tmp_path, capsys,
                                                                      against_a_file):
    run, opponent = against_a_file
    root = tmp_path / "cmp"
    shutil.copytree(run, root / "runs" / "sa" / "seed0")
    before = snapshot(tmp_path)
    one_line_error(capsys, ["report", str(root), "--matches", "2", "--workers", "1"],
                   f"reads {opponent}, outside the run directory")
    assert snapshot(tmp_path) == before
    assert main(["report", str(root), "--matches", "2", "--workers", "1", "--target",
                 f"program:{opponent}"]) == 0
    shutil.copy(opponent, root / opponent.name)  # shipped with the comparison: read there
    (root / "report.md").unlink()
    config = json.loads((root / "runs/sa/seed0/config.json").read_text())
    config["target"] = f"program:{opponent.name}"
    (root / "runs/sa/seed0/config.json").write_text(json.dumps(config))
    assert main(["report", str(root), "--matches", "2", "--workers", "1"]) == 0


def test_a_target_shipped_in_the_run_directory_is_read_from_it(tmp_path, monkeypatch,
                                                               capsys, finished):
    """``--target program:opponent.txt`` started in one directory, the run (with the
    opponent copied into it) resumed from another: the file is found in the run."""
    start = tmp_path / "start"
    start.mkdir()
    shutil.copy(finished[1], start / "opponent.txt")
    monkeypatch.chdir(start)
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "2", "--workers", "1",
                 "--quiet", "--target", "program:opponent.txt", "--out", "run"]) == 0
    log = rows(start / "run")
    shutil.move(start / "opponent.txt", start / "run" / "opponent.txt")
    unfinish(start / "run")
    monkeypatch.chdir(tmp_path)
    assert main(["resume", "start/run", "--quiet"]) == 0, capsys.readouterr().err
    assert rows(start / "run") == log
    assert main(["select", "start/run", "--top", "1", "--matches", "2"]) == 0


def test_a_targets_files_are_looked_for_in_the_run_directory(tmp_path, monkeypatch):
    from experiments.trust import locate_target

    run = tmp_path / "run"
    run.mkdir()
    (run / "opponent.txt").write_text("a program\n")
    (tmp_path / "other.txt").write_text("a program\n")
    monkeypatch.chdir(tmp_path)
    assert locate_target("program:opponent.txt?depth=2,ga", run) == (
        f"program:{run / 'opponent.txt'}?depth=2,ga", [])
    assert locate_target("program:run/opponent.txt", run) == ("program:run/opponent.txt", [])
    assert locate_target("program:other.txt", run) == ("program:other.txt", ["other.txt"])
    assert locate_target("program:../other.txt", run) == ("program:../other.txt",
                                                          ["../other.txt"])
    assert locate_target("program:missing.txt", run) == ("program:missing.txt",
                                                         ["missing.txt"])
    assert locate_target("mcts:200,ga", run) == ("mcts:200,ga", [])
