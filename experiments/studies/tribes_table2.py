"""The play-styles paper's Table II: the two opposite-corner elites of each MAP-Elites use case
re-played on many more games and levels than the search gave them.

    python -m experiments.studies.tribes_table2 --matches 40 --levels 0-9

For each run directory (default: the three use-case runs under
``experiments/results/tribes/``) this runs ``stratsynth qd-check RUN --matches N
--game-param levels=[...] --out RUN/corners-levels-A-B.md`` (game i on level
``levels[(i // 2) % |levels|]``, the evolved player in seat i mod 2, so every level is
played from both seats; the run's other game parameters, e.g. its turn limit, are
kept; the evolved player is the run's subject, ``--subject`` of ``stratsynth qd``),
which logs every game and goes on from that log after a kill. It then reads the
logged games and writes ``table2.md`` (and ``table2.json``): per corner elite, the
archive's win rate and two features beside the fresh games' means with their standard
errors, and the play-styles paper's Table II beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from experiments.cli import main as stratsynth
from experiments.studies.tribes_table1 import _mean_se, level_key, parse_levels
from games.tribes.qd import SUBJECTS
from games.tribes.rules import RULES_VERSION
from qd.archive import ProgramArchive

RESULTS = Path("experiments/results/tribes")
RUNS = {"I": RESULTS / "qd-use-case-I-budget2000-15rounds",
        "II": RESULTS / "qd-use-case-II-budget2000-15rounds",
        "III": RESULTS / "qd-use-case-III-budget2000-15rounds"}

SEED_TABLE_II = {
    # use case: [low corner, high corner], each (cell, (win rate % archive, validation),
    # (φ1 archive, validation), (φ2 archive, validation))
    "I": [("[6:-1]", (75.0, 70.2), (5.4, 9.7), (-0.75, -0.726)),
          ("[14:4]", (60.0, 55.2), (12.6, 13.83), (3.65, 3.792))],
    "II": [("[0:25]", (75.0, 75.2), (0.4, 0.8), (23.1, 22.9)),
           ("[7:40]", (60.0, 62.0), (6.5, 4.6), (39.5, 21.6))],
    "III": [("[0.6:0.6]", (50.0, 58.1), (0.63, 0.43), (0.664, 0.44)),
            ("[1.2:1.0]", (85.0, 74.37), (1.05, 0.7), (0.87, 0.65))],
}
"""The play-styles paper's Table II: MAP-Elites result and validation (500 games) of two elites per
use case."""


def mean_se(values: list[float]) -> tuple[float, float, int]:
    """Mean, standard error and count (NaNs for no values: a corner that never won
    has no win round)."""
    if not values:
        return float("nan"), float("nan"), 0
    return (*_mean_se(values), len(values))


def fresh_stats(games: list[dict], names: list[str]) -> dict:
    """The evolved player's win rate (%) and features over its logged games, each as
    (mean, standard error, games it is over); ``win_round`` is over the games it won."""
    seats = [g["log"]["seats"][g["seat"]] for g in games]
    won = [g["log"]["winner"] == g["seat"] for g in games]
    out = {"win_rate": mean_se([100.0 * w for w in won])}
    for name in names:
        if name == "win_round":
            out[name] = mean_se([g["log"]["win_round"] for g, w in zip(games, won) if w])
        else:
            out[name] = mean_se([float(s[name]) for s in seats])
    out["games"] = len(games)
    out["levels"] = sorted({g["level"] for g in games})
    return out


def check(run: Path, matches: int, levels: list[int], seed: int, workers: int) -> Path:
    """``qd-check`` of ``run`` on ``levels`` (continued from its games log); under rules
    version 4 level N is the framework's level ``java:N``."""
    report = run / f"corners-levels-{levels[0]}-{levels[-1]}.md"
    if len(levels) != levels[-1] - levels[0] + 1:
        report = run / f"corners-levels-{'-'.join(map(str, levels))}.md"
    params = json.loads((run / "config.json").read_text()).get("game_params") or {}
    played = [level_key(n, params.get("rules", RULES_VERSION)) for n in levels]
    argv = ["qd-check", str(run), "--matches", str(matches), "--game-param",
            f"levels={json.dumps(played).replace(' ', '')}", "--out", str(report),
            "--workers", str(workers), "--corrected", "0"]  # the corners only
    if seed != 99:
        argv += ["--seed", str(seed)]
    if stratsynth(argv) != 0:
        raise SystemExit(f"qd-check of {run} failed")
    return report


def archive_win_rate(objective: float, games: int) -> float:
    """The win rate (%) in an objective of win rate + score × 10⁻⁶ over ``games`` games
    (the score part stays below one game's share)."""
    return 100.0 * math.floor(objective * games + 1e-9) / games


def table_rows(case: str, run: Path, report: Path) -> list[dict]:
    archive = ProgramArchive.load(run / "archive.json")
    names = list(archive.features)
    config = json.loads((run / "config.json").read_text())
    per_vector = config["matches"]
    subject = config.get("subject") or SUBJECTS[0]  # qd-check played the run's subject
    log = report.with_suffix(".games.jsonl")
    games = [json.loads(line) for line in log.read_text().splitlines()]
    rows = []
    for label, elite in zip(("low", "high"), archive.corner_elites()):
        mine = [g for g in games if g["solution"] == elite["program"]
                and g.get("subject", SUBJECTS[0]) == subject]
        rows.append({"use_case": case, "corner": label, "weights": elite["program"],
                     "subject": subject, "features": names,
                     "archive": {"win_rate": archive_win_rate(elite["objective"], per_vector),
                                 **dict(zip(names, elite["measures"]))},
                     "archive_games": per_vector,
                     "fresh": fresh_stats(mine, names)})
    return rows


def fmt(value: float, digits: int = 2) -> str:
    return "–" if value != value else f"{value:.{digits}f}"


def markdown(rows: list[dict], command: str) -> str:
    lines = ["# Table II: corner elites re-played on fresh games", "", f"`{command}`", "",
             "Win rate in %; a feature is the evolved player's mean per game (win round: "
             "over the games it won). Fresh: mean (standard error, games) over the games "
             "named below; archive: the search's own games. The play-styles paper: its MAP-Elites "
             "value → its validation on 500 games.", "",
             "| use case | corner | measure | archive | fresh games | paper |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        seed = SEED_TABLE_II[row["use_case"]][0 if row["corner"] == "low" else 1]
        for k, name in enumerate(["win_rate", *row["features"]]):
            mean, se, n = row["fresh"][name]
            lines.append(f"| {row['use_case']} | {row['corner']} | {name} | "
                         f"{fmt(row['archive'][name])} | {fmt(mean)} ({fmt(se)}, {n}) | "
                         f"{seed[0]}: {seed[1 + k][0]} → {seed[1 + k][1]} |")
    lines += ["", "The play-styles paper's cells are its figures' coordinates of the two elites "
              "it chose; "
              "ours are the elites nearest the low and the high corner of the normalised "
              "feature space. Each elite's weights (σ15..σ19, σ36..σ41) and games:", ""]
    for row in rows:
        player = row["subject"]
        lines.append(f"- {row['use_case']} {row['corner']}: `{row['weights']}`"
                     + (f" of `{player}`" if player != SUBJECTS[0] else "")
                     + f"; archive {row['archive_games']} games, fresh "
                     f"{row['fresh']['games']} on levels "
                     f"{','.join(map(str, row['fresh']['levels']))}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default="I,II,III", help="use cases, comma-separated")
    p.add_argument("--run", action="append", default=[], metavar="CASE=DIR",
                   help="the run directory of a use case (default: the committed runs)")
    p.add_argument("--matches", type=int, default=40, help="fresh games per corner elite")
    p.add_argument("--levels", default="0-9")
    p.add_argument("--seed", type=int, default=99)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", default=str(RESULTS / "table2_corner_elites_levels0-9"))
    args = p.parse_args(argv)
    levels = parse_levels(args.levels)
    runs = {**RUNS, **dict(item.split("=", 1) for item in args.run)}
    rows = []
    for case in args.cases.split(","):
        if case not in SEED_TABLE_II:
            p.error(f"--cases: unknown use case '{case}' (known: I, II, III)")
        run = Path(runs[case])
        report = check(run, args.matches, levels, args.seed, args.workers)
        rows += table_rows(case, run, report)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = ("python -m experiments.studies.tribes_table2 "
               + " ".join(argv if argv is not None else sys.argv[1:]))
    (out / "table2.json").write_text(json.dumps(rows, indent=1) + "\n")
    (out / "table2.md").write_text(markdown(rows, command.strip()))
    print((out / "table2.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
