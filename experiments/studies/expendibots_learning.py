"""Expendibots evaluations learned at the depth they play, and the depth-3 tournament.

    python -m experiments.studies.expendibots_learning tdleaf --out DIR [--minutes 18]
    python -m experiments.studies.expendibots_learning gp --out DIR [--evaluations 120]
    python -m experiments.studies.expendibots_learning tournament --out DIR [--games 20]

Every command is single-process, seeded and resumable: run it again with the same
arguments and it continues where it stopped (TD-Leaf: a checkpoint after every game;
GP: the evaluator's log replays; tournament: one JSON line per finished game).

* ``tdleaf``: ``games.expendibots.tdleaf.PoolTDLeaf`` at depth 2, separate weights per colour,
  λ = 0.8, rate 0.1 → 0.01, against random, the Expendibots report's hand weights at depths 1 and 2
  and frozen copies of itself every 25 games.
* ``gp``: DEAP μ+λ GP (``gp.evolution.run_gp``) over evaluation programs
  (``gp.languages.expendibots``) played inside the report's agent at depth 2 (books, time
  budget, late-game ordering: only the evaluation differs), each scored by matches
  against the report's full agent at depth 2, both colours, random openings;
  score = (wins + draws/2) / matches. The population starts from
  the report's hand evaluation written in the DSL.
* ``tournament``: round robin at depth 3, both colours, random 4-ply openings.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
import zlib
from itertools import combinations
from pathlib import Path

import numpy as np

from games.expendibots.players import HAND_WEIGHTS_BLACK, HAND_WEIGHTS_WHITE
from games.expendibots.rules import Expendibots
from games.match import play_match

RESULTS = Path("experiments/results/expendibots")
HAND_PROGRAM = Path("experiments/programs/expendibots_hand.txt")


# ---- TD-Leaf ------------------------------------------------------------------------------
def cmd_tdleaf(args) -> int:
    from experiments.players import make_player
    from games.expendibots.tdleaf import PoolTDLeaf

    game = Expendibots(opening_plies=4, turn_limit=args.turn_limit)
    fixed = [(spec, make_player("expendibots", spec)) for spec in args.opponents.split(",")]
    start = {"flat": ((1.0, 1.0, 1.0, 0.0, 0.0), None),
             "hand": (HAND_WEIGHTS_WHITE, HAND_WEIGHTS_BLACK)}[args.start]
    trainer = PoolTDLeaf(game, fixed, depth=args.depth, alpha=args.alpha,
                         alpha_end=args.alpha_end, lam=args.lam, games=args.games,
                         snapshot_every=args.snapshot_every, seed=args.seed,
                         start=start[0], start_black=start[1])
    out = Path(args.out)
    path = out / "weights.json"
    if path.exists():
        trainer.load(path)
        print(f"resuming after {len(trainer.log)} games", flush=True)

    def progress(entry):
        w = trainer.weights[entry["seat"]]
        print(f"game {entry['game']:4d} vs {entry['opponent']:14s} seat {entry['seat']} "
              f"outcome {entry['outcome']:+.0f} plies {entry['plies']:3d} "
              f"w {np.round(w, 3).tolist()}", flush=True)

    trainer.train(until_seconds=args.minutes * 60, checkpoint=path, progress=progress)
    print(f"{len(trainer.log)}/{trainer.games} games; weights in {path}")
    return 0


# ---- GP -----------------------------------------------------------------------------------
def cmd_gp(args) -> int:
    from games.expendibots.timed_agent import TimedAlphaBetaPlayer
    from gp.evaluator import Budget, Evaluator
    from gp.evolution import GPSettings, run_gp
    from gp.fitness import WinRate
    from gp.languages.expendibots import EXPENDIBOTS_DSL, EvaluationProgramPlayer

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    game = Expendibots(opening_plies=4, turn_limit=args.turn_limit)
    # "seed003-depthN": the former name of timed-alphabeta, kept as the name the
    # committed runs' config.json and best.txt record
    target = TimedAlphaBetaPlayer(depth=args.depth, name=f"seed003-depth{args.depth}")
    strategy = functools.partial(EvaluationProgramPlayer, depth=args.depth, agent=1, book=1)
    # draws score ½ (Expendibots.draw_value); the tie-break is the final token lead
    # (Expendibots.margin). Paired runs put every program on the run seed's openings,
    # as the recorded runs did (common random numbers); unpaired runs, on its own.
    psi = WinRate(game, target, strategy, matches=args.matches, seed=args.seed,
                  paired=args.paired, margin_weight=args.lead_weight,
                  common_openings=args.paired)
    resume = (out / "log.csv").exists()
    settings = GPSettings(mu=args.mu, lambda_=args.mu)
    (out / "config.json").write_text(json.dumps({
        "command": " ".join(sys.argv), "depth": args.depth, "matches": args.matches,
        "turn_limit": args.turn_limit, "opening_plies": 4, "mu": args.mu,
        "lambda": args.mu, "evaluations": args.evaluations, "seed": args.seed,
        "lead_weight": args.lead_weight, "paired": args.paired, "method": args.method,
        "target": target.name, "initial": args.initial}, indent=1) + "\n")
    started = time.perf_counter()

    def on_score(scored):
        print(f"{time.perf_counter() - started:7.0f}s psi {scored.psi:.3f}  {scored.program}",
              flush=True)

    evaluator = Evaluator({"psi": psi}, EXPENDIBOTS_DSL.to_text,
                          Budget(evaluations=args.evaluations), run_dir=out, resume=resume,
                          on_score=on_score)
    initial = EXPENDIBOTS_DSL.parse(Path(args.initial).read_text())
    if args.method == "sa":  # the sketch-learning paper's SA from the initial program
        from gp.methods import SA

        SA(language=EXPENDIBOTS_DSL, evaluator=evaluator, rng=random.Random(args.seed),
           initial=initial).run()
        best = evaluator.best_psi_program
    else:
        hof = run_gp(EXPENDIBOTS_DSL, evaluator, args.seed, settings, initial=initial)
        best = evaluator.best_psi_program or EXPENDIBOTS_DSL.to_text(hof[0])
    (out / "best.txt").write_text(f"# best psi {evaluator.best_psi:.4f} (depth {args.depth}, "
                                  f"vs {target.name}, {args.matches} matches)\n{best}\n")
    print(f"best psi {evaluator.best_psi:.3f}: {best}")
    return 0


# ---- tournament ---------------------------------------------------------------------------
# Labels name the players in games.jsonl and seed each pairing's matches (``pair_seed``):
# "seed003" (the timed alpha-beta agent's former name) stays the label so that the
# committed tournaments resume and replay.
DEFAULT_PLAYERS = ("seed003=timed-alphabeta,"
                   f"gp-evaluation=program:{RESULTS}/gp-depth2/best.txt?depth=3&agent=1&book=1,"
                   f"td-leaf=weights:{RESULTS}/tdleaf-pool-hand/weights.json?depth=3&book=1,"
                   "hand-weights-nobook=timed-alphabeta-nobook,"
                   "random=random")


def cmd_tournament(args) -> int:
    from experiments.players import make_player
    from qd.tournament import TournamentResult

    named = [item.split("=", 1) for item in args.players.split(",")]
    names = [n for n, _ in named]
    players = [make_player("expendibots", spec) for _, spec in named]
    game = Expendibots(opening_plies=args.opening_plies, turn_limit=args.turn_limit)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / "games.jsonl"
    done = {}
    if log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            done[(row["white"], row["black"], row["index"])] = row
    started = time.perf_counter()
    with log.open("a") as file:
        for i, j in combinations(range(len(players)), 2):
            for k in range(args.games):
                seats = (i, j) if k % 2 == 0 else (j, i)
                key = (names[seats[0]], names[seats[1]], k)
                if key in done:
                    continue
                if args.minutes and time.perf_counter() - started > args.minutes * 60:
                    print("time is up; run again to continue", flush=True)
                    return write_table(out, names, named, done, args, TournamentResult)
                t = time.perf_counter()
                result = play_match(game, [players[seats[0]], players[seats[1]]],
                                    pair_seed(args.seed, names[i], names[j]), index=k // 2)
                row = {"white": key[0], "black": key[1], "index": k,
                       "winner": result.winner, "capped": result.capped,
                       "plies": result.moves, "forfeit": result.forfeit,
                       "error": result.error, "seconds": round(time.perf_counter() - t, 2)}
                file.write(json.dumps(row) + "\n")
                file.flush()
                done[key] = row
                print(json.dumps(row), flush=True)
    return write_table(out, names, named, done, args, TournamentResult)


def pair_seed(seed: int, a: str, b: str) -> int:
    """A pairing's match seed from the two names, so a run with fewer players plays
    the same games (and fills the same log) as the full one."""
    return seed + zlib.crc32("|".join(sorted((a, b))).encode()) % 1_000_003


def write_table(out, names, named, done, args, result_class) -> int:
    k = len(names)
    index = {n: i for i, n in enumerate(names)}
    score, wins = np.zeros((k, k)), np.zeros((k, k), dtype=int)
    draws, games = np.zeros((k, k), dtype=int), np.zeros((k, k), dtype=int)
    for row in done.values():
        if row["white"] not in index or row["black"] not in index:
            continue
        w, b = index[row["white"]], index[row["black"]]
        games[w, b] += 1
        games[b, w] += 1
        if row["winner"] is None:
            draws[w, b] += 1
            draws[b, w] += 1
            score[w, b] += 0.5
            score[b, w] += 0.5
        else:
            winner, loser = (w, b) if row["winner"] == 0 else (b, w)
            wins[winner, loser] += 1
            score[winner, loser] += 1
    result = result_class(names, score, wins, draws, games)
    by_colour = _by_colour(names, done)
    command = ("PYTHONPATH=. python -m experiments.studies.expendibots_learning tournament "
               f"--out {args.out} --games {args.games} --seed {args.seed} "
               f"--opening-plies {args.opening_plies} --turn-limit {args.turn_limit} "
               f"--players '{args.players}'")
    text = (f"# Expendibots tournament at depth 3\n\n`{command}`\n\n"
            + "\n".join(f"- {n}: `{s}`" for n, s in named) + "\n\n"
            + f"{int(games.sum() // 2)} games; random {args.opening_plies}-ply openings; "
              f"draw after {args.turn_limit} turns each; seats alternate within each "
              "pairing.\n\n"
            + result.markdown() + "\n\n" + by_colour + "\n")
    (out / "tournament.md").write_text(text)
    print(text)
    return 0


def _by_colour(names, done) -> str:
    lines = ["Score by colour (points / games as White, as Black):", "",
             "| player | as White | as Black |", "|---|---|---|"]
    for name in names:
        cells = []
        for colour, seat in (("white", 0), ("black", 1)):
            rows = [r for r in done.values() if r[colour] == name]
            pts = sum(1.0 if r["winner"] == seat else (0.5 if r["winner"] is None else 0.0)
                      for r in rows)
            cells.append(f"{pts:g}/{len(rows)}")
        lines.append(f"| {name} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    td = sub.add_parser("tdleaf")
    td.add_argument("--out", default=str(RESULTS / "tdleaf-pool"))
    td.add_argument("--games", type=int, default=300)
    td.add_argument("--minutes", type=float, default=18.0)
    td.add_argument("--depth", type=int, default=2)
    td.add_argument("--alpha", type=float, default=0.1)
    td.add_argument("--alpha-end", dest="alpha_end", type=float, default=0.01)
    td.add_argument("--lam", type=float, default=0.8)
    td.add_argument("--snapshot-every", dest="snapshot_every", type=int, default=25)
    td.add_argument("--turn-limit", dest="turn_limit", type=int, default=100)
    # the committed runs' logs name the opponents by these specs ("seed003-depth2":
    # timed-alphabeta-depth2's former name), so a resumed run logs them the same way
    td.add_argument("--opponents", default="random,alphabeta1,alphabeta2,seed003-depth2")
    td.add_argument("--seed", type=int, default=0)
    td.add_argument("--start", choices=("flat", "hand"), default="flat",
                    help="start weights: [1,1,1,0,0] or the report's hand weights per colour")
    g = sub.add_parser("gp")
    g.add_argument("--out", default=str(RESULTS / "gp-depth2"))
    g.add_argument("--evaluations", type=int, default=120)
    g.add_argument("--matches", type=int, default=6)
    g.add_argument("--mu", type=int, default=12)
    g.add_argument("--depth", type=int, default=2)
    g.add_argument("--turn-limit", dest="turn_limit", type=int, default=100)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--method", choices=("gp", "sa"), default="gp")
    g.add_argument("--paired", action="store_true",
                   help="matches in pairs on one opening with colours swapped")
    g.add_argument("--initial", default=str(HAND_PROGRAM),
                   help="program file seeding the population")
    g.add_argument("--lead-weight", dest="lead_weight", type=float, default=0.0,
                   help="tie-break: this times the mean final token lead")
    t = sub.add_parser("tournament")
    t.add_argument("--out", default=str(RESULTS / "tournament-depth3"))
    t.add_argument("--players", default=DEFAULT_PLAYERS)
    t.add_argument("--games", type=int, default=20)
    t.add_argument("--opening-plies", dest="opening_plies", type=int, default=4)
    t.add_argument("--turn-limit", dest="turn_limit", type=int, default=250,
                   help="turns each before a draw (the rules: 250)")
    t.add_argument("--minutes", type=float, default=0.0, help="stop after this long (resume)")
    t.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return {"tdleaf": cmd_tdleaf, "gp": cmd_gp, "tournament": cmd_tournament}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
