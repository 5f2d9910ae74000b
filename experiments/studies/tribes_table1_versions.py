"""Table I runs side by side, as the README shows them: one run beside the seed's,
measure by measure, then a column per other run (another rule set or agent setting).

    python -m experiments.studies.tribes_table1_versions \\
        experiments/results/tribes/table1_budget2000_rules_v3 \\
        --beside experiments/results/tribes/table1_budget2000_rules_v4_framework_agents \\
        --beside experiments/results/tribes/table1_budget2000_rules_v4_framework_mcts

Each folder is a ``tribes_table1`` run; its ``table1.json`` is read (rewritten after every
game, so the columns follow a run in progress) and its first game says its rules
version and agent setting, which head its column. A column's cell is the first agent's
wins % / score / techs % / cities / production [games], standard errors in brackets from
two games on; "—" where the run has no game of that row yet.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from experiments.studies.tribes_table1 import PAIRINGS, beside_seed, rules_version

SETTING = {"ours": "our agents", "framework": "framework's agents",
           "framework-mcts": "framework's MCTS, our P-MCTS"}
"""A column's heading by the run's agent setting (``tribes_table1 --agents``)."""


def _read(path: Path, text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None


def load(folder: Path) -> tuple[str, list[dict]]:
    """A run's heading (rules version and agent setting, from its first game) and its
    ``table1.json``."""
    path = folder / "table1.json"
    games = folder / "games.jsonl"
    if not path.is_file() or not games.is_file():
        raise ValueError(f"{folder}: no table1.json and games.jsonl (not a tribes_table1 "
                         "run, or no game yet)")
    with games.open() as f:
        first = _read(games, f.readline() or "{}")
    setting = first.get("agent_setting", "ours")
    if setting not in SETTING:
        raise ValueError(f"{games}: line 1: agent_setting '{setting}' is none of "
                         f"{', '.join(SETTING)}")
    heading = f"v{rules_version(first)}, {SETTING[setting]}"
    return heading, _read(path, path.read_text())


MEASURES = "wins % / score / techs % / cities / production [games]"
"""What a column's cell holds, in order (standard errors in brackets, from two games on)."""


def cell(row: dict | None) -> str:
    if row is None:
        return "—"

    def se(name: str, digits: int) -> str:  # none of one game
        return f" ({row[name + '_se']:.{digits}f})" if row["games"] > 1 else ""
    return (f"{row['wins']:.1f}{se('wins', 1)} / {row['score']:.0f}{se('score', 0)} / "
            f"{row['techs']:.0f} / {row['cities']:.2f}{se('cities', 2)} / "
            f"{row['production']:.1f}{se('production', 1)} [{row['games']}]")


def versions_table(main: list[dict], beside: list[tuple[str, list[dict]]]) -> str:
    """``main``'s rows beside the seed's (``beside_seed``) with a cell per other run
    (given as its heading and rows)."""
    rows = {(r["agent"], r["opponent"]): r for r in main}
    ordered = [rows[p] for p in PAIRINGS if p in rows]
    lines = beside_seed(ordered).splitlines()
    by_run = [{(r["agent"], r["opponent"]): r for r in table} for _, table in beside]
    lines[0] += "".join(f" {heading}: {MEASURES} |"
                        for heading, _ in beside)
    lines[1] += " --- |" * len(beside)
    for i, r in enumerate(ordered):
        key = (r["agent"], r["opponent"])
        lines[i + 2] += "".join(f" {cell(run.get(key))} |" for run in by_run)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("main", type=Path, help="the tribes_table1 run beside the seed's")
    parser.add_argument("--beside", type=Path, action="append", default=[],
                        help="another tribes_table1 run (repeatable; a column each)")
    args = parser.parse_args(argv)
    try:
        text = versions_table(load(args.main)[1], [load(f) for f in args.beside])
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
