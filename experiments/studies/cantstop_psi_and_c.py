"""The sketch-learning paper's Figs. 7 and 8 from run logs: win rate Ψ against cloning score C.

For each run directory (a ``stratsynth run`` run with its ``log.csv``), every
program whose Ψ was measured gets its cloning score C computed afterwards with the
run's own score and data set (its ``config.json``: ``score``, ``data``, game and
language); the run logs C only for the sketch search's programs. Written:

* ``psi-and-c.csv`` in ``--out``: run, evaluation, Ψ, C, whether the program was the
  best so far, program, for the programs the figures show (the best so far, and those
  with Ψ > 0), so the figures can be made again without the logs; ``psi-and-c.md``
  counts the programs and gives Spearman's correlation per run (the counts are also in
  ``psi-and-c-runs.json``); a run directory without its ``log.csv`` (logs of early
  runs were not kept) is read back from these two files of an earlier report in
  ``--out``, so a report can grow as runs finish;
* Fig. 7 (``fig7-psi-and-c-over-search.png``): Ψ and C of the best-Ψ program so far
  against the run's evaluations (C and Ψ evaluations both count), one panel per run,
  for the ``FIG7_RUNS`` runs with the highest best Ψ (the table has every run);
* Fig. 8 (``fig8-programs-by-psi-and-c.png``): every measured program that runs
  (Ψ > 0) placed by Ψ and C, with Spearman's correlation.

    python -m experiments.studies.cantstop_psi_and_c \\
        experiments/results/cantstop-paper-budget/fig2/runs/Sketch-SA_O/seed1 ... \\
        --out experiments/results/cantstop-paper-budget/fig7-8
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

FIELDS = ("run", "evaluation", "psi", "c", "best_so_far", "program")
FIG7_RUNS = 6


def run_order(run: str) -> tuple:
    """Method, then seed as a number (seed2 before seed11)."""
    path = Path(run)
    digits = "".join(ch for ch in path.name if ch.isdigit())
    return path.parent.name, int(digits) if digits else -1, path.name


def spearman(rows: list[dict]) -> str:
    """Spearman's ρ of Ψ and C over ``rows``: "—" under three programs, "C constant"
    where every C is the same (ρ is undefined)."""
    from scipy.stats import spearmanr

    if len(rows) < 3:
        return "—"
    if len({r["c"] for r in rows}) == 1:
        return "C constant"
    return f"{spearmanr([r['psi'] for r in rows], [r['c'] for r in rows]).statistic:.2f}"


def cloning_score(config: dict):
    """The run's C: its game's cloning factory for its score, on its data set."""
    from games import game_spec, load_game, resolve
    from gp.programs import strategy_class

    game = load_game(config["game"], **(config.get("game_params") or {}))
    cls = strategy_class(config["game"], config.get("dsl"))
    build = resolve(game_spec(config["game"]).synthesis.cloning[config["score"]])
    return build(config["data"], game, cls)


def measured(run_dir: Path) -> list[dict]:
    """Programs of the run with Ψ measured (first measurement each), with C."""
    from gp.evaluator import decode_program

    config = json.loads((run_dir / "config.json").read_text())
    score = cloning_score(config)
    known_c: dict[str, float] = {}
    rows, seen, best = [], set(), -1.0
    with (run_dir / "log.csv").open(newline="") as fh:  # read only: the run may be live
        for row in csv.DictReader(fh):
            program = decode_program(row["program"])
            if row["metric"] == "c":
                known_c.setdefault(program, float(row["value"]))
                continue
            if row["metric"] != "psi" or program in seen:
                continue
            seen.add(program)
            psi = float(row["value"])
            if program not in known_c:
                known_c[program] = float(score(program))
            rows.append({"run": str(run_dir), "evaluation": int(row["evaluations"]),
                         "psi": psi, "c": known_c[program], "best_so_far": psi > best,
                         "program": program})
            best = max(best, psi)
    return rows


def earlier(run_dir: Path, out: Path) -> tuple[list[dict], int] | None:
    """A run's shown programs and its count of programs with Ψ, from an earlier report
    in ``out`` (for a run whose ``log.csv`` is gone); None if that report lacks it."""
    counts_file, shown_file = out / "psi-and-c-runs.json", out / "psi-and-c.csv"
    counts = json.loads(counts_file.read_text()) if counts_file.is_file() else {}
    if str(run_dir) not in counts or not shown_file.is_file():
        return None
    with shown_file.open(newline="") as fh:
        rows = [{"run": r["run"], "evaluation": int(r["evaluation"]), "psi": float(r["psi"]),
                 "c": float(r["c"]), "best_so_far": r["best_so_far"] == "True",
                 "program": r["program"]}
                for r in csv.DictReader(fh) if r["run"] == str(run_dir)]
    return rows, int(counts[str(run_dir)])


def summary(rows: list[dict], counts: dict[str, int] | None = None) -> str:
    """Per run: programs with Ψ measured (``counts``, else the rows), those that scored
    Ψ > 0, Spearman's ρ of Ψ and C over the latter, and the best-Ψ programs' Ψ and C in
    order."""
    lines = ["| run | programs with Ψ | Ψ > 0 | Spearman ρ(Ψ, C) over Ψ > 0 | "
             "best-Ψ programs so far: evaluation (Ψ, C) |", "|---|---|---|---|---|"]
    for run in sorted({r["run"] for r in rows}, key=run_order):
        mine = [r for r in rows if r["run"] == run]
        running = [r for r in mine if r["psi"] > 0]
        rho = spearman(running)
        steps = "; ".join(f"{r['evaluation']:,} ({r['psi']:.3f}, {r['c']:.3f})"
                          for r in mine if r["best_so_far"])
        total = (counts or {}).get(run, len(mine))
        lines.append(f"| {run} | {total:,} | {len(running):,} | {rho} | {steps} |")
    return "\n".join(lines) + "\n"


def header(runs: list[Path], out: Path) -> str:
    """What ``psi-and-c.md`` reports on and how it was made: the runs by method and seed,
    their budget where their configs agree, the figures and the command."""
    by_method: dict[str, list[str]] = {}
    for run in sorted(runs, key=lambda run: run_order(str(run))):
        by_method.setdefault(run.parent.name, []).append(run.name.removeprefix("seed"))
    budgets = set()
    for run in runs:
        try:
            config = json.loads((run / "config.json").read_text())
        except (OSError, ValueError):
            config = {}
        budgets.add((config.get("evaluations"), config.get("matches")))
    budget = ""
    if len(budgets) == 1 and None not in (only := budgets.pop()):
        budget = (f" Every run had {only[0]:,} evaluations (C and Ψ), Ψ over {only[1]:,} "
                  "matches against the target; the rest of its settings are in its "
                  "`config.json`.")
    runs_text = "; ".join(f"{method} seeds {', '.join(seeds)}"
                          for method, seeds in by_method.items())
    return (
        "# Ψ against C: the sketch-learning paper's Figs. 7 and 8\n\n"
        f"{len(runs)} run{'' if len(runs) == 1 else 's'} ({runs_text}): every program "
        "whose Ψ the search measured, with its cloning score C computed afterwards with "
        "the run's own score and data set."
        f"{budget} [Fig. 7](fig7-psi-and-c-over-search.png): Ψ and C of the best-Ψ "
        f"program so far over the search, for the {FIG7_RUNS} runs with the highest best "
        "Ψ. [Fig. 8](fig8-programs-by-psi-and-c.png): the programs with Ψ > 0 by Ψ and C. "
        "The programs shown are in `psi-and-c.csv`.\n\n"
        f"Made by `python -m experiments.studies.cantstop_psi_and_c RUN... --out {out}` "
        "over the run folders of the table (a run whose `log.csv` is gone is read back "
        "from the earlier report in the same folder).\n\n")


def draw(rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best_psi = {run: max(r["psi"] for r in rows if r["run"] == run)
                for run in {r["run"] for r in rows}}
    runs = sorted(sorted(best_psi, key=lambda run: -best_psi[run])[:FIG7_RUNS], key=run_order)
    fig, axes = plt.subplots(len(runs), 1, figsize=(7, 2.6 * len(runs)), squeeze=False)
    for ax, run in zip(axes[:, 0], runs):
        best = [r for r in rows if r["run"] == run and r["best_so_far"]]
        end = max(r["evaluation"] for r in rows if r["run"] == run)
        xs = [r["evaluation"] for r in best] + [end]
        ax.step(xs, [r["psi"] for r in best] + [best[-1]["psi"]], where="post", color="C0")
        ax.set_ylabel("Ψ against GA", color="C0")
        right = ax.twinx()
        right.step(xs, [r["c"] for r in best] + [best[-1]["c"]], where="post", color="C1")
        right.set_ylabel("C of that program", color="C1")
        ax.set_title(f"{Path(run).parent.name} {Path(run).name}: best-Ψ program so far",
                     fontsize=9)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("evaluations (C and Ψ)")
    fig.tight_layout()
    fig.savefig(out / "fig7-psi-and-c-over-search.png", dpi=110)
    plt.close(fig)

    running = [r for r in rows if r["psi"] > 0]
    methods = sorted({Path(r["run"]).parent.name for r in running})
    fig, axes = plt.subplots(1, max(len(methods), 1), figsize=(5.0 * max(len(methods), 1), 4.2),
                             squeeze=False)
    for ax, method in zip(axes[0], methods):
        mine = [r for r in running if Path(r["run"]).parent.name == method]
        ax.scatter([r["psi"] for r in mine], [r["c"] for r in mine], s=6, alpha=0.4)
        ax.set_title(f"{method}: {len(mine)} programs with Ψ > 0; Spearman ρ = "
                     f"{spearman(mine)}", fontsize=9)
        ax.set_xlabel("Ψ against GA (1,000 matches)")
        ax.set_ylabel("C (the run's cloning score)")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "fig8-programs-by-psi-and-c.png", dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="run directories with log.csv")
    parser.add_argument("--out", required=True, help="folder for the CSV and the figures")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, counts, kept_runs = [], {}, []
    for run in sorted(map(Path, args.runs), key=lambda run: run_order(str(run))):
        if (run / "log.csv").is_file():
            mine = measured(run)
            count = len(mine)
        elif (kept := earlier(run, out)) is not None:
            mine, count = kept
        else:
            print(f"{run}: left out (no log.csv, and no earlier report in {out} has it)",
                  file=sys.stderr)
            continue
        rows += mine
        counts[str(run)] = count
        kept_runs.append(run)
    with (out / "psi-and-c.csv").open("w", newline="") as fh:
        writer = csv.DictWriter(fh, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(r for r in rows if r["best_so_far"] or r["psi"] > 0)
    (out / "psi-and-c-runs.json").write_text(json.dumps(counts, indent=1) + "\n")
    (out / "psi-and-c.md").write_text(header(kept_runs, out) + summary(rows, counts))
    draw(rows, out)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
