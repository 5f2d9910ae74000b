"""A self-play run: a registered driver (IBR, FP, Double Oracle, 2L or a plug-in,
``qd.drivers``) with an SA, hill-climbing or HSS best-response oracle
(``stratsynth selfplay``).

The run directory holds ``config.json`` (the run's identity), the driver's checkpoint,
rewritten after every oracle call (``sequence.json`` for IBR and FP; ``state.json``
and ``calls.csv`` for DO and 2L), ``clock.json`` (CPU seconds so far), each program
simplified (``program0.txt`` ...), the run's answer (``final.txt``: the latest program
for IBR and FP, the strongest in the empirical game for DO and 2L) and, with HSS,
``library.json``. Running the same settings into the same directory continues the run
(``iterations``, ``max_matches`` and ``cpu_budget`` may grow).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import fields
from pathlib import Path

from games import game_spec

from .config import SelfPlayConfig, open_game
from .loader import read_run_config
from .lock import hold
from .quality_diversity import chosen_features


class SelfPlayRun:
    """One self-play run, resolved and checked before anything is written; ``run()``
    takes the run's lock and returns the sequence of programs (texts). It never prints."""

    def __init__(self, config: SelfPlayConfig, where: str = "command line") -> None:
        from gp.programs import read_program, strategy_class
        from qd.drivers import SelfPlayContext

        from .players import make_player

        c = self.config = _resolved(config)
        self.out = Path(c.out)
        self.driver = c.driver_class()
        try:
            self.game = open_game(c.game, c.game_params)
            self.language_class = strategy_class(c.game, c.dsl)
            self.dsl = self.language_class.default_dsl()
            self.opponents = [make_player(c.game, spec.strip(), dsl=c.dsl)
                              for spec in (c.opponents.split(",") if c.opponents else [])]
            self.starts = [self.dsl.to_text(read_program(c.game, path.strip(), c.dsl))
                           for path in (c.library_programs.split(",")
                                        if c.library_programs else [])]
            if c.oracle == "hss":
                self.features, self.names = chosen_features(c.game, c.features)
            self.driver.check_context(SelfPlayContext(
                game=self.game, strategy_class=self.language_class, matches=c.matches,
                seed=c.seed, opponents=self.opponents, mixture=c.mixture))
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        if c.library and not Path(c.library).is_file():
            raise ValueError(f"{where}: library '{c.library}' is not a file")
        if c.library:  # a library that cannot be read fails before anything is written
            from qd.hss import Library

            Library.load(c.library)

    def _identity(self) -> dict:
        """The run's identity as its ``config.json`` keeps it: a run started under a
        former HSS variant name keeps that spelling, so continuing it leaves the file as
        it was."""
        from qd.hss import variant_name

        identity = self.config.identity()
        if (self.out / "config.json").is_file():
            saved = read_run_config(self.out).get("hss_variant")
            if isinstance(saved, str) and variant_name(saved) == identity["hss_variant"]:
                identity["hss_variant"] = saved
        return identity

    def _check_same(self) -> None:
        from games.files import check_same_setting

        if (self.out / "config.json").is_file():  # the engine does not change results
            saved = {k: v for k, v in read_run_config(self.out).items() if k != "engine"}
            check_same_setting(self.out / "config.json", saved, self._identity())

    def run(self) -> list[str]:
        """Start or continue the run under its lock; the programs, oldest first."""
        from games.backends import make_map
        from games.engines import prepare_engines
        from games.files import write_atomically
        from gp.simplify import simplified_text
        from qd.drivers import SelfPlayBudget, SelfPlayContext
        from qd.hss import Library, feature_levels
        from qd.selfplay import hc_oracle, hss_oracle, sa_oracle

        from .config import parse_duration

        c, out, dsl = self.config, self.out, self.dsl
        self._check_same()
        with hold(out):
            self._check_same()
            out.mkdir(parents=True, exist_ok=True)
            write_atomically(out / "config.json",
                             json.dumps({**self._identity(), "engine": c.engine}, indent=1) + "\n")

            def save(sequence: list[str]) -> None:
                """The library, and each program simplified (``sequence.json`` keeps the
                oracle's own texts, which a continued run needs)."""
                if c.oracle == "hss":
                    save_library(oracle.library, out)
                for i, text in enumerate(sequence):
                    write_atomically(out / f"program{i}.txt", simplified_text(dsl, text) + "\n")

            prepare_engines(self.game, c.engine)  # compiling is not a search's time
            with make_map(c.workers) as backend:
                if c.oracle == "sa":
                    oracle = sa_oracle(self.game, self.language_class, c.matches,
                                       c.evaluations, backend, engine=c.engine, side=c.side,
                                       neighbourhood=c.neighbourhood_settings())
                elif c.oracle == "hc":
                    oracle = hc_oracle(self.game, self.language_class, c.matches,
                                       c.evaluations, c.neighbours or 1000, backend,
                                       engine=c.engine, side=c.side,
                                       neighbourhood=c.neighbourhood_settings())
                else:
                    kept = kept_library(out)
                    library = (kept if kept is not None else
                               Library.load(c.library) if c.library else Library())
                    if kept is None:
                        for text in self.starts:
                            library.add_unmeasured(text)
                    levels = game_spec(c.game).feature_levels()
                    levels = ([list(levels)] * len(self.names) if levels is not None else
                              feature_levels([self.features[n][1] for n in self.names],
                                             c.levels))
                    oracle = hss_oracle(self.game, self.language_class, self.features,
                                        self.names, levels, c.matches, c.evaluations, library,
                                        backend, engine=c.engine, variant=c.hss_variant,
                                        local_evaluations=c.local_evaluations,
                                        local_search=c.local_search(), side=c.side)
                start = dsl.to_text(dsl.random_program(random.Random(c.seed)))
                context = SelfPlayContext(game=self.game, strategy_class=self.language_class,
                                          matches=c.matches, seed=c.seed, map=backend,
                                          engine=c.engine, opponents=self.opponents,
                                          mixture=c.mixture)
                driver = self.driver(oracle=oracle, context=context, settings=c.settings)
                budget = SelfPlayBudget(c.iterations, c.max_matches,
                                        parse_duration(c.cpu_budget) if c.cpu_budget else None)
                sequence = driver.run(start, budget, out, after_step=save)
            save(sequence)
            write_atomically(out / "final.txt",
                             simplified_text(dsl, driver.answer(sequence)) + "\n")
        return sequence


CHECKPOINTS = ("sequence.json", "state.json")
"""The drivers' checkpoint files (IBR/FP, population drivers)."""


def checkpoint_digest(out: Path) -> str:
    """A digest of the driver's checkpoint as it is on disk now ("none" before one)."""
    import hashlib

    parts = [(out / name).read_bytes() for name in CHECKPOINTS if (out / name).is_file()]
    return hashlib.sha256(b"\0".join(parts)).hexdigest() if parts else "none"


def save_library(library, out: Path) -> None:
    """Save the HSS library before the driver writes its checkpoint: the previous one
    moves to ``library.prev.json`` and the new one names the checkpoint it follows, so
    that a kill between the two is told apart from a finished step."""
    current = out / "library.json"
    if current.is_file():
        os.replace(current, out / "library.prev.json")
    library.save(current, follows=checkpoint_digest(out))


def kept_library(out: Path):
    """The library that belongs with ``out``'s checkpoint, or None (start afresh). A
    library that still follows the checkpoint on disk was saved for a step whose
    checkpoint was never written: the previous one belongs with it."""
    from qd.hss import Library

    current, previous = out / "library.json", out / "library.prev.json"
    if current.is_file() and Library.follows_of(current) != checkpoint_digest(out):
        return Library.load(current)
    return Library.load(previous) if previous.is_file() else None


def _resolved(config: SelfPlayConfig) -> SelfPlayConfig:
    """``config`` with HSS's level-2 search decided: as given; else, continuing a run,
    what its ``config.json`` says (no key: plain SA, what runs did before the setting
    existed); else Sketch-SA, the dissertation's."""
    from dataclasses import replace

    from qd.hss import LOCAL_SEARCHES

    if config.oracle != "hss" or config.hss_local_search is not None:
        return config
    saved = Path(config.out) / "config.json"
    if saved.is_file():
        kept = read_run_config(saved.parent).get("hss_local_search")
        # a value that is not a level-2 search is left for the identity check to name
        return replace(config, hss_local_search=kept) if kept in LOCAL_SEARCHES else config
    return replace(config, hss_local_search="sketch-sa")


def cmd_selfplay(args) -> int:
    from .options import config_from

    sequence = SelfPlayRun(config_from(SelfPlayConfig, args)).run()
    print(f"{len(sequence)} programs in {args.out} (program{len(sequence) - 1}.txt is the last; "
          "final.txt is the run's answer)")
    return 0


def add_parsers(sub) -> None:
    from .options import add_config, add_game

    s = sub.add_parser("selfplay", help="self-play (IBR, FP, Double Oracle, 2L) with an SA, "
                       "hill-climbing or HSS best-response oracle")
    add_game(s, dsl=True)
    add_config(s, SelfPlayConfig)
    add_driver_settings(s, skip={f.name for f in fields(SelfPlayConfig)})
    s.set_defaults(handler=cmd_selfplay)


def add_driver_settings(parser, skip: set[str]) -> None:
    """Every registered driver's settings as flags, one group per driver; a plug-in that
    cannot be loaded is listed with its cause."""
    import argparse

    from gp.synthesis import setting_fields
    from qd.drivers import driver_class, driver_names

    from .loader import hints
    from .options import _reader

    keys: list[str] = []
    broken = []
    for name in driver_names():
        try:
            driver = driver_class(name)
        except ValueError as err:
            broken.append(str(err))
            continue
        own = [f for f in setting_fields(driver.Settings) if f.name not in skip
               and f.name not in keys]
        group = parser.add_argument_group(f"--driver {name}", driver.summary)
        types_ = hints(driver.Settings)
        for f in own:
            keywords, switch = _reader(types_[f.name])
            if switch and f.default is True:
                keywords = {"action": argparse.BooleanOptionalAction}
            shown = "" if switch or f.default is None else f" (default {f.default})"
            group.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None,
                               help=f.metadata.get("help", "") + shown, **keywords)
            keys.append(f.name)
    if broken:
        parser.epilog = ((parser.epilog or "") + " Drivers that cannot be loaded: "
                         + "; ".join(broken)).strip()
    parser.set_defaults(method_setting_keys=tuple(keys))
