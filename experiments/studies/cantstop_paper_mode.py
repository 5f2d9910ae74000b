"""What the untyped appendix grammar does to random programs: share that fail, Ψ, cost.

For each language (our typed ``sketch`` and the paper mode's ``sketch-paper``):
``--programs`` random programs drawn as a search's first program is drawn
(``DSL.random_program``), each measured as a synthesis run measures Ψ
(``gp.fitness.WinRate``: ``--matches`` seat-alternating matches against GA, a
program that fails anywhere scores 0), with the seconds each evaluation took.

    python -m experiments.studies.cantstop_paper_mode \\
        --out experiments/results/cantstop-paper-mode

writes ``random-programs.json`` (per program: language, Ψ, failed, error,
seconds; of a sample over 1,000 programs only those that run) and
``random-programs.md`` (the summary table); other ``--rules``,
``--programs`` or ``--languages`` add their values to the file names. ``--cost``
writes ``psi-cost.md`` instead: seconds per 1,000-match Ψ of programs that run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.fitness import WinRate
from gp.programs import strategy_class

LANGUAGES = ("sketch", "sketch-paper")


def measure(dsl_name: str, programs: int, matches: int, seed: int, rules: str) -> list[dict]:
    game = load_game("cantstop", rules=rules)
    cls = strategy_class("cantstop", dsl_name)
    dsl = cls.default_dsl()
    psi = WinRate(game, glenn_aloi_player(), cls, matches=matches, seed=seed)
    rng = random.Random(seed)
    rows = []
    for _ in range(programs):
        tree = dsl.random_program(rng)
        started = time.perf_counter()
        summary = psi.play(tree)
        value = psi.value(summary)
        seconds = time.perf_counter() - started
        failed = summary.forfeits[0] > 0
        rows.append({"dsl": dsl_name, "psi": value, "failed": failed,
                     "error": summary.first_error[0] if failed else None,
                     "seconds": round(seconds, 5), "program": dsl.to_text(tree)})
    return rows


def summarize(rows: list[dict]) -> dict:
    failed = [r for r in rows if r["failed"]]
    ran = [r for r in rows if not r["failed"]]
    kinds: dict[str, int] = {}
    for r in failed:
        kind = r["error"].split("ProgramFailure: ", 1)[-1].split(":", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "programs": len(rows),
        "failed": len(failed),
        "median_psi": statistics.median(r["psi"] for r in rows),
        "median_psi_of_programs_that_run": (statistics.median(r["psi"] for r in ran)
                                            if ran else None),
        "share_with_psi_above_0": sum(r["psi"] > 0 for r in rows) / len(rows),
        "best_psi": max(r["psi"] for r in rows),
        "mean_seconds_failing": (statistics.mean(r["seconds"] for r in failed)
                                 if failed else None),
        "mean_seconds_running": statistics.mean(r["seconds"] for r in ran) if ran else None,
        "errors": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
    }


def table(summaries: dict, args) -> str:
    lines = [f"# Random programs of each Can't Stop language against GA "
             f"({args.programs} programs, {args.matches} matches each, seed {args.seed}, "
             f"rules {args.rules})", "",
             "Reproduce: `python -m experiments.studies.cantstop_paper_mode "
             f"--programs {args.programs} --matches {args.matches} --seed {args.seed} "
             f"--rules {args.rules} --languages {' '.join(args.languages)} --out {args.out}`",
             "",
             "| language | fail | median Ψ | median Ψ of those that run | Ψ > 0 | best Ψ "
             "| s per Ψ (failing) | s per Ψ (running) |",
             "|---|---|---|---|---|---|---|---|"]
    for name, s in summaries.items():
        def fmt(x, digits=3):
            return "–" if x is None else f"{x:.{digits}f}"
        lines.append(f"| {name} | {s['failed']}/{s['programs']} | {fmt(s['median_psi'])} | "
                     f"{fmt(s['median_psi_of_programs_that_run'])} | "
                     f"{s['share_with_psi_above_0']:.2f} | {fmt(s['best_psi'])} | "
                     f"{fmt(s['mean_seconds_failing'], 4)} | "
                     f"{fmt(s['mean_seconds_running'], 4)} |")
    lines.append("")
    for name, s in summaries.items():
        if s["errors"]:
            lines.append(f"Failures of {name} by error: "
                         + ", ".join(f"{k} {v}" for k, v in s["errors"].items()))
    return "\n".join(lines) + "\n"


GA_LIKE_PAPER = ("score: sum(map(lambda x: (advanced(x) + 1) * progress_value[x], neutrals))"
                 " + difficulty\ncolumn: argmax(map(lambda x: sum(map(lambda x: advance_of(x)"
                 " * move_value[x], local_list)), actions))")
"""A paper program that runs: GA's stop score and column values with constants 0 and 1."""


def psi_cost(out: Path, matches: int = 1000, repeats: int = 3) -> str:
    """Seconds per Ψ of a program that runs, typed GA program and a paper program, each
    on the fast and the scalar engine (median of ``repeats`` seeds)."""
    ga_text = (Path(__file__).parents[1] / "programs" / "cantstop_ga.txt").read_text()
    game = load_game("cantstop")
    lines = [f"# Seconds per Ψ ({matches} matches against GA, median of {repeats} seeds)", "",
             "Reproduce: `python -m experiments.studies.cantstop_paper_mode --cost "
             f"--out {out}` (machine load shifts these; compare within one run)", "",
             "| program | engine | seconds | Ψ |", "|---|---|---|---|"]
    for dsl, text, fast in (("sketch", ga_text, True), ("sketch", ga_text, False),
                            ("sketch-paper", GA_LIKE_PAPER, True),
                            ("sketch-paper", GA_LIKE_PAPER, False)):
        cls = strategy_class("cantstop", dsl)
        times, value = [], 0.0
        for seed in range(1, repeats + 1):
            psi = WinRate(game, glenn_aloi_player(), cls, matches=matches, seed=seed,
                         engine="fast" if fast else "reference")
            started = time.perf_counter()
            value = psi(text)
            times.append(time.perf_counter() - started)
        lines.append(f"| {dsl}: {'GA program' if dsl == 'sketch' else 'GA-like, constants 0/1'}"
                     f" | {'fast' if fast else 'scalar'} | {statistics.median(times):.2f} | "
                     f"{value:.3f} (seed {repeats}) |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", choices=("paper", "reference"), default="paper")
    parser.add_argument("--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cost", action="store_true",
                        help="measure seconds per Ψ of programs that run instead")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.cost:
        text = psi_cost(args.out)
        (args.out / "psi-cost.md").write_text(text)
        print(text)
        return 0
    rows, summaries = [], {}
    for name in args.languages:
        measured = measure(name, args.programs, args.matches, args.seed, args.rules)
        rows += measured
        summaries[name] = summarize(measured)
        print(name, json.dumps(summaries[name]))
    stem = "random-programs" + ("" if args.rules == "paper" else f"-{args.rules}") + (
        "" if args.programs == 200 else f"-{args.programs}") + (
        "" if list(args.languages) == list(LANGUAGES) else "-" + "-".join(args.languages))
    if len(rows) > 1000:  # a large sample keeps the programs that run (the file stays small)
        rows = [r for r in rows if not r["failed"]]
    (args.out / f"{stem}.json").write_text(json.dumps(
        {"settings": vars(args) | {"out": str(args.out)}, "summary": summaries,
         "programs": rows}, indent=1) + "\n")
    (args.out / f"{stem}.md").write_text(table(summaries, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
