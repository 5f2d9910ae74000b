"""Replay decision traces recorded from the sketch-learning paper's reference engine under
``rules=reference``.

A trace file (``tests/fixtures/cantstop_reference_traces.jsonl``) holds one JSON
object per match, recorded from the reference code (commit
``reference_rules.REFERENCE_COMMIT``): ``seats`` (the players of reference seats 1
and 2: "random", "ga" or "rule28"), ``seed``, ``winner`` (1, 2 or null when the
300-decision cap ended it), ``decisions`` and ``steps`` in order, each one of

* ``[player, "d1d2d3d4", [[c], [a, b], ...], chosen, ga, r28]``: a column decision
  with its legal moves in the reference's order and three indexes into them (the
  move played, the GA choice, the Rule-of-28 choice);
* ``[player, "d1d2d3d4", []]``: a roll with no legal move (a bust);
* ``[player, "yn", chosen, ga, r28]``: a roll-or-stop decision ("y" or "n").

Reference players are numbered 1 and 2; ours are seats 0 and 1. ``replay`` plays
the match again on ``ReferenceCantStopState`` with the trace's dice and returns the
first disagreement (legal moves, their order, a GA or Rule-of-28 choice, a bust,
the winner), or ``None``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .players import glenn_aloi_player, rule_of_28_player
from .reference_rules import ReferenceCantStopState
from .rules import PHASE_COLUMN, ROLL_INDEX, ROLLS, CantStopState, _action


class TraceDice:
    """A stand-in for ``random.Random`` that makes the engine roll the trace's dice in order."""

    def __init__(self, rolls: list[tuple[int, ...]]) -> None:
        self._rolls = rolls
        self._next = 0

    def random(self) -> float:
        """The next trace roll; past the end (the roll for a decision the move cap
        prevents), the outcomes in table order, so that a bust cannot repeat forever."""
        index = self._next
        self._next += 1
        if index < len(self._rolls):
            return (ROLL_INDEX[self._rolls[index]] + 0.5) / len(ROLLS)
        return ((index - len(self._rolls)) % len(ROLLS) + 0.5) / len(ROLLS)

    def getstate(self):  # clone() copies the rng state
        return (tuple(self._rolls), self._next)

    def setstate(self, state) -> None:
        self._rolls, self._next = list(state[0]), state[1]


def read_traces(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            try:
                yield json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{number}: not a JSON trace line ({err.msg})") from None


def _dice(text: str) -> tuple[int, ...]:
    return tuple(int(ch) for ch in text)


def replay(trace: dict[str, Any], max_moves: int = 300,
           state_class: type[CantStopState] = ReferenceCantStopState) -> str | None:
    """Play ``trace`` again under the reference rules (or ``state_class``'s); the first
    disagreement, or ``None``."""
    steps = trace["steps"]
    rolls = [_dice(step[1]) for step in steps if step[1] != "yn"]
    state = state_class(TraceDice(rolls), max_moves=max_moves)  # type: ignore[arg-type]
    ga, r28 = glenn_aloi_player(), rule_of_28_player()
    busts_expected = 0
    for index, step in enumerate(steps):
        where = f"seed {trace['seed']} step {index}"
        player = step[0] - 1
        if step[1] != "yn" and not step[2]:
            busts_expected += 1
            continue
        if sum(state.busts) != busts_expected:
            return f"{where}: {sum(state.busts)} busts so far, the reference had {busts_expected}"
        if state.player != player:
            return f"{where}: seat {state.player} to act, the reference had seat {player}"
        if step[1] == "yn":
            if state.phase == PHASE_COLUMN:
                return f"{where}: a column move is due, the reference asks roll-or-stop"
            _, _, chosen, ga_choice, r28_choice = step
            if ga(state) != ga_choice or r28(state) != r28_choice:
                return (f"{where}: GA/R28 choose {ga(state)}/{r28(state)}, the reference "
                        f"{ga_choice}/{r28_choice}")
            state.apply_action(chosen)
            continue
        _, dice, legal, chosen, ga_index, r28_index = step
        legal = [_action(tuple(m)) for m in legal]
        if state.phase != PHASE_COLUMN or state.dice != _dice(dice):
            return f"{where}: dice {state.dice} ({state.phase}), the reference rolled {dice}"
        if state.legal != legal:
            return f"{where}: legal moves {state.legal}, the reference {legal}"
        if ga(state) != legal[ga_index] or r28(state) != legal[r28_index]:
            return (f"{where}: GA/R28 choose {ga(state)}/{r28(state)}, the reference "
                    f"{legal[ga_index]}/{legal[r28_index]} (legal {legal})")
        state.apply_action(legal[chosen])
    winner = None if trace["winner"] is None else trace["winner"] - 1
    if not state.is_terminal() or state.winner() != winner or state.moves != trace["decisions"]:
        return (f"seed {trace['seed']} end: winner {state.winner()} after {state.moves} decisions "
                f"(terminal {state.is_terminal()}), the reference {winner} after "
                f"{trace['decisions']}")
    return None


__all__ = ["TraceDice", "read_traces", "replay"]
