"""The regret of a player that does not learn, in the MIGO paper's harness.

Two numbers per game, both per game played from a board drawn uniformly from the
one-move-ahead set against the deterministic minimax opponent:

* the *worst case*: a player that loses every game, regret = value + 1 averaged over the
  boards (what the MIGO paper calls the worst-case regret of a random player: 1.58 on
  noughts-and-crosses, 1.4 on Hexapawn 3×3);
* the *uniform random player*'s expected regret, computed exactly (every move of the
  random player weighted 1/moves, the opponent's move the harness's minimax choice), and
  estimated by simulation through the harness (``--games`` games in ``--runs`` runs,
  run r seeded seed + r), with a 95 % interval over the runs' mean regrets.

    python -m experiments.studies.regret_random_player \\
        --out experiments/results/regret-random-player
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from fractions import Fraction
from pathlib import Path

from scipy import stats

from experiments.regret.harness import regret_run
from games import load_game
from games.solver import MinimaxPlayer, MinimaxSolver, one_move_ahead

GAMES = (("tictactoe", {}, "noughts-and-crosses", "1.58"),
         ("hexapawn", {"size": 3}, "Hexapawn 3×3", "1.4"),
         ("hexapawn", {"size": 4}, "Hexapawn 4×4", "—"))


class RandomPlayer:
    """A uniformly random legal move; learns nothing."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state):
        moves = state.legal_actions()
        return moves[self.rng.randrange(len(moves))]

    def learn(self, trajectory, outcome) -> None:
        return None


def expected_outcome(game, state, opponent: MinimaxPlayer, memo: dict) -> Fraction:
    """The random player's (seat 0) expected outcome from ``state``, exactly."""
    if state.is_terminal():
        winner = state.winner()
        return Fraction(0 if winner is None else (1 if winner == 0 else -1))
    key = state.key()
    if key in memo:
        return memo[key]
    if state.current_player() == 0:
        moves = state.legal_actions()
        total = Fraction(0)
        for move in moves:
            child = state.clone()
            child.apply_action(move)
            total += expected_outcome(game, child, opponent, memo)
        value = total / len(moves)
    else:
        child = state.clone()
        child.apply_action(opponent(state))
        value = expected_outcome(game, child, opponent, memo)
    memo[key] = value
    return value


def exact(game) -> dict:
    solver = MinimaxSolver(game)
    opponent = MinimaxPlayer(game, solver)
    boards = one_move_ahead(game)
    memo: dict = {}
    values, expected = [], []
    for board in boards:
        state = game.state_from_dict({"board": list(board), "player": 0})
        values.append(solver.solve_board(board, 0).value)
        expected.append(expected_outcome(game, state, opponent, memo))
    n = len(boards)
    return {"boards": n, "wins": values.count(1), "draws": values.count(0),
            "losses": values.count(-1),
            "worst_case": Fraction(sum(v + 1 for v in values), n),
            "random_exact": sum(Fraction(v) - e for v, e in zip(values, expected)) / n}


def simulate(game, runs: int, games: int, seed: int) -> dict:
    solver = MinimaxSolver(game)
    means = [float(regret_run(game, RandomPlayer, games, seed + r, solver).mean())
             for r in range(runs)]
    mean = statistics.mean(means)
    half = stats.t.ppf(0.975, runs - 1) * statistics.stdev(means) / runs ** 0.5
    return {"runs": runs, "games": games, "mean": mean, "low": mean - half, "high": mean + half}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="directory for random_player.md / .json")
    args = parser.parse_args(argv)
    if args.runs < 2 or args.games < 1:
        print("--runs must be at least 2 and --games at least 1", file=sys.stderr)
        return 2
    command = "python -m experiments.studies.regret_random_player " + " ".join(
        sys.argv[1:] if argv is None else argv)
    lines = ["# Regret of a player that does not learn", "", f"`{command.strip()}`", "",
             "Regret per game against the deterministic minimax opponent, boards drawn "
             "uniformly from the one-move-ahead set. Worst case: a player that loses every "
             "game. Uniform random: exact expectation, and the harness's simulation "
             f"({args.runs} runs × {args.games} games, mean of the runs' means with its 95 % "
             "t interval).", "",
             "| game | boards (W / D / L) | worst case | paper | uniform random, exact | "
             "uniform random, simulated |", "|---|---|---|---|---|---|"]
    rows = []
    for name, params, label, paper in GAMES:
        game = load_game(name, **params)
        e = exact(game)
        s = simulate(game, args.runs, args.games, args.seed)
        rows.append({"game": label, **{k: (float(v) if isinstance(v, Fraction) else v)
                                       for k, v in e.items()},
                     "worst_case_fraction": str(e["worst_case"]),
                     "random_exact_fraction": str(e["random_exact"]), "simulated": s,
                     "paper": paper})
        lines.append(f"| {label} | {e['boards']} ({e['wins']} / {e['draws']} / {e['losses']}) "
                     f"| {float(e['worst_case']):.4f} ({e['worst_case']}) | {paper} | "
                     f"{float(e['random_exact']):.4f} | {s['mean']:.4f} "
                     f"[{s['low']:.4f}, {s['high']:.4f}] |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "random_player.md").write_text(text)
        (out / "random_player.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
