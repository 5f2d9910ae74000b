"""Speed of DSL programs on the real microRTS engine, side by side with a Java bot.

For each map, matches against COAC of Java's WorkerRush and of each DSL program —
WorkerRush written in the DSL (``experiments/programs/microrts_workerrush.txt``) and
the committed synthesized programs (``experiments/programs/microrts_coac_*.txt``) —
are interleaved in one process (same JVM, same load), seats alternating. Each DSL
program plays under both match loops: ``python`` (the engine driven from Python,
five or six JVM calls per cycle) and ``java`` (``stratsynth.MatchRunner``: one JVM
call per cycle in which the program acts). We report seconds per match,
milliseconds per cycle, and each row's ms/cycle over Java WorkerRush's.

Run with ``python -m experiments.bench.microrts [MATCHES] [MAP ...]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from games.match import seats_for
from games.microrts import BotSpec
from games.microrts.engine import PAPER_MAPS
from games.microrts.match import play_microrts_match
from gp.microrts_dsl import MicroRTSProgramPlayer

PROGRAMS = Path(__file__).resolve().parents[1] / "programs"
DSL_PROGRAMS = ("microrts_workerrush.txt", "microrts_coac_16x16.txt", "microrts_coac_24x24.txt")


def _sides() -> dict[str, tuple[object, str]]:
    sides: dict[str, tuple[object, str]] = {"Java WorkerRush": (BotSpec("workerrush"), "java")}
    for file in DSL_PROGRAMS:
        program = MicroRTSProgramPlayer((PROGRAMS / file).read_text(), name=file)
        label = file.removeprefix("microrts_").removesuffix(".txt")
        for loop in ("python", "java"):
            sides[f"{label} [{loop} loop]"] = (program, loop)
    return sides


def run_microrts_bench(matches: int = 4, maps=PAPER_MAPS) -> None:
    sides = _sides()
    coac = BotSpec("coac")
    warm = sides["Java WorkerRush"][0]
    play_microrts_match("16x16", (warm, coac), max_cycles=200)  # JVM start and JIT warm-up
    print(f"{'map':<6} {'player vs COAC':<28} {'matches':>7} {'s/match':>8} {'ms/cycle':>9} "
          f"{'cycles':>7} {'wins':>5} {'x Java WR':>9}")
    for map_name in maps:
        totals = {name: [0.0, 0, 0] for name in sides}  # seconds, cycles, wins
        for index in range(matches):
            order = seats_for(index)
            for name, (player, loop) in sides.items():
                seats = [player, coac] if order == (0, 1) else [coac, player]
                started = time.perf_counter()
                result = play_microrts_match(map_name, seats, loop=loop,
                                             seeds=(index, index, index))
                totals[name][0] += time.perf_counter() - started
                totals[name][1] += result["cycles"]
                totals[name][2] += result["winner"] == order[0]
        java_seconds, java_cycles, _ = totals["Java WorkerRush"]
        java_per_cycle = java_seconds / max(java_cycles, 1)
        for name, (seconds, cycles, wins) in totals.items():
            per_cycle = seconds / max(cycles, 1)
            print(f"{map_name:<6} {name:<28} {matches:>7} {seconds / matches:>8.3f} "
                  f"{1000 * per_cycle:>9.3f} {cycles / matches:>7.0f} {wins:>5} "
                  f"{per_cycle / java_per_cycle:>9.2f}", flush=True)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    run_microrts_bench(count, tuple(sys.argv[2:]) or PAPER_MAPS)
