"""The Python API: what the ``stratsynth`` command line does, for notebooks and scripts.

Every function takes the same settings as its command (the keys a run's
``config.json`` and a TOML config use), so a notebook cell and a config file
say the same thing::

    from experiments.api import play, synthesize, resume, run_qd

    play(GAME, "random", "random", matches=100).win_rate(0)
    result = synthesize(GAME, method="sa", evaluations=200, matches=200,
                        seed=1, out="runs/sa1")
    print(result.best_program, result.best_psi)
    archive = run_qd(GAME, features=[FEATURE_1, FEATURE_2], dims=[8, 8],
                     evaluations=200, matches=100, out="runs/qd1")

(the README's quickstart runs it on a real game).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.match import MatchSummary


@dataclass(frozen=True)
class SynthesisResult:
    """What a synthesis run leaves: its best program, that program's Ψ and the log."""

    run_dir: Path
    best_program: str | None
    best_psi: float
    evaluations: int

    @property
    def log(self) -> Path:
        """One row per evaluation (``gp.evaluator.read_log`` reads it)."""
        return self.run_dir / "log.csv"


def play(game: str, p0: str, p1: str, matches: int = 100, seed: int = 0, workers: int = 1,
         game_params: dict | None = None, dsl: str | None = None) -> MatchSummary:
    """``matches`` matches between two player specs, seats alternating (``stratsynth play``)."""
    from games import load_game
    from games.backends import make_map
    from games.match import play_matches

    from .players import make_player

    players = [make_player(game, spec, dsl=dsl) for spec in (p0, p1)]
    with make_map(workers) as backend:
        return play_matches(load_game(game, **(game_params or {})), players, matches, seed,
                            map=backend)


def _fitness_name(fitness: str | Callable) -> str:
    """A callable is recorded by reference, so the run can be resumed in another process."""
    if isinstance(fitness, str):
        return fitness
    module, name = getattr(fitness, "__module__", None), getattr(fitness, "__qualname__", "")
    if not module or module == "__main__" or "<" in name:
        raise ValueError(f"fitness {fitness!r}: give a function importable as "
                         "package.module:function (a run records it to resume it)")
    return f"{module}:{name}"


def synthesize(game: str, *, out: str | Path, method: str = "sa",
               fitness: str | Callable = "psi", budget: str | None = None,
               evaluations: int | None = None, seed: int = 0, workers: int = 0,
               backend: str | None = None, **settings: Any) -> SynthesisResult:
    """One synthesis run in ``out`` (``stratsynth synth``).

    Args:
        game: a registered game name.
        out: the run directory (must not hold another run).
        method: ``sa``, ``uct``, ``gp``, ``gp-simple``, ``sketch-sa`` or ``sketch-uct``.
        fitness: ``psi``, ``c``, ``psi+c``, ``package.module:function`` or such a function.
        budget: wall-clock budget (``"30m"``); or give ``evaluations``.
        seed: seed of the whole run.
        workers: 0 = all cores, 1 = serial.
        backend: ``serial``, ``pool`` or ``dask`` (default by ``workers``).
        **settings: any other run setting: ``target``, ``matches``, ``dsl``,
            ``game_params``, ``data``, ``score``, ``initial``, ``sketch_share``,
            ``rollout_evaluations``, ``population``, ``scheduler``, ``paired``,
            ``margin_weight``, ``stop_at`` (also stop once a program's Ψ reaches it).
    """
    from .synth import start_run

    config = {**settings, "game": game, "method": method, "fitness": _fitness_name(fitness),
              "budget": budget, "evaluations": evaluations, "seed": seed, "workers": workers,
              "backend": backend}
    run_dir = Path(out)
    return _result(run_dir, start_run(run_dir, config, where="synthesize()"))


def resume(run_dir: str | Path) -> SynthesisResult | Any:
    """Continue a killed run from its log (``stratsynth resume``): a synthesis run gives
    a ``SynthesisResult``, a QD run its archive."""
    from .config import DEFAULTS, kind_of, read_run_config
    from .synth import resume_run

    run_dir = Path(run_dir)
    config = read_run_config(run_dir)
    if kind_of(config) == "qd":
        settings = {key: config.get(key) for key in DEFAULTS["qd"]}
        return _run_qd(argparse.Namespace(**settings), run_dir, resume=True)
    return _result(run_dir, resume_run(run_dir))


def _result(run_dir: Path, evaluator) -> SynthesisResult:
    return SynthesisResult(run_dir, evaluator.best_psi_program, evaluator.best_psi,
                           evaluator.budget.used)


def run_qd(game: str, *, features: Sequence[str], out: str | Path,
           dims: Sequence[int] | None = None, evaluations: int | None = None,
           budget: str | None = None, matches: int | None = None, target: str | None = None,
           batch: int | None = None, cells: int | None = None, seed: int = 0,
           workers: int = 0, dsl: str | None = None, game_params: dict | None = None):
    """A MAP-Elites archive of programs (``stratsynth qd``); returns the archive
    (``qd.archive.ProgramArchive``; ``.stats()``, ``.corner_elites()``, ``.heatmap()``).
    Settings left out take their defaults from ``experiments.config.DEFAULTS["qd"]``."""
    args = argparse.Namespace(
        kind="qd", game=game, game_params=game_params or {}, dsl=dsl,
        features=",".join(features), dims=",".join(map(str, dims)) if dims else None,
        cells=cells, target=target, matches=matches, batch=batch, budget=budget,
        evaluations=evaluations, seed=seed, workers=workers)
    return _run_qd(args, Path(out), resume=False)


def _run_qd(args: argparse.Namespace, out: Path, resume: bool):
    from qd.archive import ProgramArchive

    from .qd_cli import cmd_qd

    args.out, args.quiet = str(out), True
    cmd_qd(args, resume=resume)
    return ProgramArchive.load(out / "archive.json")
