"""2L, the local learner of "Choosing well your opponents" (Moraes, Aleixo, Ferreira,
Lelis, IJCAI 2023) (``--driver 2l``).

Each best response is scored against chosen reference opponents S, the unweighted
sum of its utilities against them (more opponents than IBR's one, fewer than FP's
all). While a search runs, every candidate it scores leaves a data point, a bit per
opponent: ``b_i = 1`` if the candidate beats the newest opponent ``S[-1]`` (utility
> ½) but not opponent i (utility < ½), i.e. opponent i tells apart candidates that
the newest one alone cannot. When a better program is found:

1. it is played against the whole population (the empirical game);
2. *re-admission*: the earlier programs that beat it (utility > ½) join S; the new
   program itself joins only with ``readmit_adds_new`` (the authors' code leaves it
   out);
3. otherwise *pruning*: greedy set cover over the counted data points keeps ``S[-1]``
   and then, one at a time, the opponent whose bit is set in most remaining points
   (the first on ties), dropping the points it covers, until none is left; S becomes
   the kept opponents followed by the new program.

The data points are cleared after each update. ``helpful_test`` is the test for
``b_i``: ``intended`` (the default) as above; ``legacy`` the authors' code's test,
which compares the candidate's first-seat score plus the running sum of its 2-match
scores over opponents 0..i with 1 instead of this opponent's score alone (here: its
utility ``u_i`` plus ``2·Σ_{j<=i} u_j`` against 1). A candidate's utility against
``S[-1]`` is read from the search's own matches (the authors play two extra games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .drivers import DriverSettings, register_driver
from .empirical_game import PopulationDriver, PopulationState


def helpful_bits(utilities: Sequence[float], test: str = "intended") -> tuple[int, ...]:
    """A candidate's data point from its utilities against S (the last: ``S[-1]``)."""
    beats_last = utilities[-1] > 0.5
    if test == "intended":
        return tuple(int(beats_last and u < 0.5) for u in utilities)
    if test != "legacy":
        raise ValueError(f"helpful_test must be intended or legacy, got {test!r}")
    bits, running = [], 0.0
    for u in utilities:
        running += 2 * u
        bits.append(int(beats_last and u + running < 1))
    return tuple(bits)


def greedy_cover(points: Sequence[tuple[Sequence[int], int]], size: int) -> list[int]:
    """Indices of S to keep: ``size - 1`` (the newest), then greedily the index whose bit
    is set in the most counted points not yet covered (first on ties)."""
    keep = [size - 1]
    left = [(list(bits), count) for bits, count in points]
    while True:
        scores = [sum(count for bits, count in left if bits[i]) for i in range(size)]
        if not scores or max(scores) == 0:
            return keep
        chosen = scores.index(max(scores))
        if chosen not in keep:
            keep.append(chosen)
        left = [(bits, count) for bits, count in left if not bits[chosen]]


def readmitted(payoffs: Sequence[Sequence[float]], new: int) -> list[int]:
    """Earlier programs that beat program ``new`` (``M[q][new] > ½``), in order."""
    return [q for q in range(len(payoffs)) if q != new and payoffs[q][new] > 0.5]


@dataclass(frozen=True, kw_only=True)
class LocalLearnerSettings(DriverSettings):
    helpful_test: Literal["intended", "legacy"] = field(default="intended", metadata={
        "help": "2l: the data-point test: intended (the candidate beats the newest opponent "
                "and loses to this one) or legacy (the authors' code's running-sum test)"})
    readmit_adds_new: bool = field(default=False, metadata={
        "help": "2l: when earlier programs are re-admitted, the new program joins the "
                "opponents too (the authors' code leaves it out)"})


@register_driver
class LocalLearner(PopulationDriver):
    """Reference opponents chosen by set cover, pruned and re-admitted."""

    name = "2l"
    summary = ("2L: each program answers opponents chosen by greedy set cover over the "
               "search's data, pruned and re-admitted")
    Settings = LocalLearnerSettings

    def observe(self, state: PopulationState, text: str, utilities: list[float]) -> None:
        bits = list(helpful_bits(utilities, self.settings.helpful_test))
        for point in state.data:
            if point[0] == bits:
                point[1] += 1
                return
        state.data.append([bits, 1])

    def update(self, state: PopulationState, new: int) -> dict[str, Any]:
        stronger = readmitted(state.game.payoffs, new)
        if stronger:
            added = [q for q in stronger if q not in state.reference]
            state.reference = state.reference + added
            if self.settings.readmit_adds_new:
                state.reference.append(new)
            record = {"readmitted": stronger}
        else:
            kept = greedy_cover(state.data, len(state.reference))
            state.reference = [state.reference[i] for i in kept] + [new]
            record = {"kept": kept}
        state.weights = [1.0] * len(state.reference)
        state.data = []
        return record
