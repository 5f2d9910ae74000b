"""Can't Stop matches per second: single core and with the pool on all cores.

Run with ``make bench`` or ``stratsynth bench``. The reference implementation of
the sketch-learning paper is not part of this repository; its measured speed is cited, with its
date, in docs/benchmarks.md.
"""

from __future__ import annotations

import os
import platform

from games import load_game
from games.backends import PoolMap
from games.cantstop import RandomStrategy, glenn_aloi_player
from games.match import play_matches


def _rate(game, players, n, seed, backend=None) -> tuple[float, float]:
    summary = play_matches(game, players, n, seed, map=backend)
    return summary.matches / summary.seconds, summary.mean_moves


def run_bench(matches: int = 3000, seed: int = 0, workers: int = 0) -> None:
    game = load_game("cantstop")
    pairings = {
        "random vs random": (RandomStrategy(), RandomStrategy()),
        "GA vs GA": (glenn_aloi_player(), glenn_aloi_player()),
    }
    workers = workers or os.cpu_count() or 1
    print(f"Can't Stop match throughput ({matches} matches each, seed {seed}, "
          f"Python {platform.python_version()}, {os.cpu_count()} cores)")
    print(f"{'pairing':<18} {'1 core m/s':>11} {f'{workers} workers m/s':>15} "
          f"{'efficiency':>10} {'decisions/match':>15}")
    play_matches(game, pairings["GA vs GA"], 200, seed)  # warm-up
    with PoolMap(workers) as pool:
        play_matches(game, pairings["GA vs GA"], 4 * workers, seed, map=pool)  # start workers
        for name, players in pairings.items():
            serial, moves = _rate(game, players, matches, seed)
            parallel, _ = _rate(game, players, matches * workers, seed, pool)
            print(f"{name:<18} {serial:>11.0f} {parallel:>15.0f} "
                  f"{parallel / (serial * workers):>10.0%} {moves:>15.1f}")


if __name__ == "__main__":
    run_bench()
