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
* each run's Ψ evaluations in the reference code's CPU-hours, each charged the measured
  cost of its outcome (``REFERENCE_SECONDS_PER_PSI`` for a program that runs,
  ``REFERENCE_SECONDS_PER_FAILED_PSI`` for one that fails), against the paper's 48 h;
* Mann–Whitney U tests over seeds between methods (two-sided, Holm-adjusted), and
  one-sided tests of the paper's ordering Sketch-SA(O) > Sketch-SA(A) > SA, the same for
  UCT, and SA above UCT (``PAPER_ORDERING``, Holm within each group);
* Table 1: BC (SA on C alone; its best-C program measured against GA) beside
  Sketch-SA for each data set and score;
* with ``--typed DIR``: the same Fig. 2 in the typed language
  (``experiments/configs/cantstop_paper_budget_fig2_typed.toml``), its own figure
  (``psi-by-evaluations-typed.png``) and table, and each method's final rates in the
  two languages side by side;
* with ``--typed-paper-rules DIR``: the typed Fig. 2 again under the paper's rules
  (``experiments/configs/cantstop_paper_budget_fig2_typed_paper_rules.toml``), its figure
  (``psi-by-evaluations-typed-paper-rules.png``) and table, and each method's final
  rates under the two rule sets side by side.

Each run's log is condensed to ``psi-by-evaluations.csv`` and ``budget-summary.json``
beside it (full logs are not committed), so the report can be made again from those.

    python -m experiments.studies.cantstop_paper_budget \\
        experiments/results/cantstop-paper-budget/fig2 \\
        experiments/results/cantstop-paper-budget/table1 \\
        --typed experiments/results/cantstop-paper-budget/fig2-typed \\
        --typed-paper-rules experiments/results/cantstop-paper-budget/fig2-typed-paper-rules \\
        --out experiments/results/cantstop-paper-budget
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np

from experiments.report import holm
from experiments.studies.runs import finished_run_dirs, value_at

REFERENCE_SECONDS_PER_PSI = 41.6
"""CPU seconds the sketch-learning paper's reference code spends on one 1,000-match Ψ against GA
of a program that runs (measured: docs/cantstop-paper-budget.md)."""
REFERENCE_SECONDS_PER_FAILED_PSI = 1.9
"""... and on one of a program that fails at its first decision in every match (measured
there too). A Ψ failing in a share of its matches is charged that share at this cost, the
rest at ``REFERENCE_SECONDS_PER_PSI``; C evaluations are not charged."""
FAILURE_COUNT = re.compile(r"^(\d+) of (\d+) matches$")
PAPER_HOURS = 48
PSI_METRICS = ("psi", "psi-fresh")
CHECKPOINTS = (0.1, 0.25, 0.5, 1.0)
"""Shares of the Ψ budget at which the median best Ψ is tabled."""
SA_FAMILY = ("SA", "Sketch-SA(A)", "Sketch-SA(O)")
UCT_FAMILY = ("UCT", "Sketch-UCT(A)", "Sketch-UCT(O)")
CURVE_FILE = "psi-by-evaluations.csv"
FIGURE_FILE = "psi-by-evaluations.png"
TYPED_FIGURE_FILE = "psi-by-evaluations-typed.png"
TYPED_PAPER_RULES_FIGURE_FILE = "psi-by-evaluations-typed-paper-rules.png"
SUMMARY_FILE = "budget-summary.json"


def failure_shares(failures: Path) -> dict[tuple[str, str], float]:
    """(metric, program as ``failures.log`` writes it) -> share of the matches of its
    evaluation that the program forfeited, from the ``k of n matches`` field."""
    shares = {}
    if failures.exists():
        with failures.open() as fh:
            for line in fh:
                fields = line.rstrip("\n").split("\t", 3)
                count = FAILURE_COUNT.match(fields[1]) if len(fields) == 4 else None
                if count:
                    shares[fields[0], fields[3]] = int(count[1]) / int(count[2])
    return shares


def reference_seconds(psi_evaluations: float, failed: float) -> float:
    """CPU seconds the reference code would spend on these Ψ evaluations, ``failed``
    of them (a count, or a sum of forfeited shares) of programs that fail."""
    return (REFERENCE_SECONDS_PER_PSI * (psi_evaluations - failed)
            + REFERENCE_SECONDS_PER_FAILED_PSI * failed)


def condense(run_dir: Path) -> None:
    """Write the run's best-Ψ (or, for a run on C alone, best-C) improvements by
    Ψ evaluation and its counts, from ``log.csv``; kept if there is no log.

    The reference CPU seconds are the charges of a run with a charged budget (the log's
    ``charge`` column), else each Ψ evaluation at the reference code's cost of its
    outcome: a repeated evaluation of a program (answered from Ψ's cache here, with no
    new line in ``failures.log``) is charged as its first was."""
    log = run_dir / "log.csv"
    if not log.exists():
        return
    config = json.loads((run_dir / "config.json").read_text())
    on_c = config.get("fitness") == "c"
    shares = failure_shares(run_dir / "failures.log")
    psi_evals = c_evals = 0
    failed_share, charged = 0.0, None
    best, last_improvement = -math.inf, 0
    improvements = []
    seconds = 0.0
    with log.open(newline="") as fh:
        for row in csv.DictReader(fh):
            seconds = float(row["seconds"])
            metric, value = row["metric"], float(row["value"])
            if row.get("charge"):
                charged = (charged or 0.0) + float(row["charge"])
            if on_c or metric == "c":
                c_evals += 1
            elif metric in PSI_METRICS:
                psi_evals += 1
                failed_share += shares.get((metric, row["program"].replace("\\n", " | ")), 0.0)
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
        "last_improvement_at_evaluation": last_improvement,
        "failed_share_of_psi_evaluations": round(failed_share, 3),
        "reference_cpu_seconds": round(reference_seconds(psi_evals, failed_share)
                                       if charged is None else charged, 1)}) + "\n")


def reference_hours(summary: dict) -> tuple[float, bool]:
    """Reference CPU-hours of a run's evaluations, and whether they are exact: a summary
    condensed before they were recorded gives only an upper bound, from the count of
    ``failures.log`` lines (repeated evaluations of a failing program count as running)."""
    if "reference_cpu_seconds" in summary:
        return summary["reference_cpu_seconds"] / 3600, True
    return reference_seconds(summary["psi_evaluations"],
                             summary["failed_psi_evaluations"]) / 3600, False


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


#: The paper's claims about Fig. 2 as one-sided questions, each group Holm-adjusted on
#: its own: the sketch ordering within each search, and SA's search above UCT's.
PAPER_ORDERING = (
    ("The paper's ordering", (("Sketch-SA(O)", "Sketch-SA(A)"), ("Sketch-SA(A)", "SA"),
                              ("Sketch-SA(O)", "SA"))),
    ("The same ordering for UCT", (("Sketch-UCT(O)", "Sketch-UCT(A)"),
                                   ("Sketch-UCT(A)", "UCT"), ("Sketch-UCT(O)", "UCT"))),
    ("SA above UCT", (("SA", "UCT"), ("Sketch-SA(A)", "Sketch-UCT(A)"),
                      ("Sketch-SA(O)", "Sketch-UCT(O)"))),
)


def seeds_text(runs: list[dict]) -> str:
    seeds = sorted(r["config"]["seed"] for r in runs)
    return ", ".join(map(str, seeds))


def rate_by_seed_lines(methods: dict[str, list[dict]], labels: list[str]) -> list[str]:
    """Each finished run's final rate, a row per seed and a column per method, so a
    reader finds any run's program strength without opening its folder."""
    by_seed: dict[int, dict[str, float]] = {}
    for label in labels:
        for run in methods[label]:
            by_seed.setdefault(run["config"]["seed"], {})[label] = run["rate"]
    lines = ["Final rate of each run's best program, by seed (– : not finished):", "",
             "| seed | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for seed in sorted(by_seed):
        cells = [f"{by_seed[seed][label]:.3f}" if label in by_seed[seed] else "–"
                 for label in labels]
        lines.append(f"| {seed} | " + " | ".join(cells) + " |")
    return lines + [""]


def failed_evaluations(summary: dict) -> tuple[float, bool]:
    """Ψ evaluations of failing programs (a forfeited share counts as that share), and
    whether exact: an older summary gives the count of ``failures.log`` lines, a lower
    bound (a repeated evaluation of a failing program adds no line)."""
    if "failed_share_of_psi_evaluations" in summary:
        return summary["failed_share_of_psi_evaluations"], True
    return summary["failed_psi_evaluations"], False


def hours_cell(runs: list[dict]) -> str:
    """Median [range] of the runs' reference CPU-hours; ≤ where some are upper bounds."""
    hours = [reference_hours(r["summary"]) for r in runs]
    values = [h for h, _ in hours]
    bound = "" if all(exact for _, exact in hours) else "≤ "
    return f"{bound}{np.median(values):.1f} [{min(values):.1f}–{max(values):.1f}]"


def reference_hours_line(runs: list[dict]) -> str:
    """What the runs' Ψ evaluations would have cost the reference code, against 48 h."""
    hours = [reference_hours(r["summary"]) for r in runs]
    exact = [h for h, e in hours if e]
    bounds = [h for h, e in hours if not e]

    def span(values: list[float]) -> str:
        return f"{min(values):.1f}–{max(values):.1f} (median {np.median(values):.1f})"

    parts = []
    if exact:
        parts.append(f"{span(exact)} reference CPU-hours in the {len(exact)} runs whose Ψ "
                     "evaluations' outcomes are recorded")
    if bounds:
        parts.append(f"at most {span(bounds)} in the {len(bounds)} runs condensed before "
                     "they were (upper bounds: a repeated evaluation of a failing program "
                     "counts as a running one)")
    return (f"**Budget in the reference code's CPU time:** at its measured "
            f"{REFERENCE_SECONDS_PER_PSI:.1f} CPU-s per Ψ of a program that runs and "
            f"{REFERENCE_SECONDS_PER_FAILED_PSI:.1f} CPU-s per Ψ of one that fails at its "
            "first decision (C evaluations not charged), each run's Ψ evaluations are "
            + "; ".join(parts) + f"; not the paper's {PAPER_HOURS}.")


def fig2_lines(methods: dict[str, list[dict]], budget: int, matches: int, *,
               title: str = "Fig. 2: best Ψ over Ψ evaluations",
               figure: str = FIGURE_FILE) -> list[str]:
    """The Fig. 2 section: the figure, the table at the checkpoints, the tests."""
    from scipy.stats import mannwhitneyu

    labels = [m for m in SA_FAMILY + UCT_FAMILY if m in methods]
    if not labels:
        return []
    marks = [int(share * budget) for share in CHECKPOINTS]
    lines = [f"## {title}", "",
             f"Budget {budget:,} Ψ evaluations per run "
             f"({budget * REFERENCE_SECONDS_PER_PSI / 3600:.0f} h of the paper's reference code "
             f"if every program ran, at {REFERENCE_SECONDS_PER_PSI:.1f} CPU-s per Ψ; what the "
             "runs' evaluations would have cost it is in the last column and below; the paper "
             f"gives {PAPER_HOURS} h). Median best Ψ "
             "during the search [first–third quartile] after the given number of Ψ "
             f"evaluations; final rate: each run's best program re-measured on {matches:,} "
             "fresh matches, mean ± std and median over seeds.", "",
             f"![best Ψ over Ψ evaluations]({figure})", "",
             "| method | seeds | " + " | ".join(f"Ψ evals {m:,}" for m in marks)
             + " | final rate mean ± std | median | runs ≥ 0.55 | never above 0 | "
             "Ψ evaluations that failed | Ψ evaluations | CPU min/run | "
             "reference CPU-h/run, median [range] |",
             "|---|---|" + "---|" * len(marks) + "---|---|---|---|---|---|---|---|"]
    for label in labels:
        runs = methods[label]
        cells = []
        for m in marks:
            q1, q2, q3 = quartiles([best_at(r, m) for r in runs])
            cells.append(f"{q2:.3f} [{q1:.3f}–{q3:.3f}]")
        rates = np.array([r["rate"] for r in runs])
        failed = [failed_evaluations(r["summary"]) for r in runs]
        at_least = "" if all(exact for _, exact in failed) else "≥ "
        failed = sum(count for count, _ in failed)
        evals = sum(r["summary"]["psi_evaluations"] for r in runs)
        never = sum(1 for r in runs if r["summary"]["best"] <= 0)
        cpu = np.mean([r["summary"]["cpu_seconds"] for r in runs]) / 60
        lines.append(f"| {label} | {len(runs)} | " + " | ".join(cells)
                     + f" | {rates.mean():.3f} ± {rates.std():.3f} | {np.median(rates):.3f} "
                     f"| {int((rates >= 0.55).sum())}/{len(runs)} | {never}/{len(runs)} | "
                     f"{at_least}{failed / max(evals, 1):.0%} | {evals / len(runs):,.0f} | "
                     f"{cpu:.1f} | {hours_cell(runs)} |")
    lines += ["", reference_hours_line([r for label in labels for r in methods[label]]),
              "", "Seeds finished: " + "; ".join(
        f"{label}: {seeds_text(methods[label])}" for label in labels), ""]
    lines += rate_by_seed_lines(methods, labels)
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
        for title, questions in PAPER_ORDERING:
            asked = [(a, b) for a, b in questions if (a, b) in pairs or (b, a) in pairs]
            if not asked:
                continue
            ps = [float(mannwhitneyu(rates[a], rates[b], alternative="greater").pvalue)
                  for a, b in asked]
            lines += ["", f"{title}, one-sided (first greater than second; Holm over "
                      "these questions):", ""]
            for (a, b), p, adj in zip(asked, ps, holm(ps)):
                lines.append(f"- {a} > {b}: medians {np.median(rates[a]):.3f} against "
                             f"{np.median(rates[b]):.3f}, p = {p:.3g}, Holm {adj:.3g}")
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
    from scipy.stats import mannwhitneyu

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

    def ahead(score: str, data: str) -> str:
        """One-sided Mann–Whitney p of Sketch-SA's rates above BC's (the paper's claim)."""
        bc, sk = cells.get((score, data, "BC"), []), cells.get((score, data, "Sketch-SA"), [])
        if len(bc) < 2 or len(sk) < 2:
            return "–"
        p = mannwhitneyu([r["rate"] for r in sk], [r["rate"] for r in bc], alternative="greater")
        return f"{float(p.pvalue):.3g}"

    lines = ["## Table 1: behavioural cloning alone (BC) against Sketch-SA", "",
             "Win rate against GA of each run's returned program (BC: its best-C program; "
             f"Sketch-SA: its best-Ψ program), re-measured on {matches:,} fresh matches, "
             "mean ± std over seeds (seeds in brackets). The paper's numbers are from its "
             "Table 1. Last column: one-sided Mann–Whitney U p of Sketch-SA's rates above "
             "BC's, over seeds.", "",
             "| score | L | BC | Sketch-SA | seed: BC | seed: Sketch-SA | Sketch-SA > BC, p |",
             "|---|---|---|---|---|---|---|"]
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
                     f"{bc} | {sk} | {ahead(score, data)} |")
    bc_runs = [r for (_, _, kind), runs in cells.items() if kind == "BC" for r in runs]
    last = [r["summary"]["last_improvement_at_evaluation"] for r in bc_runs]
    best_c = [r["summary"]["best"] for r in bc_runs]
    budgets = sorted({r["config"].get("evaluations") for r in bc_runs}, key=str)
    of = f"of {budgets[0]:,}" if len(budgets) == 1 and budgets[0] else "of each run's budget"
    lines += ["", f"BC runs: best C {np.median(best_c):.3f} median (range {min(best_c):.3f}–"
              f"{max(best_c):.3f}); the last improvement of best C came at evaluation "
              f"{int(np.median(last)):,} (median; latest {max(last):,}) {of}.", ""]
    return lines


def beside_lines(first: dict[str, list[dict]], second: dict[str, list[dict]], *,
                 heading: str, settings: str, names: tuple[str, str]) -> list[str]:
    """Each method's final rates in two settings side by side, with a two-sided
    Mann–Whitney U test over seeds (not Holm-adjusted: one question a row)."""
    from scipy.stats import mannwhitneyu

    labels = [m for m in SA_FAMILY + UCT_FAMILY if m in first and m in second]
    if not labels:
        return []
    one, two = names
    lines = [f"### {heading}", "",
             "Final rates (each run's best program on fresh matches) of the same method, "
             f"seeds and budget {settings}.", "",
             f"| method | seeds ({one} / {two}) | {one}: median, mean | "
             f"{two}: median, mean | two-sided p |", "|---|---|---|---|---|"]
    for label in labels:
        a = [r["rate"] for r in first[label]]
        b = [r["rate"] for r in second[label]]
        p = float(mannwhitneyu(a, b, alternative="two-sided").pvalue) \
            if len(a) > 1 and len(b) > 1 else math.nan
        lines.append(f"| {label} | {len(a)} / {len(b)} | {np.median(a):.3f}, {np.mean(a):.3f} "
                     f"| {np.median(b):.3f}, {np.mean(b):.3f} | "
                     + ("–" if math.isnan(p) else f"{p:.3g}") + " |")
    return lines + [""]


def report(roots: list[Path], out: Path, budget: int, matches: int, workers: int,
           typed: Path | None = None, typed_paper_rules: Path | None = None) -> Path:
    """Write ``budget-report.md`` and its figures to ``out``. ``typed``: the same Fig. 2
    run in the typed language; ``typed_paper_rules``: that again under the paper's rules
    (each reported beside, never mixed with the paper-mode runs)."""
    methods = finished(roots, matches, workers)
    typed_methods = finished([typed], matches, workers) if typed is not None else {}
    paper_rules_methods = finished([typed_paper_rules], matches, workers) \
        if typed_paper_rules is not None else {}
    extra = [d for d in (typed, typed_paper_rules) if d is not None]
    if not methods and not typed_methods and not paper_rules_methods:
        raise SystemExit(f"no finished runs under {', '.join(str(r) for r in roots + extra)}")
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# The sketch-learning paper's Can't Stop experiments at its budget", "",
             "Paper mode, `rules=reference`, Ψ over 1,000 matches against GA. Made by "
             "`python -m experiments.studies.cantstop_paper_budget "
             + " ".join(str(r) for r in roots)
             + (f" --typed {typed}" if typed is not None else "")
             + (f" --typed-paper-rules {typed_paper_rules}"
                if typed_paper_rules is not None else "") + f" --out {out}`.", ""]
    if any(m in methods for m in SA_FAMILY + UCT_FAMILY):
        draw(methods, budget, out / FIGURE_FILE)
        lines += fig2_lines(methods, budget, matches)
    if any(m in typed_methods for m in SA_FAMILY + UCT_FAMILY):
        draw(typed_methods, budget, out / TYPED_FIGURE_FILE)
        lines += fig2_lines(typed_methods, budget, matches,
                            title="Fig. 2 in the typed language (`dsl = \"sketch\"`), "
                                  "otherwise the same runs", figure=TYPED_FIGURE_FILE)
        lines += beside_lines(methods, typed_methods,
                              heading="The appendix grammar against the typed language",
                              settings="in the two languages", names=("appendix", "typed"))
    if any(m in paper_rules_methods for m in SA_FAMILY + UCT_FAMILY):
        draw(paper_rules_methods, budget, out / TYPED_PAPER_RULES_FIGURE_FILE)
        lines += fig2_lines(paper_rules_methods, budget, matches,
                            title="Fig. 2 in the typed language under the paper's rules "
                                  "(`dsl = \"sketch\"`, `rules=paper`), otherwise the same "
                                  "runs", figure=TYPED_PAPER_RULES_FIGURE_FILE)
        lines += beside_lines(typed_methods, paper_rules_methods,
                              heading="The reference code's rules against the paper's, "
                                      "typed language",
                              settings="in the typed language under the two rule sets "
                                       "(each re-measured under its own rules)",
                              names=("reference rules", "paper rules"))
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
    parser.add_argument("--typed", help="the comparison directory of "
                        "experiments/configs/cantstop_paper_budget_fig2_typed.toml")
    parser.add_argument("--typed-paper-rules", help="the comparison directory of "
                        "experiments/configs/cantstop_paper_budget_fig2_typed_paper_rules.toml")
    args = parser.parse_args(argv)
    print(report([Path(d) for d in args.dirs], Path(args.out), args.budget, args.matches,
                 args.workers, typed=Path(args.typed) if args.typed else None,
                 typed_paper_rules=Path(args.typed_paper_rules)
                 if args.typed_paper_rules else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
