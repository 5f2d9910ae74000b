"""A self-play driver from outside the repository, found through its
``stratsynth.selfplay_drivers`` entry point (a ``*.dist-info`` on a subprocess's path),
with its own flag; a plug-in that cannot be imported fails alone."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parent.parent

PLUGIN = textwrap.dedent('''
    from dataclasses import dataclass, field

    from qd.drivers import DriverSettings, register_driver
    from qd.selfplay import IteratedBestResponse


    @dataclass(frozen=True, kw_only=True)
    class FirstSettings(DriverSettings):
        label: str = field(default="none", metadata={"help": "first: a label kept in config.json"})


    @register_driver
    class AnswerFirst(IteratedBestResponse):
        """IBR whose answer is the first response, not the last."""

        name = "first"
        summary = "iterated best response answered by its first response"
        Settings = FirstSettings

        def answer(self, programs):
            return programs[1] if len(programs) > 1 else programs[0]
''')


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "firstdriver").mkdir(parents=True)
    (site / "firstdriver" / "__init__.py").write_text(PLUGIN)
    info = site / "firstdriver-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: firstdriver\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[stratsynth.selfplay_drivers]\nfirst = firstdriver:AnswerFirst\n"
        "broken = nosuchmodule:Driver\n")
    return site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)


def test_a_plug_in_driver_runs_with_its_own_setting_and_a_broken_one_fails_alone(tmp_path):
    site = _site(tmp_path)
    listed = _run(site, "-c", "from qd.drivers import driver_names; print(driver_names())")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "['ibr', 'fp', 'do', '2l', 'broken', 'first']"
    out = tmp_path / "run"
    run = _run(site, "-m", "experiments.cli", "selfplay", "cantstop", "--driver", "first",
               "--label", "plug-in", "--iterations", "2", "--evaluations", "3", "--matches",
               "4", "--seed", "2", "--workers", "1", "--out", str(out))
    assert run.returncode == 0, run.stderr
    config = json.loads((out / "config.json").read_text())
    assert config["driver"] == "first" and config["label"] == "plug-in"
    assert (out / "final.txt").read_text() == (out / "program1.txt").read_text()
    broken = _run(site, "-m", "experiments.cli", "selfplay", "cantstop", "--driver", "broken",
                  "--out", str(tmp_path / "broken"))
    err = broken.stderr.strip().splitlines()
    assert broken.returncode == 2 and len(err) == 1
    assert "self-play driver 'broken' (plug-in nosuchmodule:Driver) cannot be loaded" in err[0]
