"""microRTS tournaments that differ in one setting, compared on what they share: each
method's programs scored against the seven bots every tournament has.

    python -m experiments.studies.microrts_settings_apart \\
        experiments/results/microrts/tournament-24x24-original-8x448-dissertation \\
        experiments/results/microrts/tournament-24x24-original-8x448-one-start-sa \\
        experiments/results/microrts/tournament-24x24-original-8x448-two-match-sketch-sa \\
        experiments/results/microrts/tournament-24x24-original-8x448 \\
        --out experiments/results/microrts/hss-settings-apart.md

A tournament's mean score against its whole field depends on which programs the
other runs made, so it cannot be compared between tournaments; the score against the
bots can. Each folder is a ``microrts_tournament`` run; its settings (HSS level 2, Ψ's
matches and start, FP's mixture) are read from its self-play runs' ``config.json``. The
first folder is the reference: every other column gives its difference from it, with
Welch's two-sided p over the seeds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import warnings
from pathlib import Path

from scipy import stats

from experiments.studies.microrts_tournament import BOTS, DEFAULT_METHODS


def settings(folder: Path) -> dict[str, str]:
    """The settings that tell the tournaments apart, from their self-play runs."""
    found: dict[str, str] = {}
    for config in sorted(folder.glob("*-seed*/config.json")):
        run = json.loads(config.read_text())
        if run.get("oracle") == "hss":  # a run made before the key existed ran plain SA
            found.setdefault("HSS level 2", run.get("hss_local_search") or "sa")
        found.setdefault("Ψ", "one match, one start" if run.get("side") is not None
                         else f"{run.get('matches')} matches, one per start")
        if run.get("driver") == "fp":
            found.setdefault("FP mixture", run.get("mixture") or "sampled")
    return found


def scores_against_bots(folder: Path) -> dict[str, dict[int, float]]:
    """Each method's programs (by seed): mean score per match against the bots."""
    pairs = folder / "tournament" / "pairs.jsonl"
    if not pairs.is_file():
        raise ValueError(f"{folder}: no tournament/pairs.jsonl (not a finished "
                         "microrts_tournament run)")
    points: dict[str, float] = {}
    games: dict[str, int] = {}
    for line in pairs.read_text().splitlines()[1:]:
        if not line:
            continue
        row = json.loads(line)
        for side in (0, 1):
            name, other = row["pair"][side], row["pair"][1 - side]
            if name in BOTS or other not in BOTS:
                continue
            points[name] = points.get(name, 0.0) + row["wins"][side] + row["even"] / 2
            games[name] = games.get(name, 0) + row["matches"]
    by_method: dict[str, dict[int, float]] = {}
    for name, total in points.items():
        method, seed = name.rsplit("/", 1)
        by_method.setdefault(method, {})[int(seed)] = total / games[name]
    return by_method


def _p(reference: list[float], other: list[float]) -> str:
    if len(reference) < 2 or len(other) < 2 or \
            statistics.pstdev(reference) + statistics.pstdev(other) == 0:
        return "—"  # no spread within either group: no test
    with warnings.catch_warnings():  # one group of equal scores: scipy warns, the test holds
        warnings.simplefilter("ignore", RuntimeWarning)
        return f"{stats.ttest_ind(other, reference, equal_var=False).pvalue:.2f}"


def table(folders: list[Path], methods: tuple[str, ...] = DEFAULT_METHODS) -> str:
    """Markdown: each tournament's settings, then each method's score against the bots."""
    names = [f.name.removeprefix("tournament-") for f in folders]
    described = [settings(f) for f in folders]
    keys = ("HSS level 2", "Ψ", "FP mixture")
    lines = ["| setting | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(folders)]
    lines += [f"| {key} | " + " | ".join(d.get(key, "—") for d in described) + " |"
              for key in keys]
    scored = [scores_against_bots(f) for f in folders]
    lines += ["", "Score % against the seven bots (mean over seeds; per seed; difference "
              f"from {names[0]}, Welch p):", "",
              "| method | " + " | ".join(names) + " |", "|---|" + "---|" * len(folders)]
    for method in methods:
        cells = []
        reference = list(scored[0].get(method, {}).values())
        for i, by_seed in enumerate(scored):
            values = [v for _, v in sorted(by_seed.get(method, {}).items())]
            if not values:
                cells.append("—")
                continue
            cell = (f"{100 * statistics.fmean(values):.1f} "
                    f"({', '.join(f'{100 * v:.0f}' for v in values)})")
            if i and reference:
                change = statistics.fmean(values) - statistics.fmean(reference)
                cell += f"; {100 * change:+.1f}, p {_p(reference, values)}"
            cells.append(cell)
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", type=Path,
                   help="microrts_tournament runs; the first is the reference")
    p.add_argument("--out", type=Path, default=None, help="write the table here too")
    args = p.parse_args(argv)
    try:
        text = table(args.folders)
    except (ValueError, OSError, json.JSONDecodeError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.out is not None:
        command = "python -m experiments.studies.microrts_settings_apart " + " ".join(
            str(f) for f in args.folders) + f" --out {args.out}"
        args.out.write_text(f"# microRTS tournaments, one setting apart\n\n`{command}`\n\n"
                            + text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
