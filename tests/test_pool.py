"""Ψ against a pool of targets, pool specs, and the pool-matrix command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.cli import main as cli_main
from experiments.metrics import build_metrics
from experiments.players import SpecError, make_targets, split_specs
from experiments.pool import main as pool_main
from games import load_game
from games.api import RandomStrategy
from games.cantstop import glenn_aloi_player, rule_of_28_player
from gp.fitness import PoolWinRate, WinRate
from gp.languages.cantstop import SketchStrategy

PROGRAM = Path("experiments/programs/cantstop_ga.txt").read_text()
GAME = load_game("cantstop")


def test_pool_psi_is_the_mean_of_each_targets_psi_on_the_same_matches():
    targets = [glenn_aloi_player(), RandomStrategy(), rule_of_28_player()]
    alone = [WinRate(GAME, t, SketchStrategy, matches=30, seed=4)(PROGRAM) for t in targets]
    assert len(set(alone)) > 1  # the targets differ, so a wrong average would show
    pool = PoolWinRate(GAME, targets, SketchStrategy, matches=30, seed=4)
    assert pool(PROGRAM) == pytest.approx(sum(alone) / 3)
    summary = pool.play(PROGRAM)
    assert summary.matches == 90
    assert pool.resolution == pytest.approx(1 / 90)
    # a pool of one is plain Ψ
    assert PoolWinRate(GAME, targets[:1], SketchStrategy, matches=30, seed=4)(PROGRAM) == alone[0]


def test_pool_psi_of_several_programs_at_once_matches_one_at_a_time():
    targets = [glenn_aloi_player(), RandomStrategy()]
    other = PROGRAM.replace("1", "2", 1)
    together = PoolWinRate(GAME, targets, SketchStrategy, matches=12, seed=2).many([PROGRAM, other])
    apart = [PoolWinRate(GAME, targets, SketchStrategy, matches=12, seed=2)(p)
             for p in (PROGRAM, other)]
    assert together == apart


def test_an_empty_pool_is_refused():
    with pytest.raises(ValueError, match="at least one"):
        PoolWinRate(GAME, [], SketchStrategy, matches=4)


@pytest.mark.parametrize("text, message", [("ga,,random", "empty player spec"),
                                           ("ga,random,", "empty player spec"),
                                           ("ga,random,ga", "ga named twice")])
def test_a_bad_pool_spec_is_one_error_naming_it(text, message):
    with pytest.raises(SpecError, match=message):
        split_specs(text)


def test_make_targets_names_the_unknown_player():
    assert len(make_targets("cantstop", "ga, random")) == 2
    with pytest.raises(SpecError, match="unknown player 'gaa'"):
        make_targets("cantstop", "ga,gaa")


def test_a_run_with_a_comma_separated_target_maximises_the_pool_psi():
    config = {"game_name": "cantstop", "game": GAME, "language_class": SketchStrategy,
              "target": "ga,random", "matches": 10, "seed": 0, "fitness": "psi", "data": None,
              "score": None}
    psi = build_metrics(**config).functions["psi"]
    assert isinstance(psi, PoolWinRate) and len(psi.targets) == 2
    single = build_metrics(**{**config, "target": "ga"}).functions["psi"]
    assert type(single) is WinRate


def test_synth_with_a_bad_pool_target_is_one_line_and_exit_2(capsys, tmp_path):
    code = cli_main(["synth", "cantstop", "--method", "sa", "--target", "ga,,random",
                     "--evaluations", "1", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and "empty player spec" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "log.csv").exists()


def test_pool_matrix_scores_each_cell_and_resumes(tmp_path, capsys):
    out = tmp_path / "m"
    argv = ["tictactoe", "--players", "minimax,random", "--pool", "minimax,random", "-n", "6",
            "--seed", "3", "--workers", "1", "--out", str(out)]
    assert pool_main(argv) == 0
    result = json.loads((out / "matrix.json").read_text())
    cell = result["rows"]["minimax"]["minimax"]
    assert cell["even"] == 6 and cell["score"] == 0.5  # perfect play draws itself
    assert result["rows"]["minimax"]["random"]["losses"] == 0
    assert result["rows"]["random"]["minimax"]["wins"] == 0
    for row in result["rows"].values():
        for c in row.values():
            assert c["wins"] + c["even"] + c["losses"] == 6
    assert "| minimax |" in (out / "matrix.md").read_text()
    # a kept cell is not played again
    result["rows"]["random"]["random"]["score"] = 0.123
    (out / "matrix.json").write_text(json.dumps(result))
    assert pool_main(argv) == 0
    again = json.loads((out / "matrix.json").read_text())
    assert again["rows"]["random"]["random"]["score"] == 0.123
    # another setting in the same directory is refused
    assert pool_main([*argv[:-4], "--seed", "4", "--out", str(out)]) == 2


def test_pool_matrix_bad_pool_is_exit_2(tmp_path, capsys):
    code = pool_main(["tictactoe", "--players", "minimax", "--pool", "random,,minimax",
                      "--out", str(tmp_path / "m")])
    assert code == 2 and "empty player spec" in capsys.readouterr().err


def test_a_pool_halves_the_margin_weight_allowed_per_target(capsys):
    """The tie-break must stay below half of the pool's Ψ step (1 / (matches × targets))."""
    from experiments.cli import main as cli_main

    argv = ["synth", "expendibots", "--matches", "10", "--evaluations", "1", "--out", "/dev/null/x"]
    assert cli_main([*argv, "--target", "random,alphabeta1", "--margin-weight", "0.02"]) == 2
    assert "half of Ψ's step 0.025" in capsys.readouterr().err


def test_a_pool_win_rate_takes_a_margin_tie_break():
    from experiments.players import make_player
    from games import load_game
    from gp.fitness import PoolWinRate
    from gp.programs import strategy_class

    targets = [make_player("expendibots", spec) for spec in ("random", "alphabeta1")]
    psi = PoolWinRate(load_game("expendibots"), targets, strategy_class("expendibots", None),
                      matches=10, margin_weight=0.01)
    assert psi.resolution == 0.025
