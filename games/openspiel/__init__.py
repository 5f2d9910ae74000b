"""OpenSpiel's two-player, zero-sum, sequential games as stratsynth games.

``openspiel:NAME`` is OpenSpiel's game ``NAME`` (``stratsynth play
openspiel:connect_four``); its parameters are OpenSpiel's (``--game-param rows=5``)
plus ``max_moves`` and ``search_depth``. The spec of each is made on first use
(``games.game_spec`` asks ``family_spec``), with the players of
``games.openspiel.players``, the observation language of
``gp.languages.openspiel`` and the features of ``games.openspiel.features``.
Needs the ``openspiel`` extra (``pip install 'stratsynth[openspiel]'``).
"""

from __future__ import annotations

from ..spec import CLISpec, GameSpec, QDSpec, SynthesisSpec, register_game
from .factories import move_cap
from .game import PREFIX, OpenSpielGame, game_type, pyspiel, refusal

LANGUAGE = "obs-eval"


def family_spec(name: str) -> GameSpec:
    """The spec of ``openspiel:NAME``, registered on first use; ValueError (one line) for
    an unknown game or one stratsynth cannot play."""
    kind = game_type(name)
    problem = refusal(name, kind)
    if problem:
        raise ValueError(problem)
    perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    prefixes = {"mcts": "games.openspiel.players:mcts"}
    if perfect:
        prefixes["alphabeta"] = "games.openspiel.players:alphabeta"
    spec = GameSpec(
        name=PREFIX + name,
        summary=f"OpenSpiel's {kind.long_name}",
        factory=f"games.openspiel.factories:{name}",
        players="games.openspiel.players:" + (
            "PLAYERS" if perfect else "IMPERFECT_INFORMATION_PLAYERS"),
        synthesis=SynthesisSpec(
            languages={LANGUAGE: "gp.languages.openspiel:ObservationEvalPlayer"},
            default_target="random",
            default_matches=20,
        ),
        qd=QDSpec(features="games.openspiel.features:FEATURES"),
        cli=CLISpec(move_cap=move_cap(name), player_prefixes=prefixes),
    )
    return register_game(spec)


__all__ = ["OpenSpielGame", "family_spec"]
