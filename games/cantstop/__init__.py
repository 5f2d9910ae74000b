"""Can't Stop: rules, classic players and the built-in player specs."""

from ..api import RandomStrategy
from ..behaviour import DecisionRecorder
from ..human import HumanPlayer
from ..spec import EngineSpec, GameSpec, QDSpec, SynthesisSpec, register_game
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

BEHAVIOUR = DecisionRecorder(opponent="ga", matches=4, states=200, min_legal=2)
"""What a Can't Stop program does: its roll/stop and column choices in 200 states with a
real choice, from four matches against Glenn and Aloi's player."""

register_game(GameSpec(
    name="cantstop",
    summary="Can't Stop, the sketch-learning paper's dice game (GA and Rule of 28 built in)",
    factory="games.cantstop.rules:CantStop",
    players="games.cantstop:PLAYERS",
    synthesis=SynthesisSpec(
        languages={"sketch": "gp.languages.cantstop:SketchStrategy",
                   "sketch-01": "gp.languages.cantstop:AppendixConstantsSketch",
                   "sketch-reference": "gp.languages.cantstop:ReferenceSecuredSketch",
                   "sketch-paper": "gp.languages.cantstop.paper:PaperSketch"},
        default_target="ga",
        cloning={"A": "gp.cloning:action_cloning",
                 "O": "games.cantstop.cloning:observation_cloning"},
        paper_settings={"dsl": "sketch-paper", "sketch_schedule": "reference",
                        "remeasure_restarts": True, "restart_random": True},
        behaviour="games.cantstop:BEHAVIOUR",
    ),
    qd=QDSpec(features="games.cantstop.features:FEATURES"),
    engines=EngineSpec(fast={"fast": "games.cantstop.kernel:KernelEngine",
                             "numpy": "games.cantstop.fast:ArrayEngine"}),
))

__all__ = [
    "COLUMNS", "GLENN_ALOI", "HEIGHTS", "PHASE_COLUMN", "PHASE_ROLL_OR_STOP", "PLAYERS", "ROLL",
    "RULE_OF_28", "STOP", "CantStop", "CantStopState", "HeuristicParams", "HeuristicPlayer",
    "glenn_aloi_player", "rule_of_28_player",
]
