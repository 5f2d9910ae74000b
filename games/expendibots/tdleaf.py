"""TD-Leaf(λ) (Baxter, Tridgell & Weaver 1999) for seed 003's Expendibots evaluation.

The learner plays with alpha-beta; at each of its decisions the principal
variation's leaf l_t is scored r_t = tanh(w · f(l_t)) (a terminal leaf scores its
outcome, with zero gradient). After the game, with r_N the outcome (1, 0, −1)
and d_t = r_{t+1} − r_t:

    w ← w + α Σ_t ∇_w r_t · Σ_{j ≥ t} λ^{j−t} d_j,   ∇_w r_t = (1 − r_t²) f(l_t)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from games.expendibots.players import (
    HAND_WEIGHTS_WHITE,
    AlphaBeta,
    features,
    linear_evaluation,
    terminal_value,
)


@dataclass
class LeafRecord:
    value: float
    gradient: np.ndarray


def td_leaf_update(weights: np.ndarray, leaves: Sequence[LeafRecord], outcome: float,
                   alpha: float, lam: float) -> np.ndarray:
    """The TD-Leaf(λ) step for one game (pure function, so it can be checked by hand)."""
    values = [leaf.value for leaf in leaves] + [outcome]
    diffs = [values[t + 1] - values[t] for t in range(len(leaves))]
    step = np.zeros_like(weights)
    trace = 0.0
    for t in range(len(leaves) - 1, -1, -1):
        trace = diffs[t] + lam * trace  # Σ_{j≥t} λ^{j−t} d_j
        step += leaves[t].gradient * trace
    return weights + alpha * step


def leaf_record(weights: np.ndarray, board, learner: int) -> LeafRecord:
    final = terminal_value(board, learner)
    f = np.array(features(board, learner))
    if final is not None:
        return LeafRecord(final, np.zeros_like(f))
    r = float(np.tanh(weights @ f))
    return LeafRecord(r, (1 - r * r) * f)


@dataclass
class TDLeafTrainer:
    game: object
    weights: np.ndarray = field(default_factory=lambda: np.array([1.0, 1.0, 1.0, 0.0, 0.0]))
    alpha: float = 0.01
    lam: float = 0.8
    depth: int = 2
    seed: int = 0
    history: list = field(default_factory=list)

    def play_and_learn(self, opponent: Callable, learner_seat: int, match_seed: int) -> float:
        state = self.game.new_initial_state(random.Random(match_seed))
        search = AlphaBeta(linear_evaluation(self.weights), self.depth)
        leaves = []
        while not state.is_terminal():
            if state.current_player() == learner_seat:
                action, _, (leaf_board, _) = search.choose(state)
                leaves.append(leaf_record(self.weights, leaf_board, learner_seat))
            else:
                action = opponent(state)
            state.apply_action(action)
        winner = state.winner()
        outcome = 0.0 if winner is None else (1.0 if winner == learner_seat else -1.0)
        if leaves:
            self.weights = td_leaf_update(self.weights, leaves, outcome, self.alpha, self.lam)
        self.history.append({"outcome": outcome, "weights": self.weights.tolist()})
        return outcome

    def train(self, games: int, opponents: Sequence[Callable],
              progress: Callable[[int, float], None] | None = None) -> np.ndarray:
        for g in range(games):
            opponent = opponents[g % len(opponents)]
            outcome = self.play_and_learn(opponent, g % 2, self.seed * 1_000_003 + g)
            if progress is not None:
                progress(g, outcome)
        return self.weights

    def save(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps({
            "weights": self.weights.tolist(), "alpha": self.alpha, "lambda": self.lam,
            "depth": self.depth, "seed": self.seed, "games": len(self.history),
            "outcomes": [h["outcome"] for h in self.history],
            "start": "[1, 1, 1, 0, 0]", "hand_weights_white": list(HAND_WEIGHTS_WHITE),
        }, indent=1) + "\n")


def load_weights_player(path: str | Path, depth: int | None = None):
    """An alpha-beta player from a weights file written by ``TDLeafTrainer.save``."""
    from games.expendibots.players import AlphaBetaPlayer

    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{path}: no such weights file")
    try:
        data = json.loads(file.read_text())
        weights = [float(w) for w in data["weights"]]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{path}: not a weights file ({err})") from None
    if len(weights) != 5:
        raise ValueError(f"{path}: weights must have 5 entries, got {len(weights)}")
    return AlphaBetaPlayer(linear_evaluation(weights), depth=depth or int(data.get("depth", 2)),
                           name=f"weights:{path}")
