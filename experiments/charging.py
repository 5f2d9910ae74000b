"""A budget charged per evaluation outcome (``reference_cost``, ``reference_budget``).

Why: a budget given as another implementation's time (the sketch-learning paper's 48
CPU-hours of its reference code) is not a fixed number of evaluations when that code
spends very different times on different outcomes: measured, 41.6 CPU-s on a Ψ of a
program that runs and 1.9 CPU-s on one whose program fails at its first decision.
Charging each evaluation its outcome's cost and stopping once the charges reach the
budget spends the paper's budget as the paper's code would have, and, unlike a clock,
gives the same run for the same seed in any process (the log holds each charge).
"""

from __future__ import annotations

from typing import Any

from gp.metrics import Metrics

COST_KEYS = ("ran", "failed", "c")
"""Outcomes a cost is given for: a Ψ whose program ran, one whose program failed (in
every match; a Ψ failing in a share of its matches is charged that share at
``failed``), and a cloning score C evaluation (default 0: not counted)."""


def check_reference_cost(value: dict) -> str | None:
    """What is wrong with a ``reference_cost`` table, or None."""
    unknown = sorted(set(value) - set(COST_KEYS))
    if unknown:
        return f"unknown outcome {unknown[0]!r} (outcomes: {', '.join(COST_KEYS)})"
    missing = [key for key in ("ran", "failed") if key not in value]
    if missing:
        return f"needs a cost for {' and '.join(missing)} (e.g. {{ran = 41.6, failed = 1.9}})"
    for key, cost in value.items():
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not cost >= 0 \
                or cost == float("inf"):
            return f"{key} must be a number >= 0, got {cost!r}"
    if value["ran"] == 0 and value["failed"] == 0:
        return "ran and failed are both 0: the budget would never be spent"
    return None


def check_reference_budget(value: float) -> str | None:
    if isinstance(value, bool) or not value > 0 or value == float("inf"):
        return f"must be a number > 0 (in reference_cost's units), got {value!r}"
    return None


class OutcomeCharge:
    """The cost of one evaluation just computed (``gp.evaluator.Evaluator``'s ``charge``).

    Args:
        metrics: the run's metrics; a metric with ``forfeit_share(program)`` (Ψ) is
            charged by how its program fared, any other (the cloning score) at ``c``.
        cost: ``{ran, failed[, c]}`` (``check_reference_cost``).
    """

    def __init__(self, *, metrics: Metrics, cost: dict[str, float]) -> None:
        self.metrics = metrics
        self.ran = float(cost["ran"])
        self.failed = float(cost["failed"])
        self.other = float(cost.get("c", 0.0))

    def __call__(self, metric: str, program: Any) -> float:
        forfeit_share = getattr(self.metrics[metric], "forfeit_share", None)
        if forfeit_share is None:
            return self.other
        share = forfeit_share(program)
        return self.ran * (1 - share) + self.failed * share
