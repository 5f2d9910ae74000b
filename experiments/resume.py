"""``stratsynth resume RUN``: continue a killed run of any resumable kind from its log."""

from __future__ import annotations

import sys
from pathlib import Path

from .config import kind_of
from .loader import read_run_config


def open_run(run_dir: str | Path, *, budget: str | None = None,
             evaluations: int | None = None):
    """The run kept in ``run_dir`` (a ``SynthesisRun`` or a ``QDRun``), to resume;
    ``budget``/``evaluations`` extend a QD run."""
    run_dir = Path(run_dir)
    kind = kind_of(read_run_config(run_dir))
    if kind == "qd":
        from .quality_diversity import QDRun

        return QDRun.open(run_dir, budget=budget, evaluations=evaluations)
    if kind == "selfplay":
        raise ValueError(f"{run_dir}: a self-play run continues when its stratsynth selfplay "
                         "command is run again (same settings, the same --out)")
    if kind != "synth":
        raise ValueError(f"{run_dir / 'config.json'}: unknown run kind '{kind}'")
    if budget is not None or evaluations is not None:
        raise ValueError(f"{run_dir}: --budget/--evaluations extend qd runs only (a synth "
                         "run's budget shapes its search, e.g. SA's cooling; start a new run)")
    from .synthesis import SynthesisRun

    return SynthesisRun.open(run_dir)


def cmd_resume(args) -> int:
    from . import quality_diversity, synthesis

    run = open_run(args.run, budget=args.budget, evaluations=args.evaluations)
    done = Path(args.run) / "done"
    if isinstance(run, synthesis.SynthesisRun) and done.is_file():
        print(f"{args.run}: the run is finished ({done.read_text().strip()}); replaying its "
              "log to report it", file=sys.stderr)
    if isinstance(run, quality_diversity.QDRun):
        archive = quality_diversity.run_with_progress(run, args.quiet)
        print(quality_diversity.describe(archive, run.run_dir))
    else:
        print(synthesis.describe(synthesis.run_with_progress(run, args.quiet)))
    return 0


def add_parsers(sub) -> None:
    from .options import positive

    resume = sub.add_parser("resume", help="continue a killed run (synth or qd) from its log")
    resume.add_argument("run", help="run directory")
    resume.add_argument("--budget", default=None,
                        help="qd: a new total time budget (90s, 30m, 2h), to go on past the old")
    resume.add_argument("--evaluations", type=positive, default=None,
                        help="qd: a new total number of evaluations, to go on past the old")
    resume.add_argument("--quiet", action="store_true")
    resume.set_defaults(handler=cmd_resume)
