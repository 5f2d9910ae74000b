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
from .synth import parse_duration, parse_game_params


def game_features(game_name: str) -> dict:
    if game_name not in GAMES:
        raise ValueError(f"unknown game '{game_name}'")
    try:
        return importlib.import_module(f"{GAMES[game_name][0]}.features").FEATURES
    except ModuleNotFoundError:
        raise ValueError(f"game '{game_name}' declares no behaviour features") from None


def game_levels(game_name: str):
    """The reference values HSS snaps features to, if the game declares them."""
    module = importlib.import_module(f"{GAMES[game_name][0]}.features")
    return getattr(module, "LEVELS", None)


def cmd_qd(args, resume: bool = False) -> int:
    features = game_features(args.game)
    names = [n.strip() for n in args.features.split(",") if n.strip()]
    unknown = [n for n in names if n not in features]
    if unknown or not names:
        raise ValueError(f"unknown feature(s) {unknown} (known: {', '.join(features)})")
    dims = [int(d) for d in args.dims.split(",")] if args.dims else None
    out = Path(args.out)
    if not resume and out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: directory exists and is not empty "
                         "(use 'stratsynth resume' to continue it)")
    seconds = parse_duration(args.budget) if args.budget else None
    if seconds is None and args.evaluations is None:
        raise ValueError("give --budget or --evaluations")
    out.mkdir(parents=True, exist_ok=True)
    if not resume:
        (out / "config.json").write_text(json.dumps(vars(args) | {"argv": None}, indent=1)
                                         + "\n")
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
                       args.evaluations, args.batch, progress=progress, resume=resume)
    bar.close()
    if len(names) == 2:
        archive.heatmap(out / "heatmap.png", f"{args.game}: win rate against {args.target}")
    stats = archive.stats()
    print(f"{stats['elites']} elites, coverage {stats['coverage']:.3f}, "
          f"QD-score {stats['qd_score']:.2f}, best {stats['best']:.3f}; archive in "
          f"{out / 'archive.json'}")
    return 0


def resume_qd(run_dir: Path, quiet: bool = True) -> int:
    """Continue a killed ``stratsynth qd`` run from its evaluation log."""
    import argparse

    config = json.loads((run_dir / "config.json").read_text())
    args = argparse.Namespace(**config)
    args.out, args.quiet = str(run_dir), quiet
    return cmd_qd(args, resume=True)


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


def cmd_selfplay(args) -> int:
    import random

    from qd.hss import Library, feature_levels
    from qd.selfplay import hss_oracle, sa_oracle, self_play

    game = load_game(args.game, **(parse_game_params(args.game_param) or {}))
    cls = strategy_class(args.game)
    dsl = cls.default_dsl()
    out = Path(args.out)
    with make_map(args.workers) as backend:
        if args.oracle == "sa":
            oracle = sa_oracle(game, cls, args.matches, args.evaluations, backend)
        else:
            features = game_features(args.game)
            names = [n.strip() for n in args.features.split(",")]
            unknown = [n for n in names if n not in features]
            if unknown:
                raise ValueError(f"unknown feature(s) {unknown} (known: {', '.join(features)})")
            library = Library.load(args.library) if args.library else None
            levels = game_levels(args.game)
            levels = ([list(levels)] * len(names) if levels is not None else
                      feature_levels([features[n][1] for n in names], args.levels))
            oracle = hss_oracle(game, cls, features, names, levels,
                                args.matches, args.evaluations, library, backend,
                                variant=args.hss_variant,
                                local_evaluations=args.local_evaluations)
        start = dsl.to_text(dsl.random_program(random.Random(args.seed)))
        sequence = self_play(oracle, cls, start, args.iterations, args.seed,
                             fictitious=args.driver == "fp", out=out)
    if args.oracle == "hss":
        oracle.library.save(out / "library.json")
    for i, text in enumerate(sequence):
        (out / f"program{i}.txt").write_text(text + "\n")
    print(f"{len(sequence)} programs in {out} (program{len(sequence) - 1}.txt is the last)")
    return 0


def add_selfplay_parser(sub, positive) -> None:
    s = sub.add_parser("selfplay", help="IBR or FP with an SA or HSS best-response oracle")
    s.add_argument("game")
    s.add_argument("--driver", choices=("ibr", "fp"), default="ibr")
    s.add_argument("--oracle", choices=("sa", "hss"), default="sa")
    s.add_argument("--iterations", type=positive, default=5)
    s.add_argument("--evaluations", type=positive, default=100, help="per oracle call")
    s.add_argument("--matches", type=positive, default=200)
    s.add_argument("--features", default="markers_per_stop,bust_rate", help="HSS features")
    s.add_argument("--levels", type=positive, default=5,
                   help="HSS values per feature (games with reference levels use those)")
    s.add_argument("--game-param", action="append", default=None, metavar="KEY=VALUE",
                   help="game parameter, e.g. map=24x24 for microrts (repeatable)")
    s.add_argument("--library", default=None, help="HSS library to start from (JSON)")
    s.add_argument("--hss-variant", choices=("dissertation", "legacy"), default="dissertation",
                   help="HSS: seed 001 Algorithm 1 (default) or the earlier implementation "
                   "(docs/microrts.md)")
    s.add_argument("--local-evaluations", type=positive, default=None,
                   help="HSS: evaluations per local search (default: one SA cooling, 112)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--workers", type=int, default=0)
    s.add_argument("--out", required=True)


def cmd_qd_check(args) -> int:
    """Re-evaluate the elites of two opposite corners on fresh matches (seed 002 Table II)."""
    out = Path(args.run)
    config = json.loads((out / "config.json").read_text())
    archive = ProgramArchive.load(out / "archive.json")
    features = game_features(config["game"])
    names = archive.features
    cls = strategy_class(config["game"])
    lines = [f"# Corner elites re-evaluated on {args.matches:,} fresh matches", "",
             f"`stratsynth qd-check {args.run} --matches {args.matches}`", "",
             "| corner | " + " | ".join(f"{n} (archive → fresh)" for n in names)
             + " | win rate (archive → fresh) |",
             "|---" * (len(names) + 2) + "|"]
    with make_map(args.workers) as backend:
        evaluate = BehaviourWinRate(load_game(config["game"]),
                                    make_player(config["game"], config["target"]), cls,
                                    features, names, args.matches, args.seed, backend)
        for label, elite in zip(("low", "high"), archive.corner_elites()):
            rate, measures = evaluate(elite["program"])
            cells = " | ".join(f"{a:.3f} → {b:.3f}" for a, b in zip(elite["measures"], measures))
            lines.append(f"| {label} | {cells} | {elite['objective']:.3f} → {rate:.3f} |")
        lines += [""]
        for label, elite in zip(("low", "high"), archive.corner_elites()):
            lines += [f"**{label} corner**:", "", "```", elite["program"], "```", ""]
    stats = archive.stats()
    lines += [f"Archive: {stats['elites']} elites, coverage {stats['coverage']:.3f}, "
              f"QD-score {stats['qd_score']:.2f}, best win rate {stats['best']:.3f}."]
    text = "\n".join(lines) + "\n"
    (out / "corners.md").write_text(text)
    print(text)
    return 0


def add_qd_check_parser(sub, positive) -> None:
    c = sub.add_parser("qd-check", help="re-evaluate corner elites of a qd run")
    c.add_argument("run", help="directory written by stratsynth qd")
    c.add_argument("--matches", type=positive, default=10_000)
    c.add_argument("--seed", type=int, default=99)
    c.add_argument("--workers", type=int, default=0)
