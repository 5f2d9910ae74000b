"""Our games as PettingZoo AEC environments (games/pettingzoo): PettingZoo's own API and
seed tests, action masks against the rules, and a stratsynth player as a fixed policy."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from experiments.players import make_player  # noqa: E402
from games.pettingzoo import ENCODINGS, StratsynthPolicy, env  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(ENCODINGS)
PARAMS = {"expendibots": {"turn_limit": 30}}


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed(game):
    params = PARAMS.get(game, {})
    api_test(env(game, **params), num_cycles=100)
    seed_test(partial(env, game, **params), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_mask_is_the_legal_actions(game):
    environment = env(game, **PARAMS.get(game, {}))
    environment.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in environment.agent_iter(max_iter=60):
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        raw = environment.unwrapped
        mask = observation["action_mask"]
        legal = raw.state.legal_actions()
        assert sorted(raw.encoding.actions[i] for i in np.flatnonzero(mask)) == sorted(legal)
        other = [a for a in raw.possible_agents if a != agent][0]
        assert not raw.observe(other)["action_mask"].any()
        illegal = np.flatnonzero(mask == 0)
        if len(illegal):
            with pytest.raises(ValueError, match="masked"):
                raw.step(int(illegal[0]))
        environment.step(int(rng.choice(np.flatnonzero(mask))))


def test_a_stratsynth_player_is_a_fixed_opponent():
    environment = env("tictactoe")
    minimax = StratsynthPolicy(environment, make_player("tictactoe", "minimax"))
    rng = np.random.default_rng(1)
    returns = {"player_0": 0, "player_1": 0}
    for episode in range(10):
        environment.reset(seed=episode)
        for agent in environment.agent_iter():
            observation, reward, termination, truncation, _ = environment.last()
            returns[agent] += reward
            if termination or truncation:
                environment.step(None)
            elif agent == "player_1":
                environment.step(minimax(observation, agent))
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert returns["player_1"] >= 5 and returns["player_0"] <= -5  # minimax never loses


def test_unknown_game_is_refused():
    with pytest.raises(ValueError, match="no PettingZoo environment"):
        env("microrts")


def test_a_program_is_a_fixed_opponent_in_cant_stop():
    environment = env("cantstop")
    spec = f"program:{ROOT / 'experiments' / 'programs' / 'cantstop_ga.txt'}"
    program = StratsynthPolicy(environment, make_player("cantstop", spec))
    rng = np.random.default_rng(2)
    environment.reset(seed=7)
    moves = 0
    for agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        if agent == "player_0":
            action = program(observation, agent)
            assert observation["action_mask"][action] == 1
            moves += 1
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert moves > 0
    assert environment.unwrapped.state.is_terminal()
