"""Tribes decision time at 2,000 forward-model calls, an older commit beside this tree.

Both versions run the same child program in fresh processes, alternating old and new
for ``--rounds`` rounds (so a change in the shared machine's load hits both alike):
one decision of each player spec on each mid-game state of
``experiments.bench.tribes.mid_game_states`` (levels 0..9 played by ``simple`` to
round 20), CPU time per decision (``time.process_time``), and the actions chosen,
which must be the same in both versions (a speed-up must not change play).

    python -m experiments.bench.tribes_decisions                  # against BASELINE
    python -m experiments.bench.tribes_decisions --baseline HEAD~3 --rounds 5
    python -m experiments.bench.tribes_decisions --new SPEEDUP    # two commits
    python -m experiments.bench.tribes_decisions --rules 4 --baseline HEAD~1 \
        --specs mcts-fw,rhea,pmcts                                # the framework's game

Only versions with the same rules play the same actions: ``--new SPEEDUP`` (the
speed-ups without the later rule fixes) isolates the speed of the code.

``--rules-cost`` measures what rules version 4 costs a player: this tree only, the same
framework levels (``java:0``..``java:9``) played by ``simple`` to round 20 under rules
3 and under rules 4 (the states differ, as the rules change the games), alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .revisions import ROOT, extract

BASELINE = "43de670"
"""The commit before each unit's legal actions were carried from state to state (rules
version 2; today's tree plays version 3, whose actions differ, so compare two commits of
one rules version with ``--new``). Earlier comparisons: 9ec2dbc, the commit before the
first decision speed-ups, against ``SPEEDUP``."""
SPEEDUP = "577ef4e"
"""The first decision speed-ups, before the rule fixes that change play."""

SPECS = ("mcts", "rhea", "pmcts", "pmcts-b", "pmcts-pu")

CHILD = """
import json, sys, time
from experiments.bench.tribes import mid_game_states
from games.tribes import PLAYERS
rules = int(sys.argv[2])
if len(sys.argv) > 3:  # the framework's levels under either rules version
    states = mid_game_states(rules=rules, java=True)
else:
    states = mid_game_states(rules=rules) if rules != 3 else mid_game_states()  # older trees
out = {"legal": sum(len(s.legal_actions()) for s in states) / len(states)}
for spec in sys.argv[1].split(","):
    player = PLAYERS[spec]()
    player.reset(0)
    started = time.process_time()
    actions = [list(player(state)) for state in states]
    out[spec] = {"ms": (time.process_time() - started) / len(states) * 1000,
                 "actions": actions}
print(json.dumps(out))
"""


def measure(tree: Path, specs: tuple[str, ...], rules: int = 3, java: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, ",".join(specs), str(rules)]
                          + (["java"] if java else []), cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def rules_cost(specs: tuple[str, ...], rounds: int) -> None:
    """Each player's decision time under rules 3 and 4 on the framework's levels, this
    tree, alternating."""
    times: dict[int, dict[str, list[float]]] = {3: {}, 4: {}}
    legal: dict[int, float] = {}
    for _ in range(rounds):
        for rules in (3, 4):
            result = measure(ROOT, specs, rules, java=True)
            legal[rules] = result["legal"]
            for spec in specs:
                times[rules].setdefault(spec, []).append(result[spec]["ms"])
    print(f"Tribes CPU ms per decision at 2,000 calls on the framework's levels java:0..9 "
          f"at round 20, rules 3 against rules 4, this tree, {rounds} alternating rounds, "
          f"medians (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); legal "
          f"actions per state {legal[3]:.0f} and {legal[4]:.0f}")
    print(f"  {'player':<10} {'rules 3':>8} {'rules 4':>8} {'cost':>7}")
    for spec in specs:
        v3, v4 = (statistics.median(times[r][spec]) for r in (3, 4))
        print(f"  {spec:<10} {v3:>8.1f} {v4:>8.1f} {v4 / v3:>6.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="git revision to compare with")
    parser.add_argument("--new", default=None,
                        help="git revision to measure (default: this working tree)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--specs", default=",".join(SPECS))
    parser.add_argument("--rules", type=int, default=3,
                        help="rules version of the states (4: the framework's levels)")
    parser.add_argument("--rules-cost", action="store_true",
                        help="this tree under rules 3 and rules 4 on the framework's levels")
    args = parser.parse_args(argv)
    specs = tuple(args.specs.split(","))
    if args.rules_cost:
        rules_cost(specs, args.rounds)
        return 0
    times: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = extract(args.baseline, Path(tmp) / "old")
        new_tree = ROOT if args.new is None else extract(args.new, Path(tmp) / "new")
        for _ in range(args.rounds):
            for label, tree in (("old", old_tree), ("new", new_tree)):
                result = measure(tree, specs, args.rules)
                for spec in specs:
                    times[label].setdefault(spec, []).append(result[spec]["ms"])
                    actions = result[spec]["actions"]
                    times[label].setdefault(spec + ":actions", []).append(actions)
    print(f"Tribes CPU ms per decision at 2,000 calls, rules {args.rules}, {args.rounds} "
          f"alternating rounds, "
          f"medians (old = {args.baseline}, new = {args.new or 'this tree'}; load "
          f"{os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")
    print(f"  {'player':<10} {'old ms':>8} {'new ms':>8} {'speed-up':>9}  same actions")
    for spec in specs:
        old, new = (statistics.median(times[k][spec]) for k in ("old", "new"))
        same = all(a == times["old"][spec + ":actions"][0]
                   for k in ("old", "new") for a in times[k][spec + ":actions"])
        print(f"  {spec:<10} {old:>8.1f} {new:>8.1f} {old / new:>8.2f}x  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
