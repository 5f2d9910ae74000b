"""Tribes (seed 002): rules, level generator and players.

Player specs: ``random``, ``simple`` (rule-based), ``osla`` (one-step look-ahead),
``mcts`` and ``rhea`` at seed 002's 2,000 forward-model calls per decision, and
``mcts200`` / ``rhea200`` at 200 calls for quick runs.
"""

from functools import partial

from ..api import RandomStrategy
from .levels import NUM_LEVELS, Level, generate_level
from .players import MCTS, RHEA, Heuristic, OneStepLookAhead, SimpleAgent, features
from .rules import Board, Tribes, TribesState, board_for, combat, tech_cost

PLAYERS = {
    "random": RandomStrategy,
    "simple": SimpleAgent,
    "osla": OneStepLookAhead,
    "mcts": MCTS,
    "rhea": RHEA,
    "mcts200": partial(MCTS, budget=200),
    "rhea200": partial(RHEA, budget=200),
}
"""Built-in player specs: name -> factory taking no arguments."""

__all__ = ["MCTS", "NUM_LEVELS", "PLAYERS", "RHEA", "Board", "Heuristic", "Level",
           "OneStepLookAhead", "RandomStrategy", "SimpleAgent", "Tribes", "TribesState",
           "board_for", "combat", "features", "generate_level", "tech_cost"]
