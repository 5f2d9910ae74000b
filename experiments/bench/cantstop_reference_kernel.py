"""Ψ evaluations per CPU second under ``rules=reference``: scalar engine vs compiled kernel.

    python -m experiments.bench.cantstop_reference_kernel [--rounds 3] [--out FILE]

One Ψ evaluation is 1,000 seat-alternating matches of a ``--dsl sketch-reference``
program against GA under the sketch-learning paper's reference code's rules
(``--game-param rules=reference``), on one core. The programs are GA written with
the appendix's constants (``experiments/programs/cantstop_ga_constants01.txt``)
and random ``sketch-reference`` programs that the kernel runs, each a fresh
evaluation. The paths: the scalar engine (``engine="reference"``), the
kernel one program at a time (the default; SA, UCT) and the kernel scoring all
programs in one call (``WinRate.many``, as GP scores a population). Every round
measures the paths back to back in an order rotated from round to round and checks
that they give the same Ψ; rates and speed-ups are medians over the rounds
(speed-ups: medians of the per-round ratios). The first kernel call of the process
(numba loading its cache) is reported on its own, not in the rates.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.fitness import WinRate
from gp.languages.cantstop import REFERENCE_SECURED_DSL, ReferenceSecuredSketch
from gp.languages.cantstop.kernel import kernel_program

GA01_PROGRAM = "experiments/programs/cantstop_ga_constants01.txt"
PATHS = {"scalar engine": ("reference", False), "kernel": ("fast", False),
         "kernel, whole batch": ("fast", True)}
"""Path name -> (``WinRate``'s ``engine``, whole batch)."""


def bench_programs(random_programs: int = 5, seed: int = 0) -> list[str]:
    """Program texts: GA in the appendix's constants, then random programs the kernel runs."""
    dsl = REFERENCE_SECURED_DSL
    texts = [dsl.to_text(dsl.parse(open(GA01_PROGRAM).read(), GA01_PROGRAM))]
    rng = random.Random(seed)
    while len(texts) < 1 + random_programs:
        player = ReferenceSecuredSketch(dsl.random_program(rng))
        if kernel_program(player) is not None:
            texts.append(player.text)
    return texts


def measure(programs: list[str], matches: int, engine_name: str,
            batch: bool = False) -> tuple[float, float, list[float]]:
    """(evaluations per wall second, per CPU second of this process, Ψ of each program)."""
    psi = WinRate(load_game("cantstop", rules="reference"), glenn_aloi_player(),
                  ReferenceSecuredSketch, matches=matches, seed=1, engine=engine_name)
    wall, cpu = time.perf_counter(), time.process_time()
    values = psi.many(programs) if batch else [psi(text) for text in programs]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return len(programs) / wall, len(programs) / cpu, values


def run(rounds: int = 3, matches: int = 1000, random_programs: int = 5, seed: int = 0,
        out: str | None = None) -> dict:
    programs = bench_programs(random_programs, seed)
    print(f"Ψ evaluations under rules=reference ({matches} matches each vs GA, "
          f"{len(programs)} sketch-reference programs, one core, {rounds} rounds in rotated "
          f"order; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
    wall, cpu = time.perf_counter(), time.process_time()
    measure(programs[:1], 20, "fast")
    print(f"first kernel call (not in the rates): {time.perf_counter() - wall:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} s CPU", flush=True)
    names = list(PATHS)
    rates: dict[str, dict[str, list[float]]] = {"wall": {n: [] for n in names},
                                                "cpu": {n: [] for n in names}}
    for r in range(rounds):
        values = {}
        for name in names[r % len(names):] + names[:r % len(names)]:
            w, c, values[name] = measure(programs, matches, *PATHS[name])
            rates["wall"][name].append(w)
            rates["cpu"][name].append(c)
        if any(v != values["scalar engine"] for v in values.values()):
            raise AssertionError(f"round {r + 1}: the paths disagree on Ψ: {values}")
        print(f"round {r + 1}: " + ", ".join(f"{n} {rates['cpu'][n][-1]:.2f}" for n in names)
              + " evals per CPU s; same Ψ", flush=True)
    base = "scalar engine"
    result: dict = {
        "command": f"python -m experiments.bench.cantstop_reference_kernel --rounds {rounds}",
        "matches": matches, "rounds": rounds, "programs": programs,
        "evals_per_wall_s": rates["wall"], "evals_per_cpu_s": rates["cpu"],
        "median_evals_per_cpu_s": {n: statistics.median(v) for n, v in rates["cpu"].items()},
        "median_evals_per_wall_s": {n: statistics.median(v) for n, v in rates["wall"].items()},
        "median_speedup_cpu": {n: statistics.median(
            [f / s for f, s in zip(rates["cpu"][n], rates["cpu"][base])]) for n in names},
        "median_speedup_wall": {n: statistics.median(
            [f / s for f, s in zip(rates["wall"][n], rates["wall"][base])]) for n in names},
    }
    print(f"{'path':<22} {'evals/CPU s':>12} {'evals/wall s':>13} {'speed-up (CPU)':>15}")
    for name in names:
        print(f"{name:<22} {result['median_evals_per_cpu_s'][name]:>12.2f} "
              f"{result['median_evals_per_wall_s'][name]:>13.2f} "
              f"{result['median_speedup_cpu'][name]:>14.1f}x")
    if out:
        with open(out, "w") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--random-programs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the figures as JSON")
    args = parser.parse_args(argv)
    run(args.rounds, args.matches, args.random_programs, args.seed, args.out)


if __name__ == "__main__":
    main()
