"""Tribes' incremental legal actions equal a cold regeneration, order included, and
their groups by (type, actor) equal a grouping of the list.

The forward model carries each unit's actions from a state to the next when the
action played cannot have changed them (games/tribes/rules.py ``_carry_segments``) and
patches the cached road candidates after a road; a state rebuilt from its snapshot has
none of those caches. Random games biased towards the carried actions (moves, spawns,
roads, research, recovery), with side branches played on clones as a search does,
must give the same legal list as the rebuilt state at every step.
"""

from __future__ import annotations

import random

from games.tribes import Tribes
from games.tribes.constants import BUILD_ROAD, FRESH, MOVE, RECOVER, RESEARCH, SPAWN
from games.tribes.portfolio import _PICKS, assignments, default_weights, random_assignment
from games.tribes.rules import group_actions

CARRIED = (MOVE, SPAWN, BUILD_ROAD, RESEARCH, RECOVER)


def _cold_legal(game: Tribes, state) -> list[tuple]:
    return game.state_from_dict(state.to_dict()).legal_actions()


def _pick(legal: list[tuple], rng: random.Random) -> tuple:
    carried = [a for a in legal if a[0] in CARRIED]
    if carried and rng.random() < 0.8:
        return carried[rng.randrange(len(carried))]
    return legal[rng.randrange(len(legal))]


def test_carried_legal_actions_equal_a_cold_regeneration():
    checked = 0
    for level in range(8):
        game = Tribes(level=level, turn_limit=20)
        rng = random.Random(100 + level)
        state = game.new_initial_state(random.Random(level))
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == _cold_legal(game, state), (level, state.moves)
            assert state.legal_groups() == group_actions(legal)
            if rng.random() < 0.3:  # a side branch on a clone, as a tree search plays it
                branch = state.clone()
                for _ in range(3):
                    if branch.is_terminal():
                        break
                    branch.apply_legal(_pick(branch.legal_actions(), rng))
                    assert branch.legal_actions() == _cold_legal(game, branch)
                    assert branch.legal_groups() == group_actions(branch.legal_actions())
                    checked += 1
            state.apply_legal(_pick(legal, rng))
            checked += 1
    assert checked > 1000


def test_a_state_edited_by_hand_drops_its_carried_actions():
    game = Tribes(level=3)
    state = game.new_initial_state(random.Random(3))
    rng = random.Random(0)
    while True:  # play to a move after which another unit's actions are carried
        legal = state.legal_actions()
        move = next((a for a in legal if a[0] == MOVE), None)
        if move is not None:
            after = state.clone()
            after.apply_legal(move)
            kept = [w for w in after._segs_next[1] if after.u_status[w] == FRESH] \
                if after._segs_next else []
            if kept:
                break
        state.apply_legal(legal[rng.randrange(len(legal))])
    other = kept[0]
    assert (RECOVER, other) not in after.legal_actions()
    after = state.clone()
    after.apply_legal(move)
    # edit by hand, as tests do, then reset the legal list the usual way
    after.u_hp[other] = 1
    after._legal = after._legal_set = None
    assert (RECOVER, other) in after.legal_actions()
    assert after.legal_actions() == _cold_legal(game, after)


def test_memoised_script_picks_equal_fresh_ones():
    """Portfolio scripts' picks kept with a unit's carried actions (and the action-only
    ones memoised) equal the picks on a rebuilt state, where nothing is memoised."""
    weights = default_weights()
    checked = 0
    for level in range(4):
        game = Tribes(level=level, turn_limit=16)
        rng = random.Random(200 + level)
        state = game.new_initial_state(random.Random(level))
        while not state.is_terminal():
            _PICKS.clear()
            expected = assignments(game.state_from_dict(state.to_dict()), weights)
            _PICKS.clear()
            assert assignments(state, weights) == expected, state.moves
            branch = state.clone()
            for _ in range(2):
                if branch.is_terminal():
                    break
                branch.apply_legal(random_assignment(branch, weights, rng)[0])
                fresh = game.state_from_dict(branch.to_dict())
                assert assignments(branch, weights) == assignments(fresh, weights)
                checked += 1
            state.apply_legal(_pick(state.legal_actions(), rng))
    assert checked > 500
