"""The demo and the example configs run from any directory (``stratsynth demo``,
``stratsynth run --example NAME``): their record files come from the package."""

from __future__ import annotations

import fnmatch
import json
import tomllib
from pathlib import Path

from experiments.cli import main
from experiments.comparison import Comparison
from experiments.examples import PACKAGE_ROOT, example_names, example_path

ROOT = Path(__file__).parent.parent


def test_every_file_an_example_names_is_package_data():
    """``pip install .`` ships what the examples read: every config and every record
    file they name match the package-data globs of pyproject.toml."""
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]
    shipped = [f"{package.replace('.', '/')}/{glob}"
               for package, globs in package_data.items() for glob in globs]
    names = [f"experiments/configs/{name}.toml" for name in example_names()]
    for name in example_names():
        config = tomllib.loads(example_path(name).read_text())
        for table in [config["experiment"], *config["methods"]]:
            names += [table[key] for key in ("data", "initial") if key in table]
    assert "experiments/data/cantstop_random.jsonl" in names
    for name in names:
        assert (ROOT / name).is_file(), name
        assert any(fnmatch.fnmatch(name, glob) and name.count("/") == glob.count("/")
                   for glob in shipped), f"{name} is not package data"


def test_an_example_reads_its_records_from_the_package_from_any_directory(tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    comparison = Comparison(example_path("demo"), example=True,
                            overrides={"out": "elsewhere"})
    sketch = [config for _, config in comparison.runs if config.method == "sketch-sa"]
    assert sketch and Path(sketch[0].data) == PACKAGE_ROOT / \
        "experiments/data/cantstop_random.jsonl"
    assert comparison.runs[0][0].parts[0] == "elsewhere"  # runs stay in the working directory


def test_example_names_are_listed_and_an_unknown_one_names_them(capsys):
    assert main(["run", "--example", "list"]) == 0
    assert "demo: cantstop: SA, GP, Sketch-SA(O)" in capsys.readouterr().out
    assert main(["run", "--example", "no-such"]) == 2
    err = capsys.readouterr().err
    assert "no example 'no-such'" in err and "demo" in err
    assert main(["run"]) == 2
    assert "--example NAME" in capsys.readouterr().err


def test_the_demo_runs_from_another_directory_and_prints_its_report(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--budget", "2s", "--matches", "60", "--workers", "1",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    report = tmp_path / "runs" / "demo" / "report.md"
    assert report.is_file() and (report.parent / "winrate.png").is_file()
    assert "| method | seeds |" in out and "report: runs/demo/report.md" in out
    for label in ("SA", "GP", "Sketch-SA(O)"):
        assert f"| {label} | 1 |" in out
    config = json.loads((tmp_path / "runs/demo/runs/Sketch-SA_O/seed1/config.json").read_text())
    assert config["budget"] == "2s" and Path(config["data"]).is_file()
    # a second demo finds its runs finished and only reports
    assert main(["demo", "--budget", "2s", "--matches", "60", "--workers", "1",
                 "--quiet"]) == 0
    assert "seed 1: done" in capsys.readouterr().out
