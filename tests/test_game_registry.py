"""An installed game that fails to import is listed as failed; every other game works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _install_broken_game(site: Path) -> None:
    """A distribution advertising game 'broken' whose module raises on import."""
    info = site / "broken_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[stratsynth.games]\nbroken = broken_game\n")
    (site / "broken_game.py").write_text(
        "raise RuntimeError('the rules file is missing\\nsecond line')\n")


def _cli(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_broken_installed_game_leaves_every_other_game_working(tmp_path):
    _install_broken_game(tmp_path)

    helped = _cli(tmp_path, "--help")
    assert helped.returncode == 0, helped.stderr
    epilog = " ".join(helped.stdout.split())
    assert "broken: FAILED (module broken_game raised RuntimeError: the rules file is " \
           "missing)" in epilog
    assert "second line" not in epilog
    assert "cantstop: Can't Stop" in epilog

    played = _cli(tmp_path, "play", "cantstop", "--p0", "random", "--p1", "ga", "-n", "2",
                  "--workers", "1", "--json")
    assert played.returncode == 0, played.stderr
    assert '"matches": 2' in played.stdout

    assert _cli(tmp_path, "play", "--help").returncode == 0

    refused = _cli(tmp_path, "play", "broken", "--p0", "random", "--p1", "random")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "stratsynth: error: game 'broken' failed to load: module broken_game raised "
        "RuntimeError: the rules file is missing"]

    checked = _cli(tmp_path, "check-game", "broken")
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[1:] == [
        "  FAIL  import                        module broken_game raised RuntimeError: the "
        "rules file is missing", "broken: 1 check, 1 failed"]


def test_failed_games_lists_the_cause(tmp_path):
    _install_broken_game(tmp_path)
    code = ("import games; print(sorted(games.loaded_games())); "
            "print(games.failed_games())")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    loaded, failed = out.stdout.splitlines()
    assert "cantstop" in loaded and "broken" not in loaded
    assert failed == ("{'broken': 'module broken_game raised RuntimeError: the rules file is "
                      "missing'}")
