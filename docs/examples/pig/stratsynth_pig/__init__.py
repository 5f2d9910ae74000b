"""Pig, the dice game, as a stratsynth game from outside the stratsynth repository.

Installing this package makes ``pig`` a game of every stratsynth command through
the ``stratsynth.games`` entry point (``pyproject.toml``); this module registers it.
Every reference below is an absolute ``module:attribute``, imported when used.
"""

from __future__ import annotations

from games.spec import CLISpec, GameSpec, QDSpec, SynthesisSpec, register_game

from .players import PLAYERS
from .rules import Pig, PigState

register_game(GameSpec(
    name="pig",
    summary="Pig, the dice game: roll to add, hold to bank, a 1 loses the turn",
    factory="stratsynth_pig.rules:Pig",
    players="stratsynth_pig.players:PLAYERS",
    synthesis=SynthesisSpec(
        languages={"hold-rule": "stratsynth_pig.language:HoldRulePlayer"},
        default_target="hold20",
        default_matches=200,
        cloning={"A": "gp.cloning:action_cloning"},
    ),
    qd=QDSpec(features="stratsynth_pig.features:FEATURES"),
    cli=CLISpec(move_cap="max_moves"),
))

__all__ = ["PLAYERS", "Pig", "PigState"]
