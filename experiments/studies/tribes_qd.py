"""MAP-Elites play styles of P-MCTS(PU) in Tribes (seed 002): one use case per run.

    python -m experiments.studies.tribes_qd --use-case I --out experiments/results/tribes/qd_I
    python -m experiments.studies.tribes_qd --resume --out experiments/results/tribes/qd_I

Writes ``config.json``, ``evaluations.jsonl`` (every evaluation; the checkpoint),
``stats.csv``, ``archive.json`` and ``heatmap.png`` into ``--out``. Defaults are the
seed's: levels 0..4 × 4 repetitions (20 games per individual), 2,000 forward-model
calls per decision, R_M = 40 random vectors, I_M = 500 iterations, opponent MCTS.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from games.tribes.map_elites import USE_CASES, WeightsEvaluator, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--use-case", choices=sorted(USE_CASES), default="I")
    parser.add_argument("--out", required=True)
    parser.add_argument("--levels", default="0,1,2,3,4")
    parser.add_argument("--reps", type=int, default=4)
    parser.add_argument("--budget", type=int, default=2000, help="forward-model calls")
    parser.add_argument("--opponent", default="mcts")
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--random-init", type=int, default=40)
    parser.add_argument("--turn-limit", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    args = parser.parse_args(argv)
    out = Path(args.out)
    config_path = out / "config.json"
    if args.resume:
        if not config_path.exists():
            print(f"{config_path}: no run to resume", file=sys.stderr)
            return 2
        config = json.loads(config_path.read_text())
    else:
        if out.exists() and any(out.iterdir()):
            print(f"{out}: directory exists and is not empty (use --resume)", file=sys.stderr)
            return 2
        config = {k: v for k, v in vars(args).items() if k != "resume"}
        out.mkdir(parents=True, exist_ok=True)
        config_path.write_text(json.dumps(config, indent=1) + "\n")
    try:
        levels = [int(v) for v in str(config["levels"]).split(",") if v.strip()]
    except ValueError:
        print(f"--levels: '{config['levels']}' is not a comma-separated list of ints",
              file=sys.stderr)
        return 2
    evaluate = WeightsEvaluator(USE_CASES[config["use_case"]], levels=levels,
                                repetitions=config["reps"], budget=config["budget"],
                                opponent=config["opponent"], turn_limit=config["turn_limit"],
                                seed=config["seed"])

    def progress(done, row):
        print(f"{done} evaluations, {row['elites']} elites, best {row['best']:.3f}",
              flush=True)

    run(evaluate, out, iterations=config["iterations"], random_init=config["random_init"],
        seed=config["seed"], resume=args.resume, progress=progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
