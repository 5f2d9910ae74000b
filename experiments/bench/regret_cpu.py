"""CPU time of one learning iteration of each regret learner (the MIGO paper's Table 2).

An iteration is one game of the regret harness (the learner's moves and the minimax
opponent's, from a board drawn from the one-move-ahead set) followed by the learner's
update on it. Each learner plays its runs through the same stream of boards as
``stratsynth regret`` (run r uses seed + r), and every iteration is timed with the
process's CPU clock; the minimax value database is filled before the clock starts, so
the opponent's first games do not pay for solving. The learner's own set-up (building
its empty tables or network) is not counted.

    python -m experiments.bench.regret_cpu --runs 3 --out experiments/results/regret-cpu-time

The paper's iteration counts are the defaults: 200 games of noughts-and-crosses and
100 of Hexapawn 3×3. A measurement of this machine, not a result to assert: the
numbers move with the load on the machine and the CPU.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from experiments.regret.experiment import make_learner
from experiments.regret.harness import play_game
from games import load_game
from games.solver import MinimaxPlayer, MinimaxSolver, one_move_ahead

GAMES = (("tictactoe", {}, 200, "noughts-and-crosses"), ("hexapawn", {"size": 3}, 100,
                                                         "Hexapawn 3×3"))
LEARNERS = ("mil", "mil-pos", "rule", "menace", "her", "q", "dqn")


def time_run(game_name: str, params: dict, kind: str, games: int, seed: int,
             draw_after: int) -> tuple[list[float], list[float]]:
    """(CPU seconds of each iteration, of which the learner's update) for one run."""
    game = load_game(game_name, **params)
    solver = MinimaxSolver(game)
    solver.solve(game.new_initial_state())  # the whole value database, before any clock
    boards = one_move_ahead(game)
    opponent = MinimaxPlayer(game, solver)
    rng = random.Random(seed)
    learner = make_learner(kind, game_name, params, seed, None, draw_after)
    total, learning = [], []
    for _ in range(games):
        i = rng.randrange(len(boards))
        started = time.process_time()
        outcome, trajectory = play_game(game, boards[i], learner, opponent)
        played = time.process_time()
        learner.learn(trajectory, outcome)
        done = time.process_time()
        total.append(done - started)
        learning.append(done - played)
    return total, learning


def measure(runs: int, seed: int, learners: tuple[str, ...]) -> list[dict]:
    rows = []
    for game_name, params, games, label in GAMES:
        draw_after = 10 if game_name == "tictactoe" else 5
        for kind in learners:
            per_run, learn_share = [], []
            for r in range(runs):
                total, learning = time_run(game_name, params, kind, games, seed + r, draw_after)
                per_run.append(sum(total) / games)
                learn_share.append(sum(learning) / max(sum(total), 1e-12))
                print(f"{label} {kind} run {r}: {per_run[-1]:.5f} s per iteration",
                      file=sys.stderr, flush=True)
            rows.append({"game": label, "learner": kind, "runs": runs, "iterations": games,
                         "mean_s": statistics.mean(per_run),
                         "min_s": min(per_run), "max_s": max(per_run),
                         "learning_share": statistics.mean(learn_share)})
    return rows


def markdown(rows: list[dict], command: str) -> str:
    lines = ["# CPU time of one learning iteration (the MIGO paper's Table 2)", "",
             f"`{command}`", "",
             "CPU seconds per iteration (one game and the update after it), mean over runs "
             "of each run's mean, with the slowest and fastest run; the share of it spent "
             "in the learner's update.", "",
             "| game | learner | runs × iterations | CPU s per iteration | fastest – slowest run "
             "| update share |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['learner']} | {r['runs']} × {r['iterations']} | "
                     f"{r['mean_s']:.2g} | {r['min_s']:.2g} – {r['max_s']:.2g} | "
                     f"{100 * r['learning_share']:.0f} % |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--out", default=None, help="directory for table2.md / table2.json")
    args = parser.parse_args(argv)
    learners = tuple(s.strip() for s in args.learners.split(",") if s.strip())
    unknown = [k for k in learners if k not in LEARNERS]
    if unknown or args.runs < 1:
        print(f"--learners / --runs: bad value {unknown or args.runs} "
              f"(learners: {', '.join(LEARNERS)})", file=sys.stderr)
        return 2
    rows = measure(args.runs, args.seed, learners)
    command = "python -m experiments.bench.regret_cpu " + " ".join(sys.argv[1:] if argv is None
                                                                   else argv)
    text = markdown(rows, command.strip())
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "table2.md").write_text(text)
        (out / "table2.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
