"""Steepest-ascent hill climbing over a sampled neighbourhood, as a synthesizer.

Each step draws ``neighbours`` neighbours of the current program, scores them as one
batch (``score_many``: a process pool stays busy) and moves to the best of them only
if it beats the current program; a step without a better neighbour draws a new batch
from the same program, without restarts, until the budget is spent. This is the
local search of the programmatic self-play papers; the neighbourhood is a setting
(syntactic or semantic, ``gp.neighbourhoods``), told where the climb starts, each
new best and each move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .evaluator import BudgetSpent
from .neighbourhoods import NeighbourhoodSettings, make_neighbourhood
from .synthesis import Synthesizer, SynthesizerSettings, register_synthesizer


@dataclass(frozen=True, kw_only=True)
class HillClimbingSettings(NeighbourhoodSettings, SynthesizerSettings):
    neighbours: int = field(default=100, metadata={
        "help": "hc: neighbours scored per step (one batch)", "minimum": 1})


@register_synthesizer
class HillClimbing(Synthesizer):
    """Best of a sampled batch of neighbours, moved to only if it improves."""

    name = "hc"
    summary = "steepest-ascent hill climbing over sampled (syntactic or semantic) neighbours"
    Settings = HillClimbingSettings

    def run(self) -> None:
        language, evaluator, rng = self.language, self.evaluator, self.rng
        neighbourhood = make_neighbourhood(self.settings.neighbourhood, language=language,
                                           settings=self.settings, game=self.game)
        current = self.initial if self.initial is not None else language.random_program(rng)
        neighbourhood.start(current, rng)
        try:
            value = best = evaluator.score(current)
            while True:
                batch = [neighbourhood(current, rng) for _ in range(self.settings.neighbours)]
                values = evaluator.score_many(batch)
                top = max(range(len(batch)), key=values.__getitem__)
                if values[top] > best:
                    best = values[top]
                    neighbourhood.improved(batch[top], best)
                if values[top] > value:
                    current, value = batch[top], values[top]
                    neighbourhood.restart(current, rng)
        except BudgetSpent:
            pass
