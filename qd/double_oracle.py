"""Double Oracle over programs (``--driver do``).

The restricted game is the empirical payoff matrix of the programs found so far
(``qd.empirical_game``); after each new program it is solved for the row player's
maximin strategy x by linear programming, and the next best response is scored
against the support of x (the programs with ``x_i >= support_threshold``). The
objective against the support is ``weighting``:

* ``nash`` (the default): each support member weighted by its probability, the
  expected utility against the equilibrium mixture (textbook Double Oracle);
* ``uniform``: the unweighted sum over the support, the probabilities ignored, as the
  authors' code of the 2L paper (IJCAI 2023) does.

There is no convergence test: the run ends on its budget (``SelfPlayBudget``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .drivers import DriverSettings, register_driver
from .empirical_game import LP_SOLVER, PopulationDriver, PopulationState, maximin

SUPPORT_THRESHOLD = 0.005
"""Smallest probability of a support member: the authors' code keeps ``x_i`` that round
to a nonzero hundredth."""


@dataclass(frozen=True, kw_only=True)
class DoubleOracleSettings(DriverSettings):
    weighting: Literal["nash", "uniform"] = field(default="nash", metadata={
        "help": "do: the best response's objective over the support: nash (each member "
                "weighted by its equilibrium probability) or uniform (the unweighted sum, as "
                "the authors' code)"})
    support_threshold: float = field(default=SUPPORT_THRESHOLD, metadata={
        "help": "do: smallest equilibrium probability of a support member",
        "minimum": 0.0, "maximum": 1.0})


@register_driver
class DoubleOracle(PopulationDriver):
    """Best responses to the restricted game's maximin strategy."""

    name = "do"
    summary = ("double oracle: each program answers the equilibrium of the empirical game "
               "of the programs so far (LP, HiGHS)")
    Settings = DoubleOracleSettings

    def update(self, state: PopulationState, new: int) -> dict[str, Any]:
        x, value = maximin(state.game.payoffs)
        support = [i for i, p in enumerate(x) if p >= self.settings.support_threshold]
        if not support:  # a threshold above every probability: the likeliest program
            support = [max(range(len(x)), key=lambda i: (x[i], i))]
        state.reference = support
        state.weights = ([x[i] for i in support] if self.settings.weighting == "nash"
                         else [1.0] * len(support))
        return {"equilibrium": x, "value": value, "solver": LP_SOLVER}
