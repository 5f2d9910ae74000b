"""Engines: what plays a batch of ``MatchJob``s, and how one is chosen.

Every engine gives the results of the game's reference engine, match by match
(same seeds, same decisions, same summaries); they differ only in speed and in
what they can run. An engine plays the jobs it can and declines the others
(``None``), which go to the next engine of the chain; the last one, the game's
reference engine, plays every job. For most games that is ``StateEngine``, which
steps the game's states (``games.match.play_job``); a game whose engine plays
whole matches (microRTS's JVM) declares its own in ``EngineSpec.reference``, and
a game may declare faster engines in ``EngineSpec.fast`` (Can't Stop: a compiled
kernel and a numpy engine).

The chain is chosen by a parameter, one of ``ENGINES``, that a run records in its
``config.json``: ``fast`` tries every declared engine, fastest first; ``numpy``
starts at the numpy engine; ``reference`` plays on the reference engine alone.

An engine that compiles code on first use (Can't Stop's kernel) does it in
``prepare``, which a run calls through ``prepare_engines`` before its budget's
clock starts: compiling is never charged to a search.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from .api import GameBase, declared
from .backends import SerialMap, WorkerDied
from .match import MatchJob, MatchSummary, play_job
from .spec import EngineSpec, registered_spec, resolve

log = logging.getLogger("stratsynth.engines")

ENGINES = ("fast", "numpy", "reference")
"""Engine choices, fastest first: a game's fastest exact engine, its numpy array
engine (Can't Stop: without the compiled kernel), the reference engine alone.
Results are the same on all three."""


class Engine:
    """Plays ``MatchJob``s in the calling process.

    Subclasses override ``play``; the class attributes are declared defaults.
    An engine object must pickle (it travels to workers with the jobs).
    """

    name = "engine"
    plays_paired = True
    """False if the engine has no colour-swapped pairs (``MatchJob.paired``)."""
    retries = 0
    """Times a batch whose worker process died is played again (a crashed JVM)."""

    def play(self, jobs: Sequence[MatchJob]) -> list[MatchSummary | None]:
        """Each job's summary, or None for a job this engine declines."""
        raise NotImplementedError

    def prepare(self, game) -> None:
        """Make the engine ready to play ``game``'s matches in this process (compile or
        load its code), so that whoever times the first match does not pay for it.
        Nothing by default."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class StateEngine(Engine):
    """The reference engine of a game with states: ``games.match.play_job``, one match
    after another; it plays every job."""

    name = "reference"

    def play(self, jobs: Sequence[MatchJob]) -> list[MatchSummary | None]:
        return [play_job(job) for job in jobs]


@runtime_checkable
class Lowerable(Protocol):
    """A player that can give an engine its own form (a program player: its
    language declares the lowerings, ``gp.dsl.ProgramPlayer.lowering``)."""

    def lowering(self, target: str) -> Any:
        """This player in the form the engine ``target`` runs, or None."""


def lowering(player, target: str) -> Any:
    """``player`` in the form of the engine ``target`` (e.g. ``cantstop.kernel``), or
    None if it has none: the engine then declines its jobs. Only the player's class
    is asked (a wrapper that forwards attributes, like a mixture of programs, is not
    the program it forwards to)."""
    return player.lowering(target) if issubclass(type(player), Lowerable) else None


def check_engine(engine: str) -> str:
    """``engine`` if it is one of ``ENGINES``, else a ``ValueError`` naming them."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    return engine


def engines_for(game, engine: str = "reference") -> tuple[Engine, ...]:
    """The engines that play ``game``'s matches under the choice ``engine``, in the
    order they are tried; the last plays every job. A game that registered no spec
    plays on its states."""
    check_engine(engine)
    spec = registered_spec(declared(game, "name", GameBase))
    engines = spec.engines if spec is not None else EngineSpec()
    chain = [resolve(engines.fast[name])() for name in ENGINES[ENGINES.index(engine):]
             if name in engines.fast]
    chain.append(resolve(engines.reference)() if engines.reference else StateEngine())
    return tuple(chain)


def prepare_engines(game, engine: str = "fast") -> tuple[Engine, ...]:
    """The chain ``engines_for(game, engine)``, each engine prepared for ``game``
    (``Engine.prepare``): call it before a clock starts."""
    chain = engines_for(game, engine)
    for member in chain:
        member.prepare(game)
    return chain


def play_in_process(jobs: Sequence[MatchJob], engines: Sequence[Engine]) -> list[MatchSummary]:
    """Every job's summary: each engine plays what the ones before it declined."""
    out: list[MatchSummary | None] = [None] * len(jobs)
    pending = list(range(len(jobs)))
    for engine in engines:
        if not pending:
            break
        declined = []
        for k, summary in zip(pending, engine.play([jobs[k] for k in pending])):
            if summary is None:
                declined.append(k)
            else:
                out[k] = summary
        pending = declined
    if pending:
        raise ValueError(f"no engine of {list(engines)} plays job {jobs[pending[0]]}")
    return out  # type: ignore[return-value]


def _play_one(engines: tuple[Engine, ...], job: MatchJob) -> MatchSummary:
    return play_in_process([job], engines)[0]


def play_jobs(jobs: Sequence[MatchJob], engines: Sequence[Engine],
              map: Callable[[Callable, list], list] | None = None) -> list[MatchSummary]:
    """Every job's summary, in job order, through ``map``.

    In process (no ``map`` or ``SerialMap``) the engines see the whole batch at once
    (a fast engine steps every pairing together); otherwise each job goes to a
    worker, which runs the chain on it. A batch whose worker died is played again
    up to the engines' ``retries`` times."""
    engines = tuple(engines)
    if map is None or isinstance(map, SerialMap):
        return play_in_process(jobs, engines)
    retries = max(e.retries for e in engines)
    return _retrying(lambda: map(functools.partial(_play_one, engines), list(jobs)), retries)


def _retrying(call: Callable[[], list], retries: int) -> list:
    for attempt in range(retries + 1):
        try:
            return call()
        except WorkerDied as err:
            if attempt == retries:
                raise WorkerDied(f"workers kept dying ({retries + 1} attempts): {err}") from err
            log.warning("a batch lost a worker (attempt %d): %s", attempt + 1, err)
    raise AssertionError("unreachable")
