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
PARAMS = {"expendibots": {"turn_limit": 30}, "tribes": {"turn_limit": 8}}


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
        numbered = raw.encoding.legal(raw.state)
        assert sorted(np.flatnonzero(mask)) == sorted(numbered)
        assert sorted(numbered.values()) == sorted(legal)  # one number per legal action
        if raw.encoding.actions:  # a catalogue: a number is the same action in any state
            assert all(raw.encoding.actions[i] == a for i, a in numbered.items())
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


def test_tribes_numbers_say_where_an_action_happens():
    from games.tribes.constants import ACTION_NAMES, ATTACK, BUILD, CONVERT, MOVE, SPAWN

    environment = env("tribes", turn_limit=6)
    environment.reset(seed=11)
    raw = environment.unwrapped
    encoding = raw.encoding
    assert encoding.size == 40 + 121 * (20 + 25 + 7) + 3 * 121 * 121
    rng = np.random.default_rng(4)
    kinds = set()
    for agent in environment.agent_iter(max_iter=400):
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        state = raw.state
        for number, action in encoding.legal(state).items():
            meaning = encoding.describe(number)
            assert meaning[0] == ACTION_NAMES[action[0]]
            kinds.add(action[0])
            if action[0] in (MOVE, ATTACK, CONVERT):
                target = action[2] if action[0] == MOVE else state.u_pos[action[2]]
                assert meaning[1:] == (state.u_pos[action[1]], target)
            elif action[0] == SPAWN:
                assert meaning[1:] == (state.b.city_pos[action[1]], action[2])
            elif action[0] == BUILD:
                assert meaning[1:] == (action[2], action[3])
        seat = raw.possible_agents.index(agent)
        board = observation["observation"]
        assert board.shape == (11, 11, encoding.shape[2])
        for u, unit_type in enumerate(state.u_type):  # its own units, where they stand
            if unit_type >= 0 and state.u_tribe[u] == seat:
                x, y = state.u_pos[u] % 11, state.u_pos[u] // 11
                assert board[y, x, encoding.plane("my_" + _unit_name(unit_type))] == 1
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert MOVE in kinds and SPAWN in kinds
    with pytest.raises(ValueError, match="outside"):
        encoding.describe(encoding.size)


def _unit_name(unit_type):
    from games.tribes.constants import UNIT_NAMES

    return UNIT_NAMES[unit_type]


def test_a_builtin_tribes_player_is_a_fixed_opponent():
    environment = env("tribes", turn_limit=6)
    simple = StratsynthPolicy(environment, make_player("tribes", "simple"))
    rng = np.random.default_rng(5)
    environment.reset(seed=2)
    played, rewards = 0, {"player_0": 0, "player_1": 0}
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        rewards[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        if agent == "player_1":
            action = simple(observation, agent)
            assert observation["action_mask"][action] == 1
            played += 1
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(action)
    assert played > 0 and environment.unwrapped.state.is_terminal()
    assert sorted(rewards.values()) == [-1, 1]  # Tribes ends with a winner by score


def test_tribes_observation_hides_what_the_tribe_has_not_explored():
    from games.pettingzoo.tribes import PLANES

    environment = env("tribes", turn_limit=6)
    environment.reset(seed=5)
    raw = environment.unwrapped
    state = raw.state
    for seat, agent in enumerate(raw.possible_agents):
        board = raw.observe(agent)["observation"].reshape(-1, len(PLANES))
        seen = np.frombuffer(bytes(state.explored[seat * 121:(seat + 1) * 121]), dtype=np.uint8)
        assert 0 < seen.sum() < 121  # rules version 3: a tribe starts seeing its surroundings
        tile_planes = PLANES.index("my_stars")
        assert not board[seen == 0, :tile_planes].any()
        assert board[seen == 1, PLANES.index("explored")].all()
        # every explored tile shows its terrain, one-hot
        assert (board[seen == 1, 1:8].sum(axis=1) == 1).all()
        assert board[:, PLANES.index("my_stars")].min() == state.stars[seat] / 100
