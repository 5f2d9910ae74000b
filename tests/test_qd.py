"""Behaviour features, program archives (pyribs) and MAP-Elites."""

import json

import pytest

from experiments.cli import main
from games import load_game
from games.cantstop import RandomStrategy, glenn_aloi_player
from games.cantstop.features import FEATURES
from games.match import play_matches
from gp.evaluator import read_log
from qd.archive import ProgramArchive

from .cantstop_positions import position


def test_features_count_stops_banked_cells_busts_and_outer_columns():
    s = position(mine={7: 3}, neutral={7: 5, 2: 2}, order=[7, 2])
    s.apply_action("n")  # banks 2 cells in 7 and 2 in column 2
    assert s.stops[0] == 1 and s.banked[0] == 4
    assert FEATURES["markers_per_stop"][0](s, 0) == 4.0
    s = position(dice=(1, 1, 5, 5))  # (2,10), (6,6)
    s.apply_action((2, 10))
    assert s.advances[0] == 2 and s.outer[0] == 2
    assert FEATURES["outer_preference"][0](s, 0) == 1.0


def test_features_come_from_the_same_matches_and_separate_players():
    summary = play_matches(load_game("cantstop"), (glenn_aloi_player(), RandomStrategy()),
                           300, seed=4, behavior=FEATURES)
    ga, rnd = summary.behavior(0), summary.behavior(1)
    assert ga["markers_per_stop"] > 2 * rnd["markers_per_stop"]
    assert ga["bust_rate"] > rnd["bust_rate"]
    plain = play_matches(load_game("cantstop"), (glenn_aloi_player(), RandomStrategy()),
                         300, seed=4)
    assert plain.wins == summary.wins  # features cost no extra matches


def test_archive_round_trip_keeps_programs(tmp_path):
    archive = ProgramArchive(["markers_per_stop", "bust_rate"], [(0, 12), (0, 1)], [4, 4])
    texts = ["score: 1 + 1\ncolumn: argmax(map(lambda a: 1, actions))",
             "score: sum(neutrals)\ncolumn: argmax(map(lambda a: 2, actions))"]
    archive.add(texts, [0.3, 0.6], [[1.0, 0.1], [11.0, 0.9]])
    archive.save(tmp_path / "a.json")
    again = ProgramArchive.load(tmp_path / "a.json")
    assert sorted(e["program"] for e in again.elites()) == sorted(texts)
    assert again.stats() == archive.stats()
    low, high = again.corner_elites()
    assert low["program"] == texts[0] and high["program"] == texts[1]
    cvt = ProgramArchive(list(FEATURES), [r for _, r in FEATURES.values()], cells=20)
    cvt.add(texts[:1], [0.5], [[3, 0.2, 10, 0.3]])
    assert cvt.stats()["elites"] == 1


def test_qd_command_builds_an_archive_and_heatmap(tmp_path, capsys):
    out = tmp_path / "qd"
    assert main(["qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims",
                 "6,6", "--matches", "20", "--evaluations", "32", "--batch", "4",
                 "--seed", "2", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    data = json.loads((out / "archive.json").read_text())
    assert data["elites"] and (out / "heatmap.png").stat().st_size > 5000
    lines = (out / "stats.csv").read_text().splitlines()
    assert len(lines) == 1 + 4 and lines[-1].split(",")[1] == "32"
    assert main(["qd-check", str(out), "--matches", "20", "--workers", "1"]) == 0
    corners = (out / "corners.md").read_text()
    assert "| low |" in corners and "| high |" in corners
    assert main(["qd", "cantstop", "--features", "speed", "--evaluations", "4",
                 "--out", str(tmp_path / "x")]) == 2
    assert "unknown feature" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["{}", '{"format": "other"}', "not json"])
def test_bad_archive_files_are_named(tmp_path, bad):
    path = tmp_path / "bad.json"
    path.write_text(bad)
    with pytest.raises(ValueError, match="bad.json"):
        ProgramArchive.load(path)


def test_a_killed_qd_run_resumes_from_its_evaluation_log(tmp_path):
    args = ["qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims", "6,6",
            "--matches", "10", "--batch", "4", "--seed", "5", "--workers", "1", "--quiet"]
    whole = tmp_path / "whole"
    assert main(args + ["--evaluations", "24", "--out", str(whole)]) == 0
    cut = tmp_path / "cut"
    assert main(args + ["--evaluations", "16", "--out", str(cut)]) == 0
    # as if killed after 16 evaluations, mid-way through writing the 17th
    config = json.loads((cut / "config.json").read_text())
    (cut / "config.json").write_text(json.dumps(config | {"evaluations": 24}))
    (cut / "done").unlink(missing_ok=True)
    with (cut / "log.csv").open("a") as log:
        log.write('1.000,17,psi,0.5,0.5,,0.5,,"[1.0, 0.2]",cut sho')
    assert main(["resume", str(cut), "--quiet"]) == 0
    logged = [(r["program"], r["value"], r["measures"]) for r in read_log(cut / "log.csv")]
    expected = [(r["program"], r["value"], r["measures"]) for r in read_log(whole / "log.csv")]
    assert logged == expected and len(logged) == 24
    assert (json.loads((cut / "archive.json").read_text())["elites"]
            == json.loads((whole / "archive.json").read_text())["elites"])


def test_a_cut_last_batch_still_reaches_stats_and_progress(tmp_path):
    from experiments.config import QDConfig
    from experiments.loader import load
    from experiments.quality_diversity import QDRun

    config = load(QDConfig, {"game": "cantstop", "features": "markers_per_stop,bust_rate",
                             "dims": "6,6", "matches": 20, "evaluations": 30, "batch": 4,
                             "seed": 2, "workers": 1}, "test")
    seen = []
    QDRun.new(tmp_path / "qd", config).run(progress=lambda done, stats: seen.append(done))
    assert seen == [8, 16, 24, 30]  # two emitters of 4; the last batch cut at 6
    rows = (tmp_path / "qd" / "stats.csv").read_text().splitlines()
    assert [row.split(",")[1] for row in rows[1:]] == ["8", "16", "24", "30"]
