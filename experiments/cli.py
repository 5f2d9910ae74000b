"""``stratsynth``: play, record, synthesize, search archives and benchmark.

Errors a user can make (unknown game or player, bad numbers, unreadable files)
print one line on stderr and exit with code 2. Each command's heavy code is
imported only when it runs, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from games import failed_games, loaded_games, resolve

from .options import UsageError, positive

COMMANDS: tuple[str, ...] = (
    "experiments.matches",            # play, record, bench
    "experiments.synthesis",          # synth
    "experiments.resume",             # resume
    "experiments.comparison",         # run
    "experiments.demo",               # demo
    "experiments.report",             # report
    "experiments.selection",          # select
    "experiments.tournament",         # tournament
    "experiments.pool",               # pool
    "experiments.regret.experiment",  # regret
    "experiments.quality_diversity",  # qd, qd-check
    "experiments.selfplay",           # selfplay
    "experiments.check_game",         # check-game
    "experiments.benchmark",          # benchmark
    "experiments.warmup",             # warmup
)
"""Modules whose ``add_parsers(subparsers)`` add their commands; each command's parser
sets ``handler`` (``args -> exit code``), as the commands games add (``CLISpec.commands``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage dump
        raise UsageError(message)


class _GameCommands:
    """The subcommands a game adds (``CLISpec.commands``), kept out of the list of
    generic commands: ``--help`` names them under their game."""

    def __init__(self, sub) -> None:
        self.sub = sub

    def add_parser(self, name: str, **kwargs):
        summary = kwargs.pop("help", None)  # a help line would list it among the generic
        kwargs.setdefault("description", summary)
        return self.sub.add_parser(name, **kwargs)


def _game_line(name: str, spec) -> str:
    own = ", ".join(f"stratsynth {command}" for command in spec.cli.commands)
    return f"{name}: {spec.summary}" + (f" (its own command: {own})" if own else "")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stratsynth", description=__doc__.splitlines()[0],
                     epilog="games: " + "; ".join(
                         [_game_line(name, spec) for name, spec in loaded_games().items()]
                         + [f"{name}: FAILED ({cause})" for name, cause in
                            failed_games().items()]))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in COMMANDS:
        importlib.import_module(module).add_parsers(sub)
    sub.metavar = "{" + ",".join(sub.choices) + "}"
    for spec in loaded_games().values():
        for reference in spec.cli.commands.values():
            resolve(reference)(_GameCommands(sub), positive)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from games.human import HumanQuit

    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        args.argv = argv[1:]
        return args.handler(args)
    except BrokenPipeError:  # the reader left (``stratsynth play ... | head -1``): fine
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no flush error
        return 0
    except (UsageError, ValueError, RuntimeError, OSError) as err:
        message = str(err).strip() or type(err).__name__
        if isinstance(err, OSError) and err.strerror:  # not Python's "[Errno 2] ..." text
            message = f"{err.filename}: {err.strerror}" if err.filename else err.strerror
        print(f"stratsynth: error: {message}", file=sys.stderr)
        return 2
    except HumanQuit:
        print("stratsynth: the human player left the game", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stratsynth: interrupted", file=sys.stderr)
        return 130


def drop_working_directory() -> None:
    """``python -m experiments.cli`` puts the working directory first on ``sys.path``, so
    a ``.py`` file there (in a run directory received from someone, say) would shadow
    any module imported later; it stays only when it is the checkout being run."""
    import os
    from pathlib import Path

    if sys.flags.safe_path or not sys.path:
        return
    first = Path(sys.path[0] or os.getcwd()).resolve()
    if first == Path.cwd().resolve() and first != Path(__file__).resolve().parents[1]:
        del sys.path[0]


if __name__ == "__main__":
    drop_working_directory()
    sys.exit(main())
