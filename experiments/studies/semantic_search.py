"""SA with syntactic against semantic neighbourhoods from a random program, same budget
and seeds: best Ψ over evaluations, the best program on fresh matches, and how many
evaluations went to a behaviour the run had already scored.

    python -m experiments.studies.semantic_search --game cantstop --evaluations 200 \\
        --seeds 1-10 --out DIR

For each neighbourhood and seed this runs ``stratsynth synth GAME --method sa
--neighbourhood NB --evaluations N --seed S --workers 1 --out DIR/NB-seedS`` (a run
directory already there is resumed: ``stratsynth resume``, so the study goes on after
a kill), then plays the run's best program against the game's default target on
``--fresh`` new matches (``stratsynth play ... --seed 999``). *Look-alike
evaluations* are the evaluations of a program that acts, on one fixed set of states
recorded with the game's behaviour recorder from matches of the target against
itself (seeded, the same for every run), like a program the run evaluated before: an
evaluation that could only tie. It writes ``DIR/comparison.md`` and
``comparison.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import shlex
import sys
from pathlib import Path

from experiments.cli import main as stratsynth
from experiments.studies.noisy_qd import parse_seeds, t_interval, write_comparison

NEIGHBOURHOODS = ("syntactic", "semantic")
PROBE_SEED = 20261125
"""Seed of the recording matches of the fixed probe states."""


def probe(game_name: str):
    """The game's behaviour with its states replaced by a fixed set recorded from the
    default opponent against itself (the same for every run)."""
    from games import game_spec
    from gp.semantic import behaviour_for

    spec = game_spec(game_name)
    strategy_class = spec.language()
    behaviour = behaviour_for(strategy_class.default_dsl())
    behaviour.states = behaviour.recorder.record(behaviour.game, behaviour.opponent,
                                                 behaviour.opponent,
                                                 random.Random(PROBE_SEED))
    return behaviour, strategy_class.default_dsl()


def look_alike(rows: list[dict], behaviour, dsl) -> int:
    """Evaluations of a program whose signature an earlier evaluation already had."""
    seen, repeats = set(), 0
    for row in rows:
        signature = behaviour.of(list(dsl.parse(row["program"])))
        repeats += signature in seen
        seen.add(signature)
    return repeats


def fresh_win_rate(args, best: Path) -> float:
    """The program's win rate against the game's default target on fresh matches."""
    from games import game_spec

    target = game_spec(args.game).synthesis.default_target
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        code = stratsynth(["play", args.game, "--p0", f"program:{best}", "--p1", target,
                           "-n", str(args.fresh), "--seed", "999", "--json"])
    if code:
        raise SystemExit(f"{best}: the fresh matches failed (exit {code})")
    result = json.loads(text.getvalue().strip().splitlines()[-1])
    return (result["wins"][0] + 0.5 * result["draws"]) / result["matches"]


def one(args, neighbourhood: str, seed: int, behaviour, dsl) -> dict:
    from gp.evaluator import read_log

    out = Path(args.out) / f"{neighbourhood}-seed{seed}"
    if not (out / "done").is_file():
        if (out / "config.json").is_file():
            code = stratsynth(["resume", str(out), "--quiet"])
        else:
            code = stratsynth(["synth", args.game, "--method", "sa", "--neighbourhood",
                               neighbourhood, "--evaluations", str(args.evaluations),
                               *(["--matches", str(args.matches)] if args.matches else []),
                               "--seed", str(seed), "--workers", "1", "--quiet",
                               "--out", str(out)])
        if code:
            raise SystemExit(f"{out}: the synthesis run failed (exit {code})")
    rows = read_log(out / "log.csv")
    bests = [float(r["best_psi"]) for r in rows]
    best = bests[-1]
    found = next(i for i, b in enumerate(bests, 1) if b == best)
    marks = {f"best_at_{m}": bests[min(m, len(bests)) - 1] for m in args.marks}
    return {"neighbourhood": neighbourhood, "seed": seed, "best": best, "found_at": found,
            "fresh": fresh_win_rate(args, out / "best.txt"), **marks,
            "look_alike": look_alike(rows, behaviour, dsl) / len(rows)}


def table(rows: list[dict], args) -> list[str]:
    figures = [("best", "best logged Ψ"), ("fresh", f"best program, {args.fresh} fresh matches"),
               *((f"best_at_{m}", f"best Ψ after {m} evaluations") for m in args.marks),
               ("found_at", "evaluation that found the best"),
               ("look_alike", "look-alike evaluations (share)")]
    lines = ["| figure | " + " | ".join(f"{n}: mean [95% t-interval]" for n in NEIGHBOURHOODS)
             + " | semantic − syntactic, paired |", "|---" * 4 + "|"]
    for key, label in figures:
        cells, by = [], {}
        for nb in NEIGHBOURHOODS:
            by[nb] = [r[key] for r in rows if r["neighbourhood"] == nb]
            mean, lo, hi = t_interval(by[nb])
            cells.append(f"{mean:.3f} [{lo:.3f}, {hi:.3f}]")
        mean, lo, hi = t_interval([a - b for a, b in zip(by["semantic"], by["syntactic"])])
        lines.append(f"| {label} | " + " | ".join(cells) +
                     f" | {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] |")
    lines += ["", "| seed | " + " | ".join(f"{nb} best Ψ (found at) | {nb} fresh | {nb} "
                                          "look-alike" for nb in NEIGHBOURHOODS) + " |",
              "|---" * 7 + "|"]
    for seed in sorted({r["seed"] for r in rows}):
        cells = []
        for nb in NEIGHBOURHOODS:
            r = next(r for r in rows if r["seed"] == seed and r["neighbourhood"] == nb)
            cells += [f"{r['best']:.3f} ({r['found_at']})", f"{r['fresh']:.3f}",
                      f"{r['look_alike']:.2f}"]
        lines.append(f"| {seed} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cantstop")
    parser.add_argument("--evaluations", type=int, required=True)
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per Ψ (default: the game's)")
    parser.add_argument("--seeds", default="1-3", help="e.g. 1-10 or 1,4,5")
    parser.add_argument("--fresh", type=int, default=2000,
                        help="fresh matches of each run's best program")
    parser.add_argument("--marks", default="50,100",
                        help="evaluations at which the best so far is reported")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    args.marks = [int(m) for m in args.marks.split(",") if m]
    seeds = parse_seeds(args.seeds)
    behaviour, dsl = probe(args.game)
    rows = [one(args, nb, seed, behaviour, dsl) for seed in seeds for nb in NEIGHBOURHOODS]
    from games import game_spec

    default_matches = f"the game's default {game_spec(args.game).synthesis.default_matches}"
    command = "python -m experiments.studies.semantic_search " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    lines = [f"# SA from a random program on {args.game}: syntactic against semantic "
             "neighbourhoods", "", f"`{command}`", "",
             f"Each run: SA, {args.evaluations} evaluations of Ψ against the game's default "
             f"target ({args.matches or default_matches} matches each), one process, "
             f"seeds {args.seeds}. Look-alike evaluations: see the study's docstring "
             f"({len(behaviour.states)} probe states).", "", *table(rows, args)]
    write_comparison(Path(args.out), lines, command, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
