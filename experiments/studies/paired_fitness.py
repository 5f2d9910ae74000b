"""Paired Ψ against unpaired Ψ: what a copy of the target scores, and how much Ψ
moves from one run seed to the next.

    python -m experiments.studies.paired_fitness --out experiments/results/paired-fitness

For each game setting, program and run seed, Ψ is measured unpaired (one opening or
dice seed per match) and paired (``gp.fitness.WinRate(paired=True)``: colour-swapped
pairs on one seed each). A copy of the target must score exactly ½ paired; the
spread of Ψ over run seeds is the noise a search sees. Settings:

* Can't Stop, target GA, the GA program (a copy) and random programs of the
  sketch language, 100 matches per Ψ, 10 run seeds;
* Expendibots with 4 random opening plies and 40 turns each, depth-1 evaluation
  programs against ``value: f3`` at depth 1 (the copy and four others), 8 matches
  per Ψ (as in the GP runs of ``expendibots_learning``), 10 run seeds.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import sys
import time
from pathlib import Path

from games import load_game
from gp.fitness import WinRate

OUT = Path("experiments/results/paired-fitness")


def cantstop_setting(programs: int):
    from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

    ga = Path("experiments/programs/cantstop_ga.txt").read_text()
    rng = random.Random(0)
    texts = [ga] + [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
                    for _ in range(programs)]
    return ("cantstop, target GA", load_game("cantstop"), SketchStrategy(ga), SketchStrategy, 100,
            [("GA (copy of the target)", ga)] + [(f"random #{i}", t)
                                                 for i, t in enumerate(texts[1:], 1)])


def expendibots_setting(target_text: str, label: str):
    from games.expendibots.rules import Expendibots
    from gp.languages.expendibots import EXPENDIBOTS_DSL, EvaluationProgramPlayer

    strategy = functools.partial(EvaluationProgramPlayer, depth=1)
    game = Expendibots(opening_plies=4, turn_limit=40)
    others = ["value: f1 - f2", "value: f1 + f3", "value: 2 * f3", "value: my_largest"]
    return (f"expendibots, target {label}", game, strategy(EXPENDIBOTS_DSL.parse(target_text)),
            strategy, 8, [(f"{target_text} (copy of the target)", target_text)]
            + [(t, t) for t in others])


def measure(setting, seeds: int) -> list[dict]:
    name, game, target, cls, matches, programs = setting
    rows = []
    for label, text in programs:
        row = {"setting": name, "program": label, "matches": matches}
        for paired in (False, True):
            values = [WinRate(game, target, cls, matches=matches, seed=seed, paired=paired)(text)
                      for seed in range(seeds)]
            key = "paired" if paired else "unpaired"
            row[key] = values
            row[f"{key}_mean"] = statistics.fmean(values)
            row[f"{key}_sd"] = statistics.pstdev(values)
        rows.append(row)
        print(f"{name:28s} {label[:40]:40s} unpaired {row['unpaired_mean']:.3f} ± "
              f"{row['unpaired_sd']:.3f}  paired {row['paired_mean']:.3f} ± "
              f"{row['paired_sd']:.3f}", flush=True)
    return rows


def table(rows: list[dict], seeds: int) -> str:
    lines = [f"Ψ over {seeds} run seeds: mean ± standard deviation (population), min–max.", "",
             "| setting | program | matches | unpaired | paired |", "|---|---|---|---|---|"]
    for r in rows:
        cells = [f"{r[f'{k}_mean']:.3f} ± {r[f'{k}_sd']:.3f} ({min(r[k]):.3f}–{max(r[k]):.3f})"
                 for k in ("unpaired", "paired")]
        lines.append(f"| {r['setting']} | `{r['program']}` | {r['matches']} | {cells[0]} | "
                     f"{cells[1]} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--programs", type=int, default=4, help="random Can't Stop programs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rows = []
    for setting in (cantstop_setting(args.programs), expendibots_setting("value: f3", "f3")):
        rows += measure(setting, args.seeds)
    (out / "noise.json").write_text(json.dumps(rows, indent=1) + "\n")
    (out / "noise.md").write_text(
        f"`PYTHONPATH=. python -m experiments.studies.paired_fitness {' '.join(sys.argv[1:])}`"
        f" ({time.perf_counter() - started:.0f} s)\n\n" + table(rows, args.seeds))
    print(table(rows, args.seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
