"""microRTS through the real Java engine (JPype): maps, built-in bots, matches."""

from .engine import BOTS, CYCLE_CAP, MAPS, EngineError, map_path, start_jvm
from .match import BotSpec, play_microrts_match, play_microrts_matches

__all__ = ["BOTS", "CYCLE_CAP", "MAPS", "BotSpec", "EngineError", "map_path",
           "play_microrts_match", "play_microrts_matches", "start_jvm"]
