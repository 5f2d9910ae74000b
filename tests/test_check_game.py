"""``stratsynth check-game``: every built-in game passes; a broken plug-in is caught."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main
from games.spec import _REGISTRY, CLISpec, GameSpec, QDSpec, SynthesisSpec

from .extras import need_microrts, need_microrts_maps

ROOT = Path(__file__).resolve().parents[1]

QUICK = {
    "cantstop": [],
    "tictactoe": [],
    "hexapawn": ["--game-param", "size=4"],
    "expendibots": ["--playouts", "40", "--decisions", "20"],
    "tribes": ["--playouts", "4", "--decisions", "15", "--programs", "0"],
    "microrts": ["--no-engine"],
}


@pytest.mark.parametrize("game", sorted(QUICK))
def test_every_built_in_game_passes(game, capsys):
    if game == "microrts":
        need_microrts_maps()
    assert main(["check-game", game, "--seed", "3", *QUICK[game]]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    checks = [line for line in lines if line.startswith("  ")]
    assert all(line.startswith("  ok    ") for line in checks)
    assert lines[-1] == f"{game}: {len(checks)} checks, all passed"
    assert any(line.startswith("  ok    rules") for line in checks)
    assert sum(line.startswith("  ok    player ") for line in checks) >= 3


def test_microrts_passes_with_matches_on_its_engine():
    need_microrts()
    # the JVM in a process of its own, as the other microRTS tests
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "experiments.cli", "check-game", "microrts",
                          "--max-moves", "200", "--programs", "3"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "player workerrush" in run.stdout and "on the game's engine" in run.stdout
    assert "features in range on one match" in run.stdout


@pytest.fixture
def broken(monkeypatch):
    spec = GameSpec(
        name="broken-contract", summary="tic-tac-toe breaking its contract",
        factory="games.tictactoe:TicTacToe", players="tests.broken_contract:PLAYERS",
        synthesis=SynthesisSpec(
            default_target="minimax",
            languages={"ambiguous": "tests.broken_contract:AmbiguousPlayer"},
            cloning={"A": "tests.broken_contract:no_such_metric"}),
        qd=QDSpec(features="tests.broken_contract:FEATURES"),
        cli=CLISpec(move_cap=None))
    monkeypatch.setitem(_REGISTRY, spec.name, spec)
    return spec


def test_a_broken_plug_in_fails_with_one_line_per_problem(broken, capsys):
    assert main(["check-game", broken.name, "--playouts", "20"]) == 1
    report = capsys.readouterr().out
    assert report.rstrip().endswith("6 failed")
    out = "\n".join(line for line in report.splitlines() if line.startswith("  FAIL"))
    assert "FAIL  spec default target" in out and "'minimax' is not a built-in player" in out
    assert "FAIL  spec cloning A" in out and "no_such_metric" in out
    assert "FAIL  player illegal" in out and "99 is not a legal action" in out
    assert "FAIL  player meddler" in out and "changed the state it was shown" in out
    assert "FAIL  language ambiguous" in out and "parse(to_text(p)) != p" in out
    assert "FAIL  features" in out and "outside its range (0.0, 4.0)" in out
    assert "player random" not in out and "  FAIL  rules" not in out


def test_bad_input_exits_2(capsys):
    assert main(["check-game", "nosuchgame"]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err
    assert main(["check-game", "tictactoe", "--game-param", "size=4"]) == 2


def test_a_player_that_pickles_without_its_text_is_caught():
    from games.checks import _program_player
    from tests.broken_contract import AMBIGUOUS, AmbiguousPlayer, NodeNamesPlayer

    tree = AMBIGUOUS.parse("first_free(corner, first_free(corner, corner))")
    assert _program_player(AmbiguousPlayer, AMBIGUOUS, tree, 0).text.startswith("first_free")
    with pytest.raises(AssertionError, match="pickles without its text"):
        _program_player(NodeNamesPlayer, AMBIGUOUS, tree, 0)


def test_bad_input_writes_nothing_before_its_one_line(capsys):
    assert main(["check-game", "hexapawn", "--game-param", "size=2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        "stratsynth: error: hexapawn needs a board of at least 3x3, got 2"]


def test_a_broken_rule_is_reported_with_its_playout_and_move(monkeypatch, capsys):
    spec = GameSpec(name="forgetful", summary="restores states without their move count",
                    factory="tests.broken_contract:ForgetfulTicTacToe",
                    players="games.tictactoe:PLAYERS",
                    synthesis=SynthesisSpec(default_target="minimax"), cli=CLISpec(move_cap=None))
    monkeypatch.setitem(_REGISTRY, spec.name, spec)
    assert main(["check-game", "forgetful", "--playouts", "50"]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines() if "FAIL" in line]
    assert len(failed) == 1
    assert re.fullmatch(r"  FAIL  rules +playout \d+, move 7: state_from_dict\(to_dict\(\)\) "
                        r"is another state", failed[0])


def test_a_game_with_engines_must_carry_its_spec_name(monkeypatch, capsys):
    from games import game_spec

    renamed = dataclasses.replace(game_spec("cantstop"), name="cantstop-renamed")
    monkeypatch.setitem(_REGISTRY, renamed.name, renamed)
    assert main(["check-game", renamed.name, "--playouts", "5", "--programs", "2"]) == 1
    failed = [line for line in capsys.readouterr().out.splitlines() if "FAIL" in line]
    assert len(failed) == 1 and failed[0].startswith("  FAIL  spec factory")
    assert "named 'cantstop', not 'cantstop-renamed'" in failed[0]
