"""Tribes' incremental legal actions equal a cold regeneration, order included, and
their groups by (type, actor) equal a grouping of the list.

The forward model carries each unit's actions from a state to the next when the
action played cannot have changed them (games/tribes/rules.py ``_carry_segments``) and
patches the cached road candidates after a road; a state rebuilt from its snapshot has
none of those caches. Random games biased towards the carried actions (moves, spawns,
roads, research, recovery, attacks, disbands, promotions), with side branches played
on clones as a search does, must give the same legal list as the rebuilt state at
every step.
"""

from __future__ import annotations

import collections
import random

import pytest

from games.tribes import SimpleAgent, Tribes
from games.tribes.constants import (
    ATTACK,
    BUILD,
    BUILD_ROAD,
    CATAPULT,
    CONSTRUCTION,
    CROPS,
    DECLARE_WAR,
    DESTROY,
    DISBAND,
    FARM,
    FARMING,
    FRESH,
    MAKE_VETERAN,
    MOVE,
    NO_BUILDING,
    NO_RES,
    PLAIN,
    RECOVER,
    RESEARCH,
    RESOURCE,
    SEND_STARS,
    SPAWN,
    WARRIOR,
    WINDMILL,
)
from games.tribes.portfolio import _PICKS, assignments, default_weights, random_assignment
from games.tribes.rules import group_actions

CARRIED = (MOVE, SPAWN, BUILD_ROAD, RESEARCH, RECOVER, ATTACK, DISBAND, MAKE_VETERAN)


def _cold_legal(game: Tribes, state) -> list[tuple]:
    return game.state_from_dict(state.to_dict()).legal_actions()


def _pick(legal: list[tuple], rng: random.Random) -> tuple:
    carried = [a for a in legal if a[0] in CARRIED]
    if carried and rng.random() < 0.8:
        return carried[rng.randrange(len(carried))]
    return legal[rng.randrange(len(legal))]


def _opening(game: Tribes, level: int, rounds: int):
    """A state after ``rounds`` rounds of the rule-based player (armies have met)."""
    state = game.new_initial_state(random.Random(level))
    agents = [SimpleAgent(seed=2 * level), SimpleAgent(seed=2 * level + 1)]
    while not state.is_terminal() and state.turn < rounds:
        state.apply_action(agents[state.current_player()](state))
    return state


@pytest.mark.parametrize("rules", [3, 4])
def test_carried_legal_actions_equal_a_cold_regeneration(rules):
    checked = collections.Counter()
    for level in range(8 if rules == 3 else 25):  # the framework's levels: armies meet later
        game = Tribes(level=level if rules == 3 else f"java:{level}", turn_limit=30,
                      rules=rules)
        rng = random.Random(100 + level)
        state = _opening(game, level, 2 * level)
        while not state.is_terminal() and state.turn < 2 * level + 10:
            legal = state.legal_actions()
            assert legal == _cold_legal(game, state), (level, state.moves)
            assert state.legal_groups() == group_actions(legal)
            if rng.random() < 0.3:  # a side branch on a clone, as a tree search plays it
                branch = state.clone()
                for _ in range(3):
                    if branch.is_terminal():
                        break
                    action = _pick(branch.legal_actions(), rng)
                    branch.apply_legal(action)
                    assert branch.legal_actions() == _cold_legal(game, branch)
                    assert branch.legal_groups() == group_actions(branch.legal_actions())
                    checked[action[0]] += 1
            action = _pick(legal, rng)
            state.apply_legal(action)
            checked[action[0]] += 1
    # (a promotion needs a unit fresh after its third kill: the last test plays them)
    assert all(checked[kind] >= 1 for kind in CARRIED if kind != MAKE_VETERAN), checked
    assert checked[ATTACK] >= (50 if rules == 3 else 30), checked


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
            carried = after._carry_segments(state._segs, move, state.u_pos[move[1]])
            kept = [w for w in carried[1] if after.u_status[w] == FRESH] if carried else []
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


@pytest.mark.parametrize("rules", [3, 4])
def test_memoised_script_picks_equal_fresh_ones(rules):
    """Portfolio scripts' picks kept with a unit's carried actions (and the action-only
    ones memoised) equal the picks on a rebuilt state, where nothing is memoised."""
    weights = default_weights()
    checked = 0
    for level in range(4):
        game = Tribes(level=level if rules == 3 else f"java:{level}", turn_limit=16,
                      rules=rules)
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


def test_every_carried_action_from_mid_game_states():
    """Each carried action of many mid-game states, played on a clone whose parent's
    scripts already ran, gives the legal list and script picks of a rebuilt state."""
    weights = default_weights()
    played = collections.Counter()
    for level in range(10):
        game = Tribes(level=level)
        rng = random.Random(300 + level)
        state = _opening(game, level, 12 + level % 5)
        for _ in range(40):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            assignments(state, weights)  # fills the parent's unit memos
            for action in legal:
                if action[0] not in CARRIED or (action[0] == MOVE and rng.random() < 0.8):
                    continue
                child = state.clone()
                child.apply_legal(action)
                fresh = game.state_from_dict(child.to_dict())
                assert child.legal_actions() == fresh.legal_actions(), action
                assert assignments(child, weights) == assignments(fresh, weights), action
                played[action[0]] += 1
            state.apply_legal(legal[rng.randrange(len(legal))])
    assert played[ATTACK] >= 100, played
    assert all(played[kind] for kind in CARRIED if kind != BUILD_ROAD), played


def test_every_action_of_version_4_from_mid_game_states_carries_exactly():
    """Under rules version 4 a unit's moves' search is also kept over city tile actions
    (farther from the tile than its search radius), diplomacy, and, for the units the
    action did not move, over moves, spawns, disbands and recoveries: every action of
    many mid-game states on the framework's levels, played on a clone whose parent's
    scripts already ran, gives the legal list, groups and script picks of a rebuilt
    state."""
    weights = default_weights()
    played = collections.Counter()
    for level in range(8):
        game = Tribes(level=f"java:{level}", turn_limit=40, rules=4)
        rng = random.Random(500 + level)
        state = _opening(game, level, 10 + 2 * level)
        for _ in range(25):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            assignments(state, weights)  # fills the parent's unit memos
            for action in legal:
                if action[0] == MOVE and rng.random() < 0.8:
                    continue
                child = state.clone()
                child.apply_legal(action)
                if child.is_terminal():
                    continue
                fresh = game.state_from_dict(child.to_dict())
                assert child.legal_actions() == fresh.legal_actions(), (level, action)
                assert child.legal_groups() == group_actions(child.legal_actions())
                assert assignments(child, weights) == assignments(fresh, weights), action
                played[action[0]] += 1
            state.apply_legal(_pick(legal, rng))
    assert all(played[kind] for kind in (MOVE, SPAWN, BUILD, DESTROY, RESOURCE, SEND_STARS,
                                         DECLARE_WAR, ATTACK)), played


def test_a_farm_next_to_another_city_of_the_tribe_offers_that_city_a_windmill():
    """Under rules version 4 a farm built by one city beside another city's tile gives
    that city a windmill (the adjacency requirement reaches across cities), as a rebuilt
    state has it: no tile action kept from the parent state survives the farm."""
    game = Tribes(level="java:0", rules=4)
    s = game.new_initial_state(random.Random(0))
    s._own_tiles()
    size = s.b.size
    village = next(c for c, t in enumerate(s.c_tribe) if t < 0)
    farm, beside = next((t, m) for t, c in enumerate(s.owner) if c == 0
                        and s.terrain[t] == PLAIN for m in s.b.nbr[t]
                        if s.owner[m] < 0 and s.terrain[m] == PLAIN
                        and abs(m % size - t % size) + abs(m // size - t // size) == 1)
    s.c_tribe[village], s.owner[beside] = 0, village  # a second city of tribe 0 owns it
    s.resource[farm], s.resource[beside] = CROPS, NO_RES
    s.building[farm] = s.building[beside] = NO_BUILDING
    s.c_level[0] = s.c_level[village] = 4  # no level-up due
    s.techs[0] |= 1 << FARMING | 1 << CONSTRUCTION
    s.stars[0] = 50
    s = game.state_from_dict(s.to_dict())
    assert (BUILD, village, beside, WINDMILL) not in s.legal_actions()
    s.apply_legal((BUILD, 0, farm, FARM))
    assert (BUILD, village, beside, WINDMILL) in s.legal_actions()
    assert s.legal_actions() == _cold_legal(game, s)


def test_a_kill_drops_the_target_from_a_far_ranged_unit():
    """A catapult three tiles from an enemy, far outside its own move radius of the
    attack, still loses that target when another unit kills it."""
    game = Tribes(level=0)
    s = game.new_initial_state(random.Random(0))
    for u in range(len(s.u_type)):
        s._kill(u)
    size = s.b.size
    y = next(y for y in range(1, size - 1)
             if all(s.b.city_at[y * size + x] < 0 and s.owner[y * size + x] < 0
                    for x in range(1, 6)))
    row = [y * size + x for x in range(1, 6)]
    for t in row:
        s.terrain[t], s.resource[t] = PLAIN, NO_RES
    catapult = s._new_unit(CATAPULT, row[0], 0, -1, FRESH)
    enemy = s._new_unit(WARRIOR, row[3], 1, -1, FRESH)
    attacker = s._new_unit(WARRIOR, row[4], 0, -1, FRESH)
    s.u_hp[enemy] = 1
    s._legal = s._legal_set = None
    assert (ATTACK, catapult, enemy) in s.legal_actions()
    s.apply_legal((ATTACK, attacker, enemy))
    assert s.u_type[enemy] == -1
    assert (ATTACK, catapult, enemy) not in s.legal_actions()
    assert s.legal_actions() == _cold_legal(game, s)


def test_positions_of_the_version_3_rules_carry_exactly():
    """The hand-made positions of the rules added in version 3 (dash and one action,
    a rider's escape, a knight's persist, a pushed unit, a road joining a city to the
    trade network), each action played on a state whose legal list was built, so the
    carried pieces are used: the list, its groups and the portfolio's assignments equal
    those of a rebuilt state at every step."""
    from tests.test_tribes_framework_rules import (
        dash_and_one_action,
        knight_persist,
        pushed_unit_starts_as_moved,
        rider_escape,
        trade_network_by_road,
    )

    weights = default_weights()
    steps = collections.Counter()

    def check(game, s):
        fresh = game.state_from_dict(s.to_dict())
        assert s.legal_actions() == fresh.legal_actions()
        assert s.legal_groups() == group_actions(s.legal_actions())
        assert assignments(s, weights) == assignments(fresh, weights)
        steps[s.moves] += 1

    for scenario in (dash_and_one_action, rider_escape, knight_persist,
                     pushed_unit_starts_as_moved):
        scenario(check)
    for builder in (0, 1):
        trade_network_by_road(check, builder=builder)
    assert sum(steps.values()) >= 15


def test_kept_trade_network_reach_equals_a_full_recomputation():
    """A road played on a state that keeps its trade-network reach (``_net_clean``)
    changes the state exactly as on a copy that recomputes both networks from nothing,
    as the framework does after every road."""
    compared = connected = 0
    for level in range(6):
        game = Tribes(level=level, turn_limit=40)
        rng = random.Random(400 + level)
        state = _opening(game, level, 8)
        while not state.is_terminal():
            legal = state.legal_actions()
            roads = [a for a in legal if a[0] == BUILD_ROAD]
            for a in roads[:3]:
                kept, full = state.clone(), state.clone()
                full._net_clean = 0
                kept.apply_legal(a)
                full.apply_legal(a)
                assert kept == full, (level, state.moves, a)
                compared += 1
            state.apply_legal(roads[0] if roads and rng.random() < 0.5
                              else legal[rng.randrange(len(legal))])
            connected += bin(state.connected[0] | state.connected[1]).count("1")
    assert compared > 300 and connected > 0, (compared, connected)
