"""Steepest-ascent hill climbing over a sampled neighbourhood: a best-response oracle.

Each step scores up to ``neighbours`` neighbours of the current program (each a fresh
neighbour of it, e.g. a regrown subtree) and moves to the best of them only if it is
strictly better; a step without a better neighbour draws a new batch from the same
program. There are no restarts. The search stops when the evaluator's budget is spent
or once a program's value exceeds ``good_enough`` (against k opponents,
``1 - 0.1 / k``: it wins essentially every match against every one).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from gp.evaluator import BudgetSpent


def good_enough_for(opponents: int) -> float:
    """The stop value for a mean over ``opponents``: a sum above ``opponents - 0.1``."""
    return 1.0 - 0.1 / opponents


def sampled_hill_climbing(evaluator, start: Any, neighbour: Callable[[Any, random.Random], Any],
                          rng: random.Random, neighbours: int,
                          good_enough: float = math.inf,
                          on_move: Callable[[Any, float], None] | None = None
                          ) -> tuple[Any, float]:
    """Climb from ``start``; the best program and value (as the evaluator tracks them).

    Args:
        evaluator: scores programs (``gp.evaluator.Evaluator``); raises ``BudgetSpent``.
        start: the first program.
        neighbour: ``neighbour(program, rng)``, a new program.
        rng: the search's only source of randomness.
        neighbours: neighbours scored per step, at most.
        good_enough: stop once a value exceeds this.
        on_move: told each program the climb moves to (and its value).
    """
    try:
        current, value = start, evaluator.score(start)
        while value <= good_enough:
            best, best_value = None, -math.inf
            for _ in range(neighbours):
                candidate = neighbour(current, rng)
                candidate_value = evaluator.score(candidate)
                if candidate_value > best_value:
                    best, best_value = candidate, candidate_value
                if best_value > good_enough:
                    break
            if best_value > value:
                current, value = best, best_value
                if on_move is not None:
                    on_move(current, value)
    except BudgetSpent:
        pass
    return evaluator.best_tree, evaluator.best_value
