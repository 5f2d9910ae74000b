"""How much the heuristic's connected-cities term changes the framework agents' play.

The framework's ``TribesDiffHeuristic.scoreOwn`` adds the signed change in the number of
cities connected to the capital (``connected_term="change"``); our players added +1 only
when that number grew (``"grew"``) until the option existed, and every Tribes table
before it was played that way. This study plays Table I games with the ``"grew"``
reading and, at every decision, asks a copy of the deciding player (same random state)
with the ``"change"`` reading for its action: the share of decisions that differ is the
term's effect on play, measured on the agents and budget of Table I under rules 4 (as
its games were played: ``--agent-details earlier``).

    python -m experiments.studies.tribes_heuristic_connected \\
        --pairings pmcts-pu:mcts,mcts:rhea --levels 0-1 --budget 2000 \\
        --out experiments/results/tribes/heuristic_connected_term_budget2000_rules_v4

Writes ``decisions.jsonl`` (one line a game, resumable) and ``report.md``.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

from experiments.studies.tribes_table1 import level_key, make, parse_levels
from games.tribes import Tribes
from games.tribes.players import Heuristic


def play_compared(first: str, second: str, level: int, budget: int, seed: int,
                  turn_limit: int = 50, shadow_term: str = "change") -> dict:
    """One game of ``first`` (seat 0) against ``second`` under rules 4 on the framework's
    level ``level``, played with the ``"grew"`` reading; every decision is asked again of
    a copy with ``shadow_term``. Returns the counts per agent."""
    rng = random.Random(seed)
    state = Tribes(level=level_key(level, 4), turn_limit=turn_limit,
                   rules=4).new_initial_state(random.Random(rng.getrandbits(64)))
    seats = [make(name, budget, "framework", "grew", "earlier") for name in (first, second)]
    for seat, agent in enumerate(seats):
        agent.reset(rng.getrandbits(63) ^ seat)
    counts = {name: {"decisions": 0, "differ": 0} for name in (first, second)}
    names = (first, second)
    while not state.is_terminal():
        p = state.current_player()
        shadow = copy.deepcopy(seats[p])
        shadow.heuristic = Heuristic(connected_term=shadow_term)
        other = shadow(state.clone())
        action = seats[p](state)
        counts[names[p]]["decisions"] += 1
        counts[names[p]]["differ"] += other != action
        state.apply_action(action)
    return {"agents": [first, second], "level": level, "budget": budget, "seed": seed,
            "rounds": state.turn, "counts": counts}


def report(rows: list[dict]) -> str:
    totals: dict[str, list[int]] = {}
    for row in rows:
        for name, c in row["counts"].items():
            t = totals.setdefault(name, [0, 0])
            t[0] += c["decisions"]
            t[1] += c["differ"]
    lines = ["# The heuristic's connected-cities term: decisions changed", "",
             "Games played with the `grew` reading (+1 when the number of cities connected",
             "to the capital grew); at every decision a copy of the deciding agent (same",
             "random state) with the framework's `change` reading (the signed change in that",
             "number) was asked too. Rules 4, the framework's levels, agents as the",
             "framework's code plays them.", "",
             "| game | level | rounds | decisions differing |", "|---|---|---|---|"]
    for row in rows:
        parts = ", ".join(f"{n} {c['differ']} of {c['decisions']}"
                          for n, c in row["counts"].items())
        lines.append(f"| {' vs '.join(row['agents'])} | java:{row['level']} | "
                     f"{row['rounds']} | {parts} |")
    lines += ["", "| agent | decisions | differing | share |", "|---|---|---|---|"]
    for name, (n, d) in sorted(totals.items()):
        lines.append(f"| {name} | {n} | {d} | {100 * d / n:.2f} % |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairings", default="pmcts-pu:mcts,mcts:rhea")
    ap.add_argument("--levels", default="0-1")
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=None)
    ap.add_argument("--out", type=Path,
                    default=Path("experiments/results/tribes/"
                                 "heuristic_connected_term_budget2000_rules_v4"))
    args = ap.parse_args(argv)
    try:
        pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
        levels = parse_levels(args.levels)
        for first, second in pairings:
            make(first, args.budget, "framework"), make(second, args.budget, "framework")
    except ValueError as err:
        print(f"--pairings/--levels: {err}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "decisions.jsonl"
    rows = [json.loads(line) for line in path.open()] if path.exists() else []
    done = {(tuple(r["agents"]), r["level"], r["budget"]) for r in rows}
    started = time.perf_counter()
    with path.open("a") as fh:
        for level in levels:
            for first, second in pairings:
                if ((first, second), level, args.budget) in done:
                    continue
                if args.max_seconds is not None and \
                        time.perf_counter() - started > args.max_seconds:
                    print("time limit reached; rerun the command to continue")
                    (args.out / "report.md").write_text(report(rows))
                    return 0
                row = play_compared(first, second, level, args.budget,
                                    args.seed * 1_000_003 + level)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                rows.append(row)
                print(json.dumps(row["counts"]), flush=True)
    (args.out / "report.md").write_text(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
