"""What a program does, as a game declares it: its actions on a recorded set of states.

Two programs that choose the same action in every recorded state behave alike there,
however different their text; a semantic search uses this to skip neighbours that
only look new. A game declares how its states are recorded and how actions compare
with ``SynthesisSpec.behaviour``, a reference to an object with:

* ``record(game, player, opponent, rng) -> list[State]``: the states to compare
  programs on, recorded from matches of ``player`` against ``opponent``;
* ``opponent`` (a built-in player spec of the game) and ``key(action)`` (a hashable
  form of an action: two actions are the same when their keys are equal);
* optionally ``signature(player, states) -> tuple``, for a game whose states are not
  Python states a player can be called on (an engine that holds them elsewhere);
  without it the signature is ``actions_on(player, states, key)``.

``DecisionRecorder`` does this for any game with the state API (``games.api``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from .match import play_match


@dataclass(frozen=True, kw_only=True)
class DecisionRecorder:
    """Record the decisions of a few matches, then compare actions by equality.

    Args:
        opponent: the built-in player spec the program plays while states are recorded.
        matches: matches played per recording (seats alternate).
        states: at most this many states are kept (the first ones, match by match).
        min_legal: only states where the player to act has at least this many legal
            actions are kept (a forced move says nothing about a program).
    """

    opponent: str = "random"
    matches: int = 4
    states: int = 200
    min_legal: int = 2

    def record(self, game, player, opponent, rng: random.Random) -> list[Any]:
        """States in which either seat decides, from ``matches`` matches of ``player``
        against ``opponent`` (seeded from ``rng``); restored from the match records, so
        each is an independent copy."""
        seed = rng.getrandbits(63)
        kept: list[Any] = []
        for index in range(self.matches):
            seats = (player, opponent) if index % 2 == 0 else (opponent, player)
            result = play_match(game, seats, seed, index, record=True)
            for _, snapshot, _ in result.pairs or ():
                state = game.state_from_dict(snapshot, random.Random(0))
                if len(state.legal_actions()) >= self.min_legal:
                    kept.append(state)
                    if len(kept) >= self.states:
                        return kept
        return kept

    def key(self, action: Any) -> Hashable:
        return action


def actions_on(player, states: Sequence[Any], key=lambda action: action) -> tuple:
    """The signature of ``player``: its action's key in each state (a copy of it, so a
    player that changes the state changes nothing), or None where it fails."""
    signature = []
    for state in states:
        try:
            signature.append(key(player(state.clone())))
        except Exception:  # a broken program fails here as in a match: its own behaviour
            signature.append(None)
    return tuple(signature)
