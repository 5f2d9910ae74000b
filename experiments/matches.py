"""``stratsynth play``, ``record`` and ``bench``: matches between player specs."""

from __future__ import annotations

import json

from games import game_spec, resolve
from games.backends import make_map
from games.engines import prepare_engines
from games.human import HumanPlayer, play_with_human
from games.match import play_matches, wilson_interval

from .config import open_game
from .options import (
    UsageError,
    add_engine,
    add_game,
    add_seed,
    add_workers,
    check_output_file,
    game_params,
    positive,
)
from .players import make_player


def _players(args, specs: list[str]) -> list:
    from gp.programs import strategy_class

    if args.dsl is not None:  # a mistyped language is an error, even with no program player
        strategy_class(args.game, args.dsl)
    return [make_player(args.game, spec, dsl=args.dsl) for spec in specs]


FEW_MATCHES = 100
"""``play`` plays fewer matches than this in its own process on the reference engine,
unless told otherwise (``--engine``, ``--workers``): loading a compiled engine (Can't
Stop's kernel, about half a second) and starting worker processes would take longer
than the matches. Every engine and backend gives the same results."""


def cmd_play(args) -> int:
    game = open_game(args.game, game_params(args))
    specs = [args.p0, args.p1]
    players = _players(args, specs)
    if any(isinstance(p, HumanPlayer) for p in players):
        if args.json:
            raise UsageError("--json and a human player: the narrated match is the output")
        summary = play_with_human(game, players, specs, args.matches, args.seed)
    else:
        engine, workers = args.engine, args.workers
        if args.matches < FEW_MATCHES:  # the same results, sooner
            engine = "reference" if engine == "fast" else engine
            workers = 1 if workers == 0 else workers
        prepare_engines(game, engine)  # compiling is not the matches' time
        with make_map(workers) as backend:
            summary = play_matches(game, players, args.matches, args.seed, map=backend,
                                   engine=engine)
    if args.json:
        print(json.dumps({
            "game": args.game, "players": specs, "matches": summary.matches,
            "wins": summary.wins, "wins_by_seat": summary.wins_by_seat, "draws": summary.draws,
            "capped": summary.capped, "mean_moves": round(summary.mean_moves, 3),
            "seconds": round(summary.seconds, 3),
        }))
        return 0
    print(f"{args.game}: {args.p0} vs {args.p1}, {summary.matches} matches, seed {args.seed}")
    for i, spec in enumerate(specs):
        lo, hi = wilson_interval(summary.wins[i], summary.matches)
        first, second = summary.wins_by_seat[i]
        print(f"  {spec:>12}: {summary.wins[i]} wins ({summary.win_rate(i):.3f}, "
              f"95% CI {lo:.3f}-{hi:.3f}; {first} from the first seat, {second} from the second)")
    print(f"  draws {summary.draws}, capped {summary.capped}, "
          f"mean moves {summary.mean_moves:.1f}, {summary.seconds:.2f} s")
    return 0


def cmd_record(args) -> int:
    from games.records import record_matches, write_records

    if args.self_play and args.opponent and args.opponent != args.player:
        raise UsageError("--self-play and --opponent disagree: give one of them")
    check_output_file(args.output, "--output")
    self_play = args.self_play or args.opponent is None
    specs = [args.player, args.player if self_play else args.opponent]
    game = open_game(args.game, game_params(args))
    players = _players(args, specs)
    recorder = game_spec(args.game).cli.recorder
    if recorder is not None:
        with make_map(args.workers) as backend:
            count = resolve(recorder)(game, players, specs, args.matches, args.seed,
                                      args.output, winner_only=args.winner_only,
                                      self_play=self_play, map=backend)
    else:
        records = record_matches(game, players, specs, args.matches, args.seed,
                                 winner_only=args.winner_only)
        count = write_records(args.output, args.game, specs, args.seed, records,
                              self_play=self_play, winner_only=args.winner_only)
    print(f"wrote {count} matches to {args.output}")
    return 0


def cmd_bench(args) -> int:
    if args.fitness:
        from .bench.fast_fitness import run_engine_bench
        from .bench.fitness import run_fitness_bench

        run_engine_bench(rounds=args.rounds, seed=args.seed)
        if not args.engines_only:
            run_fitness_bench(seed=args.seed, workers=args.workers, rounds=args.rounds)
        return 0
    from .bench.matches import run_bench

    run_bench(args.matches, args.seed, args.workers)
    return 0


def _players_by_game() -> str:
    """The built-in player specs of every game, for ``play --help``."""
    from games import game_players, loaded_games

    games = loaded_games()  # a game that fails to load is listed by --help, not here
    notes = [f"{name}: {resolve(spec.cli.notes)()}" for name, spec in games.items()
             if spec.cli.notes]
    return "built-in players: " + "; ".join(
        f"{name}: {', '.join(sorted(game_players(name)))}" for name in games) + \
        "; and program:FILE for games with a language. " + " ".join(notes)


def add_parsers(sub) -> None:
    play = sub.add_parser("play", help="play matches between two players",
                          epilog=_players_by_game())
    add_game(play, dsl=True)
    play.add_argument("--p0", required=True, help="first player spec (e.g. ga, random, "
                      "program:FILE)")
    play.add_argument("--p1", required=True, help="second player spec")
    play.add_argument("-n", "--matches", type=positive, default=100)
    add_seed(play)
    add_workers(play)
    add_engine(play)
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.set_defaults(handler=cmd_play)

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
    record.set_defaults(handler=cmd_record)

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
    bench.set_defaults(handler=cmd_bench)
