"""The metrics of a synthesis run, built from its settings: Ψ, C, and the objective.

``build_metrics`` turns a run's fitness and the extra metrics its method asks for
(``Synthesizer.metrics``) into a ``gp.metrics.Metrics``: Ψ (``psi``: the win rate
against the target, or a pool of targets), the cloning score C (``c``) where the run
has a record, Ψ on fresh matches (``psi-fresh``), and the objective: Ψ, Ψ with C
breaking ties (``psi+c``), C alone, or a user's ``package.module:function`` under its
own name.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from games import game_spec, resolve
from games.api import draw_value
from gp.metrics import BUILTIN_FITNESSES, CLONING, FRESH_PSI, PSI, PSI_WITH_CLONING, Metrics

from .config import default_matches, default_target


def check_psi_options(*, game_name: str, game: Any, target: str | None, matches: int | None,
                      fitness: str | Callable | None, paired: bool | None,
                      margin_weight: float | None, where: str) -> None:
    """``paired`` needs whole pairs of matches; ``margin_weight`` a game with a margin
    and a weight below half of Ψ's step (and no second tie-break: psi+c has one)."""
    from gp.fitness import check_margin_weight

    from .players import split_specs

    target, matches = default_target(game_name, target), default_matches(game_name, matches)
    if paired and matches % 2:
        raise ValueError(f"{where}: paired matches come in colour-swapped pairs: matches must "
                         f"be even, got {matches}")
    if margin_weight is None:
        return
    if fitness == PSI_WITH_CLONING:
        raise ValueError(f"{where}: margin_weight breaks ties of Ψ; fitness psi+c already "
                         "breaks them with C")
    pool = len(split_specs(target))
    step = (0.5 if draw_value(game) else 1.0) / (matches * pool)
    try:
        check_margin_weight(game, float(margin_weight), step)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from None


def check_metric_needs(*, method: str, fitness: str | Callable | None,
                       extra_metrics: Collection[str], data: str | None, score: str | None,
                       where: str) -> None:
    """What the objective and a method's extra metrics need from the run's settings."""
    fitness = fitness or PSI
    needs_data = CLONING in extra_metrics or fitness in (CLONING, PSI_WITH_CLONING)
    if needs_data and not data:
        name = fitness if isinstance(fitness, str) else "a function"
        raise ValueError(f"{where}: method {method} with fitness {name} needs data "
                         "(a record file)")
    if needs_data and score is None:
        raise ValueError(f"{where}: give the cloning score (A or O)")
    if FRESH_PSI in extra_metrics and fitness != PSI:
        raise ValueError(f"{where}: method {method} re-measures Ψ on fresh matches "
                         "(remeasure_restarts): it needs fitness psi")
    unknown = set(extra_metrics) - {CLONING, FRESH_PSI, PSI}
    if unknown:
        raise ValueError(f"{where}: method {method} asks for metrics this run cannot "
                         f"build: {', '.join(sorted(unknown))}")


def user_time_limit(seconds: float | None) -> float | None:
    """The time limit a user fitness runs under: ``fitness_time_limit`` as a run gives
    it (None: the default, ``DEFAULT_FITNESS_TIME_LIMIT``; 0: none)."""
    from .config import DEFAULT_FITNESS_TIME_LIMIT

    if seconds is None:
        return DEFAULT_FITNESS_TIME_LIMIT
    return seconds or None


def build_metrics(*, game_name: str, game: Any, language_class: Any, target: str | None,
                  matches: int | None, seed: int, fitness: str | Callable | None,
                  data: str | None, score: str | None, paired: bool = False,
                  margin_weight: float | None = None, engine: str | None = None,
                  extra_metrics: Collection[str] = (), backend: Callable | None = None,
                  run_dir: Path | None = None, fitness_on_failure: str = "score",
                  fitness_time_limit: float | None = None) -> Metrics:
    """The run's metrics: the objective (``fitness``) and the ``extra_metrics`` its
    method asks for (plus C whenever the run has a record).

    Programs that fail (in a language that scores them 0, or a user fitness that fails)
    are listed in ``run_dir/failures.log``. ``engine`` names the match engine Ψ plays
    on (None: the game's fastest exact one). ``fitness_on_failure`` and
    ``fitness_time_limit`` apply to a user fitness (``gp.user_fitness.UserFitness``;
    ``user_time_limit``).
    """
    from gp.fitness import FreshWinRate, PoolWinRate, WinRate, WithTieBreak
    from gp.user_fitness import UserFitness

    from .players import make_targets

    spec = game_spec(game_name)
    fitness = fitness or PSI
    target, matches = default_target(game_name, target), default_matches(game_name, matches)
    failure_log = None if run_dir is None else Path(run_dir) / "failures.log"
    targets = make_targets(game_name, target)
    psi_class, against = (WinRate, targets[0]) if len(targets) == 1 else (PoolWinRate, targets)
    psi = psi_class(game, against, language_class, matches=matches, seed=seed, map=backend,
                    failure_log=failure_log, paired=bool(paired),
                    margin_weight=margin_weight or 0.0, engine=engine or "fast")
    functions: dict[str, Any] = {}
    if data:
        try:
            functions[CLONING] = resolve(spec.synthesis.cloning[score])(
                data, game, language_class, psi)
        except UnicodeDecodeError:
            raise ValueError(f"{data}: not text (UTF-8)") from None
    if FRESH_PSI in extra_metrics:
        functions[FRESH_PSI] = FreshWinRate(psi)
    if fitness == PSI:
        objective, functions[PSI] = PSI, psi
    elif fitness == PSI_WITH_CLONING:
        objective, functions[PSI] = PSI, WithTieBreak(psi, functions[CLONING])
    elif fitness == CLONING:
        objective, functions[PSI] = PSI, functions[CLONING]
    else:
        user = UserFitness(fitness, game=game, strategy_class=language_class, seed=seed,
                           map=backend, on_failure=fitness_on_failure,
                           time_limit=user_time_limit(fitness_time_limit),
                           failure_log=failure_log)
        objective = user.name
        if objective in (CLONING, FRESH_PSI) or objective in BUILTIN_FITNESSES[1:]:
            raise ValueError(f"fitness {user.spec}: its name '{objective}' is a built-in "
                             "metric's; give the function another name")
        functions[objective] = user
        if PSI in extra_metrics:
            functions[PSI] = psi
    missing = set(extra_metrics) - set(functions)
    if missing:
        raise ValueError(f"the method asks for metrics this run does not have: "
                         f"{', '.join(sorted(missing))}")
    return Metrics(objective, functions, (objective, CLONING))
