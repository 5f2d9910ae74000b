"""Behaviour features of any OpenSpiel game, read off a match's final state.

Derived from what every OpenSpiel game has: the history of actions and the
observation tensor (``games.openspiel.observation``).

* ``game_length``: decisions played / the game's longest possible match;
* ``first_move``: the seat's first action, as a share of the action ids (0 … 1):
  which opening it prefers;
* ``mean_action``: the mean of the seat's action ids, the same way;
* ``material``: the seat's share of the pieces on its and the opponent's planes at
  the end (½ when neither has any, and in games whose planes have no owner).

A user declares more by naming them ``module:NAME`` in ``--features``, where
``NAME`` is ``(function(state, seat) -> float, (low, high))``: e.g.
``stratsynth qd openspiel:connect_four --features game_length,mylab.features:centre``.
"""

from __future__ import annotations

from games.spec import resolve

from .observation import layout_of, observation


def game_length(state, seat: int) -> float:
    longest = state.game.pyspiel_game.max_game_length()
    return min(1.0, state.move_number() / longest) if longest > 0 else 0.0


def _own_actions(state, seat: int) -> list[int]:
    return [step.action for step in state.inner.full_history() if step.player == seat]


def first_move(state, seat: int) -> float:
    actions = _own_actions(state, seat)
    top = state.game.pyspiel_game.num_distinct_actions() - 1
    return actions[0] / top if actions and top > 0 else 0.0


def mean_action(state, seat: int) -> float:
    actions = _own_actions(state, seat)
    top = state.game.pyspiel_game.num_distinct_actions() - 1
    return sum(actions) / len(actions) / top if actions and top > 0 else 0.0


def material(state, seat: int) -> float:
    layout = layout_of(state.game)
    tensor = observation(state.inner, seat, layout.shape)
    mine = float(tensor[list(layout.mine[seat])].sum()) if layout.mine[seat] else 0.0
    theirs = float(tensor[list(layout.theirs[seat])].sum()) if layout.theirs[seat] else 0.0
    return mine / (mine + theirs) if mine + theirs > 0 else 0.5


class FeatureTable(dict):
    """The generic features, plus any ``module:NAME`` a run names (imported on use)."""

    def __contains__(self, name) -> bool:
        if dict.__contains__(self, name):
            return True
        try:
            self[name]
        except (KeyError, ValueError, ImportError, AttributeError):
            return False
        return True

    def __missing__(self, name):
        if not isinstance(name, str) or ":" not in name:
            raise KeyError(name)
        declared = resolve(name)
        try:
            function, (low, high) = declared
            low, high = float(low), float(high)
        except (TypeError, ValueError):
            function, low, high = None, 0.0, 0.0
        if not callable(function) or not low < high:
            raise ValueError(f"feature {name}: expected (function(state, seat), (low, high))")
        return (function, (low, high))


FEATURES = FeatureTable({
    "game_length": (game_length, (0.0, 1.0)),
    "first_move": (first_move, (0.0, 1.0)),
    "mean_action": (mean_action, (0.0, 1.0)),
    "material": (material, (0.0, 1.0)),
})
