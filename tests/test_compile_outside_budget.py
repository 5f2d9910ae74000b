"""Compiling engines is never charged to a budget: runs prepare their engines first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from experiments.cli import main
from games import load_game
from games.cantstop import kernel
from games.engines import Engine, prepare_engines
from gp.evaluator import read_log

ROOT = Path(__file__).parent.parent


def test_a_budget_run_compiles_before_its_clock_starts(tmp_path):
    """With an empty numba cache the kernel compiles (tens of seconds) before the
    budget's clock starts: the first evaluation is logged seconds after the start,
    and stderr says that the kernel compiled."""
    out = tmp_path / "run"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    done = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "synth", "cantstop", "--method", "sa",
         "--budget", "3s", "--matches", "50", "--workers", "1", "--seed", "1",
         "--out", str(out), "--quiet"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert kernel.COMPILING in done.stderr
    assert any((tmp_path / "numba-cache").rglob("*.nbc"))  # it did compile, into that cache
    rows = read_log(out / "log.csv")
    assert float(rows[0]["seconds"]) < 3.0
    assert len(rows) > 1


class Counting(Engine):
    prepared: list = []

    def prepare(self, game) -> None:
        self.prepared.append(game)


def test_prepare_engines_prepares_every_engine_of_the_chain(monkeypatch):
    game = load_game("cantstop")
    chain = prepare_engines(game, "fast")
    assert [e.name for e in chain] == ["kernel", "numpy", "reference"]
    assert kernel._READY  # the kernel is compiled or loaded in this process
    monkeypatch.setattr("games.engines.engines_for", lambda g, e: (Counting(), Counting()))
    prepare_engines(game, "reference")
    assert Counting.prepared == [game, game]


def test_warmup_prepares_the_games_it_is_given(capsys):
    assert main(["warmup", "tictactoe", "cantstop"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("tictactoe: reference ready")
    assert lines[1].startswith("cantstop: kernel, numpy, reference ready")
    assert main(["warmup", "nosuchgame"]) == 2  # a mistyped name is bad input
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err


def test_a_comparison_prepares_each_game_setting_once_before_its_runs(tmp_path, monkeypatch):
    from experiments.comparison import Comparison

    toml = tmp_path / "cmp.toml"
    toml.write_text(f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\n'
                    'evaluations = 1\nworkers = 1\nmatches = 4\nseeds = [1, 2]\n'
                    '[[methods]]\nmethod = "sa"\n[[methods]]\nmethod = "uct"\n'
                    '[[methods]]\nlabel = "sa-ref"\nmethod = "sa"\nengine = "reference"\n')
    prepared = []
    monkeypatch.setattr("games.engines.prepare_engines",
                        lambda game, engine: prepared.append((type(game).__name__, engine)))
    Comparison(toml).prepare_engines()
    assert prepared == [("CantStop", "fast"), ("CantStop", "reference")]
