"""A hill climber over programs, as a stratsynth synthesizer.

From a random program (or the run's initial one), score ``neighbours`` neighbours
as one batch (so a process pool keeps every worker busy) and move to the best of
them if it beats the current program; after ``patience`` steps without a move,
start again from a new random program. It runs until the evaluator's budget is
spent, and draws every random choice from the ``rng`` it is given, so the same seed
gives the same log and ``stratsynth resume`` can replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gp.evaluator import BudgetSpent
from gp.synthesis import Synthesizer, SynthesizerSettings, register_synthesizer


@dataclass(frozen=True, kw_only=True)
class HillClimbSettings(SynthesizerSettings):
    neighbours: int = field(default=8, metadata={
        "help": "hillclimb: neighbours scored per step (one batch)", "minimum": 1})
    patience: int = field(default=10, metadata={
        "help": "hillclimb: steps without a better neighbour before a restart from a "
                "new random program", "minimum": 1})


@register_synthesizer
class HillClimber(Synthesizer):
    """Best-of-k neighbour hill climbing with random restarts."""

    name = "hillclimb"
    summary = "hill climbing: the best of k neighbours, random restarts when stuck"
    Settings = HillClimbSettings

    def run(self) -> None:
        language, evaluator, rng = self.language, self.evaluator, self.rng
        current = self.initial if self.initial is not None else language.random_program(rng)
        try:
            value = evaluator.score(current)
            stuck = 0
            while True:
                batch = [language.neighbour(current, rng)
                         for _ in range(self.settings.neighbours)]
                values = evaluator.score_many(batch)
                best = max(range(len(batch)), key=values.__getitem__)
                if values[best] > value:
                    current, value, stuck = batch[best], values[best], 0
                    continue
                stuck += 1
                if stuck >= self.settings.patience:
                    current = language.random_program(rng)
                    value, stuck = evaluator.score(current), 0
        except BudgetSpent:
            pass
