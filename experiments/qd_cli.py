"""``stratsynth qd``, ``selfplay`` and ``qd-check``: archives of programs (pyribs),
self-play with SA or HSS oracles, and corner elites re-measured."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from games import game_spec, load_game, resolve

from .config import DEFAULTS, parse_duration, read_run_config, run_config
from .options import (
    add_game,
    add_seed,
    add_target,
    add_workers,
    game_params,
    parse_game_params,
    positive,
)


def qd_space(game: str):
    """The parameter-vector space a game's QD searches (``QDSpec.space``), or None
    for programs of its language."""
    reference = game_spec(game).qd.space
    return None if reference is None else resolve(reference)


def chosen_features(game: str, text: str | None) -> tuple[dict, list[str]]:
    """The game's feature table and the names a command line chose from it (None: all)."""
    space = qd_space(game)
    features = (game_spec(game).feature_table() if space is None else
                {name: (None, rng) for name, rng in space.features.items()})
    names = list(features) if text is None else [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in features]
    if unknown or not names:
        raise ValueError(f"unknown feature(s) {unknown} for {game} "
                         f"(known: {', '.join(features)})")
    return features, names


def _dims(text: str | None, count: int) -> list[int] | None:
    if not text:
        return None
    try:
        dims = [int(d) for d in text.split(",")]
    except ValueError:
        raise ValueError(f"--dims '{text}' must be whole numbers separated by commas") from None
    if len(dims) != count or min(dims) < 1:
        raise ValueError(f"--dims '{text}' needs {count} numbers >= 1, one per feature")
    return dims


def qd_config(args, where: str = "command line") -> dict:
    """A qd run's complete config (``experiments.config``) from a command line or a saved
    config, checked before anything is written."""
    from gp.programs import strategy_class

    from .players import make_player

    settings = {key: getattr(args, key, None) for key in DEFAULTS["qd"]}
    settings["kind"] = "qd"
    if settings["game_params"] is None:
        settings["game_params"] = game_params(args) or None
    space = qd_space(settings["game"])
    if space is not None:  # a vector search's own defaults (Algorithm 1 asks one at a time)
        settings["target"] = settings["target"] or space.target
        settings["matches"] = settings["matches"] or space.matches
        settings["batch"] = settings["batch"] or 1
    config = run_config(settings, where)
    if isinstance(config["features"], list):
        config["features"] = ",".join(config["features"])
    _, names = chosen_features(config["game"], config["features"])
    _dims(config["dims"], len(names))
    if config["budget"] is None and config["evaluations"] is None:
        raise ValueError(f"{where}: give --budget or --evaluations")
    if config["budget"] is not None:
        parse_duration(config["budget"])
    load_game(config["game"], **(config["game_params"] or {}))
    if space is None:
        strategy_class(config["game"], config["dsl"])
    config["target"] = game_spec(config["game"]).synthesis.target(config["target"])
    make_player(config["game"], config["target"])
    return config


def cmd_qd(args, resume: bool = False) -> int:
    from tqdm import tqdm

    from games.backends import make_map
    from gp.programs import strategy_class
    from qd.archive import ProgramArchive
    from qd.map_elites import BehaviourWinRate, run_map_elites
    from qd.vectors import emitter

    from .players import make_player

    out = Path(args.out)
    c = qd_config(args, str(out / "config.json") if resume else "command line")
    features, names = chosen_features(c["game"], c["features"])
    if not resume and out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: directory exists and is not empty "
                         "(use 'stratsynth resume' to continue it)")
    out.mkdir(parents=True, exist_ok=True)
    if not resume:
        (out / "config.json").write_text(json.dumps(c, indent=1) + "\n")
    archive = ProgramArchive(names, [features[n][1] for n in names], _dims(c["dims"], len(names)),
                             c["cells"], c["seed"])
    space = qd_space(c["game"])
    bar = tqdm(total=c["evaluations"], unit="eval", disable=args.quiet)

    def progress(done, stats):
        bar.n = done
        bar.set_postfix(coverage=f"{stats['coverage']:.3f}", qd=f"{stats['qd_score']:.2f}",
                        best=f"{stats['best']:.3f}")
        bar.refresh()

    seconds = parse_duration(c["budget"]) if c["budget"] else None
    with make_map(c["workers"]) as backend:
        if space is None:
            cls = strategy_class(c["game"], c["dsl"])
            game = load_game(c["game"], **(c["game_params"] or {}))
            evaluate = BehaviourWinRate(game, make_player(c["game"], c["target"]), cls, features,
                                        names, c["matches"], c["seed"], backend)
            run_map_elites(archive, cls.default_dsl(), evaluate, c["seed"], out, seconds,
                           c["evaluations"], c["batch"], progress=progress, resume=resume)
        else:
            evaluate = space.metric(c["game_params"] or {}, c["target"], names, c["matches"],
                                    c["seed"], backend, out)
            run_map_elites(archive, None, evaluate, c["seed"], out, seconds, c["evaluations"],
                           progress=progress, resume=resume, present=space.present,
                           emitter_list=[emitter(space, archive.archive, c["seed"], c["batch"])])
    bar.close()
    if len(names) == 2:
        title = f"{c['game']}: win rate against {c['target']}"
        if space is None:
            archive.heatmap(out / "heatmap.png", title)
        else:
            archive.heatmap(out / "heatmap.png", f"{title}\n{space.subject}", space.objective)
    stats = archive.stats()
    print(f"{stats['elites']} elites, coverage {stats['coverage']:.3f}, "
          f"QD-score {stats['qd_score']:.2f}, best {stats['best']:.3f}; archive in "
          f"{out / 'archive.json'}")
    return 0


def resume_qd(run_dir: Path, quiet: bool = True, extend: dict | None = None) -> int:
    """Continue a killed ``stratsynth qd`` run from its evaluation log; ``extend``
    (``budget`` and/or ``evaluations``) replaces its budget, so a finished run goes on.
    MAP-Elites does not depend on its budget, so the extended run asks what a run
    started with the larger budget would have asked."""
    import argparse

    config = read_run_config(run_dir)
    if extend:
        config.update(extend)
        if "budget" not in extend:
            config["budget"] = None
        if "evaluations" not in extend:
            config["evaluations"] = None
        qd_config(argparse.Namespace(**config), str(run_dir / "config.json"))  # check it
        (run_dir / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    args = argparse.Namespace(**{key: config.get(key) for key in DEFAULTS["qd"]})
    args.out, args.quiet = str(run_dir), quiet
    return cmd_qd(args, resume=True)


def add_parsers(sub) -> None:
    q = sub.add_parser("qd", help="MAP-Elites archive of programs (pyribs)")
    add_game(q, dsl=True)
    q.add_argument("--features", required=True, help="comma-separated feature names")
    q.add_argument("--dims", default=None, help="cells per feature, e.g. 10,10")
    q.add_argument("--cells", type=positive, default=None,
                   help=f"CVT cells (> 2 features; default {DEFAULTS['qd']['cells']})")
    add_target(q)
    q.add_argument("--matches", type=positive, default=None,
                   help=f"matches per evaluation (default {DEFAULTS['qd']['matches']})")
    q.add_argument("--batch", type=positive, default=None,
                   help=f"programs per emitter per ask (default {DEFAULTS['qd']['batch']})")
    q.add_argument("--budget", default=None)
    q.add_argument("--evaluations", type=positive, default=None)
    add_seed(q)
    add_workers(q)
    q.add_argument("--out", required=True)
    q.add_argument("--quiet", action="store_true")
    _add_selfplay_parser(sub)
    _add_qd_check_parser(sub)


def cmd_selfplay(args) -> int:
    """IBR or FP; a run in an ``--out`` that holds one continues it (same settings;
    ``--iterations`` may grow)."""
    import random

    from games.backends import make_map
    from games.files import check_same_setting, write_atomically
    from gp.programs import strategy_class
    from gp.simplify import simplified_text
    from qd.hss import Library, feature_levels
    from qd.selfplay import hss_oracle, sa_oracle, self_play

    game = load_game(args.game, **game_params(args))
    cls = strategy_class(args.game, args.dsl)
    dsl = cls.default_dsl()
    out = Path(args.out)
    opponents = opponent_pool(args)
    starts = library_programs(args, dsl)
    settings = selfplay_settings(args)
    if (out / "config.json").is_file():
        check_same_setting(out / "config.json", read_run_config(out), settings)
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "config.json", json.dumps(settings, indent=1) + "\n")

    def save(sequence: list[str]) -> None:
        """The library, and each program simplified (``sequence.json`` keeps the
        oracle's own texts, which a continued run needs)."""
        if args.oracle == "hss":
            oracle.library.save(out / "library.json")
        for i, text in enumerate(sequence):
            write_atomically(out / f"program{i}.txt", simplified_text(dsl, text) + "\n")

    with make_map(args.workers) as backend:
        if args.oracle == "sa":
            oracle = sa_oracle(game, cls, args.matches, args.evaluations, backend)
        else:
            features, names = chosen_features(args.game, args.features)
            kept = out / "library.json"
            start_from = kept if kept.is_file() else args.library
            library = Library.load(start_from) if start_from else Library()
            if not kept.is_file():
                for text in starts:
                    library.add_unmeasured(text)
            levels = game_spec(args.game).feature_levels()
            levels = ([list(levels)] * len(names) if levels is not None else
                      feature_levels([features[n][1] for n in names], args.levels))
            oracle = hss_oracle(game, cls, features, names, levels,
                                args.matches, args.evaluations, library, backend,
                                variant=args.hss_variant,
                                local_evaluations=args.local_evaluations)
        start = dsl.to_text(dsl.random_program(random.Random(args.seed)))
        sequence = self_play(oracle, cls, start, args.iterations, args.seed,
                             fictitious=args.driver == "fp", out=out, after_step=save,
                             opponents=opponents, mixture=args.mixture)
    save(sequence)
    print(f"{len(sequence)} programs in {out} (program{len(sequence) - 1}.txt is the last)")
    return 0


def library_programs(args, dsl) -> list[str]:
    """``--library-programs``: program files that start HSS's library, as text."""
    from gp.programs import read_program

    if not args.library_programs:
        return []
    if args.oracle != "hss":
        raise ValueError("--library-programs: only the HSS oracle has a library")
    return [dsl.to_text(read_program(args.game, path.strip(), args.dsl))
            for path in args.library_programs.split(",")]


def opponent_pool(args) -> list:
    """``--opponents``: fixed members of FP's mixture, e.g. a pool of bots."""
    from .players import make_player

    if not args.opponents:
        return []
    if args.driver != "fp":
        raise ValueError("--opponents: fixed opponents are members of fictitious play's "
                         "mixture (--driver fp); IBR answers only the latest program")
    specs = [spec.strip() for spec in args.opponents.split(",")]
    if "" in specs or len(set(specs)) != len(specs):
        raise ValueError(f"--opponents: '{args.opponents}' has an empty or repeated spec")
    return [make_player(args.game, spec, dsl=args.dsl) for spec in specs]


def selfplay_settings(args) -> dict:
    """What a continued self-play run must share with the run it continues."""
    return {"command": "selfplay", "game": args.game, "game_params": game_params(args),
            "dsl": args.dsl, "driver": args.driver, "oracle": args.oracle,
            "evaluations": args.evaluations, "matches": args.matches,
            "features": args.features, "levels": args.levels, "library": args.library,
            "hss_variant": args.hss_variant, "local_evaluations": args.local_evaluations,
            "opponents": args.opponents, "mixture": args.mixture,
            "library_programs": args.library_programs, "seed": args.seed}


def _add_selfplay_parser(sub) -> None:
    s = sub.add_parser("selfplay", help="IBR or FP with an SA or HSS best-response oracle")
    add_game(s, dsl=True)
    s.add_argument("--driver", choices=("ibr", "fp"), default="ibr")
    s.add_argument("--oracle", choices=("sa", "hss"), default="sa")
    s.add_argument("--iterations", type=positive, default=5)
    s.add_argument("--evaluations", type=positive, default=100, help="per oracle call")
    s.add_argument("--matches", type=positive, default=200)
    s.add_argument("--features", default=None,
                   help="HSS features, comma-separated (default: all of the game's)")
    s.add_argument("--levels", type=positive, default=5,
                   help="HSS values per feature (games with reference levels use those)")
    s.add_argument("--library", default=None, help="HSS library to start from (JSON)")
    s.add_argument("--library-programs", default=None,
                   help="HSS: program files, comma-separated, added to the library and "
                   "measured against the first target (one evaluation each)")
    s.add_argument("--hss-variant", choices=("dissertation", "legacy"), default="dissertation",
                   help="HSS: seed 001 Algorithm 1 (default) or the earlier implementation "
                   "(docs/quality-diversity.md)")
    s.add_argument("--local-evaluations", type=positive, default=None,
                   help="HSS: evaluations per local search (default: one SA cooling, 112)")
    s.add_argument("--opponents", default=None,
                   help="FP: player specs, comma-separated, in every mixture (e.g. a pool "
                   "of bots); the first response then answers them alone")
    s.add_argument("--mixture", choices=("sampled", "stratified"), default="sampled",
                   help="FP: one member drawn per match (default), or --matches against "
                   "every member, averaged")
    add_seed(s)
    add_workers(s)
    s.add_argument("--out", required=True)


def cmd_qd_check(args) -> int:
    """Re-evaluate the elites of two opposite corners on fresh matches (seed 002 Table II)."""
    from games.backends import make_map
    from gp.programs import strategy_class
    from gp.simplify import simplified_text
    from qd.archive import ProgramArchive
    from qd.map_elites import BehaviourWinRate

    from .players import make_player

    run = Path(args.run)
    config = read_run_config(run)
    archive = ProgramArchive.load(run / "archive.json")
    params = {**(config.get("game_params") or {}), **parse_game_params(args.game_param)}
    load_game(config["game"], **params)  # a bad override fails before any match
    report = Path(args.out) if args.out else run / "corners.md"
    if report.suffix != ".md":
        raise ValueError(f"--out {args.out}: the report is a Markdown file (name.md)")
    command = " ".join(["stratsynth qd-check", str(args.run), "--matches", str(args.matches),
                        *(f"--game-param '{p}'" for p in args.game_param or ()),
                        *(["--seed", str(args.seed)] if args.seed != 99 else []),
                        *(["--out", str(args.out)] if args.out else [])])
    names = archive.features
    space = qd_space(config["game"])
    if space is None:
        features = game_spec(config["game"]).feature_table()
        cls = strategy_class(config["game"], config.get("dsl"))
        present = partial(simplified_text, cls.default_dsl())
    else:
        present = space.present
    lines = [f"# Corner elites re-evaluated on {args.matches:,} fresh matches", "",
             f"`{command}`", "", *([f"Game parameters: `{json.dumps(params)}` (the run's: "
                                   f"`{json.dumps(config.get('game_params'))}`).", ""]
                                  if args.game_param else []),
             "| corner | " + " | ".join(f"{n} (archive → fresh)" for n in names)
             + " | win rate (archive → fresh) |",
             "|---" * (len(names) + 2) + "|"]
    with make_map(args.workers) as backend:
        if space is None:
            evaluate = BehaviourWinRate(
                load_game(config["game"], **params),
                make_player(config["game"], config["target"]), cls, features, names,
                args.matches, args.seed, backend)
        else:
            evaluate = space.metric(params, config["target"], names, args.matches, args.seed,
                                    backend, report.with_suffix(".games.jsonl"))
        for label, elite in zip(("low", "high"), archive.corner_elites()):
            rate, measures = evaluate(elite["program"])
            cells = " | ".join(f"{a:.3f} → {b:.3f}" for a, b in zip(elite["measures"], measures))
            lines.append(f"| {label} | {cells} | {elite['objective']:.3f} → {rate:.3f} |")
        lines += [""]
        for label, elite in zip(("low", "high"), archive.corner_elites()):
            lines += [f"**{label} corner**:", "", "```", present(elite["program"]), "```", ""]
    stats = archive.stats()
    lines += [f"Archive: {stats['elites']} elites, coverage {stats['coverage']:.3f}, "
              f"QD-score {stats['qd_score']:.2f}, best win rate {stats['best']:.3f}."]
    text = "\n".join(lines) + "\n"
    report.write_text(text)
    print(text)
    return 0


def _add_qd_check_parser(sub) -> None:
    c = sub.add_parser("qd-check", help="re-evaluate corner elites of a qd run")
    c.add_argument("run", help="directory written by stratsynth qd")
    c.add_argument("--matches", type=positive, default=10_000)
    c.add_argument("--seed", type=int, default=99, help="seed of the fresh matches")
    c.add_argument("--game-param", dest="game_param", action="append", default=None,
                   metavar="KEY=VALUE", help="override one of the run's game parameters, "
                   "e.g. to check on more levels (repeatable; values read as JSON)")
    c.add_argument("--out", default=None, help="report file (default: RUN/corners.md); a "
                   "search over vectors logs its games beside it (NAME.games.jsonl) and a "
                   "killed check goes on from there")
    add_workers(c)
