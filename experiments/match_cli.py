"""``stratsynth play``, ``record`` and ``bench``: matches between player specs."""

from __future__ import annotations

import json

from games import game_spec, load_game, resolve
from games.backends import make_map
from games.human import HumanPlayer, play_with_human
from games.match import play_matches, wilson_interval

from .options import UsageError, game_params
from .players import make_player


def _players(args, specs: list[str]) -> list:
    return [make_player(args.game, spec, dsl=args.dsl) for spec in specs]


def cmd_play(args) -> int:
    game = load_game(args.game, **game_params(args))
    specs = [args.p0, args.p1]
    players = _players(args, specs)
    if any(isinstance(p, HumanPlayer) for p in players):
        if args.json:
            raise UsageError("--json and a human player: the narrated match is the output")
        summary = play_with_human(game, players, specs, args.matches, args.seed)
    else:
        with make_map(args.workers) as backend:
            summary = play_matches(game, players, args.matches, args.seed, map=backend)
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
    self_play = args.self_play or args.opponent is None
    specs = [args.player, args.player if self_play else args.opponent]
    game = load_game(args.game, **game_params(args))
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
