"""stratsynth games as PettingZoo AEC environments (``pip install 'stratsynth[pettingzoo]'``).

``env("cantstop")`` is an ``AECEnv`` with two agents, ``player_0`` and ``player_1``
(seats 0 and 1). Each observes ``{"observation": array, "action_mask": int8 array}``
(``games.pettingzoo.encodings``); the action is an index into the game's action
catalogue, and a masked (illegal) one raises ``ValueError``. At the end the winner
gets +1 and the loser −1 (a draw 0 each); a match stopped by the game's move cap
is truncated. All chance comes from ``reset(seed=...)``: one seed, one match.

A stratsynth player (a built-in one or a program) is a fixed policy inside the
environment: ``policy = StratsynthPolicy(env, make_player("cantstop", "program:best.txt"))``
then ``action = policy(observation, agent)`` in the usual AEC loop.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from games import load_game

from .encodings import ENCODINGS

AGENTS = ("player_0", "player_1")


class StratsynthAEC(AECEnv):
    """A stratsynth game as an AEC environment.

    Args:
        game: the name of a game with an encoding (``ENCODINGS``).
        render_mode: None or ``"ansi"`` (``render()`` returns the state's text).
        params: game parameters (``max_moves=100``).
    """

    def __init__(self, game: str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        if game not in ENCODINGS:
            raise ValueError(f"no PettingZoo environment for '{game}' "
                             f"(known: {', '.join(ENCODINGS)})")
        self.game = load_game(game, **params)
        self.encoding = ENCODINGS[game](self.game)
        self.metadata = {"name": f"stratsynth_{game}_v0", "render_modes": ["ansi"],
                         "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n = self.encoding.size
        observation = spaces.Box(low=self.encoding.low, high=self.encoding.high,
                                 shape=self.encoding.shape, dtype=self.encoding.dtype)
        self._observation_spaces = {a: spaces.Dict({
            "observation": observation,
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)})
            for a in AGENTS}
        self._action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.state = None

    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.state = self.game.new_initial_state(random.Random(seed))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        mask = np.zeros(self.encoding.size, dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[list(self.encoding.legal(self.state))] = 1
        return {"observation": self.encoding.observe(self.state, seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not 0 <= int(action) < self.encoding.size:
            raise ValueError(f"{agent}: action {action} outside 0..{self.encoding.size - 1}")
        chosen = self.encoding.legal(self.state).get(int(action))
        if chosen is None:
            raise ValueError(f"{agent}: action {action} is masked (illegal)")
        self._cumulative_rewards[agent] = 0
        self.state.apply_action(chosen)
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.state.is_terminal():
            done = dict.fromkeys(self.agents, True)
            if self.state.is_capped():
                self.truncations = done
            else:
                self.terminations = done
                winner = self.state.winner()
                if winner is not None:
                    self.rewards[AGENTS[winner]] = 1
                    self.rewards[AGENTS[1 - winner]] = -1
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        return None if self.render_mode is None else str(self.state)

    def close(self) -> None:
        pass


def env(game: str, **kwargs: Any) -> AECEnv:
    """The environment of ``game`` with PettingZoo's order checks."""
    return wrappers.OrderEnforcingWrapper(StratsynthAEC(game, **kwargs))


class StratsynthPolicy:
    """A stratsynth player (built-in or program) as a policy inside an environment:
    ``policy(observation, agent)`` answers the index of the action the player chooses
    in the environment's current state.

    Args:
        environment: the environment (wrapped or not) the policy plays in.
        player: a stratsynth player (``experiments.players.make_player``).
        seed: reseeds a randomised player (``reset``) before its first move.
    """

    def __init__(self, environment: AECEnv, player: Any, seed: int = 0) -> None:
        from games.api import reset_player

        self.env = environment.unwrapped
        self.player = player
        reset_player(player, seed)

    def __call__(self, observation: Any, agent: str) -> int:
        state = self.env.state
        if AGENTS[state.current_player()] != agent:
            raise ValueError(f"{agent} is not the agent to act")
        return self.env.encoding.encode(state, self.player(state))
