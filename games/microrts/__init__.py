"""microRTS through the real Java engine (JPype): maps, built-in bots, matches.

Importing this package starts no JVM; the first match (in whichever process
plays it) does.
"""

from functools import partial

from .engine import BOTS, CYCLE_CAP, MAPS, EngineError, map_path, start_jvm
from .game import MicroRTS
from .match import BotSpec, play_microrts_match, play_microrts_matches

PLAYERS = {name: partial(BotSpec, name) for name in BOTS}

__all__ = ["BOTS", "CYCLE_CAP", "MAPS", "PLAYERS", "BotSpec", "EngineError", "MicroRTS",
           "map_path", "play_microrts_match", "play_microrts_matches", "start_jvm"]
