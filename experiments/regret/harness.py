"""The regret harness of the MIGO paper.

A learner always moves first, from a board drawn uniformly from the boards one
full move ahead of the start (up to symmetry), against a deterministic minimax
opponent (best outcome, fewest moves). Regret of a game = minimax value of the
initial board − outcome (win 1, draw 0, loss −1); runs are averaged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

import numpy as np

from games.solver import MinimaxPlayer, MinimaxSolver, one_move_ahead


class Learner(Protocol):
    name: str

    def __call__(self, state): ...

    def learn(self, trajectory: list[tuple[tuple, object]], outcome: int) -> None:
        """``trajectory``: the learner's (position key, action) pairs of one game."""


def play_game(game, start_board: tuple, learner, opponent) -> tuple[int, list]:
    state = game.state_from_dict({"board": list(start_board), "player": 0})
    trajectory = []
    while not state.is_terminal():
        if state.current_player() == 0:
            action = learner(state)
            trajectory.append((state.key(), action))
        else:
            action = opponent(state)
        state.apply_action(action)
    winner = state.winner()
    return (0 if winner is None else (1 if winner == 0 else -1)), trajectory


def regret_run(game, make_learner: Callable[[int], Learner], games: int, seed: int,
               solver: MinimaxSolver | None = None) -> np.ndarray:
    """Per-game regret of one learner over a stream of ``games`` games."""
    solver = solver or MinimaxSolver(game)
    opponent = MinimaxPlayer(game, solver)
    boards = one_move_ahead(game)
    rng = random.Random(seed)
    learner = make_learner(seed)
    regret = np.zeros(games)
    for g in range(games):
        board = boards[rng.randrange(len(boards))]
        value = solver.solve_board(board, 0).value
        outcome, trajectory = play_game(game, board, learner, opponent)
        regret[g] = value - outcome
        learner.learn(trajectory, outcome)
    return regret


def regret_curves(game, make_learner, runs: int, games: int, seed: int) -> np.ndarray:
    """Cumulative regret, one row per run (run r uses seed + r)."""
    solver = MinimaxSolver(game)
    return np.array([np.cumsum(regret_run(game, make_learner, games, seed + r, solver))
                     for r in range(runs)])
