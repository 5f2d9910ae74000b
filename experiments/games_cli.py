"""``stratsynth tournament`` and ``stratsynth tdleaf``."""

from __future__ import annotations

import json
from pathlib import Path

from games import load_game
from games.backends import make_map
from qd.tournament import plot_matrix, round_robin

from .players import make_player
from .synth import parse_game_params


def cmd_tournament(args) -> int:
    game = load_game(args.game, **(parse_game_params(args.game_param) or {}))
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two players (--players a,b,...)")
    players = [make_player(args.game, spec) for spec in specs]
    names = args.names.split(",") if args.names else specs
    if len(names) != len(specs):
        raise ValueError(f"--names gives {len(names)} names for {len(specs)} players")
    with make_map(args.workers) as backend:
        result = round_robin(game, players, names, args.matches, args.seed, map=backend)
    table = result.markdown()
    print(table)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "tournament.md").write_text(
            f"# Tournament: {args.game}\n\n`stratsynth tournament {args.game} --players "
            f"{args.players} -n {args.matches} --seed {args.seed}`"
            + "".join(f" --game-param {p}" for p in args.game_param or []) + "\n\n"
            + "\n".join(f"- {n}: `{s}`" for n, s in zip(names, specs)) + "\n\n" + table + "\n")
        plot_matrix(result, out / "tournament.png")
    return 0


def cmd_tdleaf(args) -> int:
    from tqdm import tqdm

    from gp.tdleaf import TDLeafTrainer

    game = load_game("expendibots", opening_plies=args.opening_plies)
    opponents = [make_player("expendibots", s.strip()) for s in args.opponents.split(",")]
    trainer = TDLeafTrainer(game, alpha=args.alpha, lam=args.lam, depth=args.depth,
                            seed=args.seed)
    bar = tqdm(total=args.games, unit="game", disable=args.quiet)

    def progress(g, outcome):
        bar.update(1)
        bar.set_postfix(outcome=outcome, w=json.dumps([round(w, 2) for w in trainer.weights]))

    trainer.train(args.games, opponents, progress)
    bar.close()
    trainer.save(args.out)
    print(f"weights {[round(float(w), 4) for w in trainer.weights]} written to {args.out}")
    return 0


def add_parsers(sub, positive) -> None:
    t = sub.add_parser("tournament", help="round robin among players, both seats")
    t.add_argument("game")
    t.add_argument("--players", required=True, help="comma-separated player specs")
    t.add_argument("--names", default=None, help="comma-separated display names")
    t.add_argument("-n", "--matches", type=positive, default=20, help="matches per pairing")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--workers", type=int, default=1)
    t.add_argument("--game-param", action="append", default=None, metavar="KEY=VALUE")
    t.add_argument("--out", default=None, help="directory for tournament.md and .png")

    td = sub.add_parser("tdleaf", help="train Expendibots weights with TD-Leaf(lambda)")
    td.add_argument("--games", type=positive, default=200)
    td.add_argument("--opponents", default="random,alphabeta2",
                    help="comma-separated specs, played in turn")
    td.add_argument("--alpha", type=float, default=0.01)
    td.add_argument("--lam", type=float, default=0.8)
    td.add_argument("--depth", type=positive, default=2)
    td.add_argument("--opening-plies", dest="opening_plies", type=int, default=4)
    td.add_argument("--seed", type=int, default=0)
    td.add_argument("--out", required=True, help="weights JSON file")
    td.add_argument("--quiet", action="store_true")
