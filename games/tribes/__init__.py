"""Tribes (seed 002): rules, level generator and players."""

from ..api import RandomStrategy
from .levels import NUM_LEVELS, Level, generate_level
from .rules import Board, Tribes, TribesState, board_for, combat, tech_cost

PLAYERS = {
    "random": RandomStrategy,
}

__all__ = ["NUM_LEVELS", "PLAYERS", "Board", "Level", "RandomStrategy", "Tribes", "TribesState",
           "board_for", "combat", "generate_level", "tech_cost"]
