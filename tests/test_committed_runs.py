"""Everything committed under experiments/results still loads, parses and replays.

Why: run directories are the project's record of its results; a change of the
configuration schema, a language or the evaluator must not orphan them.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.config import QDConfig, SynthesisConfig, kind_of
from experiments.loader import load, read_run_config

RESULTS = Path(__file__).resolve().parent.parent / "experiments" / "results"
CONFIGS = sorted(RESULTS.rglob("config.json"))
RESUMABLE = sorted(path.parent for path in RESULTS.rglob("log.csv")
                   if (path.parent / "config.json").is_file())
KINDS = {"synth": SynthesisConfig, "qd": QDConfig}


def _is_run(config: dict) -> bool:
    """A synthesis or QD run's config (a study's own config.json records other keys)."""
    kind = kind_of(config)
    return kind == "qd" or (kind == "synth" and "method" in config and "depth" not in config)


def _run_configs() -> list[Path]:
    return [path for path in CONFIGS if _is_run(read_run_config(path.parent))]


def test_there_are_committed_runs_to_check():
    assert len(_run_configs()) >= 150 and len(RESUMABLE) >= 2


def test_every_committed_run_config_loads():
    failed = []
    for path in _run_configs():
        config = read_run_config(path.parent)
        try:
            load(KINDS[kind_of(config)], config, str(path), saved=True)
        except ValueError as err:
            failed.append(str(err))
    assert not failed, "\n".join(failed[:5])


_HAS_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None


def test_every_committed_best_program_parses_in_its_runs_language():
    from gp.programs import strategy_class

    checked = 0
    for path in _run_configs():
        config = read_run_config(path.parent)
        best = path.parent / "best.txt"
        if kind_of(config) != "synth" or not best.is_file():
            continue
        if config["game"].startswith("openspiel:") and not _HAS_OPENSPIEL:
            continue  # its language is built from the game: the openspiel extra
        dsl = strategy_class(config["game"], config.get("dsl")).default_dsl()
        dsl.parse(best.read_text(), source=str(best))
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("run", RESUMABLE, ids=lambda p: p.name)
def test_a_committed_run_resumes_to_the_same_files(tmp_path, run):
    copy = tmp_path / run.name
    shutil.copytree(run, copy)
    # the repository's own runs: their data and targets are ours (experiments.trust)
    assert main(["resume", str(copy), "--quiet", "--trust-config"]) == 0
    for name in ("log.csv", "archive.json", "best.txt"):
        if (run / name).is_file():
            assert (copy / name).read_bytes() == (run / name).read_bytes(), name
