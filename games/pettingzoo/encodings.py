"""How a stratsynth game looks to an RL agent: a fixed action catalogue and an
observation array, per game (``games.pettingzoo.env`` reads them).

An encoding numbers every action the game can ever offer (the agent's ``Discrete``
action is such a number; the legal ones are the action mask) and draws a state as an
array seen from one seat (its own pieces first). Most games list their actions once
(a catalogue); Tribes numbers its state-dependent actions by a fixed layout
(``games.pettingzoo.tribes``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


class Encoding:
    """The catalogue of actions and the observation of one game (subclass per game).

    Args:
        game: the stratsynth game object.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.actions = self.catalogue()
        self.index = {action: i for i, action in enumerate(self.actions)}

    def catalogue(self) -> list:
        raise NotImplementedError

    @property
    def size(self) -> int:
        """How many action numbers there are (the ``Discrete`` space's size)."""
        return len(self.actions)

    def encode(self, state: Any, action: Any) -> int:
        """The number of a legal ``action`` of ``state``."""
        return self.index[action]

    def legal(self, state: Any) -> dict[int, Any]:
        """The legal actions of ``state`` by their numbers."""
        return {self.encode(state, action): action for action in state.legal_actions()}

    shape: tuple[int, ...]
    dtype: Any = np.int8
    low: float = 0
    high: float = 1

    def observe(self, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError


class BoardEncoding(Encoding):
    """A square board of cells holding 0 (empty), 1 (seat 0's piece) or 2 (seat 1's):
    noughts-and-crosses and Hexapawn. Observation: rows × columns × 2 (the seat's
    pieces, the opponent's). Actions: the game's own (cells, or (from, to) pairs)."""

    def __init__(self, game: Any) -> None:
        cells = len(game.rules.initial_board())
        self.side = math.isqrt(cells)
        self.shape = (self.side, self.side, 2)
        super().__init__(game)

    def catalogue(self) -> list:
        cells = self.side * self.side
        sample = self.game.new_initial_state().legal_actions()[0]
        if isinstance(sample, tuple):
            return [(a, b) for a in range(cells) for b in range(cells) if a != b]
        return list(range(cells))

    def observe(self, state: Any, seat: int) -> np.ndarray:
        board = np.asarray(state.board, dtype=np.int8).reshape(self.side, self.side)
        out = np.empty(self.shape, dtype=np.int8)
        out[:, :, 0] = board == seat + 1
        out[:, :, 1] = board == 2 - seat
        return out


class CantStopEncoding(Encoding):
    """Can't Stop: per column 2..12 the seat's and the opponent's markers and the
    neutral marker (shares of the column's height), the columns each has claimed,
    the four dice (one-hot) and whether the seat is choosing columns (1) or
    choosing to roll or stop (0): 80 numbers in [0, 1]. Actions: roll, stop, one
    column, two columns."""

    shape = (80,)
    dtype = np.float32

    def catalogue(self) -> list:
        from games.cantstop.rules import PAIR, ROLL, SINGLE, STOP

        return [ROLL, STOP, *[a for a in SINGLE if a is not None], *PAIR.values()]

    def observe(self, state: Any, seat: int) -> np.ndarray:
        from games.cantstop.rules import COLUMNS, HEIGHTS, PHASE_COLUMN

        out = np.zeros(self.shape, dtype=np.float32)
        if seat < 0:
            return out
        for i, c in enumerate(COLUMNS):
            out[i] = state.markers[seat][c] / HEIGHTS[c]
            out[11 + i] = state.markers[1 - seat][c] / HEIGHTS[c]
            out[22 + i] = state.neutral[c] / HEIGHTS[c]
            out[33 + i] = state.claimed[c] == seat
            out[44 + i] = state.claimed[c] == 1 - seat
        for k, die in enumerate(state.dice[:4]):
            out[55 + 6 * k + die - 1] = 1.0
        out[79] = state.phase == PHASE_COLUMN
        return out


class ExpendibotsEncoding(Encoding):
    """Expendibots: 8 × 8 × 2, the seat's stacks and the opponent's (tokens / 12).
    Actions: every ``("BOOM", square)`` and every ``("MOVE", m, source, target)`` along
    a row or column (m = 1 … 12)."""

    shape = (8, 8, 2)
    dtype = np.float32

    def catalogue(self) -> list:
        actions: list = [("BOOM", square) for square in range(64)]
        for m in range(1, 13):
            for source in range(64):
                x, y = source % 8, source // 8
                for target in range(64):
                    if target != source and (target % 8 == x or target // 8 == y):
                        actions.append(("MOVE", m, source, target))
        return actions

    def observe(self, state: Any, seat: int) -> np.ndarray:
        board = np.asarray(state.board, dtype=np.float32).reshape(8, 8)
        sign = 1.0 if seat == 0 else -1.0
        out = np.empty(self.shape, dtype=np.float32)
        out[:, :, 0] = np.clip(board * sign, 0, None) / 12
        out[:, :, 1] = np.clip(-board * sign, 0, None) / 12
        return out


def tribes_encoding(game: Any) -> Encoding:
    """Tribes' encoding (``games.pettingzoo.tribes``), imported only when used."""
    from .tribes import TribesEncoding

    return TribesEncoding(game)


ENCODINGS = {
    "tictactoe": BoardEncoding,
    "hexapawn": BoardEncoding,
    "cantstop": CantStopEncoding,
    "expendibots": ExpendibotsEncoding,
    "tribes": tribes_encoding,
}
"""Game name -> its encoding: the games that have a PettingZoo environment."""
