"""Tribes (Perez-Liebana et al. 2021): API conformance over random playouts, hand-worked rules."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from games import load_game
from games.conformance import check_random_playouts
from games.tribes import Tribes, combat, generate_level, tech_cost
from games.tribes.constants import (
    ATTACK,
    BUILD,
    CAPTURE,
    CITY,
    CLIMBING,
    CONSTRUCTION,
    CROPS,
    DEFENDER,
    END_TURN,
    EXPLORER,
    FARM,
    FARMING,
    FINISHED,
    FOREST,
    FRESH,
    LEVEL_UP,
    MINING,
    MOUNTAIN,
    MOVE,
    NO_RES,
    PLAIN,
    RESEARCH,
    SMITHERY,
    SPAWN,
    VILLAGE,
    WARRIOR,
    WINDMILL,
    WORKSHOP,
)


def _invariants(state) -> None:
    cold = state.clone()
    cold._legal = cold._legal_set = None
    cold._tile_cache = [None, None]
    assert sorted(cold.legal_actions()) == sorted(state.legal_actions()), "tile cache is exact"
    for p in (0, 1):
        assert state.stars[p] >= 0, "stars never go negative"
    for u, ut in enumerate(state.u_type):
        if ut < 0:
            continue
        assert state.unit_at[state.u_pos[u]] == u, "unit map and unit positions agree"
        assert 0 < state.u_hp[u] <= state.max_hp(u)
    for t, u in enumerate(state.unit_at):
        if u >= 0:
            assert state.u_pos[u] == t and state.u_type[u] >= 0
    for c, p in enumerate(state.c_tribe):
        if p >= 0:
            owned = sum(1 for v in range(len(state.u_city))
                        if state.u_city[v] == c and state.u_type[v] >= 0)
            assert owned == state.c_nunits[c] <= state.c_level[c] + 1 + 1  # + a superunit


def test_random_playouts_conform():
    game = Tribes(turn_limit=12)
    stats = check_random_playouts(game, playouts=4, seed=7, state_invariants=_invariants,
                                  deep_check_every=23)
    assert stats["playouts"] == 4 and stats["capped"] == 0


@pytest.mark.slow
def test_many_random_playouts_conform():
    stats = check_random_playouts(Tribes(), playouts=200, seed=11, state_invariants=_invariants,
                                  deep_check_every=11)
    assert sum(stats["wins"]) + stats["draws"] == 200


def test_registered_and_levels_differ():
    game = load_game("tribes")
    assert game.name == "tribes"
    texts = {generate_level(k).to_text() for k in range(25)}
    assert len(texts) == 25, "25 distinct levels reachable by seed"


def test_level_generation_is_the_same_in_another_process():
    code = ("import hashlib;from games.tribes import generate_level;"
            "print(hashlib.sha1(generate_level(17).to_text().encode()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    import hashlib
    assert out == hashlib.sha1(generate_level(17).to_text().encode()).hexdigest()


def test_same_seed_same_game():
    def play(seed):
        s = Tribes(turn_limit=8).new_initial_state(random.Random(seed))
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        return s.to_dict()
    assert play(5) == play(5)
    assert play(5) != play(6)


# ---- hand-worked positions ----------------------------------------------------------------

def _blank(level=0, rules=3):
    """A start state with all units removed and open plain land around the capitals."""
    s = Tribes(level=level, rules=rules).new_initial_state(random.Random(0))
    for u in range(len(s.u_type)):
        s._kill(u)
    s._legal = s._legal_set = None
    return s


def _clear(s, tiles):
    for t in tiles:
        if s.terrain[t] not in (CITY, VILLAGE):
            s.terrain[t] = PLAIN
        s.resource[t] = NO_RES


def _free_pair(s):
    """Two orthogonally adjacent plain tiles away from any city."""
    b = s.b
    for t in range(b.n):
        x, y = t % b.size, t // b.size
        if 1 <= x < b.size - 2 and 1 <= y < b.size - 1 and b.city_at[t] < 0 \
                and b.city_at[t + 1] < 0 and s.owner[t] < 0 and s.owner[t + 1] < 0:
            _clear(s, [t, t + 1])
            return t, t + 1
    raise AssertionError("no free pair")


def test_combat_formula_matches_hand_calculation():
    # warrior (atk 2, 10/10 hp) on warrior (def 2, 10/10): forces 2 v 2, each 0.5·2·4.5 = 4.5
    assert combat(2, 10, 10, 2, 10, 10, 1.0) == (5, 5)  # Java rounds half up
    # defender fortified in a city (×1.5): 2 v 3 -> round(0.4·9) = 4, round(0.6·9) = 5
    assert combat(2, 10, 10, 2, 10, 10, 1.5) == (4, 5)
    # wounded swordman (atk 3, 5/15) on a warrior 10/10: 1 v 2 -> round(1/3·13.5)=5, round(2/3·9)=6
    assert combat(3, 5, 15, 2, 10, 10, 1.0) == (5, 6)


def test_attack_retaliation_and_kill_move_in():
    s = _blank()
    a, b = _free_pair(s)
    u = s._new_unit(WARRIOR, a, 0, -1, FRESH)
    v = s._new_unit(WARRIOR, b, 1, -1, FRESH)
    s._legal = s._legal_set = None
    assert (ATTACK, u, v) in s.legal_actions()
    s.apply_action((ATTACK, u, v))
    assert s.u_hp[v] == 5 and s.u_hp[u] == 5, "5 damage each way"
    assert (ATTACK, u, v) not in s.legal_actions(), "one attack a turn"
    third = b + s.b.size
    _clear(s, [third])
    w = s._new_unit(WARRIOR, third, 0, -1, FRESH)
    s._legal = s._legal_set = None
    # fresh 10-hp warrior on a 5-hp warrior: forces 2 v 1 -> round(2/3·9) = 6 >= 5: kill
    s.apply_action((ATTACK, w, v))
    assert s.u_type[v] == -1 and s.kills[0] == 1 and s.u_hp[w] == 10, "no retaliation"
    assert s.u_pos[w] == b and s.unit_at[third] == -1, "melee attacker moves into the tile"


def test_capture_village_then_capital_wins():
    s = _blank(0)
    village = s.b.city_pos[2]
    u = s._new_unit(WARRIOR, village, 0, -1, FRESH)
    s._legal = s._legal_set = None
    assert (CAPTURE, u) in s.legal_actions()
    s.apply_action((CAPTURE, u))
    assert s.c_tribe[2] == 0 and s.c_level[2] == 1 and s.terrain[village] == CITY
    assert s.owner[village] == 2 and s.u_status[u] == FINISHED
    assert not s.is_terminal()
    capital1 = s.b.city_pos[1]
    v = s._new_unit(WARRIOR, capital1, 0, -1, FRESH)
    before = (s.score[0], s.score[1], s.c_worth[1])
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, v))
    assert s.is_terminal() and s.winner() == 0 and s.returns() == [1.0, -1.0]
    assert s.score[0] == before[0] + before[2] and s.score[1] == before[1] - before[2]


def test_moved_unit_cannot_capture_the_same_turn():
    s = _blank(0)
    village = s.b.city_pos[2]
    start = next(t for t in s.b.nbr[village] if s.terrain[t] not in (1, 2))
    _clear(s, [start])
    u = s._new_unit(WARRIOR, start, 0, -1, FRESH)
    s._legal = s._legal_set = None
    assert (MOVE, u, village) in s.legal_actions()
    s.apply_action((MOVE, u, village))
    assert (CAPTURE, u) not in s.legal_actions()


def test_a_farm_beside_a_windmill_gives_its_population_and_the_windmills():
    s = _blank(0)
    c = 0
    pos = s.b.city_pos[c]
    s.stars[0] = 50
    s.techs[0] |= (1 << FARMING) | (1 << CONSTRUCTION)
    size = s.b.size
    first = pos + 1 if pos % size < size - 1 else pos - 1
    second = first + size if first // size < size - 1 else first - size
    for t in (first, second):
        s.terrain[t], s.resource[t] = PLAIN, NO_RES
    s.resource[first] = CROPS
    s.building[second] = WINDMILL  # already standing
    s.c_level[c] = 3  # no level-up due
    s._legal = s._legal_set = None
    s.apply_action((BUILD, c, first, FARM))
    assert s.c_pop[c] == 2 + 1 and type(s.c_pop[c]) is int  # snapshots stay integral


def test_tech_prerequisites_and_cost():
    s = _blank(0)
    s.techs[0] = 0
    s.stars[0] = 100
    s._legal = s._legal_set = None
    research = {a[1] for a in s.legal_actions() if a[0] == RESEARCH}
    assert CLIMBING in research and MINING not in research and SMITHERY not in research
    assert tech_cost(1, 1, 0) == 5 and tech_cost(2, 1, 0) == 6 and tech_cost(3, 2, 0) == 10
    assert tech_cost(3, 2, 1 << 23) == 8, "Philosophy: 20% off, rounded up"
    assert tech_cost(1, 5, 1 << 23) == 8, "9 * 0.8 = 7.2, rounded up (not to nearest)"
    assert tech_cost(2, 1, 1 << 23) == 5, "6 * 0.8 = 4.8, rounded up (not down)"
    assert tech_cost(1, 0, 0) == 5, "no city counts as one"
    philosophy = 1 << 23
    for tier in (1, 2, 3):
        for cities in range(1, 30):  # integer arithmetic: ceil(4 cost / 5), floor(cost / 5)
            cost = tier * cities + 4
            assert tech_cost(tier, cities, philosophy) == -(-4 * cost // 5)
            assert tech_cost(tier, cities, philosophy, framework=True) == cost // 5
    s.apply_action((RESEARCH, CLIMBING))
    assert s.stars[0] == 95
    research = {a[1] for a in s.legal_actions() if a[0] == RESEARCH}
    assert MINING in research and SMITHERY not in research
    s.apply_action((RESEARCH, MINING))
    assert SMITHERY in {a[1] for a in s.legal_actions() if a[0] == RESEARCH}
    assert s.stars[0] == 89


def test_spawn_needs_tech_stars_and_room():
    s = _blank(0)
    s.stars[0] = 2
    s._legal = s._legal_set = None
    spawns = {a[2] for a in s.legal_actions() if a[0] == SPAWN and a[1] == 0}
    assert spawns == {WARRIOR}
    s.apply_action((SPAWN, 0, WARRIOR))
    assert s.stars[0] == 0 and s.c_nunits[0] == 1 and s.score[0] >= 10
    u = s.unit_at[s.b.city_pos[0]]
    assert s.u_status[u] == FINISHED, "a new unit waits for next turn"
    s.stars[0] = 10
    s.techs[0] |= 1 << 13  # SHIELDS
    s._legal = s._legal_set = None
    assert not any(a[0] == SPAWN for a in s.legal_actions()), "city tile occupied"
    s._kill(u)
    s._legal = s._legal_set = None
    assert {a[2] for a in s.legal_actions() if a[0] == SPAWN} == {WARRIOR, DEFENDER}


def test_city_growth_level_up_and_windmill_bonus():
    s = _blank(0)
    c = 0
    pos = s.b.city_pos[c]
    s.stars[0] = 50
    s.techs[0] |= (1 << FARMING) | (1 << 3) | (1 << CONSTRUCTION)
    size = s.b.size
    first = pos + 1 if pos % size < size - 1 else pos - 1
    tiles = [first, first + size if first // size < size - 1 else first - size]
    assert all(s.owner[t] == c for t in tiles)
    for t in tiles:
        s.terrain[t] = PLAIN
    s.resource[tiles[0]] = CROPS
    s.resource[tiles[1]] = NO_RES
    s._legal = s._legal_set = None
    score0 = s.score[0]
    s.apply_action((BUILD, c, tiles[0], FARM))
    assert s.c_pop[c] == 2 and s.score[0] == score0 + 10, "farm: +2 population, 5 points each"
    assert s.legal_actions() == [(LEVEL_UP, c, WORKSHOP), (LEVEL_UP, c, EXPLORER)], \
        "a city that can level up must choose its bonus before anything else"
    prod = s.production(0)
    s.apply_action((LEVEL_UP, c, WORKSHOP))
    assert s.c_level[c] == 2 and s.c_pop[c] == 0
    assert s.production(0) == prod + 2, "one more level, one workshop"
    assert (END_TURN,) in s.legal_actions()
    s.apply_action((BUILD, c, tiles[1], WINDMILL))
    assert s.c_pop[c] == 1, "windmill: +1 per neighbouring farm of the city"
    assert type(s.c_pop[c]) is int, "snapshots stay integral"
    assert not any(a[0] == BUILD and a[3] == WINDMILL for a in s.legal_actions()), "one a city"


def test_turn_limit_score_win_and_production():
    s = Tribes(level=3, turn_limit=2).new_initial_state(random.Random(0))
    s.apply_action((END_TURN,))
    assert s.current_player() == 1 and s.stars[1] == 5, "no income in the first round"
    s.apply_action((END_TURN,))
    assert s.current_player() == 0 and s.stars[0] == 5 + s.production(0)
    s.score[0] = s.score[1] + 1
    s.apply_action((END_TURN,))
    s.apply_action((END_TURN,))
    assert s.is_terminal() and s.winner() == 0 and s.legal_actions() == []


def test_movement_terrain_rules():
    s = _blank(0)
    a, b = _free_pair(s)
    s.terrain[b] = MOUNTAIN
    u = s._new_unit(WARRIOR, a, 0, -1, FRESH)
    s.techs[0] &= ~(1 << CLIMBING)
    s._legal = s._legal_set = None
    assert (MOVE, u, b) not in s.legal_actions(), "mountains need Climbing"
    s.techs[0] |= 1 << CLIMBING
    s._legal = s._legal_set = None
    assert (MOVE, u, b) in s.legal_actions()
    s.terrain[b] = FOREST
    s._legal = s._legal_set = None
    assert (MOVE, u, b) in s.legal_actions()


def test_combat_scales_each_side_by_its_fraction_of_health():
    # a warrior at 7/10 on a full one: forces 1.4 v 2 -> round(1.4/3.4·9) = 4, round(2/3.4·9) = 5
    assert combat(2, 7, 10, 2, 10, 10, 1.0) == (4, 5)
    assert combat(2, 10, 10, 2, 7, 10, 1.0) == (5, 4)  # and the other way round


def test_units_of_a_tribe_are_its_living_units_and_a_dead_unit_has_no_city():
    s = _blank(0)
    assert s.units_of(0) == s.units_of(1) == []  # every unit killed
    assert s.num_tiles(0) == s.num_tiles(1) == 9  # each capital's (cities 0 and 1)
    a, b = _free_pair(s)
    u = s._new_unit(WARRIOR, a, 0, 0, FRESH)
    v = s._new_unit(WARRIOR, b, 1, -1, FRESH)
    assert (s.units_of(0), s.units_of(1)) == ([u], [v])
    s._kill(u)
    assert s.units_of(0) == [] and s.u_city[u] == -1 and s.unit_at[a] == -1


def test_a_unit_with_three_kills_may_become_a_veteran_with_five_more_hp():
    from games.tribes.constants import MAKE_VETERAN

    s = _blank(0)
    a, _ = _free_pair(s)
    u = s._new_unit(WARRIOR, a, 0, -1, FRESH)
    s.u_kills[u], s.u_hp[u] = 2, 4
    s._legal = s._legal_set = None
    assert (MAKE_VETERAN, u) not in s.legal_actions()
    s.u_kills[u] = 3
    s._legal = s._legal_set = None
    s.apply_action((MAKE_VETERAN, u))
    assert (s.u_vet[u], s.max_hp(u), s.u_hp[u]) == (1, 15, 15)
    assert (MAKE_VETERAN, u) not in s.legal_actions()  # once


def test_spiritualism_grows_a_forest_on_a_plain_without_a_resource():
    from games.tribes.constants import GROW_FOREST, SPIRITUALISM

    s = _blank(0)
    pos = s.b.city_pos[0]
    t = next(t for t in s.b.nbr[pos] if s.owner[t] == 0)
    s.terrain[t], s.resource[t], s.stars[0] = PLAIN, NO_RES, 20
    s._legal = s._legal_set = None
    assert (GROW_FOREST, 0, t) not in s.legal_actions()
    s.techs[0] |= 1 << SPIRITUALISM
    s._legal = s._legal_set = None
    assert (GROW_FOREST, 0, t) in s.legal_actions()


def test_the_board_text_and_action_names():
    from games.tribes.constants import (
        ACTION_NAMES,
        BORDER_GROWTH,
        BUILDING_NAMES,
        LEVEL_UP_NAMES,
        RECOVER,
    )

    s = _blank(0)
    size = s.b.size
    x, y = 5, 2
    t = y * size + x
    s.terrain[t] = PLAIN
    s._new_unit(WARRIOR, t, 1, -1, FRESH)
    rows = str(s).splitlines()
    assert rows[y][4 * x + 1:4 * x + 3] == "w1"  # each cell: terrain, unit, tribe; spaced
    assert sum(row.count("w1") for row in rows[:size]) == 1
    assert "units 0" in rows[size] and "units 1" in rows[size + 1]
    assert rows[-1] == f"round {s.turn}, tribe {s.player} to act"
    s.over, s.won_by = True, 1
    assert str(s).splitlines()[-1] == f"game over in round {s.turn}: tribe 1 wins"
    assert s.action_to_string((LEVEL_UP, 3, BORDER_GROWTH)) == \
        f"city 3 level up ({LEVEL_UP_NAMES[BORDER_GROWTH]})"
    assert s.action_to_string((BUILD, 2, t, FARM)) == \
        f"city 2 build {BUILDING_NAMES[FARM]} at (5,2)"
    assert s.action_to_string((RECOVER, 7)) == f"unit 7 {ACTION_NAMES[RECOVER]}"
    assert s.action_to_string((END_TURN,)) == "end turn"


def test_research_offers_each_tier_exactly_when_the_stars_cover_its_cost():
    from games.tribes.constants import NUM_TECHS, TECH_PARENT, TECH_TIER
    from games.tribes.rules import _research_actions

    tier1 = [t for t in range(NUM_TECHS) if TECH_TIER[t] == 1]
    tier2 = [t for t in range(NUM_TECHS) if TECH_TIER[t] == 2]
    # every technology of tiers 1 and 2 but one of each: one of each tier is open
    techs = sum(1 << t for t in tier1[1:] + tier2[1:]) | 1 << TECH_PARENT[tier2[0]]
    costs = {tier: tech_cost(tier, 1, techs) for tier in (1, 2, 3)}
    assert costs == {1: 5, 2: 6, 3: 7}
    for stars in [*range(9), *range(8, -1, -1)]:  # up, then down again (memoised)
        tiers = {TECH_TIER[a[1]] for a in _research_actions(techs, stars, 1)}
        assert tiers == {tier for tier, cost in costs.items() if cost <= stars}, stars


def test_emperors_tomb_comes_at_100_stars_and_the_park_of_fortune_at_level_5():
    from games.tribes.constants import EMPERORS_TOMB, MONUMENTS, PARK, PARK_OF_FORTUNE
    from games.tribes.rules import AVAILABLE, MONUMENT_INDEX, UNAVAILABLE

    s = _blank(0)

    def monument(m):
        return s.monuments[MONUMENT_INDEX[m]]  # tribe 0's

    s.stars[0] = 95
    s._add_stars(0, 4)
    assert monument(EMPERORS_TOMB) == UNAVAILABLE
    s._add_stars(0, 1)
    assert monument(EMPERORS_TOMB) == AVAILABLE and len(MONUMENTS) > 1
    s.c_level[0], s.c_pop[0] = 3, 4
    s._legal = s._legal_set = None
    s.apply_action(next(a for a in s.legal_actions() if a[0] == LEVEL_UP))
    assert s.c_level[0] == 4 and monument(PARK_OF_FORTUNE) == UNAVAILABLE
    s.c_pop[0] = 5
    s._legal = s._legal_set = None
    s.apply_action((LEVEL_UP, 0, PARK))
    assert s.c_level[0] == 5 and monument(PARK_OF_FORTUNE) == AVAILABLE


def test_terrain_defence_needs_the_defenders_technology_for_that_terrain():
    from games.tribes.constants import AQUATISM, ARCHERY, MEDITATION, SHALLOW

    for ter, tech in ((MOUNTAIN, MEDITATION), (SHALLOW, AQUATISM), (FOREST, ARCHERY),
                      (PLAIN, None)):
        for researched in (AQUATISM, MEDITATION, ARCHERY):
            s = _blank(0)
            a, _ = _free_pair(s)
            s.terrain[a] = ter
            v = s._new_unit(WARRIOR, a, 1, -1, FRESH)
            s.techs[1] = 1 << researched
            assert s.defence_multiplier(v) == (1.5 if researched == tech else 1.0), \
                (ter, researched)


@pytest.mark.parametrize("rules", [3, 4])
def test_legal_groups_are_the_legal_actions_by_type_and_actor(rules):
    from games.tribes.constants import BUILD_ROAD, DECLARE_WAR, SEND_STARS
    from games.tribes.rules import group_actions

    no_actor = (END_TURN, RESEARCH, BUILD_ROAD, DECLARE_WAR, SEND_STARS)
    s = Tribes(level=0, rules=rules).new_initial_state(random.Random(1))
    rng = random.Random(rules)
    for _ in range(120):
        legal = s.legal_actions()
        groups = s.legal_groups()
        assert groups == group_actions(legal)  # in the order of the legal list
        for kind, actor, acts in groups:
            assert all(a[0] == kind for a in acts)
            assert actor == (-1 if kind in no_actor else acts[0][1])
            assert all(actor == -1 or a[1] == actor for a in acts)
        units = [a[1] for a in legal if a[0] == MOVE]
        if units:
            memo = s.unit_memo(units[0])
            memo["seen"] = True
            assert s.unit_memo(units[0]) is memo
        s.apply_action(legal[rng.randrange(len(legal))])
        if s.is_terminal():
            break


def test_a_clone_and_its_original_change_their_tiles_apart():
    from games.tribes.constants import BUILD_ROAD, ROADS

    s = _blank(0)
    s.techs[0] |= 1 << ROADS
    s.stars[0] = 20
    s._legal = s._legal_set = None
    first, second = [a for a in s.legal_actions() if a[0] == BUILD_ROAD][:2]
    before = s.to_dict()
    c = s.clone()
    c.apply_action(first)
    assert c.road[first[1]] and not s.road[first[1]] and s.to_dict() == before
    s.apply_action(second)
    assert s.road[second[1]] and not c.road[second[1]]


def test_a_technology_is_researchable_once_its_parent_is_and_only_once():
    from games.tribes.constants import NUM_TECHS, TECH_PARENT
    from games.tribes.rules import researchable

    for t in range(NUM_TECHS):
        assert researchable(0, t) == (t not in TECH_PARENT), t
        assert not researchable(1 << t, t)
        if t in TECH_PARENT:
            assert researchable(1 << TECH_PARENT[t], t)


def test_a_game_drawn_from_a_random_generator_is_seeded_by_its_next_63_bits():
    from games.tribes.rules import TribesState, board_for

    for seed in (0, 5):
        drawn = Tribes(level=0).new_initial_state(random.Random(seed))
        bits = random.Random(seed).getrandbits(63)
        assert drawn == TribesState.initial(board_for(0), seed=bits)
        assert drawn.rng == TribesState.initial(board_for(0), seed=bits).rng
        assert drawn.rng != TribesState.initial(board_for(0), seed=bits >> 1).rng
