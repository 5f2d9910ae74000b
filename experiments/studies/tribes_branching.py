"""Branching factor in Tribes: raw legal actions against portfolio assignments (§V-A of
the play-styles paper).

The paper reports an average *turn* branching factor of 10^7 (early game) and 10^23
(end game) for plain MCTS, and 10^3 and 10^10 for Portfolio MCTS. A turn's branching
factor is the product, over the decisions a player takes in that turn, of the number of
choices at each decision. This study plays real games and, at every decision of either
player, counts the legal actions (what MCTS branches on) and the action assignments of
the 57 scripts (what P-MCTS branches on; also the distinct actions among them), on the
same states. Early game: each player's first 5 turns; end game: each player's last 5
turns of the game.

``--compare-pu N`` also replays every N-th decision state of the games with
P-MCTS(PU) under both unpruning schedules (the reference code's reading and the paper's
print), the same seed for both, and counts how often they choose the same action: the
two searches draw the same random numbers until the first unpruning that differs.

    python -m experiments.studies.tribes_branching --levels 0-9 \\
        --out experiments/results/tribes/branching_factor

Output: ``branching.md`` (tables and the command) and ``branching.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

from games.tribes import Tribes
from games.tribes.constants import ACTION_NAMES, END_TURN
from games.tribes.portfolio import assignments, default_weights
from games.tribes.qd import player
from games.tribes.rules import RULES_VERSION

from .tribes_table1 import parse_levels

EDGE_TURNS = 5


def play(level: int, players: tuple[str, str], seed: int, turn_limit: int,
         sample_every: int, by_type: dict) -> tuple[list[dict], list]:
    """One game: its turns (player, round, per-decision counts) and sampled states;
    ``by_type[name] = [legal actions, assignments]`` summed over its decisions."""
    seats = [player(players[0]), player(players[1])]
    rng = random.Random(seed * 1_000_003 + level)
    for seat, p in enumerate(seats):
        if hasattr(p, "reset"):
            p.reset(rng.getrandbits(63) ^ seat)
    state = Tribes(level=level, turn_limit=turn_limit).new_initial_state(
        random.Random(rng.getrandbits(64)))
    weights = default_weights()
    turns: list[dict] = []
    sampled = []
    decision = 0
    while not state.is_terminal():
        me = state.current_player()
        if not turns or turns[-1]["player"] != me or turns[-1]["ended"]:
            turns.append({"player": me, "round": state.turn, "raw": [], "assignments": [],
                          "distinct": [], "ended": False})
        raw = state.legal_actions()
        assigned = assignments(state, weights)
        turn = turns[-1]
        turn["raw"].append(len(raw))
        turn["assignments"].append(len(assigned))
        turn["distinct"].append(len({a for a, _, _ in assigned}))
        for actions, column in ((raw, 0), ([a for a, _, _ in assigned], 1)):
            for a in actions:
                by_type.setdefault(ACTION_NAMES[a[0]], [0, 0])[column] += 1
        if sample_every and decision % sample_every == 0:
            sampled.append(state.clone())
        decision += 1
        action = seats[me](state)
        turn["ended"] = action[0] == END_TURN
        state.apply_action(action)
    return turns, sampled


def log10_product(counts: list[int]) -> float:
    return sum(math.log10(c) for c in counts if c > 0)


def summarise(turns: list[dict]) -> dict:
    """Per phase (early, end, all): turns, decisions per turn, mean choices per decision
    and the turn branching factor (log10), as mean of log10 and log10 of the mean."""
    by_player: dict[tuple[int, int], list[dict]] = {}
    for t in turns:
        by_player.setdefault((t["game"], t["player"]), []).append(t)
    phases: dict[str, list[dict]] = {"early": [], "end": [], "all": []}
    for seq in by_player.values():
        phases["early"] += seq[:EDGE_TURNS]
        phases["end"] += seq[-EDGE_TURNS:]
        phases["all"] += seq
    out = {}
    for phase, group in phases.items():
        row = {"turns": len(group),
               "decisions_per_turn": statistics.mean(len(t["raw"]) for t in group)}
        for kind in ("raw", "assignments", "distinct"):
            logs = [log10_product(t[kind]) for t in group]
            row[kind] = {
                "per_decision": statistics.mean(c for t in group for c in t[kind]),
                "log10_turn_mean_of_logs": statistics.mean(logs),
                "log10_turn_mean": max(logs) + math.log10(
                    statistics.mean(10 ** (v - max(logs)) for v in logs)),
                "log10_turn_median": statistics.median(logs)}
        out[phase] = row
    return out


def compare_pu(states: list, budget: int, seed: int) -> dict:
    """Decisions of P-MCTS(PU) under both schedules on the same states and seeds."""
    from games.tribes.players import PortfolioMCTS

    same, seconds = 0, 0.0
    for i, state in enumerate(states):
        chosen = []
        for schedule in ("code", "printed"):
            agent = PortfolioMCTS(budget=budget, bias=True, pruning=True,
                                  unprune_schedule=schedule)
            agent.reset(seed + i)
            started = time.process_time()
            chosen.append(agent(state.clone()))
            seconds += time.process_time() - started
        same += chosen[0] == chosen[1]
    return {"states": len(states), "budget": budget, "same_action": same,
            "cpu_seconds": round(seconds, 1)}


def markdown(summary: dict, games: int, levels: list[int], players: tuple[str, str],
             command: str, pu: dict | None, by_type: dict, decisions: int) -> str:
    lines = ["# Branching factor: raw actions against portfolio assignments", "",
             f"`{command}`", "",
             f"{games} games ({players[0]} against {players[1]}, levels "
             f"{levels[0]}–{levels[-1]}, Tribes rules version {RULES_VERSION}); every "
             "decision of both players counted on the same states. Turn branching factor: "
             "the product of the choices over a player's decisions in one turn, given as "
             "log10 (mean of the per-turn log10; in brackets log10 of the mean factor, "
             "which the largest turns dominate). Early: each player's first "
             f"{EDGE_TURNS} turns; end: its last {EDGE_TURNS}.", "",
             "| phase | turns | decisions a turn | legal actions a decision | assignments "
             "a decision (distinct actions) | turn factor, MCTS (log10) | turn factor, "
             "P-MCTS (log10) | paper, MCTS | paper, P-MCTS |",
             "|---|---|---|---|---|---|---|---|---|"]
    paper = {"early": ("7", "3"), "end": ("23", "10"), "all": ("—", "—")}
    for phase in ("early", "end", "all"):
        r = summary[phase]
        raw, asg, dis = r["raw"], r["assignments"], r["distinct"]
        lines.append(
            f"| {phase} | {r['turns']} | {r['decisions_per_turn']:.1f} | "
            f"{raw['per_decision']:.1f} | {asg['per_decision']:.1f} "
            f"({dis['per_decision']:.1f}) | {raw['log10_turn_mean_of_logs']:.1f} "
            f"({raw['log10_turn_mean']:.1f}) | {asg['log10_turn_mean_of_logs']:.1f} "
            f"({asg['log10_turn_mean']:.1f}) | 10^{paper[phase][0]} | 10^{paper[phase][1]} |")
    lines += ["", "Per action type, mean count a decision over all decisions:", "",
              "| action type | legal actions | assignments |", "|---|---|---|"]
    for name, (raw, asg) in sorted(by_type.items(), key=lambda kv: -kv[1][0]):
        if raw or asg:
            lines.append(f"| {name} | {raw / decisions:.2f} | {asg / decisions:.2f} |")
    if pu:
        lines += ["", f"P-MCTS(PU) at {pu['budget']} calls on {pu['states']} of these "
                  "decision states, once with the reference code's unpruning schedule and "
                  "once with the paper's printed one, same seed: the same action in "
                  f"{pu['same_action']} of {pu['states']} ({pu['cpu_seconds']} CPU s)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="0-9")
    parser.add_argument("--players", default="simple,simple",
                        help="the two seats, Tribes player specs (e.g. pmcts-pu200,mcts200)")
    parser.add_argument("--turn-limit", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare-pu", type=int, default=0, metavar="N",
                        help="replay every N-th decision state with both PU schedules")
    parser.add_argument("--pu-budget", type=int, default=2000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    try:
        levels = parse_levels(args.levels)
        players = tuple(s.strip() for s in args.players.split(","))
        if len(players) != 2 or not levels:
            raise ValueError("--players needs two specs, --levels at least one level")
        for spec in players:
            player(spec)
    except ValueError as err:
        print(f"tribes_branching: {err}", file=sys.stderr)
        return 2
    turns, sampled, by_type = [], [], {}
    for g, level in enumerate(levels):
        game_turns, states = play(level, players, args.seed, args.turn_limit, args.compare_pu,
                                  by_type)
        for t in game_turns:
            t["game"] = g
        turns += game_turns
        sampled += states
        print(f"level {level}: {len(game_turns)} turns", file=sys.stderr, flush=True)
    summary = summarise(turns)
    pu = compare_pu(sampled, args.pu_budget, args.seed) if args.compare_pu else None
    command = "python -m experiments.studies.tribes_branching " + " ".join(
        sys.argv[1:] if argv is None else argv)
    decisions = sum(len(t["raw"]) for t in turns)
    text = markdown(summary, len(levels), levels, players, command.strip(), pu, by_type,
                    decisions)
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "branching.md").write_text(text)
        (out / "branching.json").write_text(json.dumps(
            {"summary": summary, "pu_schedules": pu, "by_type": by_type,
             "turns": [{k: t[k] for k in ("game", "player", "round", "raw", "assignments",
                                          "distinct")} for t in turns]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
