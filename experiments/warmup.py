"""``stratsynth warmup``: compile every installed game's engines once.

Why: an engine that compiles on first use (Can't Stop's numba kernel, about a
minute of CPU with an empty cache) would otherwise do it in the first command that
plays its matches. Runs prepare their engines before their budget's clock starts
anyway; this pays the compile up front, at install time (``make`` calls it), so the
first ``play`` or ``synth`` starts at once too. Compiled code is cached on disk:
later processes only load it.
"""

from __future__ import annotations

import time


def warm_up_games(names: list[str] | None = None, report=print) -> list[str]:
    """Prepare the fast engine chain of each game (default: every loaded game) with its
    default parameters; the games whose engines could not be prepared, each reported
    with its cause (the others still are)."""
    from games import load_game, loaded_games
    from games.engines import prepare_engines

    failed = []
    for name in names or list(loaded_games()):
        start = time.perf_counter()
        try:
            chain = prepare_engines(load_game(name), "fast")
        except Exception as err:  # one game's missing extra must not stop the others
            failed.append(name)
            report(f"{name}: not prepared ({str(err).strip() or type(err).__name__})")
            continue
        report(f"{name}: {', '.join(engine.name for engine in chain)} ready "
               f"({time.perf_counter() - start:.1f} s)")
    return failed


def cmd_warmup(args) -> int:
    from games import game_spec

    for name in args.games or ():
        game_spec(name)  # an unknown game is bad input, before any game is prepared
    warm_up_games(args.games or None, report=lambda line: print(line, flush=True))
    return 0


def add_parsers(sub) -> None:
    w = sub.add_parser("warmup", help="compile every installed game's engines once "
                       "(Can't Stop's kernel), so no later command pays for it")
    w.add_argument("games", nargs="*", help="games to prepare (default: all)")
    w.set_defaults(handler=cmd_warmup)
