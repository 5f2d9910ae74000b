"""microRTS synthesis against COAC from random programs: where each run stands and stalls.

Reads the runs of a comparison (``stratsynth run``, e.g.
``experiments/configs/microrts_from_scratch_16x16.toml``; ``DIR/runs/LABEL/seedN``,
finished runs only) and writes ``from-scratch-report.md`` and ``best-psi-over-time.png``
beside them: per method, best Ψ over the search (median and quartiles over seeds), how
many runs ever scored above 0 or reached 1, when Ψ first left 0, the share of Ψ
evaluations at 0 (the plateau), and the best C_O the runs reached; the figure shows
best Ψ over CPU time and over Ψ evaluations, as a neighbourhood that costs more per
evaluation may still need fewer of them. With ``--fitness
psi+c`` the logged Ψ carries C as a tie-break below Ψ's step; it is split back into the
two here (``split_tie_break``). Each run's log is condensed to ``from-scratch-run.json``
beside it, from which the report can be made again without the (uncommitted) logs.

    python -m experiments.studies.microrts_from_scratch \\
        experiments/results/microrts-coac/from-scratch-16x16
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import warnings
from pathlib import Path

import numpy as np

from experiments.studies.runs import finished_run_dirs, value_at

DEFAULT_MATCHES = 2
"""microRTS's Ψ matches when a run's config leaves ``matches`` unset."""
REPORT_FILE = "from-scratch-report.md"
SUMMARY_FILE = "from-scratch-run.json"
"""Per run: its log condensed (best-Ψ improvements, facts, best C, counts)."""
FIGURE_FILE = "best-psi-over-time.png"
PAPER_SECONDS = 2 * 24 * 3600
"""The sketch-learning paper's budget per microRTS run: 2 days."""


def resolution(config: dict) -> float:
    """Ψ's step: wins score 1, draws and caps ½, over the run's matches."""
    return 0.5 / (config.get("matches") or DEFAULT_MATCHES)


def split_tie_break(value: float, step: float) -> tuple[float, float]:
    """(Ψ, C) from ``Ψ + C·step / (1 + step)`` (``gp.fitness.WithTieBreak``): Ψ is a
    multiple of ``step`` and the tie-break stays below one step."""
    psi = math.floor(value / step + 1e-9) * step
    return psi, (value - psi) * (1 + step) / step


def _facts(points: list[tuple[float, float]]) -> dict:
    """Best Ψ, the first Ψ evaluation (1-based) above 0 and its CPU seconds (None if
    never), the share of Ψ evaluations at 0."""
    values = [psi for _, psi in points]
    first = next((i for i, psi in enumerate(values) if psi > 0), None)
    return {"best": max(values) if values else math.nan,
            "first_above_0": None if first is None else first + 1,
            "first_above_0_seconds": None if first is None else points[first][0],
            "at_0": sum(1 for psi in values if psi == 0) / len(values) if values else math.nan,
            "psi_evaluations": len(values)}


def _improvements(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The (x, Ψ) points, x CPU seconds or Ψ evaluations, where the best Ψ so far rose."""
    best, out = -math.inf, []
    for x, psi in points:
        if psi > best:
            best = psi
            out.append((x, psi))
    return out


def read_run(run_dir: Path) -> dict:
    """One run's best-Ψ improvements over CPU time, its facts (``run_facts``), best C and
    counts. Read from ``log.csv`` and condensed into ``SUMMARY_FILE`` beside it (full logs
    are not committed); without a log, read from that file."""
    config = json.loads((run_dir / "config.json").read_text())
    log = run_dir / "log.csv"
    if not log.exists():
        summary = json.loads((run_dir / SUMMARY_FILE).read_text())
        for key in ("improvements", "improvements_by_evaluation"):
            summary[key] = [tuple(point) for point in summary[key]]
        return {"label": config["label"], "seed": config["seed"], "config": config, **summary}
    tie_break = config.get("fitness") == "psi+c"
    step = resolution(config)
    points: list[tuple[float, float]] = []
    best_c = -math.inf
    evaluations, seconds = 0, 0.0
    with log.open(newline="") as fh:
        for row in csv.DictReader(fh):
            evaluations += 1
            seconds = float(row["seconds"])
            value = float(row["value"])
            if row["metric"] == "c":
                best_c = max(best_c, value)
            elif row["metric"] == "psi":
                if tie_break:
                    value, c = split_tie_break(value, step)
                    best_c = max(best_c, c)
                points.append((seconds, value))
    by_evaluation = [(k, psi) for k, (_, psi) in enumerate(points, start=1)]
    summary = {"improvements": _improvements(points),
               "improvements_by_evaluation": _improvements(by_evaluation),
               "facts": _facts(points),
               "best_c": best_c if best_c > -math.inf else None,
               "evaluations": evaluations, "seconds": seconds}
    (run_dir / SUMMARY_FILE).write_text(json.dumps(summary) + "\n")
    return {"label": config["label"], "seed": config["seed"], "config": config, **summary}


def finished_runs(root: Path) -> dict[str, list[dict]]:
    """Finished runs (a ``done`` file) by method label, in seed order."""
    methods: dict[str, list[dict]] = {}
    for run_dir in finished_run_dirs(root):
        run = read_run(run_dir)
        methods.setdefault(run["label"], []).append(run)
    return methods


def best_by(run: dict, seconds: float) -> float:
    """Best Ψ among the evaluations logged by ``seconds`` (NaN before the first)."""
    return value_at(run["improvements"], seconds)


def best_after(run: dict, psi_evaluations: int) -> float:
    """Best Ψ among the run's first ``psi_evaluations`` Ψ evaluations (NaN before the
    first; the last value after the run's end)."""
    return value_at(run["improvements_by_evaluation"], psi_evaluations)


def run_facts(run: dict) -> dict:
    """Best Ψ, the first Ψ evaluation (1-based) above 0 and its CPU seconds (None if
    never), the share of Ψ evaluations at 0."""
    return run["facts"]


def _quartiles(values) -> str:
    values = [v for v in values if v is not None and not math.isnan(v)]
    if not values:
        return "—"
    q1, q2, q3 = np.percentile(values, [25, 50, 75])
    return f"{q2:.3f} [{q1:.3f}–{q3:.3f}]"


def table_lines(methods: dict[str, list[dict]]) -> list[str]:
    lines = ["| method | seeds | best Ψ, median [quartiles] | runs with Ψ > 0 | runs at Ψ = 1 "
             "| first Ψ > 0 at evaluation (median; runs) | Ψ evaluations at 0 | best C_O, "
             "median [quartiles] | Ψ evaluations per run | CPU min per run |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, runs in methods.items():
        facts = [run_facts(r) for r in runs]
        firsts = [f["first_above_0"] for f in facts if f["first_above_0"] is not None]
        first = f"{int(np.median(firsts))} ({len(firsts)})" if firsts else "never"
        at_0 = np.mean([f["at_0"] for f in facts])
        best_c = [r["best_c"] for r in runs if r["best_c"] is not None]
        lines.append(
            f"| {label} | {len(runs)} | {_quartiles([f['best'] for f in facts])} | "
            f"{sum(1 for f in facts if f['best'] > 0)}/{len(runs)} | "
            f"{sum(1 for f in facts if f['best'] >= 1)}/{len(runs)} | {first} | {at_0:.0%} | "
            f"{_quartiles(best_c) if best_c else 'not scored'} | "
            f"{np.mean([f['psi_evaluations'] for f in facts]):,.0f} | "
            f"{np.mean([r['seconds'] for r in runs]) / 60:.1f} |")
    return lines


def _draw_panel(ax, methods: dict[str, list[dict]], curve, end: float, scale: float,
                xlabel: str) -> None:
    """Median and quartile band over seeds of ``curve(run, x)`` for x up to ``end``."""
    grid = np.linspace(0, end, 200)
    for k, (label, runs) in enumerate(methods.items()):
        curves = np.array([[curve(r, g) for g in grid] for r in runs])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low, median, high = np.nanpercentile(curves, [25, 50, 75], axis=0)
        ax.plot(grid / scale, median, color=f"C{k}", label=f"{label} ({len(runs)})")
        ax.fill_between(grid / scale, low, high, color=f"C{k}", alpha=0.2)
    ax.set_xlabel(xlabel)
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)


def draw(methods: dict[str, list[dict]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [r for group in methods.values() for r in group]
    fig, (by_time, by_count) = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    _draw_panel(by_time, methods, best_by, max(r["seconds"] for r in runs), 60,
                "CPU minutes")
    _draw_panel(by_count, methods, best_after,
                max(r["facts"]["psi_evaluations"] for r in runs), 1, "Ψ evaluations")
    by_time.set_ylabel("best Ψ against the target so far\n(median, quartiles over seeds)")
    by_count.legend(fontsize=8, title="method (seeds)", title_fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def runs_line(methods: dict[str, list[dict]]) -> str:
    """What was run, from the runs' own ``config.json``: seeds per method, budget, clock,
    map, target (each run's file has the rest)."""
    configs = [run["config"] for runs in methods.values() for run in runs]
    seeds = sorted({c["seed"] for c in configs})
    budgets = sorted({f"{c.get('budget') or c.get('evaluations')} ({c.get('clock', 'wall')} "
                      "clock)" for c in configs})
    return (f"Runs: {len(configs)} — seeds {', '.join(map(str, seeds))} of "
            f"{', '.join(sorted(methods))}; budget {' / '.join(budgets)} per run; map "
            f"{configs[0]['game_params'].get('map', '?')}, target {configs[0]['target']}. "
            "Each run's settings are in its `config.json` under `runs/`.")


def report(root: Path) -> Path:
    methods = finished_runs(root)
    if not methods:
        raise SystemExit(f"no finished runs under {root}/runs")
    first = next(iter(methods.values()))[0]["config"]
    budget = max(r["seconds"] for runs in methods.values() for r in runs)
    lines = [f"# microRTS from random programs against {first['target']}: "
             f"{first['game_params'].get('map', '?')}", "", runs_line(methods), "",
             f"Made by `python -m experiments.studies.microrts_from_scratch {root}`. "
             f"Longest run: {budget / 60:.1f} CPU minutes, "
             f"{budget / PAPER_SECONDS:.3%} of the paper's 2 days per run. Ψ is the score "
             "over the run's matches against the target (win 1, draw or cap ½); runs with "
             "`psi+c` log Ψ with C_O as tie-break, split back here.", "",
             f"![best Ψ over CPU time and over Ψ evaluations]({FIGURE_FILE})", "",
             *table_lines(methods), ""]
    draw(methods, root / FIGURE_FILE)
    path = root / REPORT_FILE
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="comparison directory of stratsynth run")
    args = parser.parse_args(argv)
    print(report(Path(args.dir)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
