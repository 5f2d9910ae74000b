"""The sketch-learning paper's Can't Stop Fig. 2 and Table 1 at its budget, in Ψ evaluations.

Reads the comparisons of ``experiments/configs/cantstop_paper_budget_{fig2,table1}.toml``
(runs under ``DIR/runs/LABEL/seedN``; only finished runs, those with a ``done`` file):

* best Ψ over **Ψ evaluations** (1,000-match evaluations against GA; the cloning
  score's evaluations are not counted, as they cost ≈ 1/5,000 of one), median and
  quartile band over seeds, SA variants and UCT variants in two panels as in the
  paper's Fig. 2 (``psi-by-evaluations.png``); the top axis converts evaluations to
  hours of the reference code at ``REFERENCE_SECONDS_PER_PSI``;
* each run's best program re-measured on 10,000 fresh matches (``experiments.report``'s
  re-measurement, cached in the run's ``remeasured.json``);
* Mann–Whitney U tests over seeds between methods (two-sided, Holm-adjusted), and
  one-sided tests of the paper's ordering Sketch-SA(O) > Sketch-SA(A) > SA;
* Table 1: BC (SA on C alone; its best-C program measured against GA) beside
  Sketch-SA for each data set and score.

Each run's log is condensed to ``psi-by-evaluations.csv`` and ``budget-summary.json``
beside it (full logs are not committed), so the report can be made again from those.

    python -m experiments.studies.cantstop_paper_budget \\
        experiments/results/cantstop-paper-budget/fig2 \\
        experiments/results/cantstop-paper-budget/table1 \\
        --out experiments/results/cantstop-paper-budget
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np

from experiments.studies.runs import finished_run_dirs, value_at

REFERENCE_SECONDS_PER_PSI = 41.6
"""CPU seconds the sketch-learning paper's reference code spends on one 1,000-match Ψ against GA
of a program that runs (measured: docs/cantstop-paper-budget.md; one that fails costs 1.9 s)."""
PAPER_HOURS = 48
PSI_METRICS = ("psi", "psi-fresh")
CHECKPOINTS = (0.1, 0.25, 0.5, 1.0)
"""Shares of the Ψ budget at which the median best Ψ is tabled."""
SA_FAMILY = ("SA", "Sketch-SA(A)", "Sketch-SA(O)")
UCT_FAMILY = ("UCT", "Sketch-UCT(A)", "Sketch-UCT(O)")
CURVE_FILE = "psi-by-evaluations.csv"
SUMMARY_FILE = "budget-summary.json"


def condense(run_dir: Path) -> None:
    """Write the run's best-Ψ (or, for a run on C alone, best-C) improvements by
    Ψ evaluation and its counts, from ``log.csv``; kept if there is no log."""
    log = run_dir / "log.csv"
    if not log.exists():
        return
    config = json.loads((run_dir / "config.json").read_text())
    on_c = config.get("fitness") == "c"
    psi_evals = c_evals = 0
    best, last_improvement = -math.inf, 0
    improvements = []
    seconds = 0.0
    with log.open(newline="") as fh:
        for row in csv.DictReader(fh):
            seconds = float(row["seconds"])
            metric, value = row["metric"], float(row["value"])
            if on_c or metric == "c":
                c_evals += 1
            elif metric in PSI_METRICS:
                psi_evals += 1
            if metric == "psi" and value > best:
                best, last_improvement = value, int(row["evaluations"])
                improvements.append((psi_evals, int(row["evaluations"]), seconds, value,
                                     row["program"]))
    failed = 0
    failures = run_dir / "failures.log"
    if failures.exists():
        with failures.open() as fh:
            failed = sum(1 for line in fh if line.split("\t", 1)[0] in PSI_METRICS)
    with (run_dir / CURVE_FILE).open("w", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(("psi_evaluations", "evaluations", "cpu_seconds", "best", "program"))
        writer.writerows(improvements)
    (run_dir / SUMMARY_FILE).write_text(json.dumps({
        "psi_evaluations": psi_evals, "c_evaluations": c_evals,
        "failed_psi_evaluations": 0 if on_c else failed, "cpu_seconds": seconds,
        "best": best, "best_is": "c" if on_c else "psi",
        "last_improvement_at_evaluation": last_improvement}) + "\n")


def load(run_dir: Path, matches: int, workers: int) -> dict:
    """A finished run: config, condensed curve and counts, re-measured final rate."""
    from experiments.report import load_run, remeasure

    condense(run_dir)
    config = json.loads((run_dir / "config.json").read_text())
    with (run_dir / CURVE_FILE).open(newline="") as fh:
        curve = [(int(r["psi_evaluations"]), float(r["best"])) for r in csv.DictReader(fh)]
    summary = json.loads((run_dir / SUMMARY_FILE).read_text())
    wins, n = remeasure(load_run(run_dir), matches, workers)
    return {"config": config, "curve": curve, "summary": summary, "rate": wins / n,
            "wins": wins, "matches": n, "dir": run_dir}


def finished(roots: list[Path], matches: int, workers: int) -> dict[str, list[dict]]:
    """Finished runs by method label (a label met in two roots must mean one setting)."""
    methods: dict[str, list[dict]] = {}
    for root in roots:
        for run_dir in finished_run_dirs(root):
            run = load(run_dir, matches, workers)
            methods.setdefault(run["config"]["label"], []).append(run)
    return methods


def best_at(run: dict, evaluations: float) -> float:
    """Best Ψ after ``evaluations`` Ψ evaluations (NaN before the first)."""
    return value_at(run["curve"], evaluations)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return tuple(np.nanpercentile(values, [25, 50, 75]))


def draw(methods: dict[str, list[dict]], budget: int, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.linspace(1, budget, 300)
    families = [(title, [m for m in family if m in methods])
                for title, family in (("SA variants", SA_FAMILY), ("UCT variants", UCT_FAMILY))]
    families = [(t, f) for t, f in families if f]
    fig, axes = plt.subplots(1, len(families), figsize=(5.4 * len(families), 4.2),
                             sharey=True, squeeze=False)
    for ax, (title, family) in zip(axes[0], families):
        for k, label in enumerate(family):
            runs = methods[label]
            curves = np.array([[best_at(r, g) for g in grid] for r in runs])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                low, median, high = np.nanpercentile(curves, [25, 50, 75], axis=0)
            ax.plot(grid, median, color=f"C{k}", label=f"{label} ({len(runs)})")
            ax.fill_between(grid, low, high, color=f"C{k}", alpha=0.2)
        ax.set_title(title)
        ax.set_xlabel("Ψ evaluations (1,000 matches against GA each)")
        ax.set_xlim(0, budget)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8, title="method (seeds)", title_fontsize=8)
        top = ax.secondary_xaxis("top", functions=(
            lambda e: e * REFERENCE_SECONDS_PER_PSI / 3600,
            lambda h: h * 3600 / REFERENCE_SECONDS_PER_PSI))
        top.set_xlabel(f"hours of the reference code at {REFERENCE_SECONDS_PER_PSI:.1f} s per Ψ")
    axes[0][0].set_ylabel("best Ψ against GA so far\n(median, quartiles over seeds)")
    axes[0][0].set_ylim(0, 0.7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def holm(pvalues: list[float]) -> list[float]:
    order = sorted(range(len(pvalues)), key=pvalues.__getitem__)
    adjusted, running = [0.0] * len(pvalues), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def seeds_text(runs: list[dict]) -> str:
    seeds = sorted(r["config"]["seed"] for r in runs)
    return ", ".join(map(str, seeds))


def fig2_lines(methods: dict[str, list[dict]], budget: int, matches: int) -> list[str]:
    from scipy.stats import mannwhitneyu

    labels = [m for m in SA_FAMILY + UCT_FAMILY if m in methods]
    if not labels:
        return []
    marks = [int(share * budget) for share in CHECKPOINTS]
    lines = ["## Fig. 2: best Ψ over Ψ evaluations", "",
             f"Budget {budget:,} Ψ evaluations per run "
             f"({budget * REFERENCE_SECONDS_PER_PSI / 3600:.0f} h of the paper's reference code "
             f"at {REFERENCE_SECONDS_PER_PSI:.1f} CPU-s per Ψ of a program that runs; the paper "
             f"gives {PAPER_HOURS} h). Median best Ψ "
             "during the search [first–third quartile] after the given number of Ψ "
             f"evaluations; final rate: each run's best program re-measured on {matches:,} "
             "fresh matches, mean ± std and median over seeds.", "",
             "![best Ψ over Ψ evaluations](psi-by-evaluations.png)", "",
             "| method | seeds | " + " | ".join(f"Ψ evals {m:,}" for m in marks)
             + " | final rate mean ± std | median | runs ≥ 0.55 | never above 0 | "
             "Ψ evaluations that failed | Ψ evaluations | CPU min/run |",
             "|---|---|" + "---|" * len(marks) + "---|---|---|---|---|---|---|"]
    for label in labels:
        runs = methods[label]
        cells = []
        for m in marks:
            q1, q2, q3 = quartiles([best_at(r, m) for r in runs])
            cells.append(f"{q2:.3f} [{q1:.3f}–{q3:.3f}]")
        rates = np.array([r["rate"] for r in runs])
        failed = sum(r["summary"]["failed_psi_evaluations"] for r in runs)
        evals = sum(r["summary"]["psi_evaluations"] for r in runs)
        never = sum(1 for r in runs if r["summary"]["best"] <= 0)
        cpu = np.mean([r["summary"]["cpu_seconds"] for r in runs]) / 60
        lines.append(f"| {label} | {len(runs)} | " + " | ".join(cells)
                     + f" | {rates.mean():.3f} ± {rates.std():.3f} | {np.median(rates):.3f} "
                     f"| {int((rates >= 0.55).sum())}/{len(runs)} | {never}/{len(runs)} | "
                     f"{failed / max(evals, 1):.0%} | {evals / len(runs):,.0f} | {cpu:.1f} |")
    lines += ["", "Seeds finished: " + "; ".join(
        f"{label}: {seeds_text(methods[label])}" for label in labels), ""]
    pairs = [(a, b) for a, b in combinations(labels, 2)
             if len(methods[a]) > 1 and len(methods[b]) > 1]
    if pairs:
        rates = {label: [r["rate"] for r in methods[label]] for label in labels}
        raw = [float(mannwhitneyu(rates[a], rates[b], alternative="two-sided").pvalue)
               for a, b in pairs]
        lines += ["### Tests between methods (final rates, Mann–Whitney U over seeds)", "",
                  "| pair | seeds | two-sided p | Holm-adjusted |", "|---|---|---|---|"]
        for (a, b), p, adj in zip(pairs, raw, holm(raw)):
            lines.append(f"| {a} vs {b} | {len(rates[a])} / {len(rates[b])} | {p:.3g} | "
                         f"{adj:.3g} |")
        ordered = [(a, b) for a, b in (("Sketch-SA(O)", "Sketch-SA(A)"),
                                       ("Sketch-SA(A)", "SA"), ("Sketch-SA(O)", "SA"))
                   if a in rates and b in rates and len(rates[a]) > 1 and len(rates[b]) > 1]
        if ordered:
            lines += ["", "The paper's ordering, one-sided (first greater than second):", ""]
            for a, b in ordered:
                p = float(mannwhitneyu(rates[a], rates[b], alternative="greater").pvalue)
                lines.append(f"- {a} > {b}: medians {np.median(rates[a]):.3f} against "
                             f"{np.median(rates[b]):.3f}, p = {p:.3g}")
        lines.append("")
    return lines


def table1_key(config: dict) -> tuple[str, str, str] | None:
    """(score, data set, BC or Sketch-SA) of a Table 1 run, None for other runs."""
    data = Path(config.get("data") or "").stem.replace("cantstop_", "")
    if config.get("fitness") == "c" and config.get("method") == "sa":
        return config["score"], data, "BC"
    if config.get("method") == "sketch-sa" and config.get("fitness") in (None, "psi"):
        return config["score"], data, "Sketch-SA"
    return None


def table1_lines(methods: dict[str, list[dict]], matches: int) -> list[str]:
    cells: dict[tuple[str, str, str], list[dict]] = {}
    for runs in methods.values():
        for run in runs:
            key = table1_key(run["config"])
            if key is not None:
                cells.setdefault(key, []).append(run)
    if not any(kind == "BC" for _, _, kind in cells):
        return []

    def cell(key) -> str:
        runs = cells.get(key)
        if not runs:
            return "not run yet"
        rates = np.array([r["rate"] for r in runs])
        return f"{rates.mean():.3f} ± {rates.std():.3f} ({len(runs)})"

    lines = ["## Table 1: behavioural cloning alone (BC) against Sketch-SA", "",
             "Win rate against GA of each run's returned program (BC: its best-C program; "
             f"Sketch-SA: its best-Ψ program), re-measured on {matches:,} fresh matches, "
             "mean ± std over seeds (seeds in brackets). The paper's numbers are from its "
             "Table 1.", "",
             "| score | L | BC | Sketch-SA | seed: BC | seed: Sketch-SA |",
             "|---|---|---|---|---|---|"]
    paper = {("A", "human"): ("0.352 ± 0.199", "0.491 ± 0.117"),
             ("A", "ga"): ("0.424 ± 0.070", "0.516 ± 0.092"),
             ("A", "random"): ("0.182 ± 0.058", "0.507 ± 0.085"),
             ("O", "human"): ("0.212 ± 0.216", "0.555 ± 0.017"),
             ("O", "ga"): ("0.368 ± 0.088", "0.543 ± 0.024"),
             ("O", "random"): ("0.244 ± 0.114", "0.518 ± 0.058")}
    for (score, data), (bc, sk) in paper.items():
        ours_bc = "no data set (human matches)" if data == "human" else cell((score, data, "BC"))
        ours_sk = "no data set (human matches)" if data == "human" else \
            cell((score, data, "Sketch-SA"))
        lines.append(f"| {score} | {'GA' if data == 'ga' else data} | {ours_bc} | {ours_sk} | "
                     f"{bc} | {sk} |")
    bc_runs = [r for (_, _, kind), runs in cells.items() if kind == "BC" for r in runs]
    last = [r["summary"]["last_improvement_at_evaluation"] for r in bc_runs]
    best_c = [r["summary"]["best"] for r in bc_runs]
    lines += ["", f"BC runs: best C {np.median(best_c):.3f} median (range {min(best_c):.3f}–"
              f"{max(best_c):.3f}); the last improvement of best C came at evaluation "
              f"{int(np.median(last)):,} (median; latest {max(last):,}) of 10,000.", ""]
    return lines


def report(roots: list[Path], out: Path, budget: int, matches: int, workers: int) -> Path:
    methods = finished(roots, matches, workers)
    if not methods:
        raise SystemExit(f"no finished runs under {', '.join(str(r) for r in roots)}")
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# The sketch-learning paper's Can't Stop experiments at its budget", "",
             "Paper mode, `rules=reference`, Ψ over 1,000 matches against GA. Made by "
             "`python -m experiments.studies.cantstop_paper_budget "
             + " ".join(str(r) for r in roots) + f" --out {out}`.", ""]
    if any(m in methods for m in SA_FAMILY + UCT_FAMILY):
        draw(methods, budget, out / "psi-by-evaluations.png")
        lines += fig2_lines(methods, budget, matches)
    lines += table1_lines(methods, matches)
    path = out / "budget-report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", help="comparison directories of stratsynth run")
    parser.add_argument("--out", required=True, help="folder for budget-report.md and the figure")
    parser.add_argument("--budget", type=int, default=4400, help="Ψ evaluations per run")
    parser.add_argument("--matches", type=int, default=10_000,
                        help="fresh matches to re-measure each final program")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    print(report([Path(d) for d in args.dirs], Path(args.out), args.budget, args.matches,
                 args.workers))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
