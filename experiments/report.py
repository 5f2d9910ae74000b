"""``stratsynth report DIR``: the sketch-learning paper's Fig. 2-style plot and a Markdown table.

For every method (``DIR/runs/LABEL/seedN``): the best objective value (Ψ, or a user
fitness under its own name) over time, the median and
interquartile band over seeds on a common time grid (the sketch-learning paper's Fig. 2); the
final best program of each seed re-measured on fresh matches (default 10,000,
seeds never used in the search), reported as mean ± std over seeds with a
bootstrap interval over seeds (the spread between runs, ``scipy.stats.bootstrap``)
beside the Wilson interval of all matches pooled, with evaluations, the distinct
programs among them (GP, which revisits programs, counts every visit as an evaluation)
and the best program; a method whose sketch phase got fewer than ``HANDFUL``
evaluations of the cloning score C is named in a warning (its row is then close to a
plain search on the objective). The median curve starts once every seed has a value,
over each seed's own curve. With ``--threshold`` (repeatable), the time each run's
best Ψ first reached it (runs that never did are censored at their budget),
summarised by Kaplan–Meier (``scipy.stats.ecdf``) and compared between methods by
log-rank tests; final win rates are compared by Mann–Whitney U tests over seeds
("n/a (one seed)" where a method has one); p-values are Holm-adjusted over the pairs.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np

from games import load_game
from games.backends import make_map
from games.match import play_matches, wilson_interval
from gp.evaluator import read_log
from gp.metrics import CLONING, PSI
from gp.programs import strategy_class

from .config import default_target
from .loader import read_run_config
from .options import add_workers, positive
from .players import make_player
from .trust import Consent, add_trust_flags, admit_target, consent_of, say_trusted

REMEASURE_SEED = 10_007

HANDFUL = 5
"""Fewer C evaluations than this in a sketch phase and the report warns: the sketch
search barely ran."""


def metric_label(name: str) -> str:
    """How a report names a metric: Ψ for the built-in objective, else its own name."""
    return "Ψ" if name == PSI else name


def load_run(run_dir: Path) -> dict:
    """A run's best-objective curve, evaluations and best program, from its log or its
    summary. The objective is the log's first metric column (``psi`` for Ψ, a user
    fitness's own name).

    The report leaves ``curve.csv`` (the improvements of the best objective value) and
    ``summary.json`` beside each log, so a comparison can be reported again without the
    full logs.
    """
    config = json.loads((run_dir / "config.json").read_text())
    times, best, evals_at, programs = [], [], [], []
    evaluations, seconds, distinct, c_evaluations = 0, 0.0, None, None
    objective = PSI
    log = run_dir / "log.csv"
    if log.exists():
        best_value = -math.inf
        objective = log_objective(log)
        seen, c_evaluations = set(), 0
        for row in read_log(log):
            evaluations, seconds = int(row["evaluations"]), float(row["seconds"])
            seen.add(row["program"])
            c_evaluations += row["metric"] == CLONING
            if row[objective] and float(row[objective]) > best_value:
                best_value = float(row[objective])
                times.append(seconds)
                best.append(best_value)
                evals_at.append(evaluations)
                programs.append(row["program"])
        with (run_dir / "curve.csv").open("w", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(("seconds", "evaluations", f"best_{objective}", "program"))
            writer.writerows(zip(times, evals_at, best, programs))
        distinct = len(seen)
        (run_dir / "summary.json").write_text(json.dumps(
            {"evaluations": evaluations, "seconds": seconds, "distinct": distinct,
             "c_evaluations": c_evaluations}) + "\n")
    elif (run_dir / "curve.csv").exists():
        with (run_dir / "curve.csv").open(newline="") as fh:
            reader = csv.DictReader(fh)
            objective = (reader.fieldnames or ["", "", "best_psi"])[2].removeprefix("best_")
            for row in reader:
                times.append(float(row["seconds"]))
                best.append(float(row[f"best_{objective}"]))
                programs.append(row["program"])
        summary = json.loads((run_dir / "summary.json").read_text())
        evaluations, seconds = summary["evaluations"], summary["seconds"]
        distinct, c_evaluations = summary.get("distinct"), summary.get("c_evaluations")
    return {"config": config, "times": times, "best": best, "evaluations": evaluations,
            "seconds": seconds, "objective": objective, "distinct": distinct,
            "c_evaluations": c_evaluations,
            "best_value": best[-1] if best else -math.inf,
            "program": programs[-1] if programs else None, "dir": run_dir}


def log_objective(log: Path) -> str:
    """The objective's name in a run log: its first metric column (after ``value``)."""
    with log.open(newline="") as fh:
        header = next(csv.reader(fh), None)
    if not header or len(header) < 5 or header[3] != "value":
        raise ValueError(f"{log}: not a run log (no seconds, evaluations, metric, value, "
                         "objective columns)")
    return header[4]


def has_sketch_phase(run: dict) -> bool:
    """Whether the run's method searches on C before its objective (a sketch method)."""
    from .config import SynthesisConfig
    from .loader import load

    try:
        config = load(SynthesisConfig, run["config"], str(run["dir"] / "config.json"),
                      saved=True)
    except ValueError:
        return False
    return config.fitness != CLONING and \
        CLONING in config.synthesizer().metrics(config.settings)


def curve(run: dict, grid: np.ndarray) -> np.ndarray:
    """Best objective value found by each grid time (NaN before the first one)."""
    out = np.full(len(grid), np.nan)
    times, best = run["times"], run["best"]
    for i, t in enumerate(grid):
        k = np.searchsorted(times, t, side="right") - 1
        if k >= 0:
            out[i] = best[k]
    return out


def quartiles(curves: np.ndarray) -> np.ndarray:
    """First quartile, median and third quartile over seeds (rows) at each grid time, from
    the time every seed has a value (NaN before): before it, they would be those of the
    seeds that started first, and could fall when a slower seed starts."""
    return np.percentile(curves, [25, 50, 75], axis=0)


def run_setting(config: dict, located_target: str | None = None) -> tuple:
    """A run's game, program class, target spec and target player, from its config;
    ``located_target``: the target as ``admitted_target`` found its files."""
    game = load_game(config["game"], **(config.get("game_params") or {}))
    target_spec = default_target(config["game"], config.get("target"))
    return (game, strategy_class(config["game"], config.get("dsl")), target_spec,
            make_player(config["game"], located_target or target_spec))


def admitted_target(config: dict, run_dir: Path, consent: Consent | None,
                    root: Path | None = None) -> str | None:
    """A saved run's target, its files found in the run directory (or under ``root``, the
    comparison it belongs to); one reading files elsewhere is refused unless the user
    named it (``--target``) or trusts the config (``experiments.trust``)."""
    consent = consent or Consent()
    target = config.get("target")
    if root is not None and consent.target not in (None, target):
        consent = Consent(trust_config=consent.trust_config)  # named for another run
    where = str(run_dir / "config.json")
    located, trusted = admit_target(target, root or run_dir, consent, where,
                                    *([run_dir] if root else []))
    say_trusted(where, trusted)
    return located


def remeasure(run: dict, matches: int, workers: int) -> tuple[int, int]:
    """Wins of the run's best program in ``matches`` fresh matches against its target.

    Kept in ``remeasured.json`` beside the run, keyed by program, matches and seed,
    so reporting a comparison that grows run by run replays only the new runs."""
    config = run["config"]
    seed = REMEASURE_SEED + int(config["seed"])
    key = {"program": run["program"], "matches": matches, "seed": seed}
    cache = run["dir"] / "remeasured.json"
    if cache.exists():
        kept = json.loads(cache.read_text())
        if {k: kept.get(k) for k in key} == key:
            return kept["wins"], kept["matches"]
    game, cls, _, target = run_setting(config, run.get("target"))
    player = cls(run["program"])
    with make_map(workers) as backend:
        summary = play_matches(game, (player, target), matches, seed, map=backend,
                               engine=config.get("engine") or "fast")  # same results
    cache.write_text(json.dumps({**key, "wins": summary.wins[0]}) + "\n")
    return summary.wins[0], summary.matches


def _shown(run: dict) -> str:
    """A run's best program as a person should read it (simplified, same behaviour)."""
    from gp.simplify import simplified_text

    config = run["config"]
    return simplified_text(strategy_class(config["game"], config.get("dsl")).default_dsl(),
                           run["program"])


def seed_interval(rates: np.ndarray, confidence: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean over seeds; None for a single seed."""
    if len(rates) < 2:
        return None
    if np.ptp(rates) == 0:
        return float(rates.mean()), float(rates.mean())
    from scipy.stats import bootstrap

    result = bootstrap((rates,), np.mean, confidence_level=confidence, n_resamples=9999,
                       random_state=np.random.default_rng(0), method="percentile")
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def time_to_threshold(run: dict, threshold: float) -> tuple[float, bool]:
    """When the run's best objective value first reached ``threshold``, or its last logged time
    (censored) if it never did."""
    for t, value in zip(run["times"], run["best"]):
        if value >= threshold:
            return t, True
    return run["seconds"], False


def _censored(times: list[tuple[float, bool]]):
    from scipy.stats import CensoredData

    return CensoredData(uncensored=[t for t, hit in times if hit],
                        right=[t for t, hit in times if not hit])


def km_median(times: list[tuple[float, bool]]) -> float | None:
    """Kaplan–Meier median time to the threshold; None if fewer than half reach it."""
    if not any(hit for _, hit in times):
        return None
    from scipy.stats import ecdf

    sf = ecdf(_censored(times)).sf
    below = np.flatnonzero(sf.probabilities <= 0.5)
    return float(sf.quantiles[below[0]]) if len(below) else None


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment (family-wise error over the pairs compared)."""
    order = np.argsort(pvalues)
    adjusted, running = [0.0] * len(pvalues), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def pairwise_tests(labels: list[str], rates: dict[str, np.ndarray],
                   times: dict[float, dict[str, list[tuple[float, bool]]]],
                   label: str = "Ψ") -> list[str]:
    """Markdown rows: for each pair of methods, Mann–Whitney U on the re-measured final
    win rates over seeds and, per threshold, the log-rank test on the time to reach it."""
    from itertools import combinations

    from scipy.stats import logrank, mannwhitneyu

    pairs = list(combinations(labels, 2))
    if not pairs:
        return []
    testable = [min(len(rates[a]), len(rates[b])) >= 2 for a, b in pairs]
    columns = {"final win rate: Mann–Whitney p (Holm)": [
        float(mannwhitneyu(rates[a], rates[b], alternative="two-sided").pvalue)
        if ok else math.nan for (a, b), ok in zip(pairs, testable)]}
    for threshold, by_label in times.items():
        column = []
        for (a, b), ok in zip(pairs, testable):
            if not ok:
                column.append(math.nan)
            elif any(hit for _, hit in by_label[a] + by_label[b]):
                with np.errstate(invalid="ignore"):
                    p = float(logrank(_censored(by_label[a]), _censored(by_label[b])).pvalue)
                column.append(1.0 if math.isnan(p) else p)  # NaN: identical times
            else:
                column.append(1.0)  # no run of either reached it: nothing to tell apart
        columns[f"time to {label} ≥ {threshold}: log-rank p (Holm)"] = column
    adjusted = {name: _holm_where_tested(values) for name, values in columns.items()}
    rows = ["| pair | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for k, (a, b) in enumerate(pairs):
        rows.append(f"| {a} vs {b} | " + " | ".join(
            "n/a (one seed)" if math.isnan(columns[name][k]) else
            f"{columns[name][k]:.3g} ({adjusted[name][k]:.3g})" for name in columns) + " |")
    return rows


def _holm_where_tested(pvalues: list[float]) -> list[float]:
    """Holm over the pairs that were tested (NaN: not tested, left out of the family)."""
    tested = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    out = [math.nan] * len(pvalues)
    for i, p in zip(tested, holm([pvalues[i] for i in tested]) if tested else []):
        out[i] = p
    return out


def build_report(root: Path, matches: int = 10_000, workers: int = 0,
                 thresholds: tuple[float, ...] = (), consent: Consent | None = None) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    methods: dict[str, list[dict]] = {}
    finished = [d for d in sorted((root / "runs").glob("*/seed*/")) if (d / "done").exists()]
    # every target is admitted before anything is measured or written
    targets = {d: admitted_target(read_run_config(d), d, consent, root) for d in finished}
    for run_dir in finished:
        run = load_run(run_dir)
        if run["program"] is None:
            continue
        run["target"] = targets[run_dir]
        methods.setdefault(run["config"].get("label") or run["config"]["method"], []).append(run)
    if not methods:
        raise ValueError(f"{root}: no finished runs under {root / 'runs'}")
    horizon = max(r["seconds"] for runs in methods.values() for r in runs)
    budget_s = [r["config"].get("budget") or f"{r['config'].get('evaluations')} evaluations"
                for runs in methods.values() for r in runs]
    grid = np.linspace(0, horizon, 200)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    rows = []
    all_rates: dict[str, np.ndarray] = {}
    all_times: dict[float, dict[str, list[tuple[float, bool]]]] = {t: {} for t in thresholds}
    for label, runs in methods.items():
        curves = np.array([curve(r, grid) for r in runs])
        low, median, high = quartiles(curves)
        (line,) = ax.plot(grid / 60, median, label=label)
        ax.fill_between(grid / 60, low, high, alpha=0.2, color=line.get_color())
        if len(runs) > 1:
            for seed_curve in curves:
                ax.plot(grid / 60, seed_curve, color=line.get_color(), alpha=0.35,
                        linewidth=0.6)
        measured = [remeasure(r, matches, workers) for r in runs]
        rates = np.array([w / n for w, n in measured])
        all_rates[label] = rates
        for threshold in thresholds:
            all_times[threshold][label] = [time_to_threshold(r, threshold) for r in runs]
        wins, total = sum(w for w, _ in measured), sum(n for _, n in measured)
        lo, hi = wilson_interval(wins, total)
        best_run = max(zip(rates, runs), key=lambda x: x[0])
        distinct = [r["distinct"] for r in runs]
        rows.append((label, len(runs), rates.mean(), rates.std(), seed_interval(rates), lo, hi,
                     np.mean([r["evaluations"] for r in runs]),
                     None if None in distinct else float(np.mean(distinct)),
                     np.mean([r["best_value"] for r in runs]), best_run[0], best_run[1]))
    objectives = sorted({r["objective"] for runs in methods.values() for r in runs})
    shown = "/".join(metric_label(name) for name in objectives)
    first = next(iter(methods.values()))[0]["config"]
    target = default_target(first["game"], first.get("target"))
    clocks = {r["config"].get("clock") or "wall" for runs in methods.values() for r in runs}
    unit = "CPU minutes" if clocks == {"cpu"} else "minutes"
    ax.set_xlabel(f"time ({unit})")
    for threshold in thresholds:
        ax.axhline(threshold, color="grey", linestyle=":", linewidth=1)
    if objectives == [PSI]:
        ax.set_ylabel(f"win rate against {target} (best so far;\nmedian, quartiles)")
        ax.set_ylim(0, 1)
    else:
        ax.set_ylabel(f"{shown} (best so far;\nmedian, quartiles)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    png = root / "winrate.png"
    fig.savefig(png, dpi=120)
    plt.close(fig)
    lines = [
        f"# Synthesis against {target}",
        "",
        f"Budget per run: {', '.join(sorted({str(b) for b in budget_s}))}. Final win rate: "
        f"each seed's best program re-measured on {matches:,} fresh matches "
        "(seat-alternating, seeds not used in the search); mean ± std over seeds, the "
        "95% bootstrap interval of that mean over seeds (the spread between runs), and the "
        "95% Wilson interval of all those matches pooled (the noise of the re-measurement).",
        "",
        "| method | seeds | final win rate (re-measured) | 95% CI over seeds | "
        f"pooled 95% CI | {shown} during search | evaluations | distinct programs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, n, mean, std, spread, lo, hi, evals, distinct, psi, _, _ in rows:
        over_seeds = "—" if spread is None else f"{spread[0]:.3f}–{spread[1]:.3f}"
        rate = f"{mean:.3f} (one seed)" if n == 1 else f"{mean:.3f} ± {std:.3f}"
        lines.append(f"| {label} | {n} | {rate} | {over_seeds} | "
                     f"{lo:.3f}–{hi:.3f} | {psi:.3f} | {evals:.0f} | "
                     f"{'—' if distinct is None else f'{distinct:.0f}'} |")
    lines += _sketch_warnings(methods)
    lines += ["", f"![win rate over time](winrate.png) (best {shown} found so far, over {unit}: "
              "median of the seeds, from the time every seed has a value, the band between "
              "the first and third quartiles, and each seed's own curve, thin)"]
    for threshold, by_label in all_times.items():
        lines += ["", f"## Time to reach {shown} ≥ {threshold}", "",
                  f"The first time (in {unit}) each run's best {shown} during the search reached "
                  f"{threshold}; runs that never did are censored at the end of their budget. "
                  "Median by Kaplan–Meier.", "",
                  "| method | reached | median time | times of the runs that reached it |",
                  "|---|---|---|---|"]
        for label, times in by_label.items():
            med = km_median(times)
            hits = sorted(t / 60 for t, hit in times if hit)
            lines.append(f"| {label} | {sum(1 for _, h in times if h)}/{len(times)} | "
                         f"{'not reached by half' if med is None else f'{med / 60:.2f}'} | "
                         f"{', '.join(f'{t:.2f}' for t in hits) or '—'} |")
    tests = pairwise_tests(list(all_rates), all_rates, all_times, shown)
    if tests:
        lines += ["", "## Differences between methods", "",
                  "Two-sided tests over seeds; Holm-adjusted p-values in brackets.", ""] + tests
    lines += ["", "## Best program of each method", ""]
    for label, *_, best_rate, best_run in rows:
        lines += [f"**{label}** (seed {best_run['config']['seed']}, re-measured "
                  f"{best_rate:.3f}):", "", "```", _shown(best_run), "```", ""]
    md = root / "report.md"
    md.write_text("\n".join(lines))
    return md


def _sketch_warnings(methods: dict[str, list[dict]]) -> list[str]:
    """A warning for each method whose sketch phase barely ran in some seed."""
    lines = []
    for label, runs in methods.items():
        short = [(r["config"]["seed"], r["c_evaluations"]) for r in runs
                 if r["c_evaluations"] is not None and r["c_evaluations"] < HANDFUL
                 and has_sketch_phase(r)]
        if short:
            seeds = ", ".join(f"seed {seed}: {n}" for seed, n in short)
            lines += ["", f"**Warning:** the sketch phase of {label} evaluated the cloning "
                      f"score C fewer than {HANDFUL} times ({seeds}): its sketch search barely "
                      "ran, so its row is close to a plain search on the objective. Give it "
                      "a larger budget or a larger sketch_share."]
    return lines


def cmd_report(args) -> int:
    md = build_report(Path(args.dir), args.matches, args.workers, tuple(args.threshold or ()),
                      consent_of(args))
    print(md.read_text())
    return 0


def add_parsers(sub) -> None:
    report = sub.add_parser("report", help="plot and table of a comparison directory")
    report.add_argument("dir")
    report.add_argument("--matches", type=positive, default=10_000,
                        help="fresh matches to re-measure each best program")
    report.add_argument("--threshold", type=float, action="append", default=None,
                        help="also report the time each run took to reach this Ψ "
                        "(censored if never) and log-rank tests between methods "
                        "(repeatable)")
    add_workers(report)
    add_trust_flags(report, "a run's")
    report.set_defaults(handler=cmd_report)
