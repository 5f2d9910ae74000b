"""Tribes rules checked against the framework (GAIGResearch/Tribes), hand-worked:
a pending level-up comes first and alone (``CityActionBuilder``), idle units recover
at the end of their turn (``GameState.endTurn``), an occupied city yields no stars
(``GameState.initTurn``), and the turn-limit ranking (score, technologies, cities,
production)."""

from __future__ import annotations

import random

import pytest

from games.tribes import Tribes
from games.tribes.constants import (
    ATTACK,
    ATTACKED,
    BUILD,
    BUILD_ROAD,
    CAPTURE,
    CITY,
    CITY_WALL,
    DEFENDER,
    END_TURN,
    EXAMINE,
    FINISHED,
    FREE_SPIRIT,
    FRESH,
    KNIGHT,
    LEVEL_UP,
    MAKE_VETERAN,
    MOVE,
    MOVED,
    MOVED_AND_ATTACKED,
    NO_RES,
    PLAIN,
    PORT,
    PUSHED,
    RECOVER,
    RESOURCES,
    RIDER,
    ROADS,
    RUINS,
    SHALLOW,
    SUPER,
    SUPERUNIT,
    TEMPLE,
    VILLAGE,
    WARRIOR,
)
from tests.test_tribes import _blank, _clear, _free_pair


def test_a_pending_level_up_is_the_only_choice_and_the_lowest_city_goes_first():
    s = _blank(0)
    capital = s.b.capital_city[0]
    village = next(c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0)
    s.c_tribe[village] = 0
    s.c_level[village] = 2
    s.c_pop[village] = 3  # level 2 needs 3
    s.c_pop[capital] = 2  # level 1 needs 2
    s._legal = s._legal_set = None
    first, second = sorted((capital, village))
    options = {capital: [(LEVEL_UP, capital, b) for b in _options(s, capital)],
               village: [(LEVEL_UP, village, CITY_WALL), (LEVEL_UP, village, RESOURCES)]}
    assert s.legal_actions() == options[first]
    with pytest.raises(ValueError):
        s.apply_action((END_TURN,))
    s.apply_action(options[first][0])
    assert s.legal_actions() == options[second], "then the other city"
    s.apply_action(options[second][1])
    assert (END_TURN,) in s.legal_actions()


def _options(s, c):
    from games.tribes.rules import level_up_options

    return level_up_options(s.c_level[c])


def test_idle_units_recover_at_the_end_of_their_turn():
    s = _blank(0)
    inside = next(t for t in s.b.nbr[s.b.city_pos[s.b.capital_city[0]]]
                  if s.owner[t] >= 0 and s.c_tribe[s.owner[t]] == 0 and s.unit_at[t] < 0)
    s.terrain[inside] = 0  # plain
    a, b = _free_pair(s)
    home = s._new_unit(WARRIOR, inside, 0, -1, FRESH)
    away = s._new_unit(WARRIOR, a, 0, -1, FRESH)
    moved = s._new_unit(WARRIOR, b, 0, -1, MOVED)
    third = b + s.b.size
    enemy = s._new_unit(WARRIOR, third, 1, -1, FINISHED)
    for u, hp in ((home, 3), (away, 3), (moved, 3), (enemy, 3)):
        s.u_hp[u] = hp
    s.u_hp[home] = 5
    _clear(s, [a - s.b.size])
    nearly = s._new_unit(WARRIOR, a - s.b.size, 0, -1, FRESH)
    s.u_hp[nearly] = 9  # 9 + 2 would pass the warrior's 10
    s._legal = s._legal_set = None
    s.apply_action((END_TURN,))
    assert s.u_hp[home] == 9, "inside own borders: +2 +2"
    assert s.u_hp[away] == 5, "outside: +2"
    assert s.u_hp[nearly] == 10, "capped at max hp"
    assert s.u_hp[moved] == 3, "a unit that acted does not recover"
    assert s.u_hp[enemy] == 3, "only the tribe whose turn ends"


def test_a_city_with_an_enemy_unit_on_it_yields_no_stars():
    s = Tribes(level=3, turn_limit=5).new_initial_state(random.Random(0))
    s.apply_action((END_TURN,))
    capital = s.b.city_pos[s.b.capital_city[0]]
    mine = s.unit_at[capital]
    s._kill(mine)
    s._new_unit(WARRIOR, capital, 1, -1, FINISHED)  # player 1 occupies player 0's capital
    s._legal = s._legal_set = None
    before = s.stars[0]
    production = s.production(0)
    assert production > 0 and s.income(0) == 0
    s.apply_action((END_TURN,))
    assert s.current_player() == 0 and s.stars[0] == before, "no income from the capital"
    assert s.production(0) == production, "production itself is unchanged"


def test_turn_limit_ranks_score_then_techs_cities_production():
    def finish(tweak):
        s = Tribes(level=3, turn_limit=1).new_initial_state(random.Random(0))
        s.score = [100, 100]
        s.techs = [s.techs[0], s.techs[1]]
        tweak(s)
        s.apply_action((END_TURN,))
        s.apply_action((END_TURN,))
        assert s.is_terminal()
        return s.winner()

    assert finish(lambda s: None) is None, "equal on all four: a draw"
    assert finish(lambda s: s.score.__setitem__(1, 101)) == 1

    def more_cities(s):
        village = next(c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0)
        s.c_tribe[village] = 1
    assert finish(more_cities) == 1, "same score and techs: more cities wins"

    def more_production(s):
        s.c_prod[s.b.capital_city[0]] += 1
    assert finish(more_production) == 0, "same cities too: more production wins"


# ---- rules version 3: unit abilities, pushes, level-up order, temples, trade network --------
# Each position below is hand-made; ``_check`` compares the legal list after every action
# with a state rebuilt from its snapshot, so the carried pieces (games/tribes/rules.py
# ``_carry_segments``) are checked on the same positions (tests/test_tribes_incremental.py
# runs these scenarios too).


def _row(s, n):
    """``n`` tiles in a row, plain, empty, outside every territory and away from cities."""
    b = s.b
    for y in range(1, b.size - 1):
        for x0 in range(0, b.size - n + 1):
            row = [y * b.size + x for x in range(x0, x0 + n)]
            if all(b.city_at[t] < 0 and s.owner[t] < 0 and s.unit_at[t] < 0
                   and all(b.city_at[m] < 0 for m in b.nbr[t]) for t in row):
                _clear(s, row)
                return row
    raise AssertionError("no free row")


def _check(game, s):
    fresh = game.state_from_dict(s.to_dict())
    assert s.legal_actions() == fresh.legal_actions()


def _moves(s, u):
    return [a for a in s.legal_actions() if a[0] == MOVE and a[1] == u]


def _attacks(s, u):
    return [a for a in s.legal_actions() if a[0] == ATTACK and a[1] == u]


def dash_and_one_action(check=_check):
    """Unit.transitionToStatus: a warrior attacks after moving (dash) and is then done;
    a defender that moved cannot attack."""
    game = Tribes(level=0)
    s = _blank(0)
    row = _row(s, 5)
    warrior = s._new_unit(WARRIOR, row[0], 0, -1, FRESH)
    defender = s._new_unit(DEFENDER, row[4], 0, -1, FRESH)
    enemy = s._new_unit(WARRIOR, row[2], 1, -1, FINISHED)  # 10 hp: 5 damage, 5 back
    s._legal = s._legal_set = None
    check(game, s)
    s.apply_legal((MOVE, warrior, row[1]))
    check(game, s)
    assert s.u_status[warrior] == MOVED and _attacks(s, warrior) == [(ATTACK, warrior, enemy)]
    s.apply_legal((ATTACK, warrior, enemy))
    check(game, s)
    assert s.u_status[warrior] == FINISHED and not [a for a in s.legal_actions()
                                                   if len(a) > 1 and a[1] == warrior]
    s.apply_legal((MOVE, defender, row[3]))
    check(game, s)
    assert s.u_status[defender] == FINISHED and not _attacks(s, defender)
    return s


def rider_escape(check=_check):
    """Escape: a rider attacks, then moves (twice at most), or moves, attacks, moves."""
    game = Tribes(level=0)
    s = _blank(0)
    row = _row(s, 6)
    rider = s._new_unit(RIDER, row[1], 0, -1, FRESH)
    enemy = s._new_unit(WARRIOR, row[2], 1, -1, FINISHED)
    s._legal = s._legal_set = None
    s.apply_legal((ATTACK, rider, enemy))
    check(game, s)
    assert s.u_status[rider] == ATTACKED and (MOVE, rider, row[0]) in _moves(s, rider)
    assert not _attacks(s, rider)
    s.apply_legal((MOVE, rider, row[0]))
    check(game, s)
    assert s.u_status[rider] == MOVED_AND_ATTACKED and _moves(s, rider)
    s.apply_legal(_moves(s, rider)[0])
    check(game, s)
    assert s.u_status[rider] == FINISHED
    return s


def knight_persist(check=_check):
    """Persist: a knight that kills may attack again (not move); one that does not kill
    is done (Unit.addKill sets it ATTACKED, canTransitionTo lets ATTACKED attack)."""
    game = Tribes(level=0)
    s = _blank(0)
    row = _row(s, 5)
    knight = s._new_unit(KNIGHT, row[1], 0, -1, FRESH)
    weak = s._new_unit(WARRIOR, row[2], 1, -1, FINISHED)
    s.u_hp[weak] = 1
    far = s._new_unit(SUPERUNIT, row[3], 1, -1, FINISHED)
    s._legal = s._legal_set = None
    s.apply_legal((ATTACK, knight, weak))
    check(game, s)
    assert s.u_type[weak] == -1 and s.u_pos[knight] == row[2], "kill, and the knight moves in"
    assert s.u_status[knight] == ATTACKED
    assert _attacks(s, knight) == [(ATTACK, knight, far)] and not _moves(s, knight)
    s.apply_legal((ATTACK, knight, far))
    check(game, s)
    assert s.u_type[far] >= 0 and s.u_status[knight] == FINISHED
    return s


def test_dash_one_action_escape_and_persist():
    dash_and_one_action()
    rider_escape()
    knight_persist()


def test_examine_needs_a_fresh_unit():
    s = _blank(0)
    row = _row(s, 2)
    s.resource[row[1]] = RUINS
    u = s._new_unit(WARRIOR, row[0], 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_legal((MOVE, u, row[1]))
    assert (EXAMINE, u) not in s.legal_actions(), "Examine.isFeasible: unit.isFresh()"
    s.apply_action((END_TURN,))
    s.apply_action((END_TURN,))
    assert (EXAMINE, u) in s.legal_actions()


def pushed_unit_starts_as_moved(check=_check):
    """A superunit level-up pushes the unit on the city tile to the first free tile in
    Board.pushUnit's order (dy = +1 first); the pushed unit starts its next turn as
    moved: it may attack (dash) but not move."""
    game = Tribes(level=0)
    s = _blank(0)
    capital = s.b.capital_city[0]
    pos = s.b.city_pos[capital]
    for t in s.b.nbr[pos]:
        if s.terrain[t] != CITY:
            s.terrain[t], s.resource[t] = PLAIN, NO_RES
    u = s._new_unit(WARRIOR, pos, 0, -1, FRESH)
    s.c_level[capital], s.c_pop[capital] = 4, 5
    s._legal = s._legal_set = None
    check(game, s)
    s.apply_legal((LEVEL_UP, capital, SUPER))
    check(game, s)
    size = s.b.size
    south = pos + size if pos // size + 1 < size else None
    expected = south if south is not None else next(
        (pos // size + dy) * size + pos % size + dx for dx, dy in ((-1, 0), (0, -1), (1, 0))
        if 0 <= pos % size + dx < size and 0 <= pos // size + dy < size)
    assert s.u_pos[u] == expected and s.u_status[u] == PUSHED
    assert not [a for a in s.legal_actions() if len(a) > 1 and a[1] == u and a[0] != MAKE_VETERAN]
    s.apply_legal((END_TURN,))
    s.apply_legal((END_TURN,))
    check(game, s)
    assert s.u_status[u] == MOVED and not _moves(s, u) and (RECOVER, u) not in s.legal_actions()
    s.apply_legal((END_TURN,))
    s.apply_legal((END_TURN,))
    assert s.u_status[u] == FRESH and _moves(s, u), "the turn after, fresh again"
    return s


def test_a_pushed_unit_starts_its_next_turn_as_moved():
    pushed_unit_starts_as_moved()


def test_level_ups_come_in_the_order_the_cities_were_acquired():
    s = _blank(0)
    villages = [c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0][:2]
    low, high = sorted(villages)
    units = {}
    for c in (high, low):  # capture the higher-numbered village first
        units[c] = s._new_unit(WARRIOR, s.b.city_pos[c], 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, units[high]))
    s.apply_action((CAPTURE, units[low]))
    assert s.c_order[high] < s.c_order[low]
    for c in (high, low):
        s.c_pop[c] = 2
    s._legal = s._legal_set = None
    assert {a[1] for a in s.legal_actions()} == {high}, "the earlier acquired city first"
    s.apply_action(s.legal_actions()[0])
    assert {a[1] for a in s.legal_actions()} == {low}


def test_temples_gain_points_every_third_turn_up_to_level_5():
    s = _blank(0)
    capital = s.b.capital_city[0]
    t = next(t for t in s.b.nbr[s.b.city_pos[capital]] if s.terrain[t] != CITY)
    s.terrain[t], s.resource[t], s.building[t] = PLAIN, NO_RES, 0
    s.techs[0] |= 1 << FREE_SPIRIT
    s.stars[0] = 20
    s._legal = s._legal_set = None
    before = s.score[0]
    s.apply_action((BUILD, capital, t, TEMPLE))
    assert s.score[0] - before == 100 + 5, "100 points and one population"
    gains = []
    for _ in range(15):  # 15 turns of the owner
        score = s.score[0]
        s.apply_action((END_TURN,))
        s.apply_action((END_TURN,))
        gains.append(s.score[0] - score)
    assert gains == [0, 0, 50, 0, 0, 50, 0, 0, 50, 0, 0, 150, 0, 0, 0], gains
    assert s.c_worth[capital] >= 100 + 300


def _road_between(s, a, b):
    """Plain, explored, neutral tiles of a king's-move path from tile a to tile b (ends
    excluded)."""
    size = s.b.size
    (x, y), (xb, yb) = (a % size, a // size), (b % size, b // size)
    path = []
    while True:
        x += (xb > x) - (xb < x)
        y += (yb > y) - (yb < y)
        if (x, y) == (xb, yb):
            return path
        path.append(y * size + x)


def trade_network_by_road(check=_check, builder=0, own_tile=False, rules=3):
    """A road joining a city to the capital gives both one population (TradeNetwork,
    Tribe.updateNetwork); roads on neutral tiles serve both tribes, and a connection
    made in the other tribe's turn gives only the capital its population. The road
    that joins them is on a neutral tile, or (``own_tile``) on the capital's territory,
    beside it."""
    game = Tribes(level=0, rules=rules)
    s = _blank(0, rules)
    capital = s.b.capital_city[0]
    cpos = s.b.city_pos[capital]

    def usable(c):  # a village whose path has a neutral tile and no enemy tile
        path = _road_between(s, cpos, s.b.city_pos[c])
        return (any(s.owner[t] < 0 for t in path[1:-1])
                and all(s.owner[t] < 0 or s.c_tribe[s.owner[t]] == 0 for t in path))

    village = min((c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0 and usable(c)),
                  key=lambda c: s.b.dist[cpos][s.b.city_pos[c]])
    vpos = s.b.city_pos[village]
    u = s._new_unit(WARRIOR, vpos, 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, u))
    path = _road_between(s, cpos, vpos)
    for t in path:
        if s.terrain[t] not in (CITY, VILLAGE):
            s.terrain[t], s.resource[t], s.building[t] = PLAIN, NO_RES, 0
        s.explored[t] = 1
    neutral = next(t for t in path if s.owner[t] < 0)
    last = path[0] if own_tile else neutral
    assert (s.owner[last] == capital) == own_tile
    for t in path:
        s.road[t] = t not in (last, neutral)
        s.explored[builder * s.b.n + t] = 1
    s.techs[builder] |= 1 << ROADS
    s.stars[builder] = 10
    s.player = builder
    s._legal = s._legal_set = None
    check(game, s)
    if own_tile:  # the neutral road first: it joins nothing yet
        s.apply_legal((BUILD_ROAD, neutral))
        s.stars[builder] = 10
        check(game, s)
    pop, cap_pop, score = s.c_pop[village], s.c_pop[capital], s.score[0]
    assert not s.connected[0]
    s.apply_legal((BUILD_ROAD, last))
    check(game, s)
    assert s.connected[0] == 1 << village
    own = builder == 0
    assert (s.c_pop[village], s.c_pop[capital]) == (pop + own, cap_pop + 1)
    assert s.score[0] == score + 5 + 5 * own
    return s


def test_a_road_connecting_a_city_to_the_capital_adds_population():
    trade_network_by_road(builder=0)
    trade_network_by_road(builder=1)
    trade_network_by_road(builder=0, own_tile=True)


@pytest.mark.parametrize("rules", [3, 4])
def test_a_city_lost_from_the_network_takes_a_population_from_it_and_the_capital(rules):
    """Rules version 4 (Tribe.updateNetwork): a connected city the tribe no longer holds
    drops out of its network at once, with a population from itself and one from the
    capital; a tribe without its capital has no network. Version 3 keeps a city that
    changed hands in its old tribe's network until that is rebuilt."""
    s = trade_network_by_road(builder=0, rules=rules)
    capital = s.b.capital_city[0]
    village = s.connected[0].bit_length() - 1
    pop, cap_pop = s.c_pop[village], s.c_pop[capital]
    enemy = s._new_unit(WARRIOR, s.b.city_pos[village], 1, -1, FRESH)
    s.player = 1
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, enemy))
    assert s.c_tribe[village] == 1
    if rules == 3:
        assert s.connected[0] == 1 << village
        assert (s.c_pop[village], s.c_pop[capital]) == (pop, cap_pop)
        return
    assert s.connected[0] == 0
    assert (s.c_pop[village], s.c_pop[capital]) == (pop - 1, cap_pop - 1)
    s.connected[0] = 1 << village  # as if still connected, then the capital lost
    s.c_tribe[capital] = 1
    s._update_network_framework(0)
    assert s.connected[0] == 0


def test_ports_within_four_water_steps_join_the_trade_network():
    """TradeNetwork: two ports of a tribe link when at most 4 steps over water the tribe
    explored join them; a sea the tribe has not explored does not link them."""
    s = _blank(0)
    size = s.b.size
    capital, village = s.b.capital_city[0], 4
    cpos, vpos = s.b.city_pos[capital], s.b.city_pos[village]
    assert (cpos % size, cpos // size, vpos % size, vpos // size) == (1, 1, 7, 2)
    s.c_tribe[village], s.terrain[vpos] = 0, CITY
    for t in range(s.b.n):  # a hand-made sea around the two cities
        if t not in (cpos, vpos):
            s.terrain[t], s.resource[t], s.building[t], s.road[t] = SHALLOW, NO_RES, 0, 0
            s.explored[t] = 1
        s.owner[t] = -1
    s.owner[cpos], s.owner[vpos] = capital, village

    def linked(a, b):
        for t in range(s.b.n):
            if s.building[t] == PORT:
                s.building[t], s.owner[t] = 0, -1
        for (x, y), city in ((a, capital), (b, village)):
            s.building[y * size + x], s.owner[y * size + x] = PORT, city
        return bool(s._network_reach(0)[vpos])

    assert linked((2, 1), (6, 2)), "4 steps"
    assert not linked((2, 1), (7, 1)), "5 steps"
    assert not linked((0, 1), (6, 1)), "6 steps"
    for y in range(size):
        s.explored[y * size + 4] = 0
    assert not linked((2, 1), (6, 2)), "through water the tribe has not explored"


def test_a_capture_hands_units_to_cities_as_the_framework_does():
    """Board.moveOneToNewCity: a captured village takes the unit that joined the
    capital last; Board.moveAllFromCity: a lost city's units go to its tribe's capital
    while it has room, the rest to no city."""
    game = Tribes(level=0)
    s = _blank(0)
    capital, enemy_capital = s.b.capital_city
    villages = [c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0]
    row = _row(s, 6)
    first = s._new_unit(WARRIOR, row[0], 0, capital, FINISHED)
    second = s._new_unit(WARRIOR, row[1], 0, capital, FINISHED)
    taker = s._new_unit(WARRIOR, s.b.city_pos[villages[0]], 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, taker))
    _check(game, s)
    assert (s.u_city[first], s.u_city[second]) == (capital, villages[0])
    assert (s.c_nunits[capital], s.c_nunits[villages[0]]) == (1, 1)
    # an enemy city with two units; the enemy capital (level 1) has room for one more
    lost = villages[1]
    s.c_tribe[lost], s.terrain[s.b.city_pos[lost]] = 1, CITY
    s._claim(lost)
    s._new_unit(WARRIOR, row[3], 1, enemy_capital, FINISHED)
    a = s._new_unit(WARRIOR, row[4], 1, lost, FINISHED)
    b = s._new_unit(WARRIOR, row[5], 1, lost, FINISHED)
    taker = s._new_unit(WARRIOR, s.b.city_pos[lost], 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, taker))
    _check(game, s)
    assert (s.u_city[b], s.u_city[a]) == (enemy_capital, -1), "last joined goes first"
    assert s.c_nunits[enemy_capital] == 2
    assert s.u_city[first] == lost and s.c_nunits[capital] == 0, "the capital's last unit"


def test_a_mind_bender_heals_its_wounded_neighbours_and_converts_an_enemy():
    from games.tribes.constants import CONVERT, HEAL_OTHERS, MIND_BENDER

    s = _blank(0)
    size = s.b.size
    a, b, c = _row(s, 3)
    above = b - size
    _clear(s, [above])
    bender = s._new_unit(MIND_BENDER, b, 0, -1, FRESH)
    friend = s._new_unit(WARRIOR, a, 0, -1, FINISHED)
    nearly = s._new_unit(WARRIOR, above, 0, -1, FINISHED)
    enemy_capital = s.b.capital_city[1]
    enemy = s._new_unit(WARRIOR, c, 1, enemy_capital, FINISHED)
    s.u_hp[enemy] = 3
    s._legal = s._legal_set = None
    assert (HEAL_OTHERS, bender) not in s.legal_actions()  # its tribe's neighbours are whole
    s.u_hp[friend], s.u_hp[nearly] = 3, 8
    s.u_status[bender] = FINISHED
    s._legal = s._legal_set = None
    assert (HEAL_OTHERS, bender) not in s.legal_actions()  # not once finished
    s.u_status[bender] = FRESH
    s._legal = s._legal_set = None
    s.apply_action((HEAL_OTHERS, bender))
    assert (s.u_hp[friend], s.u_hp[nearly], s.u_hp[enemy]) == (7, 10, 3)  # 4, up to 10
    assert s.u_status[bender] == FINISHED
    s.u_status[bender] = FRESH
    units = s.c_nunits[enemy_capital]
    s._legal = s._legal_set = None
    s.apply_legal((CONVERT, bender, enemy))
    assert (s.u_tribe[enemy], s.u_city[enemy], s.u_status[enemy]) == (0, -1, FINISHED)
    assert s.c_nunits[enemy_capital] == units - 1


def test_units_handed_to_a_city_join_the_end_of_its_list():
    """Board.moveAllFromCity appends a lost city's units to the capital's list (after
    the units already there), and only while the lost city has units left; a captured
    village then takes the capital's last unit, one that came from the lost city;
    without units in the capital it takes one from another of the tribe's cities."""
    s = _blank(0)
    capital = s.b.capital_city[0]
    first, second, third = [c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0][:3]
    for c in (first, third):
        s.c_tribe[c], s.terrain[s.b.city_pos[c]] = 0, CITY
        s._claim(c)
    s.c_level[capital] = 2  # room for 3 units
    row = _row(s, 3)
    moved = s._new_unit(WARRIOR, row[0], 0, first, FINISHED)
    taker = s._new_unit(WARRIOR, s.b.city_pos[second], 0, -1, FRESH)
    enemy = s._new_unit(WARRIOR, s.b.city_pos[first], 1, -1, FRESH)
    home = s._new_unit(WARRIOR, row[1], 0, capital, FINISHED)  # the last to join any city
    s.player = 1
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, enemy))
    assert (s.u_city[moved], s.c_nunits[capital], s.c_nunits[first]) == (capital, 2, 0)
    assert s.u_city[enemy] == s.u_city[taker] == -1
    s.player = 0
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, taker))
    assert (s.u_city[moved], s.u_city[home]) == (second, capital)  # the last to join
    s._kill(home)  # the capital has no unit left: the next village takes third's
    spare = s._new_unit(WARRIOR, row[2], 0, third, FINISHED)
    fourth = next(c for c in range(len(s.c_tribe)) if s.c_tribe[c] < 0)
    taker = s._new_unit(WARRIOR, s.b.city_pos[fourth], 0, -1, FRESH)
    s._legal = s._legal_set = None
    s.apply_action((CAPTURE, taker))
    assert s.u_city[spare] == fourth or s.u_city[moved] == fourth


def test_an_enemy_citys_roads_are_not_part_of_a_tribes_network():
    s = _blank(0)
    c0, c1 = (s.b.city_pos[c] for c in s.b.capital_city)
    path = _road_between(s, c1, c0)
    for t in path:
        s.road[t] = 1
    reach = s._network_reach(1)
    enemy = [t for t in path if s.owner[t] >= 0 and s.c_tribe[s.owner[t]] == 0]
    assert enemy and not any(reach[t] for t in enemy)  # tribe 0's capital's tiles
    first = path[0]  # next to tribe 1's capital: its own, or neutral
    assert s.owner[first] < 0 or s.c_tribe[s.owner[first]] == 1
    assert reach[first] and reach[c1] and not reach[c0]
