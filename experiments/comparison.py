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

``stratsynth run --example NAME`` runs a shipped config (``experiments.examples``;
``--example list`` names them) from any directory.

Keys of ``[[methods]]`` override ``[experiment]``. Finished runs are skipped,
unfinished ones resumed, so the same command continues a comparison after a kill.
Each run is claimed with its lock (``experiments.lock``), so ``--jobs N`` (or N
copies of the command) work through one comparison side by side without two
processes taking the same run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from .config import ComparisonConfig, SynthesisConfig, method_setting_names
from .loader import check_fields, load, read_text, to_dict
from .lock import check_not_a_run, claim
from .synthesis import SynthesisRun, run_with_progress

SETTINGS = {f.name for f in fields(SynthesisConfig)} - {"kind", "label"}
EXPERIMENT_KEYS = SETTINGS | {f.name for f in fields(ComparisonConfig)}
METHOD_KEYS = SETTINGS | {"label"}


def _theirs(shared: dict[str, Any], method: dict[str, Any]) -> dict[str, Any]:
    """The method settings of ``[experiment]`` that the entry's method has."""
    from gp.synthesis import setting_fields, synthesizer_class

    if not shared:
        return {}
    try:
        cls = synthesizer_class(method.get("method") or "sa")
    except ValueError:
        return {}  # loading the entry says why
    own = {key for f in setting_fields(cls.Settings)
           for key in (f.name, *f.metadata.get("legacy", ()))}
    return {k: v for k, v in shared.items() if k in own}


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label).strip("_")


def read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such config file")
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: not TOML ({err})") from None


class Comparison:
    """Methods x seeds of a TOML config, each a ``SynthesisRun`` in
    ``OUT/runs/LABEL/seedN``; every run's config is loaded and checked up front."""

    def __init__(self, path: str | Path, *, example: bool = False,
                 overrides: dict[str, Any] | None = None) -> None:
        """Args:
            path: the TOML config.
            example: a shipped example: its relative file paths (``data``, ``initial``)
                are read from the package (``experiments.examples``), not the working
                directory.
            overrides: ``[experiment]`` keys that replace the file's (e.g. ``out``,
                ``budget``).
        """
        path = self.path = Path(path)
        self.example = example
        data = read_toml(path)
        unknown_sections = set(data) - {"experiment", "methods"}
        if unknown_sections:
            raise ValueError(f"{path}: unknown section(s) {sorted(unknown_sections)}")
        experiment = data.get("experiment")
        if not isinstance(experiment, dict):
            raise ValueError(f"{path}: missing [experiment] section")
        methods = data.get("methods")
        if not isinstance(methods, list) or not methods or \
                not all(isinstance(m, dict) for m in methods):
            raise ValueError(f"{path}: missing [[methods]] entries")
        experiment = {**experiment, **(overrides or {})}
        if example:
            from .examples import from_package

            experiment, methods = from_package(experiment), [from_package(m) for m in methods]
        method_keys = method_setting_names()
        for key in experiment:
            if key not in EXPERIMENT_KEYS | method_keys:
                raise ValueError(f"{path}: [experiment] has unknown field '{key}'")
        for i, method in enumerate(methods, 1):
            for key in method:
                if key not in METHOD_KEYS | method_keys:
                    raise ValueError(f"{path}: [[methods]] #{i} has unknown field '{key}'")
        where = f"{path} [experiment]"
        own = {k: v for k, v in experiment.items() if k in EXPERIMENT_KEYS - SETTINGS}
        self.config = load(ComparisonConfig, own, where)
        shared = {k: v for k, v in experiment.items() if k in SETTINGS}
        check_fields(SynthesisConfig, shared, where)
        for i, method in enumerate(methods, 1):
            check_fields(SynthesisConfig, {k: v for k, v in method.items() if k in SETTINGS},
                         f"{path} [[methods]] #{i}")
        # A method setting in [experiment] goes to the methods that have it.
        shared_method = {k: v for k, v in experiment.items() if k not in EXPERIMENT_KEYS}
        labels = [m.get("label", m.get("method", "sa")) for m in methods]
        if len({_slug(label) for label in labels}) != len(labels):
            raise ValueError(f"{path}: method labels must differ, also as directory names "
                             f"({labels})")
        self.out = Path(self.config.out)
        check_not_a_run(self.out, f"{path}: out")
        self.runs: list[tuple[Path, SynthesisConfig]] = []
        # Seed-major order: a comparison stopped part-way still holds every method
        # for the seeds it finished, which is what a partial report needs.
        seeds = self.config.seeds or [0]
        for seed in seeds:
            for i, (method, label) in enumerate(zip(methods, labels), 1):
                settings = {**shared, **_theirs(shared_method, {**shared, **method}), **method,
                            "seed": seed, "label": label}
                config_where = f"{path} [[methods]] #{i} ({label})"
                config = load(SynthesisConfig, settings, config_where)
                run_dir = self.out / "runs" / _slug(label) / f"seed{seed}"
                if seed == seeds[0]:  # what a method names must exist before any run starts
                    SynthesisRun(run_dir, config, resume=False, where=config_where).check()
                self.runs.append((run_dir, config))

    def prepare_engines(self) -> None:
        """Compile or load every engine the runs play on (``games.engines.Engine.prepare``)
        before the first run's clock starts, once per game setting."""
        from games.engines import prepare_engines

        from .config import open_game

        seen = set()
        for _, config in self.runs:
            key = (config.game, repr(sorted((config.game_params or {}).items())), config.engine)
            if key not in seen:
                seen.add(key)
                prepare_engines(open_game(config.game, config.game_params), config.engine)

    def run(self, progress: bool = True, report=print) -> list[Path]:
        """Every unfinished, unclaimed run; returns the runs this process claimed
        (finished before or by it). ``report`` gets one line per run."""
        self.prepare_engines()
        done = []
        for i, (run_dir, config) in enumerate(self.runs, 1):
            with claim(run_dir) as mine:
                status = "done" if (run_dir / "done").exists() else (
                    "resume" if (run_dir / "config.json").exists() else "start")
                if not mine:
                    status = "taken by another process"
                report(f"[{i}/{len(self.runs)}] {config.label} seed {config.seed}: {status}")
                if status in ("start", "resume"):  # the TOML's settings, not the saved ones
                    run = (SynthesisRun.new(run_dir, config, where=str(self.path))
                           if status == "start" else SynthesisRun.open(run_dir, given=config))
                    run_with_progress(run, not progress, locked=True)
                if mine:
                    done.append(run_dir)
        return done


def plan(path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """(run directory, run config as ``config.json`` keeps it) for every method x seed."""
    return [(run_dir, to_dict(config)) for run_dir, config in Comparison(path).runs]


def run_side_by_side(comparison: Comparison, jobs: int, quiet: bool) -> None:
    """``jobs`` processes of ``stratsynth run`` sharing one comparison through the locks."""
    # a bad config fails once, here, not in every child; engines compile once, here
    comparison.prepare_engines()
    path = comparison.path
    # -P: the working directory is not put on the children's sys.path (a module there
    # would shadow ours); they import this checkout, named explicitly.
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])}
    command = [sys.executable, "-P", "-m", "experiments.cli", "run", str(path), "--jobs", "1"]
    if comparison.example:
        command = [*command[:5], "--example", path.stem, *command[6:]]
    children = [subprocess.Popen(command + (["--quiet"] if quiet else []), env=env)
                for _ in range(jobs)]
    codes = [child.wait() for child in children]
    if any(codes):
        raise RuntimeError(f"{path}: a run process exited with {max(codes)}")


def comparison_from(args) -> Comparison | None:
    """The comparison a ``run`` command names: a config file or a shipped example (None
    for ``--example list``)."""
    from .examples import example_names, example_path

    if (args.config is None) == (args.example is None):
        raise ValueError("give a config file or --example NAME (examples: "
                         f"{', '.join(example_names())})")
    if args.example is None:
        return Comparison(args.config)
    if args.example == "list":
        return None
    return Comparison(example_path(args.example), example=True)


def _summary(path: Path) -> str:
    """What an example runs: game, methods, seeds, budget and where its runs go."""
    data = read_toml(path)
    experiment = data.get("experiment", {})
    labels = [m.get("label", m.get("method", "sa")) for m in data.get("methods", [])]
    budget = experiment.get("budget") or f"{experiment.get('evaluations')} evaluations"
    return (f"{experiment.get('game')}: {', '.join(labels)}; "
            f"{len(experiment.get('seeds') or [0])} seed(s), {budget} each -> "
            f"{experiment.get('out')}")


def cmd_run(args) -> int:
    comparison = comparison_from(args)
    if comparison is None:  # --example list
        from .examples import example_names, example_path

        for name in example_names():
            print(f"{name}: {_summary(example_path(name))}")
        return 0
    if args.jobs > 1:
        run_side_by_side(comparison, args.jobs, args.quiet)
    else:
        comparison.run(progress=not args.quiet, report=lambda line: print(line, flush=True))
    print(f"all runs finished; report with: stratsynth report {comparison.out}")
    return 0


def add_parsers(sub) -> None:
    from .options import positive

    run = sub.add_parser("run", help="run a methods x seeds comparison from a TOML config")
    run.add_argument("config", nargs="?", default=None, help="TOML config file")
    run.add_argument("--example", default=None, metavar="NAME",
                     help="a shipped example config instead of a file ('list' lists them); "
                     "its record files are read from the package")
    run.add_argument("--quiet", action="store_true")
    run.add_argument("--jobs", type=positive, default=1,
                     help="processes working through the runs side by side (one run each)")
    run.set_defaults(handler=cmd_run)
