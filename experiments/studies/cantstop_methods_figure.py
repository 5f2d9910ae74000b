"""The sketch-learning paper's Fig. 2 for two comparisons side by side: our typed language and
paper mode.

Each panel is one comparison directory of ``stratsynth run`` (runs under
``DIR/runs/LABEL/seedN``): best Ψ found so far against time, the median of the
seeds and the band between the first and third quartiles, as ``stratsynth
report`` draws it, on one shared time axis and one y scale, so the two modes read
against each other.

    python -m experiments.studies.cantstop_methods_figure \\
        experiments/results/cantstop-methods-typed experiments/results/cantstop-methods-paper \\
        --titles "typed language (default)" "paper mode" \\
        --out experiments/results/cantstop-methods-typed-vs-paper.png
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np

from experiments.report import curve, load_run


def finished_runs(root: Path) -> dict[str, list[dict]]:
    """Finished runs of a comparison by method label."""
    methods: dict[str, list[dict]] = {}
    for run_dir in sorted((root / "runs").glob("*/seed*/")):
        if (run_dir / "done").exists():
            run = load_run(run_dir)
            methods.setdefault(run["config"].get("label") or run["config"]["method"],
                               []).append(run)
    if not methods:
        raise ValueError(f"{root}: no finished runs under {root / 'runs'}")
    return methods


def draw(roots: list[Path], titles: list[str], out: Path, threshold: float | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    comparisons = [finished_runs(root) for root in roots]
    horizon = max(r["seconds"] for methods in comparisons for runs in methods.values()
                  for r in runs)
    grid = np.linspace(0, horizon, 200)
    labels = sorted({label for methods in comparisons for label in methods})
    colours = {label: f"C{k}" for k, label in enumerate(labels)}
    fig, axes = plt.subplots(1, len(roots), figsize=(5.2 * len(roots), 4), sharey=True)
    for ax, methods, title in zip(np.atleast_1d(axes), comparisons, titles):
        for label, runs in sorted(methods.items()):
            curves = np.array([curve(r, grid) for r in runs])
            with warnings.catch_warnings():  # grid times before a run's first Ψ are empty
                warnings.simplefilter("ignore", RuntimeWarning)
                low, median, high = np.nanpercentile(curves, [25, 50, 75], axis=0)
            ax.plot(grid / 60, median, color=colours[label], label=f"{label} ({len(runs)})")
            ax.fill_between(grid / 60, low, high, color=colours[label], alpha=0.2)
        if threshold is not None:
            ax.axhline(threshold, color="grey", linestyle=":", linewidth=1)
        ax.set_title(title)
        ax.set_xlabel("CPU minutes" if all(
            r["config"].get("clock") == "cpu" for runs in methods.values() for r in runs)
            else "minutes")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8, title="method (seeds)", title_fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel("best Ψ against GA so far\n(median, quartiles)")
    np.atleast_1d(axes)[0].set_ylim(0, 0.6)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", help="comparison directories")
    parser.add_argument("--titles", nargs="+", default=None, help="one per directory")
    parser.add_argument("--threshold", type=float, default=0.3)
    parser.add_argument("--out", required=True, help="PNG file")
    args = parser.parse_args(argv)
    titles = args.titles or [Path(d).name for d in args.dirs]
    if len(titles) != len(args.dirs):
        parser.error("give one title per directory")
    draw([Path(d) for d in args.dirs], titles, Path(args.out), args.threshold)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
