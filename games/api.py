"""The game API every game and search method in stratsynth speaks.

It follows OpenSpiel's shape (``current_player``, ``legal_actions``,
``apply_action``, ``is_terminal``, ``returns``, ``clone``) so that users who know
OpenSpiel can plug a game in without reading our code. Chance is not a separate
player: each state draws dice (or any chance outcome) from a seeded
``random.Random`` that the match owns, which keeps a match reproducible from one
integer seed and keeps the hot loop free of chance nodes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

Action = Hashable
"""An action is any hashable value; each game documents its own encoding."""


@runtime_checkable
class State(Protocol):
    """A position of a two-player game, mutated in place by ``apply_action``."""

    def current_player(self) -> int:
        """Seat to act (0 or 1); -1 once the game is over."""

    def legal_actions(self) -> Sequence[Action]:
        """Actions the current player may take; empty once the game is over."""

    def apply_action(self, action: Action) -> None:
        """Play ``action`` for the current player; raises ValueError if illegal."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """Per-seat outcome: +1 win, -1 loss, 0 draw or capped / unfinished."""

    def winner(self) -> int | None:
        """Seat of the winner, or None (draw, capped or unfinished)."""

    def is_capped(self) -> bool:
        """True if the match was stopped by the move cap (a win for no one)."""

    def move_number(self) -> int:
        """Decisions applied so far (the unit of the move cap)."""

    def clone(self) -> State:
        """An independent copy, including the chance RNG's position."""

    def action_to_string(self, action: Action) -> str: ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot that ``Game.state_from_dict`` restores."""


@runtime_checkable
class Game(Protocol):
    """Factory of initial states plus the game's metadata."""

    name: str
    num_players: int

    def new_initial_state(self, rng: random.Random | None = None) -> State: ...

    def state_from_dict(self, data: dict[str, Any], rng: random.Random | None = None) -> State: ...

    def action_from_json(self, value: Any) -> Action:
        """Inverse of the JSON encoding used in match records."""


@runtime_checkable
class Strategy(Protocol):
    """A player: any callable ``state -> action``.

    A strategy may also define ``reset(seed: int) -> None``; the match runner calls
    it before every match so that randomised players are reproducible per match.
    """

    def __call__(self, state: State) -> Action: ...


class GameBase:
    """Declared defaults of a game object's optional attributes.

    Subclass it, or declare the attributes on your own class: generic code reads
    them through ``declared``, which falls back to these values."""

    __slots__ = ()
    name: str = ""
    num_players: int = 2
    draw_value: float = 0.0
    """What a draw or a capped match scores in Ψ (microRTS and Expendibots ½)."""
    margin: Callable[[Any, int], float] | None = None
    """``margin(state, seat)`` in [-1, 1]: how far ahead the seat is at the end (a
    tie-break among equal Ψ, ``WinRate``'s ``margin_weight``), or None."""


class StateBase:
    """Declared defaults of a state's optional methods (see ``GameBase``)."""

    __slots__ = ()

    def describe_transition(self, before: Any) -> list[str]:
        """Lines that say what happened since ``before`` beyond the action (dice
        rolled, a bust), for ``stratsynth play --human``; none by default."""
        return []


class StrategyBase:
    """Declared defaults of a player's optional attributes (see ``GameBase``)."""

    __slots__ = ()

    failure_scores_zero: bool = False
    """True if the player's language scores a program that fails in a match 0 (its
    Ψ evaluation counts it as failed), as the sketch-learning paper's reference code does."""

    def reset(self, seed: int) -> None:
        """Reseed before a match (randomised players); nothing by default."""


def declared(obj: Any, name: str, base: type) -> Any:
    """``obj``'s attribute ``name``, or the default ``base`` declares for it: objects
    that do not subclass ``GameBase`` / ``StrategyBase`` still work where they
    declare the attribute themselves."""
    return getattr(obj, name, getattr(base, name))


def draw_value(game: Game) -> float:
    """What a draw or a capped match of ``game`` scores (``GameBase.draw_value``)."""
    return declared(game, "draw_value", GameBase)


def margin_of(game: Game) -> Callable[[Any, int], float] | None:
    """The game's ``margin(state, seat)`` hook, or None (``GameBase.margin``)."""
    return declared(game, "margin", GameBase)


def reset_player(player: Strategy, seed: int) -> None:
    """Reseed a player before a match where it declares ``reset`` (``StrategyBase``)."""
    reset = declared(player, "reset", StrategyBase)
    if reset is not StrategyBase.reset:
        reset(seed)


def describe_transition(state: State, before: State) -> list[str]:
    """``state.describe_transition(before)`` where the state has it (``StateBase``)."""
    describe = declared(state, "describe_transition", StateBase)
    return [] if describe is StateBase.describe_transition else describe(before)


def failure_scores_zero(player: Any) -> bool:
    """Whether a player (or player class) scores its failures 0 (``StrategyBase``)."""
    return bool(declared(player, "failure_scores_zero", StrategyBase))


class RandomStrategy(StrategyBase):
    """Uniformly random legal action: the weakest baseline of every game."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self._rng.seed(seed)

    def __call__(self, state: State) -> Action:
        legal = state.legal_actions()
        return legal[int(self._rng.random() * len(legal))]

    def __repr__(self) -> str:
        return "RandomStrategy()"


def two_player_returns(winner: int | None) -> list[float]:
    """Zero-sum returns by seat: +1 / −1 for a win, 0 / 0 otherwise."""
    if winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
