"""Speed of DSL programs on the real microRTS engine, side by side with a Java bot.

For each map, matches of a DSL program against COAC and of Java's WorkerRush
against COAC are interleaved in one process (same JVM, same load), seats
alternating; we report seconds per match and milliseconds per cycle. The DSL
program is WorkerRush written in the DSL (``experiments/programs/microrts_workerrush.txt``)
so the two sides play alike. Run with ``make bench`` or
``python -m experiments.bench.microrts [MATCHES] [MAP ...]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from games.match import seats_for
from games.microrts import MAPS, BotSpec
from games.microrts.match import play_microrts_match
from gp.languages.microrts import MicroRTSProgramPlayer

PROGRAM = Path(__file__).resolve().parents[1] / "programs" / "microrts_workerrush.txt"


def run_microrts_bench(matches: int = 4, maps=tuple(MAPS)) -> None:
    program = MicroRTSProgramPlayer(PROGRAM.read_text(), name="DSL WorkerRush")
    sides = {"DSL WorkerRush": program, "Java WorkerRush": BotSpec("workerrush")}
    coac = BotSpec("coac")
    play_microrts_match("16x16", (program, coac), max_cycles=200)  # JVM start and JIT warm-up
    print(f"{'map':<6} {'player vs COAC':<16} {'matches':>7} {'s/match':>8} {'ms/cycle':>9} "
          f"{'cycles':>7} {'wins':>5}")
    for map_name in maps:
        totals = {name: [0.0, 0, 0] for name in sides}  # seconds, cycles, wins
        for index in range(matches):
            for name, player in sides.items():
                order = seats_for(index)
                seats = [player, coac] if order == (0, 1) else [coac, player]
                started = time.perf_counter()
                result = play_microrts_match(map_name, seats)
                totals[name][0] += time.perf_counter() - started
                totals[name][1] += result["cycles"]
                totals[name][2] += result["winner"] == order[0]
        for name, (seconds, cycles, wins) in totals.items():
            print(f"{map_name:<6} {name:<16} {matches:>7} {seconds / matches:>8.3f} "
                  f"{1000 * seconds / max(cycles, 1):>9.3f} {cycles / matches:>7.0f} {wins:>5}")
        dsl, java = (totals[n] for n in sides)
        print(f"{map_name:<6} ratio DSL/Java: {dsl[0] / java[0]:.2f} per match, "
              f"{(dsl[0] / max(dsl[1], 1)) / (java[0] / max(java[1], 1)):.2f} per cycle")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    run_microrts_bench(count, tuple(sys.argv[2:]) or tuple(MAPS))
