"""Table I runs' win rates tested against the seed's and against each other: which of one
run's conclusions another run (other rules, other agents) keeps.

    python -m experiments.studies.tribes_table1_against \\
        experiments/results/tribes/table1_budget2000_rules_v4_framework_agents \\
        --against experiments/results/tribes/table1_budget2000_rules_v3 \\
        --out experiments/results/tribes/table1_budget2000_rules_v4_framework_agents/against.md

For each pairing of the run: the first agent's wins of its games with a Wilson 95%
interval; the seed's win rate (500 games a row), and Fisher's exact two-sided p of the
run's wins against the seed's 500 games (the seed's rate times 500, rounded); for each
other run, its wins of its games and Fisher's exact p of the two runs' rates. Runs of
different rules or levels play different games, so the test treats them as independent
(for runs on the same seeds, ``tribes_table1_paired`` pairs the games instead). A draw
counts as no win, as in ``table1.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from experiments.studies.tribes_table1 import NAMES, PAIRINGS, SEED_TABLE_I
from experiments.studies.tribes_table1_versions import load
from games.match import wilson_interval as wilson

SEED_GAMES = 500
"""Games per row of the seed's Table I."""


def wins_of(row: dict) -> tuple[int, int]:
    """(wins, games) of a ``table1.json`` row, whose wins are a percentage."""
    return round(row["wins"] * row["games"] / 100), row["games"]


def fisher(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Fisher's exact two-sided p of two (wins, games) rates."""
    from scipy.stats import fisher_exact

    return float(fisher_exact([[a[0], a[1] - a[0]], [b[0], b[1] - b[0]]]).pvalue)


def rate_cell(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{wins} / {games} = {100 * wins / games:.1f} % [{100 * low:.0f}, {100 * high:.0f}]"


def against_table(main: tuple[str, list[dict]], others: list[tuple[str, list[dict]]]) -> str:
    """The markdown table: ``main``'s rows (heading, rows) against the seed's and each of
    ``others``; rows in Table I's order, only those ``main`` has."""
    heading, rows = main
    by_pairing = {(r["agent"], r["opponent"]): r for r in rows}
    other_rows = [{(r["agent"], r["opponent"]): r for r in table} for _, table in others]
    head = ["agent", "vs", f"{heading}: wins [95 %]", f"seed's wins % ({SEED_GAMES} games)",
            "p against the seed's"]
    for other_heading, _ in others:
        head += [f"{other_heading}: wins [95 %]", "p against the first run"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for pairing in PAIRINGS:
        row = by_pairing.get(pairing)
        if row is None:
            continue
        ours = wins_of(row)
        seed_rate = SEED_TABLE_I[pairing]["wins"][0]
        seed = (round(seed_rate * SEED_GAMES / 100), SEED_GAMES)
        cells = [NAMES[pairing[0]], NAMES[pairing[1]], rate_cell(*ours), f"{seed_rate:.1f}",
                 f"{fisher(ours, seed):.2g}"]
        for other in other_rows:
            if pairing in other:
                theirs = wins_of(other[pairing])
                cells += [rate_cell(*theirs), f"{fisher(ours, theirs):.2g}"]
            else:
                cells += ["—", "—"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a tribes_table1 run")
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="another tribes_table1 run (repeatable; two columns each)")
    parser.add_argument("--out", type=Path, help="write the table here too")
    args = parser.parse_args(argv)
    try:
        text = against_table(load(args.run), [load(f) for f in args.against])
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    if args.out is not None:
        args.out.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
