"""Where a microRTS match's CPU time goes, per game cycle: a program player against COAC
beside Java's WorkerRush against COAC, in one process.

Per row (matches interleaved, seats alternating, after one warm-up match per seat):
CPU of the whole process, of the threads other than the match loop's (JIT compilers,
garbage collector, JPype's reference queue), and of the match loop's thread split into
the player's decisions (for a program run by the Python interpreter: the Python part,
the program itself, and the Java part, the translation of its orders into unit actions;
for a program run in Java or the Java bot: all of it is Java), COAC's decisions, and
the rest (the engine's cycles, the loop, JPype's crossings). Thread CPU clocks on both
sides (``games.microrts.match.use_cpu_clocks``).

    python -m experiments.bench.microrts_profile 32x32 8 microrts_coac_24x24.txt
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from games.microrts import BotSpec, program_bot
from games.microrts.match import play_microrts_match, use_cpu_clocks
from gp.languages.microrts import MicroRTSProgramPlayer

PROGRAMS = Path(__file__).resolve().parents[1] / "programs"


class _PythonClock:
    """Thread CPU time spent in ``ProgramBot.decide`` (the Python interpreter)."""

    seconds = 0.0

    def __init__(self) -> None:
        original = program_bot.ProgramBot.decide

        def decide(bot, player, rows):
            started = time.thread_time()
            try:
                return original(bot, player, rows)
            finally:
                _PythonClock.seconds += time.thread_time() - started

        program_bot.ProgramBot.decide = decide


def profile(map_name: str, matches: int, files: list[str]) -> None:
    use_cpu_clocks()
    _PythonClock()
    sides = {"Java WorkerRush": BotSpec("workerrush")}
    for file in files:
        text = (PROGRAMS / file).read_text() if not Path(file).is_file() else \
            Path(file).read_text()
        label = Path(file).stem.removeprefix("microrts_")
        for evaluator in MicroRTSProgramPlayer.EVALUATORS:
            sides[f"{label} [{evaluator}]"] = MicroRTSProgramPlayer(text, evaluator=evaluator)
    coac = BotSpec("coac")
    for side in sides.values():
        for seats in ((side, coac), (coac, side)):
            play_microrts_match(map_name, seats)
    totals = {name: dict.fromkeys(("cpu", "loop", "player", "python", "coac"), 0.0)
              | {"cycles": 0} for name in sides}
    for index in range(matches):
        seat = index % 2
        for name, side in sides.items():
            seats = (side, coac) if seat == 0 else (coac, side)
            _PythonClock.seconds = 0.0
            cpu, loop = time.process_time(), time.thread_time()
            result = play_microrts_match(map_name, seats, seeds=(index, index, index))
            row = totals[name]
            row["cpu"] += time.process_time() - cpu
            row["loop"] += time.thread_time() - loop
            row["cycles"] += result["cycles"]
            row["player"] += result["decision_seconds"][seat]
            row["coac"] += result["decision_seconds"][1 - seat]
            row["python"] += _PythonClock.seconds
    print(f"# CPU microseconds per cycle, {map_name}, {matches} matches per row vs COAC")
    print(f"{'player':<28} {'cycles':>7} {'process':>8} {'other':>7} {'loop':>7} "
          f"{'player':>7} {'(python':>8} {'java)':>7} {'COAC':>7} {'rest':>7}")
    for name, row in totals.items():
        n = max(row["cycles"], 1)

        def us(seconds: float, n: int = n) -> str:
            return f"{1e6 * seconds / n:7.1f}"
        print(f"{name:<28} {row['cycles'] / matches:>7.0f} {us(row['cpu'])} "
              f"{us(row['cpu'] - row['loop'])} {us(row['loop'])} {us(row['player'])} "
              f"{us(row['python'])} {us(row['player'] - row['python'])} {us(row['coac'])} "
              f"{us(row['loop'] - row['player'] - row['coac'])}", flush=True)


if __name__ == "__main__":
    profile(sys.argv[1], int(sys.argv[2]), sys.argv[3:] or ["microrts_coac_24x24.txt"])
