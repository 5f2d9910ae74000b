"""``stratsynth tdleaf``: train Expendibots evaluation weights (Hitchcock and Randell), a command of
this game only (Expendibots' ``CLISpec.commands``). It lives with the command line
because its opponents are player specs (``experiments.players``)."""

from __future__ import annotations

import json


def cmd_tdleaf(args) -> int:
    from tqdm import tqdm

    from games import load_game
    from games.expendibots.tdleaf import TDLeafTrainer

    from .players import make_player

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


def add_parser(sub, positive) -> None:
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
    td.set_defaults(handler=cmd_tdleaf)
