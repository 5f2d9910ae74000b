"""Can't Stop as the sketch-learning paper's reference code plays it (``--game-param
rules=reference``).

The paper's rules (``games.cantstop.rules``) are the default and are right. The
numbers of the sketch-learning paper were measured on its reference implementation
(github leandrocouto/sketch-learning, ``cant-stop-sketch-learning/src/game.py`` at
commit a93feef), which differs from them in four ways. This variant
reproduces that engine decision by decision, including its bug:

D1  A neutral marker on the top cell does not claim the column; one more step
    does (columns are effectively one cell taller). Stopping with a neutral on
    the top cell leaves the player's marker there, unclaimed.
D2  **A bug of the reference code.** Advancing in a column where the player's own
    marker sits on the top cell (possible only because of D1) claims the column
    this turn and adds one to the neutral-marker count without placing a neutral
    (a double adds two). The count can reach 4; the reference players then
    "keep rolling while a neutral is free" (count != 3) until they bust.
D3  Legal column moves come in the order of a Python ``set`` of the move tuples
    (built from the three dice pairings in the reference's order), so players
    that break ties towards the first move choose differently from the paper's
    list order.
D4  "Stop if stopping wins" fires only if stopping gives exactly three claimed
    columns (the reference players count ``== 3`` after a trial stop). That test
    is the players' in the reference code; it lives on the state here
    (``stopping_wins``) so that every player of this house that asks the state
    (GA, Rule of 28, the DSL sketch) plays the reference's way under these rules.

Representation: as in the paper state, plus ``neutral_count`` (the reference's
``n_neutral_markers``, which D2 can push past the neutrals on the board) and
``won_now`` (the reference's ``player_won_column``: columns claimed this turn,
settled on ``STOP``). A neutral that stepped past the top cell is stored at
height ``HEIGHTS[c] + 1`` (the column is in ``won_now``); progress measures such
as ``advanced_this_turn`` then count that step, as the reference's
``NumberAdvancedThisRound`` does. ``neutral_cols`` follows the reference's
``neutral_positions`` order: a neutral that moves goes to the end.

One more difference from the paper's text, not a rule: the reference engine rolls
the next dice right after a column move; the roll is used by the next column
decision (after ``ROLL``, or by the opponent after ``STOP``). Either way every
column decision or bust consumes one fresh roll, so the dice sequence and its
distribution are the same as the paper engine's.
"""

from __future__ import annotations

import random
from typing import Any

from .rules import (
    COLUMNS,
    COLUMNS_TO_WIN,
    DEFAULT_MAX_MOVES,
    HEIGHTS,
    MAX_NEUTRALS,
    PHASE_ROLL_OR_STOP,
    ROLL_OR_STOP_LIST,
    CantStopState,
    _action,
    _validate,
)

RULES = ("paper", "reference")
"""Values of the ``rules`` parameter of ``CantStop``."""

REFERENCE_COMMIT = "a93feef180da72c45a6627955fbc6277209371b0"
"""Commit of leandrocouto/sketch-learning whose Can't Stop engine this variant reproduces."""


class ReferenceCantStopState(CantStopState):
    """A Can't Stop position under the sketch-learning paper's reference code's rules (D1–D4
    above)."""

    __slots__ = ("neutral_count", "won_now")

    def __init__(self, rng: random.Random | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 first_player: int = 0, roll: bool = True) -> None:
        self.neutral_count = 0
        self.won_now: list[int] = []
        super().__init__(rng, max_moves=max_moves, first_player=first_player, roll=roll)

    # ---- rules ------------------------------------------------------------------
    def _column_moves(self, pairings) -> list:
        """The reference's ``available_moves``: from the dice themselves, in set order (D3)."""
        d0, d1, d2, d3 = self.dice
        claimed = self.claimed
        won = self.won_now
        neutral = self.neutral
        n = self.neutral_count
        combination: list[tuple[int, ...]] = []
        for comb in ((d0 + d1, d2 + d3), (d0 + d2, d1 + d3), (d0 + d3, d1 + d2)):
            a, b = comb
            open_a = claimed[a] < 0 and a not in won
            open_b = claimed[b] < 0 and b not in won
            first = open_a and (n < 3 or neutral[a] > 0)
            second = open_b and (n < 3 or neutral[b] > 0)
            if open_a and open_b and (
                    n < 2 or (n == 2 and (neutral[a] > 0 or neutral[b] > 0 or a == b))
                    or (n > 2 and neutral[a] > 0 and neutral[b] > 0)):
                combination.append(comb)
            elif first and second:
                combination.append((a,))
                combination.append((b,))
            if first and not second:
                combination.append((a,))
            if second and not first:
                combination.append((b,))
        moves = [_action(t) for t in {x[::-1] if x[0] > x[-1] else x for x in combination}]
        if n >= 3 and not any(neutral[c] for m in moves for c in m):
            return []  # the reference's second bust test (never true for its own move lists)
        return moves

    def _advance(self, action) -> None:
        neutral = self.neutral
        p = self.player
        own = self.markers[p]
        won = self.won_now
        cols = self.neutral_cols
        self.advances[p] += len(action)
        for c in action:
            h = neutral[c]
            top = HEIGHTS[c]
            if h == 0:
                self.neutral_count += 1
                if own[c] == top:  # D2 (bug): counted, claimed, no neutral placed
                    if c not in won:
                        won.append(c)
                else:
                    neutral[c] = own[c] + 1
                    cols.append(c)
            elif h >= top:  # D1: one step past the top cell claims the column
                if c not in won:
                    won.append(c)
                neutral[c] = top + 1
            else:
                neutral[c] = h + 1
                cols.remove(c)
                cols.append(c)
        self.phase = PHASE_ROLL_OR_STOP
        self.legal = ROLL_OR_STOP_LIST

    def _stop(self) -> None:
        p = self.player
        own = self.markers[p]
        neutral = self.neutral
        self.stops[p] += 1
        for c in self.neutral_cols:
            h = min(neutral[c], HEIGHTS[c])
            self.banked[p] += h - own[c]
            own[c] = h
        for c in self.won_now:
            self.claimed[c] = p
            self.claims[p] += 1
            self.markers[0][c] = 0
            self.markers[1][c] = 0
        self._win_or_pass(p)

    def _clear_turn(self) -> None:
        self.neutral_count = 0
        self.won_now = []
        super()._clear_turn()

    # ---- helpers used by strategies and features --------------------------------
    def advanced_this_turn(self, column: int) -> int:
        """The reference's ``NumberAdvancedThisRound`` (a step past the top cell counts)."""
        h = self.neutral[column]
        own = self.markers[self.player][column]
        if h:
            return h - own
        if column in self.won_now:  # D2: own marker on the top cell, claimed this turn
            return HEIGHTS[column] - own + 1
        return 0

    def topped_columns(self) -> int:
        """Columns claimed this turn (settled on ``STOP``)."""
        return len(self.won_now)

    def stopping_wins(self) -> bool:
        """D4: stopping now gives exactly three claimed columns (the reference's test)."""
        return self.claims[self.player] + len(self.won_now) == COLUMNS_TO_WIN

    def can_place_new_neutral(self) -> bool:
        """The reference's ``are_there_available_columns_to_play``: count != 3, a column free.

        With D2 the count can be 4, and then this is true although no neutral can go down."""
        if self.neutral_count == MAX_NEUTRALS:
            return False
        claimed = self.claimed
        neutral = self.neutral
        return any(claimed[c] < 0 and not neutral[c] for c in COLUMNS)

    # ---- copies and snapshots -----------------------------------------------------
    def clone(self) -> ReferenceCantStopState:
        """An independent copy (every slot of the class hierarchy; lists copied)."""
        other = object.__new__(type(self))
        for name in _slots(type(self)):
            value = getattr(self, name)
            if name == "rng":
                rng = random.Random()
                rng.setstate(value.getstate())
                value = rng
            elif isinstance(value, list):
                value = value[:]
            elif isinstance(value, tuple) and value and isinstance(value[0], list):
                value = tuple(v[:] for v in value)
            setattr(other, name, value)
        return other

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["rules"] = "reference"
        data["neutral_count"] = self.neutral_count
        data["won_now"] = list(self.won_now)
        return data

    # ---- snapshots: ``neutral`` may hold ``HEIGHTS[c] + 1`` (claimed this turn) --------
    def _restore_more(self, data: dict[str, Any]) -> None:
        won = data.get("won_now")
        self.won_now = (list(won) if won is not None else
                        [c for c in self.neutral_cols if self.neutral[c] > HEIGHTS[c]])
        count = data.get("neutral_count")
        placed_none = sum(1 for c in self.won_now if not self.neutral[c])  # D2
        self.neutral_count = (int(count) if count is not None
                              else len(self.neutral_cols) + placed_none)

    def _validate_snapshot(self) -> None:
        _validate_reference(self)

    def _snapshot_moves(self) -> list:
        return self._column_moves(None)

    def __repr__(self) -> str:
        return f"ReferenceCantStopState({self.to_dict()!r})"


def _slots(cls: type) -> list[str]:
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]


def _validate_reference(state: ReferenceCantStopState) -> None:
    """Reject snapshots the reference engine cannot reach, naming the field at fault."""
    bad = "bad Can't Stop state snapshot (reference rules): "
    _validate(state, bad, neutral_above=1)
    for c in COLUMNS:
        if state.neutral[c] > HEIGHTS[c] and c not in state.won_now:
            raise ValueError(f"{bad}neutral above column {c} but the column is not in won_now")
    if any(c not in COLUMNS or state.claimed[c] >= 0 for c in state.won_now):
        raise ValueError(f"{bad}won_now {state.won_now}")
    if not len(state.neutral_cols) <= state.neutral_count <= MAX_NEUTRALS + 1:
        raise ValueError(f"{bad}neutral_count {state.neutral_count}")


# ---- the reference DSL's board functions, on either rule set ------------------------------
def _check_column(column: int) -> None:
    if column not in COLUMNS:
        raise ValueError(f"column {column!r} out of range 2..12")


def positions_player_has_secured(state: CantStopState, column: int) -> int:
    """The reference DSL's ``PositionsPlayerHasSecuredInColumn`` for the player to act.

    Height + 1 if the player claimed the column, 0 if the opponent did; else the
    neutral marker's cell if one is in the column (this turn's progress included;
    a step past the top cell counts, so height + 1), else the permanent marker's
    cell (height + 1 if that marker sits on the top cell and the column was
    claimed this turn, D2); 0 with neither. An out-of-range column raises
    ``ValueError`` (the reference raises, and a failing program scores 0).
    """
    _check_column(column)
    p = state.player
    owner = state.claimed[column]
    if owner >= 0:
        return HEIGHTS[column] + 1 if owner == p else 0
    if state.neutral[column]:
        return state.neutral[column]
    own = state.markers[p][column]
    if own and column in getattr(state, "won_now", ()):
        return HEIGHTS[column] + 1
    return own


def positions_opponent_has_secured(state: CantStopState, column: int) -> int:
    """The reference DSL's ``PositionsOpponentHasSecuredInColumn``: the opponent's marker cell,
    height + 1 if the opponent claimed the column, 0 if the player to act did."""
    _check_column(column)
    opponent = 1 - state.player
    owner = state.claimed[column]
    if owner >= 0:
        return HEIGHTS[column] + 1 if owner == opponent else 0
    return state.markers[opponent][column]


def neutral_positions(state: CantStopState) -> list[int]:
    """The reference DSL's ``neutrals`` list: columns of the neutral markers on the board.

    In the reference engine (commit a93feef) a neutral that steps past the top cell
    stays in the list (its column is claimed at ``STOP``), and a neutral that moves
    goes to the end; a D2 claim (own marker on the top cell) places no neutral and
    so is not listed. Under the paper's rules: the columns in the order placed."""
    return list(state.neutral_cols)


__all__ = ["REFERENCE_COMMIT", "RULES", "ReferenceCantStopState", "neutral_positions",
           "positions_opponent_has_secured", "positions_player_has_secured"]
