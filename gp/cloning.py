"""Behavioural cloning score C_A of the sketch-learning paper, for any game with recorded matches.

``ActionCloning``: the fraction of recorded (state, action) pairs on which the
program picks the recorded action. Game-specific scores (e.g. observation scores, which
replay turns on a board of the program's own) live with their game and are
named in its ``SynthesisSpec.cloning``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.api import failure_scores_zero
from games.records import MatchRecord, load_records


class ActionCloning:
    name = "c_a"

    def __init__(self, matches: Sequence[MatchRecord], strategy_class) -> None:
        self.pairs = [(state, action) for m in matches for _, state, action in m.pairs]
        if not self.pairs:
            raise ValueError("the data set holds no (state, action) pairs")
        self.strategy_class = strategy_class

    def __call__(self, program) -> float:
        player = self.strategy_class(program)
        strict = failure_scores_zero(self.strategy_class)
        hits = 0
        for state, action in self.pairs:
            try:
                hits += player(state) == action
            except Exception:  # a crashing program matches nothing there
                if strict:  # its language scores a program that fails anywhere 0
                    return 0.0
        return hits / len(self.pairs)


def action_cloning(data: str, game: Any, strategy_class: Any, psi: Any = None) -> ActionCloning:
    """``SynthesisSpec.cloning`` factory: C_A over a record file of ``stratsynth record``."""
    _, matches = load_records(data, game)
    return ActionCloning(matches, strategy_class)
