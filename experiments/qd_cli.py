"""``stratsynth qd``: a MAP-Elites archive of programs against a target player."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from tqdm import tqdm

from games import GAMES, load_game
from games.backends import make_map
from gp.programs import strategy_class
from qd.archive import ProgramArchive
from qd.map_elites import BehaviourWinRate, run_map_elites

from .players import make_player
from .synth import parse_duration


def game_features(game_name: str) -> dict:
    if game_name not in GAMES:
        raise ValueError(f"unknown game '{game_name}'")
    try:
        return importlib.import_module(f"{GAMES[game_name][0]}.features").FEATURES
    except ModuleNotFoundError:
        raise ValueError(f"game '{game_name}' declares no behaviour features") from None


def cmd_qd(args) -> int:
    features = game_features(args.game)
    names = [n.strip() for n in args.features.split(",") if n.strip()]
    unknown = [n for n in names if n not in features]
    if unknown or not names:
        raise ValueError(f"unknown feature(s) {unknown} (known: {', '.join(features)})")
    dims = [int(d) for d in args.dims.split(",")] if args.dims else None
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: directory exists and is not empty")
    seconds = parse_duration(args.budget) if args.budget else None
    if seconds is None and args.evaluations is None:
        raise ValueError("give --budget or --evaluations")
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(vars(args) | {"argv": None}, indent=1) + "\n")
    archive = ProgramArchive(names, [features[n][1] for n in names], dims, args.cells, args.seed)
    cls = strategy_class(args.game)
    bar = tqdm(total=args.evaluations, unit="eval", disable=args.quiet)

    def progress(done, stats):
        bar.n = done
        bar.set_postfix(coverage=f"{stats['coverage']:.3f}", qd=f"{stats['qd_score']:.2f}",
                        best=f"{stats['best']:.3f}")
        bar.refresh()

    with make_map(args.workers) as backend:
        evaluate = BehaviourWinRate(load_game(args.game), make_player(args.game, args.target),
                                    cls, features, names, args.matches, args.seed, backend)
        run_map_elites(archive, cls.default_dsl(), evaluate, args.seed, out, seconds,
                       args.evaluations, args.batch, progress=progress)
    bar.close()
    if len(names) == 2:
        archive.heatmap(out / "heatmap.png", f"{args.game}: win rate against {args.target}")
    stats = archive.stats()
    print(f"{stats['elites']} elites, coverage {stats['coverage']:.3f}, "
          f"QD-score {stats['qd_score']:.2f}, best {stats['best']:.3f}; archive in "
          f"{out / 'archive.json'}")
    return 0


def add_parsers(sub, positive) -> None:
    q = sub.add_parser("qd", help="MAP-Elites archive of programs (pyribs)")
    q.add_argument("game")
    q.add_argument("--features", required=True, help="comma-separated feature names")
    q.add_argument("--dims", default=None, help="cells per feature, e.g. 10,10")
    q.add_argument("--cells", type=positive, default=100, help="CVT cells (> 2 features)")
    q.add_argument("--target", default="ga")
    q.add_argument("--matches", type=positive, default=200)
    q.add_argument("--batch", type=positive, default=8, help="programs per emitter per ask")
    q.add_argument("--budget", default=None)
    q.add_argument("--evaluations", type=positive, default=None)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--workers", type=int, default=0)
    q.add_argument("--out", required=True)
    q.add_argument("--quiet", action="store_true")
