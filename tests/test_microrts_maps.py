"""The papers' four microRTS maps (the sketch-learning paper, Aleixo 2023), pinned by unit counts
and positions,
and map files that are not maps refused in one line."""

from collections import Counter

import pytest

from experiments.cli import main
from games.microrts.engine import MAPS, PAPER_MAPS, map_path
from games.microrts.mapfiles import MapError, read_map

from .extras import need_microrts, need_microrts_maps


def _layout(name: str) -> dict:
    info = read_map(map_path(name))
    return {
        "size": (info.width, info.height),
        "walls": info.walls,
        "start": info.start_resources,
        "units": sorted((u.type, u.player, u.x, u.y, u.resources, u.hitpoints)
                        for u in info.units),
    }


def test_32x32_is_bases_workers_32x32a_open_grid_eight_units():
    need_microrts_maps()
    # basesWorkers32x32A (microRTS maps folder): no walls, 5 resources each, two piles of 25
    # per corner, a Base (10 HP) and a Worker per player.
    assert map_path("32x32").name == "basesWorkers32x32A.xml"
    layout = _layout("32x32")
    assert layout["size"] == (32, 32) and layout["walls"] == 0 and layout["start"] == (5, 5)
    assert layout["units"] == sorted([
        ("Resource", -1, 0, 0, 25, 1), ("Resource", -1, 0, 1, 25, 1),
        ("Resource", -1, 31, 31, 25, 1), ("Resource", -1, 31, 30, 25, 1),
        ("Base", 0, 2, 2, 0, 10), ("Worker", 0, 1, 1, 0, 1),
        ("Base", 1, 29, 29, 0, 10), ("Worker", 1, 30, 30, 0, 1)])


def test_the_distant_resources_stand_in_keeps_its_own_name():
    need_microrts_maps()
    layout = _layout("32x32-distant")
    assert map_path("32x32-distant").name == "BWDistantResources32x32.xml"
    assert layout["walls"] > 0 and layout["start"] == (20, 20)
    assert layout != _layout("32x32")


def test_16x16_is_two_bases_barracks():
    need_microrts_maps()
    layout = _layout("16x16")
    assert layout["size"] == (16, 16) and layout["walls"] == 0 and layout["start"] == (5, 5)
    kinds = Counter((u[0], u[1]) for u in layout["units"])
    assert kinds == {("Resource", -1): 6, ("Base", 0): 2, ("Base", 1): 2,
                     ("Barracks", 0): 2, ("Barracks", 1): 2}
    positions = {(u[0], u[1], u[2], u[3]) for u in layout["units"]}
    assert {("Base", 0, 1, 3), ("Base", 0, 3, 1), ("Barracks", 0, 3, 5), ("Barracks", 0, 5, 3),
            ("Base", 1, 12, 14), ("Base", 1, 14, 12), ("Barracks", 1, 10, 12),
            ("Barracks", 1, 12, 10)} <= positions
    assert all(u[4] == 20 for u in layout["units"] if u[0] == "Resource")


def test_24x24_is_bases_workers_the_32x32a_layout_scaled():
    need_microrts_maps()
    layout = _layout("24x24")
    assert layout["size"] == (24, 24) and layout["walls"] == 0 and layout["start"] == (5, 5)
    assert layout["units"] == sorted([
        ("Resource", -1, 0, 0, 25, 1), ("Resource", -1, 0, 1, 25, 1),
        ("Resource", -1, 23, 22, 25, 1), ("Resource", -1, 23, 23, 25, 1),
        ("Base", 0, 2, 2, 0, 10), ("Worker", 0, 1, 1, 0, 1),
        ("Base", 1, 21, 21, 0, 10), ("Worker", 1, 22, 22, 0, 1)])


def test_64x64_is_blood_bath_b():
    need_microrts_maps()
    layout = _layout("64x64")
    assert layout["size"] == (64, 64) and layout["walls"] == 1016 and layout["start"] == (5, 5)
    assert layout["units"] == sorted([
        ("Resource", -1, 12, 61, 40, 1), ("Resource", -1, 2, 13, 40, 1),
        ("Resource", -1, 61, 53, 40, 1), ("Resource", -1, 61, 11, 40, 1),
        ("Base", 0, 53, 55, 0, 10), ("Base", 1, 2, 6, 0, 10)])


def test_every_named_map_reads_and_the_paper_maps_are_four():
    need_microrts_maps()
    assert set(PAPER_MAPS) <= set(MAPS) and len(PAPER_MAPS) == 4
    for name in MAPS:
        assert read_map(map_path(name)).units


@pytest.mark.parametrize("text, why", [
    ("hello", "syntax error"),
    ("<map/>", "root element <map>"),
    ('<rts.PhysicalGameState width="2" height="2"><terrain>000</terrain>'
     "</rts.PhysicalGameState>", "terrain must be 2x2"),
    ('<rts.PhysicalGameState width="2" height="1"><terrain>00</terrain><players>'
     '<rts.Player ID="0" resources="5"/><rts.Player ID="1" resources="5"/></players><units>'
     '<rts.units.Unit type="Dragon" ID="1" player="0" x="0" y="0" hitpoints="1"/>'
     "</units></rts.PhysicalGameState>", "unknown unit type 'Dragon'"),
    ('<rts.PhysicalGameState width="2" height="1"><terrain>00</terrain><players>'
     '<rts.Player ID="0" resources="5"/><rts.Player ID="1" resources="5"/></players><units>'
     '<rts.units.Unit type="Worker" ID="1" player="0" x="5" y="0" hitpoints="1"/>'
     "</units></rts.PhysicalGameState>", r"unit at \(5, 0\) off the map"),
])
def test_files_that_are_not_maps_are_refused_naming_the_file(tmp_path, text, why):
    bad = tmp_path / "bad.xml"
    bad.write_text(text)
    with pytest.raises(MapError, match=why) as err:
        map_path(str(bad))
    assert str(bad) in str(err.value) and "\n" not in str(err.value)


def test_cli_bad_map_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "notamap.xml"
    bad.write_text("<html></html>")
    code = main(["play", "microrts", "--map", str(bad), "--p0", "workerrush", "--p1",
                 "workerrush", "-n", "1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(bad) in err and "not a microRTS map" in err


def _load_in_java(path: str) -> tuple[int, int, int]:
    from games.microrts.engine import start_jvm, unit_type_table

    start_jvm()
    from rts import PhysicalGameState

    pgs = PhysicalGameState.load(path, unit_type_table())
    return int(pgs.getWidth()), int(pgs.getHeight()), int(pgs.getUnits().size())


def test_the_engine_loads_our_32x32_map_as_written():
    need_microrts()
    from games.backends import PoolMap

    with PoolMap(1) as pool:  # the JVM lives in a worker, not in pytest's process
        assert pool(_load_in_java, [str(map_path("32x32"))]) == [(32, 32, 8)]
