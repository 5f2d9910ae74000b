"""Classic Can't Stop strategies: Glenn & Aloi's GA player and Keller's Rule of 28.

Both follow one scheme and differ only in their constants, so one class with a
parameter record serves both: after each column move, stop if stopping wins, roll
while a neutral marker can still be placed, else stop once the progress score (cells
advanced this turn weighted per column, plus a bonus for awkward neutral columns)
reaches a threshold; among the column moves, take the one of highest value
(per-column move values, less a penalty for each new neutral marker it places). The
decisions match the reference implementation of the sketch-learning paper, with ties
broken towards the first legal action.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import HEIGHTS, PHASE_ROLL_OR_STOP, ROLL, STOP, CantStopState


@dataclass(frozen=True)
class HeuristicParams:
    """Constants of a progress/threshold strategy; lists run over columns 2..12."""

    progress_value: tuple[int, ...]
    move_value: tuple[int, ...]
    odds: int
    evens: int
    highs: int
    lows: int
    marker: int
    threshold: int


GLENN_ALOI = HeuristicParams(
    progress_value=(7, 7, 3, 2, 2, 1, 2, 2, 3, 7, 7),
    move_value=(7, 0, 2, 0, 4, 3, 4, 0, 2, 0, 7),
    odds=7, evens=1, highs=6, lows=5, marker=6, threshold=29,
)
RULE_OF_28 = HeuristicParams(
    progress_value=(6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6),
    move_value=(1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1),
    odds=2, evens=-2, highs=4, lows=4, marker=6, threshold=28,
)


def difficulty_score(state: CantStopState, params: HeuristicParams) -> int:
    """Bonus for awkward neutral positions: all odd, all even, all low (<=7), all high (>=7)."""
    cols = state.neutral_cols
    score = 0
    if all(c & 1 for c in cols):
        score += params.odds
    if all(not c & 1 for c in cols):
        score += params.evens
    if all(c <= 7 for c in cols):
        score += params.lows
    if all(c >= 7 for c in cols):
        score += params.highs
    return score


def progress_score(state: CantStopState, params: HeuristicParams) -> int:
    """Σ over neutral columns of (cells advanced this turn + 1) · progress_value[c]."""
    neutral = state.neutral
    own = state.markers[state.player]
    pv = params.progress_value
    return sum((neutral[c] - own[c] + 1) * pv[c - 2] for c in state.neutral_cols)


def can_place_new_neutral(state: CantStopState) -> bool:
    """Fewer than three neutrals are down and some column is still free for one.

    Asked of the state, whose rule set decides (the reference rules count differently)."""
    return state.can_place_new_neutral()


class HeuristicPlayer:
    """Stop when the progress score reaches the threshold; pick the column move of best value."""

    def __init__(self, params: HeuristicParams, name: str) -> None:
        self.params = params
        self.name = name
        # move value of each column, indexed by column number, and the marker penalty
        self._mv = (0, 0) + tuple(params.move_value)

    def __call__(self, state: CantStopState):
        if state.phase == PHASE_ROLL_OR_STOP:
            return self.roll_or_stop(state)
        return self.choose_columns(state)

    def roll_or_stop(self, state: CantStopState) -> str:
        if state.stopping_wins():
            return STOP
        if can_place_new_neutral(state):
            return ROLL
        score = progress_score(state, self.params) + difficulty_score(state, self.params)
        return STOP if score >= self.params.threshold else ROLL

    def column_move_value(self, state: CantStopState, action: tuple[int, ...]) -> int:
        """Σ_c (advance·move_value[c] − marker·isNewNeutral(c)); a double advances 2."""
        advance = 2 if len(action) == 2 and action[0] == action[1] else 1
        neutral = state.neutral
        marker = self.params.marker
        mv = self._mv
        return sum(advance * mv[c] - (marker if neutral[c] == 0 else 0) for c in action)

    def choose_columns(self, state: CantStopState) -> tuple[int, ...]:
        legal = state.legal
        best = legal[0]
        if len(legal) == 1:
            return best
        best_value = self.column_move_value(state, best)
        for action in legal[1:]:
            value = self.column_move_value(state, action)
            if value > best_value:
                best, best_value = action, value
        return best

    def __repr__(self) -> str:
        return f"HeuristicPlayer({self.name})"


def glenn_aloi_player() -> HeuristicPlayer:
    return HeuristicPlayer(GLENN_ALOI, "ga")


def rule_of_28_player() -> HeuristicPlayer:
    return HeuristicPlayer(RULE_OF_28, "rule28")


__all__ = [
    "GLENN_ALOI", "RULE_OF_28", "HEIGHTS", "HeuristicParams", "HeuristicPlayer",
    "difficulty_score", "glenn_aloi_player", "progress_score", "rule_of_28_player",
]
