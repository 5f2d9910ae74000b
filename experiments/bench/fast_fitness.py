"""Serial Ψ evaluations per second: the reference engine, the numpy engine, the kernel.

Run with ``stratsynth bench --fitness`` (before the backend comparison) or
``python -m experiments.bench.fast_fitness``. One Ψ evaluation is 1,000 matches
of a program against GA, seat-alternating, on one core, as SA and UCT score a
program. Every path scores the same programs (the GA program of the sketch-learning paper, the
best programs of the 30-minute comparison and random programs), each a fresh
evaluation, and must give the same Ψ (checked every round). The paths are the
scalar reference engine (``engine="reference"``), the numpy array engine
(``games.cantstop.fast``, ``engine="numpy"``) and the compiled kernel
(``games.cantstop.kernel``, ``engine="fast"``, the default), the last two also scoring all programs
in one call (``WinRate.many``, as GP scores a population).

Rounds: on a shared machine a rate drifts by tens of percent within a minute,
so each round measures every path back to back, in an order rotated from round
to round; a speed-up is the median of the per-round ratios. Warm-up (the numpy
engine's move table, numba loading or compiling the kernel) is not in the rates;
it is reported on its own, and so is the kernel's compile time with an empty
numba cache (in a child process), the first-call cost of a fresh install.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

GA_PROGRAM = "experiments/programs/cantstop_ga.txt"
BEST_PROGRAMS = "experiments/results/cantstop-30min/runs/*/seed1/best.txt"
PATHS = {"reference": ("reference", False), "numpy": ("numpy", False),
         "numpy, whole batch": ("numpy", True), "kernel": ("fast", False),
         "kernel, whole batch": ("fast", True)}
"""Path name -> (``WinRate``'s ``engine``, whole batch)."""


def bench_programs(random_programs: int = 6, seed: int = 0) -> list[str]:
    """Program texts: the GA program, one best program per method, random programs."""
    texts = [CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(GA_PROGRAM).read()))]
    for path in sorted(glob.glob(BEST_PROGRAMS)):
        texts.append(CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(open(path).read(), path)))
    rng = random.Random(seed)
    texts += [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
              for _ in range(random_programs)]
    return texts


def measure(programs: list[str], matches: int, engine_name: str,
            batch: bool = False) -> tuple[float, float, list[float]]:
    """(evaluations per wall second, per CPU second of this process, Ψ of each
    program), fresh cache, one core; ``batch`` scores all programs in one call
    (``WinRate.many``, as GP scores a population), else one at a time (SA, UCT)."""
    psi = WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                  matches=matches, seed=1, engine=engine_name)
    wall, cpu = time.perf_counter(), time.process_time()
    values = psi.many(programs) if batch else [psi(text) for text in programs]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return len(programs) / wall, len(programs) / cpu, values


def warm_up(programs: list[str], engine_name: str) -> dict[str, float]:
    """Seconds (wall, CPU) of a first small evaluation: tables built, numba loaded
    (or compiled when its cache is empty)."""
    wall, cpu = time.perf_counter(), time.process_time()
    measure(programs[:1], 20, engine_name)
    return {"wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu}


COLD_START = """
import time
wall, cpu = time.perf_counter(), time.process_time()
from experiments.bench.fast_fitness import measure
measure([open("experiments/programs/cantstop_ga.txt").read()], 20, "fast")
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


def cold_start() -> dict[str, float]:
    """Seconds (wall, CPU) from a fresh interpreter to a first kernel evaluation with
    an empty numba cache: imports plus compiling the kernel (a fresh install)."""
    with tempfile.TemporaryDirectory() as cache:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-c", COLD_START], check=True,
                             capture_output=True, text=True,
                             env=dict(os.environ, NUMBA_CACHE_DIR=cache))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = float(out.stdout.split()[0])
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu}


def run_engine_bench(rounds: int = 3, matches: int = 1000, random_programs: int = 6,
                     seed: int = 0, out: str | None = None, cold: bool = True) -> dict:
    """Print per-round rates, medians and the speed-ups; return them (and write ``out``)."""
    programs = bench_programs(random_programs, seed)
    print(f"serial Ψ evaluations per second ({matches} matches each vs GA, "
          f"{len(programs)} programs, one core, {rounds} rounds in rotated order; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
    warm = {"numpy": warm_up(programs, "numpy"), "kernel": warm_up(programs, "fast")}
    if cold:
        warm["kernel, empty numba cache"] = cold_start()
    for name, cost in warm.items():
        print(f"first call ({name}, not in the rates): {cost['wall_s']:.2f} s wall, "
              f"{cost['cpu_s']:.2f} s CPU", flush=True)
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
        print(f"round {r + 1}: " + ", ".join(f"{n} {cpu[n][-1]:.3f}" for n in names)
              + f" evals per CPU s; kernel {cpu['kernel'][-1] / cpu['reference'][-1]:.2f}x "
              "the reference; same Ψ", flush=True)
    result: dict = {
        "command": f"stratsynth bench --fitness --engines-only --rounds {rounds} --seed {seed}",
        "matches": matches, "rounds": rounds, "programs": programs,
        "load_average_1min_at_start": os.getloadavg()[0], "first_call": warm,
        "evals_per_wall_s": wall, "evals_per_cpu_s": cpu,
        "median_evals_per_wall_s": {n: statistics.median(v) for n, v in wall.items()},
        "median_evals_per_cpu_s": {n: statistics.median(v) for n, v in cpu.items()},
    }
    for clock, rates in (("wall", wall), ("cpu", cpu)):
        for base in ("reference", "numpy"):
            key = f"median_speedup_{clock}" + ("" if base == "reference" else "_vs_numpy")
            result[key] = {name: statistics.median([f / s for f, s in zip(rates[name],
                                                                           rates[base])])
                           for name in names if name != base}
    print(f"{'path':<20} {'evals/s (wall)':>15} {'evals/s (CPU)':>14} {'speed-up wall':>14} "
          f"{'speed-up CPU':>13} {'CPU vs numpy':>13}")
    for name in names:
        line = (f"{name:<20} {result['median_evals_per_wall_s'][name]:>15.3f} "
                f"{result['median_evals_per_cpu_s'][name]:>14.3f}")
        if name != "reference":
            line += (f" {result['median_speedup_wall'][name]:>13.2f}x"
                     f" {result['median_speedup_cpu'][name]:>12.2f}x")
        if name.startswith("kernel"):
            line += f" {result['median_speedup_cpu_vs_numpy'][name]:>12.2f}x"
        print(line)
    print("(medians over rounds; speed-ups are medians of per-round ratios, against the "
          "reference unless said; CPU = this process's CPU time, which waiting for a shared "
          "core does not inflate)")
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
    parser.add_argument("--no-cold", action="store_true",
                        help="skip the kernel's compile with an empty numba cache")
    args = parser.parse_args(argv)
    run_engine_bench(args.rounds, args.matches, args.random_programs, args.seed, args.out,
                     cold=not args.no_cold)


if __name__ == "__main__":
    main()
