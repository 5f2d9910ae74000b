"""A synthesis run: one method searching for a program, in its own run directory.

The run directory holds ``config.json`` (every setting; enough to reproduce or
resume), ``log.csv`` (one row per evaluation: seconds, evaluations, metric,
value, Ψ, C, best Ψ, best C, program text), ``best.txt`` (the best-Ψ program,
simplified, loadable as ``program:RUN/best.txt``) and, where simplifying changed it,
``best_raw.txt`` (that program as the search found it). The log is also the checkpoint: after a
kill, ``SynthesisRun.open(RUN).run()`` (``stratsynth resume RUN``) replays the
logged evaluations and goes on.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from games import game_spec
from games.backends import SchedulerLost
from gp.simplify import simplified_text

from .config import SynthesisConfig, default_matches, default_target, open_game, parse_duration
from .loader import load, read_run_config, read_text, to_dict, with_identity
from .lock import check_empty, hold
from .trust import Consent, admit


@dataclass(frozen=True)
class SynthesisResult:
    """What a synthesis run leaves: its best program by the objective, that program's
    value and the log."""

    run_dir: Path
    objective: str
    best_program: str | None
    best_value: float
    evaluations: int

    @property
    def best_psi(self) -> float:
        """The objective's best value (Ψ for the built-in fitnesses)."""
        return self.best_value

    @property
    def log(self) -> Path:
        """One row per evaluation (``gp.evaluator.read_log`` reads it)."""
        return self.run_dir / "log.csv"


class SynthesisRun:
    """One synthesis run, its settings resolved (game, language, targets, initial
    program) and checked before anything is written.

    Build one with ``SynthesisRun.new`` (a fresh run directory) or ``SynthesisRun.open``
    (resume a run directory); ``run()`` takes the run's lock, works and returns a
    ``SynthesisResult``. It never prints: progress goes to ``on_score``.
    """

    def __init__(self, run_dir: Path, config: SynthesisConfig, *, resume: bool,
                 where: str) -> None:
        self.run_dir, self.config, self.resume, self.where = Path(run_dir), config, resume, where
        self.method = config.synthesizer()
        self.seconds = parse_duration(config.budget) if config.budget else None
        self._resolve()

    def _resolve(self) -> None:
        """Game, language, targets and files: what the run names must exist."""
        from gp.programs import strategy_class

        from .metrics import check_psi_options
        from .players import make_targets

        c, where = self.config, self.where
        try:
            spec = game_spec(c.game)
            self.game = open_game(c.game, c.game_params)
            self.language_class = strategy_class(c.game, c.dsl)
            self.target = default_target(c.game, c.target)
            self.targets = make_targets(c.game, self.target)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        if c.backend == "dask" and importlib.util.find_spec("distributed") is None:
            raise ValueError(f"{where}: backend dask needs dask.distributed installed "
                             "(pip install 'stratsynth[dask]')")
        self.matches = default_matches(c.game, c.matches)
        self.dsl = self.language_class.default_dsl()
        if c.score is not None and c.score not in spec.synthesis.cloning:
            raise ValueError(f"{where}: {c.game} has no cloning score {c.score} "
                             f"(known: {', '.join(spec.synthesis.cloning) or 'none'})")
        for key in ("data", "initial"):
            if getattr(c, key) and not Path(getattr(c, key)).is_file():
                raise ValueError(f"{where}: {key} '{getattr(c, key)}' is not a file")
        self.initial = None
        if c.initial:  # a program the run's language cannot read stops it here
            path = Path(c.initial)
            self.initial = self.dsl.parse(read_text(path), source=str(path))
        check_psi_options(game_name=c.game, game=self.game, target=self.target,
                          matches=self.matches, fitness=c.fitness, paired=c.paired,
                          margin_weight=c.margin_weight, where=where)

    @classmethod
    def new(cls, out: str | Path, config: SynthesisConfig,
            where: str = "command line") -> SynthesisRun:
        """A run to start in ``out``, which must not hold another run."""
        if not isinstance(out, (str, os.PathLike)):
            raise ValueError(f"{where}: out must be a directory path, got {out!r}")
        run_dir = Path(out)
        check_empty(run_dir)
        return cls(run_dir, config, resume=False, where=where)

    @classmethod
    def open(cls, run_dir: str | Path, consent: Consent | None = None, *,
             given: SynthesisConfig | None = None) -> SynthesisRun:
        """The run kept in ``run_dir``, to resume from its log.

        Args:
            run_dir: the run directory.
            consent: what the user named for it on the command line; what its
                ``config.json`` names beyond that (a fitness module to import, a
                scheduler to connect to, files outside it) is refused
                (``experiments.trust``).
            given: the run's settings as the user gave them again (a comparison's TOML):
                the saved ones must agree on every setting that shapes the results, and
                the given ones are used.
        """
        run_dir = Path(run_dir)
        where = str(run_dir / "config.json")
        config = load(SynthesisConfig, read_run_config(run_dir), where, saved=True)
        if given is not None:
            check_same_settings(run_dir, config, given)
            return cls(run_dir, given, resume=True, where=where)
        config = admit(config, run_dir, consent or Consent(), where)
        return cls(run_dir, config, resume=True, where=where)

    def check(self) -> None:
        """What the run's metrics need (a fitness module to import, a record to read),
        checked without writing: a comparison checks each method before its first run."""
        from games.backends import SerialMap

        self.metrics(SerialMap())

    def metrics(self, backend: Any):
        """The run's ``gp.metrics.Metrics``: its objective and what its method asks for."""
        from .metrics import build_metrics

        c = self.config
        return build_metrics(
            game_name=c.game, game=self.game, language_class=self.language_class,
            target=self.target, matches=self.matches, seed=c.seed, fitness=c.fitness,
            data=c.data, score=c.score, paired=c.paired, margin_weight=c.margin_weight,
            engine=c.engine, extra_metrics=self.method.metrics(c.settings), backend=backend,
            run_dir=self.run_dir, fitness_on_failure=c.fitness_on_failure,
            fitness_time_limit=c.fitness_time_limit)

    def charge(self, metrics):
        """The cost of an evaluation under a charged budget (``reference_cost``), or None."""
        from .charging import OutcomeCharge

        cost = self.config.reference_cost
        return None if cost is None else OutcomeCharge(metrics=metrics, cost=cost)

    def _backend(self):
        """The run's evaluation backend; a scheduler that cannot be reached is one line."""
        from games.backends import make_backend

        c = self.config
        try:
            return make_backend(c.backend, c.workers, c.scheduler)
        except (OSError, TimeoutError) as err:
            raise ValueError(f"{self.where}: dask scheduler {c.scheduler}: "
                             f"{str(err).strip() or type(err).__name__}") from None

    def _lost(self, err: Exception) -> str:
        """What a run whose scheduler went away says: what is kept, how to go on."""
        if not (self.run_dir / "config.json").is_file():
            return f"{self.where}: {err}; nothing was logged: run the command again"
        again = " --scheduler ADDRESS" if self.config.scheduler else ""
        return (f"{self.run_dir}: {err}; the log keeps every finished evaluation: "
                f"stratsynth resume {self.run_dir}{again} goes on")

    def run(self, on_score: Callable[[Any], None] | None = None, *,
            locked: bool = False) -> SynthesisResult:
        """Start or resume the search under the run's lock (``locked``: the caller holds
        it already); its result."""
        from games.engines import prepare_engines
        from gp.evaluator import Budget, Evaluator

        c = self.config
        with hold(self.run_dir, held=locked):
            if not self.resume:
                check_empty(self.run_dir)
            existed = self.run_dir.exists()
            prepare_engines(self.game, c.engine)  # compiling is not the search's time
            budget = Budget(seconds=self.seconds, evaluations=c.evaluations, clock=c.clock,
                            stop_at=c.stop_at, cost_limit=c.reference_budget)
            # the backend and the metrics (a scheduler to reach, a fitness to import, a
            # record to read) are made before anything is written: a failure writes nothing
            with self._backend() as backend:
                metrics = self.metrics(backend)
                if not self.resume:
                    self.run_dir.mkdir(parents=True, exist_ok=True)
                    (self.run_dir / "config.json").write_text(
                        json.dumps(with_identity(c), indent=2) + "\n")
                try:
                    evaluator = Evaluator(metrics, self.dsl.to_text, budget, self.run_dir,
                                          resume=self.resume, on_score=on_score,
                                          present=partial(simplified_text, self.dsl),
                                          charge=self.charge(metrics))
                    self.method(language=self.dsl, evaluator=evaluator,
                                rng=random.Random(c.seed), settings=c.settings,
                                initial=self.initial, game=self.game).run()
                    evaluator.close()
                except BaseException as err:
                    if not self.resume:
                        discard_unstarted(self.run_dir, keep_directory=existed)
                    if isinstance(err, SchedulerLost):
                        raise ValueError(self._lost(err)) from None
                    if plugin_failed(self.method, err):
                        raise ValueError(f"{self.run_dir}: method {c.method} "
                                         f"({self.method.__module__}) raised "
                                         f"{_cause(err)}") from err
                    raise
            (self.run_dir / "done").write_text(f"{evaluator.budget.used} evaluations\n")
        return SynthesisResult(self.run_dir, evaluator.objective, evaluator.best_program,
                               evaluator.best_value, evaluator.budget.used)


OUR_PACKAGES = ("gp", "games", "experiments", "qd")


def plugin_failed(method: type, err: BaseException) -> bool:
    """Whether ``err`` is a plug-in method's own failure (not ours, not an interrupt):
    said in one line naming the method, not as a traceback."""
    ours = type(err).__module__.split(".")[0] in OUR_PACKAGES
    return (isinstance(err, Exception) and not ours
            and method.__module__.split(".")[0] not in OUR_PACKAGES)


def _cause(err: BaseException) -> str:
    cause = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {cause}" if cause else type(err).__name__


RUN_FILES = ("config.json", "log.csv", "failures.log", "best.txt", "best_raw.txt")
"""What a synthesis run writes in its directory."""


def discard_unstarted(run_dir: Path, keep_directory: bool) -> None:
    """Remove what a new run wrote if it failed before its first evaluation was logged,
    so that the corrected command can start it again (a run with logged evaluations is
    kept, to resume)."""
    from gp.evaluator import read_log

    log = run_dir / "log.csv"
    try:
        if log.is_file() and read_log(log):
            return
    except (ValueError, OSError):
        return
    for name in RUN_FILES:
        (run_dir / name).unlink(missing_ok=True)
    if not keep_directory and run_dir.is_dir() and not any(run_dir.iterdir()):
        run_dir.rmdir()


def check_same_settings(run_dir: Path, saved: SynthesisConfig,
                        given: SynthesisConfig) -> None:
    """A run is continued only with the settings it started with (a TOML may have been
    edited since): one line naming the settings that differ."""
    old, new = to_dict(saved), to_dict(given)
    differ = sorted(k for k in (set(old) | set(new)) - SynthesisConfig.NOT_IDENTITY
                    if old.get(k) != new.get(k))
    if differ:
        shown = ", ".join(f"{k} {old.get(k)!r} there, {new.get(k)!r} here" for k in differ)
        raise ValueError(f"{run_dir / 'config.json'}: started with other settings ({shown}); "
                         "put them back in the config or use a new out")


# -- the command line: ``stratsynth synth`` ----------------------------------------------------

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


def run_with_progress(run: SynthesisRun, quiet: bool, locked: bool = False) -> SynthesisResult:
    """``run.run()`` with a progress bar on stderr (none if ``quiet``)."""
    c = run.config
    progress = Progress(f"{c.method} {c.game} seed {c.seed}", c.evaluations, quiet)
    try:
        return run.run(on_score=progress, locked=locked)
    finally:
        progress.close()


def describe(result: SynthesisResult) -> str:
    """The line a finished run prints. A run in which every evaluation failed (a user
    fitness that failed on every program) is one error line instead, naming where the
    failures are logged; a run whose whole budget went to a sketch phase's C says so."""
    if result.best_program is None or not (result.run_dir / "best.txt").is_file():
        failures = result.run_dir / "failures.log"
        if failures.is_file() and failures.stat().st_size:
            raise ValueError(f"{result.run_dir}: no evaluation of the {result.evaluations} "
                             f"gave a value of {result.objective}, so there is no best "
                             f"program (the causes: {failures})")
        return (f"no program was measured on {result.objective} in {result.evaluations} "
                f"evaluations (a sketch phase used them all), so there is no best.txt; "
                f"the evaluations are in {result.run_dir / 'log.csv'}")
    return (f"best {result.objective} {result.best_value:.4f} after {result.evaluations} "
            f"evaluations; program in {result.run_dir / 'best.txt'}")


def cmd_synth(args) -> int:
    from .options import config_from

    run = SynthesisRun.new(args.out, config_from(SynthesisConfig, args))
    print(describe(run_with_progress(run, args.quiet)))
    return 0


def add_parsers(sub) -> None:
    from dataclasses import fields

    from .options import add_config, add_game, add_method_settings

    synth = sub.add_parser("synth", help="synthesize a program (writes a run directory)")
    add_game(synth, dsl=True)
    add_config(synth, SynthesisConfig)
    add_method_settings(synth, skip={f.name for f in fields(SynthesisConfig)})
    synth.add_argument("--out", required=True, help="run directory")
    synth.add_argument("--quiet", action="store_true", help="no progress bar")
    synth.set_defaults(handler=cmd_synth)
