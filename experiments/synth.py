"""``stratsynth synth`` and ``stratsynth resume``: one synthesis run in a run directory.

The run directory holds ``config.json`` (every setting; enough to reproduce or
resume), ``log.csv`` (one row per evaluation: seconds, evaluations, metric,
value, Ψ, C, best Ψ, best C, program text) and ``best.txt`` (the best-Ψ program,
loadable as ``program:RUN/best.txt``). The log is also the checkpoint: after a
kill, ``stratsynth resume RUN`` replays the logged evaluations and goes on.
"""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path
from typing import Any

from games import game_spec, load_game
from gp.simplify import simplified_text

from .config import DEFAULTS, kind_of, parse_duration, read_run_config, run_config
from .options import add_game, add_seed, add_target, add_workers, game_params, positive


def validate(config: dict[str, Any], where: str = "command line") -> None:
    """Check a run's settings before anything starts; errors name the field."""
    method = config.get("method", "sa")
    method_settings(config, where)
    if config.get("budget") is None and config.get("evaluations") is None:
        raise ValueError(f"{where}: give a budget (e.g. 30m) or a number of evaluations")
    if config.get("budget") is not None:
        parse_duration(config["budget"])
    if config.get("clock", "wall") not in ("wall", "cpu"):
        raise ValueError(f"{where}: clock must be wall or cpu, got {config['clock']!r}")
    if config.get("clock") == "cpu" and not (config.get("workers") == 1
                                             or config.get("backend") == "serial"):
        raise ValueError(f"{where}: clock cpu counts this process's CPU time only: "
                         "it needs workers 1 (serial evaluation)")
    stop_at = config.get("stop_at")
    if stop_at is not None and (isinstance(stop_at, bool) or not isinstance(stop_at, (int, float))
                                or not stop_at > 0):
        raise ValueError(f"{where}: stop_at must be a number > 0 (a Ψ, e.g. 1), "
                         f"got {stop_at!r}")
    for key in ("evaluations", "matches"):
        value = config.get(key)
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValueError(f"{where}: {key} must be a whole number >= 1, got {value!r}")
    if config.get("score") not in (None, "A", "O"):
        raise ValueError(f"{where}: score must be A or O, got {config['score']!r}")
    from gp.synthesis import synthesizer_class

    from .metrics import check_metric_needs

    cls = synthesizer_class(method)
    check_metric_needs(method=method, fitness=config.get("fitness"),
                       extra_metrics=cls.metrics(method_settings(config, where)),
                       data=config.get("data"), score=config.get("score"), where=where)
    check_references(config, where)
    check_psi_options(config, where)


def method_settings(config: dict[str, Any], where: str):
    """The method's settings from a run config's flat keys (``gp.synthesis.settings_from``)."""
    from gp.synthesis import setting_fields, settings_from, synthesizer_class

    try:
        cls = synthesizer_class(config.get("method", "sa"))
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    run_keys = set(DEFAULTS["synth"]) - LEGACY_METHOD_KEYS
    own = {f.name for f in setting_fields(cls.Settings)}
    values = {k: v for k, v in config.items() if k not in run_keys or k in own}
    values.pop("command", None)
    return settings_from(cls, values, where=where)


LEGACY_METHOD_KEYS = {"sketch_share", "rollout_evaluations", "population",
                      "remeasure_restarts", "sketch_schedule", "restart_random"}
"""Config keys that are the built-in methods' settings."""


def check_psi_options(config: dict[str, Any], where: str) -> None:
    """``paired`` and ``margin_weight`` (``experiments.metrics.check_psi_options``)."""
    from .metrics import check_psi_options as check

    check(game_name=config["game"], game=game_of(config) if config.get("margin_weight")
          is not None else None, target=config.get("target"), matches=config.get("matches"),
          fitness=config.get("fitness"), paired=config.get("paired"),
          margin_weight=config.get("margin_weight"), where=where)


def check_references(config: dict[str, Any], where: str) -> None:
    """What a run names must exist before it starts: game and parameters, language,
    target, data and initial program files, and the cloning score of the game."""
    from gp.programs import strategy_class

    from .players import make_targets

    try:
        spec = game_spec(config["game"])
        game_of(config)
        strategy_class(config["game"], config.get("dsl"))
        make_targets(config["game"], config.get("target") or spec.default_target)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    if config.get("score") is not None and config["score"] not in spec.cloning:
        raise ValueError(f"{where}: {config['game']} has no cloning score {config['score']} "
                         f"(known: {', '.join(spec.cloning) or 'none'})")
    for key in ("data", "initial"):
        if config.get(key) and not Path(config[key]).is_file():
            raise ValueError(f"{where}: {key} '{config[key]}' is not a file")
    if config.get("initial"):  # a program the run's language cannot read stops it here
        path = Path(config["initial"])
        strategy_class(config["game"], config.get("dsl")).default_dsl().parse(
            path.read_text(), source=str(path))


def game_of(config: dict[str, Any]):
    return load_game(config["game"], **(config.get("game_params") or {}))


def build_metrics(config: dict[str, Any], backend, run_dir: Path | None = None,
                  extra_metrics=()):
    """The run's ``Metrics`` from its config (``experiments.metrics.build_metrics``)."""
    from gp.programs import strategy_class

    from .metrics import build_metrics as build

    return build(game_name=config["game"], game=game_of(config),
                 language_class=strategy_class(config["game"], config.get("dsl")),
                 target=config.get("target"), matches=config.get("matches"),
                 seed=config["seed"], fitness=config.get("fitness"), data=config.get("data"),
                 score=config.get("score"), paired=bool(config.get("paired")),
                 margin_weight=config.get("margin_weight"), engine=config.get("engine"),
                 extra_metrics=extra_metrics, backend=backend, run_dir=run_dir,
                 fitness_on_failure=config.get("fitness_on_failure") or "score",
                 fitness_time_limit=config.get("fitness_time_limit"))


class Progress:
    """tqdm bar with best Ψ, evaluations and evaluations per second."""

    def __init__(self, label: str, total: int | None, quiet: bool) -> None:
        from tqdm import tqdm

        self.bar = tqdm(desc=label, total=total, unit="eval", disable=quiet, leave=False)

    def __call__(self, scored) -> None:
        self.bar.update(1)
        rate = scored.evaluations / max(scored.seconds, 1e-9)
        self.bar.set_postfix({f"best_{scored.objective}": f"{scored.best:.3f}",
                              "evals": scored.evaluations, "evals_per_s": f"{rate:.2f}"})

    def close(self) -> None:
        self.bar.close()


def execute(run_dir: Path, config: dict[str, Any], resume: bool, quiet: bool = True):
    """Run (or resume) the synthesis a config describes inside ``run_dir``."""
    from games.backends import make_backend
    from gp.evaluator import Budget, Evaluator
    from gp.programs import strategy_class
    from gp.synthesis import synthesizer_class

    validate(config, str(run_dir / "config.json"))
    dsl = strategy_class(config["game"], config.get("dsl")).default_dsl()
    initial = None
    if config.get("initial"):
        path = Path(config["initial"])
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such program file")
        initial = dsl.parse(path.read_text(), source=str(path))
    seconds = parse_duration(config["budget"]) if config.get("budget") else None
    budget = Budget(seconds=seconds, evaluations=config.get("evaluations"),
                    clock=config.get("clock") or "wall", stop_at=config.get("stop_at"))
    progress = Progress(f"{config['method']} {config['game']} seed {config['seed']}",
                        config.get("evaluations"), quiet)
    cls = synthesizer_class(config["method"])
    settings = method_settings(config, str(run_dir / "config.json"))
    with make_backend(config.get("backend"), config.get("workers", 0),
                      config.get("scheduler")) as backend:
        metrics = build_metrics(config, backend, run_dir, cls.metrics(settings))
        evaluator = Evaluator(metrics, dsl.to_text, budget, run_dir, resume=resume,
                              on_score=progress, present=partial(simplified_text, dsl))
        try:
            cls(language=dsl, evaluator=evaluator, rng=random.Random(config["seed"]),
                settings=settings, initial=initial).run()
            evaluator.close()
        finally:
            progress.close()
    (run_dir / "done").write_text(f"{evaluator.budget.used} evaluations\n")
    return evaluator


def start_run(run_dir: Path, settings: dict[str, Any], quiet: bool = True,
              where: str = "command line"):
    config = run_config({**settings, "kind": "synth"}, where)
    validate(config, where)
    if run_dir.exists() and any(run_dir.iterdir()):
        raise ValueError(f"{run_dir}: run directory exists and is not empty "
                         "(use 'stratsynth resume' to continue it)")
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    return execute(run_dir, config, resume=False, quiet=quiet)


def resume_run(run_dir: Path, quiet: bool = True):
    config = run_config(read_run_config(run_dir), str(run_dir / "config.json"))
    return execute(run_dir, config, resume=True, quiet=quiet)


def _report(evaluator, run_dir: Path) -> None:
    print(f"best {evaluator.objective} {evaluator.best_value:.4f} after "
          f"{evaluator.budget.used} evaluations; "
          f"program in {run_dir / 'best.txt'}")


def cmd_synth(args) -> int:
    config = {key: getattr(args, key, None) for key in DEFAULTS["synth"]}
    config["game_params"] = game_params(args) or None
    run_dir = Path(args.out)
    _report(start_run(run_dir, config, quiet=args.quiet), run_dir)
    return 0


def cmd_resume(args) -> int:
    run_dir = Path(args.run)
    kind = kind_of(read_run_config(run_dir))
    extend = {key: value for key, value in (("budget", getattr(args, "budget", None)),
                                            ("evaluations", getattr(args, "evaluations", None)))
              if value is not None}
    if kind == "qd":
        from .qd_cli import resume_qd

        return resume_qd(run_dir, quiet=args.quiet, extend=extend)
    if kind != "synth":
        raise ValueError(f"{run_dir / 'config.json'}: unknown run kind '{kind}'")
    if extend:
        raise ValueError(f"{run_dir}: --budget/--evaluations extend qd runs only (a synth "
                         "run's budget shapes its search, e.g. SA's cooling; start a new run)")
    _report(resume_run(run_dir, quiet=args.quiet), run_dir)
    return 0


def add_parsers(sub) -> None:
    synth = sub.add_parser("synth", help="synthesize a program (writes a run directory)")
    add_game(synth, dsl=True)
    synth.add_argument("--method", default=None, help="synthesizer: sa (default), uct, gp, "
                       "gp-simple, sketch-sa, sketch-uct, or an installed plug-in (gp.synthesis)")
    synth.add_argument("--score", choices=("A", "O"), default=None,
                       help="cloning score for sketch learning: A actions, O observations")
    synth.add_argument("--data", default=None, help="record file to clone (stratsynth record)")
    add_target(synth)
    synth.add_argument("--budget", default=None, help="time budget: 90s, 30m, 2h")
    synth.add_argument("--evaluations", type=positive, default=None, help="evaluation budget")
    synth.add_argument("--stop-at", dest="stop_at", type=float, default=None,
                       help="also stop once a program's Ψ reaches this value (1: it won "
                       "every match; with psi+c the tie-break adds to Ψ, so 1 works too)")
    synth.add_argument("--clock", choices=("wall", "cpu"), default=None,
                       help="what --budget counts: wall time (default) or this process's "
                       "CPU time (with --workers 1; fair on a shared machine)")
    synth.add_argument("--matches", type=positive, default=None,
                       help="matches per Ψ (default: the game's, see its GameSpec)")
    add_seed(synth)
    add_workers(synth)
    synth.add_argument("--backend", choices=("serial", "pool", "dask"), default=None,
                       help="evaluation backend (default: serial if --workers 1, else pool)")
    synth.add_argument("--scheduler", default=None,
                       help="dask scheduler address (default: a LocalCluster)")
    synth.add_argument("--fitness", default=None,
                       help="psi (default), psi+c, c, or package.module:function")
    synth.add_argument("--paired", action="store_true", default=None,
                       help="Ψ's matches in colour-swapped pairs on one opening/dice seed "
                       "each (an even --matches): a copy of the target scores ½")
    synth.add_argument("--margin-weight", dest="margin_weight", type=float, default=None,
                       help="tie-break: Ψ plus this times the mean final margin of the "
                       "game (its margin(state, seat)); below half of Ψ's step")
    synth.add_argument("--initial", default=None, help="program file to start from")
    synth.add_argument("--sketch-share", dest="sketch_share", type=float, default=None,
                       help="share of the budget for the sketch-search")
    synth.add_argument("--rollout-evaluations", dest="rollout_evaluations", type=positive,
                       default=None, help="UCT: cap on evaluations per SA rollout")
    synth.add_argument("--population", type=positive, default=None, help="GP: mu = lambda")
    synth.add_argument("--restart-random", dest="restart_random", action="store_true",
                       default=None, help="SA: while the best value is 0, restart each "
                       "schedule from a new random program (seed 000's reference code)")
    synth.add_argument("--remeasure-restarts", dest="remeasure_restarts", action="store_true",
                       default=None, help="SA: measure the program each schedule restarts "
                       "from again, on fresh matches (seed 000's reference code)")
    synth.add_argument("--sketch-schedule", dest="sketch_schedule", default=None,
                       choices=("text", "reference"),
                       help="sketch-sa: text (default: one SA on C for the sketch share, Ψ "
                       "whenever C improves) or reference (seed 000's code: 5 searches of "
                       "<= 10 SA schedules on C, Ψ of each search's best)")
    synth.add_argument("--paper", action="store_true", default=None,
                       help="the seed paper's own mode where the game has one (GameSpec."
                       "paper_settings; Can't Stop: --dsl sketch-paper, --sketch-schedule "
                       "reference, --remeasure-restarts), unless given explicitly")
    synth.add_argument("--out", required=True, help="run directory")
    synth.add_argument("--quiet", action="store_true", help="no progress bar")

    resume = sub.add_parser("resume", help="continue a killed run (synth or qd) from its log")
    resume.add_argument("run", help="run directory")
    resume.add_argument("--budget", default=None,
                        help="qd: a new total time budget (90s, 30m, 2h), to go on past the old")
    resume.add_argument("--evaluations", type=positive, default=None,
                        help="qd: a new total number of evaluations, to go on past the old")
    resume.add_argument("--quiet", action="store_true")
