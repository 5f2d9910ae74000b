"""A game declares itself once: ``register_game(GameSpec(...))``.

Everything generic (match runner, synthesis, QD, the CLI) reads a game's
``GameSpec`` instead of testing its name. Heavy parts (a language, an engine, a
feature table) are named by reference, ``"package.module:attribute"``, and
imported only when used, so listing games or printing ``--help`` stays cheap.
This follows OpenSpiel's ``pyspiel.register_game``: a game module ends with one
registration call.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def resolve(reference: str) -> Any:
    """``"package.module:attribute"`` -> the attribute (imported on first use)."""
    module, _, attribute = reference.partition(":")
    if not attribute:
        raise ValueError(f"'{reference}' is not a 'module:attribute' reference")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True, kw_only=True)
class SynthesisSpec:
    """What program synthesis needs: the languages, the default opponent and matches.

    Args:
        languages: DSL name -> reference to its program strategy class (a
            ``gp.dsl.ProgramPlayer``); the first is the default (``--dsl``).
        language_aliases: former DSL name -> its current name (``--dsl`` and
            ``config.json`` accept either).
        default_target: player spec that Ψ is measured against unless a run names one.
        default_matches: matches per Ψ evaluation unless a run says otherwise.
        cloning: score letter (``A`` actions, ``O`` observations) -> reference to
            ``build(data_path, game, strategy_class, psi) -> metric``.
        paper_settings: the run settings that ``paper = true`` (``--paper``) stands
            for: a paper's own language and schedules where they differ from
            ours (e.g. ``{"dsl": ..., "sketch_schedule": "reference"}``); settings a
            run gives explicitly win. Empty: the game has no paper mode.
        behaviour: reference to how the game records the states programs are
            compared on and compares their actions (``games.behaviour``), for a
            semantic neighbourhood; None: the game declares none.
    """

    languages: Mapping[str, str] = field(default_factory=dict)
    language_aliases: Mapping[str, str] = field(default_factory=dict)
    default_target: str = "random"
    default_matches: int = 1000
    cloning: Mapping[str, str] = field(default_factory=dict)
    paper_settings: Mapping[str, Any] = field(default_factory=dict)
    behaviour: str | None = None

    def target(self, given: str | None = None) -> str:
        """The opponent spec a run plays: the one it gives, else the game's default."""
        return given or self.default_target

    def matches(self, given: int | None = None) -> int:
        """Matches per Ψ evaluation: the run's, else the game's default."""
        return given or self.default_matches


@dataclass(frozen=True, kw_only=True)
class QDSpec:
    """What quality-diversity search and HSS need.

    Args:
        features: reference to ``FEATURES`` (name -> (function(state, seat), (low, high))),
            read off each match's final state, or None.
        levels: reference to the reference values HSS snaps features to, or None.
        space: reference to a ``games.vectors.VectorSpace`` if
            ``stratsynth qd GAME`` searches a parameter vector (Tribes: script
            weights) instead of programs of the game's language; None: programs.
    """

    features: str | None = None
    levels: str | None = None
    space: str | None = None


@dataclass(frozen=True, kw_only=True)
class CLISpec:
    """What the command line needs beyond the generic commands.

    Args:
        commands: subcommand name -> reference to ``add_parser(subparsers)`` for
            commands that exist for this game only (e.g. ``tdleaf``).
        notes: reference to a function returning lines for ``play --help`` (maps,
            which players a seed cannot fix, ...), or None.
        player_prefixes: spec prefix -> reference to ``factory(argument)`` for
            game-only player specs such as ``weights:FILE``.
        player_aliases: former built-in player name -> its current name, so that
            committed runs and results naming the old spec still load.
        recorder: reference to ``record(game, players, specs, matches, seed, output,
            winner_only, self_play, map) -> int`` if the game records its own
            format instead of (state, action) pairs.
        move_cap: the game parameter that caps a match's length (``--max-moves``),
            or None if the game ends by itself.
    """

    commands: Mapping[str, str] = field(default_factory=dict)
    notes: str | None = None
    player_prefixes: Mapping[str, str] = field(default_factory=dict)
    player_aliases: Mapping[str, str] = field(default_factory=dict)
    recorder: str | None = None
    move_cap: str | None = "max_moves"


@dataclass(frozen=True, kw_only=True)
class EngineSpec:
    """How the game's matches are played (``games.engines``).

    Args:
        kind: ``python`` (in-process states: the state engine plays any match) or
            ``jvm`` (an engine plays whole matches; no per-move state API).
        reference: reference to the engine that plays every match, or None for the
            state engine (``games.engines.StateEngine``).
        fast: engine choice (``fast``, ``numpy``) -> reference to an engine that
            plays what it can with the reference engine's results and declines the
            rest. ``engine="fast"`` tries the ``fast`` engine, then ``numpy``, then
            the reference; ``engine="numpy"`` starts at ``numpy``.
    """

    kind: str = "python"
    reference: str | None = None
    fast: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """What generic code needs to know about a game: what the game is, plus one
    record per layer that consumes it.

    Args:
        name: the name users type (``stratsynth play NAME``).
        summary: one line for ``--help`` and the docs.
        factory: reference to ``Game(**params)``; its keyword arguments are the
            game parameters (``--game-param KEY=VALUE``).
        players: reference to a dict ``spec name -> factory()`` of built-in players.
        synthesis: languages, default opponent and matches, cloning scores, paper mode.
        qd: behaviour features, HSS levels, a parameter-vector space.
        cli: game-only commands, player prefixes, recorder, move cap, help notes.
        engines: how matches are played (state engine, a JVM, fast engines).

    What a draw or a capped match scores in Ψ is the game object's own
    ``draw_value`` (``games.api.GameBase``: 0 unless it says; microRTS ½).
    """

    name: str
    summary: str
    factory: str
    players: str
    synthesis: SynthesisSpec = field(default_factory=SynthesisSpec)
    qd: QDSpec = field(default_factory=QDSpec)
    cli: CLISpec = field(default_factory=CLISpec)
    engines: EngineSpec = field(default_factory=EngineSpec)

    def language(self, dsl: str | None = None):
        """The program strategy class of ``dsl`` (default: the game's first language)."""
        languages = self.synthesis.languages
        if not languages:
            raise ValueError(f"game '{self.name}' has no language for programs yet")
        if dsl is None:
            dsl = next(iter(languages))
        dsl = self.synthesis.language_aliases.get(dsl, dsl)
        if dsl not in languages:
            raise ValueError(f"game '{self.name}' has no language '{dsl}' "
                             f"(known: {', '.join(languages)})")
        return resolve(languages[dsl])

    def feature_table(self) -> dict:
        if self.qd.features is None:
            raise ValueError(f"game '{self.name}' declares no behaviour features")
        return resolve(self.qd.features)

    def feature_levels(self):
        return None if self.qd.levels is None else resolve(self.qd.levels)


_REGISTRY: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    """Make a game known to every tool; a second registration under a name replaces it."""
    _REGISTRY[spec.name] = spec
    return spec


def registered_spec(name: str) -> GameSpec | None:
    """The spec registered under ``name``, or None (no import is attempted)."""
    return _REGISTRY.get(name)
