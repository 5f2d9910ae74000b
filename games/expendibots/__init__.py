"""Expendibots (seed 003): rules, features and alpha-beta players."""

from functools import partial

from ..api import RandomStrategy
from ..human import HumanPlayer
from ..spec import CLISpec, GameSpec, SynthesisSpec, register_game
from .players import AlphaBeta, AlphaBetaPlayer, features, hand_weights_player, linear_evaluation
from .rules import Expendibots, ExpendibotsState, boom, generate_moves, initial_board
from .seed003 import Seed003Player, seed003_player

PLAYERS = {
    "random": RandomStrategy,
    "human": HumanPlayer,
    "alphabeta": hand_weights_player,
    "alphabeta2": partial(hand_weights_player, depth=2),
    "alphabeta1": partial(hand_weights_player, depth=1),
    "seed003": seed003_player,
    "seed003-nobook": partial(seed003_player, book=False),
    "seed003-depth2": partial(seed003_player, depth=2),
}

register_game(GameSpec(
    name="expendibots",
    summary="Expendibots (seed 003): 8×8 stacks that move and explode; alpha-beta built in",
    factory="games.expendibots.rules:Expendibots",
    players="games.expendibots:PLAYERS",
    synthesis=SynthesisSpec(
        languages={"evaluation": "gp.languages.expendibots:EvaluationProgramPlayer"},
        default_target="alphabeta",
        cloning={"A": "gp.cloning:action_cloning"},
    ),
    cli=CLISpec(commands={"tdleaf": "experiments.tdleaf_cli:add_parser"},
                player_prefixes={"weights": "games.expendibots.tdleaf:load_weights_player"},
                move_cap="turn_limit"),
))

__all__ = ["PLAYERS", "AlphaBeta", "AlphaBetaPlayer", "Expendibots", "ExpendibotsState",
           "Seed003Player", "boom", "features", "generate_moves", "hand_weights_player",
           "initial_board", "linear_evaluation", "seed003_player"]
