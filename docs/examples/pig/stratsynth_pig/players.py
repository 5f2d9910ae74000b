"""Built-in Pig players: random, and the classic hold-at-N and keep-pace rules."""

from __future__ import annotations

from functools import partial

from games.api import RandomStrategy, StrategyBase

from .rules import HOLD, ROLL


class HoldAt(StrategyBase):
    """Roll until the turn total reaches ``threshold``, then hold.

    Args:
        threshold: turn total at which to hold (20 maximises the expected gain of a
            turn).
    """

    def __init__(self, threshold: int = 20) -> None:
        self.threshold = threshold
        self.name = f"hold{threshold}"

    def __call__(self, state):
        return HOLD if state.turn_total >= self.threshold else ROLL

    def __repr__(self) -> str:
        return f"HoldAt({self.threshold})"


class KeepPace(StrategyBase):
    """Hold at 21 plus an eighth of the opponent's lead: take more risk when behind."""

    name = "keep-pace"

    def __call__(self, state):
        me = state.player
        lead = state.scores[1 - me] - state.scores[me]
        return HOLD if state.turn_total >= 21 + lead / 8 else ROLL

    def __repr__(self) -> str:
        return "KeepPace()"


PLAYERS = {
    "random": RandomStrategy,
    "hold20": partial(HoldAt, 20),
    "hold10": partial(HoldAt, 10),
    "keep-pace": KeepPace,
}
"""Spec name -> factory taking no argument (``functools.partial``, not a lambda, so
that players cross process boundaries)."""
