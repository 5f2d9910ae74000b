"""Drive the sketch-learning paper's reference code (not in this repository) to record traces and
rates.

The reference code is github leandrocouto/sketch-learning, directory
``cant-stop-sketch-learning/src`` at commit a93feef (``REFERENCE_COMMIT``): its
``game.py`` and ``players/{player,random_player,rule_of_28_player,glenn_player}.py``
are all this needs (numpy besides). Point ``--reference-src`` at that directory.
The match loop below is the one of its ``evaluation.Evaluation.play_match``:
busts are settled before each decision, 300 decisions end a match with no winner.

    python -m experiments.studies.cantstop_reference_code traces --reference-src SRC \\
        --per-pairing 40 --out tests/fixtures/cantstop_reference_traces.jsonl
    python -m experiments.studies.cantstop_reference_code rate --reference-src SRC \\
        --first random -n 10000 --out \\
        experiments/results/cantstop-reference-rules/reference-code-random-vs-ga.jsonl

``traces`` writes the fixture format of ``games.cantstop.reference_traces`` (GA and
Rule-of-28 choices at every decision, whoever plays). ``rate`` plays ``--first``
against GA with seats alternating by match (as ``Evaluation.play_n_matches`` does),
seeding the reference's global generator with ``base + i`` for match ``i``; it
appends one line per 500 matches (wins of ``--first`` as "a", of GA as "b", capped
matches as "none") and resumes from the last one.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from pathlib import Path

PAIRINGS = (("ga", "ga"), ("random", "ga"), ("ga", "random"), ("rule28", "ga"),
            ("ga", "rule28"), ("rule28", "rule28"), ("random", "rule28"))


class Reference:
    """The reference code's game and players, imported from its source directory."""

    def __init__(self, src: str) -> None:
        if not (Path(src) / "game.py").is_file():
            raise SystemExit(f"--reference-src {src}: no game.py there")
        sys.path.insert(0, src)
        self.game = importlib.import_module("game")
        self.players = {
            "random": importlib.import_module("players.random_player").RandomPlayer,
            "ga": importlib.import_module("players.glenn_player").Glenn_Player,
            "rule28": importlib.import_module("players.rule_of_28_player").Rule_of_28_Player,
        }

    def new_game(self):
        return self.game.Game(n_players=2, dice_number=4, dice_value=6, column_range=[2, 12],
                              offset=2, initial_height=3)

    def record(self, seats: tuple[str, str], seed: int) -> dict:
        random.seed(seed)
        ga, r28 = self.players["ga"](), self.players["rule28"]()
        players = {1: self.players[seats[0]](), 2: self.players[seats[1]]()}
        game = self.new_game()
        steps: list[list] = []
        decisions = 0
        while True:
            moves = game.available_moves()
            player = game.player_turn
            roll = "".join(map(str, game.current_roll))
            if game.is_player_busted(moves):
                steps.append([player, roll, []])
                continue
            g, r = ga.get_action(game), r28.get_action(game)
            chosen = players[player].get_action(game)
            if moves == ["y", "n"]:
                steps.append([player, "yn", chosen, g, r])
            else:
                steps.append([player, roll, [list(m) for m in moves], moves.index(chosen),
                              moves.index(g), moves.index(r)])
            game.play(chosen)
            decisions += 1
            winner, over = game.is_finished()
            if over or decisions >= 300:
                return {"seats": list(seats), "seed": seed, "winner": winner if over else None,
                        "decisions": decisions, "steps": steps}

    def play(self, first, second) -> int | None:
        game = self.new_game()
        players = {1: first, 2: second}
        decisions = 0
        while True:
            if game.is_player_busted(game.available_moves()):
                continue
            game.play(players[game.player_turn].get_action(game))
            decisions += 1
            winner, over = game.is_finished()
            if over:
                return winner
            if decisions >= 300:
                return None


def traces(ref: Reference, per_pairing: int, out: str) -> None:
    start, seed, total = time.time(), 0, 0
    with open(out, "w", encoding="utf-8") as fh:
        for _ in range(per_pairing):
            for seats in PAIRINGS:
                record = ref.record(seats, seed)
                seed += 1
                total += record["decisions"]
                fh.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"{seed} matches, {total} decisions, {time.time() - start:.0f} s -> {out}")


def rate(ref: Reference, first: str, matches: int, base: int, out: str, chunk: int = 500) -> None:
    done = 0
    if os.path.exists(out):
        for line in open(out, encoding="utf-8"):
            done = max(done, json.loads(line)["end"])
    while done < matches:
        start, wins = time.time(), {"a": 0, "b": 0, "none": 0}
        end = min(matches, done + chunk)
        for i in range(done, end):
            random.seed(base + i)
            a, ga = ref.players[first](), ref.players["ga"]()
            winner = ref.play(a, ga) if i % 2 == 0 else ref.play(ga, a)
            if winner is None:
                wins["none"] += 1
            else:
                wins["a" if (winner == 1) == (i % 2 == 0) else "b"] += 1
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"players": [first, "ga"], "start": done, "end": end, **wins,
                                 "seconds": round(time.time() - start, 2),
                                 "load1": round(os.getloadavg()[0], 2)}) + "\n")
        done = end


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("traces", "rate"))
    parser.add_argument("--reference-src", required=True)
    parser.add_argument("--per-pairing", type=int, default=40)
    parser.add_argument("--first", choices=("random", "rule28"), default="random")
    parser.add_argument("-n", "--matches", type=int, default=10000)
    parser.add_argument("--base-seed", type=int, default=1_000_000)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    ref = Reference(args.reference_src)
    if args.what == "traces":
        traces(ref, args.per_pairing, args.out)
    else:
        rate(ref, args.first, args.matches, args.base_seed, args.out)


if __name__ == "__main__":
    main()
