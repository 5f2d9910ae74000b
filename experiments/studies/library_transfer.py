"""Library transfer (Aleixo 2023): does HSS reach a given Ψ sooner on a new map when its
library comes from another map?

1. Build a library on the source map: HSS against the opponent for
   ``--source-evaluations`` evaluations (every evaluated program enters it).
2. On the target map, for each seed, run HSS from that library and from an empty
   one with the same budget, and record when Ψ first reaches ``--goal``
   (evaluations and seconds). Runs are interleaved seed by seed so both
   conditions see the same machine load.

    python -m experiments.studies.library_transfer --source 16x16 --target 24x24 \\
        --opponent workerrush --seeds 3 --out experiments/results/microrts/transfer
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from games import load_game
from games.backends import make_map
from games.microrts.features import FEATURES, LEVELS
from gp.evaluator import Budget
from gp.languages.microrts import MicroRTSProgramPlayer
from qd.hss import HSS, Library
from qd.map_elites import BehaviourWinRate

from .players import make_player

NAMES = list(FEATURES)


def _search(map_name: str, opponent: str, matches: int, seed: int, evaluations: int,
            library: Library, backend, goal: float | None = None, utt: str = "finetuned") -> dict:
    game = load_game("microrts", map=map_name, utt=utt)
    evaluate = BehaviourWinRate(game, make_player("microrts", opponent), MicroRTSProgramPlayer,
                                FEATURES, NAMES, matches, seed, backend)
    started = time.perf_counter()
    trace: list[tuple[int, float, float]] = []

    def timed(text: str):
        utility, features = evaluate(text)
        trace.append((len(trace) + 1, time.perf_counter() - started, utility))
        return utility, features

    # level 2 as in the committed results: plain SA (Sketch-SA is the default now)
    search = HSS(MicroRTSProgramPlayer.default_dsl(), timed, [list(LEVELS)] * len(NAMES), seed,
                 library=library, local_search="sa")
    best, program = search.run(Budget(evaluations=evaluations))
    reached = next(((n, s) for n, s, u in trace if goal is not None and u >= goal), None)
    return {"best": best, "program": program, "evaluations": len(trace),
            "seconds": trace[-1][1] if trace else 0.0,
            "reached_evaluations": reached[0] if reached else None,
            "reached_seconds": round(reached[1], 2) if reached else None}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="16x16")
    parser.add_argument("--target", default="24x24")
    parser.add_argument("--opponent", default="workerrush")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--source-evaluations", type=int, default=60)
    parser.add_argument("--evaluations", type=int, default=60, help="budget per target run")
    parser.add_argument("--goal", type=float, default=1.0, help="Ψ to reach on the target map")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--library", default=None,
                        help="reuse this source library instead of building one")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--utt", default="finetuned", choices=("original", "finetuned"),
                        help="unit type table (the committed results used finetuned)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with make_map(args.workers) as backend:
        if args.library:
            source = Library.load(args.library)
            best = max((e.utility for e in source.entries.values()), default=0.0)
            built = {"best": best, "program": None, "library": args.library}
        else:
            source = Library()
            built = _search(args.source, args.opponent, args.matches, 0,
                            args.source_evaluations, source, backend, utt=args.utt)
        source.save(out / f"library_{args.source}.json")
        print(f"library on {args.source}: {len(source)} programs, best Ψ {built['best']:.2f}")
        runs = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for condition in ("transferred", "empty"):
                library = Library.load(out / f"library_{args.source}.json") \
                    if condition == "transferred" else Library()
                result = _search(args.target, args.opponent, args.matches, seed,
                                 args.evaluations, library, backend, args.goal, args.utt)
                runs.append({"seed": seed, "condition": condition, **result})
                print(f"seed {seed} {condition:>11}: best Ψ {result['best']:.2f}, reached "
                      f"{args.goal} after {result['reached_evaluations']} evaluations / "
                      f"{result['reached_seconds']} s")
    (out / "runs.json").write_text(json.dumps({"settings": vars(args), "source": built,
                                               "runs": runs}, indent=1) + "\n")
    lines = [f"# Library transfer: {args.source} → {args.target} against {args.opponent}", "",
             f"`python -m experiments.studies.library_transfer --source {args.source} --target "
             f"{args.target} --opponent {args.opponent} --matches {args.matches} "
             f"--source-evaluations {args.source_evaluations} --evaluations {args.evaluations} "
             f"--goal {args.goal} --seeds {args.seeds} --first-seed {args.first_seed}"
             + (f" --library {args.library}" if args.library else "") + f" --out {args.out}`", "",
             f"Source library: {len(source)} programs from {args.source_evaluations} HSS "
             f"evaluations on {args.source} (best Ψ there {built['best']:.2f}).", "",
             "| condition | seed | reached Ψ ≥ goal after (evaluations) | (seconds) | best Ψ |",
             "|---|---|---|---|---|"]
    for run in runs:
        lines.append(f"| {run['condition']} | {run['seed']} | {run['reached_evaluations'] or '—'}"
                     f" | {run['reached_seconds'] or '—'} | {run['best']:.2f} |")
    for condition in ("transferred", "empty"):
        hits = [r for r in runs if r["condition"] == condition and r["reached_seconds"]]
        mean = statistics.mean(r["reached_seconds"] for r in hits) if hits else None
        lines.append("")
        lines.append(f"- {condition}: reached the goal in {len(hits)}/{args.seeds} runs"
                     + (f", mean {mean:.1f} s" if mean is not None else ""))
    (out / "transfer.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[-4:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
