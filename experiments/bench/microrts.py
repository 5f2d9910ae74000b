"""CPU cost per game cycle of the committed synthesized microRTS programs, beside a
Java WorkerRush measured in the same process, for this tree and an older one.

For each map, one child process per tree (the older one first, from ``git archive``),
the two in turn map by map so that the shared machine's load hits both alike. In a
child, matches against COAC of Java's WorkerRush and of each program are interleaved
(same JVM, same load), seats alternating, engine seeded per match; before timing,
every side plays one match from each seat on the map (the JVM compiles the engine's
hot paths per map: first matches run several times slower). In this tree every
program plays three times: Python interpreter with the engine's A*
(``AStarPathFinding``), Python interpreter with our ``GridPathFinding`` (same
results), and ``stratsynth.ProgramInterpreter`` in Java (same orders) with
``GridPathFinding``, the default; ``tests/test_microrts_speed.py`` checks both claims.

Per row: CPU seconds of the whole process (all JVM threads: the engine, both players,
the JIT compilers, the garbage collector) per cycle, and its ratio to Java
WorkerRush's in the same child; and the player's own decision CPU time per cycle
(its program and the translation of its orders into unit actions, or the Java bot's
``getAction``; thread CPU clocks, this tree only) and its ratio to WorkerRush's.
A program that plays differently makes COAC play differently (more units, longer
matches, more path finding), so the first ratio mixes the program's cost with COAC's;
the second isolates the program's.

    python -m experiments.bench.microrts                 # 8 matches per row, 4 maps
    python -m experiments.bench.microrts 8 --maps 24x24 32x32 --baseline none
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .revisions import ROOT, extract

PROGRAMS = ROOT / "experiments" / "programs"
BASELINE = "43de670"
"""The commit before the speed work (engine A*, the earlier interpreter)."""
MAPS = ("16x16", "24x24", "32x32", "64x64")

CHILD = """
import json, sys, time
from pathlib import Path
from games.microrts import BotSpec
from games.microrts.match import play_microrts_match
from gp.languages.microrts import MicroRTSProgramPlayer
import games.microrts.match as match

map_name, matches, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
cpu_clocks = hasattr(match, "use_cpu_clocks")
if cpu_clocks:
    match.use_cpu_clocks()


class Variant:
    def __init__(self, text, evaluator, finder):
        self.player = MicroRTSProgramPlayer(text, evaluator=evaluator)
        self.finder = finder

    def build(self, utt):
        bot = self.player.build(utt)
        (bot.ai if hasattr(bot, "ai") else bot).usePathFinding(self.finder)
        return bot


sides = {"Java WorkerRush": BotSpec("workerrush")}
for file in files:
    text = Path(file).read_text()
    label = Path(file).stem.removeprefix("microrts_")
    if cpu_clocks:
        for evaluator, finder in (("python", "engine"), ("python", "grid"), ("java", "grid")):
            sides[label + " [" + evaluator + ", " + finder + " A*]"] = Variant(text, evaluator,
                                                                              finder)
    else:
        sides[label] = MicroRTSProgramPlayer(text, name=Path(file).name)
coac = BotSpec("coac")
for side in sides.values():
    for seats in ((side, coac), (coac, side)):
        play_microrts_match(map_name, seats)
rows = {name: {"cpu": 0.0, "cycles": 0, "wins": 0, "decide": 0.0} for name in sides}
for index in range(matches):
    seat = index % 2
    for name, side in sides.items():
        seats = (side, coac) if seat == 0 else (coac, side)
        started = time.process_time()
        result = play_microrts_match(map_name, seats, seeds=(index, index, index))
        row = rows[name]
        row["cpu"] += time.process_time() - started
        row["cycles"] += result["cycles"]
        row["wins"] += result["winner"] == seat
        row["decide"] += result["decision_seconds"][seat] if cpu_clocks else float("nan")
print(json.dumps(rows))
"""


def measure(tree: Path, map_name: str, matches: int, files: list[Path]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, map_name, str(matches),
                           *map(str, files)], cwd=tree, env=env, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench child in {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(map_name: str, tree: str, rows: dict, matches: int) -> list[str]:
    java = rows["Java WorkerRush"]
    java_cpu = java["cpu"] / java["cycles"]
    java_decide = java["decide"] / java["cycles"]
    out = []
    for name, row in rows.items():
        cycles = max(row["cycles"], 1)
        cpu, decide = row["cpu"] / cycles, row["decide"] / cycles
        decide_cols = (f"{1000 * decide:>10.4f} {decide / java_decide:>9.2f}"
                       if decide == decide else f"{'—':>10} {'—':>9}")  # nan: not measured
        out.append(f"{map_name:<6} {tree:<4} {name:<44} {matches:>7} {1000 * cpu:>12.4f} "
                   f"{cpu / java_cpu:>9.2f} {decide_cols} {row['cycles'] / matches:>7.0f} "
                   f"{row['wins']:>5}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", nargs="?", type=int, default=8,
                        help="matches per row (seats alternating)")
    parser.add_argument("--maps", nargs="+", default=list(MAPS))
    parser.add_argument("--baseline", default=BASELINE,
                        help="git revision to compare with ('none': this tree only)")
    parser.add_argument("--programs", nargs="+", type=Path,
                        default=sorted(PROGRAMS.glob("microrts_coac_*.txt")),
                        help="program files (default: the committed synthesized programs)")
    args = parser.parse_args(argv)
    files = [path.resolve() for path in args.programs]
    print(f"# load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"old = {args.baseline}, new = this tree", flush=True)
    print(f"{'map':<6} {'tree':<4} {'player vs COAC':<44} {'matches':>7} {'cpu ms/cycle':>12} "
          f"{'x Java WR':>9} {'decide ms':>10} {'x Java WR':>9} {'cycles':>7} {'wins':>5}",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = None if args.baseline == "none" else extract(args.baseline, Path(tmp) / "old")
        for map_name in args.maps:
            for label, tree in (("old", old_tree), ("new", ROOT)):
                if tree is not None:
                    rows = measure(tree, map_name, args.matches, files)
                    print("\n".join(table(map_name, label, rows, args.matches)), flush=True)
    print(f"# load average at end {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
