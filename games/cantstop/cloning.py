"""Can't Stop's observation cloning score C_O (Medeiros, Aleixo and Lelis 2022).

The program replays the recorded turns on a board of its own (it decides on each
recorded state; its column moves advance its own markers, its "stop" banks them,
a recorded turn that ends before it stops is lost like a bust) and the score is
the overlap of the two end-of-match boards, Σ_col min / Σ_col max of the cells
secured (a claimed column counts its full height). The sketch-learning paper's worked example
gives 8/23 ≈ 0.34.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api import failure_scores_zero
from ..records import MatchRecord, load_records
from .rules import HEIGHTS, PHASE_COLUMN, STOP


def board_cells(markers: Sequence[int], claimed: Sequence[int], seat: int) -> list[int]:
    """Cells secured per column (index 0..12); claimed columns count their height."""
    return [HEIGHTS[c] if claimed[c] == seat else markers[c] if c >= 2 else 0
            for c in range(13)]


def _without(cells: list[int], columns: Sequence[int]) -> list[int]:
    """Cells in columns the opponent claimed are gone, as on the real board."""
    for c in columns:
        cells[c] = 0
    return cells


def overlap(a: Sequence[int], b: Sequence[int]) -> float:
    """Σ min / Σ max over columns: 1.0 for equal boards, 0.0 for disjoint ones."""
    union = sum(max(x, y) for x, y in zip(a, b))
    return sum(min(x, y) for x, y in zip(a, b)) / union if union else 1.0


class _ShadowBoard:
    """The program's own markers while it replays a recorded player's turns."""

    def __init__(self) -> None:
        self.own = [0] * 13
        self.claimed = [-1] * 13
        self.neutral: dict[int, int] = {}

    def advance(self, action) -> None:
        for c in action:
            if self.claimed[c] >= 0:
                continue
            h = self.neutral.get(c, self.own[c])
            self.neutral[c] = min(h + 1, HEIGHTS[c])

    def stop(self) -> None:
        for c, h in self.neutral.items():
            if h >= HEIGHTS[c]:
                self.claimed[c] = 0
                self.own[c] = 0
            else:
                self.own[c] = h
        self.neutral = {}

    def bust(self) -> None:
        self.neutral = {}


class CantStopObservationCloning:
    name = "c_o"

    def __init__(self, matches: Sequence[MatchRecord], strategy_class) -> None:
        self.trajectories = []  # (turns: list[list[state]], oracle cells)
        for m in matches:
            for seat in sorted({s for s, _, _ in m.pairs}):
                turns: list[list] = []
                for s, state, _ in m.pairs:
                    if s != seat:
                        continue
                    if not turns or (state.phase == PHASE_COLUMN and not state.neutral_cols):
                        turns.append([])
                    turns[-1].append(state)
                final = m.final_state
                oracle = board_cells(final.markers[seat], final.claimed, seat)
                lost = [c for c in range(2, 13) if final.claimed[c] not in (-1, seat)]
                self.trajectories.append((turns, oracle, lost))
        if not self.trajectories:
            raise ValueError("the data set holds no recorded turns")
        self.strategy_class = strategy_class

    def __call__(self, program) -> float:
        player = self.strategy_class(program)
        total = 0.0
        for turns, oracle, lost in self.trajectories:
            board = _ShadowBoard()
            try:
                for turn in turns:
                    for state in turn:
                        action = player(state)
                        if action == STOP:
                            board.stop()
                            break
                        if isinstance(action, tuple):
                            board.advance(action)
                    else:
                        board.bust()
            except Exception:  # a crashing program keeps what it banked so far,
                if failure_scores_zero(self.strategy_class):
                    return 0.0  # unless its language scores a failing program 0
            total += overlap(_without(board_cells(board.own, board.claimed, 0), lost), oracle)
        return total / len(self.trajectories)


def worked_example() -> float:
    """The worked example of the sketch-learning paper: columns 2, 3, 7 and one cell of 12 against
    columns 2, 3 and one cell of 8."""
    recorded = [0] * 13
    for c in (2, 3, 7):
        recorded[c] = HEIGHTS[c]
    recorded[12] = 1
    program = [0] * 13
    for c in (2, 3):
        program[c] = HEIGHTS[c]
    program[8] = 1
    return overlap(program, recorded)


def observation_cloning(data: str, game: Any, strategy_class: Any,
                        psi: Any = None) -> CantStopObservationCloning:
    """``SynthesisSpec.cloning`` factory: C_O over a record file of ``stratsynth record``."""
    _, matches = load_records(data, game)
    return CantStopObservationCloning(matches, strategy_class)
