"""Shared State API plumbing for small deterministic two-player board games.

Noughts-and-crosses and Hexapawn keep an immutable board tuple, so ``clone`` is
cheap, positions hash for the minimax value database, and symmetries are
permutations of cells. Chance plays no part; the ``rng`` argument is accepted
for API uniformity and ignored.
"""

from __future__ import annotations

import random
from typing import Any

from .api import GameBase, two_player_returns


class BoardState:
    """A position: ``board`` (tuple of cells), ``player`` to move, outcome once over."""

    __slots__ = ("board", "player", "won_by", "over", "moves", "last_player", "_legal",
                 "rules")

    def __init__(self, rules, board: tuple, player: int = 0, moves: int = 0) -> None:
        self.rules = rules
        self.board = board
        self.player = player
        self.moves = moves
        self.won_by: int | None = None
        self.over = False
        self.last_player = player
        self._legal: list | None = None
        self._settle()

    def _settle(self) -> None:
        outcome = self.rules.outcome(self.board, self.player)
        if outcome is not None:
            self.over = True
            self.won_by = outcome if outcome in (0, 1) else None
            self.last_player = self.player
            self.player = -1

    # ---- API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list:
        if self.over:
            return []
        if self._legal is None:
            self._legal = self.rules.moves(self.board, self.player)
        return self._legal

    def apply_action(self, action) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r} for player {self.player} "
                             f"(legal: {self.legal_actions()})")
        self.board = self.rules.play(self.board, self.player, action)
        self.player = 1 - self.player
        self.moves += 1
        self._legal = None
        self._settle()

    def is_terminal(self) -> bool:
        return self.over

    def winner(self) -> int | None:
        return self.won_by

    def is_capped(self) -> bool:
        return False

    def move_number(self) -> int:
        return self.moves

    def returns(self) -> list[float]:
        return two_player_returns(self.won_by)

    def clone(self) -> BoardState:
        other = BoardState.__new__(BoardState)
        for name in BoardState.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def key(self) -> tuple:
        """Position identity for value databases: (board, player to move)."""
        return (self.board, self.player if not self.over else self.last_player)

    def action_to_string(self, action) -> str:
        return self.rules.action_to_string(action)

    def to_dict(self) -> dict[str, Any]:
        return {"board": list(self.board), "player": self.player if not self.over
                else self.last_player, "moves": self.moves}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __str__(self) -> str:
        text = self.rules.render(self.board)
        if self.over:
            tail = ("draw" if self.won_by is None else
                    f"player {self.won_by} ({self.rules.MARKS[self.won_by]}) wins")
            return f"{text}\ngame over: {tail}"
        return f"{text}\nplayer {self.player} ({self.rules.MARKS[self.player]}) to move"

    def __repr__(self) -> str:
        return f"{type(self.rules).__name__}State({self.to_dict()!r})"


class BoardGame(GameBase):
    """Game object over a rules object (``moves``, ``play``, ``outcome``, ``render``)."""

    num_players = 2

    def __init__(self, rules) -> None:
        self.rules = rules
        self.name = rules.name

    def new_initial_state(self, rng: random.Random | None = None) -> BoardState:
        return BoardState(self.rules, self.rules.initial_board(), 0)

    def state_from_dict(self, data: dict[str, Any], rng: random.Random | None = None
                        ) -> BoardState:
        try:
            board = tuple(data["board"])
            player = int(data["player"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"bad {self.name} snapshot: {err!r}") from None
        self.rules.validate(board, player)
        return BoardState(self.rules, board, player, int(data.get("moves", 0)))

    def action_from_json(self, value: Any):
        action = tuple(value) if isinstance(value, list) else value
        return self.rules.parse_action(action)

    def symmetries(self, board: tuple) -> list[tuple]:
        """Images of ``board`` under the game's symmetry group (identity first)."""
        return [tuple(board[i] for i in perm) for perm in self.rules.symmetry_perms]

    def canonical(self, board: tuple) -> tuple:
        return min(self.symmetries(board))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"
