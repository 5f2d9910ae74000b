"""The Python API: what the ``stratsynth`` command line does, for notebooks and scripts.

Every function takes the same settings as its command (the keys a run's
``config.json`` and a TOML config use, checked by the same loader,
``experiments.config.load``) and returns objects, so a notebook cell and a
config file say the same thing::

    from experiments.api import play, synthesize, resume, run_qd

    play(GAME, "random", "random", matches=100).win_rate(0)
    result = synthesize(GAME, method="sa", evaluations=200, matches=200,
                        seed=1, out="runs/sa1")
    print(result.best_program, result.best_psi)
    archive = run_qd(GAME, features=[FEATURE_1, FEATURE_2], dims=[8, 8],
                     evaluations=200, matches=100, out="runs/qd1")

(the README's quickstart runs it on a real game). The run objects behind them
(``SynthesisRun``, ``QDRun``, ``SelfPlayRun``, ``Tournament``, ``PoolMatrix``,
``RegretRun``) can be used directly too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.match import MatchSummary

from .config import (
    PoolConfig,
    QDConfig,
    RegretConfig,
    SelfPlayConfig,
    SynthesisConfig,
    TournamentConfig,
)
from .loader import load
from .pool import PoolMatrix
from .quality_diversity import QDRun
from .resume import open_run
from .selfplay import SelfPlayRun
from .synthesis import SynthesisResult, SynthesisRun
from .tournament import Tournament

__all__ = ["PoolMatrix", "QDRun", "SelfPlayRun", "SynthesisResult", "SynthesisRun",
           "Tournament", "play", "pool", "regret", "resume", "run_qd", "selfplay",
           "synthesize", "tournament"]


def play(game: str, p0: str, p1: str, matches: int = 100, seed: int = 0, workers: int = 1,
         game_params: dict | None = None, dsl: str | None = None,
         engine: str = "fast") -> MatchSummary:
    """``matches`` matches between two player specs, seats alternating (``stratsynth play``);
    ``engine`` (``fast``, ``numpy``, ``reference``) changes the speed only."""
    from games import load_game
    from games.backends import make_map
    from games.engines import check_engine, prepare_engines
    from games.match import play_matches

    from .players import make_player

    check_engine(engine)
    players = [make_player(game, spec, dsl=dsl) for spec in (p0, p1)]
    played = load_game(game, **(game_params or {}))
    prepare_engines(played, engine)
    with make_map(workers) as backend:
        return play_matches(played, players, matches, seed, map=backend, engine=engine)


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
        **settings: any other field of ``experiments.config.SynthesisConfig``:
            ``target``, ``matches``, ``dsl``, ``game_params``, ``data``, ``score``,
            ``initial``, ``scheduler``, ``paired``, ``margin_weight``, ``stop_at``,
            ``engine`` and the method's own settings.
    """
    where = "synthesize()"
    config = load(SynthesisConfig, {
        **settings, "game": game, "method": method, "fitness": _fitness_name(fitness),
        "budget": budget, "evaluations": evaluations, "seed": seed, "workers": workers,
        "backend": backend}, where)
    return SynthesisRun.new(out, config, where).run()


def resume(run_dir: str | Path, *, budget: str | None = None,
           evaluations: int | None = None, **trusted: Any):
    """Continue a killed run from its log (``stratsynth resume``): a synthesis run gives
    a ``SynthesisResult``, a QD run its archive (``budget``/``evaluations`` extend it).

    ``trusted``: ``fitness``, ``target``, ``scheduler``, ``data``, ``initial``,
    ``trust_config``, as ``stratsynth resume`` takes them: what the run's ``config.json``
    names that would import a module, connect to a scheduler or read a file outside the
    run directory is used only when named (``experiments.trust.Consent``)."""
    from .trust import Consent

    try:
        consent = Consent(**trusted)
    except TypeError:
        raise ValueError(f"resume(): unknown keyword(s) {sorted(trusted)} (known: fitness, "
                         "target, scheduler, data, initial, trust_config)") from None
    return open_run(run_dir, budget=budget, evaluations=evaluations, consent=consent).run()


def run_qd(game: str, *, features: Sequence[str] | None, out: str | Path, **settings: Any):
    """A MAP-Elites archive of programs (``stratsynth qd``); returns the archive
    (``qd.archive.ProgramArchive``; ``.stats()``, ``.corner_elites()``, ``.heatmap()``).

    Args:
        game: a registered game name.
        features: behaviour features of the game (None: all of them).
        out: the run directory (must not hold another run).
        **settings: any other field of ``experiments.config.QDConfig``: ``dims`` (a
            list or ``"8,8"``), ``evaluations``, ``budget``, ``matches``, ``target``,
            ``batch``, ``cells``, ``seed``, ``workers``, ``dsl``, ``game_params``,
            ``subject`` (a vector search's player whose weights are searched).
    """
    where = "run_qd()"
    dims = settings.get("dims")
    if isinstance(dims, (list, tuple)):
        settings["dims"] = ",".join(map(str, dims))
    if isinstance(features, (list, tuple)):
        features = ",".join(features)
    config = load(QDConfig, {**settings, "game": game, "features": features}, where)
    return QDRun.new(out, config, where).run()


def selfplay(game: str, *, out: str | Path, **settings: Any) -> list[str]:
    """Self-play with any registered driver (``stratsynth selfplay``: IBR, FP, Double
    Oracle, 2L); the programs, oldest first. ``settings``: fields of
    ``experiments.config.SelfPlayConfig`` and the driver's own settings."""
    config = load(SelfPlayConfig, {**settings, "game": game, "out": str(out)}, "selfplay()")
    return SelfPlayRun(config, "selfplay()").run()


def tournament(game: str, players: Sequence[str], **settings: Any):
    """A round robin among player specs (``stratsynth tournament``); the
    ``qd.tournament.TournamentResult``. ``settings``: fields of ``TournamentConfig``."""
    config = load(TournamentConfig, {**settings, "game": game, "players": ",".join(players)},
                  "tournament()")
    return Tournament(config, "tournament()").run()


def pool(game: str, players: Sequence[str], opponents: Sequence[str], *, out: str | Path,
         **settings: Any) -> dict:
    """Each player against each opponent, both seats (``stratsynth pool``); the matrix.
    ``settings``: fields of ``PoolConfig``."""
    config = load(PoolConfig, {**settings, "game": game, "players": ",".join(players),
                               "pool": ",".join(opponents), "out": str(out)}, "pool()")
    return PoolMatrix(config, "experiments.api.pool()", "pool()").run()


def regret(game: str, learners: Sequence[str], *, out: str | Path, **settings: Any) -> dict:
    """Cumulative minimax regret of learners (``stratsynth regret``): learner -> (curves
    of shape runs x games, its run-0 rules, what it was taught). ``settings``: fields of
    ``RegretConfig``."""
    from .regret.experiment import RegretRun

    config = load(RegretConfig, {**settings, "game": game, "learners": ",".join(learners),
                                 "out": str(out)}, "regret()")
    return RegretRun(config, "regret()").run("experiments.api.regret()")
