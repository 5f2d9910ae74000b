"""A pool matrix: each of some players against each opponent of a pool, both seats.

Why not ``stratsynth tournament``: a round robin also plays the pool's bots against
one another, which costs most of the matches and is not the question. Here each
row player meets each pool opponent ``matches`` times, seats alternating (half per
seat), on the same match seeds; a cell is kept in ``matrix.json`` as soon as it is
played, so a killed run goes on where it stopped (rerun the same command), and
``matrix.md`` is rewritten after every cell. Score: win 1, draw or capped match ½.

    stratsynth pool microrts --map 16x16 \\
        --players program:experiments/programs/microrts_coac_16x16.txt \\
        --pool coac,mayari,workerrush,lightrush,rangedrush,heavyrush,randombiased \\
        -n 10 --seed 0 --workers 1 --out experiments/results/microrts/pool-matrix/16x16
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from games.backends import make_map
from games.engines import prepare_engines
from games.files import check_same_setting, write_atomically
from games.match import MatchSummary, play_matches

from .config import PoolConfig, open_game
from .loader import read_json
from .lock import check_not_a_run, hold
from .players import make_player, split_specs


def cell_of(summary: MatchSummary) -> dict[str, Any]:
    """One row player's record against one opponent (player 0 is the row player)."""
    even = summary.matches - summary.wins[0] - summary.wins[1]
    return {"matches": summary.matches, "wins": summary.wins[0], "losses": summary.wins[1],
            "draws": summary.draws, "capped": summary.capped, "even": even,
            "forfeits": summary.forfeits[0], "opponent_forfeits": summary.forfeits[1],
            "score": (summary.wins[0] + even / 2) / summary.matches if summary.matches else 0.0,
            "mean_moves": round(summary.mean_moves, 1), "seconds": round(summary.seconds, 2),
            "seat_wins": list(summary.wins_by_seat[0])}


def row_score(cells: dict[str, dict], pool: list[str]) -> float | None:
    """Mean score over the pool (each opponent weighs the same); None until all are played."""
    if any(opponent not in cells for opponent in pool):
        return None
    return sum(cells[opponent]["score"] for opponent in pool) / len(pool)


def markdown(result: dict) -> str:
    """The matrix as a Markdown table: W-D-L and score per cell, the mean over the pool."""
    pool, rows = result["pool"], result["rows"]
    lines = [f"Pool matrix: {result['game']} {json.dumps(result['game_params'])}, "
             f"{result['matches']} matches per cell (half per seat), seed {result['seed']}. "
             "Cell: wins-even-losses (even = draw or capped, scores ½) and score.", "",
             "| player | " + " | ".join(pool) + " | mean over the pool |",
             "|---" * (len(pool) + 2) + "|"]
    for name in result["players"]:
        cells = rows.get(name, {})
        shown = []
        for opponent in pool:
            cell = cells.get(opponent)
            shown.append("…" if cell is None else
                         f"{cell['wins']}-{cell['even']}-{cell['losses']} ({cell['score']:.2f})")
        mean = row_score(cells, pool)
        lines.append(f"| {name} | " + " | ".join(shown) + " | "
                     + ("…" if mean is None else f"**{mean:.3f}**") + " |")
    if any(cell.get("seat_wins") for cells in rows.values() for cell in cells.values()):
        lines += ["", "Wins from the first seat + wins from the second seat (half the matches "
                  "each):", "", "| player | " + " | ".join(pool) + " |",
                  "|---" * (len(pool) + 1) + "|"]
        for name in result["players"]:
            cells = rows.get(name, {})
            shown = [f"{c['seat_wins'][0]} + {c['seat_wins'][1]}"
                     if (c := cells.get(opponent)) and c.get("seat_wins") else "…"
                     for opponent in pool]
            lines.append(f"| {name} | " + " | ".join(shown) + " |")
    lines += ["", "Command:", "", "```sh", result["command"], "```"]
    return "\n".join(lines) + "\n"


def display_name(spec: str) -> str:
    """``program:dir/x.txt`` -> ``x``; a built-in keeps its name."""
    return Path(spec.partition(":")[2]).stem if ":" in spec else spec


class PoolMatrix:
    """Each row player against each pool opponent; players built and the kept matrix
    checked before any match. ``run()`` returns the matrix (``matrix.json``'s content),
    ``report(line)`` gets one line per cell played."""

    def __init__(self, config: PoolConfig, command: str, where: str = "command line") -> None:
        c = self.config = config
        try:
            self.players = split_specs(c.players, "--players")
            self.pool = split_specs(c.pool, "--pool")
            self.game = open_game(c.game, c.game_params)
            self.built = {spec: make_player(c.game, spec, dsl=c.dsl)
                          for spec in [*self.players, *self.pool]}
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        self.out = Path(c.out)
        check_not_a_run(self.out)
        self.command = command

    def _start(self) -> dict:
        c, path = self.config, self.out / "matrix.json"
        result = {"game": c.game, "game_params": c.game_params or {}, "matches": c.matches,
                  "seed": c.seed, "players": [display_name(s) for s in self.players],
                  "specs": self.players, "pool": self.pool, "rows": {}, "command": self.command}
        if path.exists():
            kept = read_json(path)
            if not isinstance(kept, dict):
                raise ValueError(f"{path}: not a pool matrix")
            keys = ("game", "game_params", "matches", "seed", "pool")
            check_same_setting(path, {k: kept.get(k) for k in keys},
                               {k: result[k] for k in keys})
            result["rows"] = kept.get("rows", {})
        return result

    def run(self, report=lambda line: None) -> dict:
        c, out = self.config, self.out
        path = out / "matrix.json"
        self._start()  # a kept matrix of another setting fails before the lock
        prepare_engines(self.game, c.engine)  # compiling is not a cell's time
        with hold(out):
            result = self._start()
            out.mkdir(parents=True, exist_ok=True)
            with make_map(c.workers) as backend:
                for spec, name in zip(self.players, result["players"]):
                    cells = result["rows"].setdefault(name, {})
                    for opponent in self.pool:
                        if opponent in cells:
                            continue
                        summary = play_matches(self.game, (self.built[spec],
                                                           self.built[opponent]),
                                               c.matches, c.seed, map=backend,
                                               engine=c.engine)
                        cells[opponent] = cell_of(summary)
                        write_atomically(path, json.dumps(result, indent=1) + "\n")
                        write_atomically(out / "matrix.md", markdown(result))
                        report(f"{name} vs {opponent}: {cells[opponent]['wins']}-"
                               f"{cells[opponent]['even']}-{cells[opponent]['losses']}")
            write_atomically(path, json.dumps(result, indent=1) + "\n")
            write_atomically(out / "matrix.md", markdown(result))
        return result


def add_parsers(sub) -> None:
    from .options import add_config, add_game

    p = sub.add_parser(
        "pool", help="each player against each opponent of a pool, both seats (resumes)")
    add_game(p, dsl=True)
    add_config(p, PoolConfig)
    p.set_defaults(handler=cmd_pool)


def cmd_pool(args) -> int:
    """``stratsynth pool``: errors reach the command line's one-line handler."""
    from .options import config_from

    matrix = PoolMatrix(config_from(PoolConfig, args), "stratsynth pool " + shlex.join(args.argv))
    print(markdown(matrix.run(report=lambda line: print(line, flush=True))))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m experiments.pool``, the same as ``stratsynth pool``."""
    from .cli import main as cli_main

    return cli_main(["pool", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
