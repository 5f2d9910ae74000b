"""The built-in synthesizers that search on the objective alone: SA, UCT and GP.

Each is a ``Synthesizer`` (``gp.synthesis``) with its own ``Settings``; the sketch
methods, which also climb the cloning score, are in ``gp.sketch``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .evaluator import BudgetSpent
from .evolution import GPSettings, evolve
from .metrics import FRESH_PSI
from .neighbourhoods import Neighbourhood, NeighbourhoodSettings, make_neighbourhood
from .sa import (
    RestartFromBest,
    RestartRandomWhileZero,
    RestartRemeasured,
    RestartRule,
    SimulatedAnnealing,
)
from .synthesis import Synthesizer, SynthesizerSettings, register_synthesizer
from .uct import UCT

REMEASURE_HELP = ("SA: measure the program each schedule restarts from again, on matches "
                  "it never played (Ψ only); the reference code of the sketch-learning "
                  "paper does this")
ROLLOUT_HELP = "UCT: cap on evaluations per SA rollout (default: one full schedule)"


def sa_restart(language, *, remeasure: bool, random_while_zero: bool = False,
               measure_start: bool = False) -> RestartRule:
    """The SA restart rule these settings name."""
    rule: RestartRule = RestartRemeasured(FRESH_PSI, measure_start) if remeasure \
        else RestartFromBest()
    if random_while_zero:
        rule = RestartRandomWhileZero(language.random_program, rule)
    return rule


@dataclass(frozen=True)
class NotifyingRestart:
    """A restart rule that tells the neighbourhood where each schedule starts."""

    rule: RestartRule
    neighbourhood: Neighbourhood

    def start(self, initial, score) -> float:
        return self.rule.start(initial, score)

    def __call__(self, best, best_value, score, rng):
        current, value = self.rule(best, best_value, score, rng)
        self.neighbourhood.restart(current, rng)
        return current, value


@dataclass(frozen=True, kw_only=True)
class SASettings(NeighbourhoodSettings, SynthesizerSettings):
    restart_random: bool = field(default=False, metadata={
        "help": "SA: while the best value is 0, restart each schedule from a new random "
                "program (for grammars where most programs fail and score 0)"})
    remeasure_restarts: bool = field(default=False, metadata={
        "help": REMEASURE_HELP})


@register_synthesizer
class SA(Synthesizer):
    """Simulated annealing on the objective from a random (or the initial) program."""

    name = "sa"
    summary = ("simulated annealing: subtree-regrowing (or semantic) neighbours, restarts "
               "from the best")
    Settings = SASettings

    @classmethod
    def metrics(cls, settings: SASettings) -> frozenset[str]:
        return frozenset({FRESH_PSI}) if settings.remeasure_restarts else frozenset()

    def run(self) -> None:
        start = self.initial if self.initial is not None \
            else self.language.random_program(self.rng)
        restart = sa_restart(self.language, remeasure=self.settings.remeasure_restarts,
                             random_while_zero=self.settings.restart_random)
        neighbourhood = make_neighbourhood(self.settings.neighbourhood,
                                           language=self.language, settings=self.settings,
                                           game=self.game)
        neighbourhood.start(start, self.rng)
        SimulatedAnnealing(self.evaluator, self.rng,
                           restart=NotifyingRestart(restart, neighbourhood)).run(
            start, neighbourhood, on_improve=neighbourhood.improved)


@dataclass(frozen=True, kw_only=True)
class UCTSettings(SynthesizerSettings):
    rollout_evaluations: int | None = field(default=None, metadata={
        "help": ROLLOUT_HELP, "minimum": 1})


@register_synthesizer
class UCTSearch(Synthesizer):
    """UCT over partial programs; an initial program's branch is inserted first."""

    name = "uct"
    summary = "UCT over partial programs, SA rollouts that fill the holes"
    Settings = UCTSettings

    def run(self) -> None:
        uct = UCT(self.language, self.evaluator, self.rng,
                  rollout_evaluations=self.settings.rollout_evaluations)
        if self.initial is not None:
            try:
                uct.insert_branch(self.initial, self.evaluator.score(self.initial))
            except BudgetSpent:
                return
        uct.run()


@dataclass(frozen=True, kw_only=True)
class GPMethodSettings(SynthesizerSettings):
    population: int = field(default=20, metadata={
        "help": "GP: population size (mu = lambda)", "minimum": 2})
    cxpb: float = field(default=0.5, metadata={
        "help": "GP: crossover probability", "minimum": 0.0, "maximum": 1.0})
    mutpb: float = field(default=0.3, metadata={
        "help": "GP: mutation probability (cxpb + mutpb <= 1)", "minimum": 0.0,
        "maximum": 1.0})
    tournament: int = field(default=3, metadata={
        "help": "GP: tournament size", "minimum": 1})
    mutation_height: int = field(default=4, metadata={
        "help": "GP: height of the subtrees mutation grows", "minimum": 0})

    def __post_init__(self) -> None:
        if self.cxpb + self.mutpb > 1:
            raise ValueError(f"cxpb + mutpb must be <= 1, got {self.cxpb} + {self.mutpb}")


class _GP(Synthesizer):
    algorithm = "mu+lambda"
    Settings = GPMethodSettings

    def run(self) -> None:
        s = self.settings
        settings = GPSettings(algorithm=self.algorithm, mu=s.population, lambda_=s.population,
                              cxpb=s.cxpb, mutpb=s.mutpb, tournament=s.tournament,
                              mutation_height=s.mutation_height)
        random.setstate(self.rng.getstate())  # DEAP's operators draw from ``random``
        evolve(self.language, self.evaluator, settings, self.initial)


@register_synthesizer
class MuPlusLambdaGP(_GP):
    """DEAP's ``eaMuPlusLambda``."""

    name = "gp"
    summary = "genetic programming, DEAP's eaMuPlusLambda"
    algorithm = "mu+lambda"


@register_synthesizer
class SimpleGP(_GP):
    """DEAP's ``eaSimple``."""

    name = "gp-simple"
    summary = "genetic programming, DEAP's eaSimple"
    algorithm = "simple"
