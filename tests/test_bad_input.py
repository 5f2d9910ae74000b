"""Bad input of every kind, over the commands: one stderr line naming the culprit,
exit code 2, and not one file created or changed (so the corrected command just runs).

Each case runs in a directory holding only the input files below; the table says the
command line and a fragment of the line it must print.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = str(ROOT / "experiments" / "data" / "cantstop_random.jsonl")
SYNTH = ["synth", "cantstop", "--evaluations", "2", "--matches", "2", "--workers", "1",
         "--quiet", "--out", "run"]
SKETCH = [*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", DATA]
QD = ["qd", "cantstop", "--evaluations", "2", "--matches", "2", "--workers", "1", "--quiet",
      "--out", "run"]
SELFPLAY = ["selfplay", "cantstop", "--iterations", "1", "--evaluations", "2", "--matches",
            "2", "--workers", "1", "--out", "run"]
INPUTS = {"binary.txt": b"\x00\xff\xfe\x80", "garbage.jsonl": b"garbage\n",
          "list.json": b"[1]\n", "program.txt": b"if if if\n",
          "deep.txt": b"score: " + b"(" * 5000 + b"sum(neutrals)" + b")" * 5000 + b"\n",
          "long.txt": b"score: " + b" + ".join([b"sum(neutrals)"] * 20000) + b"\n",
          "chain.txt": b"score: " + b" + ".join([b"sum(neutrals)"] * 12000) + b"\n"
          + b"column: argmax(map(lambda a: 1, actions))\n"}

CASES = [
    # synth: the command line
    (SYNTH + ["--budget", "soon"], "budget 'soon' is not a duration"),
    (SYNTH + ["--method", "gp", "--population", "1"], "population must be >= 2"),
    (SKETCH + ["--sketch-share", "nan"], "sketch_share must be a finite number"),
    (SKETCH + ["--sketch-share", "5"], "sketch_share must be <= 1"),
    (SKETCH + ["--sketch-share", "-1"], "sketch_share must be >="),
    (SYNTH + ["--stop-at", "-1"], "stop_at must be a number > 0"),
    (SYNTH + ["--matches", "0"], "matches must be at least 1"),
    (SYNTH + ["--paired", "--matches", "3"], "matches must be even"),
    (SYNTH + ["--game-param", "max_moves=abc"], "with parameters"),
    (SYNTH + ["--dsl", "klingon"], "klingon"),
    (SYNTH + ["--target", "nobody"], "unknown player 'nobody'"),
    (SYNTH + ["--target", "program:missing.txt"], "missing.txt"),
    (SYNTH + ["--method", "annealing"], "method 'annealing' unknown"),
    (SYNTH + ["--fitness", "c"], "needs data"),
    # synth: files and plug-ins it names
    (SYNTH + ["--initial", "missing.txt"], "initial 'missing.txt' is not a file"),
    (SYNTH + ["--initial", "binary.txt"], "binary.txt: not text (UTF-8)"),
    (SYNTH + ["--initial", "program.txt"], "program.txt"),
    ([*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", "binary.txt"],
     "binary.txt: not text (UTF-8)"),
    ([*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", "garbage.jsonl"],
     "garbage.jsonl:1: not JSON"),
    ([*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", "missing.jsonl"],
     "data 'missing.jsonl' is not a file"),
    (SYNTH + ["--fitness", "nosuch.module:fit"], "cannot import nosuch.module"),
    (SYNTH + ["--fitness", "tests.fitness_plugin:nosuch"], "has no function nosuch"),
    (SYNTH + ["--fitness", "no-colon"], "must look like package.module:function"),
    (SYNTH + ["--fitness", "tests.fitness_broken_import:fit"],
     "importing tests.fitness_broken_import raised RuntimeError: needs a GPU"),
    # qd
    (QD + ["--features", "nosuch"], "unknown feature(s) ['nosuch']"),
    (QD + ["--features", "bust_rate,turns", "--dims", "100000,100000"], "cells (at most"),
    (QD + ["--features", "bust_rate", "--dims", "3,3"], "needs 1 numbers"),
    (QD + ["--budget", "0"], "budget '0' is not a duration"),
    # selfplay
    (SELFPLAY + ["--oracle", "hss", "--library", "binary.txt"], "binary.txt: not a program"),
    (SELFPLAY + ["--oracle", "hss", "--library", "list.json"], "list.json: not a program"),
    (SELFPLAY + ["--oracle", "hss", "--library", "missing.json"], "is not a file"),
    (SELFPLAY + ["--oracle", "hss", "--features", "nosuch"], "unknown feature(s)"),
    (SELFPLAY + ["--opponents", "random"], "opponents: fixed opponents"),
    # tournament, pool, play, record, select, resume, run
    (["tournament", "cantstop", "--players", "random", "--out", "run"], "at least two"),
    (["tournament", "cantstop", "--players", "random,nobody", "--out", "run"],
     "unknown player 'nobody'"),
    (["pool", "cantstop", "--players", "random", "--pool", "random,,ga", "--out", "run"],
     "empty player spec"),
    (["play", "hexapawn", "--p0", "random", "--p1", "random", "--game-param", "size=big"],
     "with parameters"),
    (["play", "nosuchgame", "--p0", "random", "--p1", "random"], "nosuchgame"),
    (["record", "cantstop", "--player", "nobody", "-o", "out.jsonl"], "unknown player"),
    (["select", "missing-run"], "not a run directory"),
    (["resume", "missing-run"], "not a run directory"),
    (["resume", "."], "not a run directory"),
    (["run", "missing.toml"], "missing.toml: no such config file"),
    (["run", "binary.txt"], "binary.txt: not text (UTF-8)"),
    (["run", "garbage.jsonl"], "garbage.jsonl: not TOML"),
    (["regret", "cantstop", "--out", "run"], "regret needs a board game"),
    (["synth"], "the following arguments are required"),
    (["play", "cantstop", "--p0", "program:deep.txt", "--p1", "random"],
     "deep.txt: brackets nested 5001 deep"),
    (["play", "cantstop", "--p0", "program:long.txt", "--p1", "random"],
     "long.txt: 320,005 characters, too long"),
    (["play", "cantstop", "--p0", "program:chain.txt", "--p1", "random"],
     "chain.txt: nested too deeply to read"),
    (SYNTH + ["--initial", "deep.txt"], "deep.txt: brackets nested"),
    (["tdleaf", "--alpha", "nan", "--out", "w.json"], "--alpha: must be a finite number > 0"),
    (["tdleaf", "--lam", "5", "--out", "w.json"], "--lam: must be between 0 and 1"),
    (["tdleaf", "--out", "adir"], "--out adir: a directory"),
    (["tdleaf", "--out", "binary.txt/w.json"], "binary.txt is a file, not a directory"),
    (["record", "cantstop", "--player", "random", "-o", "adir"], "--output adir: a directory"),
    (["record", "cantstop", "--player", "random", "-o", "binary.txt/x.jsonl"],
     "binary.txt is a file"),
]


def snapshot(path: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(path.rglob("*"))}


@pytest.mark.parametrize("argv, fragment", CASES, ids=[" ".join(a[:1] + a[-2:]) + f" {i}"
                                                        for i, (a, _) in enumerate(CASES)])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, monkeypatch, capsys, argv,
                                                         fragment):
    for name, content in INPUTS.items():
        (tmp_path / name).write_bytes(content)
    (tmp_path / "adir").mkdir()
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:"), err
    assert fragment in err, err
    assert snapshot(tmp_path) == before


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("runs") / "sa"
    assert main(["synth", "cantstop", "--evaluations", "4", "--matches", "4", "--workers", "1",
                 "--quiet", "--out", str(run)]) == 0
    return run


@pytest.mark.parametrize("edit, fragment", [
    (lambda rows: rows + ["garbage,row"], "line 6: not a row of this log"),
    (lambda rows: rows[:2] + ["1,2,3"] + rows[3:], "line 3: not a row of this log"),
    (lambda rows: [rows[0], "x" + rows[1]] + rows[2:], "line 2: seconds 'x0."),
])
def test_a_damaged_log_is_one_line_naming_its_line(tmp_path, capsys, finished_run, edit,
                                                   fragment):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    (run / "done").unlink()
    rows = (run / "log.csv").read_text().splitlines()
    (run / "log.csv").write_text("\n".join(edit(rows)) + "\n")
    before = snapshot(tmp_path)
    for argv in (["resume", str(run), "--quiet"], ["select", str(run)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{run / 'log.csv'}: {fragment}" in err, err
    assert snapshot(tmp_path) == before


def test_a_reader_that_leaves_early_is_no_error(tmp_path):
    """``stratsynth play ... | head -1``: the closed pipe ends the command quietly."""
    command = [sys.executable, "-m", "experiments.cli", "play", "cantstop", "--p0", "random",
               "--p1", "random", "-n", "20", "--workers", "1"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=ROOT)
    child.stdout.close()  # the reader is gone before the first line
    assert child.wait() == 0
    assert child.stderr.read() == b""
