"""A synthesizer from outside the repository (docs/examples/hillclimb), found through
its ``stratsynth.synthesizers`` entry point without installing it anywhere shared:
the package is copied next to a ``*.dist-info`` that declares the entry point its
``pyproject.toml`` declares, and that directory is put on a subprocess's path."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "hillclimb"


def _site(tmp_path: Path) -> Path:
    """A directory that imports as if the example were installed."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE / "hillclimb", site / "hillclimb")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {value}" for name, value in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return site


def _run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


SCRIPT = textwrap.dedent("""
    import json, random, sys
    from pathlib import Path

    from experiments.metrics import build_metrics
    from games import load_game
    from gp.evaluator import Budget, Evaluator
    from gp.programs import strategy_class
    from gp.synthesis import settings_from, synthesizer_class, synthesizer_names

    names = synthesizer_names()
    cls = synthesizer_class("hillclimb")
    settings = settings_from(cls, {"neighbours": 4, "patience": 2}, where="test")
    try:
        settings_from(cls, {"neighbours": 0}, where="test")
    except ValueError as err:
        refused = str(err)
    language_class = strategy_class("cantstop", None)
    logs = []
    for run in ("a", "b"):
        out = Path(sys.argv[1]) / run
        out.mkdir()
        metrics = build_metrics(game_name="cantstop", game=load_game("cantstop"),
                                language_class=language_class, target=None, matches=4,
                                seed=2, fitness=None, data=None, score=None,
                                extra_metrics=cls.metrics(settings))
        ev = Evaluator(metrics, language_class.default_dsl().to_text,
                       Budget(evaluations=30), run_dir=out)
        cls(language=language_class.default_dsl(), evaluator=ev, rng=random.Random(2),
            settings=settings).run()
        ev.close()
        text = (out / "log.csv").read_text()  # all but the seconds
        logs.append([line.partition(",")[2] for line in text.splitlines()])
    print(json.dumps({"names": names, "module": cls.__module__, "refused": refused,
                      "same": logs[0] == logs[1], "rows": len(logs[0]) - 1,
                      "best": ev.best_value}))
""")


def test_a_method_in_an_outside_package_is_found_and_runs_on_a_real_evaluator(tmp_path):
    site = _site(tmp_path)
    (tmp_path / "probe.py").write_text(SCRIPT)
    done = _run(site, str(tmp_path / "probe.py"), str(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["names"][:6] == ["sa", "uct", "gp", "gp-simple", "sketch-sa", "sketch-uct"]
    assert "hillclimb" in seen["names"] and seen["module"] == "hillclimb"
    assert seen["refused"] == "test: method hillclimb: neighbours must be >= 1, got 0"
    assert seen["same"] and seen["rows"] == 30 and 0 <= seen["best"] <= 1


def test_the_outside_method_runs_and_resumes_through_the_command_line(tmp_path):
    site = _site(tmp_path)
    out = tmp_path / "run"
    done = _run(site, "-m", "experiments.cli", "synth", "cantstop", "--method", "hillclimb",
                "--evaluations", "20", "--matches", "4", "--workers", "1", "--seed", "3",
                "--quiet", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    log = (out / "log.csv").read_text()
    assert log.count("\n") == 21 and (out / "best.txt").read_text().startswith("# best psi ")
    (out / "done").unlink()
    done = _run(site, "-m", "experiments.cli", "resume", str(out), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (out / "log.csv").read_text() == log


def test_a_broken_plug_in_leaves_every_other_method_working(tmp_path):
    site = _site(tmp_path)
    (site / "hillclimb" / "__init__.py").write_text("raise ImportError('needs numpy 9')\n")
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent("""
        from gp.synthesis import synthesizer_class, synthesizer_names
        assert "hillclimb" in synthesizer_names()
        assert synthesizer_class("sa").name == "sa"
        try:
            synthesizer_class("hillclimb")
        except ValueError as err:
            print(err)
    """))
    done = _run(site, str(probe), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("method 'hillclimb' (plug-in hillclimb:HillClimber) cannot be "
                           "loaded: ImportError: needs numpy 9\n")
