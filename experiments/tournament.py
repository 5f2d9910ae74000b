"""A round robin among player specs (``stratsynth tournament``).

With an output directory, finished pairings are kept in ``pairs.jsonl`` (a rerun
continues from it) and the result in ``tournament.md`` and ``tournament.png``.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

from .config import TournamentConfig, open_game
from .lock import check_not_a_run, hold


class Tournament:
    """A round robin, its players built and checked before any match; ``run()`` returns
    the ``qd.tournament.TournamentResult``. It never prints."""

    def __init__(self, config: TournamentConfig, where: str = "command line") -> None:
        from .players import make_player

        c = self.config = config
        self.specs = c.specs()
        self.names = c.names.split(",") if c.names else self.specs
        try:
            self.game = open_game(c.game, c.game_params)
            self.players = [make_player(c.game, spec, dsl=c.dsl) for spec in self.specs]
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        if c.out:
            check_not_a_run(c.out)

    def run(self, command: str = ""):
        from games.backends import make_map
        from games.engines import prepare_engines
        from qd.tournament import plot_matrix, round_robin

        c = self.config
        prepare_engines(self.game, c.engine)
        out = Path(c.out) if c.out else None
        with hold(out) if out else nullcontext():
            with make_map(c.workers) as backend:
                result = round_robin(self.game, self.players, self.names, c.matches, c.seed,
                                     map=backend,
                                     pairs_file=out / "pairs.jsonl" if out else None,
                                     setting={"game": c.game, "specs": self.specs,
                                              "game_params": c.game_params or {}},
                                     engine=c.engine)
            if out:
                out.mkdir(parents=True, exist_ok=True)
                (out / "tournament.md").write_text(
                    f"# Tournament: {c.game}\n\n`{command}`\n\n"
                    + "\n".join(f"- {n}: `{s}`" for n, s in zip(self.names, self.specs))
                    + "\n\n" + result.markdown() + "\n")
                plot_matrix(result, out / "tournament.png")
        return result


def cmd_tournament(args) -> int:
    from .options import config_from

    config = config_from(TournamentConfig, args)
    command = (f"stratsynth tournament {config.game} --players {config.players} -n "
               f"{config.matches} --seed {config.seed}"
               + "".join(f" --game-param {p}" for p in args.game_param or []))
    print(Tournament(config).run(command).markdown())
    return 0


def add_parsers(sub) -> None:
    from .options import add_config, add_game

    t = sub.add_parser("tournament", help="round robin among players, both seats")
    add_game(t, dsl=True)
    add_config(t, TournamentConfig)
    t.set_defaults(handler=cmd_tournament)
