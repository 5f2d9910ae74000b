"""Regret harness and the bead-box / Q-learning baselines of the MIGO paper."""

import numpy as np

from experiments.regret.harness import regret_curves, regret_run
from experiments.regret.learners import BeadBoxes, QLearner, _canonical, _to_actual, _to_canonical
from games import load_game
from games.solver import MinimaxSolver, one_move_ahead

from .extras import need_torch


def test_regret_is_value_minus_outcome_and_never_negative():
    game = load_game("tictactoe")
    solver = MinimaxSolver(game)
    regret = regret_run(game, lambda s: QLearner(game, s), 300, seed=2, solver=solver)
    assert set(np.unique(regret)) <= {0.0, 1.0, 2.0}  # value in {0, 1}, outcome in {-1, 0, 1}
    # a perfect learner has zero regret: the minimax player itself as the learner
    from games.solver import MinimaxPlayer

    class Perfect(MinimaxPlayer):
        def learn(self, trajectory, outcome):
            pass

    assert regret_run(game, lambda s: Perfect(game, solver), 50, seed=1).sum() == 0


def test_learners_improve_with_games():
    game = load_game("tictactoe")
    for make in (lambda s: QLearner(game, s), lambda s: BeadBoxes(game, s)):
        runs = np.array([regret_run(game, make, 1500, seed) for seed in range(2)])
        assert runs[:, -300:].mean() < 0.6 * runs[:, :300].mean()


def test_cumulative_curves_shape_and_determinism():
    game = load_game("hexapawn")
    a = regret_curves(game, lambda s: BeadBoxes(game, s, menace=False), 4, 30, seed=5)
    b = regret_curves(game, lambda s: BeadBoxes(game, s, menace=False), 4, 30, seed=5)
    assert a.shape == (4, 30) and (a == b).all() and (np.diff(a, axis=1) >= 0).all()


def test_bead_boxes_map_moves_through_symmetries():
    for game in (load_game("tictactoe"), load_game("hexapawn")):
        for board in one_move_ahead(game):
            for perm in game.rules.symmetry_perms:
                image = tuple(board[i] for i in perm)
                canon, p = _canonical(game, image)
                for move in game.rules.moves(image, 0):
                    c = _to_canonical(move, p)
                    assert c in game.rules.moves(canon, 0)
                    assert _to_actual(c, p) == move


def test_dqn_learner_is_reproducible_and_plays_legal_moves():
    need_torch()
    from experiments.regret.dqn import DQNLearner

    game = load_game("hexapawn")
    a = regret_run(game, lambda s: DQNLearner(game, s, decay_games=20), 25, seed=3)
    b = regret_run(game, lambda s: DQNLearner(game, s, decay_games=20), 25, seed=3)
    assert (a == b).all() and set(np.unique(a)) <= {0.0, 1.0, 2.0}
