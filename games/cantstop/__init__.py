"""Can't Stop: rules, classic players and the built-in player specs."""

from ..api import RandomStrategy
from ..human import HumanPlayer
from .players import (
                      GLENN_ALOI,
                      RULE_OF_28,
                      HeuristicParams,
                      HeuristicPlayer,
                      glenn_aloi_player,
                      rule_of_28_player,
)
from .rules import (
                      COLUMNS,
                      HEIGHTS,
                      PHASE_COLUMN,
                      PHASE_ROLL_OR_STOP,
                      ROLL,
                      STOP,
                      CantStop,
                      CantStopState,
)

PLAYERS = {
    "random": RandomStrategy,
    "ga": glenn_aloi_player,
    "rule28": rule_of_28_player,
    "human": HumanPlayer,
}
"""Built-in player specs: name -> factory taking no arguments."""

__all__ = [
    "COLUMNS", "GLENN_ALOI", "HEIGHTS", "PHASE_COLUMN", "PHASE_ROLL_OR_STOP", "PLAYERS", "ROLL",
    "RULE_OF_28", "STOP", "CantStop", "CantStopState", "HeuristicParams", "HeuristicPlayer",
    "glenn_aloi_player", "rule_of_28_player",
]
