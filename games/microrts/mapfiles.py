"""microRTS map files read in Python: checked before the engine sees them, and listed.

The Java loader (``PhysicalGameState.load``) answers a malformed file with a long
stack trace; ``check_map_file`` refuses it first in one line naming the file.
``map_units`` lists a map's units, which is how the tests pin the papers' maps
(unit counts and positions) without a JVM.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NamedTuple

from .engine import EngineError


class MapUnit(NamedTuple):
    type: str
    player: int
    x: int
    y: int
    resources: int
    hitpoints: int


class MapInfo(NamedTuple):
    width: int
    height: int
    walls: int
    start_resources: tuple[int, int]
    units: list[MapUnit]


UNIT_TYPES = ("Resource", "Base", "Barracks", "Worker", "Light", "Heavy", "Ranged")


class MapError(EngineError):
    """A file given as a map that the engine could not load."""


def read_map(path: str | Path) -> MapInfo:
    """The map's size, wall count, starting resources and units; ``MapError`` (one line
    naming the file) if it is not a microRTS map."""
    path = Path(path)

    def refuse(why: str) -> MapError:
        return MapError(f"{path}: not a microRTS map ({why})")

    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError, UnicodeDecodeError) as err:
        raise refuse(str(err)) from None
    if root.tag != "rts.PhysicalGameState":
        raise refuse(f"root element <{root.tag}>, expected <rts.PhysicalGameState>")
    try:
        width, height = int(root.get("width", "")), int(root.get("height", ""))
    except ValueError:
        raise refuse("width/height missing") from None
    terrain = root.find("terrain")
    cells = (terrain.text or "").strip() if terrain is not None else ""
    if len(cells) != width * height or set(cells) - {"0", "1"}:
        raise refuse(f"terrain must be {width}x{height} characters 0/1")
    players = root.find("players")
    player_nodes = players.findall("rts.Player") if players is not None else []
    if len(player_nodes) != 2:
        raise refuse("needs two <rts.Player>")
    try:
        start = tuple(int(p.get("resources", "")) for p in player_nodes)
    except ValueError:
        raise refuse("a player lacks resources") from None
    units_node = root.find("units")
    if units_node is None:
        raise refuse("no <units>")
    units = []
    for node in units_node:
        try:
            unit = MapUnit(node.attrib["type"], int(node.get("player", "")),
                           int(node.get("x", "")), int(node.get("y", "")),
                           int(node.get("resources", "0")), int(node.get("hitpoints", "")))
            int(node.get("ID", ""))
        except (ValueError, KeyError):
            raise refuse("a unit lacks type/ID/player/x/y/hitpoints") from None
        if unit.type not in UNIT_TYPES:
            raise refuse(f"unknown unit type '{unit.type}'")
        if not (0 <= unit.x < width and 0 <= unit.y < height):
            raise refuse(f"unit at ({unit.x}, {unit.y}) off the map")
        if cells[unit.x + unit.y * width] == "1":
            raise refuse(f"unit at ({unit.x}, {unit.y}) on a wall")
        units.append(unit)
    return MapInfo(width, height, cells.count("1"), start, units)


def check_map_file(path: str | Path) -> None:
    """Refuse a file that is not a microRTS map, before a JVM loads it."""
    read_map(path)
