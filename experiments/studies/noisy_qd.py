"""Plain MAP-Elites against MAP-Elites with adaptive sampling, at the same evaluation
budget (re-evaluations counted), judged by their corrected archives.

    python -m experiments.studies.noisy_qd --game cantstop \\
        --features markers_per_stop,bust_rate --dims 10,10 --target ga --matches 50 \\
        --evaluations 1000 --seeds 1-3 --corrected 10 --out DIR

For each policy and seed this runs ``stratsynth qd GAME ... --resample POLICY --seed S
--out DIR/POLICY-seedS`` (a run directory already there is resumed: ``stratsynth
resume``, which replays its log, so the study goes on after a kill), then ``stratsynth
qd-check RUN --corrected N --out RUN/check.md`` (skipped once its
``check-corrected.json`` exists). It writes ``DIR/comparison.md`` and
``comparison.json``: per seed and as means with 95% t-intervals over the seeds, each
archive's own QD score beside its corrected coverage, QD score and best, the share of
elites that keep their cell, and adaptive minus plain paired by seed.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from pathlib import Path

from experiments.cli import main as stratsynth

POLICIES = ("plain", "adaptive")
FIGURES = (("qd_score", "archive QD score"), ("corrected_qd_score", "corrected QD score"),
           ("corrected_coverage", "corrected coverage"), ("corrected_best", "corrected best"),
           ("kept", "elites keeping their cell"),
           ("evaluations_per_elite", "evaluations logged per elite"))


def parse_seeds(text: str) -> list[int]:
    """``1-3`` or ``1,4,5`` -> the seeds."""
    seeds: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        seeds.extend(range(int(a), int(b or a) + 1))
    return seeds


def t_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% t-interval over the values (the mean alone for one value)."""
    from scipy import stats

    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def write_comparison(out: Path, lines: list[str], command: str, rows: list[dict]) -> None:
    """A study's ``comparison.md`` (``lines``, also printed) and ``comparison.json``
    (the command and the per-run figures)."""
    (out / "comparison.md").write_text("\n".join(lines) + "\n")
    (out / "comparison.json").write_text(json.dumps({"command": command, "runs": rows},
                                                    indent=1) + "\n")
    print("\n".join(lines))


def run_args(args, policy: str, seed: int, out: Path) -> list[str]:
    return ["qd", args.game, "--features", args.features,
            *(["--dims", args.dims] if args.dims else []),
            *(["--target", args.target] if args.target else []),
            *(["--subject", args.subject] if args.subject else []),
            "--matches", str(args.matches), "--batch", str(args.batch),
            "--evaluations", str(args.evaluations), "--seed", str(seed),
            "--workers", str(args.workers), "--resample", policy,
            *(f"--game-param={p}" for p in args.game_param or ()),
            "--quiet", "--out", str(out)]


def one(args, policy: str, seed: int) -> dict:
    out = Path(args.out) / f"{policy}-seed{seed}"
    if (out / "config.json").is_file():
        code = stratsynth(["resume", str(out), "--quiet"])
    else:
        code = stratsynth(run_args(args, policy, seed, out))
    if code:
        raise SystemExit(f"{out}: the qd run failed (exit {code})")
    check = out / "check-corrected.json"
    if not check.is_file():
        code = stratsynth(["qd-check", str(out), "--matches", str(args.check_matches),
                           "--corrected", str(args.corrected), "--workers", str(args.workers),
                           "--out", str(out / "check.md")])
        if code:
            raise SystemExit(f"{out}: qd-check failed (exit {code})")
    return {"policy": policy, "seed": seed, **json.loads(check.read_text())}


def table(rows: list[dict], seeds: list[int]) -> list[str]:
    lines = ["| figure | " + " | ".join(f"{p}: mean [95% t-interval]" for p in POLICIES)
             + " | adaptive − plain, paired |", "|---" * 4 + "|"]
    for key, label in FIGURES:
        cells, by = [], {}
        for policy in POLICIES:
            values = [r[key] for r in rows if r["policy"] == policy]
            by[policy] = values
            mean, lo, hi = t_interval(values)
            cells.append(f"{mean:.3f} [{lo:.3f}, {hi:.3f}]")
        diff = [a - p for a, p in zip(by["adaptive"], by["plain"])]
        mean, lo, hi = t_interval(diff)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {mean:+.3f} [{lo:+.3f}, "
                     f"{hi:+.3f}] |")
    lines += ["", "Per seed (" + ", ".join(map(str, seeds)) + "):", "",
              "| figure | " + " | ".join(POLICIES) + " |", "|---" * 3 + "|"]
    for key, label in FIGURES:
        lines.append(f"| {label} | " + " | ".join(
            ", ".join(f"{r[key]:.3f}" for r in rows if r["policy"] == p) for p in POLICIES)
            + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--features", required=True)
    parser.add_argument("--dims", default=None)
    parser.add_argument("--target", default=None)
    parser.add_argument("--subject", default=None,
                        help="the player a weight-vector space evolves (stratsynth qd --subject)")
    parser.add_argument("--matches", type=int, required=True, help="matches per evaluation")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--evaluations", type=int, required=True)
    parser.add_argument("--seeds", default="1-3", help="e.g. 1-3 or 1,4,5")
    parser.add_argument("--corrected", type=int, default=10,
                        help="fresh samples of the run's matches per elite")
    parser.add_argument("--check-matches", type=int, default=2000,
                        help="qd-check's corner elites: fresh matches each")
    parser.add_argument("--game-param", action="append", default=None, metavar="KEY=VALUE")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    rows = [one(args, policy, seed) for policy in POLICIES for seed in seeds]
    command = "python -m experiments.studies.noisy_qd " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    lines = [f"# Plain against adaptive-sampling MAP-Elites on {args.game}", "", f"`{command}`",
             "", f"Same budget: {args.evaluations:,} evaluations of {args.matches} matches per "
             f"run (re-evaluations counted), {len(seeds)} seeds. Corrected archive: every "
             f"elite re-evaluated on {args.corrected} fresh samples of {args.matches} matches "
             "and re-inserted into an empty grid of the same shape.", "", *table(rows, seeds)]
    write_comparison(out, lines, command, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
