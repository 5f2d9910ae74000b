"""The worked example of docs/extending.md, run as a user would: Pig, a game in a
package outside the repository, installed (a dist-info with its entry point) and
driven through the command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "pig"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The example copied out of the repository and 'installed' beside a dist-info."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(EXAMPLE / "stratsynth_pig", site / "stratsynth_pig")
    info = site / "stratsynth_pig-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stratsynth-pig\n"
                                   "Version: 0.1.0\n")
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    games = project["entry-points"]["stratsynth.games"]  # what pip would write
    (info / "entry_points.txt").write_text(
        "[stratsynth.games]\n" + "".join(f"{k} = {v}\n" for k, v in games.items()))
    return site


def _cli(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    run = subprocess.run([sys.executable, "-m", "experiments.cli", *args], cwd=site, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"stratsynth {' '.join(args)}:\n{run.stdout}\n{run.stderr}"
    return run


def test_the_example_imports_nothing_relative_to_the_repository():
    for path in (EXAMPLE / "stratsynth_pig").glob("*.py"):
        assert "from .." not in path.read_text(), path


def test_check_game_passes_on_the_example(site):
    out = _cli(site, "check-game", "pig", "--programs", "100").stdout
    assert out.rstrip().endswith("pig: 14 checks, all passed")
    assert "ok    language hold-rule" in out and "ok    features" in out


def test_play_synth_and_play_the_program(site, tmp_path):
    listed = _cli(site, "--help").stdout
    assert "pig: Pig, the dice game" in " ".join(listed.split())

    played = json.loads(_cli(site, "play", "pig", "--p0", "keep-pace", "--p1", "hold20",
                             "-n", "60", "--workers", "1", "--json").stdout)
    assert played["matches"] == 60

    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        _cli(site, "synth", "pig", "--evaluations", "25", "--matches", "60", "--workers", "1",
             "--seed", "4", "--out", str(out), "--quiet")
        runs.append(out)
    best = (runs[0] / "best.txt").read_text()
    assert best == (runs[1] / "best.txt").read_text()  # same seed, same program
    logs = [[row.split(",", 1)[1] for row in (run / "log.csv").read_text().splitlines()]
            for run in runs]  # every column but the first, the seconds
    assert logs[0] == logs[1] and len(logs[0]) > 25

    # the synthesized program plays, shipped to worker processes as its text
    against = json.loads(_cli(site, "play", "pig", "--p0", f"program:{runs[0] / 'best.txt'}",
                              "--p1", "hold20", "-n", "40", "--workers", "2",
                              "--json").stdout)
    assert against["matches"] == 40
