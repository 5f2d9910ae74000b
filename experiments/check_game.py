"""``stratsynth check-game NAME``: the plug-in contract of a game, checked and reported.

One line per check (``games.checks``); exit code 0 if every check passed, 1 if one
failed, 2 for bad input (an unknown game, a bad game parameter).
"""

from __future__ import annotations

from games import GameLoadError, game_spec, load_game

from .options import add_game, add_seed, game_params, non_negative, positive


def cmd_check_game(args) -> int:
    from games.checks import CheckSettings, check_game

    settings = CheckSettings(seed=args.seed, playouts=args.playouts, programs=args.programs,
                             decisions=args.decisions, engine_matches=not args.no_engine)
    header = (f"check-game {args.game}: seed {settings.seed}, {settings.playouts} playouts, "
              f"{settings.programs} programs per language")
    try:
        spec = game_spec(args.game)
    except GameLoadError as err:  # the package under check fails to import: a failed check
        print(header)
        return _failed("import", str(err).split(": ", 1)[1], args.game)
    params = game_params(args)
    try:
        game = load_game(args.game, **params)
    except ValueError:
        raise  # a bad game parameter: bad input
    except Exception as err:  # noqa: BLE001 - a factory that breaks is a failed check
        print(header)
        return _failed("spec factory", f"{spec.factory}(...) raised {type(err).__name__}: "
                       f"{err}", args.game)
    print(header, flush=True)
    failed = passed = 0
    for check in check_game(spec, game, settings):
        mark = "ok  " if check.passed else "FAIL"
        print(f"  {mark}  {check.name:<28}  {check.detail}", flush=True)
        passed += check.passed
        failed += not check.passed
    verdict = "all passed" if not failed else f"{failed} failed"
    print(f"{args.game}: {passed + failed} checks, {verdict}")
    return 1 if failed else 0


def _failed(name: str, detail: str, game: str) -> int:
    print(f"  FAIL  {name:<28}  {detail.strip().splitlines()[0]}")
    print(f"{game}: 1 check, 1 failed")
    return 1


def add_parsers(sub) -> None:
    check = sub.add_parser(
        "check-game", help="check a game's plug-in contract (spec, rules, players, languages, "
        "features)", description="Checks that every reference of the game's spec resolves, "
        "that seeded random playouts keep the State API's invariants, that every built-in "
        "player plays legal actions from both seats, that random programs of each language "
        "read back from their text and pickle by it, and that features stay in their "
        "declared ranges on final states. Exit code 0: all passed; 1: a check failed.")
    add_game(check)
    add_seed(check)
    check.add_argument("--playouts", type=positive, default=200,
                       help="random playouts of the rules check (default 200)")
    check.add_argument("--programs", type=non_negative, default=20,
                       help="random programs per language (default 20)")
    check.add_argument("--decisions", type=positive, default=200,
                       help="decisions per seat of each built-in player at most (default 200)")
    check.add_argument("--no-engine", action="store_true",
                       help="for a game with its own engine (microRTS: a JVM), check the spec "
                       "and the languages without playing matches")
    check.set_defaults(handler=cmd_check_game)
