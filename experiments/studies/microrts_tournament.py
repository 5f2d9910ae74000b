"""The tournament of Aleixo (2023) on microRTS: HSS-IBR, HSS-FP, SA-IBR and SA-FP, several seeds,
in a round robin with COAC, Mayari, the four rushes and RandomBiased.

    python -m experiments.studies.microrts_tournament --seeds 1-3 --max-seconds 3600

``--methods`` chooses other pairs of oracle and driver (``ORACLES`` × ``DRIVERS``, e.g.
``HSS-IBR,HSS-FP,HSS-DO,HSS-2L``: every self-play driver with the same oracle) and
``--max-matches`` gives every run the same budget in matches (the matches its
best-response searches play), whatever its driver: the drivers' comparison of the 2L
paper.

The dissertation's own settings: HSS's level 2 is Sketch-SA (the default of new runs;
``--hss-local-search sa`` for plain SA, which the committed runs used and continue
with) and ``--one-start`` is its microRTS Ψ, one match per evaluation from one start
position, seed s synthesizing for side s mod 2 (separate runs per side):

    python -m experiments.studies.microrts_tournament --seeds 1-4 --iterations 8 \
        --evaluations 448 --one-start --hss-local-search sketch-sa \
        --out experiments/results/microrts/tournament-24x24-original-8x448-dissertation

Stage 1 runs ``stratsynth selfplay`` for every method and seed (each from a random
program, K oracle calls of E evaluations, an evaluation being ``--matches`` matches,
one per start; FP's mixture stratified by default: that many matches against
each member), one oracle call at a time, so that ``--max-seconds`` stops between
calls and the next run of the same command continues (the self-play runs resume from
their ``sequence.json`` and HSS library). Stage 2, once every run has its last
program, is ``stratsynth tournament`` among the 4 × seeds programs and the 7 bots,
``--tournament-matches`` per pairing (seats alternating), continued from its
``pairs.jsonl`` after a kill. ``methods.md`` then ranks the four methods: each
method's score is the mean over its seeds of its program's mean score per game, with a
95% t-interval over the seeds (the spread between independent syntheses, the
uncertainty that matters for a method) beside the match-level interval of the
pooled games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from experiments.cli import main as stratsynth
from qd.tournament import score_interval

ORACLES = {"HSS": "hss", "SA": "sa", "HC": "hc"}
DRIVERS = {"IBR": "ibr", "FP": "fp", "DO": "do", "2L": "2l"}
METHODS = {f"{o}-{d}": (ORACLES[o], DRIVERS[d]) for o in ORACLES for d in DRIVERS}
"""Every oracle with every driver (``--methods`` picks some)."""
DEFAULT_METHODS = ("HSS-IBR", "HSS-FP", "SA-IBR", "SA-FP")
BOTS = {"COAC": "coac", "Mayari": "mayari", "WorkerRush": "workerrush",
        "LightRush": "lightrush", "RangedRush": "rangedrush", "HeavyRush": "heavyrush",
        "RandomBiased": "randombiased"}
FEATURES = ("produced_Worker,produced_Light,produced_Heavy,produced_Ranged,produced_Base,"
            "produced_Barracks,resources")
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262}


def seeds_of(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in text.split(",")]


def side_of(seed: int) -> int:
    """The start position a ``--one-start`` run with ``seed`` synthesizes for."""
    return seed % 2


def game_args(args) -> list[str]:
    return ["--game-param", f"map={args.map}", "--game-param", f"utt={args.utt}"]


def run_dir(args, method: str, seed: int) -> Path:
    return Path(args.out) / f"{method.lower()}-seed{seed}"


def selfplay(args, method: str, seed: int, iterations: int) -> int:
    oracle, driver = METHODS[method]
    command = ["selfplay", "microrts", *game_args(args), "--driver", driver,
               "--oracle", oracle, "--iterations", str(iterations),
               "--evaluations", str(args.evaluations), "--matches", str(args.matches),
               "--seed", str(seed), "--workers", str(args.workers),
               "--out", str(run_dir(args, method, seed))]
    if oracle == "hss":
        command += ["--features", FEATURES]
        if args.hss_local_search is not None:
            command += ["--hss-local-search", args.hss_local_search]
    if args.one_start:
        command += ["--side", str(side_of(seed))]
    if driver == "fp":
        command += ["--mixture", args.mixture]
    if args.max_matches is not None:
        command += ["--max-matches", str(args.max_matches)]
    return stratsynth(command)


def done_calls(args, method: str, seed: int) -> int:
    from qd.drivers import driver_class

    return driver_class(METHODS[method][1]).calls_done(run_dir(args, method, seed))


def budget_spent(args, method: str, seed: int) -> bool:
    """Whether a run has used its ``--max-matches`` (it makes no more calls)."""
    if args.max_matches is None:
        return False
    directory = run_dir(args, method, seed)
    for name in ("state.json", "sequence.json"):
        if (directory / name).is_file():
            used = json.loads((directory / name).read_text()).get("search_matches", 0)
            return used >= args.max_matches
    return False


def answer(args, method: str, seed: int) -> Path:
    """The run's program for the tournament: its ``final.txt`` (the strongest program of a
    DO or 2L run), or, in runs made before that file, the last program."""
    final = run_dir(args, method, seed) / "final.txt"
    return final if final.is_file() else \
        run_dir(args, method, seed) / f"program{args.iterations}.txt"


def players(args, seeds: list[int]) -> tuple[list[str], list[str]]:
    names, specs = [], []
    for seed in seeds:
        for method in args.methods:
            names.append(f"{method}/{seed}")
            specs.append(f"program:{answer(args, method, seed)}")
    return names + list(BOTS), specs + list(BOTS.values())


def method_table(pairs_file: Path, seeds: list[int],
                 methods: tuple[str, ...] = DEFAULT_METHODS) -> str:
    """Each method's mean score over its seeds' programs, with intervals."""
    rows = [json.loads(line) for line in pairs_file.read_text().splitlines()[1:] if line]
    points: dict[str, list[float]] = {}
    games: dict[str, list[int]] = {}
    wins: dict[str, list[int]] = {}
    draws: dict[str, list[int]] = {}
    for row in rows:
        for side in (0, 1):
            name = row["pair"][side]
            points[name] = points.get(name, []) + [row["wins"][side] + row["even"] / 2]
            games[name] = games.get(name, []) + [row["matches"]]
            wins[name] = wins.get(name, []) + [row["wins"][side]]
            draws[name] = draws.get(name, []) + [row["even"]]
    per_player = {n: sum(points[n]) / sum(games[n]) for n in points}
    lines = ["| rank | method | mean score % over seeds | 95% interval over seeds | "
             "per seed % | 95% interval, pooled games |", "|---|---|---|---|---|---|"]
    summary = []
    for method in methods:
        scores = [per_player[f"{method}/{s}"] for s in seeds if f"{method}/{s}" in per_player]
        if not scores:
            continue
        mean = statistics.fmean(scores)
        half = (T_975.get(len(scores) - 1, 1.96) * statistics.stdev(scores) / len(scores) ** 0.5
                if len(scores) > 1 else float("nan"))
        names = [f"{method}/{s}" for s in seeds]
        pooled = score_interval(sum(sum(wins[n]) for n in names),
                                sum(sum(draws[n]) for n in names),
                                sum(sum(games[n]) for n in names))
        summary.append((mean, method, half, scores, pooled))
    for rank, (mean, method, half, scores, pooled) in enumerate(sorted(summary, reverse=True), 1):
        lines.append(f"| {rank} | {method} | {100 * mean:.1f} | "
                     f"{100 * max(mean - half, 0):.1f}–{100 * min(mean + half, 1):.1f} | "
                     + ", ".join(f"{100 * s:.1f}" for s in scores)
                     + f" | {100 * pooled[0]:.1f}–{100 * pooled[1]:.1f} |")
    order = sorted(per_player, key=lambda n: -per_player[n])
    lines += ["", "All players by mean score per game: "
              + ", ".join(f"{i}. {n} {100 * per_player[n]:.1f}%" for i, n in enumerate(order, 1))]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--map", default="24x24")
    p.add_argument("--utt", default="original")
    p.add_argument("--seeds", default="1-3")
    p.add_argument("--iterations", type=int, default=4, help="oracle calls per self-play run")
    p.add_argument("--evaluations", type=int, default=224, help="evaluations per oracle call")
    p.add_argument("--matches", type=int, default=2, help="matches per evaluation")
    p.add_argument("--mixture", choices=("sampled", "stratified"), default="stratified",
                   help="FP: how the mixture is played (stratified: --matches against each "
                   "member, so an FP evaluation costs more matches than an IBR one)")
    p.add_argument("--methods", default=",".join(DEFAULT_METHODS),
                   help=f"ORACLE-DRIVER pairs, comma-separated (of {', '.join(METHODS)})")
    p.add_argument("--max-matches", type=int, default=None,
                   help="every run also stops once its searches have played this many "
                   "matches (the same budget for every driver; give --iterations room)")
    p.add_argument("--hss-local-search", choices=("sketch-sa", "sa"), default=None,
                   help="HSS level 2 (default: sketch-sa for new runs; a continued run keeps "
                   "its own)")
    p.add_argument("--one-start", action="store_true",
                   help="Aleixo (2023)'s microRTS Ψ: one match per evaluation, from start "
                   "position seed mod 2 (implies --matches 1)")
    p.add_argument("--tournament-matches", type=int, default=20)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-seconds", type=float, default=None)
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    if args.one_start:
        args.matches = 1
    args.out = args.out or (f"experiments/results/microrts/tournament-{args.map}-{args.utt}-"
                            f"{args.iterations}x{args.evaluations}")
    args.methods = tuple(m.strip() for m in args.methods.split(","))
    unknown = [m for m in args.methods if m not in METHODS]
    if unknown:
        p.error(f"--methods: unknown {', '.join(unknown)} (known: {', '.join(METHODS)})")
    seeds = seeds_of(args.seeds)
    started = time.monotonic()
    for call in range(1, args.iterations + 1):  # breadth first: every run gets call k first
        for seed in seeds:
            for method in args.methods:
                if done_calls(args, method, seed) >= call or \
                        (call > 1 and budget_spent(args, method, seed)):
                    continue
                if args.max_seconds and time.monotonic() - started > args.max_seconds:
                    print(f"stopped after {time.monotonic() - started:.0f} s; rerun to continue")
                    return 0
                print(f"{method} seed {seed}: oracle call {call} of {args.iterations}", flush=True)
                if selfplay(args, method, seed, call) != 0:
                    return 1
    names, specs = players(args, seeds)
    out = Path(args.out) / "tournament"
    if args.max_seconds and time.monotonic() - started > args.max_seconds:
        print("self-play done; rerun for the tournament")
        return 0
    code = stratsynth(["tournament", "microrts", *game_args(args), "--players", ",".join(specs),
                       "--names", ",".join(names), "-n", str(args.tournament_matches),
                       "--seed", "0", "--workers", str(args.workers), "--out", str(out)])
    if code != 0:
        return code
    (out / "methods.md").write_text(
        f"# Methods: mean over seeds {args.seeds}\n\n`python -m experiments.studies."
        f"microrts_tournament {' '.join(argv if argv is not None else sys.argv[1:])}`\n\n"
        + method_table(out / "pairs.jsonl", seeds, args.methods))
    print((out / "methods.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
