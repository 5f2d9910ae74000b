"""The framework's Tribes levels load as data and play (``level=java:N``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from games.tribes import Tribes
from games.tribes.constants import CITY, RESOURCE_NAMES, TERRAIN_CHARS, VILLAGE
from games.tribes.levels import (
    java_level_names,
    java_level_path,
    load_java_level,
    parse_java_level,
)

RES_CHARS = "-hfawocr"


def _tiles(path):
    return [cell.split(":") for line in path.read_text().splitlines() if line
            for cell in line.rstrip(",").split(",")]


@pytest.mark.parametrize("key", java_level_names())
def test_each_level_file_loads_tile_by_tile(key):
    level = load_java_level(key)
    cells = _tiles(java_level_path(key))
    assert len(cells) == level.size ** 2
    cities = [t for t, (kind, _) in enumerate(cells) if kind == "c"]
    assert level.capitals == tuple(cities[:2])  # tribes numbered in reading order
    assert level.tribes == tuple(int(cells[t][1]) for t in cities[:2])
    for t, (kind, extra) in enumerate(cells):
        terrain = level.terrain[t]
        assert TERRAIN_CHARS[terrain] == kind or (kind == "c" and t in level.villages)
        if terrain in (CITY, VILLAGE):
            assert (terrain == VILLAGE) == (t in level.villages)
        elif extra.strip():
            assert RESOURCE_NAMES[level.resource[t]] != "-"
            assert RES_CHARS[level.resource[t]] == extra
        else:
            assert level.resource[t] == 0


def test_tournament_levels_are_the_25_seeds_in_order():
    names = java_level_names()
    assert names[:25] == [f"java:{i}" for i in range(25)]
    seeds = [int(java_level_path(f"java:{i}").stem.split("_")[2]) for i in range(25)]
    assert seeds[0] == 1590191438878 and seeds[24] == 1588407146837
    assert len(set(seeds)) == 25
    for i in range(25):
        level = load_java_level(f"java:{i}")
        assert level.size == 11 and sorted(level.tribes) == [0, 1]  # Xin-Xi and Imperius
        assert 1 <= len(level.villages) <= 5
        terrains = Counter(level.terrain)
        assert terrains[CITY] == 2


def test_a_game_plays_on_every_framework_level():
    for key in java_level_names():
        game = Tribes(level=key, turn_limit=8)
        state = game.new_initial_state(random.Random(3))
        rng = random.Random(4)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.b.level.seed == key
        again = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert again == state


def test_levels_java_draws_among_the_tournament_levels():
    game = Tribes(levels="java")
    drawn = {game.new_initial_state(random.Random(s)).b.level.seed for s in range(40)}
    assert drawn <= {f"java:{i}" for i in range(25)} and len(drawn) > 10


def test_bad_framework_levels_are_refused():
    with pytest.raises(ValueError, match="java:25"):
        Tribes(level="java:25")
    with pytest.raises(ValueError, match="row 1 has 2 tiles"):
        parse_java_level("c:0,.:,.:\nc:1,.:\n.:,.:,.:\n", "bad")
    with pytest.raises(ValueError, match="1 capitals"):
        parse_java_level("c:0,.:\n.:,.:\n", "bad")


def test_cli_plays_a_framework_level():
    out = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "tribes", "--game-param",
         "level=java:0", "--p0", "simple", "--p1", "random", "-n", "2", "--json"],
        capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1])["matches"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "tribes", "--game-param",
         "level=java:99", "--p0", "simple", "--p1", "random"], capture_output=True, text=True)
    assert bad.returncode == 2 and "java:99" in bad.stderr
