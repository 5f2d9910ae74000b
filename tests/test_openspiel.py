"""OpenSpiel games as stratsynth games (games/openspiel): the plug-in contract on a dozen
games, OpenSpiel's own random games replayed through the adapter, refusals, players and
the observation language."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from games import game_spec, load_game  # noqa: E402
from games.api import RandomStrategy  # noqa: E402
from games.checks import CheckSettings, check_game  # noqa: E402
from games.match import play_matches  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

GAMES = [
    ("tic_tac_toe", {}),
    ("connect_four", {}),
    ("breakthrough", {"rows": 5, "columns": 5}),
    ("clobber", {}),
    ("hex", {"board_size": 5}),
    ("othello", {}),
    ("pentago", {}),
    ("dots_and_boxes", {}),
    ("nim", {}),
    ("pig", {"winscore": 20}),
    ("kuhn_poker", {}),
    ("amazons", {"board_size": 6}),
]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=[g for g, _ in GAMES])
def test_conformance(name, params):
    spec = game_spec("openspiel:" + name)
    game = load_game(spec.name, **params)
    checks = list(check_game(spec, game, CheckSettings(seed=1, playouts=8, programs=4,
                                                       decisions=3)))
    failed = [f"{c.name}: {c.detail}" for c in checks if not c.passed]
    assert not failed, failed
    assert any(c.name == "language obs-eval" for c in checks)


class ScriptedChance(random.Random):
    """An RNG whose draws pick given chance outcomes (the middle of each one's interval)."""

    def __init__(self, draws):
        super().__init__(0)
        self.draws = list(draws)

    def random(self):
        return self.draws.pop(0)


def _reference_game(game, seed):
    """A random game played by OpenSpiel alone: its history and, per step, what it saw."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    steps, draws = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
            below = sum(p for _, p in outcomes[:k])
            draws.append(below + outcomes[k][1] / 2)
            state.apply_action(outcomes[k][0])
            continue
        action = int(rng.choice(state.legal_actions()))
        steps.append((state.current_player(), state.legal_actions(), str(state), action))
        state.apply_action(action)
    return steps, draws, str(state), state.returns(), state.history()


@pytest.mark.parametrize(("name", "params"), [("connect_four", {}), ("backgammon", {}),
                                              ("pig", {"winscore": 30}), ("othello", {})])
def test_replays_openspiel_random_games(name, params):
    adapter = load_game("openspiel:" + name, **params)
    for seed in range(3):
        steps, draws, final, returns, history = _reference_game(adapter.pyspiel_game, seed)
        state = adapter.new_initial_state(ScriptedChance(draws))
        for player, legal, text, action in steps:
            assert state.current_player() == player
            assert state.legal_actions() == legal
            assert str(state) == text
            state.apply_action(action)
        assert state.is_terminal() and str(state) == final
        assert state.inner.history() == history
        best = max(returns)
        assert state.winner() == (None if returns[0] == returns[1] else returns.index(best))
        assert adapter.state_from_dict(json.loads(json.dumps(state.to_dict()))).to_dict() \
            == state.to_dict()


def test_chance_comes_from_the_match_seed():
    game = load_game("openspiel:pig", winscore=20)
    def play(seed):
        state = game.new_initial_state(random.Random(seed))
        player = RandomStrategy(seed)
        while not state.is_terminal():
            state.apply_action(player(state))
        return state.to_dict()

    assert play(3) == play(3)
    assert play(3) != play(4)
    state = game.new_initial_state(random.Random(5))
    clone = state.clone()
    for s in (state, clone):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert state.to_dict() == clone.to_dict()


@pytest.mark.parametrize(("name", "params", "why"), [
    ("goofspiel", {}, "simultaneous-move"),
    ("chinese_checkers", {"players": 3}, "3-player"),
    ("connect_four", {"rows": "x"}, "rows"),
])
def test_refused_games_say_why_in_one_line(name, params, why):
    with pytest.raises(ValueError, match=why):
        load_game("openspiel:" + name, **params)
    args = [f"--game-param={k}={v}" for k, v in params.items()]
    run = subprocess.run([sys.executable, "-m", "experiments.cli", "play", f"openspiel:{name}",
                          *args, "--p0", "random", "--p1", "random"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
    assert why in run.stderr


def test_mcts_is_reproducible_and_pickles():
    from games.openspiel.players import mcts

    game = load_game("openspiel:connect_four")
    a = play_matches(game, [mcts("30"), pickle.loads(pickle.dumps(mcts("30")))], 6, seed=2)
    b = play_matches(game, [mcts("30"), mcts("30")], 6, seed=2)
    assert (a.wins, a.total_moves) == (b.wins, b.total_moves)
    strong = play_matches(game, [mcts("200"), RandomStrategy()], 10, seed=0)
    assert strong.wins[0] >= 9


def test_play_json_from_the_command_line():
    run = subprocess.run([sys.executable, "-m", "experiments.cli", "play",
                          "openspiel:connect_four", "--p0", "mcts:100", "--p1", "random",
                          "-n", "20", "--json", "--workers", "1"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["matches"] == 20 and result["wins"][0] >= 18


def test_programs_round_trip_and_pickle():
    from gp.languages.openspiel import OBS_EVAL, ObservationEvalPlayer

    rng = random.Random(0)
    for _ in range(200):
        tree = OBS_EVAL.random_program(rng)
        text = OBS_EVAL.to_text(tree)
        assert OBS_EVAL.parse(text) == tree
        player = pickle.loads(pickle.dumps(ObservationEvalPlayer(tree, depth=2)))
        assert player.text == text and player.depth == 2


def test_one_ply_takes_a_win_and_deeper_search_blocks_a_loss():
    from gp.languages.openspiel import ObservationEvalPlayer

    game = load_game("openspiel:connect_four")
    state = game.new_initial_state()
    for action in (0, 6, 1, 6, 2):  # x threatens 0-1-2-3 along the bottom row; o to move
        state.apply_action(action)
    constant = ObservationEvalPlayer("0")
    assert constant(state) == 0  # one ply sees no loss: the first action
    assert ObservationEvalPlayer("0", depth=2)(state) == 3  # two plies block the row
    state.apply_action(5)
    assert constant(state) == 3  # x wins at once


def test_layout_pairs_the_players_planes():
    from games.openspiel.observation import layout_of

    layout = layout_of(load_game("openspiel:breakthrough"))
    assert layout.mine[0] == layout.theirs[1] and layout.mine[1] == layout.theirs[0]
    assert layout.forward[0] == -layout.forward[1]
    layout = layout_of(load_game("openspiel:connect_four"))
    assert set(layout.mine[0] + layout.theirs[0] + layout.other[0]) == {0, 1, 2}


def test_user_declared_features_resolve_by_reference():
    from games.openspiel.features import FEATURES

    assert "game_length" in FEATURES
    assert "games.openspiel.features:nothing_here" not in FEATURES
    assert "tests.test_openspiel:LAST_ACTION" in FEATURES
    assert FEATURES["tests.test_openspiel:LAST_ACTION"][1] == (0.0, 10.0)
    assert "tests.test_openspiel:NOT_A_FEATURE" not in FEATURES


def _last_action(state, seat):
    return float(state.inner.history()[-1]) if state.inner.history() else 0.0


LAST_ACTION = (_last_action, (0, 10))
NOT_A_FEATURE = 3


def test_synth_and_qd_from_the_command_line(tmp_path):
    def cli(*args):
        run = subprocess.run([sys.executable, "-m", "experiments.cli", *args, "--workers", "1"],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        return run

    cli("synth", "openspiel:tic_tac_toe", "--method", "sa", "--evaluations", "6",
        "--matches", "4", "--out", str(tmp_path / "sa"))
    best = (tmp_path / "sa" / "best.txt").read_text()
    from gp.languages.openspiel import OBS_EVAL

    OBS_EVAL.parse(best)
    cli("qd", "openspiel:tic_tac_toe", "--features", "game_length,first_move", "--dims", "3,3",
        "--evaluations", "8", "--matches", "4", "--out", str(tmp_path / "qd"), "--quiet")
    assert (tmp_path / "qd" / "archive.json").is_file()
    assert (tmp_path / "qd" / "heatmap.png").is_file()


def test_benchmark_writes_a_table_and_resumes(tmp_path):
    from experiments.benchmark import benchmark, parse_game

    games = [parse_game("tic_tac_toe"), parse_game("breakthrough?rows=4&columns=4")]
    assert games[1].params == {"rows": 4, "columns": 4}

    def run():
        return benchmark(tmp_path, games, ["sa", "map-elites"], 1, ["random"], evaluations=4,
                         matches=2, target="random", rematches=4, workers=1,
                         progress=lambda line: None)

    first = run()
    assert len(first) == 4
    rows = (tmp_path / "results.csv").read_text().splitlines()
    assert len(rows) == 5  # header + one row per game and method
    again = run()
    assert (tmp_path / "results.csv").read_text().splitlines() == rows
    assert len(again) == 4
    table = (tmp_path / "table.md").read_text()
    assert "| tic_tac_toe | sa | 1 |" in table and "map-elites" in table
    assert (tmp_path / "benchmark.png").is_file()
    with pytest.raises(ValueError, match="unknown method"):
        benchmark(tmp_path / "bad", games, ["annealing"], 1, ["random"], evaluations=4,
                  matches=2, target="random", rematches=4, workers=1)
    assert not (tmp_path / "bad").exists()


def test_benchmark_runs_seed_by_seed(tmp_path):
    from experiments.benchmark import benchmark, parse_game

    games = [parse_game("tic_tac_toe"), parse_game("nim")]
    lines: list[str] = []
    benchmark(tmp_path, games, ["sa"], 2, ["random"], evaluations=2, matches=2,
              target="random", rematches=2, workers=1, progress=lines.append)
    # every game's first seed before any game's second: a cut run covers every game
    assert [line.split(" vs ")[0] for line in lines] == [
        "tic_tac_toe sa seed 0", "nim sa seed 0", "tic_tac_toe sa seed 1", "nim sa seed 1"]


def test_a_chance_game_gives_the_same_matches_on_two_workers():
    from experiments.api import play

    def outcome(workers):
        s = play("openspiel:pig", "mcts:10", "random", matches=8, seed=5, workers=workers,
                 game_params={"winscore": 20})
        return s.wins, s.draws, s.total_moves

    assert outcome(1) == outcome(2)


def test_without_openspiel_a_game_is_one_line_naming_the_extra(tmp_path):
    (tmp_path / "pyspiel.py").write_text("raise ImportError('no pyspiel here')\n")
    run = subprocess.run([sys.executable, "-m", "experiments.cli", "play",
                          "openspiel:connect_four", "--p0", "random", "--p1", "random"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"})
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1
    assert "stratsynth[openspiel]" in run.stderr
