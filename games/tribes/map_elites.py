"""MAP-Elites over P-MCTS(PU) script weights (seed 002 §IV, Algorithm 1).

An individual is the 11 weights of the Research (σ15..σ19) and Spawn (σ36..σ41)
scripts, each in {0, 0.25, 0.5, 0.75, 1}; the other 46 weights stay 0.5. It is
evaluated by |L|·R_L games of P-MCTS(PU) with those weights against a fixed opponent
(MCTS), seats alternating, the same game seeds for every individual. Its objective
is the win rate with the mean score as tie-break (win rate + mean score · 1e-6; a
score never reaches 10^4 points per game's 1/20 of win rate); its two features come
from the same games (use cases I–III). The archive is a pyribs ``GridArchive``; the
emitter is Algorithm 1: first the N_W one-hot vectors, then R_M random vectors, then
I_M stochastic hill-climbing steps (a random elite with one random weight set to a
random other value of the grid).

Every evaluation goes to ``evaluations.jsonl``; a killed run resumes by replaying
the (deterministic) emitter with logged evaluations answered from that log.
"""

from __future__ import annotations

import csv
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from ribs.archives import GridArchive
from ribs.emitters import EmitterBase

from .gamelog import play_logged
from .portfolio import EVOLVED_SCRIPTS, script_name, weights_with
from .rules import Tribes

WEIGHT_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
WEIGHT_NAMES = tuple(script_name(s) for s in EVOLVED_SCRIPTS)


@dataclass(frozen=True)
class UseCase:
    name: str
    features: tuple[str, str]
    ranges: tuple[tuple[float, float], tuple[float, float]]
    dims: tuple[int, int]


USE_CASES = {
    # I: attacks (0..20 by 2) and ranged-minus-melee support spawns (−5..5 by 1)
    "I": UseCase("I", ("attacks", "support_ranged_minus_melee"), ((0, 20), (-5, 5)), (10, 10)),
    # II: defender spawns and the mean round of P-MCTS(PU)'s wins
    "II": UseCase("II", ("defender_spawns", "win_round"), ((0, 10), (0, 50)), (10, 10)),
    # III: research-progress and tile-dominance slopes (per round)
    "III": UseCase("III", ("research_slope", "tile_slope"), ((0, 2), (0, 2)), (10, 10)),
}


def aggregate(logs: Sequence[dict], seats: Sequence[int]) -> dict[str, float]:
    """Mean features of the evolving player over its games (its seat in each)."""
    n = len(logs)
    wins = [log for log, seat in zip(logs, seats) if log["winner"] == seat]
    mine = [log["seats"][seat] for log, seat in zip(logs, seats)]
    out = {key: float(np.mean([m[key] for m in mine]))
           for key in ("score", "techs", "techs_fraction", "cities", "production", "attacks",
                       "defender_spawns", "support_ranged_minus_melee", "research_slope",
                       "tile_slope")}
    out["win_rate"] = len(wins) / n
    # a player that never wins gets the latest round (the game's length) as its win round
    out["win_round"] = (float(np.mean([log["win_round"] for log in wins])) if wins
                        else float(max(log["rounds"] for log in logs)))
    return out


class WeightsEvaluator:
    """objective, features and statistics of one weight vector (cached by weights)."""

    def __init__(self, use_case: UseCase, levels: Sequence[int] = (0, 1, 2, 3, 4),
                 repetitions: int = 4, budget: int = 2000, opponent: str = "mcts",
                 turn_limit: int = 50, seed: int = 0,
                 player_factory: Callable[..., Any] | None = None) -> None:
        from . import PLAYERS
        from .players import PortfolioMCTS

        self.use_case = use_case
        self.levels, self.repetitions = tuple(levels), repetitions
        self.budget, self.opponent, self.seed = budget, opponent, seed
        self.game = Tribes(turn_limit=turn_limit)
        self.make_opponent = PLAYERS[opponent]
        self.player_factory = player_factory or PortfolioMCTS
        self.cache: dict[tuple[float, ...], tuple[float, list[float], dict]] = {}

    def _opponent(self):
        player = self.make_opponent()
        if hasattr(player, "params"):
            player.params.budget = self.budget
        elif hasattr(player, "budget"):
            player.budget = self.budget
        return player

    def __call__(self, evolved: Sequence[float]) -> tuple[float, list[float], dict]:
        key = tuple(float(w) for w in evolved)
        if key not in self.cache:
            logs, seats = [], []
            for level in self.levels:
                for rep in range(self.repetitions):
                    seat = rep % 2
                    me = self.player_factory(budget=self.budget, bias=True, pruning=True,
                                             weights=weights_with(key))
                    players = [self._opponent(), self._opponent()]
                    players[seat] = me
                    logs.append(play_logged(self.game, players, seed=self.seed * 7919
                                            + level * 101 + rep, level=level))
                    seats.append(seat)
            stats = aggregate(logs, seats)
            objective = stats["win_rate"] + stats["score"] * 1e-6
            self.cache[key] = (objective, [stats[f] for f in self.use_case.features], stats)
        return self.cache[key]


class AlgorithmOneEmitter(EmitterBase):
    """Seed 002's Algorithm 1 as a pyribs emitter, one solution per ask."""

    def __init__(self, archive: GridArchive, n_weights: int = len(EVOLVED_SCRIPTS),
                 random_init: int = 40, seed: int = 0) -> None:
        super().__init__(archive, solution_dim=n_weights, bounds=None, lower_bounds=None,
                         upper_bounds=None)
        self.n_weights, self.random_init = n_weights, random_init
        self.rng = random.Random(seed)
        self.asked = 0

    def phase(self) -> str:
        if self.asked < self.n_weights:
            return "one-hot"
        if self.asked < self.n_weights + self.random_init:
            return "random"
        return "hill-climb"

    def ask(self) -> np.ndarray:
        phase = self.phase()
        if phase == "one-hot":
            w = np.zeros(self.n_weights)
            w[self.asked] = 1.0
        elif phase == "random" or self.archive.empty:
            w = np.array([self.rng.choice(WEIGHT_VALUES) for _ in range(self.n_weights)])
        else:
            data = self.archive.data()
            parent = data["solution"][self.rng.randrange(len(data["solution"]))]
            w = np.array(parent, dtype=float)
            i = self.rng.randrange(self.n_weights)
            w[i] = self.rng.choice([v for v in WEIGHT_VALUES if v != w[i]])
        self.asked += 1
        return w.reshape(1, -1)

    def tell(self, solution, objective, measures, add_info, **fields) -> None:
        pass


EVALUATIONS_LOG = "evaluations.jsonl"


def run(evaluate: WeightsEvaluator, out: Path, iterations: int = 500, random_init: int = 40,
        seed: int = 0, resume: bool = False,
        progress: Callable[[int, dict], None] | None = None) -> GridArchive:
    """N_W + R_M + I_M evaluations; archive and stats written after each, the heatmap
    every 10 evaluations and at the end."""
    uc = evaluate.use_case
    archive = GridArchive(solution_dim=len(EVOLVED_SCRIPTS), dims=uc.dims, ranges=uc.ranges,
                          seed=seed)
    emitter = AlgorithmOneEmitter(archive, random_init=random_init, seed=seed)
    out.mkdir(parents=True, exist_ok=True)
    logged = 0
    log_path = out / EVALUATIONS_LOG
    if resume and log_path.exists():
        text = log_path.read_text()
        if text and not text.endswith("\n"):  # a line cut by a kill is evaluated again
            text = text[: text.rfind("\n") + 1] if "\n" in text else ""
            log_path.write_text(text)
        for line in text.splitlines():
            row = json.loads(line)
            evaluate.cache[tuple(row["weights"])] = (row["objective"], row["measures"],
                                                     row["stats"])
            logged += 1
    total = len(EVOLVED_SCRIPTS) + random_init + iterations
    started = time.perf_counter()
    with (out / "stats.csv").open("w", newline="") as fh, \
            log_path.open("a" if resume else "w") as evals:
        stats_log = csv.writer(fh, lineterminator="\n")
        stats_log.writerow(("evaluations", "phase", "elites", "coverage", "qd_score", "best"))
        for done in range(total):
            phase = emitter.phase()
            w = emitter.ask()[0]
            objective, measures, stats = evaluate(w)
            if done >= logged:
                evals.write(json.dumps({"weights": [float(x) for x in w], "objective": objective,
                                        "measures": measures, "stats": stats,
                                        "seconds": round(time.perf_counter() - started, 2)})
                            + "\n")
                evals.flush()
            archive.add(w.reshape(1, -1), [objective], [measures])
            s = archive.stats
            row = {"elites": int(s.num_elites), "coverage": float(s.coverage),
                   "qd_score": float(s.qd_score), "best": float(s.obj_max)}
            stats_log.writerow((done + 1, phase, row["elites"], f"{row['coverage']:.4f}",
                                f"{row['qd_score']:.4f}", f"{row['best']:.4f}"))
            fh.flush()
            if done + 1 >= logged:
                save(archive, uc, out, plot=(done + 1) % 10 == 0 or done + 1 == total)
            if progress is not None:
                progress(done + 1, row)
    return archive


def elites(archive: GridArchive) -> list[dict]:
    data = archive.data()
    return [{"weights": dict(zip(WEIGHT_NAMES, map(float, sol))), "vector": list(map(float, sol)),
             "objective": float(obj), "measures": list(map(float, ms)),
             "cell": list(map(int, archive.int_to_grid_index(np.array([idx]))[0]))}
            for sol, obj, ms, idx in zip(data["solution"], data["objective"], data["measures"],
                                         data["index"])]


def save(archive: GridArchive, uc: UseCase, out: Path, plot: bool = True) -> None:
    (out / "archive.json").write_text(json.dumps(
        {"use_case": uc.name, "features": list(uc.features), "ranges": list(uc.ranges),
         "dims": list(uc.dims), "elites": elites(archive)}, indent=1) + "\n")
    if plot:
        heatmap(archive, uc, out / "heatmap.png")


def heatmap(archive: GridArchive, uc: UseCase, path: Path) -> None:
    """Win rate of each elite over the two features, labelled axes and colour bar."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.full(uc.dims, np.nan)
    for e in elites(archive):
        grid[tuple(e["cell"])] = e["objective"]
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    (x0, x1), (y0, y1) = uc.ranges
    image = ax.imshow(grid.T, origin="lower", extent=(x0, x1, y0, y1), aspect="auto",
                      vmin=0.0, vmax=1.0, cmap="viridis")
    ax.set_xlabel(uc.features[0].replace("_", " "))
    ax.set_ylabel(uc.features[1].replace("_", " "))
    ax.set_title(f"P-MCTS(PU) play styles, use case {uc.name}")
    fig.colorbar(image, ax=ax, label="win rate vs MCTS (+ score tie-break)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
