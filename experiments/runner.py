"""``stratsynth run CONFIG.toml``: methods × seeds, each in its own run directory.

Config (TOML)::

    [experiment]
    out = "experiments/results/NAME"   # runs go to OUT/runs/LABEL/seedN
    game = "GAME"
    target = "ga"
    budget = "30m"            # or: evaluations = 500
    clock = "wall"            # or "cpu": the run's own CPU time (needs workers = 1)
    matches = 1000
    seeds = [1, 2, 3, 4, 5]
    workers = 0               # 0 = all cores
    backend = "pool"          # serial | pool | dask (scheduler = "tcp://...")

    [[methods]]
    label = "Sketch-SA(O)"
    method = "sketch-sa"
    score = "O"
    data = "experiments/data/RECORDS.jsonl"   # stratsynth record GAME ...
    # fitness = "package.module:function"   # any user fitness (see gp.fitness)

Keys of ``[[methods]]`` override ``[experiment]``. Finished runs are skipped,
unfinished ones resumed, so the same command continues a comparison after a kill.
Each run is claimed with a lock file beside its directory (an OS lock, released
when its process dies), so ``--jobs N`` (or N copies of the command) work through
one comparison side by side without two processes taking the same run.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .config import DEFAULTS, run_config
from .options import positive
from .synth import resume_run, start_run, validate

SETTINGS = set(DEFAULTS["synth"]) - {"kind", "label"}
EXPERIMENT_KEYS = SETTINGS | {"out", "seeds", "name"}
METHOD_KEYS = SETTINGS | {"label"}


def load_config(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read and check a config; errors name the file and the field."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such config file")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: not TOML ({err})") from None
    unknown_sections = set(data) - {"experiment", "methods"}
    if unknown_sections:
        raise ValueError(f"{path}: unknown section(s) {sorted(unknown_sections)}")
    experiment = data.get("experiment")
    if not isinstance(experiment, dict):
        raise ValueError(f"{path}: missing [experiment] section")
    methods = data.get("methods")
    if not isinstance(methods, list) or not methods:
        raise ValueError(f"{path}: missing [[methods]] entries")
    for key in experiment:
        if key not in EXPERIMENT_KEYS:
            raise ValueError(f"{path}: [experiment] has unknown field '{key}'")
    for i, method in enumerate(methods, 1):
        for key in method:
            if key not in METHOD_KEYS:
                raise ValueError(f"{path}: [[methods]] #{i} has unknown field '{key}'")
    for key in ("out", "game"):
        if key not in experiment:
            raise ValueError(f"{path}: [experiment] needs field '{key}'")
    seeds = experiment.get("seeds", [0])
    if not isinstance(seeds, list) or not all(isinstance(s, int) for s in seeds):
        raise ValueError(f"{path}: [experiment] seeds must be a list of integers")
    labels = [m.get("label", m.get("method", "sa")) for m in methods]
    if len({_slug(label) for label in labels}) != len(labels):
        raise ValueError(f"{path}: method labels must differ, also as directory names "
                         f"({labels})")
    return experiment, methods


def plan(path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(run directory, run config) for every method × seed, validated up front."""
    experiment, methods = load_config(path)
    out = Path(experiment["out"])
    runs = []
    # Seed-major order: a comparison stopped part-way still holds every method
    # for the seeds it finished, which is what a partial report needs.
    for seed in experiment.get("seeds", [0]):
        for i, method in enumerate(methods, 1):
            label = method.get("label", method.get("method", "sa"))
            where = f"{path} [[methods]] #{i} ({label})"
            settings = {k: v for k, v in experiment.items() if k in SETTINGS}
            settings.update({k: v for k, v in method.items() if k in SETTINGS})
            config = run_config({**settings, "seed": seed, "label": label}, where)
            validate(config, where)
            runs.append((out / "runs" / _slug(label) / f"seed{seed}", config))
    return runs


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label).strip("_")


@contextmanager
def claim(run_dir: Path) -> Iterator[bool]:
    """Hold an exclusive lock on ``run_dir`` while a run works in it; False if taken."""
    run_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(run_dir.with_name(run_dir.name + ".lock"), "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run_experiment(path: Path, quiet: bool = False) -> list[Path]:
    """Run every unfinished, unclaimed run of a config; returns the runs this process
    claimed (finished before or by it)."""
    runs = plan(path)
    done = []
    for i, (run_dir, config) in enumerate(runs, 1):
        with claim(run_dir) as mine:
            status = "done" if (run_dir / "done").exists() else (
                "resume" if (run_dir / "config.json").exists() else "start")
            if not mine:
                status = "taken by another process"
            print(f"[{i}/{len(runs)}] {config['label']} seed {config['seed']}: {status}",
                  flush=True)
            if status == "start":
                start_run(run_dir, config, quiet=quiet)
            elif status == "resume":
                resume_run(run_dir, quiet=quiet)
            if mine:
                done.append(run_dir)
    return done


def run_side_by_side(path: Path, jobs: int, quiet: bool) -> None:
    """``jobs`` processes of ``stratsynth run`` sharing one comparison through the locks."""
    plan(path)  # a bad config fails once, here, not in every child
    command = [sys.executable, "-m", "experiments.cli", "run", str(path), "--jobs", "1"]
    children = [subprocess.Popen(command + (["--quiet"] if quiet else []))
                for _ in range(jobs)]
    codes = [child.wait() for child in children]
    if any(codes):
        raise RuntimeError(f"{path}: a run process exited with {max(codes)}")


def cmd_run(args) -> int:
    if args.jobs > 1:
        run_side_by_side(Path(args.config), args.jobs, args.quiet)
    else:
        run_experiment(Path(args.config), quiet=args.quiet)
    print(f"all runs finished; report with: stratsynth report "
          f"{load_config(Path(args.config))[0]['out']}")
    return 0


def add_parsers(sub) -> None:
    run = sub.add_parser("run", help="run a methods x seeds comparison from a TOML config")
    run.add_argument("config")
    run.add_argument("--quiet", action="store_true")
    run.add_argument("--jobs", type=positive, default=1,
                     help="processes working through the runs side by side (one run each)")
