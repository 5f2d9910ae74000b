"""``stratsynth resume RUN``: continue a killed run of any resumable kind from its log.

The run directory is not trusted (``experiments.trust``): a fitness module it names is
imported, a scheduler it names connected to and files outside it read only when the
command line names them again (``--fitness``, ``--scheduler``, ``--data``,
``--initial``) or says ``--trust-config``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .config import kind_of
from .loader import read_run_config
from .trust import Consent


def open_run(run_dir: str | Path, *, budget: str | None = None,
             evaluations: int | None = None, consent: Consent | None = None):
    """The run kept in ``run_dir`` (a ``SynthesisRun`` or a ``QDRun``), to resume;
    ``budget``/``evaluations`` extend a QD run; ``consent``: what the user trusts of
    a synthesis run's config (``experiments.trust``)."""
    run_dir = Path(run_dir)
    saved = read_run_config(run_dir)
    kind = kind_of(saved)
    named = [flag for flag, value in (("--fitness", consent and consent.fitness),
                                      ("--scheduler", consent and consent.scheduler),
                                      ("--data", consent and consent.data),
                                      ("--initial", consent and consent.initial)) if value]
    if kind == "qd":
        from .quality_diversity import QDRun

        if named:
            raise ValueError(f"{run_dir}: {named[0]} names a setting of synthesis runs; "
                             "this is a qd run")
        return QDRun.open(run_dir, budget=budget, evaluations=evaluations, consent=consent)
    if kind == "selfplay":
        raise ValueError(f"{run_dir}: a self-play run continues when its stratsynth selfplay "
                         "command is run again (same settings, the same --out)")
    if kind != "synth":
        raise ValueError(f"{run_dir / 'config.json'}: unknown run kind '{kind}'")
    if budget is not None or evaluations is not None:
        raise ValueError(f"{run_dir}: --budget/--evaluations extend qd runs only (a synth "
                         "run's budget shapes its search, e.g. SA's cooling; start a new run)")
    from .synthesis import SynthesisRun

    return SynthesisRun.open(run_dir, consent)


def cmd_resume(args) -> int:
    from . import quality_diversity, synthesis

    consent = Consent(fitness=args.fitness, target=args.target, scheduler=args.scheduler,
                      data=args.data, initial=args.initial, trust_config=args.trust_config)
    run = open_run(args.run, budget=args.budget, evaluations=args.evaluations,
                   consent=consent)
    done = Path(args.run) / "done"
    finished = isinstance(run, synthesis.SynthesisRun) and done.is_file() \
        and done.read_text().strip()
    if isinstance(run, quality_diversity.QDRun):
        archive = quality_diversity.run_with_progress(run, args.quiet)
        print(quality_diversity.describe(archive, run.run_dir))
    else:
        print(synthesis.describe(synthesis.run_with_progress(run, args.quiet)))
    if finished:  # said after the replay: an error on the way is the only line
        print(f"{args.run}: the run is finished ({finished}); its log was replayed to "
              "report it", file=sys.stderr)
    return 0


def add_parsers(sub) -> None:
    from .options import positive

    resume = sub.add_parser("resume", help="continue a killed run (synth or qd) from its log")
    resume.add_argument("run", help="run directory")
    resume.add_argument("--budget", default=None,
                        help="qd: a new total time budget (90s, 30m, 2h), to go on past the old")
    resume.add_argument("--evaluations", type=positive, default=None,
                        help="qd: a new total number of evaluations, to go on past the old")
    trust = resume.add_argument_group(
        "trust", "a run directory may come from someone else: what its config.json names "
        "that would run code, connect out or read files outside it is used only when "
        "named here (docs/run-directories.md)")
    trust.add_argument("--fitness", default=None, metavar="MODULE:FUNCTION",
                       help="the run's user fitness, named again: its module may be imported")
    trust.add_argument("--target", default=None, metavar="SPEC",
                       help="the run's target, named again: the files it names may be read")
    trust.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="evaluate on this dask scheduler (the run's, or another)")
    trust.add_argument("--data", default=None, metavar="FILE",
                       help="the run's record file, where it is not in the run directory")
    trust.add_argument("--initial", default=None, metavar="FILE",
                       help="the run's initial program, where it is not in the run directory")
    trust.add_argument("--trust-config", action="store_true",
                       help="trust everything the run's config.json names (said on stderr)")
    resume.add_argument("--quiet", action="store_true")
    resume.set_defaults(handler=cmd_resume)
