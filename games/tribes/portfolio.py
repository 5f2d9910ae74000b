"""The portfolio of seed 002 Table III: 57 scripts σ1..σ57 and action assignments.

A script receives the state, the acting tribe and the legal actions of one action
type for one actor (the tribe, a city or a unit) and returns one of them with a
value v(a) in [0, 1] (None when it has nothing to offer). Wrapper scripts (σ1..σ10)
wrap each action of their type with v = 0.5; best-choice scripts (σ11..σ14) pick the
best action for their type; style-choice scripts (σ15..σ57) pick by a play style.
An *action assignment* is ⟨σ, actor, a, v(a), w_σ⟩; its prior is h = v(a)·w_σ.
The scoring rules inside each script are ours, written from the one-line
descriptions of Table III (σ28 and σ29 read "builds a custom house" in the paper's
table; we implement the evident sawmill and forge).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from .constants import (
    ACTION_NAMES,
    ATTACK,
    BOAT,
    BORDER_GROWTH,
    BUILD,
    BUILD_ROAD,
    BURN_FOREST,
    CAPTURE,
    CITY,
    CITY_WALL,
    CLEAR_FOREST,
    CONVERT,
    CUSTOM_HOUSE,
    DESTROY,
    DISBAND,
    END_TURN,
    EXAMINE,
    EXPLORER,
    FARM,
    FORGE,
    GROW_FOREST,
    HEAL_OTHERS,
    LEVEL_UP,
    LUMBER_HUT,
    MAKE_VETERAN,
    MINE,
    MONUMENTS,
    MOVE,
    NAVAL,
    PARK,
    POP_GROWTH,
    PORT,
    RECOVER,
    RESEARCH,
    RESOURCE,
    RESOURCES,
    SAWMILL,
    SPAWN,
    SPAWNABLE,
    SUPER,
    TECH_BRANCHES,
    TECH_TIER,
    TEMPLES,
    UNIT_ATK,
    UNIT_COST,
    UNIT_DEF,
    UNIT_HP,
    UNIT_MOV,
    UNIT_RANGE,
    UPGRADE,
    WATER,
    WHALES,
    WINDMILL,
    WORKSHOP,
)
from .rules import TribesState

NUM_SCRIPTS = 57
DEFAULT_WEIGHT = 0.5
EVOLVED_SCRIPTS = (15, 16, 17, 18, 19, 36, 37, 38, 39, 40, 41)
"""The 11 Research and Spawn scripts whose weights MAP-Elites evolves in seed 002."""

Script = Callable[[TribesState, int, Sequence[tuple], "Context"], "tuple[tuple, float] | None"]


class Context:
    """Per-state facts the scripts share, each worked out on first use (``__getattr__``
    fills the slot, so later reads are plain attribute reads)."""

    __slots__ = ("s", "p", "_fields", "own_cities", "enemy_cities", "friends", "friend_tiles",
                 "friend_key", "enemies")

    def __init__(self, s: TribesState, p: int) -> None:
        self.s, self.p = s, p
        self._fields: dict[str, dict] = {}

    def __getattr__(self, name: str):
        make = _CONTEXT_FIELDS.get(name)
        if make is None:
            raise AttributeError(name)
        value = make(self)
        setattr(self, name, value)
        return value

    def nearest(self, name: str, t: int) -> int:
        """Distance from tile ``t`` to the nearest tile of a goal set (memoised)."""
        memo = self._fields.get(name)
        if memo is None:
            memo = self._fields[name] = {}
        d = memo.get(t)
        if d is None:
            d = memo[t] = min(map(self.s.b.dist[t].__getitem__, getattr(self, name)))
        return d

    def friend_distance(self, t: int) -> int:
        """Sum of distances from tile ``t`` to every friendly unit (memoised)."""
        memo = self._fields.get("friend_sum")
        if memo is None:
            memo = self._fields["friend_sum"] = {}
        d = memo.get(t)
        if d is None:
            d = memo[t] = sum(map(self.s.b.dist[t].__getitem__, self.friend_tiles))
        return d


def _own_cities(ctx: Context) -> list[int]:
    s, p = ctx.s, ctx.p
    return [s.b.city_pos[c] for c, q in enumerate(s.c_tribe) if q == p]


def _enemy_cities(ctx: Context) -> list[int]:
    s, p = ctx.s, ctx.p
    return [s.b.city_pos[c] for c, q in enumerate(s.c_tribe) if q == 1 - p]


def _friends(ctx: Context) -> list[tuple[int, int]]:
    s, p = ctx.s, ctx.p
    return [(u, s.u_pos[u]) for u in range(len(s.u_type))
            if s.u_tribe[u] == p and s.u_type[u] >= 0]


def _enemies(ctx: Context) -> list[int]:
    s, p = ctx.s, ctx.p
    return [s.u_pos[u] for u in range(len(s.u_type))
            if s.u_tribe[u] == 1 - p and s.u_type[u] >= 0]


_CONTEXT_FIELDS: dict[str, Callable[[Context], object]] = {
    "own_cities": _own_cities,
    "enemy_cities": _enemy_cities,
    "friends": _friends,
    "friend_tiles": lambda ctx: [f for _, f in ctx.friends],
    # where the friendly units stand: what the spread scripts (σ52, σ53) depend on
    # besides the unit's own actions
    "friend_key": lambda ctx: tuple(ctx.friend_tiles),
    "enemies": _enemies,
}


def _clip(x: float) -> float:
    return 0.0 if x < 0 else (1.0 if x > 1 else x)


def _adjacent(s: TribesState, t: int, building: int, city: int | None = None) -> int:
    count = 0
    for m in s.b.nbr[t]:
        if s.building[m] == building and (city is None or s.owner[m] == city):
            count += 1
    return count


def _best(actions: Sequence[tuple], score: Callable[[tuple], float]) -> tuple[tuple, float]:
    best, best_score = actions[0], score(actions[0])
    for a in actions[1:]:
        sc = score(a)
        if sc > best_score:
            best, best_score = a, sc
    return best, best_score


# ---- best-choice scripts --------------------------------------------------------------------

def build_road(s, p, actions, ctx):
    def score(a):
        t = a[1]
        around = sum(1 for m in s.b.nbr[t] if s.road[m] or s.terrain[m] == CITY)
        own = s.owner[t] >= 0 and s.c_tribe[s.owner[t]] == p
        return around + own
    a, sc = _best(actions, score)
    return a, _clip(sc / 4)


def burn_forest(s, p, actions, ctx):
    a, sc = _best(actions, lambda a: 2 * _adjacent(s, a[2], WINDMILL) + _adjacent(s, a[2], FARM))
    return a, _clip(0.25 + sc / 8)


def grow_forest(s, p, actions, ctx):
    a, sc = _best(actions, lambda a: 2 * _adjacent(s, a[2], SAWMILL)
                  + _adjacent(s, a[2], LUMBER_HUT))
    return a, _clip(0.25 + sc / 8)


def get_resource(s, p, actions, ctx):
    a, sc = _best(actions, lambda a: 1.0 if s.resource[a[2]] == WHALES else 0.75)
    return a, sc


# ---- style-choice scripts -------------------------------------------------------------------

def research_branch(branch: str) -> Script:
    techs = TECH_BRANCHES[branch]

    def script(s, p, actions, ctx):
        options = [a for a in actions if a[1] in techs]
        if not options:
            return None
        a = min(options, key=lambda a: (TECH_TIER[a[1]], techs.index(a[1])))
        return a, 1.0 - 0.25 * (TECH_TIER[a[1]] - 1)
    script.__name__ = f"research_{branch}"
    return script


def clear_for(producer: int) -> Script:
    """Clear a forest where the booster of ``producer`` would have most neighbours."""
    def script(s, p, actions, ctx):
        a, sc = _best(actions, lambda a: _adjacent(s, a[2], producer, a[1]))
        return a, _clip(sc / 4)
    return script


def level_up_style(preferred: tuple[int, ...]) -> Script:
    def script(s, p, actions, ctx):
        for a in actions:
            if a[2] in preferred:
                return a, 1.0
        return None
    return script


def build_booster(booster: int, producer: int) -> Script:
    def script(s, p, actions, ctx):
        options = [a for a in actions if a[3] == booster]
        if not options:
            return None
        a, sc = _best(options, lambda a: _adjacent(s, a[2], producer, a[1]))
        return a, _clip(sc / 4)
    return script


def build_producer(producer: int, booster: int) -> Script:
    def script(s, p, actions, ctx):
        options = [a for a in actions if a[3] == producer]
        if not options:
            return None
        a, sc = _best(options, lambda a: _adjacent(s, a[2], booster, a[1]))
        return a, _clip(0.5 + sc / 2)
    return script


def build_kind(kinds: tuple[int, ...], value: float) -> Script:
    def script(s, p, actions, ctx):
        for a in actions:
            if a[3] in kinds:
                return a, value
        return None
    return script


def spawn_by(stat: Sequence[int], lowest: bool = False) -> Script:
    top = max(stat[u] for u in SPAWNABLE)
    low = min(stat[u] for u in SPAWNABLE)

    def script(s, p, actions, ctx):
        if lowest:
            a = min(actions, key=lambda a: (stat[a[2]], a[2]))
            return a, _clip(low / max(stat[a[2]], 1))
        a = max(actions, key=lambda a: (stat[a[2]], -a[2]))
        return a, _clip(stat[a[2]] / top) if top else 0.5
    return script


def convert_by(key: Callable[[TribesState, int], float], scale: float) -> Script:
    def script(s, p, actions, ctx):
        a = max(actions, key=lambda a: (key(s, a[2]), -a[2]))
        return a, _clip(key(s, a[2]) / scale)
    return script


def move_to_capture(s, p, actions, ctx):
    for a in actions:
        c = s.b.city_at[a[2]]
        if c >= 0 and s.c_tribe[c] != p:
            return a, 1.0
    return None


def move_to_city_centre(s, p, actions, ctx):
    own = set(ctx.own_cities)
    options = [a for a in actions if a[2] in own]
    if not options:
        return None
    row = s.b.dist[s.u_pos[options[0][1]]]
    return min(options, key=lambda a: row[a[2]]), 0.5


def move_towards(goals: str) -> Script:
    def script(s, p, actions, ctx):
        if not getattr(ctx, goals):
            return None
        here = ctx.nearest(goals, s.u_pos[actions[0][1]])
        a = min(actions, key=lambda a: (ctx.nearest(goals, a[2]), a[2]))
        return a, _clip((here - ctx.nearest(goals, a[2])) / 3)
    return script


def move_to_land(s, p, actions, ctx):
    if s.u_type[actions[0][1]] not in NAVAL:
        return None
    options = [a for a in actions if s.terrain[a[2]] not in WATER]
    return (options[0], 0.5) if options else None


def move_to_embark(s, p, actions, ctx):
    if s.u_type[actions[0][1]] in NAVAL:
        return None
    options = [a for a in actions if s.terrain[a[2]] in WATER]
    return (options[0], 0.5) if options else None


def move_to_attack_range(s, p, actions, ctx):
    u = actions[0][1]
    reach = UNIT_RANGE[s.u_type[u]]
    enemies = ctx.enemies
    if not enemies:
        return None
    dist = s.b.dist
    a, sc = _best(actions, lambda a: sum(1 for e in enemies if dist[a[2]][e] <= reach))
    return a, _clip(sc / 3)


def _spreads(s, actions, ctx) -> tuple[float, list[tuple[float, int]]] | None:
    """The unit's mean distance to the other friendly units where it stands and at
    each move's tile, as (spread, tile) pairs; computed once per state for σ52 and σ53."""
    u = actions[0][1]
    memo = ctx._fields.get("spreads")
    if memo is None:
        memo = ctx._fields["spreads"] = {}
    if u in memo:
        return memo[u]
    n_friends = len(ctx.friends) - 1
    if n_friends <= 0:
        memo[u] = None
        return None
    pos = s.u_pos[u]
    dist = s.b.dist
    friends = ctx.friend_tiles
    scale = 1.0 / n_friends
    here = (sum(map(dist[pos].__getitem__, friends)) - dist[pos][pos]) * scale
    pairs = []
    for a in actions:
        t = a[2]
        row = dist[t]
        pairs.append(((sum(map(row.__getitem__, friends)) - row[pos]) * scale, t))
    memo[u] = got = (here, pairs)
    return got


def move_spread(converge: bool) -> Script:
    def script(s, p, actions, ctx):
        got = _spreads(s, actions, ctx)
        if got is None:
            return None
        here, pairs = got
        if converge:  # the least spread, ties to the lowest tile
            spread, t = min(pairs)
            value = _clip((here - spread) / 2)
        else:  # the most spread, ties to the lowest tile
            spread, t = max(pairs, key=lambda pair: (pair[0], -pair[1]))
            value = _clip((spread - here) / 2)
        for a in actions:
            if a[2] == t:
                return a, value
        raise AssertionError("the picked tile is a move's")  # pragma: no cover
    return script


def attack_by(key: Callable[[TribesState, tuple], float]) -> Script:
    def script(s, p, actions, ctx):
        a = max(actions, key=lambda a: (key(s, a), -a[2]))
        dealt, _ = s.attack_result(a[1], a[2])
        hp = s.u_hp[a[2]]
        return a, 1.0 if dealt >= hp else _clip(dealt / hp)
    return script


# ---- the portfolio: σ id -> (action type, script, extra filter) ------------------------------
SCRIPTS: dict[int, tuple[int, Script | None, str]] = {
    1: (END_TURN, None, "end turn"), 2: (DESTROY, None, "destroy"), 3: (EXAMINE, None, "examine"),
    4: (HEAL_OTHERS, None, "heal others"), 5: (RECOVER, None, "recover"),
    6: (UPGRADE, None, "upgrade boat"), 7: (UPGRADE, None, "upgrade ship"),
    8: (MAKE_VETERAN, None, "make veteran"), 9: (CAPTURE, None, "capture"),
    10: (DISBAND, None, "disband"),
    11: (BUILD_ROAD, build_road, "build road"), 12: (BURN_FOREST, burn_forest, "burn forest"),
    13: (GROW_FOREST, grow_forest, "grow forest"), 14: (RESOURCE, get_resource, "get resource"),
    15: (RESEARCH, research_branch("farms"), "research farms"),
    16: (RESEARCH, research_branch("naval"), "research naval"),
    17: (RESEARCH, research_branch("mountain"), "research mountain"),
    18: (RESEARCH, research_branch("range"), "research range"),
    19: (RESEARCH, research_branch("roads"), "research roads"),
    20: (CLEAR_FOREST, clear_for(PORT), "clear forest for custom house"),
    21: (CLEAR_FOREST, clear_for(MINE), "clear forest for forge"),
    22: (CLEAR_FOREST, clear_for(LUMBER_HUT), "clear forest for sawmill"),
    23: (CLEAR_FOREST, clear_for(FARM), "clear forest for windmill"),
    24: (LEVEL_UP, level_up_style((WORKSHOP, RESOURCES, POP_GROWTH, PARK)), "level up growth"),
    25: (LEVEL_UP, level_up_style((EXPLORER, CITY_WALL, BORDER_GROWTH, SUPER)),
         "level up military"),
    26: (BUILD, build_booster(CUSTOM_HOUSE, PORT), "build custom house"),
    27: (BUILD, build_booster(WINDMILL, FARM), "build windmill"),
    28: (BUILD, build_booster(SAWMILL, LUMBER_HUT), "build sawmill"),
    29: (BUILD, build_booster(FORGE, MINE), "build forge"),
    30: (BUILD, build_producer(PORT, CUSTOM_HOUSE), "build port"),
    31: (BUILD, build_producer(FARM, WINDMILL), "build farm"),
    32: (BUILD, build_producer(LUMBER_HUT, SAWMILL), "build lumber hut"),
    33: (BUILD, build_producer(MINE, FORGE), "build mine"),
    34: (BUILD, build_kind(MONUMENTS, 1.0), "build monument"),
    35: (BUILD, build_kind(TEMPLES, 0.5), "build temple"),
    36: (SPAWN, spawn_by(UNIT_ATK), "spawn strongest"),
    37: (SPAWN, spawn_by(UNIT_DEF), "spawn defensive"),
    38: (SPAWN, spawn_by(UNIT_COST, lowest=True), "spawn cheapest"),
    39: (SPAWN, spawn_by(UNIT_MOV), "spawn fastest"),
    40: (SPAWN, spawn_by(UNIT_HP), "spawn highest hp"),
    41: (SPAWN, spawn_by(UNIT_RANGE), "spawn range"),
    42: (CONVERT, convert_by(lambda s, v: UNIT_ATK[s.u_type[v]], 5.0), "convert strongest"),
    43: (CONVERT, convert_by(lambda s, v: s.u_hp[v], 40.0), "convert highest hp"),
    44: (CONVERT, convert_by(lambda s, v: UNIT_DEF[s.u_type[v]], 4.0), "convert highest defence"),
    45: (MOVE, move_to_capture, "move to capture"),
    46: (MOVE, move_to_city_centre, "move to city centre"),
    47: (MOVE, move_towards("own_cities"), "move defensively"),
    48: (MOVE, move_towards("enemy_cities"), "move offensively"),
    49: (MOVE, move_to_land, "move to land"),
    50: (MOVE, move_to_embark, "move to embark"),
    51: (MOVE, move_to_attack_range, "move to attack range"),
    52: (MOVE, move_spread(True), "move to converge"),
    53: (MOVE, move_spread(False), "move to diverge"),
    54: (ATTACK, attack_by(lambda s, a: -s.b.dist[s.u_pos[a[1]]][s.u_pos[a[2]]]),
         "attack closest"),
    55: (ATTACK, attack_by(lambda s, a: -UNIT_DEF[s.u_type[a[2]]]), "attack weakest"),
    56: (ATTACK, attack_by(lambda s, a: -s.u_hp[a[2]]), "attack most damaged"),
    57: (ATTACK, attack_by(lambda s, a: UNIT_ATK[s.u_type[a[2]]]), "attack strongest"),
}
assert len(SCRIPTS) == NUM_SCRIPTS
BY_TYPE: dict[int, tuple[int, ...]] = {}
for _sid, (_kind, _fn, _) in SCRIPTS.items():
    BY_TYPE.setdefault(_kind, ())
    BY_TYPE[_kind] += (_sid,)
WRAPPERS = frozenset(range(1, 11))


def default_weights() -> list[float]:
    """w_σ for σ = 1..57 (index 0 unused), all 0.5 as in seed 002."""
    return [DEFAULT_WEIGHT] * (NUM_SCRIPTS + 1)


def weights_with(evolved: Sequence[float]) -> list[float]:
    """Default weights with the 11 evolved Research and Spawn weights set."""
    if len(evolved) != len(EVOLVED_SCRIPTS):
        raise ValueError(f"{len(EVOLVED_SCRIPTS)} evolved weights expected, got {len(evolved)}")
    w = default_weights()
    for sid, value in zip(EVOLVED_SCRIPTS, evolved):
        w[sid] = float(value)
    return w


_FRIEND_SCRIPTS = frozenset((52, 53))
_FRIEND_IDS = (52, 53)
_STEADY_IDS = {kind: tuple(sid for sid in sids if sid not in _FRIEND_SCRIPTS)
               for kind, sids in BY_TYPE.items()}
assert BY_TYPE[MOVE][-2:] == _FRIEND_IDS
_TILE_KINDS = frozenset((BUILD_ROAD, BUILD, RESOURCE, BURN_FOREST, CLEAR_FOREST, GROW_FOREST,
                         DESTROY))
_ACTIONS_ONLY = frozenset((15, 16, 17, 18, 19, 24, 25, 36, 37, 38, 39, 40, 41))
"""Research, level-up and spawn scripts: their pick depends on the offered actions only."""
_PICKS: dict[tuple, tuple | None] = {}


def pick(state: TribesState, p: int, sid: int, kind: int, actor: int, actions: Sequence[tuple],
         ctx: Context) -> tuple[tuple, float] | None:
    """Script ``sid``'s pick among ``actions`` (the group of ``kind`` and ``actor``),
    memoised where that is exact. A unit's scripts read only the unit, enemy units,
    cities and tiles, which stay the same while the state carries the unit's actions
    (``TribesState.unit_memo``), so their picks are kept there; the spread scripts also
    read where the friendly units stand, which is part of their key. Scripts on roads
    and cities' tile actions read the tiles around them, which stay the same while the
    state keeps those actions (``TribesState.tile_memo``). Research, level-up and spawn
    picks depend on the actions alone."""
    if kind >= MOVE:
        memo = state.unit_memo(actor)
        if sid in _FRIEND_SCRIPTS:
            key = ctx.friend_key
            hit = memo.get(sid)
            if hit is not None and hit[0] == key:
                return hit[1]
            picked = SCRIPTS[sid][1](state, p, actions, ctx)
            memo[sid] = (key, picked)
            return picked
        if sid in memo:
            return memo[sid]
        picked = memo[sid] = SCRIPTS[sid][1](state, p, actions, ctx)
        return picked
    if kind in _TILE_KINDS:
        memo = state.tile_memo()
        key = (sid, actor)
        if key in memo:
            return memo[key]
        picked = memo[key] = SCRIPTS[sid][1](state, p, actions, ctx)
        return picked
    if sid in _ACTIONS_ONLY:
        key = (sid, actions)
        if key in _PICKS:
            return _PICKS[key]
        if len(_PICKS) > 100_000:
            _PICKS.clear()
        picked = _PICKS[key] = SCRIPTS[sid][1](state, p, actions, ctx)
        return picked
    return SCRIPTS[sid][1](state, p, actions, ctx)


def assignments(state: TribesState, weights: Sequence[float]) -> list[tuple]:
    """All action assignments of the player to move, as (action, h, (σ, actor, v, w)).

    A unit's assignments but those of the spread scripts are kept with its carried
    actions (``TribesState.unit_memo``) under the weights they were made with."""
    p = state.current_player()
    ctx = Context(state, p)
    wkey = tuple(weights)
    out: list[tuple] = []
    for kind, actor, actions in state.legal_groups():
        if kind not in BY_TYPE:  # diplomacy (rules version 4): no script of Table III
            continue
        if kind < MOVE:
            _group_assignments(out, state, p, kind, actor, actions, ctx, weights, BY_TYPE[kind])
            continue
        memo = state.unit_memo(actor)
        hit = memo.get(("assign", kind))
        if hit is None or hit[0] != wkey:
            part: list[tuple] = []
            _group_assignments(part, state, p, kind, actor, actions, ctx, weights,
                               _STEADY_IDS[kind])
            hit = memo["assign", kind] = (wkey, part)
        out.extend(hit[1])
        if kind == MOVE:  # the spread scripts come last (σ52, σ53)
            _group_assignments(out, state, p, kind, actor, actions, ctx, weights,
                               _FRIEND_IDS)
    return out


def _group_assignments(out: list, state: TribesState, p: int, kind: int, actor: int,
                       actions: Sequence[tuple], ctx: Context, weights: Sequence[float],
                       sids: Sequence[int]) -> None:
    """Append the assignments of scripts ``sids`` on one group to ``out``."""
    for sid in sids:
        w = weights[sid]
        if sid in WRAPPERS:
            if kind == UPGRADE:
                boat = state.u_type[actor] == BOAT
                if (sid == 6) != boat:
                    continue
            for a in actions:
                out.append((a, 0.5 * w, (sid, actor, 0.5, w)))
            continue
        picked = pick(state, p, sid, kind, actor, actions, ctx)
        if picked is not None:
            a, v = picked
            out.append((a, v * w, (sid, actor, v, w)))


def _groups(legal: Sequence[tuple]) -> dict[tuple[int, int], list[tuple]]:
    """Legal actions by (action type, actor); tribe actions (types 0..2) have actor −1."""
    groups: dict[tuple[int, int], list[tuple]] = {}
    get = groups.get
    for a in legal:
        k = a[0]
        key = (k, a[1]) if k > BUILD_ROAD else (k, -1)
        g = get(key)
        if g is None:
            groups[key] = [a]
        else:
            g.append(a)
    return groups


_WRAPPER_IDS = {kind: tuple(s for s in sids if s in range(1, 11)) for kind, sids in BY_TYPE.items()}
_SCRIPT_IDS = {kind: tuple(s for s in sids if s > 10) for kind, sids in BY_TYPE.items()}
_N_WRAPPERS = [0] * len(ACTION_NAMES)  # diplomacy (rules version 4) has no slot
_N_SLOTS = [0] * len(ACTION_NAMES)
for _kind in BY_TYPE:
    _N_WRAPPERS[_kind] = 1 if _kind == UPGRADE else len(_WRAPPER_IDS[_kind])
    _N_SLOTS[_kind] = _N_WRAPPERS[_kind] + len(_SCRIPT_IDS[_kind])


def random_assignment(state: TribesState, weights: Sequence[float], rng) -> tuple:
    """One assignment drawn uniformly from ``assignments(state, weights)`` without building
    them all: slots (a wrapper's action, or a script on an actor's group) are drawn at
    random and a script slot that offers nothing is dropped and drawn again.

    The slots are numbered group by group (each group's wrapper slots, wrapper by
    wrapper and action by action, then its script slots), and a dropped slot takes the
    last slot's number (swap and pop, as over a list of all slots); draws are located
    in that numbering without building the list, so they are the same as over it.
    The groups come from the state (``legal_groups``, built from the per-unit pieces
    of its legal list); every action type has one wrapper or none (upgrades have σ6
    for boats and σ7 otherwise)."""
    p = state.current_player()
    order = state.legal_groups()
    n_slots, n_wrappers = _N_SLOTS, _N_WRAPPERS
    starts = []  # each group's first slot number
    total = 0
    for k, _, g in order:
        starts.append(total)
        total += n_slots[k] + n_wrappers[k] * (len(g) - 1)
    i = int(rng.random() * total)
    sid, actor, what = _slot(state, order, starts, i)
    w = weights[sid]
    if sid <= 10:
        return what, 0.5 * w, (sid, actor, 0.5, w)
    ctx = Context(state, p)
    picked = pick(state, p, sid, SCRIPTS[sid][0], actor, what, ctx)
    if picked is not None:
        a, v = picked
        return a, v * w, (sid, actor, v, w)
    # the drawn script offers nothing: drop its slot and draw again among the rest
    moved: dict[int, tuple] = {}  # slot number -> the slot swapped into it
    n = total

    def slot_at(j: int) -> tuple:
        got = moved.get(j)
        return got if got is not None else _slot(state, order, starts, j)

    moved[i] = slot_at(n - 1)
    n -= 1
    while n:
        i = int(rng.random() * n)
        sid, actor, what = slot_at(i)
        w = weights[sid]
        if sid <= 10:
            return what, 0.5 * w, (sid, actor, 0.5, w)
        picked = pick(state, p, sid, SCRIPTS[sid][0], actor, what, ctx)
        if picked is not None:
            a, v = picked
            return a, v * w, (sid, actor, v, w)
        moved[i] = slot_at(n - 1)
        n -= 1
    raise AssertionError("END_TURN always has a wrapper slot")  # pragma: no cover


def _slot(state: TribesState, order: Sequence[tuple], starts: list[int], i: int) -> tuple:
    """Slot number ``i`` of the groups ``order`` (whose first slots are ``starts``):
    (σ, actor, action) for a wrapper's slot, (σ, actor, the group's actions) for a
    script's."""
    g = bisect_right(starts, i) - 1
    kind, actor, actions = order[g]
    i -= starts[g]
    n_wrapped = _N_WRAPPERS[kind] * len(actions)
    if i < n_wrapped:
        if kind == UPGRADE:
            sid = 6 if state.u_type[actor] == BOAT else 7
        else:
            sid = _WRAPPER_IDS[kind][i // len(actions)]
        return sid, actor, actions[i % len(actions)]
    return _SCRIPT_IDS[kind][i - n_wrapped], actor, actions


def script_name(sid: int) -> str:
    return SCRIPTS[sid][2]

