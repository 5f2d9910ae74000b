"""GA-vs-GA Can't Stop matches per second on one core: paper rules, reference rules and,
when a checkout is given, the sketch-learning paper's reference code itself, in one run.

    python -m experiments.bench.cantstop_reference --matches 300 \\
        [--reference-src PATH/cant-stop-sketch-learning/src]

The reference code is not part of this repository (docs/cantstop-reference-rules.md
says how to get it); with ``--reference-src`` its ``game.Game`` and
``players.glenn_player.Glenn_Player`` are imported from there and played with the
match loop of its ``evaluation.Evaluation.play_match`` (busts before each decision,
a 300-decision cap). The three lines are measured in rotating order over
``--rounds`` rounds and the median rate is printed, so that the load of a shared
machine falls on all of them alike; the 1-minute load average is printed too.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from games import load_game
from games.cantstop import glenn_aloi_player
from games.match import play_matches


def _ours(rules: str, matches: int, seed: int) -> Callable[[], float]:
    game = load_game("cantstop", rules=rules)
    players = (glenn_aloi_player(), glenn_aloi_player())

    def rate() -> float:
        summary = play_matches(game, players, matches, seed)
        return summary.matches / summary.seconds
    return rate


def _reference(src: str, matches: int, seed: int) -> Callable[[], float]:
    sys.path.insert(0, src)
    game_module = importlib.import_module("game")
    glenn = importlib.import_module("players.glenn_player").Glenn_Player

    def one_match() -> None:
        game = game_module.Game(n_players=2, dice_number=4, dice_value=6, column_range=[2, 12],
                                offset=2, initial_height=3)
        players = {1: glenn(), 2: glenn()}
        moves = 0
        while True:
            if game.is_player_busted(game.available_moves()):
                continue
            game.play(players[game.player_turn].get_action(game))
            moves += 1
            if game.is_finished()[1] or moves >= 300:
                return

    def rate() -> float:
        random.seed(seed)  # the reference engine rolls with the global generator
        start = time.perf_counter()
        for _ in range(matches):
            one_match()
        return matches / (time.perf_counter() - start)
    return rate


def run(matches: int, rounds: int, seed: int, reference_src: str | None) -> None:
    lines = {"ours, rules=paper": _ours("paper", matches, seed),
             "ours, rules=reference": _ours("reference", matches, seed)}
    if reference_src:
        lines["reference code (a93feef)"] = _reference(reference_src, matches, seed)
    rates: dict[str, list[float]] = {name: [] for name in lines}
    loads = [os.getloadavg()[0]]
    names = list(lines)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            rates[name].append(lines[name]())
        loads.append(os.getloadavg()[0])
    print(f"Can't Stop GA vs GA, one core, {matches} matches x {rounds} rounds, seed {seed}, "
          f"Python {platform.python_version()}, {os.cpu_count()} cores, "
          f"1-min load average {min(loads):.1f}..{max(loads):.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"{'engine':<28} {'median m/s':>10} {'min':>7} {'max':>7}")
    for name, values in rates.items():
        print(f"{name:<28} {statistics.median(values):>10.1f} {min(values):>7.1f} "
              f"{max(values):>7.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference-src", default=None,
                        help="the reference checkout's cant-stop-sketch-learning/src")
    args = parser.parse_args(argv)
    run(args.matches, args.rounds, args.seed, args.reference_src)


if __name__ == "__main__":
    main()
