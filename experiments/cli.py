"""``stratsynth``: play, record and benchmark from the command line.

Errors a user can make (unknown game or player, bad numbers, unreadable files)
print one line on stderr and exit with code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games import GAMES, load_game
from games.backends import make_map
from games.human import HumanQuit
from games.match import play_matches, wilson_interval

from .games_cli import add_parsers as games_add_parsers
from .games_cli import cmd_tdleaf, cmd_tournament
from .players import SpecError, make_player
from .qd_cli import add_parsers as qd_add_parsers
from .qd_cli import add_qd_check_parser, add_selfplay_parser, cmd_qd, cmd_qd_check, cmd_selfplay
from .regret.experiment import add_parsers as regret_add_parsers
from .regret.experiment import cmd_regret
from .report import add_parsers as report_add_parsers
from .report import cmd_report
from .runner import add_parsers as runner_add_parsers
from .runner import cmd_run
from .synth import add_parsers as synth_add_parsers
from .synth import cmd_resume, cmd_synth


class UsageError(Exception):
    """A mistake in the command line: reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage dump
        raise UsageError(message)


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _game_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"game name ({', '.join(sorted(GAMES))})")
    parser.add_argument("--max-moves", type=_positive, default=None,
                        help="move cap per match (game default if omitted)")


def _load_game(args):
    if args.game not in GAMES:
        if args.game == "microrts":
            raise UsageError("microrts is played through the Java engine: use "
                             "'stratsynth play microrts --map 16x16 ...'")
        raise UsageError(f"unknown game '{args.game}' (known: {', '.join(sorted(GAMES))})")
    params = {} if args.max_moves is None else {"max_moves": args.max_moves}
    return load_game(args.game, **params)


def _utt_arg(parser: argparse.ArgumentParser) -> None:
    from games.microrts.engine import DEFAULT_UNIT_TYPE_TABLE, UNIT_TYPE_TABLES

    parser.add_argument("--utt", default=DEFAULT_UNIT_TYPE_TABLE, choices=UNIT_TYPE_TABLES,
                        help="microrts unit type table (original: the papers'; finetuned: "
                        "the competitions')")


def _microrts_epilog() -> str:
    from games.microrts.engine import BOTS, MAPS, PAPER_MAPS
    from games.microrts.match import NONDETERMINISTIC_BOTS

    others = [m for m in MAPS if m not in PAPER_MAPS]
    return ("microrts:\n"
            f"  maps (--map): {', '.join(PAPER_MAPS)} (the papers'), {', '.join(others)}, "
            "or a map file\n"
            f"  players (--p0/--p1): {', '.join(BOTS)}, program:FILE\n"
            f"  --seed fixes every match except with {', '.join(NONDETERMINISTIC_BOTS)} "
            "(unseedable randomness)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stratsynth", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play matches between two players",
                          epilog=_microrts_epilog(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_arg(play)
    play.add_argument("--p0", required=True, help="first player spec (e.g. ga, random)")
    play.add_argument("--p1", required=True, help="second player spec")
    play.add_argument("-n", "--matches", type=_positive, default=100)
    play.add_argument("--seed", type=_non_negative, default=0)
    play.add_argument("--workers", type=_non_negative, default=1,
                      help="1 = serial, 0 = all cores, n = pool of n processes")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--map", default="16x16",
                      help="microrts map: 16x16, 24x24, 32x32, 64x64 (the papers'), "
                      "32x32-distant, or a map file")
    _utt_arg(play)

    record = sub.add_parser("record", help="record matches as (state, action) pairs",
                            epilog=_microrts_epilog(),
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_arg(record)
    record.add_argument("--player", required=True, help="player spec to record")
    record.add_argument("--opponent", default=None, help="opponent spec (default: itself)")
    record.add_argument("--self-play", action="store_true",
                        help="the player plays itself (the default without --opponent)")
    record.add_argument("--matches", type=_positive, default=3)
    record.add_argument("--winner-only", action="store_true",
                        help="keep the winner's pairs only; skip matches without a winner")
    record.add_argument("--seed", type=_non_negative, default=0)
    record.add_argument("-o", "--output", required=True, help="JSONL file to write")
    record.add_argument("--map", default="16x16", help="microrts map")
    _utt_arg(record)
    record.add_argument("--workers", type=_non_negative, default=1,
                        help="microrts: 1 = serial, 0 = all cores")

    synth_add_parsers(sub, _positive)
    runner_add_parsers(sub)
    report_add_parsers(sub, _positive)
    games_add_parsers(sub, _positive)
    regret_add_parsers(sub, _positive)
    qd_add_parsers(sub, _positive)
    add_selfplay_parser(sub, _positive)
    add_qd_check_parser(sub, _positive)

    bench = sub.add_parser("bench", help="matches per second, serial and on all cores")
    bench.add_argument("--matches", type=_positive, default=3000)
    bench.add_argument("--seed", type=_non_negative, default=0)
    bench.add_argument("--workers", type=_non_negative, default=0)
    bench.add_argument("--fitness", action="store_true",
                       help="Ψ evaluations/s over serial, pool and dask instead")
    bench.add_argument("--rounds", type=_positive, default=3,
                       help="with --fitness: rounds of every backend, medians reported")
    return parser


def _play_microrts(args, stats: bool = False):
    from games.microrts import map_path, play_microrts_matches

    players = [make_player("microrts", args.p0), make_player("microrts", args.p1)]
    map_path(args.map)
    with make_map(args.workers) as backend:
        return play_microrts_matches(args.map, players, args.matches, map=backend,
                                     max_cycles=args.max_moves, stats=stats, utt_name=args.utt,
                                     seed=args.seed)


def _record_microrts(args) -> int:
    from gp.microrts_fitness import write_counts

    args.p0, args.p1 = args.player, args.opponent or args.player
    args.matches = args.matches
    summary = _play_microrts(args, stats=True)
    count = write_counts(args.output, args.map, [args.p0, args.p1], summary, args.utt)
    print(f"wrote {count} matches to {args.output} ({args.p0} wins {summary.wins[0]}, "
          f"{args.p1} wins {summary.wins[1]})")
    return 0


def cmd_play(args) -> int:
    if args.game == "microrts":
        summary = _play_microrts(args)
    else:
        game = _load_game(args)
        players = [make_player(args.game, args.p0), make_player(args.game, args.p1)]
        workers = args.workers
        if any(getattr(p, "name", "") == "human" for p in players):
            workers = 1  # a person answers in this terminal
        with make_map(workers) as backend:
            summary = play_matches(game, players, args.matches, args.seed, map=backend)
    if args.json:
        print(json.dumps({
            "game": args.game, "players": [args.p0, args.p1], "matches": summary.matches,
            "wins": summary.wins, "draws": summary.draws, "capped": summary.capped,
            "mean_moves": round(summary.mean_moves, 3), "seconds": round(summary.seconds, 3),
        }))
        return 0
    print(f"{args.game}: {args.p0} vs {args.p1}, {summary.matches} matches, seed {args.seed}")
    for i, spec in enumerate((args.p0, args.p1)):
        lo, hi = wilson_interval(summary.wins[i], summary.matches)
        print(f"  {spec:>12}: {summary.wins[i]} wins ({summary.win_rate(i):.3f}, "
              f"95% CI {lo:.3f}-{hi:.3f})")
    print(f"  draws {summary.draws}, capped {summary.capped}, "
          f"mean moves {summary.mean_moves:.1f}, {summary.seconds:.2f} s")
    return 0


def cmd_record(args) -> int:
    from games.records import record_matches, write_records

    if args.game == "microrts":
        return _record_microrts(args)
    game = _load_game(args)
    opponent = args.opponent or args.player
    self_play = args.self_play or args.opponent is None
    if args.self_play and args.opponent and args.opponent != args.player:
        raise UsageError("--self-play and --opponent disagree: give one of them")
    specs = [args.player, args.player if self_play else opponent]
    players = [make_player(args.game, specs[0]), make_player(args.game, specs[1])]
    records = record_matches(game, players, specs, args.matches, args.seed,
                             winner_only=args.winner_only)
    count = write_records(args.output, args.game, specs, args.seed, records,
                          self_play=self_play, winner_only=args.winner_only)
    print(f"wrote {count} matches to {args.output}")
    return 0


def cmd_bench(args) -> int:
    if args.fitness:
        from .bench.fitness import run_fitness_bench

        run_fitness_bench(seed=args.seed, workers=args.workers, rounds=args.rounds)
        return 0
    from .bench.matches import run_bench

    run_bench(args.matches, args.seed, args.workers)
    return 0


COMMANDS = {"play": cmd_play, "record": cmd_record, "bench": cmd_bench, "synth": cmd_synth,
            "resume": cmd_resume, "run": cmd_run, "report": cmd_report,
            "tournament": cmd_tournament, "tdleaf": cmd_tdleaf, "regret": cmd_regret,
            "qd": cmd_qd, "selfplay": cmd_selfplay, "qd-check": cmd_qd_check}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        args.argv = argv[1:]
        return COMMANDS[args.command](args)
    except (UsageError, SpecError, FileNotFoundError, ValueError, RuntimeError) as err:
        message = str(err).strip() or type(err).__name__
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
