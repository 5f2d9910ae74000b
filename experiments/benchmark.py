"""``stratsynth benchmark``: synthesis methods compared across OpenSpiel games.

Every method (SA, GP, UCT, MAP-Elites) runs in the generic observation language
(``gp.languages.openspiel``) on every game, at one evaluation budget and for
several seeds; each run's best program is then re-measured against every
opponent (random and OpenSpiel's MCTS at given budgets) on fresh matches (a seed
no run used). One table (``table.md``: mean win rate over seeds with a bootstrap
interval, per game, method and opponent), one CSV row per run and opponent
(``results.csv``) and one plot (``benchmark.png``).

A game is ``NAME`` or ``NAME?KEY=VALUE&KEY=VALUE`` (OpenSpiel's parameters). Runs
live in ``OUT/runs/GAME/METHOD/seedK``; running the same command again skips the
finished runs and resumes the others, so the results file grows to the same
table.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_GAMES = ("connect_four", "breakthrough?rows=6&columns=6", "hex?board_size=5",
                 "clobber", "tic_tac_toe", "dots_and_boxes")
METHODS = ("sa", "gp", "uct", "map-elites")
QD_FEATURES = "game_length,first_move"
RECHECK_SEED = 1_000_003
"""Seed of the fresh re-measuring matches (the runs use seeds 0, 1, ...)."""
FIELDS = ("game", "method", "seed", "opponent", "wins", "draws", "matches", "rate", "low",
          "high", "program", "run_seconds")


@dataclass(frozen=True)
class BenchGame:
    """A game of the benchmark: its label, registered name and parameters."""

    label: str
    name: str
    params: dict[str, Any]


def parse_game(text: str) -> BenchGame:
    """``hex?board_size=5`` -> the game ``openspiel:hex`` with ``{"board_size": 5}``."""
    name, _, query = text.partition("?")
    params: dict[str, Any] = {}
    for item in filter(None, query.split("&")):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"benchmark game '{text}': '{item}' is not KEY=VALUE")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    full = name if ":" in name else "openspiel:" + name
    label = name.split(":")[-1] + "".join(f"-{k}{v}" for k, v in params.items())
    return BenchGame(label, full, params)


def run_one(game: BenchGame, method: str, seed: int, out: Path, *, evaluations: int,
            matches: int, target: str, workers: int) -> tuple[str, float]:
    """One synthesis (or MAP-Elites) run, resumed if it was cut; its best program's
    text and the run's seconds."""
    from .api import resume, run_qd, synthesize

    started = time.perf_counter()
    finished = (out / "done").is_file() or (out / "archive.json").is_file()
    if out.exists() and not finished:
        resume(out)
    elif not out.exists():
        settings = dict(evaluations=evaluations, matches=matches, target=target, seed=seed,
                        workers=workers, game_params=game.params or None)
        if method == "map-elites":
            run_qd(game.name, features=QD_FEATURES, dims="6,6", out=out, **settings)
        else:
            synthesize(game.name, method=method, out=out, **settings)
    return (out / "best.txt").read_text(), time.perf_counter() - started


def recheck(game: BenchGame, program: Path, opponent: str, matches: int,
            workers: int) -> dict[str, Any]:
    from games.match import wilson_interval

    from .api import play

    summary = play(game.name, f"program:{program}", opponent, matches=matches,
                   seed=RECHECK_SEED, workers=workers, game_params=game.params)
    low, high = wilson_interval(summary.wins[0], summary.matches)
    return {"wins": summary.wins[0], "draws": summary.draws, "matches": summary.matches,
            "rate": summary.win_rate(0), "low": low, "high": high}


def check_inputs(games: list[BenchGame], methods: list[str], opponents: list[str],
                 target: str) -> None:
    """Every game loads, every method and player exists: before anything is written."""
    from games import load_game

    from .players import make_player

    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"benchmark: unknown method(s) {unknown} (known: {', '.join(METHODS)})")
    for game in games:
        load_game(game.name, **game.params)
        for spec in [target, *opponents]:
            make_player(game.name, spec)


def benchmark(out: Path, games: list[BenchGame], methods: list[str], seeds: int,
              opponents: list[str], *, evaluations: int, matches: int, target: str,
              rematches: int, workers: int, progress=print) -> list[dict[str, Any]]:
    """Run (or resume) every run, re-measure, write results.csv, table.md and the plot."""
    check_inputs(games, methods, opponents, target)
    out.mkdir(parents=True, exist_ok=True)
    results_file = out / "results.csv"
    rows: list[dict[str, Any]] = []
    if results_file.is_file():
        with results_file.open() as f:
            rows = list(csv.DictReader(f))
    done = {(r["game"], r["method"], int(r["seed"]), r["opponent"]) for r in rows}
    with results_file.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        if not rows:
            writer.writeheader()
        for seed in range(seeds):  # seed by seed: a cut benchmark covers every game
            for game in games:
                for method in methods:
                    todo = [o for o in opponents if (game.label, method, seed, o) not in done]
                    if not todo:
                        continue
                    run_dir = out / "runs" / game.label / method / f"seed{seed}"
                    program, seconds = run_one(game, method, seed, run_dir,
                                               evaluations=evaluations, matches=matches,
                                               target=target, workers=workers)
                    text = " ".join(line for line in program.splitlines()
                                    if not line.startswith("#")).strip()
                    for opponent in todo:
                        row = {"game": game.label, "method": method, "seed": seed,
                               "opponent": opponent, "program": text,
                               "run_seconds": round(seconds, 1),
                               **recheck(game, run_dir / "best.txt", opponent, rematches,
                                         workers)}
                        writer.writerow(row)
                        f.flush()
                        rows.append(row)
                        progress(f"{game.label} {method} seed {seed} vs {opponent}: "
                                 f"{float(row['rate']):.3f}")
            write_summary(out, rows, games, methods, opponents, seeds)
    return write_summary(out, rows, games, methods, opponents, seeds)


def write_summary(out: Path, rows: list[dict[str, Any]], games: list[BenchGame],
                  methods: list[str], opponents: list[str], seeds: int) -> list[dict[str, Any]]:
    """``table.md`` and ``benchmark.png`` of the rows so far (after every seed, so a cut
    benchmark shows what it finished); returns the rows they show."""
    rows = [r for r in rows if r["game"] in {g.label for g in games}
            and r["method"] in methods and r["opponent"] in opponents
            and int(r["seed"]) < seeds]
    (out / "table.md").write_text(table(rows, [g.label for g in games], methods, opponents))
    plot(rows, [g.label for g in games], methods, opponents, out / "benchmark.png")
    return rows


def _rates(rows, game, method, opponent):
    import numpy as np

    return np.array([float(r["rate"]) for r in rows if r["game"] == game
                     and r["method"] == method and r["opponent"] == opponent])


def table(rows: list[dict], games: list[str], methods: list[str], opponents: list[str]) -> str:
    """Markdown: per game and method, the mean re-measured win rate of the best programs
    against each opponent, with a bootstrap interval over seeds."""
    from .report import seed_interval

    lines = ["| game | method | seeds | " + " | ".join(f"vs {o}" for o in opponents) + " |",
             "|---|---|---|" + "---|" * len(opponents)]
    for game in games:
        for method in methods:
            cells, count = [], 0
            for opponent in opponents:
                rates = _rates(rows, game, method, opponent)
                count = max(count, len(rates))
                if not len(rates):
                    cells.append("–")
                    continue
                interval = seed_interval(rates)
                cells.append(f"{rates.mean():.3f}" + (
                    f" [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else ""))
            lines.append(f"| {game} | {method} | {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows, games, methods, opponents, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, len(opponents), figsize=(4.5 * len(opponents), 3.6),
                             sharey=True, squeeze=False)
    width = 0.8 / len(methods)
    for ax, opponent in zip(axes[0], opponents):
        for k, method in enumerate(methods):
            means = [(_rates(rows, g, method, opponent).mean()
                      if len(_rates(rows, g, method, opponent)) else 0.0) for g in games]
            ax.bar(np.arange(len(games)) + k * width, means, width, label=method)
        ax.set_title(f"vs {opponent}")
        ax.set_xticks(np.arange(len(games)) + 0.4 - width / 2, games, rotation=45,
                      ha="right", fontsize=7)
        ax.axhline(0.5, color="grey", linewidth=0.6)
    axes[0][0].set_ylabel("win rate, fresh matches")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def cmd_benchmark(args) -> int:
    from .lock import check_not_a_run

    check_not_a_run(args.out)
    games = [parse_game(g) for g in (args.games.split(",") if args.games else DEFAULT_GAMES)]
    methods = [m.strip() for m in args.methods.split(",")]
    opponents = [o.strip() for o in args.opponents.split(",")]
    benchmark(Path(args.out), games, methods, args.seeds, opponents,
              evaluations=args.evaluations, matches=args.matches, target=args.target,
              rematches=args.rematches, workers=args.workers,
              progress=(lambda line: None) if args.quiet else print)
    print(f"table in {Path(args.out) / 'table.md'}, plot in {Path(args.out) / 'benchmark.png'}")
    return 0


def add_parsers(sub) -> None:
    from .options import add_workers, positive

    b = sub.add_parser("benchmark", help="synthesis methods compared on OpenSpiel games")
    b.add_argument("--games", default=None,
                   help="comma-separated games, NAME or NAME?KEY=VALUE&... (default: "
                   + ", ".join(DEFAULT_GAMES) + ")")
    b.add_argument("--methods", default=",".join(METHODS),
                   help=f"comma-separated methods (default {','.join(METHODS)})")
    b.add_argument("--seeds", type=positive, default=5, help="seeds per method (default 5)")
    b.add_argument("--evaluations", type=positive, default=60,
                   help="evaluations per run (default 60)")
    b.add_argument("--matches", type=positive, default=12,
                   help="matches per evaluation (default 12)")
    b.add_argument("--target", default="mcts:20",
                   help="the opponent the runs optimise against (default mcts:20: against "
                   "random, Ψ saturates within a few evaluations)")
    b.add_argument("--opponents", default="random,mcts:20,mcts:200",
                   help="opponents of the re-measure (default random,mcts:20,mcts:200)")
    b.add_argument("--rematches", type=positive, default=60,
                   help="fresh matches per best program and opponent (default 60)")
    add_workers(b)
    b.add_argument("--out", required=True, help="the benchmark's directory")
    b.add_argument("--quiet", action="store_true")
    b.set_defaults(handler=cmd_benchmark)
