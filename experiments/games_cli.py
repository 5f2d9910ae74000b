"""``stratsynth tournament``: a round robin among player specs."""

from __future__ import annotations

from pathlib import Path

from games import load_game

from .options import add_game, add_seed, add_workers, game_params, positive


def cmd_tournament(args) -> int:
    from games.backends import make_map
    from qd.tournament import plot_matrix, round_robin

    from .players import make_player

    game = load_game(args.game, **game_params(args))
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two players (--players a,b,...)")
    players = [make_player(args.game, spec, dsl=args.dsl) for spec in specs]
    names = args.names.split(",") if args.names else specs
    if len(names) != len(specs):
        raise ValueError(f"--names gives {len(names)} names for {len(specs)} players")
    pairs = Path(args.out) / "pairs.jsonl" if args.out else None
    with make_map(args.workers) as backend:
        result = round_robin(game, players, names, args.matches, args.seed, map=backend,
                             pairs_file=pairs, setting={"game": args.game, "specs": specs,
                                                        "game_params": game_params(args)})
    table = result.markdown()
    print(table)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "tournament.md").write_text(
            f"# Tournament: {args.game}\n\n`stratsynth tournament {args.game} --players "
            f"{args.players} -n {args.matches} --seed {args.seed}`"
            + "".join(f" --game-param {p}" for p in args.game_param or []) + "\n\n"
            + "\n".join(f"- {n}: `{s}`" for n, s in zip(names, specs)) + "\n\n" + table + "\n")
        plot_matrix(result, out / "tournament.png")
    return 0


def add_parsers(sub) -> None:
    t = sub.add_parser("tournament", help="round robin among players, both seats")
    add_game(t, dsl=True)
    t.add_argument("--players", required=True, help="comma-separated player specs")
    t.add_argument("--names", default=None, help="comma-separated display names")
    t.add_argument("-n", "--matches", type=positive, default=20, help="matches per pairing")
    add_seed(t)
    add_workers(t)
    t.add_argument("--out", default=None, help="directory for tournament.md and .png, and "
                   "pairs.jsonl of finished pairings (a rerun continues from it)")
