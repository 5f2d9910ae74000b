"""Neighbourhoods of the local searches: how SA (and any search that takes one) draws
the next program to try.

A neighbourhood is built once per run by ``make_neighbourhood(name, language=...,
settings=..., game=...)`` and then:

* ``start(program, rng)``: told the program the search starts from;
* ``__call__(program, rng)``: a neighbour of ``program``;
* ``improved(program, value)``: told each program that beats the best so far;
* ``restart(best, rng)``: told where each new schedule (or climb) starts.

``syntactic`` (the default) regrows a random subtree (``DSL.neighbour``) and ignores
the notices. Others are found by name: the built-ins, then the
``stratsynth.neighbourhoods`` entry-point group (value ``package.module:factory``,
``factory(*, language, settings) -> neighbourhood``; a factory with a ``game``
parameter is also given the run's game object, so that what it records is played with
the run's own parameters). Every random choice comes from the ``rng`` the search
passes, so a run stays reproducible and resumable.
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from .registry import Registry

ENTRY_POINT_GROUP = "stratsynth.neighbourhoods"

BUILTIN_NEIGHBOURHOODS = {
    "syntactic": "gp.neighbourhoods:SyntacticNeighbourhood",
    "semantic": "gp.semantic:SemanticNeighbourhood",
}
"""Name -> reference to the neighbourhood's factory."""

NEIGHBOURHOOD_HELP = ("neighbourhood of the local search: syntactic (regrow a random "
                      "subtree) or semantic (put in a library fragment that changes what the "
                      "program does on recorded states)")


class Neighbourhood(Protocol):
    def start(self, program: Any, rng: random.Random) -> None: ...

    def __call__(self, program: Any, rng: random.Random) -> Any: ...

    def improved(self, program: Any, value: float) -> None: ...

    def restart(self, best: Any, rng: random.Random) -> None: ...


class SyntacticNeighbourhood:
    """Regrow a uniformly chosen subtree with the language's typed generator."""

    def __init__(self, *, language, settings: Any = None) -> None:
        self.language = language

    def start(self, program, rng) -> None:
        pass

    def __call__(self, program, rng):
        return self.language.neighbour(program, rng)

    def improved(self, program, value) -> None:
        pass

    def restart(self, best, rng) -> None:
        pass


NEIGHBOURHOODS: Registry[Any] = Registry(noun="neighbourhood", group=ENTRY_POINT_GROUP,
                                         builtin_refs=BUILTIN_NEIGHBOURHOODS)


def neighbourhood_names() -> list[str]:
    """The built-in names, then installed plug-ins' (not imported)."""
    return NEIGHBOURHOODS.names()


def neighbourhood_factory(name: str):
    """The factory of the neighbourhood ``name``; ``ValueError`` naming the known ones."""
    return NEIGHBOURHOODS.get(name)


def make_neighbourhood(name: str, *, language, settings: Any, game: Any = None) -> Neighbourhood:
    """The neighbourhood ``name`` for a search over ``language`` with ``settings``, on the
    run's ``game`` object (passed to a factory that has a ``game`` parameter; None: the
    caller has none); ``ValueError`` naming the known ones, or why it cannot serve this
    language."""
    factory = neighbourhood_factory(name)
    if game is not None and "game" in inspect.signature(factory).parameters:
        return factory(language=language, settings=settings, game=game)
    return factory(language=language, settings=settings)


def check_neighbourhood(*, game: str, settings: Any, where: str) -> None:
    """Refuse, before a run writes anything, a neighbourhood its game cannot serve: a
    factory may declare ``check(game_spec) -> problem or None``."""
    from games import game_spec

    name = getattr(settings, "neighbourhood", None)
    if name is None:
        return
    check = getattr(neighbourhood_factory(name), "check", None)
    problem = None if check is None else check(game_spec(game))
    if problem:
        raise ValueError(f"{where}: neighbourhood {name}: {problem}")


@dataclass(frozen=True, kw_only=True)
class NeighbourhoodSettings:
    """The settings a local search with a choice of neighbourhood carries."""

    neighbourhood: str = field(default="syntactic", metadata={"help": NEIGHBOURHOOD_HELP})
    semantic_epsilon: float = field(default=0.2, metadata={
        "help": "semantic neighbourhood: probability of a syntactic move instead of a "
                "library one", "minimum": 0.0, "maximum": 1.0})

    def __post_init__(self) -> None:
        if self.neighbourhood not in neighbourhood_names():
            raise ValueError(f"neighbourhood must be one of "
                             f"{', '.join(neighbourhood_names())}, got {self.neighbourhood!r}")
