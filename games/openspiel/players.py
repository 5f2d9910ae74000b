"""Built-in players of OpenSpiel games: ``random``, ``mcts:N``, ``alphabeta:D``.

``mcts:N`` is OpenSpiel's MCTS bot (its C++ ``MCTSBot``) with ``N`` simulations
per move and random-rollout leaf values, seeded by the match (``reset``), so the
same seed plays the same match. ``alphabeta:D`` is OpenSpiel's alpha-beta search
(expectiminimax where the game has chance) to depth ``D``: terminal states count
their returns, any other leaf counts 0, ties go to the first best action; it
needs a perfect-information game. Players build their OpenSpiel objects on first
use from the state they are shown and pickle as their settings.
"""

from __future__ import annotations

from functools import partial

import pyspiel

from ..api import RandomStrategy, StrategyBase
from ..human import HumanPlayer


def _whole(text: str, what: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{what}:{text}: expected a whole number in {low}..{high}")
    return int(text)


class MCTSPlayer(StrategyBase):
    """OpenSpiel's MCTS with random rollouts.

    Args:
        simulations: simulations per move.
        rollouts: random rollouts per leaf evaluation.
        uct_c: UCT's exploration constant.
    """

    def __init__(self, simulations: int = 100, *, rollouts: int = 1, uct_c: float = 2.0,
                 seed: int = 0) -> None:
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self.name = f"mcts:{simulations}"
        self._seed = seed
        self._bot = None
        self._game = None

    def reset(self, seed: int) -> None:
        self._seed = seed
        self._bot = None

    def _bot_for(self, game):
        if self._bot is None or self._game is not game:
            seed = self._seed % (2**31 - 1)
            evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
            self._bot = pyspiel.MCTSBot(game, evaluator, self.uct_c, self.simulations,
                                        1000, True, seed, False)
            self._game = game
        return self._bot

    def __call__(self, state) -> int:
        inner = state.inner
        return self._bot_for(state.game.pyspiel_game).step(inner)

    def __getstate__(self):
        return {"simulations": self.simulations, "rollouts": self.rollouts,
                "uct_c": self.uct_c, "seed": self._seed}

    def __setstate__(self, data):
        self.__init__(data["simulations"], rollouts=data["rollouts"], uct_c=data["uct_c"],
                      seed=data["seed"])

    def __repr__(self) -> str:
        return f"MCTSPlayer({self.simulations})"


class AlphaBetaPlayer(StrategyBase):
    """OpenSpiel's depth-limited alpha-beta (expectiminimax with chance)."""

    def __init__(self, depth: int = 4) -> None:
        self.depth = depth
        self.name = f"alphabeta:{depth}"

    def __call__(self, state) -> int:
        from open_spiel.python.algorithms import minimax

        game = state.game
        if not game.perfect_information:
            raise ValueError(f"alphabeta: {game.name} is not a perfect-information game")
        seat = state.current_player()
        if game.has_chance or game.type.utility != pyspiel.GameType.Utility.ZERO_SUM:
            _, action = minimax.expectiminimax(state.inner, self.depth, _leaf_value, seat)
        else:
            _, action = minimax.alpha_beta_search(game.pyspiel_game, state.inner.clone(),
                                                  _leaf_value, self.depth, seat)
        return action

    def __repr__(self) -> str:
        return f"AlphaBetaPlayer({self.depth})"


def _leaf_value(state) -> float:
    """Non-terminal leaves of the built-in alpha-beta count 0 (a draw)."""
    return 0.0


def mcts(argument: str) -> MCTSPlayer:
    """``mcts:N``: MCTS with N simulations per move."""
    return MCTSPlayer(_whole(argument, "mcts", 1, 10**7))


def alphabeta(argument: str) -> AlphaBetaPlayer:
    """``alphabeta:D``: alpha-beta to depth D."""
    return AlphaBetaPlayer(_whole(argument, "alphabeta", 1, 30))


IMPERFECT_INFORMATION_PLAYERS = {
    "random": RandomStrategy,
    "human": HumanPlayer,
    "mcts": partial(MCTSPlayer, 100),
    "mcts1000": partial(MCTSPlayer, 1000),
}
"""Bare names; ``mcts:N`` gives any budget."""
PLAYERS = {**IMPERFECT_INFORMATION_PLAYERS, "alphabeta": partial(AlphaBetaPlayer, 2)}
"""The players of perfect-information games: ``alphabeta:D`` gives any depth."""
