"""``stratsynth``: play, record, synthesize, search archives and benchmark.

Errors a user can make (unknown game or player, bad numbers, unreadable files)
print one line on stderr and exit with code 2. Each command's code is imported
only when it runs, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from games import failed_games, loaded_games, resolve

from .options import UsageError, add_game, add_seed, add_workers, positive

COMMANDS: dict[str, str] = {
    "play": "experiments.match_cli:cmd_play",
    "record": "experiments.match_cli:cmd_record",
    "bench": "experiments.match_cli:cmd_bench",
    "synth": "experiments.synth:cmd_synth",
    "resume": "experiments.synth:cmd_resume",
    "run": "experiments.runner:cmd_run",
    "report": "experiments.report:cmd_report",
    "tournament": "experiments.games_cli:cmd_tournament",
    "regret": "experiments.regret.experiment:cmd_regret",
    "qd": "experiments.qd_cli:cmd_qd",
    "selfplay": "experiments.qd_cli:cmd_selfplay",
    "qd-check": "experiments.qd_cli:cmd_qd_check",
    "select": "experiments.selection:cmd_select",
    "pool": "experiments.pool_matrix:cmd_pool",
}
"""Command -> ``module:handler(args) -> exit code``; games add their own (``GameSpec.commands``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage dump
        raise UsageError(message)


def _players_by_game() -> str:
    """The built-in player specs of every game, for ``play --help``."""
    from games import game_players

    games = loaded_games()
    notes = [f"{name}: {resolve(spec.notes)()}" for name, spec in games.items() if spec.notes]
    return "built-in players: " + "; ".join(
        f"{name}: {', '.join(sorted(game_players(name)))}" for name in games) + \
        "; and program:FILE for games with a language. " + " ".join(notes)


def _match_parsers(sub) -> None:
    play = sub.add_parser("play", help="play matches between two players",
                          epilog=_players_by_game())
    add_game(play, dsl=True)
    play.add_argument("--p0", required=True, help="first player spec (e.g. ga, random, "
                      "program:FILE)")
    play.add_argument("--p1", required=True, help="second player spec")
    play.add_argument("-n", "--matches", type=positive, default=100)
    add_seed(play)
    add_workers(play)
    play.add_argument("--json", action="store_true", help="print one JSON object")

    record = sub.add_parser("record", help="record matches as (state, action) pairs")
    add_game(record, dsl=True)
    record.add_argument("--player", required=True, help="player spec to record")
    record.add_argument("--opponent", default=None, help="opponent spec (default: itself)")
    record.add_argument("--self-play", action="store_true",
                        help="the player plays itself (the default without --opponent)")
    record.add_argument("--matches", type=positive, default=3)
    record.add_argument("--winner-only", action="store_true",
                        help="keep the winner's pairs only; skip matches without a winner")
    add_seed(record)
    add_workers(record)
    record.add_argument("-o", "--output", required=True, help="JSONL file to write")

    bench = sub.add_parser("bench", help="matches per second, serial and on all cores")
    bench.add_argument("--matches", type=positive, default=3000)
    add_seed(bench)
    add_workers(bench)
    bench.add_argument("--fitness", action="store_true",
                       help="Ψ evaluations/s over serial, pool and dask instead")
    bench.add_argument("--rounds", type=positive, default=3,
                       help="with --fitness: rounds of every backend, medians reported")
    bench.add_argument("--engines-only", action="store_true",
                       help="with --fitness: only the reference vs fast engine comparison")


def build_parser() -> argparse.ArgumentParser:
    from . import check_game, games_cli, pool_matrix, qd_cli, report, runner, selection, synth
    from .regret import experiment as regret

    parser = _Parser(prog="stratsynth", description=__doc__.splitlines()[0],
                     epilog="games: " + "; ".join(
                         [f"{name}: {spec.summary}" for name, spec in loaded_games().items()]
                         + [f"{name}: FAILED ({cause})" for name, cause in
                            failed_games().items()]))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _match_parsers(sub)
    synth.add_parsers(sub)
    runner.add_parsers(sub)
    report.add_parsers(sub, positive)
    selection.add_parsers(sub)
    games_cli.add_parsers(sub)
    pool_matrix.add_parsers(sub)
    regret.add_parsers(sub, positive)
    qd_cli.add_parsers(sub)
    check_game.add_parsers(sub)
    for spec in loaded_games().values():
        for command, reference in spec.commands.items():
            resolve(reference)(sub, positive)
            COMMANDS.setdefault(command, "")
    return parser


def _handler(args):
    handler = getattr(args, "handler", None)
    if handler is not None:
        return handler
    module, _, function = COMMANDS[args.command].partition(":")
    return getattr(importlib.import_module(module), function)


def main(argv: Sequence[str] | None = None) -> int:
    from games.human import HumanQuit

    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        args.argv = argv[1:]
        return _handler(args)(args)
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


if __name__ == "__main__":
    sys.exit(main())
