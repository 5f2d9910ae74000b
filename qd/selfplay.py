"""Self-play drivers with any synthesizer as the best-response oracle.

* IBR (iterated best response): each new program answers the latest one.
* FP (fictitious play): each new program answers the uniform mixture of all the
  programs so far. ``mixture="sampled"`` (the default) plays one member per match,
  drawn from the match seed; ``"stratified"`` plays ``matches`` matches against every
  member and averages (the same expectation without the draw's noise, at a cost
  that grows with the mixture). ``opponents`` (FP only) are fixed members of every
  mixture, e.g. a pool of bots: FP then starts from the pool instead of the random
  program, and each response answers the pool and the responses so far.

An oracle is ``oracle(target, seed) -> program text``; ``sa_oracle`` and
``hss_oracle`` build the two used in Aleixo's dissertation. The sequence of strategies is
returned and saved.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from games.api import reset_player
from games.files import write_atomically
from gp.evaluator import Budget, Evaluator
from gp.fitness import PoolWinRate, WinRate
from gp.metrics import PSI
from gp.sa import SimulatedAnnealing
from gp.variation import mutSubtree

from .hss import HSS, Library
from .map_elites import BehaviourWinRate

Oracle = Callable[[object, int], str]


class MixtureStrategy:
    """Plays one of ``players``, chosen uniformly at each match from its seed."""

    name = "mixture"

    def __init__(self, players: Sequence) -> None:
        self.players = list(players)
        self.current = self.players[0]

    def reset(self, seed: int) -> None:
        self.current = self.players[random.Random(seed).randrange(len(self.players))]
        reset_player(self.current, seed)

    def __call__(self, state):
        return self.current(state)

    def __getattr__(self, name: str):
        """Anything else a game's engine asks of a player (e.g. building a Java AI)
        is answered by the player drawn for this match."""
        if name == "current":
            raise AttributeError(name)
        return getattr(self.current, name)


def self_play(oracle: Oracle, strategy_class, initial: str, iterations: int, seed: int,
              fictitious: bool = False, out: Path | None = None,
              after_step: Callable[[list[str]], None] | None = None,
              opponents: Sequence = (), mixture: str = "sampled") -> list[str]:
    """The sequence ``[initial, response 1, ..., response iterations]``.

    With ``out``, ``out/sequence.json`` is rewritten after every oracle call, and a
    sequence already there (same driver, same initial program) is continued, not
    redone: oracle call ``i`` gets seed ``seed * 1000 + i`` whatever came before, so
    a run resumed after a kill (or extended to more iterations) equals one run.
    ``after_step(sequence)`` runs after each call (e.g. to save an HSS library)."""
    if mixture not in ("sampled", "stratified"):
        raise ValueError(f"mixture must be 'sampled' or 'stratified', got '{mixture}'")
    if opponents and not fictitious:
        raise ValueError("fixed opponents are members of fictitious play's mixture; "
                         "IBR answers only the latest program")
    driver = "fp" if fictitious else "ibr"
    sequence = [initial]
    if out is not None and (out / "sequence.json").is_file():
        sequence = read_sequence(out / "sequence.json", driver, initial)
    for i in range(len(sequence) - 1, iterations):
        players = [strategy_class(text) for text in sequence]
        if fictitious:
            members = list(opponents) + (players[1:] if opponents else players)
            target = members if mixture == "stratified" else MixtureStrategy(members)
        else:
            target = players[-1]
        sequence.append(oracle(target, seed * 1000 + i))
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            write_atomically(out / "sequence.json", json.dumps(
                {"driver": driver, "programs": sequence}, indent=1) + "\n")
        if after_step is not None:
            after_step(sequence)
    return sequence[:iterations + 1]


def read_sequence(path: Path, driver: str, initial: str) -> list[str]:
    """A saved self-play sequence, checked against the run that continues it."""
    try:
        saved = json.loads(path.read_text())
        programs, saved_driver = list(saved["programs"]), saved["driver"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a self-play sequence ({err})") from None
    if saved_driver != driver or not programs or programs[0] != initial:
        raise ValueError(f"{path}: a {saved_driver} sequence from another start; "
                         f"use a new --out to run {driver} from this one")
    return programs


def sa_oracle(game, strategy_class, matches: int, evaluations: int, map=None,
              engine: str = "fast") -> Oracle:
    """SA as the oracle; ``engine`` plays Ψ's matches (``games.engines.ENGINES``)."""
    dsl = strategy_class.default_dsl()

    def oracle(target, seed: int) -> str:
        rate = PoolWinRate if isinstance(target, list) else WinRate  # a stratified mixture
        fitness = rate(game, target, strategy_class, matches=matches, seed=seed, map=map,
                       engine=engine)
        ev = Evaluator({PSI: fitness}, dsl.to_text, Budget(evaluations=evaluations))
        rng = random.Random(seed)
        SimulatedAnnealing(ev, rng).run(dsl.random_program(rng), partial(mutSubtree, dsl=dsl))
        return ev.best_program
    return oracle


def hss_oracle(game, strategy_class, features: dict, names: Sequence[str],
               levels: Sequence[Sequence[float]], matches: int, evaluations: int,
               library: Library | None = None, map=None, engine: str = "fast",
               **hss_options) -> Oracle:
    """HSS as the oracle; one library shared by all calls (library transfer, as in Aleixo 2023);
    ``engine`` plays the matches (``games.engines.ENGINES``).
    ``hss_options`` go to ``HSS`` (``variant``, ``local_evaluations``, ``local_seconds``,
    ``lookup``, ``bandit``)."""
    shared = library if library is not None else Library()
    dsl = strategy_class.default_dsl()

    def oracle(target, seed: int) -> str:
        evaluate = BehaviourWinRate(game, target, strategy_class, features, names, matches,
                                    seed, map, engine=engine)
        search = HSS(dsl, evaluate, levels, seed, library=shared, **hss_options)
        # programs already in the library are re-scored against the new target lazily
        return search.run(Budget(evaluations=evaluations))[1]
    oracle.library = shared
    return oracle

