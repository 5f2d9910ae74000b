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
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

GA_PROGRAM = "experiments/programs/cantstop_ga.txt"
BEST_PROGRAMS = "experiments/results/cantstop-30min/runs/*/seed1/best.txt"
PATHS = {"reference": (False, False), "fast": (True, False), "fast, whole batch": (True, True)}


def bench_programs(random_programs: int = 6, seed: int = 0) -> list[str]:
    """Program texts: the GA program, one best program per method, random programs."""
    texts = [CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(GA_PROGRAM).read()))]
    for path in sorted(glob.glob(BEST_PROGRAMS)):
        texts.append(CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(path).read(), path)))
    rng = random.Random(seed)
    texts += [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
              for _ in range(random_programs)]
    return texts


def measure(programs: list[str], matches: int, fast: bool,
            batch: bool = False) -> tuple[float, float, list[float]]:
    """(evaluations per wall second, per CPU second of this process, Ψ of each
    program), fresh cache, one core; ``batch`` scores all programs in one call
    (``WinRate.many``, as GP scores a population), else one at a time (SA, UCT)."""
    psi = WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                  matches=matches, seed=1, fast=fast)
    wall, cpu = time.perf_counter(), time.process_time()
    values = psi.many(programs) if batch else [psi(text) for text in programs]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return len(programs) / wall, len(programs) / cpu, values


def run_engine_bench(rounds: int = 3, matches: int = 1000, random_programs: int = 6,
                     seed: int = 0, out: str | None = None) -> dict:
    """Print per-round rates, medians and the speed-up; return them (and write ``out``)."""
    programs = bench_programs(random_programs, seed)
    print(f"serial Ψ evaluations per second ({matches} matches each vs GA, "
          f"{len(programs)} programs, one core, {rounds} rounds in rotated order)", flush=True)
    measure(programs[:1], 200, True)  # build the fast engine's tables before any clock runs
    names = list(PATHS)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        values = {}
        for name in names[r % len(names):] + names[:r % len(names)]:
            w, c, values[name] = measure(programs, matches, *PATHS[name])
            wall[name].append(w)
            cpu[name].append(c)
        if any(v != values["reference"] for v in values.values()):
            raise AssertionError(f"round {r + 1}: the paths disagree on Ψ: {values}")
        print(f"round {r + 1}: " + ", ".join(f"{n} {wall[n][-1]:.3f}" for n in names)
              + f" evals/s; speed-up {wall['fast'][-1] / wall['reference'][-1]:.2f}x; same Ψ",
              flush=True)
    result: dict = {
        "command": f"stratsynth bench --fitness --engines-only --rounds {rounds} --seed {seed}",
        "matches": matches, "rounds": rounds, "programs": programs,
        "evals_per_wall_s": wall, "evals_per_cpu_s": cpu,
        "median_evals_per_wall_s": {n: statistics.median(v) for n, v in wall.items()},
        "median_evals_per_cpu_s": {n: statistics.median(v) for n, v in cpu.items()},
    }
    for clock, rates in (("wall", wall), ("cpu", cpu)):
        for name in names[1:]:
            ratios = [f / s for f, s in zip(rates[name], rates["reference"])]
            result[f"median_speedup_{clock}"] = result.get(f"median_speedup_{clock}", {})
            result[f"median_speedup_{clock}"][name] = statistics.median(ratios)
    print(f"{'path':<18} {'evals/s (wall)':>15} {'evals/s (CPU)':>14} {'speed-up wall':>14} "
          f"{'speed-up CPU':>13}")
    for name in names:
        line = (f"{name:<18} {result['median_evals_per_wall_s'][name]:>15.3f} "
                f"{result['median_evals_per_cpu_s'][name]:>14.3f}")
        if name != "reference":
            line += (f" {result['median_speedup_wall'][name]:>13.2f}x"
                     f" {result['median_speedup_cpu'][name]:>12.2f}x")
        print(line)
    print("(medians over rounds; speed-ups are medians of per-round ratios; CPU = this "
          "process's CPU time, which waiting for a shared core does not inflate)")
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
