"""Expendibots alpha-beta speed: the copy-per-node search against the make/undo search,
then each speed-up added in turn, on the same early- and mid-game positions.

    PYTHONPATH=. python -m experiments.bench.expendibots [--depth 3] [--out FILE]

Positions come from depth-2 games between the Expendibots report's hand weights (4 random opening
plies, seeded; early plies 0-9, mid 10-59, late 60-149), so they have the stacks real
games have. Each configuration makes a decision at every position; the table gives
nodes, decisions' mean and max seconds and nodes per CPU second on one core. Every
configuration but the late-game ordering must return the copy search's move and value
(checked here too).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from games.expendibots.players import (
    HAND_WEIGHTS_BLACK,
    HAND_WEIGHTS_WHITE,
    CopyAlphaBeta,
    linear_evaluation,
)
from games.expendibots.rules import Expendibots
from games.expendibots.search import FastAlphaBeta, SearchOptions

CONFIGS = [
    ("make/undo only", SearchOptions(tt=False, killers=False, dedup_booms=False,
                                     track_leaf=False)),
    ("+ one BOOM per cluster", SearchOptions(tt=False, killers=False, track_leaf=False)),
    ("+ transposition table", SearchOptions(tt=True, killers=False, track_leaf=False)),
    ("+ killer moves (default)", SearchOptions(tt=True, killers=True, track_leaf=False)),
    ("+ history ordering", SearchOptions(tt=True, killers=True, history=True,
                                         track_leaf=False)),
    ("default + the report's late-game ordering*", SearchOptions(endgame_ordering=True,
                                                              track_leaf=False)),
]
NOTE = ("*the report's agent: with <= 5 stacks on the board, whole stacks first and only "
        "every second distance, a smaller tree (its move may differ from minimax's).")


def sample_positions(games: int, seed: int) -> dict[str, list]:
    """Early (plies 0-9), mid-game (10-59) and late (60-149) positions of hand-weights
    games (every third ply; every ninth in the late game)."""
    game = Expendibots(opening_plies=4)
    searches = (FastAlphaBeta(linear_evaluation(HAND_WEIGHTS_WHITE), 2),
                FastAlphaBeta(linear_evaluation(HAND_WEIGHTS_BLACK), 2))
    phases: dict[str, list] = {"early": [], "mid": [], "late": []}
    for g in range(games):
        state = game.new_initial_state(random.Random(seed * 1000 + g))
        while not state.is_terminal() and state.turns < 150:
            phase = "early" if state.turns < 10 else ("mid" if state.turns < 60 else "late")
            if state.turns % (9 if phase == "late" else 3) == g % 3:
                phases[phase].append(state.clone())
            state.apply_action(searches[state.player].choose(state)[0])
    return phases


def measure(make_search, positions) -> dict:
    nodes, times, decisions = 0, [], []
    for state in positions:
        search = make_search()
        start = time.process_time()  # CPU seconds: the machine may be shared
        action, value, _ = search.choose(state)
        times.append(time.process_time() - start)
        nodes += search.nodes
        decisions.append((action, value))
    total = sum(times)
    return {"nodes": nodes, "mean": total / len(times), "max": max(times),
            "nps": nodes / total, "decisions": decisions}


def run(depth: int = 3, games: int = 4, seed: int = 0, out: str | None = None) -> str:
    evaluation = linear_evaluation(HAND_WEIGHTS_WHITE)
    phases = sample_positions(games, seed)
    lines = [f"# Expendibots alpha-beta speed, depth {depth}", "",
             f"`PYTHONPATH=. python -m experiments.bench.expendibots --depth {depth} "
             f"--games {games} --seed {seed}`", "",
             "One core, CPU seconds of this process; decisions at positions of depth-2 "
             "hand-weights games "
             "(early: plies 0-9, mid: 10-59, late: 60-149).", ""]
    for phase, positions in phases.items():
        lines += [f"## {phase} game ({len(positions)} positions)", "",
                  "| search | nodes | mean s/decision | max s | nodes/s | same move+value |",
                  "|---|---|---|---|---|---|"]
        base = measure(lambda: CopyAlphaBeta(evaluation, depth), positions)
        lines.append(f"| copy per node (old) | {base['nodes']} | {base['mean']:.3f} | "
                     f"{base['max']:.3f} | {base['nps']:,.0f} | — |")
        for name, options in CONFIGS:
            row = measure(lambda o=options: FastAlphaBeta(evaluation, depth, o), positions)
            same = row["decisions"] == base["decisions"]
            verdict = "yes" if same else ("no (a different tree)" if options.endgame_ordering
                                          else "NO")
            lines.append(f"| {name} | {row['nodes']} | {row['mean']:.3f} | {row['max']:.3f} | "
                         f"{row['nps']:,.0f} | {verdict} |")
        lines.append("")
    lines.append(NOTE)
    text = "\n".join(lines)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text + "\n")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    print(run(args.depth, args.games, args.seed, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
