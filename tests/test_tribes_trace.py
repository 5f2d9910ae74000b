"""Tribes players give the same actions for a seed as the recorded trace.

The trace (``tests/fixtures/tribes_actions.json``) holds every action of short games
between the search players from mid-game states; a speed-up of the forward model,
the heuristic or the search must leave it unchanged. Rewrite it only for a change
that is meant to alter play: ``python -m tests.test_tribes_trace --record``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from games.tribes import PLAYERS, Tribes
from games.tribes.qd import player

TRACE = Path(__file__).parent / "fixtures" / "tribes_actions.json"
GAMES = (  # level, opening rounds of simple play, rounds searched, the two players
    (2, 10, 2, "pmcts-pu:400", "mcts:400"),
    (5, 14, 1, "rhea:400", "pmcts-b:400"),
    (7, 6, 2, "osla", "pmcts:300"),
)


def trace(level: int, opening: int, rounds: int, p0: str, p1: str) -> list[list]:
    """Actions of the searched rounds after ``opening`` rounds of ``simple`` play."""
    state = Tribes(level=level).new_initial_state(random.Random(level))
    openers = [PLAYERS["simple"](), PLAYERS["simple"]()]
    for seat, agent in enumerate(openers):
        agent.reset(level * 2 + seat)
    while not state.is_terminal() and state.turn < opening:
        state.apply_action(openers[state.current_player()](state))
    searchers = [player(p0), player(p1)]
    for seat, agent in enumerate(searchers):
        agent.reset(1000 + seat)
    actions = []
    while not state.is_terminal() and state.turn < opening + rounds:
        action = searchers[state.current_player()](state)
        actions.append(list(action))
        state.apply_action(action)
    return actions


def record() -> None:
    TRACE.write_text(json.dumps({f"{g[0]}:{g[3]}:{g[4]}": trace(*g) for g in GAMES}) + "\n")


def test_search_players_play_the_recorded_actions():
    expected = json.loads(TRACE.read_text())
    for game in GAMES:
        assert trace(*game) == expected[f"{game[0]}:{game[3]}:{game[4]}"], game


if __name__ == "__main__":
    if "--record" in sys.argv:
        record()
