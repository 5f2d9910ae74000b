"""Tribes (Perez-Liebana et al. 2021): two tribes on an N×N board, our State API, a fast
forward model.

Rules follow the public Tribes framework (GAIGResearch/Tribes, ``src/core``); see
docs/tribes.md for what is implemented, what differs and what is left out. Both
players see the whole state (no fog of war); each tribe still keeps the set of
tiles it has *explored*, because exploring scores points (5 a tile) and gates roads
and the Eye of God, as in the framework.

State layout: flat Python lists indexed by tile (``y * size + x``), unit slot, city
id or seat, so that ``clone`` is a few dozen list copies (no object graph). Units
never leave their slot; a dead unit has type −1. Static data (neighbour lists,
the level, which tile holds which city) lives in a shared ``Board``.

Actions are tuples of ints, the first the action type (constants.ACTION_NAMES):
  (END_TURN,) (RESEARCH, tech) (BUILD_ROAD, tile)
  (BUILD, city, tile, building) (SPAWN, city, unit_type) (LEVEL_UP, city, bonus)
  (RESOURCE, city, tile) (BURN_FOREST, city, tile) (CLEAR_FOREST, city, tile)
  (GROW_FOREST, city, tile) (DESTROY, city, tile)
  (MOVE, unit, tile) (ATTACK, unit, target) (CAPTURE, unit) (RECOVER, unit)
  (EXAMINE, unit) (HEAL_OTHERS, unit) (UPGRADE, unit) (MAKE_VETERAN, unit)
  (CONVERT, unit, target) (DISBAND, unit)
A player acts until it plays END_TURN; a round is both players' turns; the game
ends when a tribe loses its capital (capture win) or after ``turn_limit`` rounds
(score win: higher score, then more technologies; else a draw).
"""

from __future__ import annotations

import math
import random
from itertools import groupby
from operator import itemgetter
from typing import Any

from ..api import two_player_returns
from .constants import (
    ACTION_NAMES,
    ALL_TECHS,
    ALLEGIANCE_MAX,
    ALTAR_OF_PEACE,
    ALTAR_OF_PEACE_TURNS,
    AQUATISM,
    ARCHER,
    ARCHERY,
    ATTACK,
    ATTACK_MODIFIER,
    ATTACK_REPERCUSSION,
    ATTACKED,
    BATTLESHIP,
    BOAT,
    BOOSTED_BY,
    BOOSTS,
    BORDER_GROWTH,
    BUILD,
    BUILD_ROAD,
    BUILDING_COST,
    BUILDING_NAMES,
    BUILDING_POP,
    BUILDING_RESOURCE,
    BUILDING_TECH,
    BUILDING_TERRAIN,
    BURN_FOREST,
    BURN_FOREST_COST,
    CAPTURE,
    CAPTURE_REPERCUSSION,
    CHIVALRY,
    CITY,
    CITY_BORDER_POINTS,
    CITY_CENTRE_POINTS,
    CITY_LEVEL_UP_PARK,
    CITY_LEVEL_UP_POP_GROWTH,
    CITY_LEVEL_UP_RESOURCES,
    CITY_LEVEL_UP_WORKSHOP_PROD,
    CITY_WALL,
    CLEAR_FOREST,
    CLEAR_FOREST_STARS,
    CLEAR_VIEW_POINTS,
    CLIMBING,
    CONSTRUCTION,
    CONVERT,
    CONVERT_REPERCUSSION,
    CROPS,
    CUSTOM_HOUSE,
    DASH_UNITS,
    DECLARE_WAR,
    DEEP,
    DEFENCE_BONUS,
    DEFENCE_IN_WALLS,
    DEFENDER,
    DESTROY,
    DISBAND,
    EMPERORS_TOMB,
    EMPERORS_TOMB_STARS,
    END_TURN,
    EXAMINE,
    EXPLORER,
    EXPLORER_STEPS,
    EYE_OF_GOD,
    FARM,
    FINISHED,
    FIRST_CITY_CLEAR_RANGE,
    FOREST,
    FORESTRY,
    FORGE,
    FREE_SPIRIT,
    FRESH,
    GATE_OF_POWER,
    GATE_OF_POWER_KILLS,
    GATHER,
    GRAND_BAZAR,
    GRAND_BAZAR_CITIES,
    GROW_FOREST,
    GROW_FOREST_COST,
    HEAL_OTHERS,
    INITIAL_STARS,
    KNIGHT,
    LEVEL_UP,
    LEVEL_UP_NAMES,
    LUMBER_HUT,
    MAKE_VETERAN,
    MAX_STARS_SENT,
    MEDITATION,
    MELEE,
    MIN_STARS_SEND,
    MIND_BENDER,
    MINDBENDER_HEAL,
    MINE,
    MONUMENT_POINTS,
    MONUMENTS,
    MOUNTAIN,
    MOVE,
    MOVED,
    MOVED_AND_ATTACKED,
    NAVAL,
    NAVIGATION,
    NO_BUILDING,
    NO_RES,
    NUM_TECHS,
    ONE_ACTION_UNITS,
    PARK,
    PARK_OF_FORTUNE,
    PARK_OF_FORTUNE_LEVEL,
    PLAIN,
    POINTS_PER_POPULATION,
    POP_GROWTH,
    PORT,
    PORT_TRADE_DISTANCE,
    PROD_CAPITAL_BONUS,
    PUSHED,
    RECOVER,
    RECOVER_IN_BORDERS_PLUS_HP,
    RECOVER_PLUS_HP,
    RESEARCH,
    RESOURCE,
    RESOURCES,
    RIDER,
    ROAD_COST,
    ROADS,
    RUINS,
    SAILING,
    SAWMILL,
    SEND_STARS,
    SHALLOW,
    SHIP,
    SPAWN,
    SPAWNABLE,
    SPIRITUALISM,
    SUPER,
    SUPERUNIT,
    SWORDMAN,
    TECH_BASE_COST,
    TECH_DISCOUNT,
    TECH_NAMES,
    TECH_PARENT,
    TECH_TIER,
    TECH_TIER_POINTS,
    TEMPLE_LEVEL_POINTS,
    TEMPLE_MAX_LEVEL,
    TEMPLE_POINTS,
    TEMPLE_TURNS_TO_SCORE,
    TEMPLES,
    TERRAIN_CHARS,
    TOWER_OF_WISDOM,
    TRIBES,
    TURN_LIMIT,
    UNIQUE_PER_CITY,
    UNIT_ATK,
    UNIT_COST,
    UNIT_DEF,
    UNIT_HP,
    UNIT_MOV,
    UNIT_NAMES,
    UNIT_POINTS,
    UNIT_RANGE,
    UNIT_TECH,
    UPGRADE,
    VETERAN_KILLS,
    VETERAN_PLUS_HP,
    VILLAGE,
    WARRIOR,
    WATER,
    WINDMILL,
    WORKSHOP,
    level_up_options,
    level_up_points,
)
from .levels import (
    DEFAULT_SIZE,
    NUM_LEVELS,
    Level,
    generate_level,
    java_level_names,
    load_java_level,
)

RULES_VERSION = 3
"""The default rules (``Tribes(rules=...)``): 3, ours as documented; 4, the framework's
game as it plays at commit 270e7e5 (its score, full observability; see docs/tribes.md)."""
RULES_VERSIONS = (3, 4)
"""Which rule set games are played under; bump it with any change that changes play, so
result files never mix games of two rule sets. 1: before the framework fixes of commit
a34b11f (level-up first and alone, idle units recover at the end of the turn, an
occupied city yields no stars, the full turn-limit ranking); 2: from then; 3: the trade
network, unit abilities (dash, escape, persist, one action), temples growing, pushed
units starting their turn as moved, level-ups in the order cities were acquired, units
handed between cities on a capture. A logged game without a version was played under
version 1."""

_N_STATUS = 6
_NUM_UNIT_TYPES = len(UNIT_ATK)


def _status_table(rule) -> tuple:
    return tuple(tuple(rule(ut, st) for st in range(_N_STATUS)) for ut in range(_NUM_UNIT_TYPES))


def _can_move(ut: int, st: int) -> bool:
    """``Unit.canTransitionTo(MOVED)``: fresh units; a rider also after attacking (escape)."""
    return st == FRESH or (ut == RIDER and st in (ATTACKED, MOVED_AND_ATTACKED))


def _can_attack(ut: int, st: int) -> bool:
    """``Unit.canTransitionTo(ATTACKED)``: fresh units; after moving, all but defenders,
    catapults and mind benders (dash, and riders and knights); a knight whose attack
    killed (persist: ``Unit.addKill`` sets it ATTACKED) again."""
    if st == FRESH:
        return True
    if st == MOVED:
        return ut not in ONE_ACTION_UNITS
    return st == ATTACKED and ut == KNIGHT


def _after_move(ut: int, st: int) -> int:
    """``Unit.transitionToStatus(MOVED)``."""
    if ut in ONE_ACTION_UNITS:
        return FINISHED
    if ut == RIDER:
        return {FRESH: MOVED, ATTACKED: MOVED_AND_ATTACKED}.get(st, FINISHED)
    return MOVED


def _after_attack(ut: int, st: int) -> int:
    """``Unit.transitionToStatus(ATTACKED)``: a rider keeps its escape move."""
    if ut == RIDER:
        return ATTACKED if st == FRESH else MOVED_AND_ATTACKED
    return FINISHED


_CAN_MOVE = _status_table(_can_move)
_CAN_ATTACK = _status_table(_can_attack)
_AFTER_MOVE = _status_table(_after_move)
_AFTER_MOVE_FRAMEWORK = tuple(
    tuple(FINISHED if (ut == RIDER and st == ATTACKED) or ut == SUPERUNIT else after
          for st, after in enumerate(row))
    for ut, row in enumerate(_AFTER_MOVE))
"""Rules version 4: ``Unit.transitionToStatus(MOVED)`` as written, its checks in sequence:
a rider that attacked and then moves becomes MOVED_AND_ATTACKED and at once FINISHED
(attack–move–move is not possible there; move–attack–move is), and a superunit is
finished by moving (``transitionToStatus`` lists it with the move-or-attack units, while
``canTransitionTo`` gives it the dash). Framework bugs, kept."""
_AFTER_ATTACK = _status_table(_after_attack)
assert set(DASH_UNITS) | set(ONE_ACTION_UNITS) | {RIDER, KNIGHT} == set(range(_NUM_UNIT_TYPES))
_PUSH_ORDER = ((0, 1), (-1, 0), (0, -1), (1, 0), (-1, 1), (-1, -1), (1, -1), (1, 1))
"""(dx, dy) in the order ``Board.pushUnit`` tries the tiles around a pushed unit."""

MONUMENT_INDEX = {m: i for i, m in enumerate(MONUMENTS)}
UNAVAILABLE, AVAILABLE, BUILT = 0, 1, 2
STAT_ATTACKS = 8
STAT_LEN = 9
"""Per-tribe play log in the state: spawns per spawnable unit type (index = type), attacks."""
_MASK64 = (1 << 64) - 1
_TECH_PARENT_OF = tuple(TECH_PARENT.get(t, -1) for t in range(NUM_TECHS))

def _build_table() -> tuple:
    """(terrain, resource) -> buildings placeable there: (building, cost, tech bit, unique,
    monument index or −1); the generator then only tests stars, techs and uniqueness."""
    table = []
    for ter in range(7):
        row = []
        for res in range(8):
            options = []
            for bt, cost in BUILDING_COST.items():
                if ter in BUILDING_TERRAIN[bt] and res == BUILDING_RESOURCE.get(bt, NO_RES):
                    need = BUILDING_TECH[bt]
                    options.append((bt, cost, (1 << need) if need >= 0 else 0,
                                    bt in UNIQUE_PER_CITY, MONUMENT_INDEX.get(bt, -1)))
            row.append(tuple(options))
        table.append(tuple(row))
    return tuple(table)


_BUILD_TABLE = _build_table()


def _build_table_framework() -> tuple:
    """Rules version 4's ``_BUILD_TABLE`` (``Build.isBuildable``): only farms (crops) and
    mines (ore) ask for a resource, every other building stands on any; each option also
    names the building a neighbouring tile must hold (windmill: farm, forge: mine,
    sawmill: lumber hut, custom house: port; else −1)."""
    table = []
    for ter in range(7):
        row = []
        for res in range(8):
            options = []
            for bt, cost in BUILDING_COST.items():
                needed_res = BUILDING_RESOURCE.get(bt)
                if ter in BUILDING_TERRAIN[bt] and (needed_res is None or res == needed_res):
                    need = BUILDING_TECH[bt]
                    options.append((bt, cost, (1 << need) if need >= 0 else 0,
                                    bt in UNIQUE_PER_CITY, MONUMENT_INDEX.get(bt, -1),
                                    BOOSTED_BY[bt][0] if bt in BOOSTED_BY else -1))
            row.append(tuple(options))
        table.append(tuple(row))
    return tuple(table)


_BUILD_TABLE_FRAMEWORK = _build_table_framework()
_BASE_BONUS = {FARM: 2, LUMBER_HUT: 1, MINE: 2, PORT: 2, WINDMILL: 1, SAWMILL: 1, FORGE: 2,
               CUSTOM_HOUSE: 2}
"""``Types.BUILDING.getBonus`` of the producing buildings and their boosters."""
_MATCHING = {FARM: WINDMILL, WINDMILL: FARM, LUMBER_HUT: SAWMILL, SAWMILL: LUMBER_HUT,
             MINE: FORGE, FORGE: MINE, PORT: CUSTOM_HOUSE, CUSTOM_HOUSE: PORT}
"""``Types.BUILDING.getMatchingBuilding``."""
_TECH_BIT = tuple(1 << t for t in range(NUM_TECHS))
_PARENT_BIT = tuple((1 << TECH_PARENT[t]) if t in TECH_PARENT else 0 for t in range(NUM_TECHS))
_SPAWN_REQ = tuple((ut, UNIT_COST[ut], (1 << UNIT_TECH[ut]) if UNIT_TECH[ut] >= 0 else 0)
                   for ut in SPAWNABLE)
_NUM_MONUMENTS = len(MONUMENTS)
_ECON_ACTIONS = frozenset((BUILD, RESOURCE, BURN_FOREST, CLEAR_FOREST, GROW_FOREST,
                           DESTROY, CAPTURE, EXAMINE))
"""Actions that change what the cached tile actions depend on (besides stars and techs);
a road changes only its own candidate, which ``_execute`` takes out of the cache."""


_RESEARCH_MEMO: dict[tuple[int, bool, bool, bool], tuple] = {}
_RESEARCH_QUICK: dict[tuple[int, int, int], tuple] = {}
_SPAWN_MEMO: dict[tuple[int, int], tuple] = {}
_MAX_UNIT_COST = max(cost for _, cost, _ in _SPAWN_REQ)
_LAND_BLOCKED = tuple(
    tuple(1 if ter == DEEP or (ter == MOUNTAIN and not climbing) else 2 if ter == SHALLOW
          else 0 for ter in range(7)) for climbing in (0, 1))
"""A land unit's step onto a terrain, by Climbing: 0 free, 1 barred, 2 only onto a port of
its tribe."""
_FRAMEWORK_BLOCKED = tuple(
    tuple(1 if (ter == MOUNTAIN and not k & 1) or (ter == SHALLOW and not k & 2)
          or (ter == DEEP and not k & 4) else 2 if ter in (SHALLOW, DEEP)
          else 3 if ter == CITY else 0 for ter in range(7)) for k in range(8))
"""Rules version 4: a land unit's step onto a terrain, by Climbing | Sailing << 1 |
Navigation << 2 (``Board.traversable``): 0 free, 1 barred, 2 only onto a port (any
tribe's), 3 a city (barred to a mind bender when not its tribe's)."""
_ONE_TILE_ECON = frozenset((BUILD, DESTROY, RESOURCE, CLEAR_FOREST, BURN_FOREST, GROW_FOREST))
"""City tile actions ``(kind, city, tile, ...)`` that change that tile only (of what a
unit's moves depend on)."""
_FORTIFY = frozenset((WARRIOR, RIDER, ARCHER, DEFENDER, SWORDMAN, KNIGHT))
"""Rules version 4: the units with the framework's fortify bonus in a city without walls."""
_CITY_TECHS = sum(1 << t for t in {CONSTRUCTION, FORESTRY, CHIVALRY, SPIRITUALISM}
                  | {tech for tech, _, _, _ in GATHER.values()}
                  | {tech for tech in BUILDING_TECH.values() if tech >= 0})
"""The technologies the tile actions of cities depend on (roads: Roads only)."""
_SEGMENT_TECHS = (1 << CLIMBING) | (1 << FREE_SPIRIT) | (1 << SAILING) | (1 << NAVIGATION)
"""The technologies a unit's actions depend on."""


def _research_actions(techs: int, stars: int, ncities: int, framework: bool = False) -> tuple:
    """The research actions open to a tribe, memoised: they depend only on its
    technologies and on which of the three tier costs its stars cover (looked up by
    technologies, stars and cities first, which saves working out the costs)."""
    quick = (techs, stars, ncities, framework)
    acts = _RESEARCH_QUICK.get(quick)
    if acts is not None:
        return acts
    if len(_RESEARCH_QUICK) > 200_000:
        _RESEARCH_QUICK.clear()
    key = (techs, tech_cost(1, ncities, techs, framework) <= stars,
           tech_cost(2, ncities, techs, framework) <= stars,
           tech_cost(3, ncities, techs, framework) <= stars)
    acts = _RESEARCH_MEMO.get(key)
    if acts is None:
        affordable = (False, *key[1:])
        acts = _RESEARCH_MEMO[key] = tuple(
            (RESEARCH, tech) for tech in range(NUM_TECHS)
            if (not techs & _TECH_BIT[tech] and techs & _PARENT_BIT[tech] == _PARENT_BIT[tech]
                and affordable[TECH_TIER[tech]]))
    _RESEARCH_QUICK[quick] = acts
    return acts


def _spawnable(techs: int, stars: int) -> tuple:
    """Unit types a city may spawn with these technologies and stars (memoised)."""
    key = (techs, min(stars, _MAX_UNIT_COST))
    types = _SPAWN_MEMO.get(key)
    if types is None:
        types = _SPAWN_MEMO[key] = tuple(ut for ut, cost, need in _SPAWN_REQ
                                         if cost <= stars and techs & need == need)
    return types


_KIND = itemgetter(0)
_SPAWN_ACTS: dict[tuple[int, tuple], tuple] = {}


def _tile_entry(road_key: int, roads: tuple, city_key: int, city: tuple) -> tuple:
    """A tribe's cached tile actions: (road key, roads, city key, cities' tile actions,
    both with their costs, the dearest cost, stars key, affordable actions)."""
    candidates = roads + city
    return (road_key, roads, city_key, city, candidates,
            max([need for _, need in candidates], default=0), None, None)


def _spawn_actions(city: int, types: tuple) -> tuple:
    """The spawn actions of ``city`` for these unit types (memoised)."""
    key = (city, types)
    acts = _SPAWN_ACTS.get(key)
    if acts is None:
        acts = _SPAWN_ACTS[key] = tuple((SPAWN, city, ut) for ut in types)
    return acts


def group_actions(actions) -> list[tuple]:
    """Actions by (type, actor) as [(type, actor, actions)], in order of first appearance
    (actor −1 for END_TURN, RESEARCH, BUILD_ROAD and diplomacy, else ``action[1]``)."""
    groups: dict[tuple[int, int], list] = {}
    for a in actions:
        k = a[0]
        key = (k, a[1]) if BUILD_ROAD < k < DECLARE_WAR else (k, -1)
        g = groups.get(key)
        if g is None:
            groups[key] = [a]
        else:
            g.append(a)
    return [(k, actor, tuple(g)) for (k, actor), g in groups.items()]


_DIPLOMACY_GROUPS: dict[tuple[int, int], list[tuple]] = {}


def _diplomacy_groups(diplo: tuple) -> list[tuple]:
    """``group_actions`` of a diplomacy list (memoised: the list is fixed by whether it
    offers DECLARE_WAR and by its length)."""
    key = (diplo[0][0], len(diplo))
    groups = _DIPLOMACY_GROUPS.get(key)
    if groups is None:
        groups = _DIPLOMACY_GROUPS[key] = group_actions(diplo)
    return groups


def _search_only(entry: list) -> list:
    """A unit's carried entry reduced to its moves' search (and that search's radius):
    ``_unit_part`` builds the unit's actions, groups and memo again around it."""
    return [None, entry[1], None, None, entry[4]]


def _runs(seg: tuple, u: int) -> tuple:
    """The groups of one unit's actions, whose types come in runs."""
    return tuple([(kind, u, tuple(run)) for kind, run in groupby(seg, _KIND)])


class Board:
    """Static data of one level, shared by every state of a game (never mutated)."""

    def __init__(self, level: Level, rules: int = RULES_VERSION) -> None:
        self.level = level
        self.rules = rules
        """Rules version of every state on this board (see ``RULES_VERSIONS``)."""
        self.size = size = level.size
        self.n = n = size * size
        self.nbr = tuple(tuple(sorted(self._ring(t, 1))) for t in range(n))
        self.nbr_get = tuple(itemgetter(*ts) for ts in self.nbr)
        """``nbr_get[t](tiles)``: the tuple of ``tiles[m]`` over t's neighbours (every tile
        has at least three, so always a tuple), read at C speed."""
        self.within = tuple(tuple(tuple(self._ring(t, r)) for t in range(n)) for r in range(4))
        self.city_pos = tuple(level.capitals) + tuple(level.villages)
        city_at = [-1] * n
        for c, t in enumerate(self.city_pos):
            city_at[t] = c
        self.city_at = tuple(city_at)
        self.capital_city = (0, 1)
        self.dist = tuple(tuple(max(abs(a % size - b % size), abs(a // size - b // size))
                                for b in range(n)) for a in range(n))
        """Chebyshev distance between tiles, dist[a][b]."""

    def _ring(self, t: int, radius: int):
        size = self.size
        x, y = t % size, t // size
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                    yield (y + dy) * size + x + dx

    def cheb(self, a: int, b: int) -> int:
        return self.dist[a][b]


def tech_cost(tier: int, num_cities: int, techs: int, framework: bool = False) -> int:
    """Technology cost: tier × cities + 4, 20% off once Philosophy is researched
    (rounded up). ``framework`` (rules version 4): the framework's
    ``TECHNOLOGY.getCost``, which with Philosophy charges 20% of the cost, rounded down
    (its ``TECH_DISCOUNT_VALUE`` 0.2 is applied as the price, not the discount: a bug)."""
    cost = tier * max(1, num_cities) + TECH_BASE_COST
    if techs >> 23 & 1:  # PHILOSOPHY
        if framework:
            return int(cost * TECH_DISCOUNT)
        cost = int(math.ceil(cost * (1.0 - TECH_DISCOUNT)))
    return cost


def researchable(techs: int, tech: int) -> bool:
    parent = _TECH_PARENT_OF[tech]
    return not techs >> tech & 1 and (parent < 0 or techs >> parent & 1)


def combat(atk: int, atk_hp: int, atk_max: int, dfn: int, def_hp: int, def_max: int,
           defence_mult: float, framework: bool = False) -> tuple[int, int]:
    """(damage to the defender, retaliation damage) as in the framework's AttackCommand;
    ``framework`` (rules version 4) also takes its order of floating-point operations
    (the hp fraction first), which decides a few roundings at .5."""
    if framework:
        attack_force = atk * (atk_hp / atk_max)
        defence_force = dfn * (def_hp / def_max) * defence_mult
    else:
        attack_force = atk * atk_hp / atk_max
        defence_force = dfn * def_hp / def_max * defence_mult
    total = attack_force + defence_force
    attack_result = _java_round(attack_force / total * atk * ATTACK_MODIFIER)
    defence_result = _java_round(defence_force / total * dfn * ATTACK_MODIFIER)
    return attack_result, defence_result


def _java_round(x: float) -> int:
    """Java's Math.round (half up), not Python's banker's rounding."""
    return int(math.floor(x + 0.5))


_SLOTS = ("b", "turn_limit", "terrain", "resource", "building", "road", "owner", "unit_at",
          "explored", "n_explored", "u_type", "u_base", "u_pos", "u_hp", "u_tribe", "u_city",
          "u_kills", "u_vet", "u_status", "u_join", "c_tribe", "c_level", "c_pop", "c_prod",
          "c_walls", "c_nunits", "c_worth", "c_radius", "c_built", "stars", "score", "techs",
          "kills", "pacifist", "monuments", "connected", "c_order", "temples", "turn", "player",
          "moves", "over", "won_by", "rng",
          "_legal_list", "_legal_set", "stats", "econ", "_tile_cache", "_territory",
          "_tiles_shared", "_segs", "_pending", "_head", "_groups", "_tile_groups",
          "_net_clean", "_net_reach", "diplo", "foreign")
_LIST_FIELDS = ("terrain", "resource", "building", "road", "owner", "unit_at", "n_explored",
                "u_type", "u_base", "u_pos", "u_hp", "u_tribe", "u_city", "u_kills", "u_vet",
                "u_status", "u_join", "c_tribe", "c_level", "c_pop", "c_prod", "c_walls",
                "c_nunits", "c_worth", "c_radius", "c_built", "stars", "score", "techs", "kills",
                "pacifist", "monuments", "connected", "c_order", "temples")


class TribesState:
    """A Tribes position; ``apply_action`` mutates it in place, ``clone`` copies lists."""

    __slots__ = _SLOTS

    # ---- construction -----------------------------------------------------------------
    @classmethod
    def initial(cls, board: Board, seed: int = 0, turn_limit: int = TURN_LIMIT) -> TribesState:
        s = cls.__new__(cls)
        lv = board.level
        n = board.n
        s.b, s.turn_limit = board, turn_limit
        s.terrain, s.resource = list(lv.terrain), list(lv.resource)
        s.building, s.road = [NO_BUILDING] * n, [0] * n
        s.owner, s.unit_at = [-1] * n, [-1] * n
        s.explored, s.n_explored = bytearray(2 * n), [0, 0]
        for name in ("u_type", "u_base", "u_pos", "u_hp", "u_tribe", "u_city", "u_kills",
                     "u_vet", "u_status", "u_join"):
            setattr(s, name, [])
        ncity = len(board.city_pos)
        s.c_tribe = [-1] * ncity
        s.c_level, s.c_pop, s.c_prod = [1] * ncity, [0] * ncity, [0] * ncity
        s.c_walls, s.c_nunits, s.c_worth = [0] * ncity, [0] * ncity, [0] * ncity
        s.c_radius, s.c_built = [1] * ncity, [0] * ncity
        s.stars, s.score, s.techs = [INITIAL_STARS] * 2, [0, 0], [0, 0]
        s.kills, s.pacifist = [0, 0], [0, 0]
        s.monuments = [UNAVAILABLE] * (2 * len(MONUMENTS))
        s.connected = [0, 0]  # per tribe, a bit per city connected to its capital
        s.c_order = [0] * ncity  # when the city was acquired (its tribe's city order)
        s.temples = []  # per temple: tile, level, turns to its next level
        s.turn, s.player, s.moves, s.over, s.won_by = 0, 0, 0, False, None
        s.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64
        s._legal_list = s._legal_set = None
        s._segs = s._pending = s._head = s._groups = s._tile_groups = None
        s.econ, s._tile_cache, s._territory = 0, [None, None], None
        s._tiles_shared = False
        s._net_clean, s._net_reach = 0, [None, None]
        s.stats = [[0] * STAT_LEN, [0] * STAT_LEN]
        s.diplo = [0] * 10  # rules 4: allegiances 00 01 10 11, declared, sent, wars per tribe
        s.foreign = ()  # rules 4: (tile, city) pairs, see ``_listing_city``
        framework = board.rules >= 4
        if framework:  # full observability as the framework plays: nothing left to explore
            s.explored, s.n_explored = bytearray(b"\x01" * (2 * n)), [n, n]
        for p in (0, 1):
            tribe = lv.tribes[p]
            _, tech, unit = TRIBES[tribe]
            s.techs[p] = 1 << tech
            city = board.capital_city[p]
            s.c_tribe[city] = p
            s.terrain[board.city_pos[city]] = CITY
            s._claim(city)
            s._explore(p, board.city_pos[city], FIRST_CITY_CLEAR_RANGE)
            s._new_unit(unit, board.city_pos[city], p, city, FINISHED)
            if framework:
                s.score[p] += (TECH_TIER_POINTS * TECH_TIER[tech] + CITY_CENTRE_POINTS
                               + UNIT_POINTS[unit])
        for u in range(len(s.u_type)):  # the first player starts with fresh units
            if s.u_tribe[u] == 0:
                s.u_status[u] = FRESH
        return s

    def clone(self) -> TribesState:
        s = TribesState.__new__(TribesState)
        s.b, s.turn_limit = self.b, self.turn_limit
        # terrain, resources, buildings, roads and territory change rarely: copy on write
        s.terrain, s.resource, s.building = self.terrain, self.resource, self.building
        s.road, s.owner = self.road, self.owner
        s._tiles_shared = self._tiles_shared = True
        s.unit_at = self.unit_at[:]
        s.explored, s.n_explored = self.explored[:], self.n_explored[:]
        s.u_type, s.u_base, s.u_pos = self.u_type[:], self.u_base[:], self.u_pos[:]
        s.u_hp, s.u_tribe, s.u_city = self.u_hp[:], self.u_tribe[:], self.u_city[:]
        s.u_kills, s.u_vet, s.u_status = self.u_kills[:], self.u_vet[:], self.u_status[:]
        s.u_join = self.u_join[:]
        s.c_tribe, s.c_level, s.c_pop = self.c_tribe[:], self.c_level[:], self.c_pop[:]
        s.c_prod, s.c_walls, s.c_nunits = self.c_prod[:], self.c_walls[:], self.c_nunits[:]
        s.c_worth, s.c_radius, s.c_built = self.c_worth[:], self.c_radius[:], self.c_built[:]
        s.stars, s.score, s.techs = self.stars[:], self.score[:], self.techs[:]
        s.kills, s.pacifist, s.monuments = self.kills[:], self.pacifist[:], self.monuments[:]
        s.connected, s.c_order, s.temples = self.connected[:], self.c_order[:], self.temples[:]
        s.turn, s.player, s.moves = self.turn, self.player, self.moves
        s.over, s.won_by, s.rng = self.over, self.won_by, self.rng
        s._legal_list, s._legal_set = self._legal_list, self._legal_set  # immutable once built
        s._segs, s._pending = self._segs, self._pending  # likewise
        s._head, s._groups, s._tile_groups = self._head, self._groups, self._tile_groups
        s.stats = [self.stats[0][:], self.stats[1][:]]
        s.econ, s._tile_cache, s._territory = self.econ, self._tile_cache[:], self._territory
        s._net_clean, s._net_reach = self._net_clean, self._net_reach
        s.diplo = self.diplo[:]
        s.foreign = self.foreign
        return s

    @property
    def _legal(self) -> list[tuple] | None:
        return self._legal_list

    @_legal.setter
    def _legal(self, value: list[tuple] | None) -> None:
        """Code outside the forward model that edits a state by hand resets ``_legal``
        (and ``_legal_set``) to None; that must drop the carried unit segments and the
        kept trade-network reach too."""
        self._legal_list = value
        self._segs = self._pending = self._head = self._groups = None
        self._net_clean = 0  # the kept trade-network reach may be stale too

    # ---- API --------------------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.over else self.player

    def is_terminal(self) -> bool:
        return self.over

    def winner(self) -> int | None:
        return self.won_by

    def is_capped(self) -> bool:
        return False

    def move_number(self) -> int:
        return self.moves

    def returns(self) -> list[float]:
        return two_player_returns(self.won_by) if self.over else [0.0, 0.0]

    def legal_actions(self) -> list[tuple]:
        if self.over:
            return []
        if self._legal_list is None:
            self._legal_list = self._generate()
        return self._legal_list

    def legal_groups(self) -> list[tuple]:
        """The legal actions by (action type, actor) as [(type, actor, actions)], groups
        in the order of their first action in ``legal_actions()`` and actions in its
        order; the actor is −1 for END_TURN, RESEARCH and BUILD_ROAD, else the city or
        unit of ``action[1]``. Built from the pieces ``_generate`` assembled the list
        from (the portfolio's scripts work on these groups)."""
        groups = self._groups
        if groups is not None:
            return groups
        if self.over:
            return []
        legal = self.legal_actions()
        head, parts = self._head, self._segs
        if head is None or parts is None:
            self._groups = groups = group_actions(legal)
            return groups
        research, spawns, tiles, _, diplo = head
        groups = [(END_TURN, -1, ((END_TURN,),))]
        if research:
            groups.append((RESEARCH, -1, research))
        if diplo:
            groups.extend(_diplomacy_groups(diplo))
        groups.extend(spawns)
        if tiles:
            cached = self._tile_groups
            if cached is None or cached[0] is not tiles:
                cached = self._tile_groups = (tiles, group_actions(tiles), {})
            groups.extend(cached[1])
        active, entries, _ = parts
        for u in active:
            entry = entries[u]
            g = entry[2]
            if g is None:
                g = entry[2] = _runs(entry[0], u)
            groups.extend(g)
        self._groups = groups
        return groups

    def unit_memo(self, u: int) -> dict:
        """A dict for what a player derives from unit ``u``'s legal actions (u of the
        player to move, with actions), kept as long as those actions are carried from
        state to state: over moves, spawns, recoveries of other units, roads and
        research. Over those, u itself, the enemy units, the cities (but their
        population, which a road joining the trade network changes), the tiles (but
        roads) and the enemy's technologies stay the same; the player's other units,
        stars, technologies and roads may change."""
        self.legal_actions()
        entry = self._segs[1][u]
        memo = entry[3]
        if memo is None:
            memo = entry[3] = {}
        return memo

    def tile_memo(self) -> dict:
        """A dict for what a player derives from the roads and cities' tile actions of
        the player to move, kept with them: they are one cached tuple as long as the
        tiles, buildings, roads, territory, cities, technologies and (up to the dearest)
        stars stay the same."""
        self.legal_groups()
        return self._tile_groups[2]

    def tile_candidates(self) -> tuple[tuple, tuple]:
        """The player to move's road candidates and its cities' tile candidates (each
        action with its cost, before the stars filter them), as ``_generate`` caches
        them: each stays the same tuple (``is``) as long as what it was derived from does
        (roads: the economy counter and the roads; cities: the economy counter, which
        every change of terrain, resources, buildings and territory bumps, and the
        technologies), so a player can key what it derives from them on their identity."""
        self.legal_groups()
        cached = self._tile_cache[self.player]
        return ((), ()) if cached is None else (cached[1], cached[3])

    def is_legal(self, action) -> bool:
        if self.over:
            return False
        legal_set = self._legal_set
        if legal_set is not None:
            try:
                return action in legal_set
            except TypeError:
                return False
        # one question: a scan of the list is cheaper than hashing it into a set
        return action in self.legal_actions()

    def apply_action(self, action) -> None:
        """Play a legal action; under rules version 4 also one the framework's ``Game``
        executes without offering it (``is_feasible``, applied by ``apply_feasible``)."""
        if self.over:
            raise ValueError(f"illegal action {action!r}: the game is over")
        legal_set = self._legal_set
        if legal_set is None:
            legal_set = self._legal_set = frozenset(self.legal_actions())
        try:
            ok = action in legal_set
        except TypeError:
            ok = False
        if not ok:
            if self.b.rules >= 4 and self.is_feasible(action):  # the framework's Game plays it
                self.apply_feasible(action)
                return
            raise ValueError(f"illegal action {action!r} for player {self.player}")
        self.apply_legal(action)

    def apply_legal(self, action) -> None:
        """``apply_action`` for an action taken from this state's ``legal_actions()``
        (the searches do nothing else): the same effect without the membership check,
        which costs a set of the legal list per step of a rollout."""
        # what the next legal list can take from this one, worked out when it is needed
        self._pending = (self._segs, self._head, action,
                         self.u_pos[action[1]] if MOVE <= action[0] <= DISBAND else -1) \
            if self._legal_list is not None else None
        self._legal_list = self._legal_set = self._groups = None
        self.moves += 1
        self._execute(action)

    def is_feasible(self, action) -> bool:
        """Whether ``action`` may be applied from outside with ``apply_feasible``: a legal
        action, or under rules version 4 one the framework's ``Game`` executes although
        its action lists never offer it (``Action.isFeasible``, looser than the lists):
        any action legal once the pending level-ups are waived, the level-up of any city
        that has one due, a building on any tile of the board, with a building or not
        (``Build.isFeasible``: stars, technology, terrain, resource, neighbour,
        uniqueness among the city's tiles, monument available), gathering a resource on
        any tile (``ResourceGathering.isFeasible``), sending 15 stars (``SendStars``
        allows up to 15, ``SendStarsFactory`` offers up to 14), and the other tribe's
        declaration of war on the player to move or its stars sent to it, in the
        player's turn (``(DECLARE_WAR, tribe)``, ``(SEND_STARS, n, tribe)``, tribe
        ``tribe`` acting: a tribe action acts for the tribe it names, and the
        framework's RHEA may return one it planned for the opponent's turn). Our players
        are offered ``legal_actions()`` only; the framework's RHEA plays these."""
        if self.is_legal(action):
            return True
        if self.over or self.b.rules < 4:
            return False
        try:
            return self._feasible_unoffered(tuple(action))
        except (TypeError, IndexError, ValueError):
            return False

    def _feasible_unoffered(self, a: tuple) -> bool:
        p, kind = self.player, a[0]
        n, ncities = self.b.n, len(self.c_tribe)
        if kind == BUILD and len(a) == 4:
            _, c, t, bt = a
            if not (0 <= c < ncities and self.c_tribe[c] == p and 0 <= t < n):
                return False
            option = next((o for o in _BUILD_TABLE_FRAMEWORK[self.terrain[t]][self.resource[t]]
                           if o[0] == bt), None)
            if option is None:
                return False
            _, cost, need, unique, mon, beside = option
            building = self.building
            return (self.stars[p] >= cost and self.techs[p] & need == need
                    and not (unique and any(building[m] == bt for m in self._city_tiles()[c]))
                    and not (mon >= 0 and self.monuments[p * _NUM_MONUMENTS + mon] != AVAILABLE)
                    and not (beside >= 0 and not any(building[m] == beside
                                                     for m in self.b.nbr[t])))
        if kind == RESOURCE and len(a) == 3:
            _, c, t = a
            if not (0 <= c < ncities and self.c_tribe[c] == p and 0 <= t < n):
                return False
            gather = GATHER.get(self.resource[t])
            return gather is not None and bool(self.techs[p] >> gather[0] & 1) \
                and self.stars[p] >= gather[1]
        if kind == DECLARE_WAR and len(a) == 2:
            q = a[1]
            return q in (0, 1) and not self.diplo[4 + q] \
                and self.diplo[2 * q + 1 - q] > -ALLEGIANCE_MAX / 2.0
        if kind == SEND_STARS and len(a) in (2, 3):
            q = a[2] if len(a) == 3 else p
            return q in (0, 1) and isinstance(a[1], int) and 1 <= a[1] <= MIN_STARS_SEND \
                and a[1] < self.stars[q] and self.diplo[6 + q] < MAX_STARS_SENT
        due = [c for c in self.cities_of(p) if self.c_pop[c] >= self.c_level[c] + 1]
        if not due:
            return False
        if kind == LEVEL_UP:
            return len(a) == 3 and a[1] in due and a[2] in level_up_options(self.c_level[a[1]])
        waived = self.clone()
        for c in due:
            waived.c_pop[c] = 0
        waived._legal = waived._legal_set = None
        return a in waived.legal_actions()

    def apply_feasible(self, action) -> None:
        """Apply an action given from outside that ``is_feasible`` accepts, the
        framework's way (a replayed framework game): a building on a tile that already
        has one replaces it on the board while the old one's effects stay (the
        framework's city keeps it in its list; a temple keeps growing), a building
        outside the city's tiles gives its effects to the city named, gathering gives
        the city named its population, and the other tribe's declaration of war or
        stars sent count for that tribe (its allegiance, its wars declared, its
        declaration and stars sent this turn, which its next turn resets)."""
        if self.is_legal(action):
            self.apply_legal(action)
            return
        if not self.is_feasible(action):
            raise ValueError(f"infeasible action {action!r} for player {self.player}")
        action = tuple(action)
        self._legal = self._legal_set = None
        self.moves += 1
        self._execute(action)
        if action[0] == BUILD:
            _, c, t, _ = action
            foreign = self.foreign
            kept = tuple(v for i in range(0, len(foreign), 2) if foreign[i] != t
                         for v in foreign[i:i + 2])
            self.foreign = kept + (t, c) if self.owner[t] != c else kept
            # a replaced building leaves its city's uniqueness bits
            tiles_of, building = self._city_tiles(), self.building
            for c in range(len(self.c_tribe)):
                built = 0
                for t in tiles_of[c]:
                    if building[t] in UNIQUE_PER_CITY:
                        built |= 1 << building[t]
                self.c_built[c] = built
        self._legal = self._legal_set = None

    def action_to_string(self, action) -> str:
        kind = action[0]
        name = ACTION_NAMES[kind]
        if kind == RESEARCH:
            return f"research {TECH_NAMES[action[1]]}"
        if kind == BUILD:
            return f"city {action[1]} build {BUILDING_NAMES[action[3]]} at {self._xy(action[2])}"
        if kind == SPAWN:
            return f"city {action[1]} spawn {UNIT_NAMES[action[2]]}"
        if kind == LEVEL_UP:
            return f"city {action[1]} level up ({LEVEL_UP_NAMES[action[2]]})"
        if kind in (RESOURCE, BURN_FOREST, CLEAR_FOREST, GROW_FOREST, DESTROY):
            return f"city {action[1]} {name} at {self._xy(action[2])}"
        if kind == BUILD_ROAD:
            return f"build road at {self._xy(action[1])}"
        if kind == MOVE:
            return f"{UNIT_NAMES[self.u_type[action[1]]]} {action[1]} move to {self._xy(action[2])}"
        if kind in (ATTACK, CONVERT):
            return f"unit {action[1]} {name} unit {action[2]}"
        if kind == END_TURN:
            return "end turn"
        if kind == DECLARE_WAR:
            return "declare war" if len(action) == 1 else f"tribe {action[1]} declares war"
        if kind == SEND_STARS:
            return f"send {action[1]} stars"
        return f"unit {action[1]} {name}"

    def _xy(self, t: int) -> str:
        return f"({t % self.b.size},{t // self.b.size})"

    # ---- queries used by players and tests ---------------------------------------------
    def cities_of(self, p: int) -> list[int]:
        return [c for c, t in enumerate(self.c_tribe) if t == p]

    def units_of(self, p: int) -> list[int]:
        return [u for u, t in enumerate(self.u_tribe) if t == p and self.u_type[u] >= 0]

    def city_production(self, c: int) -> int:
        """``City.getProduction``: level + workshops and custom houses (+1 for a capital),
        or the population while it is negative (a city cut off the trade network can
        fall below zero)."""
        pop = self.c_pop[c]
        if pop < 0:
            return pop
        total = self.c_level[c] + self.c_prod[c]
        if c == self.b.capital_city[self.c_tribe[c]]:
            total += PROD_CAPITAL_BONUS
        elif self.b.rules >= 4 and c < 2:  # the framework's City.isCapital stays on a
            total += PROD_CAPITAL_BONUS       # captured capital
        return total

    def production(self, p: int) -> int:
        total = 0
        for c, t in enumerate(self.c_tribe):
            if t == p:
                total += self.city_production(c)
        return total

    def income(self, p: int) -> int:
        """Stars ``p`` earns at the start of its turn: the production of its cities
        without an enemy unit on the city tile (``GameState.initTurn``)."""
        total = 0
        unit_at, u_tribe, city_pos = self.unit_at, self.u_tribe, self.b.city_pos
        for c, t in enumerate(self.c_tribe):
            if t == p:
                occupant = unit_at[city_pos[c]]
                if occupant >= 0 and u_tribe[occupant] != p:
                    continue
                total += self.city_production(c)
        return max(0, total)

    def num_techs(self, p: int) -> int:
        return bin(self.techs[p]).count("1")

    def num_tiles(self, p: int) -> int:
        c_tribe = self.c_tribe
        return sum(1 for o in self.owner if o >= 0 and c_tribe[o] == p)

    def max_hp(self, u: int) -> int:
        return UNIT_HP[self.u_base[u]] + VETERAN_PLUS_HP * self.u_vet[u]

    # ---- random numbers (a 64-bit LCG carried in the state, so clones replay chance) --------
    def _rand(self, k: int) -> int:
        self.rng = (self.rng * 6364136223846793005 + 1442695040888963407) & _MASK64
        return (self.rng >> 33) % k

    # ---- helpers that change the state ------------------------------------------------
    def _new_unit(self, unit_type: int, pos: int, p: int, city: int, status: int) -> int:
        u = len(self.u_type)
        self.u_type.append(unit_type)
        self.u_base.append(unit_type)
        self.u_pos.append(pos)
        self.u_hp.append(UNIT_HP[unit_type])
        self.u_tribe.append(p)
        self.u_city.append(city)
        self.u_kills.append(0)
        self.u_vet.append(0)
        self.u_status.append(status)
        self.u_join.append(max(self.u_join, default=-1) + 1)  # its place in its city's list
        self.unit_at[pos] = u
        if city >= 0:
            self.c_nunits[city] += 1
        return u

    def _last_unit(self, c: int) -> int:
        """The unit that joined city ``c``'s list of units last (``City.unitsID``)."""
        u_city, u_join = self.u_city, self.u_join
        best = -1
        for u in range(len(u_city)):
            if u_city[u] == c and self.u_type[u] >= 0 and (best < 0 or u_join[u] > u_join[best]):
                best = u
        return best

    def _transfer_unit(self, u: int, dest: int) -> None:
        """Move unit ``u`` to the end of city ``dest``'s units (``moveLastUnitFromCity``)."""
        src = self.u_city[u]
        if src >= 0:
            self.c_nunits[src] -= 1
        self.u_city[u] = dest
        self.c_nunits[dest] += 1
        self.u_join[u] = max(self.u_join) + 1

    def _shuffled_cities(self, p: int, but: int) -> list[int]:
        """``p``'s cities but ``but`` in the order it acquired them, shuffled with the
        state's RNG as ``Collections.shuffle`` does."""
        order = self.c_order
        cities = sorted((c for c, t in enumerate(self.c_tribe) if t == p and c != but),
                        key=order.__getitem__)
        for i in range(len(cities) - 1, 0, -1):
            j = self._rand(i + 1)
            cities[i], cities[j] = cities[j], cities[i]
        return cities

    def _move_one_to(self, dest: int, p: int) -> None:
        """``Board.moveOneToNewCity``: a new or captured city takes the last unit of
        ``p``'s capital, or, if that has none (or ``p`` lost it), of another of ``p``'s
        cities picked at random."""
        capital = self.b.capital_city[p]
        if self.c_tribe[capital] == p and self.c_nunits[capital] > 0:
            self._transfer_unit(self._last_unit(capital), dest)
            return
        for c in self._shuffled_cities(p, capital):
            if self.c_nunits[c] > 0:
                self._transfer_unit(self._last_unit(c), dest)
                return

    def _move_all_from(self, lost: int, q: int) -> None:
        """``Board.moveAllFromCity``: the units city ``lost`` supported for tribe ``q``
        go to ``q``'s capital while it has room, then to its other cities (in random
        order) while they have room; the rest belong to no city."""
        def fill(dest: int) -> None:
            while self.c_nunits[lost] > 0 and self.c_nunits[dest] < self.c_level[dest] + 1:
                self._transfer_unit(self._last_unit(lost), dest)

        capital = self.b.capital_city[q]
        if self.c_tribe[capital] == q:
            fill(capital)
        if self.c_nunits[lost] > 0:
            for c in self._shuffled_cities(q, capital):
                if c != lost:
                    fill(c)
        for v in range(len(self.u_city)):
            if self.u_city[v] == lost:
                self.u_city[v] = -1
        self.c_nunits[lost] = 0

    def _kill(self, u: int) -> None:
        if self.b.rules >= 4:  # GameState.killUnit, DisbandCommand
            self.score[self.u_tribe[u]] -= UNIT_POINTS[self.u_type[u]]
        self.unit_at[self.u_pos[u]] = -1
        city = self.u_city[u]
        if city >= 0 and self.c_tribe[city] == self.u_tribe[u]:
            self.c_nunits[city] -= 1
        self.u_type[u] = -1
        self.u_tribe[u] = -1
        self.u_city[u] = -1

    def _own_tiles(self) -> None:
        """Copy the tile lists before the first write after a clone (copy on write)."""
        if self._tiles_shared:
            self.terrain, self.resource = self.terrain[:], self.resource[:]
            self.building, self.road, self.owner = self.building[:], self.road[:], self.owner[:]
            self._tiles_shared = False

    def _claim(self, city: int) -> None:
        self.econ += 1
        self._territory = None
        self._net_clean = 0  # tiles changed hands: the trade networks may differ
        self._own_tiles()
        owner = self.owner
        centre = self.b.city_pos[city]
        claimed = 0
        if owner[centre] < 0:
            owner[centre] = city
            claimed += 1
        for t in self.b.within[self.c_radius[city]][centre]:
            if owner[t] < 0:
                owner[t] = city
                claimed += 1
        if self.b.rules >= 4:  # Board.assignCityTiles
            self.score[self.c_tribe[city]] += claimed * CITY_BORDER_POINTS
            self.c_worth[city] += claimed * CITY_BORDER_POINTS

    def _explore(self, p: int, centre: int, radius: int) -> None:
        n = self.b.n
        ex = self.explored
        off = p * n
        gained = 0
        if not ex[off + centre]:
            ex[off + centre] = 1
            gained += 1
        for t in self.b.within[radius][centre]:
            if not ex[off + t]:
                ex[off + t] = 1
                gained += 1
        if gained:
            if self._net_clean and PORT in self.building:
                self._net_clean &= ~(1 << p)  # water its ports may now trade over
            self.score[p] += gained * CLEAR_VIEW_POINTS
            self.n_explored[p] += gained
            if self.n_explored[p] == n:
                self._monument_available(p, EYE_OF_GOD)

    def _monument_available(self, p: int, monument: int) -> None:
        i = p * len(MONUMENTS) + MONUMENT_INDEX[monument]
        if self.monuments[i] == UNAVAILABLE:
            self.monuments[i] = AVAILABLE
            self.econ += 1

    def _add_pop(self, city: int, amount: int, p: int | None = None) -> None:
        """``City.addPopulation``: population never below −level; the points go to ``p``
        (default: the city's tribe)."""
        if self.c_pop[city] + amount < -self.c_level[city]:
            amount = -self.c_level[city] - self.c_pop[city]
        self.c_pop[city] += amount
        if p is None:
            p = self.c_tribe[city]
        self.score[p] += amount * POINTS_PER_POPULATION
        self.c_worth[city] += amount * POINTS_PER_POPULATION

    def _add_stars(self, p: int, amount: int) -> None:
        self.stars[p] += amount
        if self.stars[p] >= EMPERORS_TOMB_STARS:
            self._monument_available(p, EMPERORS_TOMB)

    def _explorer(self, p: int, pos: int) -> None:
        nbr = self.b.nbr
        for _ in range(EXPLORER_STEPS):
            options = nbr[pos]
            pos = options[self._rand(len(options))]
            self._explore(p, pos, 1)

    def _push_off(self, pos: int) -> None:
        """Push the unit at ``pos`` to the first free tile around it in the framework's
        order (``Board.pushUnit`` / ``tryPush``): land (a mountain with Climbing), or its
        tribe's port, where it embarks; with no such tile it dies. A pushed unit is done
        for the turn and starts its tribe's next turn as moved (status PUSHED,
        ``GameState.initTurn``)."""
        u = self.unit_at[pos]
        if u < 0:
            return
        size = self.b.size
        x, y = pos % size, pos // size
        q = self.u_tribe[u]
        terrain = self.terrain
        framework = self.b.rules >= 4
        for dx, dy in _PUSH_ORDER:
            if framework:  # the framework's offsets are (row, column): tile x·size + y
                dx, dy = dy, dx
            if not (0 <= x + dx < size and 0 <= y + dy < size):
                continue
            t = (y + dy) * size + x + dx
            if self.unit_at[t] >= 0:
                continue
            ter = terrain[t]
            if ter == DEEP or (ter == MOUNTAIN and not self.techs[q] >> CLIMBING & 1):
                continue
            if ter == SHALLOW:
                if self.building[t] != PORT or self.owner[t] < 0 \
                        or self.c_tribe[self.owner[t]] != q:
                    continue
                embark = self.u_type[u] not in NAVAL
                if embark:
                    self.u_type[u] = BOAT
            elif self.u_type[u] in NAVAL:
                self.u_type[u] = self.u_base[u]
                embark = False
            else:
                embark = False
            self.unit_at[pos] = -1
            self.unit_at[t] = u
            self.u_pos[u] = t
            # the framework's Board.embark makes a new unit, FINISHED, not PUSHED
            self.u_status[u] = FINISHED if embark and framework else PUSHED
            if embark:
                self._rejoin(u)
            self._explore(q, t, 1)
            return
        self._kill(u)

    # ---- action generation ------------------------------------------------------------
    def _generate(self) -> list[tuple]:
        p = self.player
        stars = self.stars[p]
        techs = self.techs[p]
        pending = self._pending
        self._pending = None
        if pending is not None:  # the pieces of the parent's list this action left alone
            old_segs, old_head, action, before = pending
            head = self._carry_head(old_head, action, before)
            carried = self._carry_segments(old_segs, action, before)
        else:
            head = carried = None
        if head is not None:  # research and spawns carried from the parent state
            research, spawns, _, prefix, diplo = head
            acts = list(prefix)
            my_cities = None
        else:
            my_cities = [c for c, t in enumerate(self.c_tribe) if t == p]
            c_level, c_pop = self.c_level, self.c_pop
            # a city that can level up must do so first, and alone; the first such city in
            # the order the tribe acquired its cities (GameState.computePlayerActions walks
            # Tribe.citiesID, to which a captured city is appended)
            due = [c for c in my_cities if c_pop[c] >= c_level[c] + 1]
            if due:
                c = min(due, key=self.c_order.__getitem__)
                self._segs = self._head = None
                return [(LEVEL_UP, c, bonus) for bonus in level_up_options(c_level[c])]
            research, spawns = self._research_and_spawns(p, stars, techs, my_cities)
            diplo = self._diplomacy_actions(p, stars) if self.b.rules >= 4 else ()
            acts = [(END_TURN,)]
            acts.extend(research)
            acts.extend(diplo)
            for _, _, group in spawns:
                acts.extend(group)
            prefix = tuple(acts)
        # tile actions: roads cached under (econ[, explored count]) — before version 4
        # explored tiles matter to the tribe's own roads only, and the count changes
        # exactly when they do — and
        # cities' tile actions under (econ, the technologies they need); the affordable
        # ones under the stars
        econ = self.econ
        road_key = self._road_key(p) if techs >> ROADS & 1 else -1
        city_key = econ << 32 | (techs & _CITY_TECHS)
        cached = self._tile_cache[p]
        if cached is None or cached[0] != road_key or cached[2] != city_key:
            if cached is not None and cached[0] == road_key:
                roads = cached[1]
            else:
                roads = self._road_candidates(p) if road_key >= 0 else ()
            if cached is not None and cached[2] == city_key:
                city = cached[3]
            else:
                if my_cities is None:
                    my_cities = [c for c, t in enumerate(self.c_tribe) if t == p]
                city = self._city_candidates(p, techs, my_cities)
            cached = self._tile_cache[p] = _tile_entry(road_key, roads, city_key, city)
        # the affordable ones depend on the stars only up to the dearest candidate's cost
        dearest = cached[5]
        key = stars if stars < dearest else dearest
        if cached[6] != key:
            cached = self._tile_cache[p] = cached[:6] + (
                key, tuple([a for a, need in cached[4] if need <= stars]))
        tiles = cached[7]
        if road_key >= 0 and self.b.rules >= 4:  # no road under an enemy unit
            unit_at, u_tribe = self.unit_at, self.u_tribe
            tiles = tuple([a for a in tiles if a[0] != BUILD_ROAD or unit_at[a[1]] < 0
                           or u_tribe[unit_at[a[1]]] == p])
        acts.extend(tiles)
        self._head = (research, spawns, tiles, prefix, diplo)
        return self._unit_part(p, stars, techs, acts, carried)

    def _road_key(self, p: int) -> int:
        """The key tribe ``p``'s cached road candidates are valid under: the economy
        counter and, before rules version 4 (roads only on explored tiles), the count of
        tiles the tribe explored."""
        if self.b.rules >= 4:
            return self.econ << 16
        return self.econ << 16 | self.n_explored[p]

    def _research_and_spawns(self, p: int, stars: int, techs: int, my_cities: list[int]
                             ) -> tuple[tuple, list]:
        """The research actions and the spawn groups (SPAWN, city, actions) of the
        player to move."""
        research = _research_actions(techs, stars, len(my_cities), self.b.rules >= 4) \
            if techs != ALL_TECHS \
            else ()
        spawns = []
        if my_cities:
            b = self.b
            c_level = self.c_level
            c_nunits = self.c_nunits
            unit_at = self.unit_at
            spawnable = None
            for c in my_cities:
                level = c_level[c]
                if unit_at[b.city_pos[c]] < 0 and c_nunits[c] < level + 1:
                    if spawnable is None:
                        spawnable = _spawnable(techs, stars)
                    if spawnable:
                        spawns.append((SPAWN, c, _spawn_actions(c, spawnable)))
        return research, spawns

    def _unit_part(self, p: int, stars: int, techs: int, acts: list[tuple], carried
                   ) -> list[tuple]:
        """Append the actions of the player's units to ``acts``: each unit's actions are
        one segment, ``carried`` over from the parent state for the units the action
        played cannot have affected (``_carry_segments``)."""
        u_tribe, u_status = self.u_tribe, self.u_status
        # rules version 4: a finished boat or ship may still be upgraded
        # (UnitActionBuilder offers Upgrade before it looks at the status)
        upgradable = (BOAT, SHIP) if self.b.rules >= 4 else ()
        u_type = self.u_type
        if carried is None:
            candidates: Any = [u for u, tribe in enumerate(u_tribe)
                               if tribe == p and (u_status[u] != FINISHED
                                                  or u_type[u] in upgradable)]
            entries: dict[int, list] = {}
            enemy_adj = None
        else:  # no unit becomes active in a carried action
            candidates, entries, enemy_adj = carried
        active = []
        for u in candidates:
            if u_tribe[u] != p or (u_status[u] == FINISHED and u_type[u] not in upgradable):
                continue
            active.append(u)
            entry = entries.get(u)
            if entry is None or entry[0] is None:  # none, or only its moves' search kept
                if enemy_adj is None:
                    enemy_adj = self._enemy_adjacent(p)
                seg, radius, reach = self._unit_actions(u, p, stars, techs, enemy_adj,
                                                        None if entry is None else entry[4])
                entry = entries[u] = [seg, radius, None, None, reach]
            acts.extend(entry[0])
        self._segs = (active, entries, enemy_adj)
        return acts

    def _unit_actions(self, u: int, p: int, stars: int, techs: int, enemy_adj,
                      known_reach: tuple | None = None) -> tuple:
        """The legal actions of unit ``u`` (not finished) of the player to move, in the
        order of the legal list, how far from the unit a change of the board's units,
        terrain or roads could change them (its moves' search radius; 1 for the
        neighbours a mind bender heals), and (rules version 4) its moves' search as
        ``_reachable_framework`` returned it, else None. ``known_reach``: that search, still
        exact for this state (``_carry_segments``), so it is not run again."""
        b = self.b
        unit_at, u_tribe = self.unit_at, self.u_tribe
        status = self.u_status[u]
        ut = self.u_type[u]
        pos = self.u_pos[u]
        fresh = status == FRESH
        naval = ut in NAVAL
        radius = 1
        reach = None
        if not _CAN_MOVE[ut][status]:  # abilities: Unit.canMove (a rider escapes)
            acts: list[tuple] = []
        elif UNIT_MOV[ut] == 1 and not naval and not self.road[pos] and self.terrain[pos] != CITY \
                and b.rules < 4:
            # one step, no road to run along: the free enterable neighbours (in tile order)
            terrain, building, owner, c_tribe = self.terrain, self.building, self.owner, \
                self.c_tribe
            blocked = _LAND_BLOCKED[techs >> CLIMBING & 1]
            acts = [(MOVE, u, t) for t in b.nbr[pos] if unit_at[t] < 0 and (
                (kind := blocked[terrain[t]]) == 0
                or (kind == 2 and building[t] == PORT and c_tribe[owner[t]] == p))]
        elif b.rules >= 4:
            if UNIT_MOV[ut] == 1 and not naval and not self.road[pos] \
                    and self.terrain[pos] != CITY:
                # one step off roads: every step costs the whole movement, so the
                # framework's search stops at the enterable neighbours
                terrain, building, c_tribe, city_at = self.terrain, self.building, \
                    self.c_tribe, b.city_at
                blocked = _FRAMEWORK_BLOCKED[techs >> CLIMBING & 1 | (techs >> SAILING & 1) << 1
                                             | (techs >> NAVIGATION & 1) << 2]
                acts = [(MOVE, u, t) for t in b.nbr[pos] if unit_at[t] < 0 and (
                    (kind := blocked[terrain[t]]) == 0 or (kind == 2 and building[t] == PORT)
                    or (kind == 3 and (ut != MIND_BENDER or c_tribe[city_at[t]] == p)))]
            else:
                reach = known_reach
                if reach is None:
                    reach = self._reachable_framework(ut, pos, p, techs, enemy_adj)
                tiles, radius = reach
                acts = [(MOVE, u, t) for t in tiles if unit_at[t] < 0]
        else:
            tiles, radius = self._reachable(ut, pos, p, techs, enemy_adj)
            acts = [(MOVE, u, t) for t in tiles]
        if _CAN_ATTACK[ut][status] and UNIT_ATK[ut] > 0:  # Unit.canAttack (dash, persist)
            attack_range = UNIT_RANGE[ut]
            if attack_range == 1 and not enemy_adj[pos]:  # melee: targets only next to an
                attack_range = 0                           # enemy
            if attack_range:
                for t in b.within[attack_range][pos]:
                    v = unit_at[t]
                    if v >= 0 and u_tribe[v] != p:
                        acts.append((ATTACK, u, v))
        if fresh:
            city = b.city_at[pos]
            if city >= 0 and self.c_tribe[city] != p and not naval:
                acts.append((CAPTURE, u))
            if self.u_hp[u] < UNIT_HP[self.u_base[u]] + VETERAN_PLUS_HP * self.u_vet[u]:
                acts.append((RECOVER, u))
        if fresh and self.resource[pos] == RUINS and (not naval or b.rules >= 4):
            acts.append((EXAMINE, u))  # Examine.isFeasible (any unit in the framework)
        if ut == MIND_BENDER:
            if fresh:
                for t in b.nbr[pos]:
                    v = unit_at[t]
                    if v >= 0 and u_tribe[v] == p and self.u_hp[v] < self.max_hp(v):
                        acts.append((HEAL_OTHERS, u))
                        break
            if fresh:  # Convert.isFeasible: a mind bender that can still attack
                for t in b.nbr[pos]:
                    v = unit_at[t]
                    if v >= 0 and u_tribe[v] != p:
                        acts.append((CONVERT, u, v))
        elif ut == BOAT:
            if stars >= UNIT_COST[SHIP] and techs >> SAILING & 1:
                acts.append((UPGRADE, u))
        elif ut == SHIP:
            if stars >= UNIT_COST[BATTLESHIP] and techs >> NAVIGATION & 1:
                acts.append((UPGRADE, u))
        if self.u_kills[u] >= VETERAN_KILLS and not self.u_vet[u] and ut != SUPERUNIT \
                and status != FINISHED:
            acts.append((MAKE_VETERAN, u))
        if fresh and techs >> FREE_SPIRIT & 1:
            acts.append((DISBAND, u))
        return tuple(acts), radius, reach

    def _carry_head(self, head, action: tuple, before: int):
        """The parent's research and spawn actions (``head``) if ``action``, played from
        there (its unit stood on ``before``), left them as they are, else None. They
        depend on the stars, the technologies, the cities, their units and who stands
        on them, and a pending level-up (population): a move off and onto tiles without
        a city, a recovery and a promotion change none of these."""
        kind = action[0]
        if kind == MOVE:
            city_at = self.b.city_at
            if city_at[before] < 0 and city_at[action[2]] < 0:
                return head
            return None
        if kind == RECOVER or kind == MAKE_VETERAN:
            return head
        return None

    def _carry_segments(self, segs, action: tuple, before: int):
        """The parent's unit segments (``segs``) that stay exact after ``action``,
        played from there (its unit stood on ``before``): the units that had actions, a
        fresh dict unit -> [actions, radius, groups, memo, moves' search] of those kept, and the
        enemy-adjacency map; None when the action may change too much. (Units other than
        the action's own keep their tile and type.) An entry whose actions are None keeps
        only the unit's moves' search (``_unit_part`` builds the rest again).

        A unit's actions depend on its own fields, on enemy units, on stars (upgrades of
        boats and ships), on four technologies (Climbing, Free Spirit, Sailing,
        Navigation), on the hit points of friends next to it (a mind bender's healing)
        and, for its moves, on the board's units, terrain and roads within its search
        radius. A move of unit u from a to b changes u and the occupancy of a and b; a
        spawn the occupancy of the city tile and the stars; a road one tile's road and
        the stars; a research the stars (and, for those four, the technologies); a
        recovery or a promotion to veteran u's hit points and status; a disband u and
        the occupancy of its tile. An attack of u on v changes u and the occupancy of
        u's tile, and v's hit points, or v itself and with it the enemy adjacency
        around v's tile (which reaches one tile farther) and the targets of the units
        within range of v, and perhaps the occupancy of v's tile by u; units kept over
        an attack lose their ``unit_memo`` (enemies changed). Under rules version 4 a
        city tile action or diplomacy keeps the units' moves' searches
        (``_kept_searches``). Other actions drop every segment."""
        if segs is None:
            return None
        kind = action[0]
        mover = -1
        tile_a = tile_b = -1
        stars_change = attack = False
        if kind == MOVE:
            mover = action[1]
            tile_a, tile_b = before, action[2]
        elif kind == SPAWN:
            tile_a = self.b.city_pos[action[1]]
            stars_change = True
        elif kind == BUILD_ROAD:
            tile_a = action[1]
            stars_change = True
        elif kind == RESEARCH:
            if _TECH_BIT[action[1]] & _SEGMENT_TECHS:
                return None
            stars_change = True
        elif kind == RECOVER or kind == MAKE_VETERAN:
            mover = action[1]
            tile_a = before  # friends next to it may heal it: radius >= 1
        elif kind == DISBAND:
            mover = action[1]
            tile_a = before
            stars_change = True
        elif kind == ATTACK:
            mover = action[1]
            tile_a, tile_b = before, self.u_pos[action[2]]
            attack = True
        elif self.b.rules >= 4 and kind in _ONE_TILE_ECON:
            return self._kept_searches(segs, action[2])
        elif self.b.rules >= 4 and (kind == SEND_STARS or kind == DECLARE_WAR):
            return self._kept_searches(segs, -1)
        else:
            return None
        active, entries, enemy_adj = segs
        if attack:
            enemy_adj = None  # the target may die
        # rules version 4: friendly units are passed through, so a move, spawn, disband,
        # recovery or promotion leaves every other unit's moves' search as it was (only
        # which reached tiles are free changes); a unit dropped then keeps its search
        searches_stay = self.b.rules >= 4 and (kind == MOVE or kind == SPAWN or kind == DISBAND
                                               or kind == RECOVER or kind == MAKE_VETERAN)
        kept = {}
        dist, u_pos, u_type = self.b.dist, self.u_pos, self.u_type
        row_a = dist[tile_a] if tile_a >= 0 else None
        row_b = dist[tile_b] if tile_b >= 0 else None
        for w in active:
            if w == mover:
                continue
            entry = entries[w]
            if stars_change:
                ut = u_type[w]
                if ut == BOAT or ut == SHIP:
                    if searches_stay and entry[4] is not None:
                        kept[w] = _search_only(entry)
                    continue
            if row_a is not None:
                pos = u_pos[w]
                radius = entry[1]
                if attack:
                    if row_a[pos] <= radius or row_b[pos] <= radius + 1 \
                            or row_b[pos] <= UNIT_RANGE[u_type[w]]:
                        continue
                    entry = [entry[0], radius, entry[2], None, entry[4]]
                elif row_a[pos] <= radius or (row_b is not None and row_b[pos] <= radius):
                    if searches_stay and entry[4] is not None:
                        kept[w] = _search_only(entry)
                    continue
            kept[w] = entry
        return active, kept, enemy_adj

    def _kept_searches(self, segs, tile: int):
        """Rules version 4, after an action that changed one city tile's terrain,
        building or resource (``tile``) or only stars and diplomacy (``tile`` −1): the
        parent's segments reduced to the moves' searches of the units farther from the
        tile than their search radius (``_unit_part`` builds their actions again around
        them: stars, population and cities may have changed)."""
        active, entries, enemy_adj = segs
        row = self.b.dist[tile] if tile >= 0 else None
        u_pos = self.u_pos
        kept = {}
        for w in active:
            entry = entries[w]
            if entry[4] is not None and (row is None or row[u_pos[w]] > entry[1]):
                kept[w] = _search_only(entry)
        return active, kept, enemy_adj

    def _tile_actions(self, p: int, stars: int, techs: int, my_cities: list[int]) -> tuple:
        """Roads and the tile actions of cities (uncached; ``_generate`` caches them)."""
        return tuple(a for a, need in self._tile_candidates(p, techs, my_cities) if need <= stars)

    def _tile_candidates(self, p: int, techs: int, my_cities: list[int]) -> tuple:
        """Roads and the tile actions of cities with the stars each needs, in the order
        the legal list has them. They change only with the technologies, the economy
        counter ``econ`` and (roads) the tiles the tribe explored, so ``_generate``
        caches the two parts per player under (econ, explored count) and (econ, the
        technologies cities' tile actions need), and the affordable ones under the
        stars too: stars change far more often than the rest (every spawn, every
        turn's income)."""
        roads = self._road_candidates(p) if techs >> ROADS & 1 else ()
        return roads + self._city_candidates(p, techs, my_cities)

    def _road_candidates(self, p: int) -> tuple:
        """Roads the tribe (with Roads) may build, with their cost, in tile order."""
        b = self.b
        c_tribe = self.c_tribe
        terrain, building, owner = self.terrain, self.building, self.owner
        ex = self.explored
        off = p * b.n
        road = self.road
        if b.rules >= 4:  # Board.canBuildRoadAt: villages too, over buildings (enemy units
            # on the tile are left to _generate, which filters the cached list)
            return tuple([((BUILD_ROAD, t), ROAD_COST) for t in range(b.n)
                          if (terrain[t] == PLAIN or terrain[t] == FOREST
                              or terrain[t] == VILLAGE)
                          and not road[t] and (owner[t] < 0 or c_tribe[owner[t]] == p)])
        return tuple([((BUILD_ROAD, t), ROAD_COST) for t in range(b.n)
                      if (terrain[t] == PLAIN or terrain[t] == FOREST) and ex[off + t]
                      and not road[t] and building[t] == NO_BUILDING
                      and (owner[t] < 0 or c_tribe[owner[t]] == p)])

    def _city_tiles(self) -> tuple:
        """City -> the tiles it owns, kept until ownership changes."""
        if self._territory is None:
            lists: list[list[int]] = [[] for _ in self.c_tribe]
            for t, c in enumerate(self.owner):
                if c >= 0:
                    lists[c].append(t)
            self._territory = tuple(tuple(x) for x in lists)
        return self._territory

    def _city_candidates(self, p: int, techs: int, my_cities: list[int]) -> tuple:
        """The tile actions of the tribe's cities with the stars each needs, city by city
        and tile by tile."""
        if self.b.rules >= 4:
            return self._city_candidates_framework(p, techs, my_cities)
        acts: list[tuple] = []
        terrain, resource, building = self.terrain, self.resource, self.building
        if my_cities:
            tiles_of = self._city_tiles()
            mon_base = p * _NUM_MONUMENTS
            monuments = self.monuments
            can_destroy = techs >> CONSTRUCTION & 1
            can_clear = techs >> FORESTRY & 1
            can_burn = techs >> CHIVALRY & 1
            can_grow = techs >> SPIRITUALISM & 1
            for c in my_cities:
                built = self.c_built[c]
                for t in tiles_of[c]:
                    ter = terrain[t]
                    if ter == CITY:
                        continue
                    bld = building[t]
                    if bld != NO_BUILDING:
                        if can_destroy and bld < ALTAR_OF_PEACE:
                            acts.append(((DESTROY, c, t), 0))
                        continue
                    res = resource[t]
                    if res in GATHER:
                        tech, cost, _, _ = GATHER[res]
                        if techs >> tech & 1:
                            acts.append(((RESOURCE, c, t), cost))
                    if ter == FOREST:
                        if can_clear:
                            acts.append(((CLEAR_FOREST, c, t), 0))
                        if can_burn:
                            acts.append(((BURN_FOREST, c, t), BURN_FOREST_COST))
                    elif ter == PLAIN and res == NO_RES and can_grow:
                        acts.append(((GROW_FOREST, c, t), GROW_FOREST_COST))
                    for bt, cost, need, unique, mon in _BUILD_TABLE[ter][res]:
                        if techs & need != need:
                            continue
                        if unique and built >> bt & 1:
                            continue
                        if mon >= 0 and monuments[mon_base + mon] != AVAILABLE:
                            continue
                        acts.append(((BUILD, c, t, bt), cost))
        return tuple(acts)

    def _city_candidates_framework(self, p: int, techs: int, my_cities: list[int]) -> tuple:
        """Rules version 4: the framework's city tile actions (``BuildFactory``,
        ``ResourceGatheringFactory``, ``ClearForestFactory``, ``BurnForestFactory``,
        ``GrowForestFactory``, ``DestroyFactory``): gathering, clearing, burning and
        growing forest ignore buildings on the tile, growing forest ignores resources,
        any building (monuments and temples too) can be destroyed, and a building needs
        an empty tile, its terrain, its resource (farm, mine) and its neighbour (windmill,
        forge, sawmill, custom house) only."""
        acts: list[tuple] = []
        terrain, resource, building = self.terrain, self.resource, self.building
        if not my_cities:
            return ()
        tiles_of = self._city_tiles()
        around = self.b.nbr_get
        mon_base = p * _NUM_MONUMENTS
        monuments = self.monuments
        can_destroy = techs >> CONSTRUCTION & 1
        can_clear = techs >> FORESTRY & 1
        can_burn = techs >> CHIVALRY & 1
        can_grow = techs >> SPIRITUALISM & 1
        foreign = self.foreign
        for c in my_cities:
            built = self.c_built[c]
            for t in tiles_of[c]:
                ter = terrain[t]
                if ter == CITY:
                    continue
                bld = building[t]
                if bld != NO_BUILDING and can_destroy \
                        and (not foreign or self._listing_city(t) == c):
                    acts.append(((DESTROY, c, t), 0))
                res = resource[t]
                if res in GATHER:
                    tech, cost, _, _ = GATHER[res]
                    if techs >> tech & 1:
                        acts.append(((RESOURCE, c, t), cost))
                if ter == FOREST:
                    if can_clear:
                        acts.append(((CLEAR_FOREST, c, t), 0))
                    if can_burn:
                        acts.append(((BURN_FOREST, c, t), BURN_FOREST_COST))
                elif ter == PLAIN and can_grow:
                    acts.append(((GROW_FOREST, c, t), GROW_FOREST_COST))
                if bld != NO_BUILDING:
                    continue
                for bt, cost, need, unique, mon, beside in _BUILD_TABLE_FRAMEWORK[ter][res]:
                    if techs & need != need:
                        continue
                    if unique and built >> bt & 1:
                        continue
                    if mon >= 0 and monuments[mon_base + mon] != AVAILABLE:
                        continue
                    if beside >= 0 and beside not in around[t](building):
                        continue
                    acts.append(((BUILD, c, t, bt), cost))
        return tuple(acts)

    def _apply_bonus(self, c: int, t: int, bt: int, population: bool, sign: int,
                     only_matching: bool = False) -> None:
        """Rules version 4: ``City.applyBonus`` as the framework has it. A producing
        building (farm, lumber hut, mine) gives its city its population; then for each
        neighbouring tile holding the matching building, in tile order, the booster's
        bonus goes to the city that tile belongs to when the tribe holds it; once such a
        tile of another of the tribe's cities was met, the bonus of the later ones goes
        to that city too, and a matching building of another tribe's city ends the scan
        (the framework's quirks, kept)."""
        p = self.c_tribe[c]
        base = bt in BOOSTS
        if base and population and not only_matching:
            self._add_pop(c, sign * _BASE_BONUS[bt])
        match = _MATCHING[bt]
        building, owner, c_tribe = self.building, self.owner, self.c_tribe
        target = c
        for m in self.b.nbr[t]:
            if building[m] != match:
                continue
            cm = owner[m]
            if cm != c:
                if cm >= 0 and c_tribe[cm] == p:
                    target = cm
                else:
                    return
            bonus = sign * _BASE_BONUS[match if base else bt]
            if population:
                self._add_pop(target, bonus)
            else:
                self.c_prod[target] = max(0, self.c_prod[target] + bonus)

    def _building_effect_framework(self, c: int, t: int, bt: int, sign: int) -> None:
        """Rules version 4: ``City.updateBuildingEffects``. Temples and monuments score
        for the tribe, not the city's worth; removing a temple *adds* the points it
        earned (a framework bug, kept); removing a monument takes its 400 back."""
        p = self.c_tribe[c]
        if bt in _MATCHING:
            if bt == PORT:
                self._add_pop(c, sign * _BASE_BONUS[PORT])
            self._apply_bonus(c, t, bt, bt != PORT and bt != CUSTOM_HOUSE, sign)
        elif bt in TEMPLES:
            self._add_pop(c, sign * BUILDING_POP[bt])
            if sign > 0:
                self.score[p] += TEMPLE_POINTS
            else:
                temples = self.temples
                i = next(i for i in range(0, len(temples), 3) if temples[i] == t)
                self.score[p] += sum(TEMPLE_LEVEL_POINTS[:temples[i + 1]])
        elif bt in MONUMENT_INDEX:
            self._add_pop(c, sign * BUILDING_POP[bt])
            self.score[p] += sign * MONUMENT_POINTS

    def _rebuild_effects_on_capture(self, c: int) -> None:
        """Rules version 4: what the framework's ``Tribe.capturedCity`` and ``lostCity``
        do to a captured city's buildings (``updateBuildingEffects`` with
        ``onlyMatching``), quirks included: every building's neighbour bonuses are
        applied again for the new owner (so pairs inside the city count twice), those of
        its farms, lumber huts, mines and ports are then taken off once, and each temple
        scores 100 and each monument 400 for the new owner again."""
        p = self.c_tribe[c]
        owner, building = self.owner, self.building
        tiles = [t for t in range(self.b.n) if owner[t] == c and building[t] != NO_BUILDING]
        if self.foreign:
            tiles = [t for t in range(self.b.n) if building[t] != NO_BUILDING
                     and self._listing_city(t) == c]
        for t in tiles:
            bt = building[t]
            if bt in _MATCHING:
                self._apply_bonus(c, t, bt, bt != PORT and bt != CUSTOM_HOUSE, +1,
                                  only_matching=True)
            elif bt in TEMPLES:
                self.score[p] += TEMPLE_POINTS
            elif bt in MONUMENT_INDEX:
                self.score[p] += MONUMENT_POINTS
        for t in tiles:
            bt = building[t]
            if bt in BOOSTS:
                self._apply_bonus(c, t, bt, bt != PORT, -1, only_matching=True)

    def _listing_city(self, t: int) -> int:
        """Rules version 4: the city whose building list (the framework's
        ``City.buildings``) holds the building on tile ``t``: the tile's city, unless a
        framework action built it from another city (``apply_feasible``; ``foreign``
        holds those tiles and cities)."""
        foreign = self.foreign
        for i in range(0, len(foreign), 2):
            if foreign[i] == t:
                return foreign[i + 1]
        return self.owner[t]

    def _diplomacy_actions(self, p: int, stars: int) -> tuple:
        """Rules version 4: the framework's ``DeclareWarFactory`` (once a turn, while
        the allegiance is above −30) and ``SendStarsFactory`` (1 .. min(stars, 15) − 1
        stars, while fewer than 30 were sent this turn)."""
        d = self.diplo
        acts: list[tuple] = []
        if not d[4 + p] and d[2 * p + 1 - p] > -ALLEGIANCE_MAX / 2.0:
            acts.append((DECLARE_WAR,))
        if d[6 + p] < MAX_STARS_SENT:
            acts.extend((SEND_STARS, n) for n in range(1, min(stars, MIN_STARS_SEND)))
        return tuple(acts)

    def _allegiance(self, value: int, i: int, j: int) -> None:
        """``Diplomacy.updateAllegiance``: the pair's allegiance moves by ``value``,
        clipped (oddly) to ±60; both entries are written in turn, so i == j moves
        twice."""
        d = self.diplo
        a = d[2 * i + j]
        if a + value < -ALLEGIANCE_MAX or a + value > ALLEGIANCE_MAX:
            value = (1 if value > 0 else -1 if value < 0 else 0) * (ALLEGIANCE_MAX - abs(a))
        d[2 * i + j] += value
        d[2 * j + i] += value

    def _repercussion(self, value: int, i: int, j: int) -> None:
        """``updateAllegiance`` then ``checkConsequences`` (a third party whose
        allegiance to ``j`` is negative warms to ``i``; with two tribes only a tribe's
        own entry, moved by the framework's conversion bug, can make that happen)."""
        self._allegiance(value, i, j)
        self._consequences(value, i, j)

    def _consequences(self, value: int, i: int, j: int) -> None:
        """``Diplomacy.checkConsequences``."""
        half = int(value / -2)
        for k in (0, 1):
            if self.diplo[2 * k + j] < 0 and k != i:
                self._allegiance(half, k, i)

    def _enemy_adjacent(self, p: int) -> bytearray:
        mark = bytearray(self.b.n)
        nbr = self.b.nbr
        enemy = 1 - p
        for tribe, pos in zip(self.u_tribe, self.u_pos):
            if tribe == enemy:
                for t in nbr[pos]:
                    mark[t] = 1
        return mark

    def _reachable(self, ut: int, start: int, p: int, techs: int,
                   enemy_adj: bytearray) -> tuple[list[int], int]:
        """Tiles a unit of type ``ut`` on ``start`` can end a move on (half-steps: 1 along
        roads, 2 otherwise), and the distance from ``start`` within which the search read
        the board (the neighbours of the tiles it expanded): a change farther away cannot
        change it. (``_unit_actions`` does single steps off roads itself.)"""
        nbr = self.b.nbr
        terrain, road, unit_at = self.terrain, self.road, self.unit_at
        naval = ut in NAVAL
        climbing = techs >> CLIMBING & 1
        best = {start: 2 * UNIT_MOV[ut]}
        frontier = [start]
        while frontier:
            here = frontier.pop()
            rem = best[here]
            if rem <= 0:
                continue
            on_road = road[here] or terrain[here] == CITY
            for t in nbr[here]:
                if unit_at[t] >= 0:
                    continue
                ter = terrain[t]
                stop = False
                if naval:
                    if ter == DEEP:
                        if ut == BOAT:
                            continue
                    elif ter != SHALLOW:
                        if ter == MOUNTAIN and not climbing:
                            continue
                        stop = True  # disembark
                else:
                    if ter == SHALLOW:
                        if self.building[t] != PORT or self.c_tribe[self.owner[t]] != p:
                            continue
                        stop = True  # embark
                    elif ter == DEEP:
                        continue
                    elif ter == MOUNTAIN:
                        if not climbing:
                            continue
                        stop = True
                    elif ter == FOREST and not road[t]:
                        stop = True
                cost = 1 if on_road and (road[t] or ter == CITY) else 2
                left = rem - cost
                if left < 0:
                    continue
                if stop or enemy_adj[t]:
                    left = 0
                if best.get(t, -1) < left:
                    best[t] = left
                    frontier.append(t)
        row = self.b.dist[start]
        radius = 1 + max([row[t] for t, left in best.items() if left > 0])
        del best[start]
        return sorted(best), radius

    def _reachable_framework(self, ut: int, start: int, p: int, techs: int,
                             enemy_adj: bytearray) -> tuple[list[int], int]:
        """Rules version 4: the tiles the framework's move search reaches (``MoveFactory``
        over ``Pathfinder.findPaths`` with ``StepMove``), friendly units' tiles included
        (the caller drops occupied ones), and the radius within which it read the board.

        It is the framework's search step for step, quirks included: a step costs 1, ½
        from road to road (cities count as roads when on a tile of no city or of the
        tribe), entering forest, mountain, a port or (naval) land costs what is left,
        and so does entering a tile next to an enemy unit; a step is allowed while the
        cost so far plus the step, rounded down, is within the unit's movement, and a
        tile whose cost reached the movement exactly is not expanded. Friendly units
        are passed through. Mountains need Climbing, shallow water Sailing and deep
        water Navigation for every unit; a land unit enters any port. Costs found
        cheaper after a tile entered the queue are lowered in place without reordering
        the queue, as the framework's ``PriorityQueue`` does, so the order of its binary
        heap is simulated here."""
        b = self.b
        nbr, row = b.nbr, b.dist[start]
        terrain, road, unit_at, u_tribe = self.terrain, self.road, self.unit_at, self.u_tribe
        owner, c_tribe, building, city_at = self.owner, self.c_tribe, self.building, b.city_at
        mov = float(UNIT_MOV[ut])
        naval = ut in NAVAL
        # a step's terrain: 0 land, 1 barred, 2 water, 3 a city (Board.traversable)
        kinds = _FRAMEWORK_BLOCKED[techs >> CLIMBING & 1 | (techs >> SAILING & 1) << 1
                                   | (techs >> NAVIGATION & 1) << 2]
        mind_bender = ut == MIND_BENDER
        too_far = mov + 1.0  # floor(cost) > movement, for costs of whole and half steps
        cost = [-1.0] * b.n  # -1: not offered yet (costs are never negative)
        cost[start] = 0.0
        heap = [start]
        reached = []
        read = 0
        while heap:
            node = heap[0]  # PriorityQueue.poll: the root, then the last element sifted down
            last = heap.pop()
            n = len(heap)
            if n:
                k, half, key = 0, n >> 1, cost[last]
                while k < half:
                    child = 2 * k + 1
                    c = heap[child]
                    if child + 1 < n and cost[c] > cost[heap[child + 1]]:
                        child += 1
                        c = heap[child]
                    if key <= cost[c]:
                        break
                    heap[k] = c
                    k = child
                heap[k] = last
            if node != start:
                reached.append(node)
            here = cost[node]
            if here == mov:
                continue
            if row[node] > read:
                read = row[node]
            left = mov - here if here < mov else mov
            ter_here = terrain[node]
            on_road = ((road[node] and ter_here != SHALLOW and ter_here != DEEP)
                       or ter_here == CITY) and (owner[node] < 0 or c_tribe[owner[node]] == p)
            for t in nbr[node]:
                v = unit_at[t]
                if v >= 0 and u_tribe[v] != p:
                    continue
                kind = kinds[terrain[t]]
                if kind == 1 or (kind == 3 and mind_bender and c_tribe[city_at[t]] != p):
                    continue
                if naval:
                    step = 1.0 if kind == 2 else left
                else:
                    if kind == 2:
                        if building[t] != PORT:
                            continue
                        step = left
                    elif kind == 0 and (terrain[t] == FOREST or terrain[t] == MOUNTAIN):
                        step = left
                    else:
                        step = 1.0
                    if on_road and (kind == 3 or (kind == 0 and road[t])):
                        step *= 0.5
                        if step < 0.5:
                            step = 0.5
                if enemy_adj[t]:
                    step = left
                    if here + step > mov:
                        continue
                elif here + step >= too_far:
                    continue
                total = here + step
                if cost[t] < 0.0:
                    cost[t] = total  # PriorityQueue.offer: sift up
                    k = len(heap)
                    heap.append(t)
                    while k:
                        parent = (k - 1) >> 1
                        e = heap[parent]
                        if total >= cost[e]:
                            break
                        heap[k] = e
                        k = parent
                    heap[k] = t
                elif total < cost[t]:
                    cost[t] = total
        return sorted(reached), read + 1

    # ---- action execution -------------------------------------------------------------
    def _execute(self, a: tuple) -> None:
        kind = a[0]
        p = self.player
        if kind == MOVE:  # the most frequent first
            self._move(p, a[1], a[2])
            return
        if kind == ATTACK:
            self._attack(p, a[1], a[2])
            return
        if kind in _ECON_ACTIONS:
            self.econ += 1
            self._own_tiles()
        if kind == END_TURN:
            self._end_turn()
        elif kind == RESEARCH:
            self._research(p, a[1], pay=True)
        elif kind == BUILD_ROAD:
            self._own_tiles()
            self.stars[p] -= ROAD_COST
            self.road[a[1]] = 1
            # a road changes no candidate but its own, for either tribe (cities' tile
            # actions ignore roads)
            for tribe in (0, 1):
                cached = self._tile_cache[tribe]
                if cached is not None and cached[0] == self._road_key(tribe):
                    roads = tuple([c for c in cached[1] if c[0] != a])
                    if len(roads) < len(cached[1]):
                        self._tile_cache[tribe] = _tile_entry(cached[0], roads, cached[2],
                                                              cached[3])
            self._update_trade_network(a[1])
        elif kind == BUILD:
            self._build(p, a[1], a[2], a[3])
        elif kind == SPAWN:
            _, c, ut = a
            self.stars[p] -= UNIT_COST[ut]
            self.score[p] += UNIT_POINTS[ut]
            self._new_unit(ut, self.b.city_pos[c], p, c, FINISHED)
            self.stats[p][ut] += 1
        elif kind == LEVEL_UP:
            self._level_up(p, a[1], a[2])
        elif kind == RESOURCE:
            _, c, t = a
            _, cost, pop, stars = GATHER[self.resource[t]]
            self.stars[p] -= cost
            self.resource[t] = NO_RES
            if pop:
                self._add_pop(c, pop)
            if stars:
                self._add_stars(p, stars)
        elif kind == CLEAR_FOREST:
            t = a[2]
            self.terrain[t] = PLAIN
            if self.b.rules < 4:  # the framework's ClearForestCommand keeps the resource
                self.resource[t] = NO_RES
            self._add_stars(p, CLEAR_FOREST_STARS)
        elif kind == BURN_FOREST:
            t = a[2]
            self.stars[p] -= BURN_FOREST_COST
            self.terrain[t] = PLAIN
            self.resource[t] = CROPS
        elif kind == GROW_FOREST:
            self.stars[p] -= GROW_FOREST_COST
            self.terrain[a[2]] = FOREST
            self.resource[a[2]] = NO_RES
        elif kind == DESTROY:
            self._destroy(a[1], a[2])
        elif kind == CAPTURE:
            self._capture(p, a[1])
        elif kind == RECOVER:
            u = a[1]
            pos = self.u_pos[u]
            heal = RECOVER_PLUS_HP
            if self.owner[pos] >= 0 and self.c_tribe[self.owner[pos]] == p:
                heal += RECOVER_IN_BORDERS_PLUS_HP
            self.u_hp[u] = min(self.max_hp(u), self.u_hp[u] + heal)
            self.u_status[u] = FINISHED
        elif kind == EXAMINE:
            self._examine(p, a[1])
        elif kind == HEAL_OTHERS:
            u = a[1]
            for t in self.b.nbr[self.u_pos[u]]:
                v = self.unit_at[t]
                if v >= 0 and self.u_tribe[v] == p:
                    self.u_hp[v] = min(self.max_hp(v), self.u_hp[v] + MINDBENDER_HEAL)
            self.u_status[u] = FINISHED
        elif kind == UPGRADE:
            u = a[1]
            new = SHIP if self.u_type[u] == BOAT else BATTLESHIP
            self.stars[p] -= UNIT_COST[new]
            self.u_type[u] = new
            self._rejoin(u)
        elif kind == MAKE_VETERAN:
            u = a[1]
            self.u_vet[u] = 1
            self.u_hp[u] = self.max_hp(u)
        elif kind == CONVERT:
            _, u, v = a
            city = self.u_city[v]
            if city >= 0 and self.c_tribe[city] == self.u_tribe[v]:
                self.c_nunits[city] -= 1
            self.u_tribe[v] = p
            self.u_city[v] = -1
            self.u_status[v] = FINISHED
            pacifist = self.pacifist[p]
            self._after_attack(p, u)
            if self.b.rules >= 4:  # ConvertCommand does not reset the pacifist count
                self.pacifist[p] = pacifist
            if self.b.rules >= 4:  # ConvertCommand, after the unit changed tribe: the
                # tribe's own entry moves (a framework bug)
                self._repercussion(CONVERT_REPERCUSSION, p, p)
        elif kind == DECLARE_WAR:  # DeclareWarCommand (by the other tribe: apply_feasible)
            d = self.diplo
            q = a[1] if len(a) > 1 else p
            d[4 + q] = 1
            d[8 + q] += 1
            self._allegiance(int(-ALLEGIANCE_MAX / 2.0 - d[2 * q + 1 - q]), q, 1 - q)
            self._consequences(int(-ALLEGIANCE_MAX / 2.0), q, 1 - q)
        elif kind == SEND_STARS:  # SendStarsCommand: the sender scores the stars
            n = a[1]
            q = a[2] if len(a) > 2 else p  # (the other tribe's: apply_feasible)
            self.stars[q] -= n
            self._add_stars(1 - q, n)
            self.diplo[6 + q] += n
            self.score[q] += n
            self._repercussion(n, q, 1 - q)
        elif kind == DISBAND:
            u = a[1]
            self._add_stars(p, UNIT_COST[self.u_type[u]] // 2)
            self._kill(u)
        else:  # pragma: no cover - legality was checked
            raise ValueError(f"unknown action {a!r}")

    def _research(self, p: int, tech: int, pay: bool) -> None:
        if pay:
            ncities = sum(1 for t in self.c_tribe if t == p)
            self.stars[p] -= tech_cost(TECH_TIER[tech], ncities, self.techs[p],
                                       self.b.rules >= 4)
            if self.b.rules >= 4:
                self.score[p] += TECH_TIER_POINTS * TECH_TIER[tech]
        self.techs[p] |= 1 << tech
        if self.techs[p] == ALL_TECHS:
            self._monument_available(p, TOWER_OF_WISDOM)

    def _end_turn(self) -> None:
        p = self.player
        q = 1 - p
        self._recover_idle(p)
        if p == 1:
            self.turn += 1
            # the framework plays rounds 0..turn_limit (GameState.gameOver: tick > max turns)
            if self.turn >= self.turn_limit + (self.b.rules >= 4):
                self._finish_by_score()
                return
        self.player = q
        u_tribe, u_status = self.u_tribe, self.u_status
        for u in range(len(u_tribe)):  # a unit pushed since starts as moved (initTurn)
            if u_tribe[u] == q:
                u_status[u] = MOVED if u_status[u] == PUSHED else FRESH
        if self.temples:
            self._grow_temples(q)
        if self.turn >= 1:
            self._add_stars(q, self.income(q))
        elif self.b.rules >= 4:  # GameState.initTurn sets the stars at tick 0 (stars sent
            self.stars[q] = INITIAL_STARS  # to the second tribe in its first round are lost)
        if self.b.rules >= 4:
            self.diplo[4 + q] = self.diplo[6 + q] = 0  # GameState.initTurn
        if self.b.rules >= 4:  # Tribe.addPacifistCount: counted with Meditation, and the
            # altar becomes available again (even once built) at exactly 5 turns
            if self.techs[q] >> MEDITATION & 1:
                self.pacifist[q] += 1
                if self.pacifist[q] == ALTAR_OF_PEACE_TURNS:
                    i = q * len(MONUMENTS) + MONUMENT_INDEX[ALTAR_OF_PEACE]
                    if self.monuments[i] != AVAILABLE:
                        self.monuments[i] = AVAILABLE
                        self.econ += 1
            return
        self.pacifist[q] += 1
        if self.pacifist[q] >= ALTAR_OF_PEACE_TURNS:
            self._monument_available(q, ALTAR_OF_PEACE)

    def _grow_temples(self, p: int) -> None:
        """Start of ``p``'s turn: each temple of its cities below level 5 counts down a
        turn; every third turn it gains a level and the level's points (100 when built,
        then 50, 50, 50, 150), for the tribe and the city's worth (``GameState.initTurn``,
        ``Temple.newTurn``)."""
        temples, owner, c_tribe = self.temples, self.owner, self.c_tribe
        foreign = self.foreign
        for i in range(0, len(temples), 3):
            city = self._listing_city(temples[i]) if foreign else owner[temples[i]]
            if city < 0 or c_tribe[city] != p or temples[i + 1] >= TEMPLE_MAX_LEVEL:
                continue
            temples[i + 2] -= 1
            if temples[i + 2] == 0:
                level = temples[i + 1] = temples[i + 1] + 1
                temples[i + 2] = TEMPLE_TURNS_TO_SCORE
                points = TEMPLE_LEVEL_POINTS[level - 1]
                self.score[p] += points
                self.c_worth[city] += points

    def _recover_idle(self, p: int) -> None:
        """End of ``p``'s turn: every unit still fresh recovers as by the Recover
        action (the framework's ``GameState.endTurn``)."""
        u_tribe, u_status, u_hp = self.u_tribe, self.u_status, self.u_hp
        owner, c_tribe = self.owner, self.c_tribe
        for u in range(len(u_tribe)):
            if u_tribe[u] == p and u_status[u] == FRESH and u_hp[u] < self.max_hp(u):
                pos = self.u_pos[u]
                heal = RECOVER_PLUS_HP
                if owner[pos] >= 0 and c_tribe[owner[pos]] == p:
                    heal += RECOVER_IN_BORDERS_PLUS_HP
                u_hp[u] = min(self.max_hp(u), u_hp[u] + heal)

    def _finish_by_score(self) -> None:
        """The framework's ranking at the turn limit: score, then technologies, cities
        and production (rules 4: then wars declared and stars); equal on all is a draw
        (the framework draws the order at random)."""
        self.over = True
        key = [(self.score[p], self.num_techs(p), len(self.cities_of(p)), self.production(p))
               + ((self.diplo[8 + p], self.stars[p]) if self.b.rules >= 4 else ())
               for p in (0, 1)]
        self.won_by = None if key[0] == key[1] else (0 if key[0] > key[1] else 1)

    def _build(self, p: int, c: int, t: int, bt: int) -> None:
        self.stars[p] -= BUILDING_COST[bt]
        self.building[t] = bt
        self.resource[t] = NO_RES
        if self.b.rules >= 4:  # BuildCommand
            self._building_effect_framework(c, t, bt, +1)
            if bt in UNIQUE_PER_CITY:
                self.c_built[c] |= 1 << bt
            if bt in TEMPLES:
                self.temples.extend((t, 1, TEMPLE_TURNS_TO_SCORE))
            elif bt == PORT:
                self._update_trade_network()
            elif bt in MONUMENT_INDEX:
                self.monuments[p * len(MONUMENTS) + MONUMENT_INDEX[bt]] = BUILT
            elif bt == LUMBER_HUT:  # the hut clears its forest
                self.terrain[t] = PLAIN
            return
        self._building_effect(c, t, bt, +1)
        if bt in UNIQUE_PER_CITY:
            self.c_built[c] |= 1 << bt
        if bt in TEMPLES:
            self.score[p] += TEMPLE_POINTS
            self.c_worth[c] += TEMPLE_POINTS
            self.temples.extend((t, 1, TEMPLE_TURNS_TO_SCORE))
        elif bt == PORT:
            self._update_trade_network()
        elif bt in MONUMENT_INDEX:
            self.score[p] += MONUMENT_POINTS
            self.c_worth[c] += MONUMENT_POINTS
            self.monuments[p * len(MONUMENTS) + MONUMENT_INDEX[bt]] = BUILT

    def _building_effect(self, c: int, t: int, bt: int, sign: int) -> None:
        """Add (sign +1) or remove (−1) what building ``bt`` on ``t`` gives city ``c``."""
        pop = BUILDING_POP.get(bt, 0) * sign
        prod = 0
        building, owner = self.building, self.owner
        if bt in BOOSTS:
            booster, bonus, is_prod = BOOSTS[bt]
            for m in self.b.nbr[t]:
                if building[m] == booster and owner[m] == c:
                    if is_prod:
                        prod += bonus * sign
                    else:
                        pop += bonus * sign
        elif bt in BOOSTED_BY:
            producer, bonus, is_prod = BOOSTED_BY[bt]
            for m in self.b.nbr[t]:
                if building[m] == producer and owner[m] == c:
                    if is_prod:
                        prod += bonus * sign
                    else:
                        pop += bonus * sign
        if pop:
            self._add_pop(c, pop)
        self.c_prod[c] += prod

    def _destroy(self, c: int, t: int) -> None:
        bt = self.building[t]
        self.building[t] = NO_BUILDING  # (neighbour scans skip the tile itself)
        if self.b.rules >= 4:
            self._building_effect_framework(c, t, bt, -1)
        else:
            self._building_effect(c, t, bt, -1)
        if bt in UNIQUE_PER_CITY:
            self.c_built[c] &= ~(1 << bt)
        elif bt in TEMPLES:
            temples = self.temples
            i = next(i for i in range(0, len(temples), 3) if temples[i] == t)
            del temples[i:i + 3]
        elif bt == PORT:
            self._update_trade_network()

    def _level_up(self, p: int, c: int, bonus: int) -> None:
        points = level_up_points(bonus)
        self.score[p] += points
        self.c_worth[c] += points
        self.c_pop[c] -= self.c_level[c] + 1
        self.c_level[c] += 1
        if self.c_level[c] >= PARK_OF_FORTUNE_LEVEL:
            self._monument_available(p, PARK_OF_FORTUNE)
        pos = self.b.city_pos[c]
        if bonus == WORKSHOP:
            self.c_prod[c] += CITY_LEVEL_UP_WORKSHOP_PROD
        elif bonus == EXPLORER:
            self._explorer(p, pos)
        elif bonus == CITY_WALL:
            self.c_walls[c] = 1
        elif bonus == RESOURCES:
            self._add_stars(p, CITY_LEVEL_UP_RESOURCES)
        elif bonus == POP_GROWTH:
            self._add_pop(c, CITY_LEVEL_UP_POP_GROWTH)
        elif bonus == BORDER_GROWTH:
            self.c_radius[c] += 1
            self._claim(c)
        elif bonus == PARK:
            self.score[p] += CITY_LEVEL_UP_PARK
            self.c_worth[c] += CITY_LEVEL_UP_PARK
        elif bonus == SUPER:
            self._push_off(pos)
            self._new_unit(SUPERUNIT, pos, p, c, FINISHED)

    def _move(self, p: int, u: int, t: int) -> None:
        self.unit_at[self.u_pos[u]] = -1
        self.unit_at[t] = u
        self.u_pos[u] = t
        ut = self.u_type[u]
        ter = self.terrain[t]
        if ut in NAVAL and ter not in WATER:
            self.u_type[u] = self.u_base[u]
            self.u_status[u] = FINISHED
            self._rejoin(u)
        elif ut not in NAVAL and ter in WATER:
            self.u_type[u] = BOAT
            self.u_status[u] = FINISHED
            self._rejoin(u)
        elif self.b.rules >= 4:
            self.u_status[u] = _AFTER_MOVE_FRAMEWORK[ut][self.u_status[u]]
        else:
            self.u_status[u] = _AFTER_MOVE[ut][self.u_status[u]]
        self._explore(p, t, 1)

    def _rejoin(self, u: int) -> None:
        """Rules version 4: the framework's embark, disembark and upgrade replace the
        unit by a new one, appended to its city's list of units (``Board.addUnit``)."""
        if self.b.rules >= 4:
            self.u_join[u] = max(self.u_join) + 1

    def defence_multiplier(self, v: int) -> float:
        """City walls ×4; a city without walls, or forest (Archery), mountain (Meditation)
        or water (Aquatism) researched by the defender: ×1.5 (AttackCommand)."""
        pos = self.u_pos[v]
        q = self.u_tribe[v]
        ter = self.terrain[pos]
        techs = self.techs[q]
        if ter == CITY:
            city = self.b.city_at[pos]
            if self.c_tribe[city] == q:
                if self.c_walls[city]:
                    return DEFENCE_IN_WALLS
                if self.b.rules >= 4:  # Types.UNIT.canFortify
                    return DEFENCE_BONUS if self.u_type[v] in _FORTIFY else 1.0
                if self.u_type[v] not in NAVAL:
                    return DEFENCE_BONUS
            return 1.0
        if ((ter == MOUNTAIN and techs >> MEDITATION & 1)
                or (ter in WATER and techs >> AQUATISM & 1)
                or (ter == FOREST and techs >> ARCHERY & 1)):
            return DEFENCE_BONUS
        return 1.0

    def attack_result(self, u: int, v: int) -> tuple[int, int]:
        """(damage dealt, retaliation damage if the target survives and is in range)."""
        ut, vt = self.u_type[u], self.u_type[v]
        return combat(UNIT_ATK[ut], self.u_hp[u], self.max_hp(u), UNIT_DEF[vt], self.u_hp[v],
                      self.max_hp(v), self.defence_multiplier(v), self.b.rules >= 4)

    def _after_attack(self, p: int, u: int) -> None:
        self.u_status[u] = _AFTER_ATTACK[self.u_type[u]][self.u_status[u]]
        self.pacifist[p] = 0

    def _attack(self, p: int, u: int, v: int) -> None:
        dealt, back = self.attack_result(u, v)
        self._after_attack(p, u)
        self.stats[p][STAT_ATTACKS] += 1
        q = self.u_tribe[v]
        if self.b.rules >= 4:  # AttackCommand: −5, and −5 more for a kill
            self._repercussion(ATTACK_REPERCUSSION, p, q)
            if self.u_hp[v] <= dealt:
                self._repercussion(ATTACK_REPERCUSSION, p, q)
        if self.u_hp[v] <= dealt:
            target_pos = self.u_pos[v]
            self._kill(v)
            self._add_kill(p, u)
            ut = self.u_type[u]
            ter = self.terrain[target_pos]
            if ut in MELEE and ter not in WATER and (ter != MOUNTAIN
                                                     or self.techs[p] >> CLIMBING & 1):
                self.unit_at[self.u_pos[u]] = -1
                self.unit_at[target_pos] = u
                self.u_pos[u] = target_pos
                self._explore(p, target_pos, 1)
            elif ut in MELEE and ter in WATER and self.b.rules >= 4 \
                    and self.building[target_pos] == PORT and self.owner[target_pos] >= 0 \
                    and self.c_tribe[self.owner[target_pos]] == p:
                # Board.tryPush: the killer moves onto its tribe's port and embarks (a new,
                # finished unit)
                self.unit_at[self.u_pos[u]] = -1
                self.unit_at[target_pos] = u
                self.u_pos[u] = target_pos
                self.u_type[u] = BOAT
                self.u_status[u] = FINISHED
                self._rejoin(u)
        else:
            self.u_hp[v] -= dealt
            if self.b.cheb(self.u_pos[u], self.u_pos[v]) <= UNIT_RANGE[self.u_type[v]]:
                self.u_hp[u] -= back
                if self.u_hp[u] <= 0:
                    self._kill(u)
                    self._add_kill(q, v)

    def _add_kill(self, p: int, u: int) -> None:
        self.u_kills[u] += 1
        if self.u_type[u] == KNIGHT:  # persist: Unit.addKill lets a knight attack again
            self.u_status[u] = ATTACKED
        self.kills[p] += 1
        if self.kills[p] >= GATE_OF_POWER_KILLS:
            self._monument_available(p, GATE_OF_POWER)

    def _capture(self, p: int, u: int) -> None:
        pos = self.u_pos[u]
        c = self.b.city_at[pos]
        q = self.c_tribe[c]
        self.u_status[u] = FINISHED
        self.c_order[c] = self.moves  # appended to the tribe's cities (Tribe.addCity)
        if q < 0:  # a neutral village becomes a city of level 1
            self.c_tribe[c] = p
            self.terrain[pos] = CITY
            if self.b.rules >= 4:
                self.score[p] += CITY_CENTRE_POINTS
            self._claim(c)
            self._explore(p, pos, 1)
            self._move_one_to(c, p)
        else:
            worth = self.c_worth[c]
            self.score[q] -= worth
            self.score[p] += worth
            if self.b.rules >= 4:
                self._repercussion(CAPTURE_REPERCUSSION, p, q)
            self.c_tribe[c] = p
            if self.b.rules >= 4:
                self._rebuild_effects_on_capture(c)
            self._move_all_from(c, q)
            self._move_one_to(c, p)
            if self.b.rules >= 4 and q not in self.c_tribe:  # Tribe.manageLoss
                for v in range(len(self.u_tribe)):
                    if self.u_tribe[v] == q:
                        self.unit_at[self.u_pos[v]] = -1
                        self.u_type[v] = self.u_tribe[v] = self.u_city[v] = -1
            if c == self.b.capital_city[q]:
                self.over = True
                self.won_by = p
                if self.b.rules >= 4:  # Game.processTurn still ends the winner's turn
                    self._recover_idle(p)
        self._update_trade_network()

    # ---- trade network (TradeNetwork.java, Tribe.updateNetwork) ------------------------
    def _update_trade_network(self, road: int = -1) -> None:
        """Recompute both tribes' trade networks, as the framework's game does whenever a
        road, a port or a city is added to the network or a port leaves it
        (``TradeNetwork.setTradeNetwork``): a city of a tribe is connected when its
        capital reaches it over the tribe's city tiles, its ports and roads on its own or
        neutral tiles (8-neighbourhood), and between two of its ports within
        PORT_TRADE_DISTANCE steps of water it explored that no enemy owns. Each newly
        connected city gives its capital one population and each lost one takes it back;
        the city itself gains (loses) one only in its tribe's own turn. Five connected
        cities make the Grand Bazar available. As in the framework, a city that changed
        hands stays in its old tribe's connected set until that is rebuilt."""
        for q in (0, 1):
            reached = None
            if road >= 0 and self._net_clean >> q & 1:
                reached = self._extend_reach(road, q)
                if reached is None:
                    continue  # the road joins nothing the capital reaches
            self._update_network_of(q, reached)

    def _extend_reach(self, t: int, q: int):
        """Tribe ``q``'s reach after a new road on ``t``, from the reach kept since its
        last recomputation (``_net_clean`` marks a tribe with no territory or, with
        ports on the board, exploration change since then, so that a recomputation would
        give the same reach): None if the road joins nothing reached, False if it reaches
        a port (a full recomputation follows its sea links), else the extended reach.
        A road only adds a node, so the reach can only grow, from ``t``."""
        reach = self._net_reach[q]
        owner, c_tribe, terrain, building, road = (self.owner, self.c_tribe, self.terrain,
                                                   self.building, self.road)
        o = owner[t]
        if (o >= 0 and c_tribe[o] != q) or reach[t]:
            return None
        nbr = self.b.nbr
        if not any([reach[m] for m in nbr[t]]):
            return None
        reach = bytearray(reach)
        reach[t] = 1
        stack = [t]
        while stack:
            for m in nbr[stack.pop()]:
                if reach[m]:
                    continue
                o = owner[m]
                mine = o >= 0 and c_tribe[o] == q
                if mine and building[m] == PORT:
                    return False
                if (mine and terrain[m] == CITY) or (road[m] and (o < 0 or mine)):
                    reach[m] = 1
                    stack.append(m)
        return reach

    def _update_network_of(self, q: int, reached=None) -> None:
        """Tribe.updateNetwork for ``q`` with its reach (computed when None or False)."""
        if self.b.rules >= 4:
            self._update_network_framework(q, reached)
            return
        capital = self.b.capital_city[q]
        c_tribe = self.c_tribe
        old = self.connected[q]
        lost: list[int] = []
        added: list[int] = []
        if c_tribe[capital] != q:  # no capital, no network
            lost = [c for c in range(len(c_tribe)) if old >> c & 1]
            self.connected[q] = 0
            self._net_clean &= ~(1 << q)
        else:
            others = [c for c, t in enumerate(c_tribe) if t == q and c != capital]
            if not others:
                self._net_clean &= ~(1 << q)  # (no reach kept)
                return
            if not reached:
                reached = self._network_reach(q)
            net_reach = self._net_reach = self._net_reach[:]  # shared with clones
            net_reach[q] = reached
            self._net_clean |= 1 << q
            city_pos = self.b.city_pos
            now = old
            for c in others:
                bit = 1 << c
                linked = reached[city_pos[c]]
                if old & bit and not linked:
                    now &= ~bit
                    lost.append(c)
                elif not old & bit and linked:
                    now |= bit
                    added.append(c)
            self.connected[q] = now
            if len(added) != len(lost):
                self._add_pop(capital, len(added) - len(lost), q)
            if bin(now).count("1") >= GRAND_BAZAR_CITIES:
                self._monument_available(q, GRAND_BAZAR)
        if q == self.player:  # the cities' own population only in their tribe's turn
            for c in lost:
                self._add_pop(c, -1, q)
            for c in added:
                self._add_pop(c, 1, q)

    def _update_network_framework(self, q: int, reached=None) -> None:
        """Rules version 4: ``Tribe.updateNetwork`` at the framework's commit. Without
        its capital a tribe's network is emptied with no population change. Else a city
        that drops out of the network, or that the tribe no longer holds, loses 1
        population at once (the points are the tribe's), in either tribe's turn; a city
        that joins gains 1 only in its tribe's turn; the capital gains one per city
        joined and loses one per city dropped."""
        capital = self.b.capital_city[q]
        c_tribe = self.c_tribe
        old = self.connected[q]
        if c_tribe[capital] != q:  # no capital, no network
            self.connected[q] = 0
            self._net_clean &= ~(1 << q)
            return
        others = [c for c, t in enumerate(c_tribe) if t == q and c != capital]
        added: list[int] = []
        dropped = 0
        now = old
        if others:
            if not reached:
                reached = self._network_reach(q)
            net_reach = self._net_reach = self._net_reach[:]  # shared with clones
            net_reach[q] = reached
            self._net_clean |= 1 << q
            city_pos = self.b.city_pos
            for c in others:
                bit = 1 << c
                linked = reached[city_pos[c]]
                if old & bit and not linked:
                    now &= ~bit
                    dropped += 1
                    self._add_pop(c, -1, q)
                elif not old & bit and linked:
                    now |= bit
                    added.append(c)
        else:
            self._net_clean &= ~(1 << q)  # (no reach kept)
        for c in range(len(c_tribe)):  # connected cities the tribe no longer holds
            if now >> c & 1 and c_tribe[c] != q:
                now &= ~(1 << c)
                dropped += 1
                self._add_pop(c, -1, q)
        self.connected[q] = now
        if len(added) != dropped:
            self._add_pop(capital, len(added) - dropped, q)
        if bin(now).count("1") >= GRAND_BAZAR_CITIES:
            self._monument_available(q, GRAND_BAZAR)
        if q == self.player:
            for c in added:
                self._add_pop(c, 1, q)

    def _network_reach(self, q: int) -> bytearray:
        """Tiles tribe ``q``'s capital reaches in its trade network (1 = reached)."""
        b = self.b
        nbr = b.nbr
        owner, c_tribe, terrain, building, road = (self.owner, self.c_tribe, self.terrain,
                                                   self.building, self.road)
        node = bytearray(b.n)
        ports = []
        for t in range(b.n):
            o = owner[t]
            mine = o >= 0 and c_tribe[o] == q
            if mine and (terrain[t] == CITY or building[t] == PORT):
                node[t] = 1
                if building[t] == PORT:
                    ports.append(t)
            elif road[t] and (o < 0 or mine):
                node[t] = 1
        links: dict[int, list[int]] = {}
        if len(ports) > 1:
            explored, off = self.explored, q * b.n
            for a in ports:
                seen = {a: 0}
                frontier = [a]
                while frontier:
                    nxt = []
                    for t in frontier:
                        d = seen[t] + 1
                        if d > PORT_TRADE_DISTANCE:
                            continue
                        for m in nbr[t]:
                            if m in seen or terrain[m] not in WATER or not explored[off + m]:
                                continue
                            o = owner[m]
                            if o >= 0 and c_tribe[o] != q:
                                continue
                            seen[m] = d
                            nxt.append(m)
                    frontier = nxt
                links[a] = [m for m in ports if m != a and m in seen]
        reached = bytearray(b.n)
        start = b.city_pos[b.capital_city[q]]
        reached[start] = 1
        stack = [start]
        while stack:
            t = stack.pop()
            for m in nbr[t]:
                if node[m] and not reached[m]:
                    reached[m] = 1
                    stack.append(m)
            for m in links.get(t, ()):
                if not reached[m]:
                    reached[m] = 1
                    stack.append(m)
        return reached

    def _examine_framework(self, p: int, u: int) -> None:
        """Rules version 4: ``ExamineCommand``. One of five bonuses, uniformly (a free
        technology is drawn again once all are researched): a superunit (a battleship
        on water) on the unit's own tile, which pushes the unit off; a technology drawn
        uniformly among the researchable ones, in the tree's order, scoring nothing; 3
        population for the capital (or the tribe's first city while it holds no
        capital); an explorer, which finds nothing under full observability; or 10
        stars. The ruins go and the unit is finished."""
        pos = self.u_pos[u]
        bonus = self._rand(5)
        while bonus == 1 and self.techs[p] == ALL_TECHS:
            bonus = self._rand(5)
        if bonus == 0:
            self._push_off(pos)
            if self.terrain[pos] in WATER:
                v = self._new_unit(BATTLESHIP, pos, p, -1, FINISHED)
                self.u_base[v] = WARRIOR  # (the framework's has −1 hp: a bug, not kept)
                self.u_hp[v] = UNIT_HP[WARRIOR]
            else:
                self._new_unit(SUPERUNIT, pos, p, -1, FINISHED)
        elif bonus == 1:
            options = [t for t in range(NUM_TECHS) if researchable(self.techs[p], t)]
            self._research(p, options[self._rand(len(options))], pay=False)
        elif bonus == 2:
            capital = self.b.capital_city[p]
            if self.c_tribe[capital] != p:
                capital = min(self.cities_of(p), key=self.c_order.__getitem__)
            self._add_pop(capital, 3)
        elif bonus == 4:
            self._add_stars(p, 10)
        self.resource[pos] = NO_RES  # (for the superunit too: its tile's ruins go)
        if self.u_tribe[u] == p:  # (set after a push too)
            self.u_status[u] = FINISHED

    def _examine(self, p: int, u: int) -> None:
        if self.b.rules >= 4:
            self._examine_framework(p, u)
            return
        pos = self.u_pos[u]
        self.resource[pos] = NO_RES
        self.u_status[u] = FINISHED
        bonus = self._rand(5)
        if bonus == 0:  # superunit next to the unit, if there is room on land
            for t in self.b.nbr[pos]:
                if self.unit_at[t] < 0 and self.terrain[t] not in WATER \
                        and self.terrain[t] != MOUNTAIN:
                    self._new_unit(SUPERUNIT, t, p, -1, FINISHED)
                    return
            self._add_stars(p, 10)
        elif bonus == 1:  # a free technology
            options = [t for t in range(NUM_TECHS) if researchable(self.techs[p], t)]
            if options:
                self._research(p, options[self._rand(len(options))], pay=False)
        elif bonus == 2:  # population for the unit's city (else the capital)
            city = self.u_city[u]
            if city < 0 or self.c_tribe[city] != p:
                city = self.b.capital_city[p]
            if self.c_tribe[city] == p:
                self._add_pop(city, 3)
        elif bonus == 3:
            self._explorer(p, pos)
        else:
            self._add_stars(p, 10)

    # ---- serialisation ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: list(getattr(self, name)) for name in _LIST_FIELDS}
        data["explored"] = list(self.explored)
        data["stats"] = [list(self.stats[0]), list(self.stats[1])]
        if self.b.rules != 3:  # version 3 snapshots stay as they were written
            data["rules"] = self.b.rules
            data["diplomacy"] = list(self.diplo)
            if self.foreign:  # only after a framework action built outside a city
                data["foreign"] = list(self.foreign)
        data.update(level=self.b.level.seed, size=self.b.size, turn_limit=self.turn_limit,
                    turn=self.turn, player=self.player, moves=self.moves, over=self.over,
                    won_by=self.won_by, rng=self.rng)
        return data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TribesState) and self.to_dict() == other.to_dict()

    __hash__ = None

    def __str__(self) -> str:
        b = self.b
        rows = []
        unit_chars = "wrdsacknbBSG"
        for y in range(b.size):
            cells = []
            for x in range(b.size):
                t = y * b.size + x
                u = self.unit_at[t]
                ch = TERRAIN_CHARS[self.terrain[t]]
                if b.city_at[t] >= 0 and self.c_tribe[b.city_at[t]] >= 0:
                    ch = str(self.c_tribe[b.city_at[t]])
                unit = unit_chars[self.u_type[u]] + str(self.u_tribe[u]) if u >= 0 else "  "
                cells.append(ch + unit)
            rows.append(" ".join(cells))
        for p in (0, 1):
            rows.append(f"tribe {p} ({TRIBES[b.level.tribes[p]][0]}): stars {self.stars[p]} "
                        f"score {self.score[p]} techs {self.num_techs(p)} cities "
                        f"{len(self.cities_of(p))} units {len(self.units_of(p))} "
                        f"production {self.production(p)}")
        if self.over:
            rows.append(f"game over in round {self.turn}: "
                        + (f"tribe {self.won_by} wins" if self.won_by is not None else "draw"))
        else:
            rows.append(f"round {self.turn}, tribe {self.player} to act")
        return "\n".join(rows)


_BOARDS: dict[tuple[int | str, int, int], Board] = {}


def board_for(level: int | str, size: int = DEFAULT_SIZE, rules: int = RULES_VERSION) -> Board:
    """The (cached) static board of a level under a rules version: a generator seed (at
    ``size``), or a framework level ``"java:N"`` / ``"java:NAME"`` (its own size)."""
    key = (level, size if isinstance(level, int) else 0, rules)
    if key not in _BOARDS:
        if len(_BOARDS) > 512:
            _BOARDS.clear()
        _BOARDS[key] = Board(generate_level(level, size) if isinstance(level, int)
                             else load_java_level(level), rules)
    return _BOARDS[key]


def level_key(value: Any, name: str = "level") -> int | str:
    """A level parameter: an integer generator seed or ``"java:N"`` / ``"java:NAME"``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.startswith("java:"):
        if value not in java_level_names():
            raise ValueError(f"{name}: no framework level {value!r} "
                             f"(java:0..java:24 or one of {', '.join(java_level_names()[25:])})")
        return value
    raise ValueError(f"{name} must be an integer or 'java:N', not {value!r}")


class Tribes:
    """The game. ``level=None`` draws a level from ``levels`` (default 0..24 of our
    generator; ``levels="java"`` the framework's 25 tournament levels) with the match RNG;
    a level fixes it: an int is a seed of our generator, ``"java:N"`` the framework's
    tournament level N, ``"java:NAME"`` one of its level files. ``turn_limit`` rounds (50
    in the framework). ``rules`` is the rules version (``RULES_VERSIONS``; 4 plays as the
    framework does, see docs/tribes.md)."""

    name = "tribes"
    num_players = 2

    def __init__(self, level: int | str | None = None,
                 levels: tuple[int | str, ...] | str | None = None,
                 size: int = DEFAULT_SIZE, turn_limit: int = TURN_LIMIT,
                 rules: int = RULES_VERSION) -> None:
        for name, value in (("size", size), ("turn_limit", turn_limit), ("rules", rules)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be an integer, not {value!r}")
        if turn_limit < 1:
            raise ValueError("turn_limit must be >= 1")
        if rules not in RULES_VERSIONS:
            raise ValueError(f"rules must be one of {RULES_VERSIONS}, not {rules}")
        self.rules = rules
        if levels == "java":
            levels = tuple(f"java:{i}" for i in range(25))
        elif isinstance(levels, str):
            raise ValueError(f"levels must be a list of levels or 'java', not {levels!r}")
        self.level = None if level is None else level_key(level)
        self.levels = (tuple(level_key(v, "each of levels") for v in levels)
                       if levels is not None else tuple(range(NUM_LEVELS)))
        if not self.levels:
            raise ValueError("levels must name at least one level")
        self.size = size
        self.turn_limit = turn_limit

    def new_initial_state(self, rng: random.Random | None = None) -> TribesState:
        rng = rng or random.Random(0)
        level = self.level if self.level is not None else self.levels[rng.randrange(
            len(self.levels))]
        return TribesState.initial(board_for(level, self.size, self.rules),
                                   seed=rng.getrandbits(63),
                                   turn_limit=self.turn_limit)

    def state_from_dict(self, data: dict[str, Any], rng: random.Random | None = None
                        ) -> TribesState:
        try:
            level = data["level"]
            board = board_for(level if isinstance(level, str) else int(level), int(data["size"]),
                              int(data.get("rules", 3)))
            s = TribesState.__new__(TribesState)
            s.b = board
            s.turn_limit = int(data["turn_limit"])
            for name in _LIST_FIELDS:
                setattr(s, name, [int(v) for v in data[name]])
            s.explored = bytearray(int(v) for v in data["explored"])
            s.stats = [[int(v) for v in row] for row in data["stats"]]
            s.turn, s.player, s.moves = int(data["turn"]), int(data["player"]), int(data["moves"])
            s.over = bool(data["over"])
            s.won_by = None if data["won_by"] is None else int(data["won_by"])
            s.rng = int(data["rng"])
            s.diplo = [int(v) for v in data.get("diplomacy", [0] * 10)]
            s.foreign = tuple(int(v) for v in data.get("foreign", ()))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"bad tribes snapshot: {err!r}") from None
        if len(s.terrain) != board.n or len(s.explored) != 2 * board.n:
            raise ValueError("bad tribes snapshot: board size does not match its level")
        s._legal_list = s._legal_set = None
        s._segs = s._pending = s._head = s._groups = s._tile_groups = None
        s.econ, s._tile_cache, s._territory = 0, [None, None], None
        s._tiles_shared = False
        s._net_clean, s._net_reach = 0, [None, None]
        return s

    def action_from_json(self, value: Any):
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return tuple(value)
        raise ValueError(f"not a tribes action: {value!r}")
