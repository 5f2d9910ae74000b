"""MAP-Elites over P-MCTS(PU) weights: Algorithm 1's phases, archive files, resume."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ribs.archives import GridArchive

from experiments.studies.tribes_qd import main
from games.tribes.map_elites import USE_CASES, WEIGHT_VALUES, AlgorithmOneEmitter


def test_algorithm_one_phases():
    archive = GridArchive(solution_dim=11, dims=(4, 4), ranges=((0, 1), (0, 1)), seed=0)
    emitter = AlgorithmOneEmitter(archive, random_init=3, seed=1)
    asked = [emitter.ask()[0] for _ in range(14)]
    for i in range(11):
        assert asked[i].sum() == 1.0 and asked[i][i] == 1.0, "one-hot first"
    for w in asked[11:14]:
        assert set(w) <= set(WEIGHT_VALUES)
    archive.add(np.array([[0.5] * 11]), [0.7], [[0.2, 0.2]])
    child = emitter.ask()[0]
    assert emitter.phase() == "hill-climb"
    assert sum(1 for a, b in zip(child, [0.5] * 11) if a != b) == 1, "one weight mutated"
    assert set(child) <= set(WEIGHT_VALUES)


def _run(out, *extra):
    return main(["--use-case", "III", "--out", str(out), "--levels", "0", "--reps", "2",
                 "--budget", "8", "--opponent", "simple", "--iterations", "2",
                 "--random-init", "1", "--turn-limit", "2", *extra])


@pytest.mark.slow
def test_run_writes_archive_and_resumes_to_the_same_result(tmp_path):
    full = tmp_path / "full"
    assert _run(full) == 0
    archive = json.loads((full / "archive.json").read_text())
    assert archive["features"] == list(USE_CASES["III"].features)
    assert archive["elites"] and (full / "heatmap.png").stat().st_size > 0
    lines = (full / "evaluations.jsonl").read_text().splitlines()
    assert len(lines) == 11 + 1 + 2
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "config.json").write_text((full / "config.json").read_text()
                                     .replace(str(full), str(cut)))
    (cut / "evaluations.jsonl").write_text("\n".join(lines[:6]) + "\n" + lines[6][:20])
    assert main(["--resume", "--out", str(cut)]) == 0
    assert json.loads((cut / "archive.json").read_text())["elites"] == archive["elites"]
    assert _run(full) == 2, "an existing run is not overwritten"


def test_table1_runner_resumes_and_summarises(tmp_path):
    from experiments.studies.tribes_table1 import main as table1
    argv = ["--out", str(tmp_path), "--pairings", "pmcts-pu:mcts", "--levels", "0-1",
            "--games-per-level", "2", "--budget", "5", "--turn-limit", "1"]
    assert table1(argv) == 0
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4 and {json.loads(x)["seat"] for x in lines} == {0, 1}
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:2]) + "\n")
    assert table1(argv) == 0
    again = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(again) == 4 and again[:2] == lines[:2]
    assert [json.loads(x)["log"] for x in again] == [json.loads(x)["log"] for x in lines]
    table = json.loads((tmp_path / "table1.json").read_text())
    assert table[0]["games"] == 4 and table[0]["seed_win_rate"] == 68.6
    assert "| pmcts-pu | mcts | 4 (2) |" in (tmp_path / "table1.md").read_text()
    assert table1(argv[:2] + ["--pairings", "x:y"]) == 2
