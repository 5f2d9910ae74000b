"""The Java framework's portfolio (GAIGResearch/Tribes at 270e7e5, ``SimplePortfolio``),
as an option of Portfolio MCTS beside the paper's (``portfolio.py``).

The framework's portfolio maps each action type to scripts; a script receives an actor's
actions of its type and returns one (with a value v) or nothing. Its assignments are
made actor by actor (units in their cities' order, then cities, then the tribe), type
by type in the order of Java's ``Types.ACTION``, script by script; an assignment whose
actor and action an earlier one already has is dropped, so the first script's value
wins (``SimplePortfolio.extract``). The prior is h = w·v with w = 0.5 for every type
but SPAWN and RESEARCH, whose scripts may carry their own weights
(``PrunePortfolioHeuristic.setWeights``). Rollouts play an assignment drawn uniformly
from the whole list (``PortfolioTreeNode.rollOut``). DESTROY and DISBAND have no
script (commented out in ``initPortfolio``), nor do diplomacy's types.

Each framework script is one of Table III's σ ids (the info tuple's σ and its weight):
wrappers σ1, σ3..σ9 (``BaseScript``: the group's first action, v = 0.5), σ11..σ14,
research σ15..σ19, clear forest σ20..σ23, level up σ24/σ25, build σ26..σ35, spawn
σ36..σ41, convert σ42..σ44, move σ45..σ53 and attack σ54..σ57 (σ56 is the
framework's ``AttackMaxDamageScr``).

The scripts' rules are the framework's, its bugs kept (each named "framework bug"
where it happens). Random picks among equals draw from the ``rng`` given (the
framework's portfolio draws from its own seeded ``Random``); what is kept between
calls (``TribesState.unit_memo`` and the memos below) holds only the candidates and
values, never a draw, so the same seed plays the same in any process.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from .constants import (
    ATTACK,
    BOAT,
    BORDER_GROWTH,
    BUILD,
    BUILD_ROAD,
    BUILDING_TERRAIN,
    BURN_FOREST,
    CAPTURE,
    CITY,
    CITY_WALL,
    CLEAR_FOREST,
    CONVERT,
    CROPS,
    CUSTOM_HOUSE,
    DESTROY,
    DISBAND,
    END_TURN,
    EXAMINE,
    FARM,
    FOREST,
    FORGE,
    GROW_FOREST,
    HEAL_OTHERS,
    LEVEL_UP,
    LUMBER_HUT,
    MAKE_VETERAN,
    MINE,
    MOUNTAIN,
    MOVE,
    NO_BUILDING,
    ORE,
    PARK,
    POP_GROWTH,
    PORT,
    RECOVER,
    RESEARCH,
    RESOURCE,
    RESOURCES,
    RUINS,
    SAWMILL,
    SPAWN,
    SUPER,
    TECH_BRANCHES,
    TECH_TIER,
    UNIT_ATK,
    UNIT_COST,
    UNIT_DEF,
    UNIT_HP,
    UNIT_MOV,
    UNIT_RANGE,
    UPGRADE,
    VILLAGE,
    WATER,
    WHALES,
    WINDMILL,
    WORKSHOP,
)
from .portfolio import DEFAULT_WEIGHT, EVOLVED_SCRIPTS, NUM_SCRIPTS
from .rules import TribesState

Offer = tuple  # (σ, candidates, v)
"""A script's offer: (σ, candidates, v); the pick is drawn uniformly from the candidates
(a candidate listed twice is twice as likely, as in the framework's lists)."""

# ---- which scripts, in SimplePortfolio's order -----------------------------------------------
WRAPPERS: dict[int, int] = {END_TURN: 1, EXAMINE: 3, HEAL_OTHERS: 4, RECOVER: 5,
                            MAKE_VETERAN: 8, CAPTURE: 9, UPGRADE: 6}
"""Wrapped types -> σ (UPGRADE: σ6 for a boat, σ7 for a ship: UPGRADE_BOAT/UPGRADE_SHIP)."""
SCRIPT_IDS: dict[int, tuple[int, ...]] = {
    BUILD_ROAD: (11,), BURN_FOREST: (12,), GROW_FOREST: (13,), RESOURCE: (14,),
    RESEARCH: (15, 16, 17, 18, 19),
    CLEAR_FOREST: (20, 21, 22, 23),  # for custom house, forge, sawmill, windmill
    LEVEL_UP: (24, 25),
    # custom house, sawmill, windmill, forge, farm, mine, lumber hut, port, monument, temple
    BUILD: (26, 28, 27, 29, 31, 33, 32, 30, 34, 35),
    SPAWN: (36, 37, 38, 39, 40, 41),
    CONVERT: (42, 43, 44),
    # capture, own city centre, defensively, offensively, disembark, embark, attack range,
    # converge, diverge
    MOVE: (45, 46, 47, 48, 49, 50, 51, 52, 53),
    ATTACK: (54, 55, 56, 57),  # closest, weakest, max damage, strongest
}
NOT_IN_PORTFOLIO = frozenset((DESTROY, DISBAND))
"""Commented out in ``SimplePortfolio.initPortfolio``: never assigned."""
_JAVA_ORDER = {kind: i for i, kind in enumerate((
    BUILD, BURN_FOREST, CLEAR_FOREST, DESTROY, GROW_FOREST, LEVEL_UP, RESOURCE, SPAWN,
    BUILD_ROAD, END_TURN, RESEARCH, ATTACK, CAPTURE, CONVERT, DISBAND, EXAMINE,
    HEAL_OTHERS, MAKE_VETERAN, MOVE, RECOVER, UPGRADE))}
"""Our action types in the order of Java's ``Types.ACTION`` (the portfolio's TreeMap)."""
_UNIT_KINDS = frozenset(range(MOVE, DISBAND + 1))
_CITY_KINDS = frozenset((BUILD, BURN_FOREST, CLEAR_FOREST, DESTROY, GROW_FOREST, LEVEL_UP,
                         RESOURCE, SPAWN))
_BY_ACTIONS = frozenset((SPAWN, LEVEL_UP, RESEARCH))
_EVOLVED = frozenset(EVOLVED_SCRIPTS)


def script_weights(weights: Sequence[float]) -> list[float]:
    """w_σ as the framework's prune heuristic has them: the SPAWN and RESEARCH scripts'
    own weights (σ15..σ19, σ36..σ41, ``weights_with``), 0.5 for every other type (the
    framework keeps one weight per action type and sets none but these)."""
    if len(weights) != NUM_SCRIPTS + 1:
        raise ValueError(f"weights needs {NUM_SCRIPTS + 1} entries (index 0 unused)")
    w = [DEFAULT_WEIGHT] * (NUM_SCRIPTS + 1)
    for sid in EVOLVED_SCRIPTS:
        w[sid] = weights[sid]
    return w


class _Ctx:
    """What the scripts read of one state, worked out on first use."""

    __slots__ = ("s", "p", "_goals", "_city_builds", "_support")

    def __init__(self, s: TribesState, p: int) -> None:
        self.s, self.p = s, p
        self._goals: dict[str, tuple | None] | None = None
        self._city_builds: dict[int, set[int]] = {}
        self._support: dict[tuple[int, int], float] = {}

    def goal_tables(self) -> dict[str, tuple | None]:
        got = self._goals
        if got is None:
            got = self._goals = _goal_tables(self.s, self.p)
        return got

    def goals(self, name: str) -> tuple | None:
        """The goal tiles ``name`` of a move script as a distance table (see ``_table``),
        None when there is no such tile."""
        return self.goal_tables()[name]

    def city_has(self, c: int, bt: int) -> bool:
        """A tile of city ``c`` holds ``bt`` (``BuildingFunc.validConstruction``'s
        uniqueness over ``Board.getCityTiles``: radius 1 below level 4, else 2)."""
        got = self._city_builds.get(c)
        if got is None:
            s = self.s
            pos = s.b.city_pos[c]
            radius = 1 if s.c_level[c] < 4 else 2
            owner, building = s.owner, s.building
            got = self._city_builds[c] = {building[t] for t in s.b.within[radius][pos]
                                          if owner[t] == c}
        return bt in got

    def valid(self, t: int, bt: int, c: int, unique: bool) -> bool:
        """``validConstruction``: the terrain, and with ``unique`` no ``bt`` in the city
        (neither that the tile is the city's nor that it is empty is checked)."""
        return self.s.terrain[t] in BUILDING_TERRAIN[bt] and not (unique and self.city_has(c, bt))

    def support(self, t: int, target: int) -> float:
        """``evalNeighSupportBuilding``: the share of t's neighbours that suit ``target``."""
        key = (t, target)
        got = self._support.get(key)
        if got is None:
            s = self.s
            around = s.b.nbr[t]
            good = _GOOD[target]
            got = self._support[key] = sum(1 for m in around if good(s, m)) / len(around)
        return got

    def base_value(self, t: int, base: int, c: int) -> float:
        """``valueForBaseBuilding`` for one base building: where ``base`` could stand on
        t, the best neighbour of t for its support building (0 if none)."""
        best = 0.0
        if self.valid(t, base, c, False):
            sup = _SUPPORT_OF[base]
            for m in self.s.b.nbr[t]:
                if self.valid(m, sup, c, True):
                    x = self.support(m, sup)
                    if x > best:
                        best = x
        return best


_GOAL_MEMO: dict[tuple, tuple] = {}
"""(id of the state's owner list, econ, player) -> (that list, the goal tables)."""
_TABLES: dict[tuple, tuple] = {}
"""(board size, goal tiles) -> distance table."""


def _goal_tables(s: TribesState, p: int) -> dict[str, tuple | None]:
    """The move scripts' goal tiles as distance tables: ruins, villages and cities not
    the tribe's (``MoveToCaptureScr``), the tribe's city centres (``MoveToOwnCityCentreScr``),
    tiles of its cities and of others' (``MoveDefensivelyScr``, ``MoveOffensivelyScr``),
    land (``MoveToDisembarkScr``) and ports of its cities (``MoveToEmbarkScr``).

    Kept under the identity of the state's tile lists and its economy counter: the
    forward model writes those lists only in the one state that holds them, bumping the
    counter each time (clones share them until one writes, which copies them first), so
    the pair fixes the tiles, their owners and the cities' tribes."""
    key = (id(s.owner), s.econ, p)
    got = _GOAL_MEMO.get(key)
    if got is not None and got[0] is s.owner:
        return got[1]
    terrain, resource, building, owner, c_tribe = (s.terrain, s.resource, s.building, s.owner,
                                                   s.c_tribe)
    capture, centres, own, others, land, ports = [], [], [], [], [], []
    for t in range(s.b.n):
        ter, o = terrain[t], owner[t]
        mine = o >= 0 and c_tribe[o] == p
        if o >= 0:
            (own if mine else others).append(t)
        if ter not in WATER:
            land.append(t)
        if resource[t] == RUINS or ter == VILLAGE or (ter == CITY and not mine):
            capture.append(t)
        if ter == CITY and mine:
            centres.append(t)
        if mine and building[t] == PORT:
            ports.append(t)
    size = s.b.size
    tables = {name: _table(size, s.b.dist, tuple(goals)) for name, goals in (
        ("capture", capture), ("centres", centres), ("own", own), ("others", others),
        ("land", land), ("ports", ports))}
    if len(_GOAL_MEMO) > 5_000:
        _GOAL_MEMO.clear()
    _GOAL_MEMO[key] = (s.owner, tables)
    return tables


def _table(size: int, dist: tuple, goals: tuple) -> tuple | None:
    """For each tile: the Chebyshev distance to the nearest goal, how many goals lie at
    that distance and the distance to the farthest goal (None without goals)."""
    if not goals:
        return None
    key = (size, goals)
    got = _TABLES.get(key)
    if got is None:
        near, count, far = [], [], []
        for row in dist:
            ds = list(map(row.__getitem__, goals))
            lo = min(ds)
            near.append(lo)
            count.append(ds.count(lo))
            far.append(max(ds))
        if len(_TABLES) > 5_000:
            _TABLES.clear()
        got = _TABLES[key] = (near, count, far)
    return got


# BuildingFunc.goodNeighbourFor
_GOOD: dict[int, Callable[[TribesState, int], bool]] = {
    CUSTOM_HOUSE: lambda s, m: s.terrain[m] in WATER and s.building[m] in (NO_BUILDING, PORT),
    WINDMILL: lambda s, m: s.resource[m] == CROPS or s.building[m] == FARM,
    FORGE: lambda s, m: (s.terrain[m] == MOUNTAIN and s.resource[m] == ORE)
    or s.building[m] == MINE,
    SAWMILL: lambda s, m: s.terrain[m] == FOREST or s.building[m] == LUMBER_HUT,
}
_SUPPORT_OF = {FARM: WINDMILL, MINE: FORGE, LUMBER_HUT: SAWMILL, PORT: CUSTOM_HOUSE}
"""``BUILDING.getMatchingBuilding`` of the base buildings."""
_SUPPORTS = (SAWMILL, CUSTOM_HOUSE, WINDMILL, FORGE)


def _normalise(x: float, lo: float, hi: float) -> float:
    """``utils.Utils.normalise``: x itself when the bounds are not increasing."""
    return (x - lo) / (hi - lo) if lo < hi else x


# ---- MilitaryFunc.getActionByActorAttr (attack, convert, spawn) --------------------------------

def _by_attr(sid: int, actions: Sequence[tuple], values: Sequence[float],
             maximise: bool) -> tuple[int, tuple, float]:
    """The first action with the best value. v = normalise(best, 0, m) (1 − that when
    minimising) where m is the largest best-so-far: the best itself when maximising
    (so v = 1 for a positive best), but the *first* action's value when minimising, so
    v = 1 − best/first (framework bug: 0 whenever the first action is the best)."""
    best = -math.inf if maximise else math.inf
    top = -math.inf
    pick = None
    for a, x in zip(actions, values):
        if (x > best) if maximise else (x < best):
            best, pick = x, a
        if best > top:
            top = best
    v = _normalise(best, 0, top)
    return sid, (pick,), v if maximise else 1 - v


def _spawn(stat: Sequence[int], maximise: bool = True):
    def script(sid, s, p, actor, actions, ctx):
        return _by_attr(sid, actions, [stat[a[2]] for a in actions], maximise)
    return script


def _convert(key: Callable[[TribesState, int], float]):
    def script(sid, s, p, actor, actions, ctx):
        return _by_attr(sid, actions, [key(s, a[2]) for a in actions], True)
    return script


def _attack_closest(sid, s, p, actor, actions, ctx):
    """Euclidean distance from the attacker to the target (``Vector2d.dist``)."""
    size = s.b.size
    here = s.u_pos[actor]
    y0, x0 = divmod(here, size)
    values = []
    for a in actions:
        y, x = divmod(s.u_pos[a[2]], size)
        values.append(math.sqrt((y - y0) * (y - y0) + (x - x0) * (x - x0)))
    return _by_attr(sid, actions, values, False)


def _attack_max_damage(sid, s, p, actor, actions, ctx):
    """Framework bug: the damage is read off the target of the original state after the
    attack ran on a copy, so it is 0 for every attack: the first attack, v = 0."""
    return _by_attr(sid, actions, [0.0] * len(actions), True)


# ---- MilitaryFunc.getPreferredResearchTech ------------------------------------------------------

def _research(branch: str):
    techs = frozenset(TECH_BRANCHES[branch])

    def script(sid, s, p, actor, actions, ctx):
        """A single research action is offered as it is, v = 0.5; else the branch's
        lowest-tier techs at random, v = (4 − tier)/4."""
        if len(actions) == 1:
            return sid, (actions[0],), 0.5
        tier, cands = 99, []
        for a in actions:
            if a[1] in techs:
                t = TECH_TIER[a[1]]
                if t < tier:
                    tier, cands = t, []
                if t == tier:
                    cands.append(a)
        return (sid, tuple(cands), (4 - tier) / 4.0) if cands else None
    return script


def _level_up_growth(sid, s, p, actor, actions, ctx):
    """The first workshop, resources or population growth; else park or superunit at random."""
    cands = []
    for a in actions:
        if a[2] in (WORKSHOP, RESOURCES, POP_GROWTH):
            return sid, (a,), 0.5
        if a[2] in (PARK, SUPER):
            cands.append(a)
    return (sid, tuple(cands), 0.5) if cands else None


def _level_up_military(sid, s, p, actor, actions, ctx):
    """The first city wall, border growth, superunit or workshop (so at level 1 the same
    workshop as growth's, dropped as a repeat; no script picks the explorer)."""
    for a in actions:
        if a[2] in (CITY_WALL, BORDER_GROWTH, SUPER, WORKSHOP):
            return sid, (a,), 0.5
    return None


# ---- BuildingFunc ------------------------------------------------------------------------------

def _best_ties(sid: int, actions: Sequence[tuple], values: Sequence[float], start: float,
               value: Callable[[float], float] = float) -> Offer | None:
    """The actions tied at the highest value (at least ``start``), v = value(highest)."""
    best, cands = start, []
    for a, x in zip(actions, values):
        if x > best:
            best, cands = x, [a]
        elif x == best:
            cands.append(a)
    return (sid, tuple(cands), value(best)) if cands else None


def _support_build(target: int):
    """``buildSupportBuilding``: custom house, sawmill, windmill, forge (BUILD) and the
    clear-forest scripts: where the most neighbours suit ``target``, v = that share."""
    def script(sid, s, p, actor, actions, ctx):
        if actions[0][0] == BUILD:
            actions = [a for a in actions if a[3] == target]
        return _best_ties(sid, actions, [ctx.support(a[2], target) for a in actions], 0.0)
    return script


def _base_build(base: int):
    """``buildBaseBuilding``: farm, mine, lumber hut, port, scored by the best neighbour
    for their support building. Framework bug: a new best adds its action to the list and
    then replaces the list, so the best-scoring action found first is lost and the script
    offers only a later action that ties it (v = that score), else nothing."""
    sup = _SUPPORT_OF[base]

    def script(sid, s, p, actor, actions, ctx):
        best, cands = -1.0, []
        for a in actions:
            if a[3] != base:
                continue
            score = 0.0
            for m in s.b.nbr[a[2]]:
                if ctx.valid(m, sup, a[1], True):
                    x = ctx.support(m, sup)
                    if x > score:
                        score = x
            if score > best:
                best, cands = score, []
            elif score == best:
                cands.append(a)
        return (sid, tuple(cands), best) if cands else None
    return script


def _never(sid, s, p, actor, actions, ctx):
    """Monuments and temples (``BuildMonumentScr``, ``BuildTempleScr``). Framework bug:
    ``BuildingFunc.buildInIdle`` makes its pick but never returns it (``new Pair<>(…)``
    without ``return``), so these scripts never offer anything. Also the move to diverge
    (``MoveToDivergeScr``): ``position`` needs a value of at least 6, and its values
    are at most 1."""
    return None


def _burn_forest(sid, s, p, actor, actions, ctx):
    """Burn where a farm is good and a lumber hut bad: v = normalise(farm − hut, −1, 1).
    Framework bug: the farm's score asks whether a farm could stand on the tile, which is
    forest, so it is always 0 and the script prefers the forests worst for lumber huts."""
    values = [ctx.base_value(a[2], FARM, a[1]) - ctx.base_value(a[2], LUMBER_HUT, a[1])
              for a in actions]
    return _best_ties(sid, actions, values, -math.inf, lambda b: _normalise(b, -1, 1))


def _grow_forest(sid, s, p, actor, actions, ctx):
    """Grow where a lumber hut would be good. Framework bug: that asks whether a lumber
    hut could stand on the tile, which is plain, so every score is 0: any grow action at
    random, v = 0."""
    return _best_ties(sid, actions, [ctx.base_value(a[2], LUMBER_HUT, a[1]) for a in actions],
                      0.0)


def _resource(sid, s, p, actor, actions, ctx):
    """The first whale hunt (v = 1); else where a support building would do best (v =
    0.5 + 0.5·its share), or any gathering at random (v = 0.5) if none would do."""
    cands: list[tuple] = []
    on_support = False
    best, v = 0.0, 0.5
    for a in actions:
        t, c = a[2], a[1]
        if s.resource[t] == WHALES:
            return sid, (a,), 1.0
        score = 0.0
        for target in _SUPPORTS:
            if ctx.valid(t, target, c, True):
                x = ctx.support(t, target)
                if x > score:
                    score = x
        if score > 0:
            if not on_support or score > best:
                cands, best, v = [], score, 0.5 + 0.5 * score
            if score == best:
                cands.append(a)
            on_support = True
        elif not on_support:
            cands.append(a)
    return (sid, tuple(cands), v) if cands else None


def _build_road(sid, s, p, actor, actions, ctx):
    """Roads next to the capital's part of the trade grid (``calcHotspots``: the capital
    and the tiles with a road, a city or a port 8-connected to it, whoever owns them), at
    random, v = 0.5. The script is meant to stop once every city is connected, but it
    compares the tribe's cities with its connected cities, which never count the capital
    (framework bug: it never stops while the tribe holds its capital)."""
    n_cities = sum(1 for t in s.c_tribe if t == p)
    if n_cities == bin(s.connected[p]).count("1"):
        return None
    hot = _road_hotspots(s, p)
    cands = tuple(a for a in actions if hot[a[1]])
    return (sid, cands, 0.5) if cands else None


def _road_hotspots(s: TribesState, p: int) -> bytearray:
    """1 for the tiles next to the trade grid the capital reaches (``checkTradeNetwork``:
    a road, a city centre or a port)."""
    b = s.b
    nbr, road, terrain, building = b.nbr, s.road, s.terrain, s.building
    start = b.city_pos[b.capital_city[p]]
    seen = bytearray(b.n)
    seen[start] = 1
    hot = bytearray(b.n)
    stack = [start]
    while stack:
        for m in nbr[stack.pop()]:
            hot[m] = 1
            if not seen[m] and (road[m] or terrain[m] == CITY or building[m] == PORT):
                seen[m] = 1
                stack.append(m)
    return hot


# ---- MilitaryFunc.moveTowards and position ------------------------------------------------------

def _towards(goal: str):
    """``moveTowards``: the moves whose destination is nearest (Chebyshev) to a goal tile,
    each as often as goals lie at that distance; v = 1 − nearest/farthest over every
    (move, goal) pair."""
    def script(sid, s, p, actor, actions, ctx):
        table = ctx.goals(goal)
        if table is None:
            return None
        near_of, count_of, far_of = table
        near, far, cands = math.inf, 0, []
        for a in actions:
            t = a[2]
            lo = near_of[t]
            if far_of[t] > far:
                far = far_of[t]
            if lo < near:
                near, cands = lo, [a] * count_of[t]
            elif lo == near:
                cands.extend([a] * count_of[t])
        return sid, tuple(cands), 1 - _normalise(near, 0, far)
    return script


def _on_water(s: TribesState, u: int) -> bool:
    return s.terrain[s.u_pos[u]] in WATER


_TO_LAND, _TO_PORTS = _towards("land"), _towards("ports")


def _disembark(sid, s, p, actor, actions, ctx):
    return _TO_LAND(sid, s, p, actor, actions, ctx) if _on_water(s, actor) else None


def _embark(sid, s, p, actor, actions, ctx):
    return None if _on_water(s, actor) else _TO_PORTS(sid, s, p, actor, actions, ctx)


def _attack_range(sid, s, p, actor, actions, ctx):
    """``position`` with the share of tiles within the unit's range held by enemy units:
    offered only where that share is 1 (framework bug: ``position`` needs a value of at
    least 1), v = 1."""
    within = s.b.within[UNIT_RANGE[s.u_type[actor]]]
    unit_at, u_tribe = s.unit_at, s.u_tribe
    cands = []
    for a in actions:
        for m in within[a[2]]:
            v = unit_at[m]
            if v < 0 or u_tribe[v] == p:
                break
        else:
            cands.append(a)
    return (sid, tuple(cands), 1.0) if cands else None


def _converge(sid, s, p, actor, actions, ctx):
    """``position`` with the share of neighbours held by the tribe's units (the moving
    unit counted where it stands): offered only where all are (framework bug: the value
    must be at least 1), v = 1. Not kept with the unit: it reads where the others stand."""
    nbr, unit_at, u_tribe = s.b.nbr, s.unit_at, s.u_tribe
    cands = []
    for a in actions:
        for m in nbr[a[2]]:
            v = unit_at[m]
            if v < 0 or u_tribe[v] != p:
                break
        else:
            cands.append(a)
    return (sid, tuple(cands), 1.0) if cands else None


Script = Callable[..., "Offer | None"]
SCRIPTS: dict[int, Script] = {
    11: _build_road, 12: _burn_forest, 13: _grow_forest, 14: _resource,
    15: _research("farms"), 16: _research("naval"), 17: _research("mountain"),
    18: _research("range"), 19: _research("roads"),
    20: _support_build(CUSTOM_HOUSE), 21: _support_build(FORGE),
    22: _support_build(SAWMILL), 23: _support_build(WINDMILL),
    24: _level_up_growth, 25: _level_up_military,
    26: _support_build(CUSTOM_HOUSE), 27: _support_build(WINDMILL),
    28: _support_build(SAWMILL), 29: _support_build(FORGE),
    30: _base_build(PORT), 31: _base_build(FARM), 32: _base_build(LUMBER_HUT),
    33: _base_build(MINE), 34: _never, 35: _never,
    36: _spawn(UNIT_ATK), 37: _spawn(UNIT_DEF), 38: _spawn(UNIT_COST, maximise=False),
    39: _spawn(UNIT_MOV), 40: _spawn(UNIT_HP), 41: _spawn(UNIT_RANGE),
    42: _convert(lambda s, v: UNIT_ATK[s.u_type[v]]), 43: _convert(lambda s, v: s.u_hp[v]),
    44: _convert(lambda s, v: UNIT_DEF[s.u_type[v]]),
    45: _towards("capture"), 46: _towards("centres"), 47: _towards("own"),
    48: _towards("others"), 49: _disembark, 50: _embark, 51: _attack_range,
    52: _converge, 53: _never,
    54: _attack_closest, 55: lambda sid, s, p, actor, actions, ctx: _by_attr(
        sid, actions, [UNIT_DEF[s.u_type[a[2]]] for a in actions], False),
    56: _attack_max_damage, 57: lambda sid, s, p, actor, actions, ctx: _by_attr(
        sid, actions, [UNIT_ATK[s.u_type[a[2]]] for a in actions], True),
}
_TOWARDS = (45, 46, 47, 48, 49, 50)
"""The move scripts that read only the moves, the goal tiles and whether the unit is on
water (``moveTowards``)."""
assert SCRIPT_IDS[MOVE][:6] == _TOWARDS


# ---- offers of one group, and the draw ----------------------------------------------------------
_ACTION_MEMO: dict[tuple, tuple] = {}
"""Offers that depend on the group's actions alone (research, spawn, level up)."""
_TOWARDS_MEMO: dict[tuple, tuple] = {}
"""(moves, id of the goal tables, on water) -> (those tables, ``_TOWARDS``' offers)."""
_TILE_MEMO: dict[int, tuple] = {}
"""id(cities' tile candidates) -> (those candidates, {key: offers}) (see ``_offers``)."""


def clear_memos() -> None:
    """Forget every memo of this module (a player calls it when a game starts, so a
    game plays the same whatever games the process played before)."""
    for memo in (_GOAL_MEMO, _TABLES, _ACTION_MEMO, _TOWARDS_MEMO, _TILE_MEMO):
        memo.clear()


def _offers(s: TribesState, p: int, kind: int, actor: int, actions: tuple, ctx: _Ctx
            ) -> tuple:
    """The non-empty offers of the group's scripts, in script order, as a ``_Group``
    (no draw made).

    A unit's offers are kept with its actions (``unit_memo``; they read the unit, enemy
    units, cities and tiles), but attack range's and converge's, which read other units'
    places; the moves towards goals are also kept
    under the moves, the goal tables and whether the unit is on water. Research, spawn
    and level-up offers depend on the actions only. Cities' tile offers read tiles,
    buildings and territory, which stay the same as long as the state keeps the same
    tuple of its cities' tile candidates (``TribesState.tile_candidates``). Roads read
    the trade grid, which either tribe's roads change without changing the road
    candidates (and a search's simulated turns build other roads than the game's same
    turn): they are never kept."""
    if kind in _UNIT_KINDS:
        memo = s.unit_memo(actor)
        got = memo.get(("fw", kind))
        if got is None:
            if kind == MOVE:
                got = memo["fw", kind] = _towards_group(s, p, actor, actions, ctx)
            else:
                got = memo["fw", kind] = _run(SCRIPT_IDS[kind], s, p, actor, actions, ctx)
        if kind == MOVE:  # attack range and converge read other units: never kept
            extra = tuple(offer for offer in (_attack_range(51, s, p, actor, actions, ctx),
                                              _converge(52, s, p, actor, actions, ctx))
                          if offer is not None)
            if extra:
                return _Group(got.offers + extra)
        return got
    if kind in _BY_ACTIONS:
        key = (kind, actions)
        got = _ACTION_MEMO.get(key)
        if got is None:
            if len(_ACTION_MEMO) > 100_000:
                _ACTION_MEMO.clear()
            got = _ACTION_MEMO[key] = _run(SCRIPT_IDS[kind], s, p, actor, actions, ctx)
        return got
    if kind == BUILD_ROAD:
        return _run(SCRIPT_IDS[kind], s, p, actor, actions, ctx)
    anchor = s.tile_candidates()[1]
    key = (kind, actor, actions, s.c_level[actor] >= 4)  # uniqueness reaches farther from 4
    entry = _TILE_MEMO.get(id(anchor))
    if entry is None or entry[0] is not anchor:
        if len(_TILE_MEMO) > 2_000:
            _TILE_MEMO.clear()
        entry = _TILE_MEMO[id(anchor)] = (anchor, {})
    got = entry[1].get(key)
    if got is None:
        got = entry[1][key] = _run(SCRIPT_IDS[kind], s, p, actor, actions, ctx)
    return got


class _Group:
    """A group's offers, with what is known of its picks before any draw: the picks
    themselves when no offer has a choice, else their number when no two offers share
    a candidate (no pick can be dropped as a duplicate), else nothing."""

    __slots__ = ("offers", "picks", "count")

    def __init__(self, offers: tuple) -> None:
        self.offers = offers
        self.picks: list[tuple] | None = None
        self.count: int | None = None
        if all(len(cands) == 1 for _, cands, _ in offers):
            self.picks = _picks(offers, None)
            self.count = len(self.picks)
        else:
            sets = [set(cands) for _, cands, _ in offers]
            if sum(map(len, sets)) == len(set().union(*sets)):
                self.count = len(offers)

    def draw(self, rng) -> list[tuple]:
        return self.picks if self.picks is not None else _picks(self.offers, rng)


def _run(sids: Sequence[int], s: TribesState, p: int, actor: int, actions: tuple, ctx: _Ctx
         ) -> _Group:
    out = []
    for sid in sids:
        got = SCRIPTS[sid](sid, s, p, actor, actions, ctx)
        if got is not None:
            out.append(got)
    return _Group(tuple(out))


def _towards_group(s: TribesState, p: int, actor: int, actions: tuple, ctx: _Ctx) -> _Group:
    tables = ctx.goal_tables()
    key = (actions, id(tables), _on_water(s, actor))
    got = _TOWARDS_MEMO.get(key)
    if got is None or got[0] is not tables:
        if len(_TOWARDS_MEMO) > 100_000:
            _TOWARDS_MEMO.clear()
        got = _TOWARDS_MEMO[key] = (tables, _run(_TOWARDS, s, p, actor, actions, ctx))
    return got[1]


def _picks(offers: tuple, rng) -> list[tuple]:
    """(action, σ, v) of each offer, drawn among its candidates; an action an earlier
    script of the group picked is dropped (``actionList.contains``: same actor, same
    action)."""
    out: list[tuple] = []
    seen: list[tuple] = []
    for offer in offers:
        cands = offer[1]
        n = len(cands)
        a = cands[0] if n == 1 else cands[int(rng.random() * n)]
        if a not in seen:
            seen.append(a)
            out.append((a, offer[0], offer[2]))
    return out


def _group_picks(s: TribesState, p: int, kind: int, actor: int, actions: tuple, ctx: _Ctx,
                 rng) -> list[tuple]:
    sid = WRAPPERS.get(kind)
    if sid is not None:  # BaseScript: the group's first action
        if kind == UPGRADE and s.u_type[actor] != BOAT:
            sid = 7
        return [(actions[0], sid, 0.5)]
    if kind not in SCRIPT_IDS:  # destroy, disband, diplomacy
        return []
    return _offers(s, p, kind, actor, actions, ctx).draw(rng)


def _java_order(s: TribesState, groups: Sequence[tuple]) -> list[tuple]:
    """The groups as ``produceActionAssignments`` visits them: units (by their city in
    the tribe's city order, then their place in its list; units of no city last), cities
    in the tribe's order, then the tribe; within an actor, Java's order of types."""
    c_order, u_city, u_join = s.c_order, s.u_city, s.u_join
    far = math.inf

    def key(group: tuple) -> tuple:
        kind, actor, _ = group
        if kind in _UNIT_KINDS:
            c = u_city[actor]
            return (0, c_order[c] if c >= 0 else far, c if c >= 0 else far, u_join[actor],
                    _JAVA_ORDER[kind])
        if kind in _CITY_KINDS:
            return (1, c_order[actor], actor, 0, _JAVA_ORDER[kind])
        return (2, 0, 0, 0, _JAVA_ORDER.get(kind, 99))
    return sorted(groups, key=key)


def assignments(state: TribesState, weights: Sequence[float], rng=None) -> list[tuple]:
    """The framework portfolio's assignments of the player to move, in its order, as
    (action, h, (σ, actor, v, w)) with h = v·w (the actor is −1 for tribe actions).
    ``rng`` draws the scripts' random picks among equals (None: ``random.Random(0)``,
    so the same state always gives the same list)."""
    if rng is None:
        rng = random.Random(0)
    p = state.current_player()
    ctx = _Ctx(state, p)
    w = script_weights(weights)
    out = []
    for kind, actor, actions in _java_order(state, state.legal_groups()):
        for a, sid, v in _group_picks(state, p, kind, actor, actions, ctx, rng):
            out.append((a, v * w[sid], (sid, actor, v, w[sid])))
    return out


def random_assignment(state: TribesState, weights: Sequence[float], rng) -> tuple:
    """One assignment drawn uniformly from the list the framework's portfolio makes in
    this state (its scripts' own random picks drawn with ``rng`` too), as
    ``PortfolioTreeNode.rollOut`` draws. The list is not put in the framework's order,
    which a uniform draw does not need, and a group whose number of picks is known
    without drawing them (``_Group``) is drawn in only if the draw lands in it."""
    p = state.current_player()
    ctx = _Ctx(state, p)
    made = []  # (number of picks, actor, kind, actions, picks or _Group or None)
    total = 0
    for kind, actor, actions in state.legal_groups():
        if kind in WRAPPERS:
            made.append((1, actor, kind, actions, None))
            total += 1
            continue
        if kind not in SCRIPT_IDS:  # destroy, disband, diplomacy
            continue
        group = _offers(state, p, kind, actor, actions, ctx)
        n = group.count
        if n is None:
            picks = group.draw(rng)
            made.append((len(picks), actor, kind, actions, picks))
            total += len(picks)
        elif n:
            made.append((n, actor, kind, actions, group))
            total += n
    if not total:  # pragma: no cover - END_TURN or a level-up is always offered
        raise ValueError("the framework's portfolio offers nothing here")
    i = int(rng.random() * total)
    for n, actor, kind, actions, what in made:
        if i >= n:
            i -= n
            continue
        if what is None:
            a, sid, v = _group_picks(state, p, kind, actor, actions, ctx, rng)[0]
        elif isinstance(what, list):
            a, sid, v = what[i]
        elif what.picks is not None:
            a, sid, v = what.picks[i]
        else:  # no shared candidates: the i-th offer, drawn now
            sid, cands, v = what.offers[i]
            a = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
        w = weights[sid] if sid in _EVOLVED else DEFAULT_WEIGHT
        return a, v * w, (sid, actor, v, w)
    raise AssertionError("unreachable")  # pragma: no cover


__all__ = ["NOT_IN_PORTFOLIO", "SCRIPTS", "SCRIPT_IDS", "WRAPPERS", "assignments",
           "random_assignment", "script_weights"]
