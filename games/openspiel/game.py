"""An OpenSpiel game as a stratsynth game: ``OpenSpielGame`` and its ``OpenSpielState``.

Any two-player, zero-sum (or constant-sum), sequential OpenSpiel game is accepted;
the others are refused with one line. OpenSpiel's chance nodes are not shown to
players: each state resolves them as soon as they come up, drawing the outcome
from the match's seeded ``random.Random`` (``games.api``), so a match is the same
for one seed in any process. A state's history (chance outcomes included) is its
``to_dict`` snapshot; a clone copies the RNG's position with the OpenSpiel state.
"""

from __future__ import annotations

import random
from functools import cached_property
from typing import Any

try:
    import pyspiel
except ImportError as err:  # the one line every command shows for openspiel:NAME
    raise ImportError("OpenSpiel is not installed (pip install 'stratsynth[openspiel]')") \
        from err

from ..api import GameBase, StateBase, two_player_returns

PREFIX = "openspiel:"
MOVE_CAP = "max_moves"
"""Our own parameter (not OpenSpiel's): stop a match after this many decisions."""
_ARTICLE = {bool: "a boolean", int: "a whole number", float: "a number"}
_ACCEPTED_UTILITY = (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)


def game_type(name: str):
    """OpenSpiel's registered ``GameType`` of ``name``; ValueError naming close names."""
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if name not in types:
        close = sorted(n for n in types if name[:3] in n) or sorted(types)[:12]
        raise ValueError(f"unknown OpenSpiel game '{name}' (e.g. {', '.join(close[:12])})")
    return types[name]


def refusal(name: str, kind, num_players: int | None = None) -> str | None:
    """Why ``name`` cannot be a stratsynth game (one line), or None."""
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return f"{PREFIX}{name}: {kind.dynamics.name.lower()}-move game (stratsynth plays " \
            "sequential games only)"
    if kind.utility not in _ACCEPTED_UTILITY:
        return f"{PREFIX}{name}: {kind.utility.name.lower().replace('_', '-')} game " \
            "(stratsynth plays zero-sum games only)"
    players = num_players if num_players is not None else \
        (2 if kind.min_num_players <= 2 <= kind.max_num_players else kind.min_num_players)
    if players != 2:
        return f"{PREFIX}{name}: {players}-player game (stratsynth plays two-player games only)"
    return None


def coerce_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Game parameters in the types OpenSpiel declares for them (a JSON ``5`` for a
    float parameter becomes ``5.0``); ValueError naming an unknown or mistyped one."""
    spec = dict(game_type(name).parameter_specification)
    out = {}
    for key, value in params.items():
        if key not in spec:
            raise ValueError(f"{PREFIX}{name}: unknown game parameter '{key}' "
                             f"(known: {', '.join(sorted([*spec, MOVE_CAP]))})")
        default = spec[key]
        kind = type(default)
        if kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false"):
                value = value.lower() == "true"
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = float(value) if ok else value
        else:
            value = value if isinstance(value, str) else str(value)
            ok = True
        if not ok:
            raise ValueError(f"{PREFIX}{name}: game parameter {key}={value!r} is not "
                             f"{_ARTICLE[kind]} (default {default!r})")
        out[key] = value
    return out


class OpenSpielGame(GameBase):
    """An OpenSpiel game by short name and parameters.

    Args:
        name: OpenSpiel's short name (``connect_four``).
        params: OpenSpiel's game parameters (``{"rows": 5}``).
        max_moves: stop a match after this many decisions, a draw (None: the game's
            own end).
        search_depth: the depth of the search that program players of the
            observation language run (``gp.languages.openspiel``): 1 is one ply.
    """

    num_players = 2

    def __init__(self, name: str, params: dict[str, Any] | None = None,
                 max_moves: int | None = None, search_depth: int = 1) -> None:
        self.short_name = name
        self.name = PREFIX + name
        self.params = coerce_params(name, dict(params or {}))
        kind = game_type(name)
        problem = refusal(name, kind)
        if problem:
            raise ValueError(problem)
        try:
            self.pyspiel_game = pyspiel.load_game(name, self.params)
        except pyspiel.SpielError as err:
            raise ValueError(f"{self.name}: {str(err).strip().splitlines()[-1]}") from None
        problem = refusal(name, kind, self.pyspiel_game.num_players())
        if problem:
            raise ValueError(problem)
        if max_moves is not None and (not isinstance(max_moves, int) or max_moves < 1):
            raise ValueError(f"{self.name}: max_moves must be a whole number >= 1")
        if not isinstance(search_depth, int) or not 1 <= search_depth <= 6:
            raise ValueError(f"{self.name}: search_depth must be a whole number in 1..6")
        self.max_moves = max_moves
        self.search_depth = search_depth
        self.type = self.pyspiel_game.get_type()

    def __reduce__(self):  # pyspiel objects are rebuilt from the name in a worker
        return (_rebuild, (self.short_name, self.params, self.max_moves, self.search_depth))

    def __repr__(self) -> str:
        return f"OpenSpielGame({self.short_name!r}, {self.params!r})"

    @cached_property
    def has_chance(self) -> bool:
        return self.type.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC

    @property
    def perfect_information(self) -> bool:
        return self.type.information == pyspiel.GameType.Information.PERFECT_INFORMATION

    def new_initial_state(self, rng: random.Random | None = None) -> OpenSpielState:
        return OpenSpielState(self, self.pyspiel_game.new_initial_state(),
                              rng if rng is not None else random.Random(0))

    def state_from_dict(self, data: dict[str, Any],
                        rng: random.Random | None = None) -> OpenSpielState:
        if data.get("game") != self.name or not isinstance(data.get("history"), list):
            raise ValueError(f"not a {self.name} state: {str(data)[:80]}")
        inner = self.pyspiel_game.new_initial_state()
        decisions = 0
        for action in data["history"]:
            if not isinstance(action, int) or action not in inner.legal_actions():
                raise ValueError(f"{self.name} state: history action {action!r} is illegal")
            decisions += 0 if inner.is_chance_node() else 1
            inner.apply_action(action)
        return OpenSpielState(self, inner, rng if rng is not None else random.Random(0),
                              decisions=decisions)

    def action_from_json(self, value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool) \
                and 0 <= value < self.pyspiel_game.num_distinct_actions():
            return value
        raise ValueError(f"not a {self.name} action: {value!r}")


def _rebuild(name, params, max_moves, search_depth):
    return OpenSpielGame(name, params, max_moves=max_moves, search_depth=search_depth)


def sample_chance(inner, rng: random.Random) -> int:
    """A chance outcome of ``inner`` drawn from ``rng`` (one uniform draw)."""
    outcomes = inner.chance_outcomes()
    draw = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if draw < total:
            return action
    return outcomes[-1][0]


class OpenSpielState(StateBase):
    """A stratsynth state around a ``pyspiel.State`` (never left at a chance node)."""

    __slots__ = ("game", "inner", "rng", "_decisions")

    def __init__(self, game: OpenSpielGame, inner, rng: random.Random,
                 decisions: int = 0) -> None:
        self.game = game
        self.inner = inner
        self.rng = rng
        self._decisions = decisions
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        while self.inner.is_chance_node():
            self.inner.apply_action(sample_chance(self.inner, self.rng))

    def current_player(self) -> int:
        if self.is_terminal():
            return -1
        return self.inner.current_player()

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else self.inner.legal_actions()

    def apply_action(self, action) -> None:
        if self.is_terminal() or not isinstance(action, int) \
                or action not in self.inner.legal_actions():
            raise ValueError(f"illegal {self.game.name} action {action!r}")
        self.inner.apply_action(action)
        self._decisions += 1
        self._resolve_chance()

    def is_capped(self) -> bool:
        cap = self.game.max_moves
        return cap is not None and self._decisions >= cap and not self.inner.is_terminal()

    def is_terminal(self) -> bool:
        return self.inner.is_terminal() or self.is_capped()

    def winner(self) -> int | None:
        if not self.inner.is_terminal():
            return None
        r0, r1 = self.inner.returns()
        return 0 if r0 > r1 else 1 if r1 > r0 else None

    def returns(self) -> list[float]:
        return two_player_returns(self.winner())

    def move_number(self) -> int:
        return self._decisions

    def clone(self) -> OpenSpielState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return OpenSpielState(self.game, self.inner.clone(), rng, self._decisions)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game.name, "history": list(self.inner.history())}

    def action_to_string(self, action) -> str:
        player = self.inner.current_player()
        return self.inner.action_to_string(player if player >= 0 else 0, action)

    def describe_transition(self, before: OpenSpielState) -> list[str]:
        """The chance outcomes drawn since ``before`` (dice, cards)."""
        history = self.inner.history()
        lines = []
        replay = before.inner.clone()
        for action in history[len(before.inner.history()):]:
            if replay.is_chance_node():
                lines.append("chance: " + replay.action_to_string(pyspiel.PlayerId.CHANCE,
                                                                  action))
            replay.apply_action(action)
        return lines

    def __str__(self) -> str:
        return str(self.inner)
