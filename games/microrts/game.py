"""microRTS as a game object for the generic tools (fitness, self-play, tournaments).

It has no OpenSpiel-like states: the Java engine plays whole matches, so the
object carries the map and caps that its engine (``games.microrts.match.JVMEngine``,
declared in its ``EngineSpec``) plays them with. Features are the per-player counts
of every match (``games.microrts.features``); draws and capped matches count ½.
"""

from __future__ import annotations

from ..api import GameBase
from .engine import DEFAULT_UNIT_TYPE_TABLE, check_unit_type_table, map_path
from .interpreter import INTERPRETERS


class MicroRTS(GameBase):
    name = "microrts"
    draw_value = 0.5

    def __init__(self, map: str = "16x16", max_cycles: int | None = None,
                 max_seconds: float = 600.0, utt: str = DEFAULT_UNIT_TYPE_TABLE,
                 interpreter: str = "ours") -> None:
        map_path(map)  # unknown maps and unit type tables fail here
        if interpreter not in INTERPRETERS:
            raise ValueError(f"interpreter must be one of {', '.join(INTERPRETERS)}, "
                             f"got '{interpreter}'")
        self.interpreter = interpreter
        self.utt = check_unit_type_table(utt)
        self.map_name = map
        self.max_cycles = max_cycles
        self.max_seconds = max_seconds
