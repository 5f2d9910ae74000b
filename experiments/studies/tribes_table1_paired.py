"""Two Table I runs compared game by game: an agent's games in one run against another
agent's games in another run, from the same seeds.

    python -m experiments.studies.tribes_table1_paired \\
        experiments/results/tribes/table1_budget2000_rules_v3_printed_pu \\
        --against experiments/results/tribes/table1_budget2000_rules_v3 \\
        --pair pmcts-pu-printed=pmcts-pu \\
        --out experiments/results/tribes/table1_budget2000_rules_v3_printed_pu/paired.md

A ``tribes_table1`` game's seeds depend only on its level and repetition (and the
run's ``--seed``), so the game of ``A`` against an opponent at level L, repetition r
and the game of ``B`` against the same opponent at the same L and r start from the
same level and seat and differ by the first agent alone. Pairing them removes the
level-to-level spread from the comparison: McNemar's exact test counts only the
pairs one agent won and the other lost. Games without a counterpart are counted and
left out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from scipy.stats import binomtest

from experiments.studies.tribes_table1 import NAMES, rules_version


def games(folder: Path) -> list[dict]:
    """A ``tribes_table1`` run's games (its ``games.jsonl``)."""
    path = folder / "games.jsonl"
    if not path.is_file():
        raise ValueError(f"{folder}: no games.jsonl (not a tribes_table1 run)")
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: line {number}: not JSON ({err.msg})") from None
        if not isinstance(row, dict) or not {"agents", "level", "rep", "log"} <= set(row):
            raise ValueError(f"{path}: line {number}: not a Table I game (needs agents, "
                             "level, rep, log)")
        rows.append(row)
    return rows


def _by_seed(rows: list[dict], first: str) -> dict[tuple, dict]:
    return {(r["agents"][1], r["level"], r["rep"]): r for r in rows
            if r["agents"][0] == first}


def _setting(row: dict) -> tuple:
    return (rules_version(row), row.get("budget"), row.get("agent_setting", "ours"))


def _won(row: dict) -> bool:
    return row["log"]["winner"] == row["seat"]


def paired(rows: list[dict], other: list[dict], first: str, second: str) -> list[dict]:
    """Per opponent: ``first``'s games in ``rows`` against ``second``'s in ``other``,
    paired by opponent, level and repetition."""
    mine, theirs = _by_seed(rows, first), _by_seed(other, second)
    out = []
    for opponent in sorted({key[0] for key in mine}):
        keys = sorted(k for k in mine if k[0] == opponent and k in theirs)
        unpaired = sum(1 for k in mine if k[0] == opponent and k not in theirs)
        for k in keys:
            if _setting(mine[k]) != _setting(theirs[k]):
                raise ValueError(f"{first} and {second} against {opponent}, level {k[1]} "
                                 f"rep {k[2]}: played under different settings (rules "
                                 "version, budget, agents): not the same game")
        a = [_won(mine[k]) for k in keys]
        b = [_won(theirs[k]) for k in keys]
        only_a = sum(x and not y for x, y in zip(a, b))
        only_b = sum(y and not x for x, y in zip(a, b))
        discordant = only_a + only_b
        out.append({
            "agent": first, "against": second, "opponent": opponent, "games": len(keys),
            "unpaired": unpaired, "wins": sum(a), "other_wins": sum(b),
            "both": sum(x and y for x, y in zip(a, b)), "only_agent": only_a,
            "only_other": only_b,
            "p": binomtest(only_a, discordant).pvalue if discordant else 1.0,
            "same_games": sum(mine[k]["log"] == theirs[k]["log"] for k in keys),
            "median_rounds": (statistics.median(mine[k]["log"]["rounds"] for k in keys)
                              if keys else None),
            "other_median_rounds": (statistics.median(theirs[k]["log"]["rounds"]
                                                      for k in keys) if keys else None)})
    return out


def _share(count: int, games: int) -> str:
    return f"{count} ({100 * count / games:.0f}%)" if games else str(count)


def markdown(table: list[dict]) -> str:
    head = ["agent", "against", "vs", "paired games", "wins", "other's wins", "both won",
            "only agent", "only other", "McNemar p (two-sided)", "median rounds",
            "same game", "unpaired"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in table:
        rounds = ("—" if r["median_rounds"] is None
                  else f"{r['median_rounds']:g} / {r['other_median_rounds']:g}")
        lines.append(
            f"| {NAMES.get(r['agent'], r['agent'])} | {NAMES.get(r['against'], r['against'])} "
            f"| {NAMES.get(r['opponent'], r['opponent'])} | {r['games']} | "
            f"{_share(r['wins'], r['games'])} | {_share(r['other_wins'], r['games'])} | "
            f"{r['both']} | {r['only_agent']} | {r['only_other']} | {r['p']:.3g} | "
            f"{rounds} | {r['same_games']} | {r['unpaired']} |")
    return "\n".join(lines) + "\n"


def _pair(text: str) -> tuple[str, str]:
    first, sep, second = text.partition("=")
    if not sep or not first or not second:
        raise argparse.ArgumentTypeError(f"'{text}': expected AGENT=OTHER_AGENT")
    return first, second


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="the tribes_table1 run of the agent")
    parser.add_argument("--against", type=Path, required=True,
                        help="the tribes_table1 run of the other agent (may be the same run)")
    parser.add_argument("--pair", type=_pair, action="append", required=True,
                        help="AGENT=OTHER_AGENT: the run's first agent and its counterpart "
                        "in --against (repeatable)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the table here (default: print it)")
    args = parser.parse_args(argv)
    try:
        rows, other = games(args.run), games(args.against)
        table = [row for first, second in args.pair
                 for row in paired(rows, other, first, second)]
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    if not table:
        print(f"{args.run}: no game of {', '.join(a for a, _ in args.pair)}", file=sys.stderr)
        return 2
    text = markdown(table)
    if args.out is None:
        print(text, end="")
    else:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
