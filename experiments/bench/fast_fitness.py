"""Serial Ψ evaluations per second: the reference engine against the fast engine.

Run with ``stratsynth bench --fitness`` (before the backend comparison) or
``python -m experiments.bench.fast_fitness``. One Ψ evaluation is 1,000 matches
of a program against GA, seat-alternating, on one core, as SA and UCT score a
program. Both paths score the same programs (the GA program of seed 000, the
best programs of the 30-minute comparison and random programs), each a fresh
evaluation, and must give the same Ψ (checked every round).

Rounds: on a shared machine a rate drifts by tens of percent within a minute,
so each round measures both paths back to back, in an order that alternates
from round to round; the speed-up is the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import statistics
import time

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.cantstop_dsl import CANTSTOP_DSL, SketchStrategy
from gp.fitness import WinRate

GA_PROGRAM = "experiments/programs/cantstop_ga.txt"
BEST_PROGRAMS = "experiments/results/cantstop-30min/runs/*/seed1/best.txt"
PATHS = {"reference": False, "fast": True}


def bench_programs(random_programs: int = 6, seed: int = 0) -> list[str]:
    """Program texts: the GA program, one best program per method, random programs."""
    texts = [CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(GA_PROGRAM).read()))]
    for path in sorted(glob.glob(BEST_PROGRAMS)):
        texts.append(CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(path).read(), path)))
    rng = random.Random(seed)
    texts += [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
              for _ in range(random_programs)]
    return texts


def measure(programs: list[str], matches: int, fast: bool) -> tuple[float, list[float]]:
    """(evaluations/s, Ψ of each program) with a fresh cache, serially."""
    psi = WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                  matches=matches, seed=1, fast=fast)
    started = time.perf_counter()
    values = [psi(text) for text in programs]
    return len(programs) / (time.perf_counter() - started), values


def run_engine_bench(rounds: int = 3, matches: int = 1000, random_programs: int = 6,
                     seed: int = 0, out: str | None = None) -> dict:
    """Print per-round rates, medians and the speed-up; return them (and write ``out``)."""
    programs = bench_programs(random_programs, seed)
    print(f"serial Ψ evaluations per second ({matches} matches each vs GA, "
          f"{len(programs)} programs, {rounds} rounds, order alternating)", flush=True)
    measure(programs[:1], 10, True)  # build the fast engine's tables before any clock runs
    rates: dict[str, list[float]] = {name: [] for name in PATHS}
    names = list(PATHS)
    for r in range(rounds):
        values = {}
        for name in (names if r % 2 == 0 else names[::-1]):
            rate, values[name] = measure(programs, matches, PATHS[name])
            rates[name].append(rate)
        if values["fast"] != values["reference"]:
            raise AssertionError(f"round {r + 1}: the engines disagree on Ψ: {values}")
        print(f"round {r + 1}: " + ", ".join(f"{n} {rates[n][-1]:.3f} evals/s" for n in names)
              + f", speed-up {rates['fast'][-1] / rates['reference'][-1]:.2f}x, same Ψ",
              flush=True)
    speedups = [f / s for f, s in zip(rates["fast"], rates["reference"])]
    result = {
        "command": "stratsynth bench --fitness --engines-only"
                   f" --rounds {rounds} --seed {seed}",
        "matches": matches, "programs": programs, "rounds": rounds,
        "evals_per_s": rates,
        "median_evals_per_s": {n: statistics.median(v) for n, v in rates.items()},
        "speedups": speedups, "median_speedup": statistics.median(speedups),
    }
    print(f"{'path':<10} {'median evals/s':>15}")
    for name in names:
        print(f"{name:<10} {result['median_evals_per_s'][name]:>15.3f}")
    print(f"median speed-up (per-round ratios): {result['median_speedup']:.2f}x")
    if out:
        with open(out, "w") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--random-programs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the figures as JSON")
    args = parser.parse_args(argv)
    run_engine_bench(args.rounds, args.matches, args.random_programs, args.seed, args.out)


if __name__ == "__main__":
    main()
