"""TD-Leaf(λ) (Baxter, Tridgell & Weaver 1999) for the Expendibots report's evaluation.

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

from games.api import reset_player
from games.expendibots.players import (
    HAND_WEIGHTS_WHITE,
    AlphaBeta,
    features,
    linear_evaluation,
    terminal_value,
)
from games.files import write_atomically


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


def read_weights(path: str | Path) -> tuple[list[float], list[float], dict]:
    """(White's weights, Black's weights, the file's data) from a weights file: either
    ``{"weights": [5 numbers]}`` for both colours or ``{"white": [...], "black": [...]}``
    (the Expendibots report keeps separate weights per colour)."""
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{path}: no such weights file")
    try:
        data = json.loads(file.read_text())
        if "white" in data or "black" in data:
            white = [float(w) for w in data["white"]]
            black = [float(w) for w in data["black"]]
        else:
            white = black = [float(w) for w in data["weights"]]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{path}: not a weights file ({err!r})") from None
    for colour, weights in (("white", white), ("black", black)):
        if len(weights) != 5:
            raise ValueError(f"{path}: {colour} weights must have 5 entries, got {len(weights)}")
    return white, black, data


def load_weights_player(path: str | Path, depth: int | None = None, book: int = 0):
    """An alpha-beta player from a weights file (``read_weights``); ``book=1`` plays
    the report's full agent (opening books, time budget) with these weights."""
    from games.expendibots.players import AlphaBetaPlayer
    from games.expendibots.timed_agent import TimedAlphaBetaPlayer

    white, black, data = read_weights(path)
    depth = depth or int(data.get("depth", 2))
    if book:
        return TimedAlphaBetaPlayer(white, black, depth=depth, name=f"timed-alphabeta:{path}")
    return AlphaBetaPlayer(linear_evaluation(white), linear_evaluation(black), depth=depth,
                           name=f"weights:{path}")


class PoolTDLeaf:
    """TD-Leaf(λ) with separate weights per colour against an opponent pool that improves
    with the learner (Hitchcock and Randell, after Baxter et al.: "a series of varied opponents,
    increasing in skill as our player improved").

    The pool holds ``fixed`` opponents plus frozen copies of the learner taken every
    ``snapshot_every`` games (the ``keep`` most recent). Each game's opponent and seat
    are drawn from a generator seeded by (seed, game), so a resumed run continues
    exactly. The learning rate falls linearly from ``alpha`` to ``alpha_end`` (the report
    went from 0.1 to 0.01). ``save``/``load`` keep everything needed to resume.
    """

    def __init__(self, game, fixed: Sequence[tuple[str, Callable]], depth: int = 2,
                 alpha: float = 0.1, alpha_end: float = 0.01, lam: float = 0.8,
                 games: int = 300, snapshot_every: int = 25, keep: int = 4, seed: int = 0,
                 start: Sequence[float] = (1.0, 1.0, 1.0, 0.0, 0.0),
                 start_black: Sequence[float] | None = None) -> None:
        if depth < 1 or games < 1 or snapshot_every < 1 or keep < 1:
            raise ValueError("depth, games, snapshot_every and keep must be >= 1")
        self.game, self.fixed = game, list(fixed)
        self.depth, self.alpha, self.alpha_end, self.lam = depth, alpha, alpha_end, lam
        self.games, self.snapshot_every, self.keep, self.seed = games, snapshot_every, keep, seed
        black = start if start_black is None else start_black
        self.weights = [np.array(start, dtype=float), np.array(black, dtype=float)]
        self.start = [list(map(float, start)), list(map(float, black))]
        self.snapshots: list[dict] = []  # {"game": g, "white": [...], "black": [...]}
        self.log: list[dict] = []

    def rate(self, g: int) -> float:
        return self.alpha + (self.alpha_end - self.alpha) * g / max(1, self.games - 1)

    def pool(self) -> list[tuple[str, Callable]]:
        from games.expendibots.players import AlphaBetaPlayer

        out = list(self.fixed)
        for snap in self.snapshots[-self.keep:]:
            out.append((f"self@{snap['game']}", AlphaBetaPlayer(
                linear_evaluation(snap["white"]), linear_evaluation(snap["black"]),
                self.depth, name=f"self@{snap['game']}")))
        return out

    def play_and_learn(self, g: int) -> dict:
        rng = random.Random(self.seed * 1_000_003 + g)
        name, opponent = rng.choice(self.pool())
        seat = rng.randrange(2)
        state = self.game.new_initial_state(random.Random(rng.getrandbits(32)))
        reset_player(opponent, rng.getrandbits(32))
        weights = self.weights[seat]
        search = AlphaBeta(linear_evaluation(weights), self.depth)
        leaves = []
        while not state.is_terminal():
            if state.current_player() == seat:
                action, _, (leaf_board, _) = search.choose(state)
                leaves.append(leaf_record(weights, leaf_board, seat))
            else:
                action = opponent(state)
            state.apply_action(action)
        winner = state.winner()
        outcome = 0.0 if winner is None else (1.0 if winner == seat else -1.0)
        if leaves:
            self.weights[seat] = td_leaf_update(weights, leaves, outcome, self.rate(g), self.lam)
        entry = {"game": g, "opponent": name, "seat": seat, "outcome": outcome,
                 "plies": state.turns}
        self.log.append(entry)
        if (g + 1) % self.snapshot_every == 0:
            self.snapshots.append({"game": g + 1, "white": self.weights[0].tolist(),
                                   "black": self.weights[1].tolist()})
        return entry

    def train(self, until_seconds: float | None = None, checkpoint: str | Path | None = None,
              progress: Callable[[dict], None] | None = None) -> None:
        """Play on from the last finished game; stop at ``games`` or after ``until_seconds``
        (saving to ``checkpoint`` after every game, so a stopped run resumes)."""
        import time

        started = time.perf_counter()
        for g in range(len(self.log), self.games):
            entry = self.play_and_learn(g)
            if checkpoint is not None:
                self.save(checkpoint)
            if progress is not None:
                progress(entry)
            if until_seconds is not None and time.perf_counter() - started > until_seconds:
                break

    def to_dict(self) -> dict:
        return {"white": self.weights[0].tolist(), "black": self.weights[1].tolist(),
                "depth": self.depth, "alpha": self.alpha, "alpha_end": self.alpha_end,
                "lambda": self.lam, "games": self.games, "snapshot_every": self.snapshot_every,
                "keep": self.keep, "seed": self.seed, "start": self.start,
                "fixed": [name for name, _ in self.fixed], "played": len(self.log),
                "snapshots": self.snapshots, "log": self.log}

    def save(self, path: str | Path) -> None:
        write_atomically(path, json.dumps(self.to_dict(), indent=1) + "\n")

    def load(self, path: str | Path) -> None:
        """Continue a saved run (its settings must match this trainer's)."""
        data = json.loads(Path(path).read_text())
        for key in ("depth", "alpha", "alpha_end", "lambda", "games", "snapshot_every",
                    "keep", "seed", "start", "fixed"):
            mine = self.to_dict()[key]
            if data[key] != mine:
                raise ValueError(f"{path}: saved {key}={data[key]!r}, this run has {mine!r}")
        self.weights = [np.array(data["white"]), np.array(data["black"])]
        self.snapshots, self.log = data["snapshots"], data["log"]
