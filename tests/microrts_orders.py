"""Two ways of giving a microRTS program's orders, compared on every state of a match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Decider = Callable[[int, Any, list], list]
"""(player, game state, unit rows) -> the orders."""


def python_orders(bot, player: int, gs, rows: list) -> list:
    """Orders of a program bot on the Python interpreter."""
    bot.read_walls(gs)
    return list(bot.decide(player, rows))


def java_orders(interpreter, player: int, gs, rows: list) -> list:
    """Orders of the Java ``stratsynth.ProgramInterpreter``."""
    return list(interpreter.run(gs, player))


class SameOrders:
    """Plays a committed program (Python interpreter) and, on every state where it
    acts, asks each pair of deciders ``make_pairs(utt)`` builds for their orders."""

    def __init__(self, text: str,
                 make_pairs: Callable[[Any], list[tuple[str, Decider, Decider]]]) -> None:
        self.text = text
        self.make_pairs = make_pairs
        self.states = 0
        self.nonempty = 0
        self.mismatches: list[str] = []

    def build(self, utt):
        from gp.languages.microrts import MicroRTSProgramPlayer

        self.bot = MicroRTSProgramPlayer(self.text, evaluator="python").build(utt)
        self.pairs = self.make_pairs(utt)
        return self

    def getAction(self, player, gs):  # noqa: N802  (the engine's AI interface)
        import numpy as np

        if gs.canExecuteAnyAction(player):
            self.states += 1
            rows = np.asarray(self.bot.java.units(gs)).tolist()
            for label, first, second in self.pairs:
                want = first(player, gs, rows)
                have = second(player, gs, rows)
                self.nonempty += bool(want)
                if want != have:
                    self.mismatches.append(f"{label}: {want} against {have}")
        return self.bot.getAction(player, gs)
