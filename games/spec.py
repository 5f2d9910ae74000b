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
class GameSpec:
    """What generic code needs to know about a game.

    Args:
        name: the name users type (``stratsynth play NAME``).
        summary: one line for ``--help`` and the docs.
        factory: reference to ``Game(**params)``; its keyword arguments are the
            game parameters (``--game-param KEY=VALUE``).
        players: reference to a dict ``spec name -> factory()`` of built-in players.
        default_target: player spec that Ψ is measured against by default.
        languages: DSL name -> reference to its program strategy class (a
            ``gp.dsl.ProgramPlayer``); the first is the default (``--dsl``).
        features: reference to ``FEATURES`` (name -> (function(state, seat), (low, high)))
            for QD and HSS, or None.
        levels: reference to the reference values HSS snaps features to, or None.
        cloning: score letter (``A`` actions, ``O`` observations) -> reference to
            ``build(data_path, game, strategy_class, psi) -> metric``.
        player_prefixes: spec prefix -> reference to ``factory(argument)`` for
            game-only player specs such as ``weights:FILE``.
        commands: subcommand name -> reference to ``add_parser(subparsers)`` for
            commands that exist for this game only (e.g. ``tdleaf``).
        move_cap: the game parameter that caps a match's length (``--max-moves``),
            or None if the game ends by itself.
        default_matches: matches per Ψ evaluation unless a run says otherwise.
        engine: ``python`` (in-process states) or ``jvm`` (a Java engine plays
            whole matches; no per-move state API).
        recorder: reference to ``record(game, players, specs, matches, seed, output,
            winner_only, self_play, map) -> int`` if the game records its own
            format instead of (state, action) pairs.
        fast_engine: module of an engine that plays whole batches of matches with
            the same results as the states (``games.match.fast_engine``), or None.
        notes: reference to a function returning lines for ``play --help`` (maps,
            which players a seed cannot fix, ...), or None.
        paper_settings: the run settings that ``paper = true`` (``--paper``) stands
            for: a seed paper's own language and schedules where they differ from
            ours (e.g. ``{"dsl": ..., "sketch_schedule": "reference"}``); settings a
            run gives explicitly win. Empty: the game has no paper mode.
        qd_space: reference to a ``qd.vectors.VectorSpace`` if ``stratsynth qd GAME``
            searches a parameter vector (Tribes: script weights, seed 002) instead of
            programs of the game's language; None: programs.

    What a draw or a capped match scores in Ψ is the game object's own
    ``draw_value`` (0 unless it says; microRTS ½, as seed 000 scores it).
    """

    name: str
    summary: str
    factory: str
    players: str
    default_target: str = "random"
    languages: Mapping[str, str] = field(default_factory=dict)
    features: str | None = None
    levels: str | None = None
    cloning: Mapping[str, str] = field(default_factory=dict)
    player_prefixes: Mapping[str, str] = field(default_factory=dict)
    commands: Mapping[str, str] = field(default_factory=dict)
    move_cap: str | None = "max_moves"
    default_matches: int = 1000
    engine: str = "python"
    recorder: str | None = None
    fast_engine: str | None = None
    notes: str | None = None
    paper_settings: Mapping[str, Any] = field(default_factory=dict)
    qd_space: str | None = None

    def language(self, dsl: str | None = None):
        """The program strategy class of ``dsl`` (default: the game's first language)."""
        if not self.languages:
            raise ValueError(f"game '{self.name}' has no language for programs yet")
        if dsl is None:
            dsl = next(iter(self.languages))
        if dsl not in self.languages:
            raise ValueError(f"game '{self.name}' has no language '{dsl}' "
                             f"(known: {', '.join(self.languages)})")
        return resolve(self.languages[dsl])

    def feature_table(self) -> dict:
        if self.features is None:
            raise ValueError(f"game '{self.name}' declares no behaviour features")
        return resolve(self.features)

    def feature_levels(self):
        return None if self.levels is None else resolve(self.levels)


_REGISTRY: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    """Make a game known to every tool; a second registration under a name replaces it."""
    _REGISTRY[spec.name] = spec
    return spec
