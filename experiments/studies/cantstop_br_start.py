"""The sketch-learning paper's Fig. 5 for Can't Stop: Sketch-UCT's best-response tree
started from the complete best program or from an incomplete one (``br_start``).

Reads the comparison of ``experiments/configs/cantstop_br_start_fig5.toml`` (runs under
``DIR/runs/LABEL/seedN``, only finished ones) and writes to ``--out``:

* ``psi-by-evaluations.png``: best Ψ against GA over Ψ evaluations (1,000 matches each;
  the cloning score's evaluations are not counted), median and quartile band per start;
* ``report.md``: the median best Ψ at shares of the Ψ evaluations, the Ψ evaluations
  each run took to first reach its final best, a Mann–Whitney U test of the final best
  Ψ between the starts and, since both starts share each seed's sketch search, a
  Wilcoxon signed-rank test over seeds.

Each run's log is condensed as in ``experiments.studies.cantstop_paper_budget``, plus
``br-start.json`` (a digest of its evaluations, which tells runs whose two starts were
the same branch), so the report can be made again without the logs.

    python -m experiments.studies.cantstop_br_start \\
        experiments/results/cantstop-br-start/fig5 --out experiments/results/cantstop-br-start
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import warnings
from pathlib import Path

import numpy as np

from experiments.studies.cantstop_paper_budget import (
    CURVE_FILE,
    SUMMARY_FILE,
    best_at,
    condense,
    quartiles,
)

STARTS = ("complete", "incomplete")
DIGEST_FILE = "br-start.json"
SHARES = (0.25, 0.5, 0.75, 1.0)


def digest(run_dir: Path) -> None:
    """Write a digest of the run's evaluations (metric, value, program; not times)."""
    log = run_dir / "log.csv"
    if not log.exists():
        return
    sha = hashlib.sha256()
    with log.open(newline="") as fh:
        for row in csv.DictReader(fh):
            sha.update(f"{row['metric']}\t{row['value']}\t{row['program']}\n".encode())
    (run_dir / DIGEST_FILE).write_text(json.dumps({"log_digest": sha.hexdigest()}) + "\n")


def load(run_dir: Path) -> dict:
    condense(run_dir)
    digest(run_dir)
    config = json.loads((run_dir / "config.json").read_text())
    with (run_dir / CURVE_FILE).open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    curve = [(int(r["psi_evaluations"]), float(r["best"])) for r in rows]
    sketch_end = int(config["sketch_share"] * config["evaluations"])
    return {"config": config, "curve": curve,
            "improved_in_br": any(int(r["evaluations"]) > sketch_end for r in rows),
            "summary": json.loads((run_dir / SUMMARY_FILE).read_text()),
            "digest": json.loads((run_dir / DIGEST_FILE).read_text())["log_digest"]}


def finished(root: Path) -> dict[str, dict[int, dict]]:
    """Finished runs by start and seed."""
    runs: dict[str, dict[int, dict]] = {}
    for run_dir in sorted((root / "runs").glob("*/seed*/")):
        if (run_dir / "done").exists():
            run = load(run_dir)
            runs.setdefault(run["config"]["label"], {})[run["config"]["seed"]] = run
    return runs


def draw(runs: dict[str, dict[int, dict]], budget: int, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.linspace(1, budget, 300)
    fig, ax = plt.subplots(figsize=(5.6, 4.0))
    for k, label in enumerate(s for s in STARTS if s in runs):
        curves = np.array([[best_at(r, g) for g in grid] for r in runs[label].values()])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low, median, high = np.nanpercentile(curves, [25, 50, 75], axis=0)
        ax.plot(grid, median, color=f"C{k}", label=f"{label} ({len(runs[label])})")
        ax.fill_between(grid, low, high, color=f"C{k}", alpha=0.2)
    ax.set_title("Sketch-UCT(A): best-response tree started from")
    ax.set_xlabel("Ψ evaluations (1,000 matches against GA each)")
    ax.set_ylabel("best Ψ against GA so far\n(median, quartiles over seeds)")
    ax.set_xlim(0, budget)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, title="start (seeds)", title_fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def first_reached(run: dict) -> int:
    """Ψ evaluations until the run first reached its final best."""
    return run["curve"][-1][0] if run["curve"] else 0


def config_file(root: Path) -> str:
    """The shipped config whose runs are under ``root`` (its ``out``), for the report's
    command; a placeholder when none is."""
    import tomllib

    configs = Path(__file__).resolve().parents[1] / "configs"
    for path in sorted(configs.glob("*.toml")):
        out = tomllib.loads(path.read_text()).get("experiment", {}).get("out")
        if out and (configs.parents[1] / out).resolve() == root.resolve():
            return f"experiments/configs/{path.name}"
    return "CONFIG.toml"


def report(root: Path, out: Path, command: str) -> Path:
    from scipy.stats import mannwhitneyu, wilcoxon

    runs = finished(root)
    if not runs:
        raise SystemExit(f"no finished runs under {root}")
    out.mkdir(parents=True, exist_ok=True)
    labels = [s for s in STARTS if s in runs]
    budget = max(r["summary"]["psi_evaluations"] for by in runs.values() for r in by.values())
    draw(runs, budget, out / "psi-by-evaluations.png")
    config = next(iter(runs[labels[0]].values()))["config"]
    marks = [int(share * budget) for share in SHARES]
    lines = ["# Sketch-UCT's best-response tree: complete or incomplete start (Fig. 5)", "",
             f"Can't Stop, paper mode, `rules=reference`, Ψ over {config['matches']:,} "
             f"matches against GA, Sketch-UCT(A) with `sketch_share = {config['sketch_share']}` "
             f"of {config['evaluations']:,} evaluations (the sketch search on C, then UCT on "
             "Ψ). Runs made by", "",
             f"    nice -n 10 stratsynth run {config_file(root)} --jobs 1", "",
             f"and this report by `{command}`.", "",
             "![best Ψ over Ψ evaluations](psi-by-evaluations.png)", "",
             "Median best Ψ during the search [first–third quartile] after the given number "
             "of Ψ evaluations (the Ψ the sketch search measured whenever C improved "
             "included; those are the same for both starts of a seed).", "",
             "| start | seeds | " + " | ".join(f"Ψ evals {m:,}" for m in marks)
             + " | final best Ψ mean ± std | Ψ evals to reach it (median) | Ψ evals/run "
             "| CPU min/run |",
             "|---|---|" + "---|" * len(marks) + "---|---|---|---|"]
    for label in labels:
        by = list(runs[label].values())
        cells = []
        for m in marks:
            q1, q2, q3 = quartiles([best_at(r, m) for r in by])
            cells.append(f"{q2:.3f} [{q1:.3f}–{q3:.3f}]")
        final = np.array([r["summary"]["best"] for r in by])
        reach = int(np.median([first_reached(r) for r in by]))
        evals = np.mean([r["summary"]["psi_evaluations"] for r in by])
        cpu = np.mean([r["summary"]["cpu_seconds"] for r in by]) / 60
        lines.append(f"| {label} | {len(by)} | " + " | ".join(cells)
                     + f" | {final.mean():.3f} ± {final.std():.3f} | {reach:,} | "
                     f"{evals:,.0f} | {cpu:.1f} |")
    improved = {label: sum(r["improved_in_br"] for r in runs[label].values())
                for label in labels}
    lines += ["", "Runs whose best Ψ rose in the best-response search (after the sketch "
              "search's share): " + ", ".join(
                  f"{label} {improved[label]} of {len(runs[label])}" for label in labels)
              + ".", "",
              "Per seed (final best Ψ; Ψ evaluations until it was first reached). *Same "
              "evaluations*: both starts made exactly the same evaluations, because the "
              "sketch node was complete (the same branch inserted) or because the "
              "best-response search never went down the inserted branch to where the "
              "two differ.", "",
              "| seed | " + " | ".join(labels) + " | same evaluations |",
              "|---|" + "---|" * len(labels) + "---|"]
    seeds = sorted(set.intersection(*(set(runs[label]) for label in labels)))
    for seed in seeds:
        pair = [runs[label][seed] for label in labels]
        same = "yes" if len({r["digest"] for r in pair}) == 1 else "no"
        lines.append(f"| {seed} | " + " | ".join(
            f"{r['summary']['best']:.3f} ({first_reached(r):,})" for r in pair)
            + f" | {same} |")
    if len(labels) == 2 and len(seeds) > 1:
        a, b = ([runs[label][s]["summary"]["best"] for s in seeds] for label in labels)
        two = float(mannwhitneyu(a, b, alternative="two-sided").pvalue)
        one = float(mannwhitneyu(a, b, alternative="greater").pvalue)
        lines += ["", "### Tests of the final best Ψ", "",
                  f"- Mann–Whitney U, {labels[0]} vs {labels[1]} ({len(a)} / {len(b)} seeds): "
                  f"two-sided p = {two:.3g}; one-sided ({labels[0]} greater) p = {one:.3g}",
                  f"- medians {np.median(a):.3f} ({labels[0]}) against {np.median(b):.3f} "
                  f"({labels[1]})"]
        if any(x != y for x, y in zip(a, b)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                paired = float(wilcoxon(a, b).pvalue)
            lines.append(f"- Wilcoxon signed-rank over seeds (paired: both starts share the "
                         f"seed's sketch search): two-sided p = {paired:.3g}")
        else:
            lines.append("- every seed ended at the same best Ψ under both starts")
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="comparison directory of stratsynth run")
    parser.add_argument("--out", required=True, help="folder for report.md and the figure")
    args = parser.parse_args(argv)
    command = ("python -m experiments.studies.cantstop_br_start "
               f"{args.dir} --out {args.out}")
    print(report(Path(args.dir), Path(args.out), command))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
