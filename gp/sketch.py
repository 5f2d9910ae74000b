"""Sketch learning: a search on the cloning score C first, then a best response on Ψ.

``sketch-sa`` / ``sketch-uct``: a sketch search climbs C (how well a program imitates
a recorded player) for a share of the budget, measuring the objective whenever C
improves; then the best-response search climbs the objective from the best program
found so far (SA: its start program; UCT: its branch inserted in the tree, or with
``br_start = "incomplete"`` the branch of the partial program it was completed from).

The default shares come from the published schedule these methods reproduce: of a
48-hour run, 1 hour of sketch search for Sketch-SA and 10 hours for Sketch-UCT
(``SKETCH_SHARE``). ``sketch_schedule = "reference"`` is Sketch-SA as that paper's
reference code schedules it (``ReferenceSketchSA``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from .evaluator import BudgetSpent, Evaluator
from .methods import REMEASURE_HELP, ROLLOUT_HELP, sa_restart
from .metrics import CLONING, FRESH_PSI
from .sa import SimulatedAnnealing
from .synthesis import Synthesizer, SynthesizerSettings, register_synthesizer
from .uct import UCT
from .variation import mutSubtree

SKETCH_SHARE = {"sketch-sa": 1 / 48, "sketch-uct": 10 / 48}
"""Default share of the budget for the sketch search: 1 h (SA) or 10 h (UCT) of the
published 48 h schedule."""

REFERENCE_SKETCH_SEARCHES = 5
REFERENCE_SKETCH_SCHEDULES = 10
"""The reference code's Sketch-SA: 5 independent sketch searches of at most 10 SA
schedules each."""

SHARE_HELP = ("sketch methods: share of the budget for the sketch search on C "
              "(default: sketch-sa 1/48, sketch-uct 10/48; reference schedule: no limit)")


def sketch_deadline(evaluator: Evaluator, share: float) -> Callable[[], bool]:
    """True once ``share`` of the budget is used: of its seconds (as the log holds
    them, so a resumed run decides the same), of its evaluations, or of its charge."""
    budget = evaluator.budget
    if budget.seconds is not None:
        limit = share * budget.seconds
        return lambda: evaluator.logged_seconds() >= limit
    if budget.evaluations is None and budget.cost_limit is not None:
        limit_charge = share * budget.cost_limit
        return lambda: budget.charged >= limit_charge
    limit_evals = int(share * budget.evaluations)
    return lambda: budget.used >= limit_evals


class _SketchMethod(Synthesizer):
    @classmethod
    def metrics(cls, settings) -> frozenset[str]:
        return frozenset({CLONING})

    def share(self) -> float:
        share = self.settings.sketch_share
        return SKETCH_SHARE[self.name] if share is None else share

    def measure_objective(self, tree: Any, value: float) -> None:
        """``on_improve`` of the sketch search: the objective of each new best-C program."""
        self.evaluator.score(tree)


@dataclass(frozen=True, kw_only=True)
class SketchSASettings(SynthesizerSettings):
    sketch_share: float | None = field(default=None, metadata={
        "help": SHARE_HELP, "minimum": 0.0, "maximum": 1.0})
    sketch_schedule: Literal["text", "reference"] = field(default="text", metadata={
        "help": "sketch-sa: text (one SA on C for the sketch share, the objective whenever "
                "C improves) or reference (the reference code's: 5 searches of <= 10 SA "
                "schedules on C, the objective of each search's best)"})
    remeasure_restarts: bool = field(default=False, metadata={
        "help": REMEASURE_HELP})


@register_synthesizer
class SketchSA(_SketchMethod):
    """SA on C for the sketch share, then SA on the objective from the best program."""

    name = "sketch-sa"
    summary = "sketch learning: SA on the cloning score C, then SA on the objective"
    Settings = SketchSASettings

    @classmethod
    def metrics(cls, settings: SketchSASettings) -> frozenset[str]:
        extra = {CLONING, FRESH_PSI} if settings.remeasure_restarts else {CLONING}
        return frozenset(extra)

    def run(self) -> None:
        if self.settings.sketch_schedule == "reference":
            ReferenceSketchSA(self).run()
            return
        ev = self.evaluator
        neighbour = partial(mutSubtree, dsl=self.language)
        start = self.initial if self.initial is not None \
            else self.language.random_program(self.rng)
        SimulatedAnnealing(ev, self.rng, metric=CLONING).run(
            start, neighbour, until=sketch_deadline(ev, self.share()),
            on_improve=self.measure_objective)
        if ev.best_tree is None or ev.budget.spent():
            return
        restart = sa_restart(self.language, remeasure=self.settings.remeasure_restarts)
        SimulatedAnnealing(ev, self.rng, restart=restart).run(ev.best_tree, neighbour)


class ReferenceSketchSA:
    """Sketch-SA as the reference code schedules it (not as its paper's text does).

    Sketch search: ``REFERENCE_SKETCH_SEARCHES`` independent searches on C, each from
    a random program (or the initial one) through at most
    ``REFERENCE_SKETCH_SCHEDULES`` SA schedules; a schedule restarts from the search's
    best program, or from a new random one while the best C is 0. The objective is
    measured only for each search's best-C program. The best-response search then
    anneals on the objective from the best of those, each schedule restarting from
    the previous schedule's best; with ``remeasure_restarts`` the start program of
    every schedule, the first included, is measured on fresh matches, as the
    reference (which caches nothing) does. A ``sketch_share``, if given, also ends
    the sketch search.
    """

    def __init__(self, method: SketchSA) -> None:
        self.method = method
        self.language = method.language
        self.evaluator = method.evaluator
        self.rng = method.rng
        self.initial = method.initial
        share = method.settings.sketch_share
        self.stop = (lambda: False) if share is None \
            else sketch_deadline(self.evaluator, share)
        self.neighbour = partial(mutSubtree, dsl=self.language)

    def run(self) -> None:
        ev = self.evaluator
        best, best_value = None, -math.inf
        try:
            for _ in range(REFERENCE_SKETCH_SEARCHES):
                if self.stop() or ev.budget.spent():
                    break
                program = self.sketch_search()
                if program is None:
                    continue
                value = ev.score(program)
                if best is None or value > best_value:
                    best, best_value = program, value
        except BudgetSpent:
            return
        if best is None or ev.budget.spent():
            return
        restart = sa_restart(self.language, remeasure=self.method.settings.remeasure_restarts,
                             measure_start=True)
        SimulatedAnnealing(ev, self.rng, restart=restart).run(best, self.neighbour)

    def sketch_search(self):
        """One sketch search (SA schedules on C): its best-C program."""
        sa = SimulatedAnnealing(self.evaluator, self.rng, metric=CLONING)
        start = self.initial if self.initial is not None \
            else self.language.random_program(self.rng)
        best, best_c = None, -math.inf
        for _ in range(REFERENCE_SKETCH_SCHEDULES):
            program, value = sa.run(start, self.neighbour, until=self.stop, restart=False)
            if value > best_c:
                best, best_c = program, value
            if self.stop() or self.evaluator.budget.spent():
                break
            if self.initial is not None:
                start = self.initial
            elif best_c == 0:
                start = self.language.random_program(self.rng)
            else:
                start = best
        return best


BR_START_HELP = ("sketch-uct: the best-response UCT tree starts from the complete "
                 "best program of the sketch search (complete) or from the partial "
                 "program of the sketch-tree node whose simulation produced it "
                 "(incomplete)")


@dataclass(frozen=True, kw_only=True)
class SketchUCTSettings(SynthesizerSettings):
    sketch_share: float | None = field(default=None, metadata={
        "help": SHARE_HELP, "minimum": 0.0, "maximum": 1.0})
    rollout_evaluations: int | None = field(default=None, metadata={
        "help": ROLLOUT_HELP, "minimum": 1})
    br_start: Literal["complete", "incomplete"] = field(default="complete", metadata={
        "help": BR_START_HELP})


@register_synthesizer
class SketchUCT(_SketchMethod):
    """UCT on C for the sketch share, then UCT on the objective with a branch inserted.

    The branch inserted in the best-response tree, backed up with the best objective
    value, is (``br_start``):

    - ``complete``: the derivation of the best program the sketch search measured
      the objective of (the best by the objective among its best-C programs);
    - ``incomplete``: the derivation of the partial program of the sketch-tree node
      whose simulation produced that program, i.e. the production rules on the
      sketch tree's path from its root to that node; the node's holes stay open, so
      the best-response tree grows below it. A program found at a complete node
      (no holes) gives the same branch as ``complete``.
    """

    name = "sketch-uct"
    summary = "sketch learning: UCT on the cloning score C, then UCT on the objective"
    Settings = SketchUCTSettings

    def run(self) -> None:
        ev = self.evaluator
        rollouts = self.settings.rollout_evaluations
        self.sketch = UCT(self.language, ev.until(sketch_deadline(ev, self.share())),
                          self.rng, metric=CLONING, on_improve=self.measure_objective,
                          rollout_evaluations=rollouts)
        self.best_partial: tuple | None = None
        self.sketch.run()
        if ev.best_tree is None or ev.budget.spent():
            return
        self.response = UCT(self.language, ev, self.rng, rollout_evaluations=rollouts)
        start = ev.best_tree
        if self.settings.br_start == "incomplete" and self.best_partial is not None:
            start = self.best_partial
        self.response_start = start
        self.response.insert_branch(start, ev.best_value)
        self.response.run()

    def measure_objective(self, tree: Any, value: float) -> None:
        """The objective of a new best-C program; the sketch node it came from is kept
        when it becomes the best by the objective."""
        self.evaluator.score(tree)
        if self.evaluator.best_tree is tree:
            self.best_partial = self.sketch.rollout_partial
