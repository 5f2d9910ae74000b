"""``stratsynth demo``: the README's main job from any directory.

Runs the shipped ``demo`` example (SA, GP and Sketch-SA(O) against GA on Can't
Stop; ``stratsynth run --example demo``), then its report (``stratsynth report``),
prints the report and says where the plot and the best programs are. Run again,
it skips the finished runs and reports at once.
"""

from __future__ import annotations

from pathlib import Path


def cmd_demo(args) -> int:
    from .comparison import Comparison
    from .examples import example_path
    from .report import build_report

    overrides = {"out": args.out}
    if args.budget is not None:
        overrides["budget"] = args.budget
    if args.workers is not None:
        overrides["workers"] = args.workers
    comparison = Comparison(example_path("demo"), example=True, overrides=overrides)
    comparison.run(progress=not args.quiet, report=lambda line: print(line, flush=True))
    md = build_report(Path(comparison.out), args.matches,
                      0 if args.workers is None else args.workers)
    print()
    print(md.read_text())
    print(f"report: {md}")
    print(f"plot:   {md.parent / 'winrate.png'}")
    print(f"best programs: {comparison.out / 'runs' / '*' / 'seed*' / 'best.txt'}")
    return 0


def add_parsers(sub) -> None:
    from .options import positive, workers

    demo = sub.add_parser("demo", help="run the demo comparison on Can't Stop (SA, GP, "
                          "Sketch-SA(O) against GA, 100 s each) and print its report")
    demo.add_argument("--out", default="runs/demo",
                      help="directory of the runs and the report (a rerun continues it)")
    demo.add_argument("--budget", default=None,
                      help="time budget per method instead of the demo's 100s (90s, 2m)")
    demo.add_argument("--matches", type=positive, default=10_000,
                      help="fresh matches to re-measure each best program in the report")
    demo.add_argument("--workers", type=workers, default=None,
                      help="0 = all cores (the default), 1 = serial, n processes")
    demo.add_argument("--quiet", action="store_true", help="no progress bars")
    demo.set_defaults(handler=cmd_demo)
