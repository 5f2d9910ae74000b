"""Small search problems with known optima, for behavioural tests of the searches.

ORDER (a classic GP benchmark): a program is a sequence of literals ``pos(v)`` /
``neg(v)`` over ``N`` variables joined by ``join``; its value is the share of the
variables whose first literal is positive. The optimum, 1, needs every variable to
appear, positively first: a program of at least ``3N - 1`` nodes, out of reach of random
programs (the typed generator stops early), within reach of a search that keeps
what works. The cloning score ``c`` (for the sketch methods) is the share of
variables that appear at all, a cue on the way to the optimum.
"""

from __future__ import annotations

import math
import random
import statistics
from functools import partial

from scipy.stats import mannwhitneyu

from gp.dsl import DSL, Syntax
from gp.evaluator import Budget, BudgetSpent, Evaluator
from gp.synthesis import synthesizer_class

N = 10


class Seq:
    """A sequence of literals."""


class Var:
    """A variable's index."""


def _variable(i):
    return lambda: (lambda: i)


def _literal(positive, v):
    return lambda: [(v(), positive)]


def _join(a, b):
    return lambda: a() + b()


def order_language() -> DSL:
    dsl = DSL("order", Seq, max_height=8, max_size=4 * N)
    for i in range(N):
        dsl.terminal(f"v{i}", Var, Syntax("lit", f"v{i}"), _variable(i))
    dsl.primitive("pos", [Var], Seq, Syntax("call", "pos"), partial(_literal, True))
    dsl.primitive("neg", [Var], Seq, Syntax("call", "neg"), partial(_literal, False))
    dsl.primitive("join", [Seq, Seq], Seq, Syntax("call", "join"), _join)
    return dsl


ORDER = order_language()


def literals(tree) -> list[tuple[int, bool]]:
    return ORDER.compile(tree)()


def order_value(tree) -> float:
    """The objective: share of variables whose first literal is positive."""
    first: dict[int, bool] = {}
    for i, positive in literals(tree):
        first.setdefault(i, positive)
    return sum(first.values()) / N


def coverage(tree) -> float:
    """The cloning score: share of variables present."""
    return len({i for i, _ in literals(tree)}) / N


def optimum_text(variables: range = range(N)) -> str:
    """A best program: every variable, positive, in a balanced tree of joins."""
    if len(variables) == 1:
        return f"pos(v{variables[0]})"
    half = len(variables) // 2
    return f"join({optimum_text(variables[:half])}, {optimum_text(variables[half:])})"


def order_evaluator(evaluations: int) -> Evaluator:
    return Evaluator({"psi": order_value, "c": coverage}, ORDER.to_text,
                     Budget(evaluations=evaluations))


def method_best(method: str, seed: int, evaluations: int, **settings) -> float:
    """Best objective value a registered method reaches on ORDER within the budget."""
    cls = synthesizer_class(method)
    ev = order_evaluator(evaluations)
    cls(language=ORDER, evaluator=ev, rng=random.Random(seed),
        settings=cls.Settings(**settings)).run()
    assert ev.budget.used == evaluations
    return ev.best_value


def random_search_best(seed: int, evaluations: int) -> float:
    """Best of ``evaluations`` random programs (the baseline every search must beat)."""
    rng = random.Random(seed)
    ev = order_evaluator(evaluations)
    try:
        while True:
            ev.score(ORDER.random_program(rng))
    except BudgetSpent:
        pass
    return ev.best_value


def clearly_better(better: list[float], worse: list[float], margin: float) -> bool:
    """``better`` beats ``worse`` by more than seed-to-seed spread explains: a one-sided
    Mann-Whitney test at 1% and a mean difference of at least ``margin``."""
    p = mannwhitneyu(better, worse, alternative="greater").pvalue
    return p < 0.01 and statistics.mean(better) - statistics.mean(worse) >= margin \
        and not math.isnan(p)
