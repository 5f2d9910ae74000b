"""Fitness functions for synthesized programs.

Ψ (``WinRate``) is the win rate of a program against a target strategy over n
matches with alternating seats (seed 000: 1000 matches against GA). Each
evaluation's seed is derived from the run seed and the program text, never from
the worker, so results do not depend on the backend; values are cached by
program text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from games.match import play_matches


def program_seed(run_seed: int, text: str) -> int:
    """A 63-bit seed from the run seed and the program text (stable across processes)."""
    digest = hashlib.sha256(f"{run_seed}\n{text}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


class WinRate:
    """Ψ: wins of the program (seat-alternating) over ``matches`` against ``target``."""

    name = "psi"

    def __init__(self, game, target, strategy_class, matches: int = 1000, seed: int = 0,
                 map: Callable | None = None) -> None:
        if matches < 1:
            raise ValueError(f"matches must be >= 1, got {matches}")
        self.game = game
        self.target = target
        self.strategy_class = strategy_class
        self.matches = matches
        self.seed = seed
        self.map = map
        self.cache: dict[str, float] = {}
        self.evaluations = 0

    def __call__(self, program: Any) -> float:
        player = self.strategy_class(program)
        text = player.text
        if text in self.cache:
            return self.cache[text]
        summary = play_matches(self.game, (player, self.target), self.matches,
                               program_seed(self.seed, text), map=self.map)
        value = summary.wins[0] / summary.matches
        self.cache[text] = value
        self.evaluations += 1
        return value
