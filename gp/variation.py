"""Variation operators on program trees, defined once and used by every search.

Named the DEAP way (``cxX`` for crossover, ``mutX`` for mutation) so they drop
into a DEAP toolbox; UCT takes ``partial(mutSubtree, dsl=dsl)`` as its neighbourhood
(SA and hill climbing the same move by default, ``gp.neighbourhoods``), GP and
MAP-Elites take both. Every draw comes from a ``random.Random`` the caller
owns or from the global ``random`` module DEAP seeds, and never from the order of
a ``set`` (which follows memory addresses, so differs between processes): the
same seed gives the same programs in every process, worker and resumed run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .dsl import DSL


def cxOnePoint(ind1, ind2, rng: random.Random | None = None):  # noqa: N802 (DEAP's naming)
    """DEAP's typed one-point crossover with the common types in a fixed order.

    ``deap.gp.cxOnePoint`` draws from a ``set`` of types; sorting them by name keeps
    a seeded run identical in every process. Draws from ``rng`` (default: ``random``,
    as DEAP's algorithms expect)."""
    draw = rng or random
    if len(ind1) < 2 or len(ind2) < 2:
        return ind1, ind2
    types1: dict = {}
    types2: dict = {}
    for idx, node in enumerate(ind1[1:], 1):
        types1.setdefault(node.ret, []).append(idx)
    for idx, node in enumerate(ind2[1:], 1):
        types2.setdefault(node.ret, []).append(idx)
    common = sorted(set(types1) & set(types2), key=lambda t: t.__name__)
    if common:
        type_ = draw.choice(common)
        slice1 = ind1.searchSubtree(draw.choice(types1[type_]))
        slice2 = ind2.searchSubtree(draw.choice(types2[type_]))
        ind1[slice1], ind2[slice2] = ind2[slice2], ind1[slice1]
    return ind1, ind2


def mutSubtree(tree: Sequence, rng: random.Random, *, dsl: DSL):  # noqa: N802 (DEAP's naming)
    """The sketch-learning paper's neighbourhood: regrow a uniformly chosen subtree with the DSL's
    typed generator, within its height and size limits (``DSL.neighbour``)."""
    return dsl.neighbour(tree, rng)
