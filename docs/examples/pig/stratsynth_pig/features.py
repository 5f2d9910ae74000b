"""Behaviour features of a Pig player, read off the final state of a match.

A feature sees only the state where the match ended (``function(state, seat)``),
so the state counts what the features need (turns, busts, holds, points banked).
Each value lies in its declared range, which QD uses to lay out its archive.
"""

from __future__ import annotations


def bust_rate(state, seat: int) -> float:
    """Share of the seat's turns that ended with a 1."""
    return state.busts[seat] / state.turns[seat] if state.turns[seat] else 0.0


def mean_hold(state, seat: int) -> float:
    """Mean turn total the seat held at, as a share of the goal."""
    if not state.holds[seat]:
        return 0.0
    return state.banked[seat] / state.holds[seat] / state.goal


def score_share(state, seat: int) -> float:
    """The seat's final score as a share of the goal (1 for the winner)."""
    return min(1.0, state.scores[seat] / state.goal)


FEATURES = {
    "bust_rate": (bust_rate, (0.0, 1.0)),
    "mean_hold": (mean_hold, (0.0, 1.0)),
    "score_share": (score_share, (0.0, 1.0)),
}
