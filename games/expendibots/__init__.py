"""Expendibots (Hitchcock and Randell): rules, features and alpha-beta players."""

from functools import partial

from ..api import RandomStrategy
from ..behaviour import DecisionRecorder
from ..human import HumanPlayer
from ..spec import CLISpec, GameSpec, SynthesisSpec, register_game
from .players import AlphaBeta, AlphaBetaPlayer, features, hand_weights_player, linear_evaluation
from .rules import Expendibots, ExpendibotsState, boom, generate_moves, initial_board
from .timed_agent import TimedAlphaBetaPlayer, timed_alphabeta_player

PLAYERS = {
    "random": RandomStrategy,
    "human": HumanPlayer,
    "alphabeta": hand_weights_player,
    "alphabeta2": partial(hand_weights_player, depth=2),
    "alphabeta1": partial(hand_weights_player, depth=1),
    "timed-alphabeta": timed_alphabeta_player,
    "timed-alphabeta-nobook": partial(timed_alphabeta_player, book=False),
    "timed-alphabeta-depth2": partial(timed_alphabeta_player, depth=2),
}

PLAYER_ALIASES = {"seed003": "timed-alphabeta", "seed003-nobook": "timed-alphabeta-nobook",
                  "seed003-depth2": "timed-alphabeta-depth2"}
"""Former names of the timed alpha-beta players, which committed runs and results use."""

BEHAVIOUR = DecisionRecorder(opponent="alphabeta1", matches=2, states=100)
"""What a semantic search compares programs on: the moves their alpha-beta (depth 1 in
synthesis) chooses in 100 positions of two matches against depth-1 alpha-beta; a
program's move costs a depth-1 search, so fewer positions than Can't Stop's 200."""

register_game(GameSpec(
    name="expendibots",
    summary=("Expendibots (Hitchcock and Randell): 8×8 stacks that move and explode; "
             "alpha-beta built in"),
    factory="games.expendibots.rules:Expendibots",
    players="games.expendibots:PLAYERS",
    synthesis=SynthesisSpec(
        languages={"evaluation": "gp.languages.expendibots:EvaluationProgramPlayer"},
        default_target="alphabeta",
        cloning={"A": "gp.cloning:action_cloning"},
        behaviour="games.expendibots:BEHAVIOUR",
    ),
    cli=CLISpec(commands={"tdleaf": "experiments.tdleaf_cli:add_parser"},
                player_aliases=PLAYER_ALIASES,
                player_prefixes={"weights": "games.expendibots.tdleaf:load_weights_player"},
                move_cap="turn_limit"),
))

__all__ = ["PLAYERS", "AlphaBeta", "AlphaBetaPlayer", "Expendibots", "ExpendibotsState",
           "TimedAlphaBetaPlayer", "boom", "features", "generate_moves", "hand_weights_player",
           "initial_board", "linear_evaluation", "timed_alphabeta_player"]
