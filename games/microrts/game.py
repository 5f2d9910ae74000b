"""microRTS as a game object for the generic tools (fitness, self-play, tournaments).

It has no OpenSpiel-like states: the Java engine plays whole matches, so the
object carries the map and caps and plays batches itself (``play_matches``, which
``games.match.play_matches`` hands over to). Features are the per-player counts
of every match (``games.microrts.features``); draws and capped matches count ½.
"""

from __future__ import annotations

from ..match import MatchSummary
from .engine import DEFAULT_UNIT_TYPE_TABLE, check_unit_type_table, map_path
from .match import play_microrts_matches


class MicroRTS:
    name = "microrts"
    draw_value = 0.5

    def __init__(self, map: str = "16x16", max_cycles: int | None = None,
                 max_seconds: float = 600.0, utt: str = DEFAULT_UNIT_TYPE_TABLE) -> None:
        map_path(map)  # unknown maps and unit type tables fail here
        self.utt = check_unit_type_table(utt)
        self.map_name = map
        self.max_cycles = max_cycles
        self.max_seconds = max_seconds

    def play_matches(self, players, n: int, seed: int, map=None,
                     behavior: dict | None = None) -> MatchSummary:
        """``n`` matches with seats alternating; behaviour features are always counted."""
        return play_microrts_matches(self.map_name, players, n, map=map,
                                     max_cycles=self.max_cycles, max_seconds=self.max_seconds,
                                     stats=True, seed=seed, utt_name=self.utt)
