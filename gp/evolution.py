"""Genetic programming baselines on DEAP: ``eaMuPlusLambda`` and ``eaSimple``.

The evolutionary side of the comparison, built the DEAP way: a toolbox with
typed one-point crossover (``gp.variation.cxOnePoint``: DEAP's, with a
process-independent type order), subtree mutation (``gp.mutUniform``) whose
generator is our safe typed generator, a static height and size limit
(``gp.staticLimit``), tournament selection and a hall of fame.
DEAP's operators draw from the global ``random`` module, which the run seeds.
The algorithms run one generation per call so that the budget can end a run
between evaluations (``BudgetSpent`` drops the unfinished generation).
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass

from deap import algorithms, base, creator, gp, tools

from .dsl import DSL
from .evaluator import BudgetSpent, Evaluator
from .variation import cxOnePoint

if not hasattr(creator, "ProgramFitness"):
    creator.create("ProgramFitness", base.Fitness, weights=(1.0,))
if not hasattr(creator, "ProgramIndividual"):
    creator.create("ProgramIndividual", gp.PrimitiveTree, fitness=creator.ProgramFitness)


@dataclass
class GPSettings:
    algorithm: str = "mu+lambda"  # or "simple"
    mu: int = 20
    lambda_: int = 20
    cxpb: float = 0.5
    mutpb: float = 0.3
    tournament: int = 3
    mutation_height: int = 4


def _evaluate(individual, evaluator: Evaluator) -> tuple[float]:
    return _score_population(evaluator, None, [individual])[0]


def _score_population(evaluator: Evaluator, evaluate, individuals) -> list[tuple[float]]:
    """The toolbox's ``map``: DEAP scores a population as ``toolbox.map(toolbox.evaluate,
    individuals)``; this does ``evaluate``'s work for the whole population in one batch
    (``Evaluator.score_many``), so every worker stays busy across programs.

    The state of ``random`` is kept, so a fitness that draws from it cannot shift
    DEAP's stream."""
    state = random.getstate()
    try:
        return [(value,) for value in evaluator.score_many(list(individuals))]
    finally:
        random.setstate(state)


def _expr(pset, type_, dsl: DSL, max_height: int):
    return dsl.generate(random, type_, max_height)


def _individual(dsl: DSL):
    return creator.ProgramIndividual(dsl.random_program(random))


def make_toolbox(dsl: DSL, evaluator: Evaluator, settings: GPSettings) -> base.Toolbox:
    toolbox = base.Toolbox()
    toolbox.register("individual", _individual, dsl)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", _evaluate, evaluator=evaluator)
    toolbox.register("map", _score_population, evaluator)
    toolbox.register("select", tools.selTournament, tournsize=settings.tournament)
    toolbox.register("mate", cxOnePoint)
    toolbox.register("expr_mut", _expr, dsl=dsl, max_height=settings.mutation_height)
    toolbox.register("mutate", gp.mutUniform, expr=toolbox.expr_mut, pset=dsl.pset)
    for name in ("mate", "mutate"):
        toolbox.decorate(name, gp.staticLimit(key=operator.attrgetter("height"),
                                              max_value=dsl.max_height))
        toolbox.decorate(name, gp.staticLimit(key=len, max_value=dsl.max_size))
    return toolbox


def run_gp(dsl: DSL, evaluator: Evaluator, seed: int, settings: GPSettings,
           initial=None) -> tools.HallOfFame:
    """Seed ``random`` with ``seed`` and ``evolve``."""
    random.seed(seed)
    return evolve(dsl, evaluator, settings, initial)


def evolve(dsl: DSL, evaluator: Evaluator, settings: GPSettings,
           initial=None) -> tools.HallOfFame:
    """Evolve on the evaluator's objective until the budget is spent, drawing from
    ``random`` as it stands (the caller seeds it)."""
    toolbox = make_toolbox(dsl, evaluator, settings)
    population = toolbox.population(n=settings.mu)
    if initial is not None:
        population[0] = creator.ProgramIndividual(initial)
    hof = tools.HallOfFame(1)
    try:
        while True:
            if settings.algorithm == "simple":
                population, _ = algorithms.eaSimple(
                    population, toolbox, settings.cxpb, settings.mutpb, ngen=1,
                    halloffame=hof, verbose=False)
            else:
                population, _ = algorithms.eaMuPlusLambda(
                    population, toolbox, settings.mu, settings.lambda_, settings.cxpb,
                    settings.mutpb, ngen=1, halloffame=hof, verbose=False)
    except BudgetSpent:
        pass
    return hof
