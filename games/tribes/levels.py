"""Seeded Tribes level generator: one level per integer seed.

It follows the ingredients of the framework's generator (an N×N square board, land
grown from a random land fraction and smoothed, mountains and forests on land,
shallow water along coasts and deep water beyond, capitals far apart, neutral
villages spaced out, resources near settlements, a few ruins), written from that
description, not ported. Levels with capitals not joined by land are rejected and
redrawn, so a game can be won on foot (boats exist but are optional).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from .constants import (
    ANIMAL,
    CITY,
    CROPS,
    DEEP,
    FISH,
    FOREST,
    FRUIT,
    MOUNTAIN,
    NO_RES,
    ORE,
    PLAIN,
    RUINS,
    SHALLOW,
    TERRAIN_CHARS,
    TRIBES,
    VILLAGE,
    WHALES,
)

DEFAULT_SIZE = 11
NUM_LEVELS = 25
"""Levels 0..24 are the fixed level set of our experiments; any other seed works too."""


@dataclass(frozen=True)
class Level:
    size: int
    terrain: tuple[int, ...]
    resource: tuple[int, ...]
    capitals: tuple[int, int]
    villages: tuple[int, ...]
    tribes: tuple[int, int]
    seed: int | str
    """The level's key: a generator seed, or ``"java:N"`` / ``"java:NAME"`` for the
    framework's levels (``load_java_level``)."""

    def to_text(self) -> str:
        """One row per line: terrain char, resource char ('-' none), '|' separated."""
        res_chars = "-hfawocr"
        rows = []
        for y in range(self.size):
            cells = []
            for x in range(self.size):
                t = y * self.size + x
                cells.append(TERRAIN_CHARS[self.terrain[t]] + res_chars[self.resource[t]])
            rows.append(" ".join(cells))
        return "\n".join(rows)


def _neighbours(size: int, t: int, radius: int = 1):
    x, y = t % size, t // size
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            if (dx or dy) and 0 <= x + dx < size and 0 <= y + dy < size:
                yield (y + dy) * size + x + dx


def _cheb(size: int, a: int, b: int) -> int:
    return max(abs(a % size - b % size), abs(a // size - b // size))


def _land_connected(size: int, land: list[bool], a: int, b: int) -> bool:
    seen = {a}
    frontier = [a]
    while frontier:
        t = frontier.pop()
        if t == b:
            return True
        for n in _neighbours(size, t):
            if land[n] and n not in seen:
                seen.add(n)
                frontier.append(n)
    return False


def generate_level(seed: int, size: int = DEFAULT_SIZE, land_fraction: float = 0.55) -> Level:
    """The level of ``seed``: deterministic in any process."""
    if size < 7:
        raise ValueError("tribes levels need size >= 7")
    rng = random.Random(f"tribes-level-{seed}-{size}")
    for _attempt in range(200):
        level = _attempt_level(rng, size, land_fraction, seed)
        if level is not None:
            return level
    raise RuntimeError(f"no playable tribes level for seed {seed}")  # pragma: no cover


def _attempt_level(rng: random.Random, size: int, land_fraction: float, seed: int):
    n = size * size
    land = [rng.random() < land_fraction for _ in range(n)]
    for _ in range(3):  # smoothing: majority of the 3x3 block
        new = land[:]
        for t in range(n):
            around = [land[m] for m in _neighbours(size, t)] + [land[t]]
            new[t] = sum(around) * 2 > len(around)
        land = new
    land_tiles = [t for t in range(n) if land[t]]
    if len(land_tiles) < n * 0.35:
        return None
    inner = [t for t in land_tiles if 1 <= t % size < size - 1 and 1 <= t // size < size - 1]
    if len(inner) < 2:
        return None
    best, best_d = None, -1
    for _ in range(60):
        a, b = rng.sample(inner, 2)
        d = _cheb(size, a, b)
        if d > best_d:
            best, best_d = (a, b), d
    if best_d < size // 2:
        return None
    capitals = best
    if not _land_connected(size, land, *capitals):
        return None
    terrain = [PLAIN if land[t] else DEEP for t in range(n)]
    for t in range(n):
        if not land[t] and any(land[m] for m in _neighbours(size, t)):
            terrain[t] = SHALLOW
    settlements = list(capitals)
    for t in capitals:
        terrain[t] = CITY
    candidates = [t for t in land_tiles if t not in capitals]
    rng.shuffle(candidates)
    villages = []
    target = max(3, len(land_tiles) // 14)
    for t in candidates:
        if len(villages) >= target:
            break
        if all(_cheb(size, t, s) >= 3 for s in settlements):
            villages.append(t)
            settlements.append(t)
            terrain[t] = VILLAGE
    near = set()
    for s in settlements:
        near.update(_neighbours(size, s, 1))
    for t in land_tiles:
        if terrain[t] != PLAIN:
            continue
        r = rng.random()
        chance = 0.6 if t in near else 1.0
        if r < 0.18 * chance:
            terrain[t] = FOREST
        elif r < 0.30 * chance and t not in near:
            terrain[t] = MOUNTAIN
        elif r < 0.30 * chance and rng.random() < 0.4:
            terrain[t] = MOUNTAIN
    resource = [NO_RES] * n
    for t in range(n):
        if terrain[t] in (CITY, VILLAGE):
            continue
        r = rng.random()
        close = t in near
        if terrain[t] == PLAIN:
            if r < (0.18 if close else 0.06):
                resource[t] = FRUIT
            elif r < (0.36 if close else 0.12):
                resource[t] = CROPS
        elif terrain[t] == FOREST and r < (0.30 if close else 0.10):
            resource[t] = ANIMAL
        elif terrain[t] == MOUNTAIN and r < (0.25 if close else 0.11):
            resource[t] = ORE
        elif terrain[t] == SHALLOW and r < (0.45 if close else 0.15):
            resource[t] = FISH
        elif terrain[t] == DEEP and r < 0.08:
            resource[t] = WHALES
    ruin_spots = [t for t in range(n) if terrain[t] in (PLAIN, FOREST, MOUNTAIN, DEEP)
                  and resource[t] == NO_RES and all(_cheb(size, t, c) >= 3 for c in capitals)]
    rng.shuffle(ruin_spots)
    for t in ruin_spots[:max(1, n // 40)]:
        resource[t] = RUINS
    tribes = tuple(rng.sample(range(len(TRIBES)), 2))
    return Level(size, tuple(terrain), tuple(resource), tuple(capitals), tuple(villages),
                 tribes, seed)


JAVA_LEVELS_DIR = Path(__file__).parent / "java_levels"
"""The framework's levels as data: ``tournament_NN_SEED.csv`` (its level generator at
the 25 seeds of its ``tournament.json``) and its two-player ``levels/*.csv``."""
JAVA_TOURNAMENT_LEVELS = 25


def java_level_names() -> list[str]:
    """Every framework level key: ``java:0`` .. ``java:24``, then ``java:NAME`` files."""
    names = [f"java:{i}" for i in range(JAVA_TOURNAMENT_LEVELS)]
    names += sorted(f"java:{p.stem}" for p in JAVA_LEVELS_DIR.glob("*.csv")
                    if not p.stem.startswith("tournament_"))
    return names


def java_level_path(key: str) -> Path:
    """The file of ``java:N`` (tournament level N) or ``java:NAME`` (a level file)."""
    name = key.removeprefix("java:")
    if name.isdigit():
        found = sorted(JAVA_LEVELS_DIR.glob(f"tournament_{int(name):02d}_*.csv"))
    else:
        found = [JAVA_LEVELS_DIR / f"{name}.csv"]
    if not found or not found[0].is_file():
        raise ValueError(f"no framework level {key!r} (known: {', '.join(java_level_names())})")
    return found[0]


def parse_java_level(text: str, key: str) -> Level:
    """A level in the framework's CSV format (``LevelLoader.buildLevel``).

    One line per board row, ``TERRAIN:EXTRA`` per tile: ``EXTRA`` is a resource character,
    or for a city the key of its tribe. Tribes are numbered in the order their capitals
    appear reading row by row, as the framework numbers them. Tile (row i, column j) is
    our tile ``i * size + j``, so the framework's position (x, y) is tile ``x * size + y``.
    """
    rows = [line.rstrip(",") for line in text.splitlines() if line.strip()]
    size = len(rows)
    terrain, resource, capitals, villages, tribes = [], [], [], [], []
    res_chars = "-hfawocr"
    for i, line in enumerate(rows):
        cells = line.split(",")
        if len(cells) != size:
            raise ValueError(f"{key}: row {i} has {len(cells)} tiles, not {size}")
        for j, cell in enumerate(cells):
            t = i * size + j
            kind, _, extra = cell.partition(":")
            if not kind or kind[0] not in TERRAIN_CHARS:
                raise ValueError(f"{key}: row {i} tile {j}: unknown terrain {cell!r}")
            ter = TERRAIN_CHARS.index(kind[0])
            res = NO_RES
            if ter == CITY:
                if len(capitals) == 2:
                    ter = VILLAGE  # the framework turns cities beyond its tribes into villages
                    villages.append(t)
                else:
                    capitals.append(t)
                    tribes.append(int(extra))
            else:
                if ter == VILLAGE:
                    villages.append(t)
                if extra and extra[0] in res_chars[1:]:
                    res = res_chars.index(extra[0])
            terrain.append(ter)
            resource.append(res)
    if len(capitals) != 2:
        raise ValueError(f"{key}: {len(capitals)} capitals; two-player levels need two")
    if any(not 0 <= tribe < len(TRIBES) for tribe in tribes):
        raise ValueError(f"{key}: tribe keys {tribes} outside 0..{len(TRIBES) - 1}")
    return Level(size, tuple(terrain), tuple(resource), (capitals[0], capitals[1]),
                 tuple(villages), (tribes[0], tribes[1]), key)


def load_java_level(key: str) -> Level:
    """The framework's level ``java:N`` / ``java:NAME`` (see ``java_level_names``)."""
    return parse_java_level(java_level_path(key).read_text(), key)
