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
    CITY_WALL,
    END_TURN,
    FINISHED,
    FRESH,
    LEVEL_UP,
    MOVED,
    RESOURCES,
    WARRIOR,
)
from tests.test_tribes import _blank, _free_pair


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
    s.u_hp[home] = 8  # 8 + 4 would pass the warrior's 10
    s._legal = s._legal_set = None
    s.apply_action((END_TURN,))
    assert s.u_hp[home] == 10, "inside own borders: +2 +2, capped at max hp"
    assert s.u_hp[away] == 5, "outside: +2"
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
