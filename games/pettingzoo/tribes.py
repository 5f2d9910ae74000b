"""Tribes for an RL agent: a fixed numbering of its state-dependent actions and a
board-shaped observation (``games.pettingzoo.env("tribes")``).

Tribes names its actors by unit and city ids that change from match to match, so
an action is numbered by *where* it happens instead: the tile of the unit or city
that acts and, for moves and attacks, the tile it acts on. With ``n`` tiles
(121 on the default 11 × 11 board) the numbers are laid out in blocks:

=====================  ==========  ============================================
block                  numbers     action
=====================  ==========  ============================================
global                 40          end turn; research technology 0 … 23; declare
                                   war; send 1 … 14 stars
city (its tile)        n × 20      spawn unit type 0 … 11; level up with bonus
                                   0 … 7
tile (the tile)        n × 25      build a road; build building 1 … 19; gather
                                   the resource, burn, clear or grow the
                                   forest, destroy the building
unit (its tile)        n × 7       capture, recover, examine, heal others,
                                   upgrade, make veteran, disband
unit pair              3 × n × n   move to a tile; attack, convert the unit on
                                   a tile
=====================  ==========  ============================================

Every number means the same thing in every state of every match on a board of
that size (``describe(number)`` says what); the action mask marks the ones legal
now. Most numbers are never legal in a given match (50,255 on 11 × 11, of
which a turn offers tens to a few hundred): agents need masked logits
(masked PPO, DQN with masking), and an action's effect still depends on the
state (which city builds on a tile is the one owning it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.tribes.constants import (
    ATTACK,
    BUILD,
    BUILD_ROAD,
    BURN_FOREST,
    CAPTURE,
    CLEAR_FOREST,
    CONVERT,
    DECLARE_WAR,
    DESTROY,
    DISBAND,
    END_TURN,
    EXAMINE,
    FINISHED,
    GROW_FOREST,
    HEAL_OTHERS,
    LEVEL_UP,
    MAKE_VETERAN,
    MIN_STARS_SEND,
    MOVE,
    NUM_TECHS,
    RECOVER,
    RESEARCH,
    RESOURCE,
    SEND_STARS,
    SPAWN,
    UNIT_HP,
    UNIT_NAMES,
    UPGRADE,
    VETERAN_PLUS_HP,
)

from .encodings import Encoding

N_TERRAIN, N_RESOURCES, N_BUILDINGS, N_UNITS, N_BONUSES = 7, 7, 19, 12, 8
SEND_MAX = MIN_STARS_SEND - 1
GLOBAL = 1 + NUM_TECHS + 1 + SEND_MAX
CITY_KINDS = N_UNITS + N_BONUSES
TILE_KINDS = (BUILD_ROAD, BUILD, RESOURCE, BURN_FOREST, CLEAR_FOREST, GROW_FOREST, DESTROY)
TILE_SLOTS = 1 + N_BUILDINGS + 5
UNIT_KINDS = (CAPTURE, RECOVER, EXAMINE, HEAL_OTHERS, UPGRADE, MAKE_VETERAN, DISBAND)
PAIR_KINDS = (MOVE, ATTACK, CONVERT)
SCALE_STARS = 100.0

PLANES = (
    ["explored"] + [f"terrain_{k}" for k in range(N_TERRAIN)]
    + [f"resource_{k}" for k in range(1, N_RESOURCES + 1)]
    + [f"building_{k}" for k in range(1, N_BUILDINGS + 1)]
    + ["road", "my_territory", "their_territory", "my_city", "their_city", "free_village",
       "city_level"]
    + [f"my_{u}" for u in UNIT_NAMES] + [f"their_{u}" for u in UNIT_NAMES]
    + ["my_unit_hp", "their_unit_hp", "my_unit_fresh", "my_unit_veteran"]
    + ["my_stars", "their_stars", "turn", "my_score_share"]
    + [f"my_tech_{t}" for t in range(NUM_TECHS)] + [f"their_tech_{t}" for t in range(NUM_TECHS)]
)
"""The observation's planes, in order (``size × size × len(PLANES)``, all in [0, 1])."""
_P = {name: i for i, name in enumerate(PLANES)}


class TribesEncoding(Encoding):
    """Tribes' actions numbered by tiles (module docstring) and its board as planes:
    what the seat has explored, then on explored tiles only terrain, resources,
    buildings, roads, territory, cities and units (the seat's first), then the
    tribes' stars, the turn, the seat's share of the score and both tribes'
    technologies as constant planes (``PLANES``).

    Args:
        game: a ``games.tribes.Tribes`` game.
    """

    dtype = np.float32

    def __init__(self, game: Any) -> None:
        self.side = game.size
        self.n = game.size * game.size
        self.shape = (self.side, self.side, len(PLANES))
        self.city_base = GLOBAL
        self.tile_base = self.city_base + self.n * CITY_KINDS
        self.unit_base = self.tile_base + self.n * TILE_SLOTS
        self.pair_base = self.unit_base + self.n * len(UNIT_KINDS)
        super().__init__(game)

    def catalogue(self) -> list:
        return []

    @property
    def size(self) -> int:
        return self.pair_base + len(PAIR_KINDS) * self.n * self.n

    def encode(self, state: Any, action: tuple) -> int:
        kind = action[0]
        if kind == END_TURN:
            return 0
        if kind == RESEARCH:
            return 1 + action[1]
        if kind == DECLARE_WAR:
            return 1 + NUM_TECHS
        if kind == SEND_STARS:
            return 1 + NUM_TECHS + action[1]
        if kind in (SPAWN, LEVEL_UP):
            slot = action[2] if kind == SPAWN else N_UNITS + action[2]
            return self.city_base + state.b.city_pos[action[1]] * CITY_KINDS + slot
        if kind == BUILD_ROAD:
            return self.tile_base + action[1] * TILE_SLOTS
        if kind == BUILD:
            return self.tile_base + action[2] * TILE_SLOTS + action[3]
        if kind in TILE_KINDS:  # resource, burn, clear, grow, destroy: slots 20 ... 24
            slot = N_BUILDINGS + TILE_KINDS.index(kind) - 1
            return self.tile_base + action[2] * TILE_SLOTS + slot
        actor = state.u_pos[action[1]]
        if kind in UNIT_KINDS:
            return self.unit_base + actor * len(UNIT_KINDS) + UNIT_KINDS.index(kind)
        target = action[2] if kind == MOVE else state.u_pos[action[2]]
        return self.pair_base + (PAIR_KINDS.index(kind) * self.n + actor) * self.n + target

    def legal(self, state: Any) -> dict[int, Any]:
        numbered = super().legal(state)
        if len(numbered) != len(state.legal_actions()):
            raise RuntimeError("two legal Tribes actions share a number: the layout is wrong")
        return numbered

    def describe(self, number: int) -> tuple:
        """What a number means, independent of the state: ``("research", tech)``,
        ``("spawn", city_tile, unit_type)``, ``("build", tile, building)``,
        ``("move", from_tile, to_tile)``, ``("attack", from_tile, target_tile)``, ..."""
        from games.tribes.constants import ACTION_NAMES

        if not 0 <= number < self.size:
            raise ValueError(f"action {number} outside 0..{self.size - 1}")
        if number < self.city_base:
            if number == 0:
                return ("end_turn",)
            if number <= NUM_TECHS:
                return ("research", number - 1)
            if number == 1 + NUM_TECHS:
                return ("declare_war",)
            return ("send_stars", number - 1 - NUM_TECHS)
        if number < self.tile_base:
            tile, slot = divmod(number - self.city_base, CITY_KINDS)
            return (("spawn", tile, slot) if slot < N_UNITS
                    else ("level_up", tile, slot - N_UNITS))
        if number < self.unit_base:
            tile, slot = divmod(number - self.tile_base, TILE_SLOTS)
            if slot == 0:
                return ("build_road", tile)
            if slot <= N_BUILDINGS:
                return ("build", tile, slot)
            return (ACTION_NAMES[TILE_KINDS[slot - N_BUILDINGS + 1]], tile)
        if number < self.pair_base:
            tile, slot = divmod(number - self.unit_base, len(UNIT_KINDS))
            return (ACTION_NAMES[UNIT_KINDS[slot]], tile)
        kind, rest = divmod(number - self.pair_base, self.n * self.n)
        return (ACTION_NAMES[PAIR_KINDS[kind]], *divmod(rest, self.n))

    @staticmethod
    def plane(name: str) -> int:
        """The index of a plane of the observation by its name (``PLANES``)."""
        return _P[name]

    def observe(self, state: Any, seat: int) -> np.ndarray:
        out = np.zeros((self.n, len(PLANES)), dtype=np.float32)
        if seat < 0:
            return out.reshape(self.shape)
        n, other = self.n, 1 - seat
        seen = np.frombuffer(bytes(state.explored[seat * n:(seat + 1) * n]), dtype=np.uint8) > 0
        tiles = np.arange(n)
        out[:, _P["explored"]] = seen
        out[tiles, _P["terrain_0"] + np.asarray(state.terrain)] = 1
        resource = np.asarray(state.resource)
        has = resource > 0
        out[tiles[has], _P["resource_1"] + resource[has] - 1] = 1
        building = np.asarray(state.building)
        has = building > 0
        out[tiles[has], _P["building_1"] + building[has] - 1] = 1
        out[:, _P["road"]] = np.asarray(state.road) > 0
        city_tribe = np.asarray([*state.c_tribe, -2])  # owner -1 (none) reads -2
        owner_tribe = city_tribe[np.asarray(state.owner)]
        out[:, _P["my_territory"]] = owner_tribe == seat
        out[:, _P["their_territory"]] = owner_tribe == other
        for c, t in enumerate(state.b.city_pos):
            tribe = state.c_tribe[c]
            plane = "my_city" if tribe == seat else "their_city" if tribe == other else \
                "free_village"
            out[t, _P[plane]] = 1
            out[t, _P["city_level"]] = min(state.c_level[c], 5) / 5
        for u, unit_type in enumerate(state.u_type):
            if unit_type < 0:
                continue
            t, mine = state.u_pos[u], state.u_tribe[u] == seat
            out[t, _P[("my_" if mine else "their_") + UNIT_NAMES[unit_type]]] = 1
            full = UNIT_HP[state.u_base[u]] + VETERAN_PLUS_HP * state.u_vet[u]
            out[t, _P["my_unit_hp" if mine else "their_unit_hp"]] = min(
                state.u_hp[u] / max(full, 1), 1.0)
            if mine:
                out[t, _P["my_unit_fresh"]] = state.u_status[u] != FINISHED
                out[t, _P["my_unit_veteran"]] = state.u_vet[u] > 0
        out[~seen, :_P["my_stars"]] = 0
        out[:, _P["my_stars"]] = min(state.stars[seat] / SCALE_STARS, 1.0)
        out[:, _P["their_stars"]] = min(state.stars[other] / SCALE_STARS, 1.0)
        out[:, _P["turn"]] = min(state.turn / state.turn_limit, 1.0)
        total = state.score[seat] + state.score[other]
        out[:, _P["my_score_share"]] = (state.score[seat] / total if total > 0 else 0.5) \
            if state.score[seat] >= 0 and state.score[other] >= 0 else 0.5
        for t in range(NUM_TECHS):
            out[:, _P["my_tech_0"] + t] = state.techs[seat] >> t & 1
            out[:, _P["their_tech_0"] + t] = state.techs[other] >> t & 1
        return out.reshape(self.shape)
