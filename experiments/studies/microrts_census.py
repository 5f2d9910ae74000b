"""Economy and army of two microRTS players over a match: resources gathered and units
produced by each, counted at several cycle caps (the match is replayed up to each cap).

    python -m experiments.studies.microrts_census --map 64x64 \
        --p0 program:experiments/programs/microrts_coac_24x24.txt --p1 coac \
        --caps 500,1000,1500,2000,2500 --seat 0

Why: when a program loses, the totals at the end do not say whether it fell behind in
income or lost even fights; counts at fixed cycles do. ``--seat`` puts ``--p0`` in that
seat (0: the map's first start). COAC is not fully deterministic, so a replay up to a
later cap need not pass through the earlier counts exactly.
"""

from __future__ import annotations

import argparse
import sys

from experiments.players import make_player
from games.microrts.match import play_microrts_matches


def census(map_name: str, specs: tuple[str, str], caps: list[int], seat: int = 0,
           seed: int = 0) -> list[dict]:
    """One row per cap: cycle cap, winner by then (player index or None) and each
    player's counts (``resources`` and ``produced_<Type>``, zeros left out)."""
    rows = []
    for cap in caps:
        players = [make_player("microrts", spec) for spec in specs]
        # match k puts player 0 in seat k % 2: play 1 match for seat 0, 2 for seat 1
        summary = play_microrts_matches(map_name, players, 1 + seat, stats=True, seed=seed,
                                        max_cycles=cap)
        last = summary.per_match[-1]
        counts = [{key.removeprefix("produced_"): int(value)
                   for key, value in player.items() if value} for player in last["stats"]]
        rows.append({"cap": cap, "cycles": last["cycles"], "winner": last["winner"],
                     "counts": counts})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--map", default="64x64")
    p.add_argument("--p0", required=True, help="player spec (e.g. program:FILE)")
    p.add_argument("--p1", default="coac")
    p.add_argument("--caps", default="500,1000,1500,2000,2500")
    p.add_argument("--seat", type=int, choices=(0, 1), default=0, help="--p0's seat")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    try:
        caps = [int(c) for c in args.caps.split(",")]
    except ValueError:
        print(f"microrts_census: --caps: '{args.caps}' is not a list of integers",
              file=sys.stderr)
        return 2
    print(f"| cycle cap | {args.p0} | {args.p1} |\n|---|---|---|")
    for row in census(args.map, (args.p0, args.p1), caps, args.seat, args.seed):
        mine, theirs = (", ".join(f"{k} {v}" for k, v in c.items()) for c in row["counts"])
        ended = "" if row["cycles"] >= row["cap"] else f" (over at {row['cycles']})"
        print(f"| {row['cap']}{ended} | {mine} | {theirs} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
