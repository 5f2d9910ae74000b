"""Baselines of the MIGO paper: MENACE / HER bead boxes and tabular Q-learning."""

from __future__ import annotations

import random
from collections import defaultdict


def _canonical(game, board: tuple) -> tuple[tuple, tuple]:
    """(canonical board, permutation that produced it)."""
    return min((tuple(board[i] for i in perm), perm) for perm in game.rules.symmetry_perms)


def _to_canonical(action, perm: tuple):
    inverse = {a: i for i, a in enumerate(perm)}
    return tuple(inverse[a] for a in action) if isinstance(action, tuple) else inverse[action]


def _to_actual(action, perm: tuple):
    return tuple(perm[a] for a in action) if isinstance(action, tuple) else perm[action]


class BeadBoxes:
    """MENACE (Michie) or HER (Gardner): a box of beads per position up to symmetry.

    A move is drawn with probability proportional to its beads. After a game each
    move played gets ``win``/``draw``/``loss`` beads added (``punish="last"``: only
    the last move, and only on a loss, as HER). A box left without beads is
    refilled with its initial beads (the learner would otherwise resign).
    MENACE: 3, 2, 1 initial beads per move by the learner's move number (its
    boxes from the second move on, as games start one full move in), +3 / +1 / −1.
    """

    def __init__(self, game, seed: int = 0, menace: bool = True) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.menace = menace
        self.name = "MENACE" if menace else "HER"
        self.boxes: dict[tuple, dict] = {}

    def _initial(self, board: tuple) -> int:
        if not self.menace:
            return 1
        filled = sum(1 for v in board if v)
        return max(1, 4 - filled // 2)

    def _box(self, key: tuple) -> dict:
        board, player = key
        canon, perm = _canonical(self.game, board)
        box = self.boxes.get((canon, player))
        if box is None or not any(box.values()):
            moves = self.game.rules.moves(canon, player)
            box = {m: self._initial(canon) for m in moves}
            self.boxes[(canon, player)] = box
        return box

    def __call__(self, state):
        key = state.key()
        box = self._box(key)
        _, perm = _canonical(self.game, key[0])
        moves = list(box)
        pick = self.rng.choices(moves, weights=[box[m] for m in moves])[0]
        return _to_actual(pick, perm)

    def learn(self, trajectory, outcome: int) -> None:
        if self.menace:
            delta = {1: 3, 0: 1, -1: -1}[outcome]
            steps = trajectory
        else:
            delta = -1 if outcome < 0 else 0
            steps = trajectory[-1:]
        for (board, player), action in steps:
            canon, perm = _canonical(self.game, board)
            box = self._box((board, player))
            move = _to_canonical(action, perm)
            box[move] = max(0, box[move] + delta)


class QLearner:
    """Tabular Q-learning with the MIGO paper's settings: α=0.3, γ=0.9, Q₀=1, no exploration.

    Greedy with random tie-breaks; after each game the learner's own transitions
    are updated backwards: target = outcome at the last move, else γ·max Q of its
    next position.
    """

    name = "Q-learning"

    def __init__(self, game, seed: int = 0, alpha: float = 0.3, gamma: float = 0.9,
                 initial: float = 1.0, epsilon: float = 0.0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.alpha, self.gamma, self.epsilon = alpha, gamma, epsilon
        self.q: dict[tuple, dict] = defaultdict(dict)
        self.initial = initial

    def _values(self, key: tuple) -> dict:
        values = self.q[key]
        if not values:
            board, player = key
            for move in self.game.rules.moves(board, player):
                values[move] = self.initial
        return values

    def __call__(self, state):
        values = self._values(state.key())
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(list(values))
        best = max(values.values())
        return self.rng.choice([m for m, v in values.items() if v == best])

    def learn(self, trajectory, outcome: int) -> None:
        target = float(outcome)
        for i in range(len(trajectory) - 1, -1, -1):
            key, action = trajectory[i]
            values = self._values(key)
            if i < len(trajectory) - 1:
                nxt = self._values(trajectory[i + 1][0])
                target = self.gamma * max(nxt.values())
            values[action] += self.alpha * (target - values[action])
