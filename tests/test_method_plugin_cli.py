"""A synthesizer installed from outside the repository (an entry point in a package of
its own) gets its options in ``stratsynth synth --help`` and runs, resumes and is
selected like the built-in methods, with no file of the project touched."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''
"""A first-improvement hill climber over programs, as a third party would write it."""

from dataclasses import dataclass, field

from gp.evaluator import BudgetSpent
from gp.synthesis import Synthesizer, SynthesizerSettings


@dataclass(frozen=True, kw_only=True)
class HillClimbSettings(SynthesizerSettings):
    neighbours: int = field(default=4, metadata={
        "help": "hill-climb: neighbours tried before a restart", "minimum": 1})


class HillClimb(Synthesizer):
    name = "hill-climb"
    summary = "first-improvement hill climbing with random restarts"
    Settings = HillClimbSettings

    def run(self):
        from gp.variation import mutSubtree

        try:
            while True:
                best = self.initial or self.language.random_program(self.rng)
                value = self.evaluator.score(best)
                for _ in range(self.settings.neighbours):
                    candidate = mutSubtree(best, self.rng, dsl=self.language)
                    score = self.evaluator.score(candidate)
                    if score > value:
                        best, value = candidate, score
        except BudgetSpent:
            return
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A directory holding the plug-in package and its installed metadata."""
    site = tmp_path_factory.mktemp("site")
    (site / "hillclimb_plugin").mkdir()
    (site / "hillclimb_plugin" / "__init__.py").write_text(PLUGIN)
    info = site / "hillclimb_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hillclimb-plugin\n"
                                   "Version: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent("""\
        [stratsynth.synthesizers]
        hill-climb = hillclimb_plugin:HillClimb
        """))
    return site


def stratsynth(site: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, env=env)


def test_a_plugged_in_method_shows_its_options_runs_and_resumes(site, tmp_path):
    shown = stratsynth(site, "synth", "--help")
    assert shown.returncode == 0
    assert "--method hill-climb" in shown.stdout and "--neighbours" in shown.stdout
    run = tmp_path / "hill"
    argv = ["synth", "cantstop", "--method", "hill-climb", "--neighbours", "2",
            "--evaluations", "6", "--matches", "6", "--workers", "1", "--quiet"]
    done = stratsynth(site, *argv, "--out", str(run))
    assert done.returncode == 0, done.stderr
    config = json.loads((run / "config.json").read_text())
    assert config["method"] == "hill-climb" and config["neighbours"] == 2
    log = (run / "log.csv").read_text().splitlines()
    assert len(log) == 7
    (run / "done").unlink()
    (run / "log.csv").write_text("\n".join(log[:4]) + "\n")  # killed after 3 evaluations
    resumed = stratsynth(site, "resume", str(run), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    again = (run / "log.csv").read_text().splitlines()
    assert [r.split(",", 1)[1] for r in again] == [r.split(",", 1)[1] for r in log]
    chosen = stratsynth(site, "select", str(run), "--top", "2", "--matches", "4",
                        "--workers", "1")
    assert chosen.returncode == 0, chosen.stderr
    bad = stratsynth(site, *argv, "--neighbours", "0", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and "method hill-climb: neighbours must be >= 1" in bad.stderr
    assert not (tmp_path / "bad").exists()
