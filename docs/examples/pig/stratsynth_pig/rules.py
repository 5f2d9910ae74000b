"""Pig, the dice game: roll to add to your turn total, hold to bank it; a 1 loses it.

Two players take turns. On a turn, ``roll`` throws a die: a 1 ends the turn with
nothing banked (a *bust*), any other face adds to the turn total. ``hold`` banks
the turn total and ends the turn. The first player whose banked score plus turn
total reaches the goal wins at once. A match that reaches ``max_moves`` decisions
is capped (a win for no one).

Chance is the die, drawn from the ``random.Random`` the match gives to
``new_initial_state``: the same seed, the same throws. The state also counts, per
seat, turns, busts and what holds banked, because behaviour features read the
final state only.
"""

from __future__ import annotations

import random
from typing import Any

from games.api import GameBase, StateBase, two_player_returns

ROLL, HOLD = "roll", "hold"


class PigState(StateBase):
    """A position; ``apply_action`` changes it in place (the State API of ``games.api``)."""

    def __init__(self, goal: int, max_moves: int, rng: random.Random | None = None) -> None:
        self.goal = goal
        self.max_moves = max_moves
        self.rng = rng if rng is not None else random.Random(0)
        self.scores = [0, 0]
        self.player = 0
        self.turn_total = 0
        self.moves = 0
        self.last_roll: int | None = None
        self.won_by: int | None = None
        self.turns = [0, 0]
        self.busts = [0, 0]
        self.holds = [0, 0]
        self.banked = [0, 0]

    # ---- the State API ------------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return [ROLL, HOLD] if self.turn_total else [ROLL]  # nothing to hold yet

    def apply_action(self, action) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r} (legal: {self.legal_actions()})")
        seat = self.player
        if action == HOLD:
            self.scores[seat] += self.turn_total
            self.banked[seat] += self.turn_total
            self.holds[seat] += 1
            self.last_roll = None
            self._end_turn()
        else:
            self.last_roll = 1 + int(self.rng.random() * 6)
            if self.last_roll == 1:
                self.busts[seat] += 1
                self._end_turn()
            else:
                self.turn_total += self.last_roll
                if self.scores[seat] + self.turn_total >= self.goal:
                    self.scores[seat] += self.turn_total
                    self.turn_total = 0
                    self.turns[seat] += 1
                    self.won_by = seat
        self.moves += 1

    def _end_turn(self) -> None:
        self.turns[self.player] += 1
        self.turn_total = 0
        self.player = 1 - self.player

    def is_terminal(self) -> bool:
        return self.won_by is not None or self.moves >= self.max_moves

    def winner(self) -> int | None:
        return self.won_by

    def is_capped(self) -> bool:
        return self.won_by is None and self.moves >= self.max_moves

    def returns(self) -> list[float]:
        return two_player_returns(self.won_by)

    def move_number(self) -> int:
        return self.moves

    def clone(self) -> PigState:
        other = PigState.from_dict(self.to_dict(), self.goal, self.max_moves)
        other.rng.setstate(self.rng.getstate())  # a clone throws the same dice
        return other

    def action_to_string(self, action) -> str:
        return str(action)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "player": self.player,
                "turn_total": self.turn_total, "moves": self.moves,
                "last_roll": self.last_roll, "won_by": self.won_by,
                "turns": list(self.turns), "busts": list(self.busts),
                "holds": list(self.holds), "banked": list(self.banked)}

    @classmethod
    def from_dict(cls, data: dict[str, Any], goal: int, max_moves: int,
                  rng: random.Random | None = None) -> PigState:
        state = cls(goal, max_moves, rng)
        try:
            state.scores = [int(x) for x in data["scores"]]
            state.player = int(data["player"])
            state.turn_total = int(data["turn_total"])
            state.moves = int(data["moves"])
            state.last_roll = data["last_roll"]
            state.won_by = data["won_by"]
            for key in ("turns", "busts", "holds", "banked"):
                setattr(state, key, [int(x) for x in data[key]])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a Pig state ({err})") from None
        return state

    # ---- for people ---------------------------------------------------------------------
    def describe_transition(self, before: PigState) -> list[str]:
        """What chance did since ``before`` (shown to a human player)."""
        if self.last_roll is None or self.moves == before.moves:
            return []
        lost = " and lost the turn total" if self.last_roll == 1 else ""
        return [f"rolled {self.last_roll}{lost}"]

    def __str__(self) -> str:
        text = (f"scores {self.scores[0]} - {self.scores[1]} (goal {self.goal}), "
                f"turn total {self.turn_total}")
        if self.won_by is not None:
            return f"{text}; player {self.won_by} wins"
        return f"{text}; player {self.player} to move"


class Pig(GameBase):
    """The game object: makes initial states, restores recorded ones.

    Args:
        goal: points that win.
        max_moves: decisions after which a match is capped (a draw).
    """

    name = "pig"
    num_players = 2

    def __init__(self, goal: int = 100, max_moves: int = 2000) -> None:
        if goal < 2:
            raise ValueError(f"goal must be at least 2, got {goal}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, got {max_moves}")
        self.goal = goal
        self.max_moves = max_moves

    def new_initial_state(self, rng: random.Random | None = None) -> PigState:
        return PigState(self.goal, self.max_moves, rng)

    def state_from_dict(self, data: dict[str, Any], rng: random.Random | None = None
                        ) -> PigState:
        return PigState.from_dict(data, self.goal, self.max_moves, rng)

    def action_from_json(self, value: Any) -> str:
        if value not in (ROLL, HOLD):
            raise ValueError(f"not a Pig action: {value!r}")
        return value

    def margin(self, state: PigState, seat: int) -> float:
        """How far ahead ``seat`` finished, in [-1, 1] (``synth --margin-weight``)."""
        lead = (state.scores[seat] - state.scores[1 - seat]) / self.goal
        return max(-1.0, min(1.0, lead))
