"""``stratsynth tdleaf``: train Expendibots evaluation weights (Hitchcock and Randell), a command of
this game only (Expendibots' ``CLISpec.commands``). It lives with the command line
because its opponents are player specs (``experiments.players``)."""

from __future__ import annotations

import argparse
import json
import math


def _rate(text: str) -> float:
    """A step size: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text}")
    return value


def _fraction(text: str) -> float:
    """A number in [0, 1] (lambda)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0 <= value <= 1:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def cmd_tdleaf(args) -> int:
    from tqdm import tqdm

    from games import load_game
    from games.expendibots.tdleaf import TDLeafTrainer

    from .options import check_output_file
    from .players import make_player

    check_output_file(args.out)
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
    from .options import non_negative

    td = sub.add_parser("tdleaf", help="train Expendibots weights with TD-Leaf(lambda)")
    td.add_argument("--games", type=positive, default=200)
    td.add_argument("--opponents", default="random,alphabeta2",
                    help="comma-separated specs, played in turn")
    td.add_argument("--alpha", type=_rate, default=0.01, help="step size (> 0)")
    td.add_argument("--lam", type=_fraction, default=0.8, help="lambda, in [0, 1]")
    td.add_argument("--depth", type=positive, default=2)
    td.add_argument("--opening-plies", dest="opening_plies", type=non_negative, default=4)
    td.add_argument("--seed", type=non_negative, default=0)
    td.add_argument("--out", required=True, help="weights JSON file")
    td.add_argument("--quiet", action="store_true")
    td.set_defaults(handler=cmd_tdleaf)
