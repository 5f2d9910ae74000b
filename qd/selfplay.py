"""Self-play drivers with any synthesizer as the best-response oracle.

* IBR (iterated best response): each new program answers the latest one.
* FP (fictitious play): each new program answers the uniform mixture of all the
  programs so far. ``mixture="sampled"`` (the default) plays one member per match,
  drawn from the match seed; ``"stratified"`` plays ``matches`` matches against every
  member and averages (the same expectation without the draw's noise, at a cost
  that grows with the mixture). ``opponents`` (FP only) are fixed members of every
  mixture, e.g. a pool of bots: FP then starts from the pool instead of the random
  program, and each response answers the pool and the responses so far.

An oracle is ``oracle(target, seed, start=None) -> program text`` (``start``: a program
to search from, where the oracle can; ``oracle.used``: the evaluations of its last
call); ``sa_oracle`` and ``hss_oracle`` build the two used in Aleixo's dissertation,
``hc_oracle`` steepest-ascent hill climbing over a sampled neighbourhood. SA and hill
climbing take the synthesizers' neighbourhood setting (``gp.neighbourhoods``: syntactic,
the default, or semantic). The sequence
of strategies is returned and saved. Both schemes are registered self-play drivers
(``qd.drivers``), ``ibr`` and ``fp``, beside ``do`` and ``2l``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from games.api import reset_player
from games.files import write_atomically
from gp.evaluator import Budget, Evaluator
from gp.methods import NotifyingRestart
from gp.metrics import PSI
from gp.neighbourhoods import Neighbourhood, NeighbourhoodSettings, make_neighbourhood
from gp.sa import RestartFromBest, SimulatedAnnealing

from .drivers import (
    SelfPlayBudget,
    SelfPlayContext,
    SelfPlayDriver,
    read_cpu_seconds,
    register_driver,
    write_cpu_seconds,
)
from .hill_climbing import good_enough_for, sampled_hill_climbing
from .hss import HSS, Library

Oracle = Callable[..., str]


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
              opponents: Sequence = (), mixture: str = "sampled",
              budget: SelfPlayBudget | None = None, matches: int | None = None) -> list[str]:
    """The sequence ``[initial, response 1, ..., response iterations]``.

    With ``out``, ``out/sequence.json`` is rewritten after every oracle call, and a
    sequence already there (same driver, same initial program) is continued, not
    redone: oracle call ``i`` gets seed ``seed * 1000 + i`` whatever came before, so
    a run resumed after a kill (or extended to more iterations) equals one run.
    ``after_step(sequence)`` runs after each call (e.g. to save an HSS library).
    ``budget`` may also stop the run by matches (the oracle's evaluations times
    ``matches`` times the opponents each is scored against; kept in ``sequence.json``
    as ``search_matches``) or CPU time (``clock.json``)."""
    if mixture not in ("sampled", "stratified"):
        raise ValueError(f"mixture must be 'sampled' or 'stratified', got '{mixture}'")
    if opponents and not fictitious:
        raise ValueError("fixed opponents are members of fictitious play's mixture; "
                         "IBR answers only the latest program")
    driver = "fp" if fictitious else "ibr"
    budget = budget if budget is not None else SelfPlayBudget(iterations)
    counted = budget.matches is not None
    if counted and matches is None:
        raise ValueError("a match budget needs the matches per evaluation")
    sequence, used = [initial], 0
    if out is not None and (out / "sequence.json").is_file():
        sequence, used = read_sequence(out / "sequence.json", driver, initial, counted)
    cpu_before = read_cpu_seconds(out)
    if counted:
        from .reference import target_size
    i = len(sequence) - 1
    while budget.left(i, used, cpu_before):
        players = [strategy_class(text) for text in sequence]
        if fictitious:
            members = list(opponents) + (players[1:] if opponents else players)
            target = members if mixture == "stratified" else MixtureStrategy(members)
        else:
            target = players[-1]
        sequence.append(oracle(target, seed * 1000 + i))
        if counted:
            used += _evaluations_of(oracle) * matches * target_size(target)
        if after_step is not None:  # before the checkpoint: see DriverBase.run
            after_step(sequence)
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            saved = {"driver": driver, "programs": sequence}
            if counted:
                saved["search_matches"] = used
            write_atomically(out / "sequence.json", json.dumps(saved, indent=1) + "\n")
            write_cpu_seconds(out, budget.cpu_used(cpu_before))
        i += 1
    return sequence[:iterations + 1]


def _evaluations_of(oracle) -> int:
    used = getattr(oracle, "used", None)
    if not isinstance(used, int):
        raise ValueError("a match budget needs an oracle that says how many evaluations its "
                         "last call made (oracle.used)")
    return used


def read_sequence(path: Path, driver: str, initial: str,
                  counted: bool = False) -> tuple[list[str], int]:
    """A saved self-play sequence, checked against the run that continues it, and the
    matches its searches played (``counted``: the run has a match budget)."""
    try:
        saved = json.loads(path.read_text())
        programs, saved_driver = list(saved["programs"]), saved["driver"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a self-play sequence ({err})") from None
    if saved_driver != driver or not programs or programs[0] != initial:
        raise ValueError(f"{path}: a {saved_driver} sequence from another start; "
                         f"use a new --out to run {driver} from this one")
    if counted and not isinstance(saved.get("search_matches"), int) and len(programs) > 1:
        raise ValueError(f"{path}: a run started without a match budget does not know its "
                         "matches; use a new --out to give it one")
    return programs, int(saved.get("search_matches", 0))


def sequence_calls(out: Path) -> int:
    """Oracle calls a run directory's ``sequence.json`` holds (0 if none)."""
    path = out / "sequence.json"
    return len(json.loads(path.read_text())["programs"]) - 1 if path.is_file() else 0


@register_driver
class IteratedBestResponse(SelfPlayDriver):
    """Each response answers the latest program (``self_play``)."""

    name = "ibr"
    summary = "iterated best response: each program answers the latest one"
    fictitious = False

    @classmethod
    def check_context(cls, context: SelfPlayContext) -> None:
        if context.opponents and not cls.fictitious:
            raise ValueError("opponents: fixed opponents are members of fictitious play's "
                             "mixture (driver fp); IBR answers only the latest program")

    def run(self, initial: str, budget: SelfPlayBudget, out: Path | None = None,
            after_step: Callable[[list[str]], None] | None = None) -> list[str]:
        c = self.context
        return self_play(self.oracle, c.strategy_class, initial, budget.iterations, c.seed,
                         fictitious=self.fictitious, out=out, after_step=after_step,
                         opponents=c.opponents, mixture=c.mixture, budget=budget,
                         matches=c.matches)

    def answer(self, programs: list[str]) -> str:
        return programs[-1]

    calls_done = staticmethod(sequence_calls)


@register_driver
class FictitiousPlay(IteratedBestResponse):
    """Each response answers the uniform mixture of the programs so far (and any fixed
    opponents), sampled or stratified (``self_play``)."""

    name = "fp"
    summary = "fictitious play: each program answers the mixture of all so far"
    fictitious = True


def started_neighbourhood(dsl, settings: NeighbourhoodSettings | None, initial,
                          rng: random.Random, game=None) -> Neighbourhood:
    """A fresh neighbourhood for one oracle call (``settings`` None: syntactic) on the
    run's ``game`` object, told where the search starts."""
    settings = settings if settings is not None else NeighbourhoodSettings()
    neighbourhood = make_neighbourhood(settings.neighbourhood, language=dsl, settings=settings,
                                       game=game)
    neighbourhood.start(initial, rng)
    return neighbourhood


def _local_search(game, strategy_class, target, seed: int, start: str | None,
                  matches: int, evaluations: int, map, engine: str, side: int | None,
                  neighbourhood: NeighbourhoodSettings | None):
    """What one SA or hill-climbing oracle call searches with: Ψ against ``target`` in
    an evaluator of ``evaluations``, its rng, the start program (``start`` or a random
    one) and the neighbourhood told that start."""
    from .reference import target_win_rate

    dsl = strategy_class.default_dsl()
    fitness = target_win_rate(game, target, strategy_class, matches=matches, seed=seed,
                              map=map, engine=engine, seat=side)
    ev = Evaluator({PSI: fitness}, dsl.to_text, Budget(evaluations=evaluations))
    rng = random.Random(seed)
    initial = dsl.parse(start) if start is not None else dsl.random_program(rng)
    return ev, rng, initial, started_neighbourhood(dsl, neighbourhood, initial, rng, game)


def sa_oracle(game, strategy_class, matches: int, evaluations: int, map=None,
              engine: str = "fast", side: int | None = None,
              neighbourhood: NeighbourhoodSettings | None = None) -> Oracle:
    """SA as the oracle, from ``start`` or a random program; ``engine`` plays Ψ's matches
    (``games.engines.ENGINES``); ``side``: the program's seat in every match of Ψ (one
    start position), or None to alternate; ``neighbourhood``: which one SA draws from
    (None: syntactic)."""

    def oracle(target, seed: int, start: str | None = None) -> str:
        ev, rng, initial, moves = _local_search(game, strategy_class, target, seed, start,
                                                matches, evaluations, map, engine, side,
                                                neighbourhood)
        SimulatedAnnealing(ev, rng, restart=NotifyingRestart(RestartFromBest(), moves)).run(
            initial, moves, on_improve=moves.improved)
        oracle.used = ev.budget.used
        return ev.best_program
    oracle.used = 0
    return oracle


def hc_oracle(game, strategy_class, matches: int, evaluations: int, neighbours: int = 1000,
              map=None, engine: str = "fast", side: int | None = None,
              neighbourhood: NeighbourhoodSettings | None = None) -> Oracle:
    """Steepest-ascent hill climbing over ``neighbours`` sampled neighbours per step
    (``qd.hill_climbing``) as the oracle, from ``start`` or a random program; it stops
    early once the value exceeds ``1 - 0.1 / k`` against k opponents; ``side`` and
    ``neighbourhood`` as in ``sa_oracle``."""
    from .reference import target_size

    def oracle(target, seed: int, start: str | None = None) -> str:
        ev, rng, initial, moves = _local_search(game, strategy_class, target, seed, start,
                                                matches, evaluations, map, engine, side,
                                                neighbourhood)

        def moved(program, value: float) -> None:
            """A move is to a new best, and the neighbourhood restarts from it."""
            moves.improved(program, value)
            moves.restart(program, rng)

        sampled_hill_climbing(ev, initial, moves, rng, neighbours,
                              good_enough_for(target_size(target)), on_move=moved)
        oracle.used = ev.budget.used
        return ev.best_program
    oracle.used = 0
    return oracle


def hss_oracle(game, strategy_class, features: dict, names: Sequence[str],
               levels: Sequence[Sequence[float]], matches: int, evaluations: int,
               library: Library | None = None, map=None, engine: str = "fast",
               side: int | None = None, **hss_options) -> Oracle:
    """HSS as the oracle; one library shared by all calls (library transfer, as in Aleixo 2023);
    ``engine`` plays the matches (``games.engines.ENGINES``); ``side`` as in ``sa_oracle``.
    ``hss_options`` go to ``HSS`` (``variant``, ``local_search``, ``local_evaluations``,
    ``local_seconds``, ``lookup``, ``bandit``)."""
    from .reference import target_behaviour_win_rate

    shared = library if library is not None else Library()
    dsl = strategy_class.default_dsl()

    def oracle(target, seed: int, start: str | None = None) -> str:
        # HSS starts from its library's programs (every earlier response is in it)
        evaluate = target_behaviour_win_rate(game, target, strategy_class, features, names,
                                             matches, seed, map, engine=engine, seat=side)
        search = HSS(dsl, evaluate, levels, seed, library=shared, **hss_options)
        # programs already in the library are re-scored against the new target lazily
        budget = Budget(evaluations=evaluations)
        program = search.run(budget)[1]
        oracle.used = budget.used
        return program
    oracle.library = shared
    oracle.used = 0
    return oracle

