"""A semantic neighbourhood: neighbours that change what the program does.

Small syntactic edits often leave a program's choices unchanged, so a local search
spends evaluations on programs that play exactly like the one it has. This
neighbourhood (after library-induced semantic spaces, Moraes and Lelis, IJCAI 2024)
keeps a *library* of behaviourally distinct programs met during the search and all
their subtrees (*fragments*, by type). A neighbour replaces a uniformly chosen
subtree by a library fragment of the same type such that the new program acts
differently, on the recorded states, from the current one, and that it has not
offered before (a library move could otherwise swap a fragment back and spend an
evaluation on a program already scored); with probability
``semantic_epsilon`` (or when no fragment gives such a program) it is an ordinary
syntactic neighbour instead.

Behaviour is what the game declares (``games.behaviour``, ``SynthesisSpec.behaviour``):
a program's actions on states recorded from matches against the declared opponent,
played on the run's own game object (its parameters: the map a microRTS run plays)
when the search passes it, else on the game at its default parameters.
The states are recorded from the start program, and again from the program each
new schedule starts from; the library then keeps one program per behaviour under
the new states. Programs enter the library when the search starts from them and
each time one beats the best so far. Fragments are kept once per text (two
fragments may behave alike inside different programs).

Every random choice (the recording matches' seed, the subtree, the fragments tried)
comes from the search's ``rng``; signatures depend only on the program and the
states. The same seed gives the same run in every process, and a resumed run
replays the same neighbours.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from functools import partial
from typing import Any

from deap import gp

from games import game_names, game_players, game_spec, load_game
from games.behaviour import actions_on
from games.spec import resolve

from .dsl import subtree_end

NODE_TRIES = 10
"""Subtrees tried per library move before falling back to a syntactic move."""

FRAGMENT_TRIES = 10
"""Fragments tried per subtree (each costs a run of the program on the states)."""

CACHE_SIZE = 20_000
"""Signatures kept per set of states (a cache: it changes no result)."""


def _key(nodes: Sequence) -> tuple[str, ...]:
    """A program's (or fragment's) identity: its nodes' names in prefix order."""
    return tuple(node.name for node in nodes)


class Behaviour:
    """A program's signature: its actions on the states recorded last.

    Args:
        game: the game object the states belong to.
        strategy_class: the language's program player (``ProgramPlayer``).
        recorder: the game's declared recorder (``games.behaviour``).
        opponent: the player the recording matches are played against.
    """

    def __init__(self, *, game, strategy_class, recorder, opponent) -> None:
        self.game, self.strategy_class = game, strategy_class
        self.recorder, self.opponent = recorder, opponent
        self.states: list[Any] = []
        self._signature = getattr(recorder, "signature", None) or partial(
            actions_on, key=recorder.key)
        self._cache: OrderedDict[tuple[str, ...], tuple] = OrderedDict()

    def record(self, program: Sequence, rng: random.Random) -> None:
        """Record new states from ``program``'s matches (seeded from ``rng``)."""
        self.states = self.recorder.record(self.game, self._player(program), self.opponent, rng)
        self._cache.clear()

    def _player(self, program: Sequence):
        return self.strategy_class(gp.PrimitiveTree(list(program)))

    def of(self, program: Sequence) -> tuple:
        """The actions (by the game's key) ``program`` takes in each recorded state."""
        key = _key(program)
        signature = self._cache.get(key)
        if signature is None:
            try:
                player = self._player(program)
            except Exception:  # a program that does not compile acts like no other
                signature = ("<fails>",)
            else:
                signature = self._signature(player, self.states)
            self._cache[key] = signature
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return signature


class Library:
    """Behaviourally distinct programs and their fragments by type, in the order met.

    Args:
        behaviour: what tells programs apart (``Behaviour.of``).
    """

    def __init__(self, behaviour) -> None:
        self.behaviour = behaviour
        self.programs: dict[tuple, list] = {}
        self.fragments: dict[Any, list[list]] = {}
        self._fragment_keys: set[tuple[str, ...]] = set()

    def add(self, program: Sequence) -> bool:
        """Keep ``program`` and its fragments if no kept program behaves like it."""
        nodes = list(program)
        signature = self.behaviour.of(nodes)
        if signature in self.programs:
            return False
        self.programs[signature] = nodes
        for begin in range(len(nodes)):
            fragment = nodes[begin:subtree_end(nodes, begin)]
            key = (nodes[begin].ret.__name__, *_key(fragment))  # one text may have two types
            if key not in self._fragment_keys:
                self._fragment_keys.add(key)
                self.fragments.setdefault(nodes[begin].ret, []).append(fragment)
        return True

    def regroup(self) -> None:
        """After new states: keep the first program of each behaviour (fragments stay)."""
        programs, self.programs = list(self.programs.values()), {}
        for nodes in programs:
            self.programs.setdefault(self.behaviour.of(nodes), nodes)

    def of_type(self, type_: Any) -> list[list]:
        return self.fragments.get(type_, [])


class SemanticNeighbourhood:
    """Library moves with probability ``1 - semantic_epsilon``, else syntactic ones.

    Args:
        language: the run's DSL.
        settings: the search's settings (``semantic_epsilon``).
        game: the run's game object, whose parameters the recording matches are played
            with; None: the game that declares ``language``, at its default parameters.
        behaviour: what tells programs apart; by default the one the game that
            declares ``language`` records on ``game`` (``behaviour_for``).
    """

    def __init__(self, *, language, settings, game=None,
                 behaviour: Behaviour | None = None) -> None:
        self.language = language
        self.epsilon = settings.semantic_epsilon
        self.behaviour = behaviour if behaviour is not None else \
            behaviour_for(language, game=game)
        self.library = Library(self.behaviour)
        self._offered: set[tuple[str, ...]] = set()

    @staticmethod
    def check(spec) -> str | None:
        """Why the game ``spec`` cannot have this neighbourhood, or None."""
        if spec.synthesis.behaviour is None:
            return (f"game {spec.name} declares no behaviour to compare programs on "
                    "(SynthesisSpec.behaviour)")
        return None

    def start(self, program, rng: random.Random) -> None:
        self.behaviour.record(program, rng)
        self.library.add(program)
        self._offered.add(_key(program))

    def improved(self, program, value: float) -> None:
        self.library.add(program)

    def restart(self, best, rng: random.Random) -> None:
        self.behaviour.record(best, rng)
        self.library.regroup()
        self.library.add(best)

    def __call__(self, program, rng: random.Random):
        if self.library.fragments and rng.random() >= self.epsilon:
            moved = self.library_move(list(program), rng)
            if moved is not None:
                return type(program)(moved)
        return self.language.neighbour(program, rng)

    def library_move(self, nodes: list, rng: random.Random) -> list | None:
        """``nodes`` with a subtree replaced by a same-typed library fragment that
        changes the behaviour and gives a program not offered before (swapping
        fragments back and forth would otherwise spend evaluations on programs already
        scored), or None if none of the tries finds one."""
        current = self.behaviour.of(nodes)
        for _ in range(NODE_TRIES):
            begin = rng.randrange(len(nodes))
            end = subtree_end(nodes, begin)
            old = _key(nodes[begin:end])
            options = [f for f in self.library.of_type(nodes[begin].ret) if _key(f) != old]
            if not options:
                continue
            for fragment in rng.sample(options, min(len(options), FRAGMENT_TRIES)):
                candidate = nodes[:begin] + fragment + nodes[end:]
                key = _key(candidate)
                if key in self._offered or \
                        not self.language.within_limits(gp.PrimitiveTree(candidate)):
                    continue
                if self.behaviour.of(candidate) != current:
                    self._offered.add(key)
                    return candidate
        return None


def behaviour_for(language, *, game=None) -> Behaviour:
    """The behaviour of the first game (by name) whose language ``language`` is and that
    declares how to record it (``SynthesisSpec.behaviour``), recorded on ``game`` (that
    game's object with a run's parameters; None: the game at its default parameters).
    ``ValueError`` if no game does."""
    for name in game_names():
        try:
            spec = game_spec(name)
        except ValueError:
            continue
        if spec.synthesis.behaviour is None:
            continue
        for reference in spec.synthesis.languages.values():
            strategy_class = resolve(reference)
            if strategy_class.default_dsl() is language:
                recorder = resolve(spec.synthesis.behaviour)
                opponent = game_players(name)[recorder.opponent]()
                return Behaviour(game=load_game(name) if game is None else game,
                                 strategy_class=strategy_class,
                                 recorder=recorder, opponent=opponent)
    raise ValueError(f"the semantic neighbourhood needs a game that records behaviour "
                     f"for language {language.name}; none declares it "
                     "(SynthesisSpec.behaviour)")
