"""Expendibots (seed 003): rules, features and alpha-beta players."""

from ..api import RandomStrategy
from ..human import HumanPlayer
from .players import AlphaBeta, AlphaBetaPlayer, features, hand_weights_player, linear_evaluation
from .rules import Expendibots, ExpendibotsState, boom, generate_moves, initial_board
from .seed003 import Seed003Player, seed003_player

PLAYERS = {
    "random": RandomStrategy,
    "human": HumanPlayer,
    "alphabeta": hand_weights_player,
    "alphabeta2": lambda: hand_weights_player(depth=2),
    "alphabeta1": lambda: hand_weights_player(depth=1),
    "seed003": seed003_player,
    "seed003-nobook": lambda: seed003_player(book=False),
    "seed003-depth2": lambda: seed003_player(depth=2),
}

__all__ = ["PLAYERS", "AlphaBeta", "AlphaBetaPlayer", "Expendibots", "ExpendibotsState",
           "Seed003Player", "boom", "features", "generate_moves", "hand_weights_player",
           "initial_board", "linear_evaluation", "seed003_player"]
