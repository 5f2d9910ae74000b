"""What a program archive keeps in each cell, and MAP-Elites keeping the best per cell."""

from __future__ import annotations

import json
from functools import partial

import pytest

from gp.evaluator import read_log
from qd.archive import ProgramArchive
from qd.map_elites import run_map_elites

from .search_problems import ORDER, coverage, order_value


def _by_program(archive: ProgramArchive) -> dict[str, tuple[float, list[float]]]:
    return {e["program"]: (e["objective"], e["measures"]) for e in archive.elites()}


def test_a_cell_keeps_its_best_program_with_that_programs_own_measures():
    archive = ProgramArchive(["a", "b"], [(0, 12), (0, 1)], [4, 4])
    # status: 2 a new cell, 1 a better program for a taken cell, 0 not kept
    assert list(archive.add(["first"], [0.4], [[1.0, 0.1]])) == [2]
    assert list(archive.add(["worse"], [0.3], [[2.0, 0.2]])) == [0]  # same cell, worse
    assert _by_program(archive) == {"first": (0.4, [1.0, 0.1])}
    assert list(archive.add(["better"], [0.5], [[2.5, 0.05]])) == [1]
    assert _by_program(archive) == {"better": (0.5, [2.5, 0.05])}
    assert list(archive.add(["tie"], [0.5], [[0.5, 0.2]])) == [0]  # a tie keeps the elite


def test_cells_split_at_their_boundaries_and_measures_outside_are_clipped():
    archive = ProgramArchive(["a", "b"], [(0, 12), (0, 1)], [4, 4])  # cells 3 wide in a
    archive.add(["below", "above"], [0.2, 0.1], [[2.999, 0.5], [3.0, 0.5]])
    assert set(_by_program(archive)) == {"below", "above"}  # 3.0 starts the next cell
    archive.add(["far", "top"], [0.9, 0.9], [[-5.0, 0.5], [12.0, 1.0]])
    kept = _by_program(archive)
    assert "far" in kept and "below" not in kept  # clipped into the first cell, better
    assert "top" in kept and kept["top"][1] == [12.0, 1.0]  # the range's end: last cell
    stats = archive.stats()
    assert stats["elites"] == 3 and stats["coverage"] == pytest.approx(3 / 16)
    assert stats["qd_score"] == pytest.approx(0.1 + 0.9 + 0.9)
    assert stats["best"] == 0.9


def test_a_saved_archive_loads_with_the_same_elite_in_every_cell(tmp_path):
    archive = ProgramArchive(["a", "b"], [(0, 12), (0, 1)], [4, 4])
    archive.add([f"p{i}" for i in range(30)], [i / 30 for i in range(30)],
                [[(7 * i) % 12, (i % 5) / 5] for i in range(30)])
    archive.save(tmp_path / "a.json")
    again = ProgramArchive.load(tmp_path / "a.json")
    assert _by_program(again) == _by_program(archive)
    assert json.loads((tmp_path / "a.json").read_text())["dims"] == [4, 4]


def test_a_heatmap_needs_exactly_two_features(tmp_path):
    archive = ProgramArchive(["a", "b"], [(0, 12), (0, 1)], [4, 4])
    archive.add(["p"], [0.5], [[1.0, 0.5]])
    archive.heatmap(tmp_path / "map.png")
    assert (tmp_path / "map.png").read_bytes()[:4] == b"\x89PNG"
    three = ProgramArchive(["a", "b", "c"], [(0, 1)] * 3, cells=10)
    with pytest.raises(ValueError, match="exactly two features"):
        three.heatmap(tmp_path / "no.png")
    assert not (tmp_path / "no.png").exists()


def test_the_heatmap_colours_a_win_rate_from_0_to_1_with_the_features_on_the_axes(
        tmp_path, monkeypatch):
    import ribs.visualize

    seen = {}

    def spy(archive, ax, **kwargs):
        seen.update(kwargs)
        seen["axes"] = ax

    monkeypatch.setattr(ribs.visualize, "grid_archive_heatmap", spy)
    archive = ProgramArchive(["speed", "risk"], [(0, 12), (0, 1)], [4, 4])
    archive.heatmap(tmp_path / "map.png")
    assert (seen["vmin"], seen["vmax"]) == (0, 1)
    assert seen["axes"].get_xlabel() == "speed" and seen["axes"].get_ylabel() == "risk"
    assert seen["axes"].get_title() == "win rate of the elite in each cell"
    archive.heatmap(tmp_path / "map.png", title="after 1000 evaluations")
    assert seen["axes"].get_title() == "after 1000 evaluations"


def test_a_grid_has_ten_cells_per_feature_unless_told_and_one_range_per_feature():
    archive = ProgramArchive(["a", "b"], [(0, 1), (0, 1)])
    assert archive.dims == [10, 10] and archive.seed == 0
    archive.add(["p"], [0.5], [[0.5, 0.5]])
    assert archive.stats()["coverage"] == pytest.approx(1 / 100)
    for features, ranges in ((["a", "b"], [(0, 1)]), ([], [])):
        with pytest.raises(ValueError, match="one range per feature"):
            ProgramArchive(features, ranges)


def test_more_than_two_features_make_a_cvt_archive_of_100_cells_unless_told():
    three = ProgramArchive(["a", "b", "c"], [(0, 1)] * 3)
    assert three.dims is None and three.cells == 100
    assert len(three.archive.centroids) == 100
    assert len(ProgramArchive(["a", "b", "c"], [(0, 1)] * 3, cells=30).archive.centroids) == 30
    assert ProgramArchive(["a", "b"], [(0, 1)] * 2).cells is None  # two: a grid


def test_a_cvt_archive_reloads_with_its_own_cells_and_the_file_says_its_format(tmp_path):
    cvt = ProgramArchive(["a", "b", "c"], [(0, 1)] * 3, cells=20)
    cvt.add(["p"], [0.5], [[0.1, 0.2, 0.3]])
    cvt.save(tmp_path / "cvt.json")
    data = json.loads((tmp_path / "cvt.json").read_text())
    assert (data["format"], data["version"], data["cells"]) == \
        ("stratsynth.program-archive", 1, 20)
    again = ProgramArchive.load(tmp_path / "cvt.json")
    assert again.cells == 20 and len(again.archive.centroids) == 20
    assert _by_program(again) == _by_program(cvt)


def test_corner_elites_compare_measures_scaled_to_their_ranges():
    archive = ProgramArchive(["a", "b"], [(10, 20), (0, 1)], [10, 10])
    # scaled: A = 1.0 + 0.0, B = 0.0 + 0.95, C = 0.2 + 0.0; unscaled, a would decide alone
    archive.add(["A", "B", "C"], [0.5, 0.5, 0.5], [[20, 0.0], [10, 0.95], [12, 0.0]])
    low, high = archive.corner_elites()
    assert (low["program"], high["program"]) == ("C", "A")
    archive.add(["D"], [0.9], [[10.5, 1.0]])  # replaces B; 0.05 + 1.0: the high corner now
    assert archive.corner_elites()[1]["program"] == "D"


def test_an_archive_file_without_a_seed_loads_with_seed_0(tmp_path):
    archive = ProgramArchive(["a", "b"], [(0, 1), (0, 1)], [2, 2], seed=5)
    archive.save(tmp_path / "a.json")
    assert ProgramArchive.load(tmp_path / "a.json").seed == 5
    data = json.loads((tmp_path / "a.json").read_text())
    del data["seed"]
    (tmp_path / "b.json").write_text(json.dumps(data))
    assert ProgramArchive.load(tmp_path / "b.json").seed == 0


def _order_behaviour(text: str) -> tuple[float, list[float]]:
    tree = ORDER.parse(text)
    return order_value(tree), [float(len(tree)), coverage(tree)]


class _Batch:
    """``BehaviourWinRate``'s interface for a plain function."""

    def __init__(self, function) -> None:
        self.function = function

    def __call__(self, text):
        return self.function(text)

    def many(self, texts):
        return [self.function(t) for t in texts]


def test_map_elites_keeps_in_every_cell_the_best_program_it_evaluated_there(tmp_path):
    archive = ProgramArchive(["size", "coverage"], [(1, 41), (0, 1)], [8, 5])
    run_map_elites(archive, ORDER, _Batch(_order_behaviour), seed=3, out=tmp_path,
                   evaluations=240, batch_size=8, present=partial(str))
    rows = read_log(tmp_path / "log.csv")
    assert len(rows) == 240
    best_in_cell: dict[int, float] = {}
    for row in rows:
        cell = int(archive.archive.index_of_single(json.loads(row["measures"])))
        best_in_cell[cell] = max(best_in_cell.get(cell, -1.0), float(row["value"]))
    kept = {int(archive.archive.index_of_single(e["measures"])): e["objective"]
            for e in archive.elites()}
    assert kept == best_in_cell
    # and the search moved beyond the random programs it started from
    assert max(kept.values()) >= 0.5 and len(kept) >= 10
