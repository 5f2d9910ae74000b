"""``stratsynth synth``: run one synthesizer and keep everything in a run directory.

The run directory holds ``config.json`` (every setting, enough to reproduce),
``log.csv`` (one row per fitness evaluation: seconds, evaluations, value, best
value, program text) and ``best.txt`` (the best program, rewritten whenever it
improves, loadable with ``program:runs/NAME/best.txt``).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from tqdm import tqdm

from games import load_game
from games.backends import make_map
from gp.fitness import WinRate
from gp.programs import strategy_class
from gp.sa import Budget, Evaluation, SimulatedAnnealing

from .players import make_player

METHODS = ("sa",)
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(text: str) -> float:
    """'90', '90s', '30m', '2h' -> seconds."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"budget '{text}' is not a duration like 90s, 30m or 2h")
    value = float(match.group(1))
    return value * {"s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]


class RunLog:
    """CSV log and best-program file of a run directory."""

    FIELDS = ("seconds", "evaluations", "value", "best_value", "program")

    def __init__(self, out: Path, progress: tqdm | None = None) -> None:
        self.out = out
        self._file = (out / "log.csv").open("w", newline="")
        self._csv = csv.writer(self._file)
        self._csv.writerow(self.FIELDS)
        self._best = None
        self.progress = progress

    def __call__(self, ev: Evaluation) -> None:
        self._csv.writerow((f"{ev.seconds:.3f}", ev.evaluations, f"{ev.value:.4f}",
                            f"{ev.best_value:.4f}", ev.program))
        self._file.flush()
        if ev.best_program != self._best:
            self._best = ev.best_program
            (self.out / "best.txt").write_text(
                f"# best value {ev.best_value:.4f} after {ev.evaluations} evaluations\n"
                f"{ev.best_program}\n")
        if self.progress is not None:
            self.progress.update(1)
            self.progress.set_postfix(best=f"{ev.best_value:.3f}",
                                      evals_per_s=f"{ev.evaluations / max(ev.seconds, 1e-9):.2f}")

    def close(self) -> None:
        self._file.close()


def run_synth(args) -> int:
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: run directory exists and is not empty")
    seconds = parse_duration(args.budget) if args.budget else None
    if seconds is None and args.evaluations is None:
        raise ValueError("give --budget (e.g. 30m) or --evaluations")
    game = load_game(args.game)
    cls = strategy_class(args.game)
    target = make_player(args.game, args.target)
    initial = None
    if args.initial:
        initial = cls.parse_program(Path(args.initial).read_text(), source=args.initial)
    out.mkdir(parents=True, exist_ok=True)
    config = {key: getattr(args, key) for key in (
        "game", "method", "target", "budget", "evaluations", "matches", "seed", "workers",
        "initial")}
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    with make_map(args.workers) as backend, tqdm(
            desc=f"{args.method} {args.game}", unit="eval", disable=args.quiet) as bar:
        fitness = WinRate(game, target, cls, matches=args.matches, seed=args.seed, map=backend)
        log = RunLog(out, bar)
        try:
            search = SimulatedAnnealing(cls.default_dsl(), fitness, seed=args.seed,
                                        on_evaluation=log)
            best, value = search.run(Budget(seconds, args.evaluations), initial)
        finally:
            log.close()
    print(f"best value {value:.4f} after {fitness.evaluations} evaluations; "
          f"program in {out / 'best.txt'}")
    return 0


def add_parser(sub) -> None:
    synth = sub.add_parser("synth", help="synthesize a program (writes a run directory)")
    synth.add_argument("game")
    synth.add_argument("--method", choices=METHODS, default="sa")
    synth.add_argument("--target", default="ga", help="opponent spec for the win rate")
    synth.add_argument("--budget", default=None, help="wall-clock budget: 90s, 30m, 2h")
    synth.add_argument("--evaluations", type=int, default=None, help="evaluation budget")
    synth.add_argument("--matches", type=int, default=1000, help="matches per evaluation")
    synth.add_argument("--seed", type=int, default=0)
    synth.add_argument("--workers", type=int, default=0, help="1 serial, 0 all cores")
    synth.add_argument("--initial", default=None, help="program file to start from")
    synth.add_argument("--out", required=True, help="run directory")
    synth.add_argument("--quiet", action="store_true", help="no progress bar")
