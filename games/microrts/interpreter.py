"""What the microRTS DSL's Booleans and commands mean, one game cycle at a time.

Semantics follow the reference interpreter of the DSL (Aleixo 2023, appendix A.2,
the Java ``Interpreter`` of the Sketch-SA/HSS code): every cycle the program runs
from scratch over a snapshot of the state; a command gives the unit an abstract
action only if the unit has none yet this cycle (the first action stands);
``Build``/``Train`` spend from a running resource count; counts of attacking or
harvesting units are those assigned so far this cycle; units left without an
action stay idle (the abstraction layer gives them NONE). The abstraction layer
(our Java ``stratsynth.ProgramAI``) does path finding and turns abstract actions
into unit actions.

Where the reference would crash, we give a meaning: a command outside any ``for``
applies to the first unit (in the engine's unit order) it can be given to, and a
unit test outside any ``for`` asks whether some own unit passes it. Where the
reference has known slips we follow the paper's words: ``Farthest`` is the
farthest unit (not the first), ``LessHealthy``/``MostHealthy`` compare current
hit points, and ``MoveAway`` moves away from the nearest own base.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

UNIT_TYPES = ("Base", "Barracks", "Ranged", "Heavy", "Light", "Worker")
NUMBERS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 50, 100)
DIRECTIONS = ("EnemyDir", "Up", "Down", "Right", "Left")
CRITERIA = ("Strongest", "Weakest", "Closest", "Farthest", "LessHealthy", "MostHealthy",
            "Random")
PLAYERS = ("Ally", "Enemy")

# microRTS direction codes and the ProgramAI order kinds
DIRECTION_CODE = {"Up": 0, "Right": 1, "Down": 2, "Left": 3}
OFFSETS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # by direction code
MOVE, HARVEST, ATTACK, BUILD, TRAIN, IDLE = 1, 2, 3, 4, 5, 6
FIELDS = 8  # ints per unit read from ProgramAI.units


@dataclass(frozen=True)
class UnitKind:
    """The parts of a microRTS UnitType the DSL looks at."""

    id: int
    name: str
    cost: int
    hp: int
    max_damage: int
    attack_range: int
    can_attack: bool
    can_harvest: bool
    can_move: bool
    is_stockpile: bool
    produces: frozenset


def unit_kinds(utt) -> dict[int, UnitKind]:
    """Read a UnitTypeTable once (a few dozen JVM calls per process)."""
    types = list(utt.getUnitTypes())
    produces: dict[str, set[str]] = {str(t.name): set() for t in types}
    for t in types:  # ``produces`` is shadowed by a method in JPype; invert producedBy
        for maker in t.producedBy:
            produces[str(maker.name)].add(str(t.name))
    kinds = {}
    for t in types:
        kinds[int(t.ID)] = UnitKind(int(t.ID), str(t.name), int(t.cost), int(t.hp),
                                    int(t.maxDamage), int(t.attackRange), bool(t.canAttack),
                                    bool(t.canHarvest), bool(t.canMove), bool(t.isStockpile),
                                    frozenset(produces[str(t.name)]))
    return kinds


class Unit:
    """One unit in this cycle's snapshot."""

    __slots__ = ("id", "player", "kind", "x", "y", "hp", "resources", "busy")

    def __init__(self, row, kinds) -> None:
        self.id, self.player, kind, self.x, self.y, self.hp, self.resources, busy = row
        self.kind = kinds[kind]
        self.busy = bool(busy)

    @classmethod
    def from_fields(cls, uid, player, kind, x, y, hp, resources, busy) -> Unit:
        """The same as ``Unit(row, kinds)`` with ``kind`` already looked up (a cycle makes
        one per unit: this is the cheap path)."""
        unit = cls.__new__(cls)
        unit.id, unit.player, unit.kind, unit.x, unit.y = uid, player, kind, x, y
        unit.hp, unit.resources, unit.busy = hp, resources, bool(busy)
        return unit


def manhattan(a: Unit, b: Unit) -> int:
    return abs(a.x - b.x) + abs(a.y - b.y)


def within(a: Unit, b: Unit, distance: int) -> bool:
    """Euclidean distance at most ``distance`` (the reference's range test)."""
    dx, dy = a.x - b.x, a.y - b.y
    return dx * dx + dy * dy <= distance * distance


INTERPRETERS = ("ours", "reference")
REFERENCE_CRITERIA = {
    "Farthest": lambda unit, candidates: candidates[0],
    "LessHealthy": lambda unit, candidates: min(
        candidates, key=lambda e: (e.kind.hp, manhattan(unit, e))),
    "MostHealthy": lambda unit, candidates: min(
        candidates, key=lambda e: (-e.kind.hp, manhattan(unit, e))),
}
"""The reference interpreter's criteria where they differ from the paper's words (with
``interpreter=reference``): LessHealthy and MostHealthy compare maximum hit points (the
unit type's), Farthest is the first candidate (its comparison never passes)."""
"""Meanings of ``moveToUnit`` and of ``build`` on a blocked cell (game parameter
``interpreter``). ``ours`` (the default): ``moveToUnit`` orders a move to the target's
free neighbour cell nearest the unit, a blocked ``build`` takes the free cell nearest
the worker (Manhattan rings). ``reference``: as the reference interpreter, the cell
where the engine's A* from the unit first reaches a cell next to the target
(``path_end_next_to``), and the engine's building-position search
(``building_position``, which sees walls and units only: with ``reference`` a build
reserves no cell for later commands); a direction's cell (build's, ``EnemyDir``) free
as the engine's ``GameState.free`` says (``direction_free``); ``REFERENCE_CRITERIA``; and
the abstraction layer's Train with a preferred direction (``ProgramAI.TrainToward``).
Everything else is the same."""


class Cycle:
    """One run of the program: the snapshot, the actions assigned so far, the orders."""

    reference = False
    """``interpreter=reference`` (see ``INTERPRETERS``); set by the program's player."""
    busy_cells: set[int] = frozenset()
    """With ``reference``: cells (x + y * width) free of walls and units that unit actions
    under way will take (``ProgramAI.busyCells``); the reference's A* avoids them."""

    def __init__(self, me: int, rows: list[int], kinds: dict[int, UnitKind],
                 width: int, height: int, walls, resources: int, rng: random.Random) -> None:
        self.me = me
        self.width = width
        self.height = height
        self.walls = walls
        self.resources = resources
        self.rng = rng
        self.own: list[Unit] = []
        self.enemies: list[Unit] = []
        self.minerals: list[Unit] = []
        self.occupied: set[tuple[int, int]] = set()
        make = Unit.from_fields
        fields = iter(rows)
        for uid, player, kind, x, y, hp, res, busy in zip(*[fields] * FIELDS):
            unit = make(uid, player, kinds[kind], x, y, hp, res, busy)
            self.occupied.add((x, y))
            if player == me:
                self.own.append(unit)
            elif player >= 0:
                self.enemies.append(unit)
            else:
                self.minerals.append(unit)
        self.assigned: set[int] = set()
        self.loops_done: set = set()  # command-only loops already run (gp.languages.microrts)
        self.pending_build: dict[str, int] = {}
        self.pending_train: dict[str, int] = {}
        self.attacking = 0
        self.harvesting = 0
        self.orders: list[int] = []
        self._own_counts: dict[str, int] | None = None
        self._enemy_counts: dict[str, int] | None = None
        # Answers that depend on the snapshot only (not on this run's assignments), kept
        # for the rest of the run: a program asks them again for every unit and loop.
        self._in_own_range: dict[int, bool] = {}
        self._bases: list[Unit] | None = None
        self._harvest_targets: dict[int, tuple[Unit, Unit]] = {}
        self.kinds_by_name: dict[str, UnitKind] = {}

    # ---- counts ------------------------------------------------------------------------
    def own_count(self, type_name: str) -> int:
        if self._own_counts is None:
            self._own_counts = _counts(self.own)
        return self._own_counts.get(type_name, 0)

    def enemy_count(self, type_name: str) -> int:
        if self._enemy_counts is None:
            self._enemy_counts = _counts(self.enemies)
        return self._enemy_counts.get(type_name, 0)

    def own_with_pending(self, type_name: str) -> int:
        return (self.own_count(type_name) + self.pending_build.get(type_name, 0)
                + self.pending_train.get(type_name, 0))

    def enemy_in_own_range(self, u: Unit) -> bool:
        """Some enemy within ``u``'s attack range (Euclidean, as ``within``)."""
        known = self._in_own_range.get(u.id)
        if known is None:
            r2 = u.kind.attack_range * u.kind.attack_range
            x, y = u.x, u.y
            known = False
            for e in self.enemies:
                if (e.x - x) * (e.x - x) + (e.y - y) * (e.y - y) <= r2:
                    known = True
                    break
            self._in_own_range[u.id] = known
        return known

    def bases(self) -> list[Unit]:
        """Own stockpiles (bases), in unit order."""
        if self._bases is None:
            self._bases = [b for b in self.own if b.kind.is_stockpile]
        return self._bases

    def harvest_targets(self, u: Unit) -> tuple[Unit, Unit]:
        """The resource and the own base nearest ``u`` (first in unit order on ties);
        only called when both exist."""
        known = self._harvest_targets.get(u.id)
        if known is None:
            known = (min(self.minerals, key=lambda r: manhattan(u, r)),
                     min(self.bases(), key=lambda b: manhattan(u, b)))
            self._harvest_targets[u.id] = known
        return known

    # ---- cells -------------------------------------------------------------------------
    def free_cell(self, x: int, y: int) -> bool:
        return (0 <= x < self.width and 0 <= y < self.height
                and not self.walls[x + y * self.width] and (x, y) not in self.occupied)

    def direction_free(self, x: int, y: int) -> bool:
        """A cell for a direction (build's cell, ``EnemyDir``): with ``reference``, free as
        the engine's ``GameState.free`` says (the reference's ``Direction.converte``: no
        wall, no unit, not in ``busy_cells``); else ``free_cell``. The reference checks no
        bounds: off the map the engine reads the terrain at index x + y * width (a cell at
        the other edge) and calls the cell free unless that one is a wall; where the index
        is outside the map the reference throws, and here the cell is not free."""
        if not self.reference:
            return self.free_cell(x, y)
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.free_cell(x, y) and x + y * self.width not in self.busy_cells
        index = x + y * self.width
        return 0 <= index < self.width * self.height and not self.walls[index]

    def nearest_free_cell(self, x: int, y: int, radius: int | None = None):
        """The free cell nearest (Manhattan rings) to (x, y), or None."""
        limit = radius if radius is not None else self.width + self.height
        for r in range(0, limit + 1):
            for dx in range(-r, r + 1):
                dy = r - abs(dx)
                for cy in ((y - dy, y + dy) if dy else (y,)):
                    if self.free_cell(x + dx, cy):
                        return x + dx, cy
        return None

    def building_position(self, x: int, y: int):
        """The engine's building-position search (``AbstractionLayerAI.findBuildingPosition``)
        around (x, y): square rings of radius 1 to max(width, height) - 1, each ring's top
        row (left to right), right column (top to bottom), bottom row, left column; the
        first free cell, or None."""
        free = self.free_cell
        for r in range(1, max(self.width, self.height)):
            for x1, y1 in ((x + d, y - r) for d in range(-r, r + 1)):
                if free(x1, y1):
                    return x1, y1
            for x1, y1 in ((x + r, y + d) for d in range(-r, r + 1)):
                if free(x1, y1):
                    return x1, y1
            for x1, y1 in ((x + d, y + r) for d in range(-r, r + 1)):
                if free(x1, y1):
                    return x1, y1
            for x1, y1 in ((x - r, y + d) for d in range(-r, r + 1)):
                if free(x1, y1):
                    return x1, y1
        return None

    def path_end_next_to(self, u: Unit, target: Unit):
        """The cell where the engine's A* (``AStarPathFinding.findPathToPositionInRange2``,
        range 1) from ``u`` first reaches a cell next to ``target``, or None (no free
        path, or ``u`` is already there). The open list is the engine's: sorted by cost
        + Manhattan distance, highest first, the last node taken, a new node placed after
        the last one that is not cheaper; neighbours up, right, down, left. A cell is
        free as the engine's ``GameState.free`` says: no wall, no unit, not in
        ``busy_cells`` (cells this run's builds reserved do not count, as in the
        reference)."""
        tx, ty = target.x, target.y
        width, height, walls, busy = self.width, self.height, self.walls, self.busy_cells
        units = {(v.x, v.y) for group in (self.own, self.enemies, self.minerals) for v in group}
        start = (u.x, u.y)
        cost = {start: 0}
        open_cells = [start]
        keys = [abs(u.x - tx) + abs(u.y - ty)]  # f of open_cells, non-increasing
        while open_cells:
            x, y = cell = open_cells.pop()
            keys.pop()
            if (x - tx) ** 2 + (y - ty) ** 2 <= 1:
                return None if cell == start else cell
            for dx, dy in OFFSETS:
                nxt = (x + dx, y + dy)
                if (nxt in cost or not (0 <= nxt[0] < width and 0 <= nxt[1] < height)
                        or nxt in units or walls[nxt[0] + nxt[1] * width]
                        or nxt[0] + nxt[1] * width in busy):
                    continue
                cost[nxt] = cost[cell] + 1
                key = cost[nxt] + abs(nxt[0] - tx) + abs(nxt[1] - ty)
                i = len(keys) - 1
                while i >= 0 and keys[i] < key:
                    i -= 1
                open_cells.insert(i + 1, nxt)
                keys.insert(i + 1, key)
        return None

    def toward_enemy(self, unit: Unit) -> int:
        """Direction code of the free neighbour cell nearest the nearest enemy (-1: none)."""
        if not self.enemies:
            return -1
        best, best_d = -1, None
        for code, (dx, dy) in enumerate(OFFSETS):
            x, y = unit.x + dx, unit.y + dy
            if not self.direction_free(x, y):
                continue
            d = min((e.x - x) ** 2 + (e.y - y) ** 2 for e in self.enemies)
            if best_d is None or d < best_d:
                best, best_d = code, d
        return best

    # ---- assigning -----------------------------------------------------------------------
    def order(self, kind: int, unit: Unit, a: int = 0, b: int = 0, c: int = 0) -> bool:
        self.orders += (kind, unit.id, a, b, c)
        self.assigned.add(unit.id)
        return True

    def choose(self, unit: Unit, candidates: list[Unit], criterion: str) -> Unit | None:
        """The candidate a criterion (O_p) picks for ``unit``."""
        if not candidates:
            return None
        if self.reference and criterion in REFERENCE_CRITERIA:
            return REFERENCE_CRITERIA[criterion](unit, candidates)
        if criterion == "Closest":
            return min(candidates, key=lambda e: manhattan(unit, e))
        if criterion == "Farthest":
            return max(candidates, key=lambda e: manhattan(unit, e))
        if criterion == "Strongest":
            return min(candidates, key=lambda e: (-e.kind.max_damage, manhattan(unit, e)))
        if criterion == "Weakest":
            return min(candidates, key=lambda e: (e.kind.max_damage, manhattan(unit, e)))
        if criterion == "LessHealthy":
            return min(candidates, key=lambda e: (e.hp, manhattan(unit, e)))
        if criterion == "MostHealthy":
            return min(candidates, key=lambda e: (-e.hp, manhattan(unit, e)))
        return candidates[self.rng.randrange(len(candidates))]  # Random


def _counts(units: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind.name] = out.get(u.kind.name, 0) + 1
    return out


# ---- Boolean functions (B) ----------------------------------------------------------------
# Player-level tests ignore the unit; unit-level tests take the loop's unit, or ask
# whether some own unit passes when used outside a ``for``.

def has_number_of_units(cycle: Cycle, type_name: str, n: int) -> bool:
    return cycle.own_with_pending(type_name) >= n


def has_less_number_of_units(cycle: Cycle, type_name: str, n: int) -> bool:
    return cycle.own_with_pending(type_name) < n


def opponent_has_number_of_units(cycle: Cycle, type_name: str, n: int) -> bool:
    return cycle.enemy_count(type_name) >= n


def have_units_attacking(cycle: Cycle, n: int) -> bool:
    return cycle.attacking >= n


def has_workers_harvesting(cycle: Cycle, n: int) -> bool:
    return cycle.harvesting >= n


def unit_within_distance_of_opponent(cycle: Cycle, u: Unit, n: int) -> bool:
    return any(within(u, e, n) for e in cycle.enemies)


def is_type(cycle: Cycle, u: Unit, type_name: str) -> bool:
    return u.kind.name == type_name


def is_builder(cycle: Cycle, u: Unit) -> bool:
    return u.kind.name == "Worker"


def can_attack(cycle: Cycle, u: Unit) -> bool:
    return u.kind.can_attack


def can_harvest(cycle: Cycle, u: Unit) -> bool:
    return u.kind.can_harvest


def kills_in_one_attack(cycle: Cycle, u: Unit) -> bool:
    return any(e.hp <= u.kind.max_damage for e in cycle.enemies)


def opponent_kills_in_one_attack(cycle: Cycle, u: Unit) -> bool:
    return any(e.kind.max_damage >= u.hp for e in cycle.enemies)


def in_opponent_range(cycle: Cycle, u: Unit) -> bool:
    return any(within(u, e, e.kind.attack_range) for e in cycle.enemies)


def opponent_in_range(cycle: Cycle, u: Unit) -> bool:
    return cycle.enemy_in_own_range(u)


# ---- commands (C) --------------------------------------------------------------------------
# Each returns True if it gave ``u`` an action.

def build(cycle: Cycle, u: Unit, type_name: str, direction: str, n: int,
          kinds_by_name=None) -> bool:
    kind = (kinds_by_name or cycle.kinds_by_name)[type_name]
    if (u.id in cycle.assigned or u.kind.name != "Worker" or type_name not in u.kind.produces
            or cycle.resources < kind.cost):
        return False
    if cycle.own_count(type_name) + cycle.pending_build.get(type_name, 0) >= n:
        return False
    code = cycle.toward_enemy(u) if direction == "EnemyDir" else DIRECTION_CODE[direction]
    cell = None
    if code >= 0:
        x, y = u.x + OFFSETS[code][0], u.y + OFFSETS[code][1]
        if cycle.direction_free(x, y):
            cell = (x, y)
    if cell is None:
        cell = (cycle.building_position(u.x, u.y) if cycle.reference
                else cycle.nearest_free_cell(u.x, u.y))
        if cell is None:
            return False
    if not cycle.reference:  # the reference reserves nothing across commands
        cycle.occupied.add(cell)
    cycle.resources -= kind.cost
    cycle.pending_build[type_name] = cycle.pending_build.get(type_name, 0) + 1
    return cycle.order(BUILD, u, kind.id, cell[0], cell[1])


def train(cycle: Cycle, u: Unit, type_name: str, direction: str, n: int,
          kinds_by_name=None) -> bool:
    kind = (kinds_by_name or cycle.kinds_by_name)[type_name]
    if (u.id in cycle.assigned or u.kind.can_move or type_name not in u.kind.produces
            or cycle.resources < kind.cost):
        return False
    if cycle.own_count(type_name) + cycle.pending_train.get(type_name, 0) >= n:
        return False
    code = cycle.toward_enemy(u) if direction == "EnemyDir" else DIRECTION_CODE[direction]
    cycle.resources -= kind.cost
    cycle.pending_train[type_name] = cycle.pending_train.get(type_name, 0) + 1
    return cycle.order(TRAIN, u, kind.id, code)


def harvest(cycle: Cycle, u: Unit, n: int) -> bool:
    if u.id in cycle.assigned or not u.kind.can_harvest or cycle.harvesting >= n:
        return False
    if not cycle.minerals or not cycle.bases():
        return False
    resource, base = cycle.harvest_targets(u)
    cycle.harvesting += 1
    return cycle.order(HARVEST, u, resource.id, base.id)


def attack(cycle: Cycle, u: Unit, criterion: str) -> bool:
    if u.id in cycle.assigned or not u.kind.can_attack:
        return False
    target = cycle.choose(u, cycle.enemies, criterion)
    if target is None:
        return False
    cycle.attacking += 1
    return cycle.order(ATTACK, u, target.id)


def move_to_unit(cycle: Cycle, u: Unit, side: str, criterion: str) -> bool:
    if u.id in cycle.assigned or not u.kind.can_move:
        return False
    pool = cycle.enemies if side == "Enemy" else [a for a in cycle.own if a is not u]
    target = cycle.choose(u, pool, criterion)
    if target is None or manhattan(u, target) <= 1:
        return False
    if cycle.reference:
        cell = cycle.path_end_next_to(u, target)
        return cell is not None and cycle.order(MOVE, u, cell[0], cell[1])
    cells = [(target.x + dx, target.y + dy) for dx, dy in OFFSETS
             if cycle.free_cell(target.x + dx, target.y + dy)]
    if not cells:
        return False
    x, y = min(cells, key=lambda c: abs(c[0] - u.x) + abs(c[1] - u.y))
    return cycle.order(MOVE, u, x, y)


def idle(cycle: Cycle, u: Unit) -> bool:
    if u.id in cycle.assigned or not u.kind.can_attack:
        return False
    if not cycle.enemy_in_own_range(u):
        return False
    return cycle.order(IDLE, u)


def move_away(cycle: Cycle, u: Unit) -> bool:
    if u.id in cycle.assigned or not u.kind.can_move:
        return False
    bases = cycle.bases()
    if not bases:
        return False
    base = min(bases, key=lambda b: manhattan(u, b))
    x = min(max(2 * u.x - base.x, 0), cycle.width - 1)
    y = min(max(2 * u.y - base.y, 0), cycle.height - 1)
    if (x, y) == (u.x, u.y):
        return False
    cell = cycle.nearest_free_cell(x, y, radius=2)
    if cell is None or cell == (u.x, u.y):
        return False
    return cycle.order(MOVE, u, cell[0], cell[1])
