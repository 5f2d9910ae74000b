"""``stratsynth qd tribes``: Algorithm 1 over script weights on the generic QD command,
per-game logs, the same archive in two processes, and resume after a SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
from ribs.archives import GridArchive

from experiments.cli import main
from games.tribes.qd import GAMES_LOG, WEIGHT_VALUES, WeightsScore, aggregate
from games.tribes.rules import RULES_VERSION
from gp.evaluator import read_log
from qd.vectors import AlgorithmOneEmitter, parse_vector, vector_text
from tests.test_determinism import ROOT, archive_of, cli

TINY = ("qd", "tribes", "--features", "attacks,support_ranged_minus_melee",
        "--target", "mcts:8", "--matches", "2", "--game-param", "turn_limit=3",
        "--game-param", "levels=[0,1]", "--seed", "5", "--workers", "1", "--quiet")


def test_algorithm_one_emitter_on_texts():
    archive = GridArchive(solution_dim=(), dims=(4, 4), ranges=((0, 1), (0, 1)),
                          solution_dtype=object, seed=0)
    emitter = AlgorithmOneEmitter(archive, 11, WEIGHT_VALUES, random_init=3, seed=1,
                                  batch_size=7)
    asked = [parse_vector(t, 11) for _ in range(2) for t in emitter.ask()]
    for i in range(11):
        assert sum(asked[i]) == 1.0 and asked[i][i] == 1.0, "one-hot vectors first"
    assert all(set(w) <= set(WEIGHT_VALUES) for w in asked[11:14])
    assert emitter.phase() == "hill-climb"
    parent = (0.5,) * 11
    solution = np.empty(1, dtype=object)
    solution[0] = vector_text(parent)
    archive.add(solution, [0.7], [[0.2, 0.2]])
    for child in map(parse_vector, emitter.ask()):
        assert sum(a != b for a, b in zip(child, parent)) == 1, "one weight mutated"
        assert set(child) <= set(WEIGHT_VALUES)


def test_algorithm_one_asks_the_same_vectors_whatever_the_batch_size():
    def asked(batch_size: int) -> list[str]:
        archive = GridArchive(solution_dim=(), dims=(2, 2), ranges=((0, 1), (0, 1)),
                              solution_dtype=object, seed=0)
        emitter = AlgorithmOneEmitter(archive, 11, WEIGHT_VALUES, random_init=5, seed=3,
                                      batch_size=batch_size)
        return [t for _ in range(16 // batch_size) for t in emitter.ask()]

    one_by_one = asked(1)
    assert one_by_one == asked(8)
    assert len(set(one_by_one[11:16])) == 5, "R_M random vectors, not repeats"


def _log(winner, rounds, mine, theirs):
    seat = {"score": 0, "techs": 0, "techs_fraction": 0.0, "cities": 1, "production": 2,
            "attacks": 0, "defender_spawns": 0, "support_ranged_minus_melee": 0,
            "research_slope": 0.0, "tile_slope": 0.0}
    return {"winner": winner, "rounds": rounds,
            "win_round": rounds if winner is not None else None,
            "seats": [seat | mine, seat | theirs]}


def test_features_are_the_evolved_seats_means_and_its_win_round():
    logs = [_log(0, 12, {"attacks": 4, "score": 100}, {"attacks": 9, "score": 900}),
            _log(0, 30, {"attacks": 9, "score": 500}, {"attacks": 2, "score": 300}),
            _log(None, 50, {"attacks": 1, "score": 700}, {"attacks": 5, "score": 700})]
    stats = aggregate(logs, seats=[0, 1, 1])  # the evolved player won only the first
    assert stats["attacks"] == (4 + 2 + 5) / 3 and stats["score"] == (100 + 300 + 700) / 3
    assert stats["win_rate"] == 1 / 3 and stats["win_round"] == 12.0
    never = aggregate(logs[1:], seats=[1, 0])  # no win: the longest game's length
    assert never["win_rate"] == 0.0 and never["win_round"] == 50.0


def test_a_game_line_cut_by_a_kill_is_played_and_logged_again(tmp_path):
    score = WeightsScore({"turn_limit": 1, "levels": [0]}, "mcts:4", ["attacks", "tile_slope"],
                         matches=2, seed=1, out=tmp_path)
    text = vector_text([1.0] + [0.0] * 10)
    first = score(text)
    lines = (tmp_path / GAMES_LOG).read_text().splitlines()
    assert len(lines) == 2 and {json.loads(x)["rules_version"] for x in lines} == {RULES_VERSION}
    (tmp_path / GAMES_LOG).write_text(lines[0] + "\n" + lines[1][:30])
    again = WeightsScore({"turn_limit": 1, "levels": [0]}, "mcts:4", ["attacks", "tile_slope"],
                         matches=2, seed=1, out=tmp_path)
    assert again(text) == first
    assert (tmp_path / GAMES_LOG).read_text().splitlines() == lines


def test_games_log_records_the_rules_they_were_played_under(tmp_path):
    params = {"turn_limit": 1, "level": "java:0", "rules": 4}
    score = WeightsScore(params, "mcts-fw:4", ["attacks", "tile_slope"], matches=2, seed=1,
                         out=tmp_path)
    text = vector_text([1.0] + [0.0] * 10)
    first = score(text)
    lines = (tmp_path / GAMES_LOG).read_text().splitlines()
    assert {json.loads(x)["rules_version"] for x in lines} == {4} != {RULES_VERSION}
    again = WeightsScore(params, "mcts-fw:4", ["attacks", "tile_slope"], matches=2, seed=1,
                         out=tmp_path)
    assert again(text) == first  # read back from the log, not played again
    assert (tmp_path / GAMES_LOG).read_text().splitlines() == lines
    rows = [json.loads(x) for x in lines]
    for row in rows:  # a game logged under other rules is not this game
        row["rules_version"] = 3
    (tmp_path / GAMES_LOG).write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert not any(again._same_game(r) for r in rows)


def test_qd_tribes_writes_archive_heatmap_and_per_game_features(tmp_path):
    out = tmp_path / "run"
    assert main([*TINY, "--evaluations", "3", "--out", str(out)]) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["target"] == "mcts:8" and config["batch"] == 1
    archive = json.loads((out / "archive.json").read_text())
    assert archive["features"] == ["attacks", "support_ranged_minus_melee"]
    assert (out / "heatmap.png").stat().st_size > 0
    assert main([*TINY, "--evaluations", "3", "--out", str(out)]) == 2, "never overwritten"
    rows = read_log(out / "log.csv")
    assert [r["program"] for r in rows] == [vector_text(np.eye(11)[i]) for i in range(3)]
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 3 * 2 and [g["seat"] for g in games[:2]] == [0, 1]
    assert [g["level"] for g in games[:2]] == [0, 0]
    for row in rows:  # the logged measures are the means of the evolved seat's games
        mine = [g for g in games if g["solution"] == row["program"]]
        seats = [g["log"]["seats"][g["seat"]] for g in mine]
        wins = sum(g["log"]["winner"] == g["seat"] for g in mine) / len(mine)
        assert json.loads(row["measures"]) == [
            float(np.mean([s["attacks"] for s in seats])),
            float(np.mean([s["support_ranged_minus_melee"] for s in seats]))]
        assert float(row["value"]) == wins + float(np.mean([s["score"] for s in seats])) * 1e-6


def test_qd_tribes_rejects_bad_input_in_one_line(tmp_path, capsys):
    assert main([*TINY, "--evaluations", "2", "--out", str(tmp_path / "a"),
                 "--features", "attacks,nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert main([*TINY, "--evaluations", "2", "--out", str(tmp_path / "b"),
                 "--target", "mcts:lots"]) == 2
    assert "lots" in capsys.readouterr().err


def test_qd_tribes_same_in_two_processes_and_resumes_after_sigkill(tmp_path):
    argv = (*TINY, "--evaluations", "14")
    reference = tmp_path / "reference"
    assert main([*argv, "--out", str(reference)]) == 0  # this process; the others are fresh
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONHASHSEED": "2"}
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *argv, "--out",
                             str(killed)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    log = killed / "log.csv"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= 6:  # header + 5 evaluations
            break
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    interrupted = len(read_log(log))
    assert 0 < interrupted < 14, "the run finished before it could be killed"
    resumed = cli("resume", str(killed), "--quiet", hash_seed="3")
    assert resumed.returncode == 0, resumed.stderr
    assert archive_of(killed) == archive_of(reference) and len(archive_of(reference)) == 14
    assert json.loads((killed / "archive.json").read_text()) == \
        json.loads((reference / "archive.json").read_text())
    games = (killed / "games.jsonl").read_text().splitlines()
    assert sorted(games) == sorted((reference / "games.jsonl").read_text().splitlines())
    assert main(["qd-check", str(reference), "--matches", "2", "--workers", "1"]) == 0
    check = (reference / "corners.md").read_text()
    assert "| low |" in check and "spawn range =" in check


def test_logged_games_are_taken_not_played_again(tmp_path):
    params, names = {"turn_limit": 1, "levels": [0]}, ["attacks", "tile_slope"]
    text = vector_text([0.0] * 10 + [1.0])
    WeightsScore(params, "mcts:4", names, matches=2, seed=1, out=tmp_path)(text)
    rows = [json.loads(x) for x in (tmp_path / GAMES_LOG).read_text().splitlines()]
    for row in rows:  # a result no game of one round gives: it must come from the log
        row["log"]["winner"], row["log"]["seats"][row["seat"]]["attacks"] = row["seat"], 77
    (tmp_path / GAMES_LOG).write_text("".join(json.dumps(r) + "\n" for r in rows))
    rate, features = WeightsScore(params, "mcts:4", names, matches=2, seed=1, out=tmp_path)(text)
    assert int(rate) == 1 and features[0] == 77


def test_qd_check_on_other_levels_writes_its_own_report_and_games(tmp_path, capsys):
    run = tmp_path / "run"
    assert main([*TINY, "--evaluations", "3", "--out", str(run)]) == 0
    search_games = (run / "games.jsonl").read_text()
    report = run / "check-levels-2-3.md"
    argv = ["qd-check", str(run), "--matches", "4", "--game-param", "levels=[2,3]",
            "--out", str(report), "--workers", "1"]
    assert main(argv) == 0
    text = report.read_text()
    assert "levels=[2,3]" in text and '"levels": [2, 3]' in text and "| high |" in text
    checked = [json.loads(x) for x in (run / "check-levels-2-3.games.jsonl").read_text()
               .splitlines()]
    corners = {g["solution"] for g in checked}  # one or two elites (both corners may be one)
    assert len(checked) == 4 * len(corners) and {g["level"] for g in checked} == {2, 3}
    assert (run / "games.jsonl").read_text() == search_games, "the search's log untouched"
    assert not (run / "corners.md").exists()
    assert main([*argv[:2], "--matches", "1", "--game-param", "turn_limit=x1"]) == 2
    assert "turn_limit" in capsys.readouterr().err


def test_resume_with_more_evaluations_extends_a_finished_qd_run(tmp_path, capsys):
    whole, extended = tmp_path / "whole", tmp_path / "extended"
    assert main([*TINY, "--evaluations", "4", "--out", str(whole)]) == 0
    assert main([*TINY, "--evaluations", "2", "--out", str(extended)]) == 0
    assert main(["resume", str(extended), "--evaluations", "4", "--quiet"]) == 0
    assert json.loads((extended / "config.json").read_text())["evaluations"] == 4
    assert archive_of(extended) == archive_of(whole) and len(archive_of(whole)) == 4
    assert main(["resume", str(extended), "--budget", "soon"]) == 2
    assert "soon" in capsys.readouterr().err


def test_table2_study_reports_the_corner_elites_fresh_games(tmp_path):
    from experiments.studies import tribes_table2

    run = tmp_path / "run"
    assert main([*TINY, "--evaluations", "3", "--out", str(run)]) == 0
    out = tmp_path / "table2"
    assert tribes_table2.main(["--cases", "I", "--run", f"I={run}", "--matches", "4",
                               "--levels", "2-3", "--out", str(out)]) == 0
    rows = json.loads((out / "table2.json").read_text())
    games = [json.loads(x) for x in (run / "corners-levels-2-3.games.jsonl").read_text()
             .splitlines()]
    assert [r["corner"] for r in rows] == ["low", "high"]
    for row in rows:
        mine = [g for g in games if g["solution"] == row["weights"]]
        wins = [g["log"]["winner"] == g["seat"] for g in mine]
        assert row["fresh"]["games"] == 4 and row["fresh"]["levels"] == [2, 3]
        assert row["fresh"]["win_rate"][0] == 100 * sum(wins) / 4
        attacks = [g["log"]["seats"][g["seat"]]["attacks"] for g in mine]
        assert row["fresh"]["attacks"][:3:2] == [sum(attacks) / 4, 4]
        assert row["archive"]["win_rate"] in (0.0, 50.0, 100.0)
    text = (out / "table2.md").read_text()
    assert "| I | low | win_rate |" in text and "[6:-1]: 75.0 → 70.2 |" in text


def test_table2_study_under_rules_4_plays_the_frameworks_levels(tmp_path):
    from experiments.studies import tribes_table2

    run = tmp_path / "run"
    argv = [*TINY, "--evaluations", "2", "--out", str(run), "--game-param", "rules=4",
            "--game-param", 'levels=["java:0"]', "--target", "mcts-fw:8"]
    assert main(argv) == 0
    out = tmp_path / "table2"
    assert tribes_table2.main(["--cases", "I", "--run", f"I={run}", "--matches", "2",
                               "--levels", "4-4", "--out", str(out)]) == 0
    games = [json.loads(x) for x in (run / "corners-levels-4-4.games.jsonl").read_text()
             .splitlines()]
    assert games and {(g["level"], g["rules_version"]) for g in games} == {("java:4", 4)}
    assert all(row["fresh"]["levels"] == ["java:4"]
               for row in json.loads((out / "table2.json").read_text()))
