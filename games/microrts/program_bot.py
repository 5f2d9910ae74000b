"""The Java-facing side of a microRTS program player: the AI object the engine calls.

The language (``gp.languages.microrts``) compiles a program to a closure over the
interpreter's ``Cycle``; this module is the glue that reads the game state from
the JVM, runs that closure and hands the orders back, so the language layer
holds no JVM code.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from . import interpreter as rt


class ProgramBot:
    """The per-match Python AI the engine loop calls: ``getAction(player, gs)``.

    The program runs only on cycles where some own unit is free to act (the engine
    ignores orders for busy units, and the program is rerun from scratch each
    time, so other cycles cannot change what happens); each run reads all units
    in one JVM call and hands all orders over in one more.
    """

    def __init__(self, program: Callable, utt, seed: int = 0,
                 interpreter: str = "ours") -> None:
        import jpype

        from games.microrts.engine import EngineError

        try:
            self.java = jpype.JClass("stratsynth.ProgramAI")
        except Exception:
            raise EngineError("the microRTS DSL bridge (stratsynth.ProgramAI) is not on the "
                              "class path: a JDK with javac is needed to compile it") from None
        self.program = program
        self.ai = self.java(utt)
        self.kinds = rt.unit_kinds(utt)
        self.kinds_by_name = {k.name: k for k in self.kinds.values()}
        self.rng = random.Random(seed)
        self.walls = None
        self._gs = None
        self.int_array = jpype.JArray(jpype.JInt)
        self.nothing = jpype.JClass("rts.PlayerAction")()  # never changed by the engine
        self.runs = 0
        self.reference = interpreter == "reference"  # rt.INTERPRETERS
        if self.reference:
            self.ai.useInterpreter(interpreter)  # the reference's Train (ProgramAI.TrainToward)

    def getAction(self, player: int, gs):  # noqa: N802  (the engine's AI interface)
        if not gs.canExecuteAnyAction(player):
            return self.nothing
        self.read_walls(gs)
        orders = self.decide(player, np.asarray(self.java.units(gs)).tolist())
        return self.ai.step(gs, player, orders)

    def read_walls(self, gs) -> None:
        """The map's size and walls, read once per match; ``gs`` is kept for
        ``interpreter=reference`` (the engine's free cells)."""
        self._gs = gs
        if self.walls is None:
            pgs = gs.getPhysicalGameState()
            self.width, self.height = int(pgs.getWidth()), int(pgs.getHeight())
            self.walls = np.asarray(self.java.walls(gs)).tolist()

    def decide(self, player: int, rows: list[int]):
        """Run the program on a unit snapshot (``ProgramAI.units`` layout); the orders as
        a Java int array for ``ProgramAI.step``."""
        cycle = rt.Cycle(player, rows[2:], self.kinds, self.width, self.height, self.walls,
                         rows[player], self.rng)
        cycle.kinds_by_name = self.kinds_by_name
        if self.reference:
            cycle.reference = True
            cycle.busy_cells = set(np.asarray(self.java.busyCells(self._gs)).tolist())
        self.program(cycle, None)
        self.runs += 1
        return self.int_array(cycle.orders)


def java_program_ai(node_names: list[str], utt, interpreter: str = "ours"):
    """A ``stratsynth.ProgramAI`` that runs the program in Java (``ProgramInterpreter``:
    the same orders as ``ProgramBot``, no Python call per cycle); ``node_names`` is the
    program tree's prefix list of node names; ``interpreter``: see ``rt.INTERPRETERS``."""
    import jpype

    from games.microrts.engine import EngineError

    try:
        program_ai = jpype.JClass("stratsynth.ProgramAI")
    except Exception:
        raise EngineError("the microRTS DSL bridge (stratsynth.ProgramAI) is not on the "
                          "class path: a JDK with javac is needed to compile it") from None
    ai = program_ai(utt, jpype.JArray(jpype.JString)(node_names))
    if interpreter != "ours":
        ai.useInterpreter(interpreter)
    return ai

