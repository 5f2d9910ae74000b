"""Speed of DSL programs on the real microRTS engine, side by side with a Java bot.

For each map, matches against COAC of Java's WorkerRush and of each DSL program —
WorkerRush written in the DSL (``experiments/programs/microrts_workerrush.txt``) and
the committed synthesized programs (``experiments/programs/microrts_coac_*.txt``) —
are interleaved in one process (same JVM, same load), seats alternating. Each DSL
program plays under both match loops: ``python`` (the engine driven from Python,
five or six JVM calls per cycle) and ``java`` (``stratsynth.MatchRunner``: one JVM
call per cycle in which the program acts). Before timing a map, every side plays one
match from each seat there (the JVM compiles the engine's hot paths per map: the
first matches run several times slower). We report CPU seconds of the process (all
JVM threads included; fairer than wall time on a shared machine) per match and per
cycle, wall seconds per cycle, and each row's CPU per cycle over Java WorkerRush's.
Under the java loop we also report the player's own decision time per cycle (its
program and the translation of its orders, or the Java bot's getAction; COAC's
time and the engine's excluded) and its ratio to Java WorkerRush's.

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
from gp.languages.microrts import MicroRTSProgramPlayer

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
    print(f"{'map':<6} {'player vs COAC':<28} {'matches':>7} {'cpu s/match':>11} "
          f"{'cpu ms/cycle':>12} {'wall ms/cycle':>13} {'cycles':>7} {'wins':>5} "
          f"{'x Java WR':>9}")
    for map_name in maps:
        for player, loop in sides.values():  # per-map JIT warm-up
            for seats in ((player, coac), (coac, player)):
                play_microrts_match(map_name, seats, loop=loop)
        totals = {name: [0.0, 0.0, 0, 0, 0.0] for name in sides}  # cpu, wall, cycles, wins,
        # and the player's decision seconds
        for index in range(matches):
            order = seats_for(index)
            for name, (player, loop) in sides.items():
                seats = [player, coac] if order == (0, 1) else [coac, player]
                cpu, wall = time.process_time(), time.perf_counter()
                result = play_microrts_match(map_name, seats, loop=loop,
                                             seeds=(index, index, index))
                totals[name][0] += time.process_time() - cpu
                totals[name][1] += time.perf_counter() - wall
                totals[name][2] += result["cycles"]
                totals[name][3] += result["winner"] == order[0]
                if "decision_seconds" in result:
                    totals[name][4] += result["decision_seconds"][order.index(0)]
        java_cpu, _, java_cycles, _, java_decide = totals["Java WorkerRush"]
        java_per_cycle = java_cpu / max(java_cycles, 1)
        java_decide_per_cycle = java_decide / max(java_cycles, 1)
        for name, (cpu, wall, cycles, wins, decide) in totals.items():
            per_cycle = cpu / max(cycles, 1)
            decide_per_cycle = decide / max(cycles, 1)
            decide_cols = (f"{1000 * decide_per_cycle:>15.4f} "
                           f"{decide_per_cycle / java_decide_per_cycle:>9.2f}"
                           if sides[name][1] == "java" else f"{'—':>15} {'—':>9}")
            print(f"{map_name:<6} {name:<28} {matches:>7} {cpu / matches:>11.3f} "
                  f"{1000 * per_cycle:>12.3f} {1000 * wall / max(cycles, 1):>13.3f} "
                  f"{cycles / matches:>7.0f} {wins:>5} {per_cycle / java_per_cycle:>9.2f} "
                  f"{decide_cols}", flush=True)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    run_microrts_bench(count, tuple(sys.argv[2:]) or PAPER_MAPS)
