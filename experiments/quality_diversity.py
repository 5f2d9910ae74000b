"""A QD run: a MAP-Elites archive of programs (pyribs), in its own run directory
(``stratsynth qd``), and its corner elites re-measured (``stratsynth qd-check``).

The run directory holds ``config.json``, ``log.csv`` (every evaluation; the
checkpoint ``QDRun.open(RUN).run()`` resumes from), ``stats.csv``, ``archive.json``
and, with two features, ``heatmap.png``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from games import game_spec, resolve

from .config import QDConfig, default_target, open_game, parse_duration
from .loader import load, read_run_config, to_dict, with_identity
from .lock import check_empty, hold
from .trust import Consent, add_trust_flags, admit_target, consent_of, say_trusted

DEFAULT_MATCHES = 200
DEFAULT_BATCH = 8
DEFAULT_CORRECTED = 10
"""Fresh samples per elite behind ``qd-check``'s corrected archive."""


def qd_space(game: str):
    """The parameter-vector space a game's QD searches (``QDSpec.space``), or None
    for programs of its language."""
    reference = game_spec(game).qd.space
    return None if reference is None else resolve(reference)


def chosen_features(game: str, text: str | None) -> tuple[dict, list[str]]:
    """The game's feature table and the names a run chose from it (None: all)."""
    space = qd_space(game)
    features = (game_spec(game).feature_table() if space is None else
                {name: (None, rng) for name, rng in space.features.items()})
    names = list(features) if text is None else [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in features]
    if unknown or not names:
        raise ValueError(f"unknown feature(s) {unknown} for {game} "
                         f"(known: {', '.join(features)})")
    return features, names


class QDRun:
    """One MAP-Elites run, resolved (game, language or vector space, features, target)
    and checked before anything is written; ``run()`` takes the run's lock and returns
    the archive (``qd.archive.ProgramArchive``). It never prints: progress goes to
    ``progress(done, stats)``."""

    def __init__(self, run_dir: Path, config: QDConfig, *, resume: bool, where: str,
                 rewrite: bool = False, located_target: str | None = None) -> None:
        from gp.programs import strategy_class

        from .players import make_player

        self.run_dir, self.resume, self.where, self.rewrite = Path(run_dir), resume, where, rewrite
        c = config
        try:
            self.space = qd_space(c.game)
            self.features, self.names = chosen_features(c.game, c.features)
            if self.space is not None:  # a vector search's own defaults
                c = _fill(c, target=self.space.target, matches=self.space.matches, batch=1)
            c = _fill(c, target=default_target(c.game), matches=DEFAULT_MATCHES,
                      batch=DEFAULT_BATCH)
            self.game = open_game(c.game, c.game_params)
            self.language_class = None if self.space else strategy_class(c.game, c.dsl)
            # a saved run's target as ``experiments.trust.admit_target`` located its files
            self.target_spec = located_target or c.target
            self.target = make_player(c.game, self.target_spec)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        self.dims = None if c.dims is None else [int(d) for d in c.dims.split(",")]
        if self.dims is not None and len(self.dims) != len(self.names):
            raise ValueError(f"{where}: dims '{c.dims}' needs {len(self.names)} numbers, one "
                             "per feature")
        self.config = c
        self.seconds = parse_duration(c.budget) if c.budget else None

    @classmethod
    def new(cls, out: str | Path, config: QDConfig, where: str = "command line") -> QDRun:
        run_dir = Path(out)
        check_empty(run_dir)
        return cls(run_dir, config, resume=False, where=where)

    @classmethod
    def open(cls, run_dir: str | Path, *, budget: str | None = None,
             evaluations: int | None = None, consent: Consent | None = None) -> QDRun:
        """The run kept in ``run_dir``, to resume; ``budget``/``evaluations`` replace its
        budget, so a finished run goes on (MAP-Elites does not depend on its budget: the
        extended run asks what a run started with the larger budget would have asked).
        ``consent``: what the user named for it (``experiments.trust``): a target reading
        files outside the run directory is refused otherwise."""
        from gp.evaluator import read_log

        run_dir = Path(run_dir)
        where = str(run_dir / "config.json")
        saved = read_run_config(run_dir)
        config = load(QDConfig, saved, where, saved=True)
        extend = budget is not None or evaluations is not None
        if extend:
            config = load(QDConfig, {**to_dict(config), "budget": budget,
                                     "evaluations": evaluations}, "resume")
            done = len(read_log(run_dir / "log.csv")) if (run_dir / "log.csv").is_file() else 0
            if evaluations is not None and evaluations < done:
                raise ValueError(f"resume: --evaluations {evaluations} is fewer than the "
                                 f"{done} the run has done")
        located, trusted = admit_target(config.target, run_dir, consent or Consent(), where)
        say_trusted(where, trusted)
        return cls(run_dir, config, resume=True, where=where, rewrite=extend,
                   located_target=located)

    def evaluate(self, backend: Any, matches: int | None = None, seed: int | None = None,
                 game_params: dict | None = None, games_file: Path | None = None,
                 engine: str | None = None):
        """The behaviour/win-rate measure of the run (or of a re-check with other matches,
        or on another ``engine``: the same results)."""
        from qd.map_elites import BehaviourWinRate

        c = self.config
        matches = c.matches if matches is None else matches
        seed = c.seed if seed is None else seed
        params = (c.game_params or {}) if game_params is None else game_params
        if self.space is None:
            game = self.game if game_params is None else open_game(c.game, params)
            return BehaviourWinRate(game, self.target, self.language_class, self.features,
                                    self.names, matches, seed, backend,
                                    engine=engine or c.engine)
        return self.space.metric(params, self.target_spec, self.names, matches, seed, backend,
                                 games_file or self.run_dir, subject=c.subject)

    def present(self) -> Callable[[str], str]:
        """How a program (or vector) of the run is shown."""
        from gp.simplify import simplified_text

        if self.space is not None:
            return self.space.present
        return partial(simplified_text, self.language_class.default_dsl())

    def run(self, progress: Callable[[int, dict], None] | None = None):
        """Start or resume the run under its lock; the archive it leaves."""
        from games.backends import make_map
        from games.engines import prepare_engines
        from qd.archive import ProgramArchive
        from qd.map_elites import run_map_elites
        from qd.resampling import make_resampling
        from qd.vectors import emitter

        c, out = self.config, self.run_dir
        prepare_engines(self.game, c.engine)  # compiling is not the search's time
        with hold(out):
            if not self.resume:
                check_empty(out)
            out.mkdir(parents=True, exist_ok=True)
            if not self.resume or self.rewrite:
                (out / "config.json").write_text(json.dumps(with_identity(c), indent=1) + "\n")
            archive = ProgramArchive(self.names, [self.features[n][1] for n in self.names],
                                     self.dims, c.cells, c.seed)
            resampling = make_resampling(c.resample, max_samples=c.max_samples)
            with make_map(c.workers) as backend:
                evaluate = self.evaluate(backend)
                if self.space is None:
                    run_map_elites(archive, self.language_class.default_dsl(), evaluate,
                                   c.seed, out, self.seconds, c.evaluations, c.batch,
                                   progress=progress, resume=self.resume,
                                   resampling=resampling)
                else:
                    run_map_elites(archive, None, evaluate, c.seed, out, self.seconds,
                                   c.evaluations, progress=progress, resume=self.resume,
                                   present=self.space.present, resampling=resampling,
                                   emitter_list=[emitter(self.space, archive.archive, c.seed,
                                                                    c.batch)])
            if len(self.names) == 2:
                title = f"{c.game}: win rate against {c.target}"
                if self.space is None:
                    archive.heatmap(out / "heatmap.png", title)
                else:
                    subject = self.space.subject + (f" ({c.subject})" if c.subject not in (
                        None, self.space.chosen(None)) else "")
                    archive.heatmap(out / "heatmap.png", f"{title}\n{subject}",
                                    self.space.objective)
        return archive


def _fill(config: QDConfig, **defaults: Any) -> QDConfig:
    """``config`` with the fields it leaves unset taken from ``defaults``."""
    import dataclasses

    unset = {k: v for k, v in defaults.items() if getattr(config, k) is None}
    return dataclasses.replace(config, **unset) if unset else config


# -- the command line: ``stratsynth qd`` and ``qd-check`` -------------------------------------

def progress_bar(total: int | None, quiet: bool):
    """A tqdm bar and the ``progress(done, stats)`` that moves it."""
    from tqdm import tqdm

    bar = tqdm(total=total, unit="eval", disable=quiet)

    def progress(done, stats):
        bar.n = done
        bar.set_postfix(coverage=f"{stats['coverage']:.3f}", qd=f"{stats['qd_score']:.2f}",
                        best=f"{stats['best']:.3f}")
        bar.refresh()

    return bar, progress


def run_with_progress(run: QDRun, quiet: bool):
    bar, progress = progress_bar(run.config.evaluations, quiet)
    try:
        return run.run(progress=progress)
    finally:
        bar.close()


def describe(archive, run_dir: Path) -> str:
    stats = archive.stats()
    return (f"{stats['elites']} elites, coverage {stats['coverage']:.3f}, "
            f"QD-score {stats['qd_score']:.2f}, best {stats['best']:.3f}; archive in "
            f"{run_dir / 'archive.json'}")


def cmd_qd(args) -> int:
    from .options import config_from

    run = QDRun.new(args.out, config_from(QDConfig, args))
    print(describe(run_with_progress(run, args.quiet), run.run_dir))
    return 0


def cmd_qd_check(args) -> int:
    """Re-evaluate the elites of two opposite corners on fresh matches, and every elite
    for the corrected archive."""
    from games.backends import make_map
    from games.engines import prepare_engines
    from qd.archive import ProgramArchive

    from .options import parse_game_params

    run_dir = Path(args.run)
    where = str(run_dir / "config.json")
    config = load(QDConfig, read_run_config(run_dir), where, saved=True)
    located, trusted = admit_target(config.target, run_dir, consent_of(args), where)
    say_trusted(where, trusted)
    run = QDRun(run_dir, config, resume=True, where=where, located_target=located)
    try:
        archive = ProgramArchive.load(run_dir / "archive.json")
    except (AttributeError, KeyError, TypeError, IndexError, UnicodeDecodeError):
        raise ValueError(f"{run_dir / 'archive.json'}: not the archive of a qd run") from None
    params = {**(config.game_params or {}), **parse_game_params(args.game_param)}
    game = open_game(config.game, params)  # a bad override fails before any match
    report = Path(args.out) if args.out else run_dir / "corners.md"
    if report.suffix != ".md":
        raise ValueError(f"--out {args.out}: the report is a Markdown file (name.md)")
    command = " ".join(["stratsynth qd-check", str(args.run), "--matches", str(args.matches),
                        *(f"--game-param '{p}'" for p in args.game_param or ()),
                        *(["--seed", str(args.seed)] if args.seed != 99 else []),
                        *(["--corrected", str(args.corrected)]
                          if args.corrected != DEFAULT_CORRECTED else []),
                        *(["--out", str(args.out)] if args.out else [])])
    names = archive.features
    present = run.present()
    lines = [f"# Corner elites re-evaluated on {args.matches:,} fresh matches", "",
             f"`{command}`", "", *([f"Game parameters: `{json.dumps(params)}` (the run's: "
                                   f"`{json.dumps(config.game_params)}`).", ""]
                                  if args.game_param else []),
             *([f"Subject: `{config.subject}` (the run's player whose vector is searched).",
                ""] if config.subject is not None else []),
             "| corner | " + " | ".join(f"{n} (archive → fresh)" for n in names)
             + " | win rate (archive → fresh) |",
             "|---" * (len(names) + 2) + "|"]
    engine = args.engine or config.engine
    prepare_engines(game, engine)
    with make_map(args.workers) as backend:
        evaluate = run.evaluate(backend, matches=args.matches, seed=args.seed,
                                game_params=params,
                                games_file=report.with_suffix(".games.jsonl"), engine=engine)
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
        if args.corrected:
            lines += ["", *corrected_section(run, archive, backend, args, params, engine,
                                             report)]
    text = "\n".join(lines) + "\n"
    report.write_text(text)
    print(text)
    return 0


def corrected_section(run: QDRun, archive, backend, args, params: dict, engine: str,
                      report: Path) -> list[str]:
    """The corrected archive (``qd.corrected``): every elite re-evaluated on
    ``args.corrected`` fresh samples of the run's matches (one evaluation of that many
    times the matches) and re-inserted into an empty grid; its figures also go to
    ``REPORT-corrected.json``."""
    from gp.evaluator import read_log
    from qd.corrected import corrected_archive, reevaluate

    n, matches = args.corrected, run.config.matches
    evaluate = run.evaluate(backend, matches=n * matches, seed=args.seed + 1,
                            game_params=params, engine=engine,
                            games_file=report.with_name(f"{report.stem}-corrected.games.jsonl"))
    elites = archive.elites()
    _, correction = corrected_archive(archive, reevaluate([e["program"] for e in elites],
                                                          evaluate), n)
    rows = read_log(run.run_dir / "log.csv") if (run.run_dir / "log.csv").is_file() else []
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["program"]] = counts.get(row["program"], 0) + 1
    behind = [counts.get(e["program"], 0) for e in elites]
    data = {**correction.as_dict(), "matches_per_sample": matches, "seed": args.seed + 1,
            "resample": run.config.resample, "evaluations": len(rows),
            "evaluations_per_elite": sum(behind) / len(behind) if behind else None}
    report.with_name(f"{report.stem}-corrected.json").write_text(
        json.dumps(data, indent=1) + "\n")
    return [f"## Corrected archive ({n} fresh samples of {matches} matches per elite)", "",
            *correction.lines(), "",
            f"Run: `--resample {run.config.resample}`, {len(rows):,} evaluations; "
            + (f"{data['evaluations_per_elite']:.2f} evaluations logged per elite (a plain "
               "run logs a repeated program again with its one value; an adaptive run "
               "draws a fresh sample each time)." if behind else "no elites.")]


def add_parsers(sub) -> None:
    from .options import add_config, add_engine, add_game, add_workers, non_negative, positive

    q = sub.add_parser("qd", help="MAP-Elites archive of programs (pyribs)")
    add_game(q, dsl=True)
    add_config(q, QDConfig)
    q.add_argument("--out", required=True)
    q.add_argument("--quiet", action="store_true")
    q.set_defaults(handler=cmd_qd)

    c = sub.add_parser("qd-check", help="re-evaluate corner elites of a qd run")
    c.add_argument("run", help="directory written by stratsynth qd")
    c.add_argument("--matches", type=positive, default=10_000)
    c.add_argument("--seed", type=int, default=99, help="seed of the fresh matches")
    c.add_argument("--corrected", type=non_negative, default=DEFAULT_CORRECTED, metavar="N",
                   help="corrected archive: every elite re-evaluated on N fresh samples of "
                   f"the run's matches and re-inserted into an empty grid (default "
                   f"{DEFAULT_CORRECTED}; 0: skip)")
    c.add_argument("--game-param", dest="game_param", action="append", default=None,
                   metavar="KEY=VALUE", help="override one of the run's game parameters, "
                   "e.g. to check on more levels (repeatable; values read as JSON)")
    c.add_argument("--out", default=None, help="report file (default: RUN/corners.md); a "
                   "search over vectors logs its games beside it (NAME.games.jsonl) and a "
                   "killed check goes on from there")
    add_workers(c)
    add_engine(c, default=None, shown="the run's, else fast")
    add_trust_flags(c)
    c.set_defaults(handler=cmd_qd_check)
