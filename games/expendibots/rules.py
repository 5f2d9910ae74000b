"""Expendibots, the game of the Expendibots report (Hitchcock and Randell).

8×8 board, squares ``y * 8 + x``. A board is a tuple of 64 ints: +n a white
stack of n tokens, −n a black stack, 0 empty. White (player 0) starts with 12
single tokens in three 2×2 blocks on y = 0, 1 (x ∈ {0,1}, {3,4}, {6,7}); black
mirrors them on y = 6, 7. White moves first.

Actions:
  * ``("MOVE", m, src, dst)``: move m tokens (1 ≤ m ≤ n) of an n-stack up to n
    squares in a straight orthogonal line (jumping is allowed) onto an empty square
    or a stack of the mover's colour;
  * ``("BOOM", sq)``: the stack at sq explodes, and every stack (either colour) in
    the 8 squares around an exploding stack explodes too, in a chain.

A player left without tokens loses (both at once: a draw). A position (board and
player to move) occurring for the 4th time is a draw, and so is reaching 250
turns each.
"""

from __future__ import annotations

import random
from typing import Any

from ..api import GameBase, two_player_returns

SIZE = 8
TURN_LIMIT = 250
REPETITION_LIMIT = 4


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out = []
    for sq in range(64):
        x, y = sq % 8, sq // 8
        out.append(tuple((y + dy) * 8 + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                         if (dx or dy) and 0 <= x + dx < 8 and 0 <= y + dy < 8))
    return tuple(out)


NEIGHBOURS = _neighbours()


def _rays() -> tuple:
    """For each square, the four orthogonal lines of squares, nearest first."""
    out = []
    for sq in range(64):
        x, y = sq % 8, sq // 8
        lines = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            line = []
            cx, cy = x + dx, y + dy
            while 0 <= cx < 8 and 0 <= cy < 8:
                line.append(cy * 8 + cx)
                cx, cy = cx + dx, cy + dy
            lines.append(tuple(line))
        out.append(tuple(lines))
    return tuple(out)


RAYS = _rays()


def initial_board() -> tuple[int, ...]:
    board = [0] * 64
    for x in (0, 1, 3, 4, 6, 7):
        for y in (0, 1):
            board[y * 8 + x] = 1
        for y in (6, 7):
            board[y * 8 + x] = -1
    return tuple(board)


def boom(board: tuple[int, ...], sq: int) -> tuple[int, ...]:
    """The board after the stack at ``sq`` explodes, with its chain reaction."""
    cells = list(board)
    pending = [sq]
    cells[sq] = 0
    while pending:
        here = pending.pop()
        for nb in NEIGHBOURS[here]:
            if cells[nb]:
                cells[nb] = 0
                pending.append(nb)
    return tuple(cells)


def generate_moves(board: tuple[int, ...], player: int) -> list[tuple]:
    """All legal actions, BOOMs first, then by fewer tokens moved and longer distance
    first (the report's ordering for alpha-beta)."""
    sign = 1 if player == 0 else -1
    booms, moves = [], []
    for sq, v in enumerate(board):
        n = v * sign
        if n <= 0:
            continue
        booms.append(("BOOM", sq))
        for line in RAYS[sq]:
            for d, dst in enumerate(line[:n], 1):
                if board[dst] * sign < 0:
                    continue  # cannot land on the opponent (may jump over it)
                for m in range(1, n + 1):
                    moves.append((m, d, ("MOVE", m, sq, dst)))
    moves.sort(key=lambda t: (t[0], -t[1]))
    return booms + [a for _, _, a in moves]


def apply_move(board: tuple[int, ...], player: int, action: tuple) -> tuple[int, ...]:
    if action[0] == "BOOM":
        return boom(board, action[1])
    _, m, src, dst = action
    sign = 1 if player == 0 else -1
    cells = list(board)
    cells[src] -= sign * m
    cells[dst] += sign * m
    return tuple(cells)


def tokens(board: tuple[int, ...]) -> tuple[int, int]:
    white = sum(v for v in board if v > 0)
    black = -sum(v for v in board if v < 0)
    return white, black


class ExpendibotsState:
    """A position with its history (for the repetition rule)."""

    __slots__ = ("board", "player", "turns", "history", "won_by", "over", "draw_reason",
                 "last_player", "_legal", "turn_limit")

    def __init__(self, board: tuple[int, ...] | None = None, player: int = 0, turns: int = 0,
                 history: dict | None = None, turn_limit: int = TURN_LIMIT) -> None:
        self.board = board if board is not None else initial_board()
        self.player = player
        self.turns = turns  # plies played
        self.turn_limit = turn_limit
        self.history = dict(history) if history else {}
        self.history[(self.board, player)] = self.history.get((self.board, player), 0) + 1
        self.won_by: int | None = None
        self.over = False
        self.draw_reason: str | None = None
        self.last_player = player
        self._legal: list | None = None
        self._settle()

    def _settle(self) -> None:
        white, black = tokens(self.board)
        if white == 0 or black == 0:
            self.over = True
            self.won_by = None if white == black == 0 else (0 if black == 0 else 1)
            self.draw_reason = "no tokens left" if white == black == 0 else None
        elif self.history[(self.board, self.player)] >= REPETITION_LIMIT:
            self.over, self.draw_reason = True, "4th repetition"
        elif self.turns >= 2 * self.turn_limit:
            self.over, self.draw_reason = True, f"{self.turn_limit} turns each"
        if self.over:
            self.last_player = self.player
            self.player = -1

    # ---- API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list:
        if self.over:
            return []
        if self._legal is None:
            self._legal = generate_moves(self.board, self.player)
        return self._legal

    def apply_action(self, action) -> None:
        if self.over or not _is_legal(self.board, self.player, action):
            raise ValueError(f"illegal action {action!r} for player {self.player}")
        self.board = apply_move(self.board, self.player, action)
        self.player = 1 - self.player
        self.turns += 1
        key = (self.board, self.player)
        self.history[key] = self.history.get(key, 0) + 1
        self._legal = None
        self._settle()

    def is_terminal(self) -> bool:
        return self.over

    def winner(self) -> int | None:
        return self.won_by

    def is_capped(self) -> bool:
        return self.draw_reason == f"{self.turn_limit} turns each"

    def move_number(self) -> int:
        return self.turns

    def returns(self) -> list[float]:
        return two_player_returns(self.won_by)

    def clone(self) -> ExpendibotsState:
        other = ExpendibotsState.__new__(ExpendibotsState)
        for name in ExpendibotsState.__slots__:
            setattr(other, name, getattr(self, name))
        other.history = dict(self.history)
        return other

    def action_to_string(self, action) -> str:
        if action[0] == "BOOM":
            return f"BOOM at {_square(action[1])}"
        _, m, src, dst = action
        return f"MOVE {m} from {_square(src)} to {_square(dst)}"

    def to_dict(self) -> dict[str, Any]:
        return {"board": list(self.board), "player": self.player if not self.over
                else self.last_player, "turns": self.turns,
                "history": [[list(b), p, n] for (b, p), n in self.history.items()]}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpendibotsState) and self.to_dict() == other.to_dict()

    __hash__ = None

    def __str__(self) -> str:
        rows = []
        for y in range(7, -1, -1):
            cells = []
            for x in range(8):
                v = self.board[y * 8 + x]
                cells.append(" . " if v == 0 else (f"W{v:<2}" if v > 0 else f"B{-v:<2}"))
            rows.append(f"{y} " + "".join(cells))
        rows.append("   " + "".join(f" {x} " for x in range(8)))
        white, black = tokens(self.board)
        if self.over:
            tail = (f"player {self.won_by} wins" if self.won_by is not None
                    else f"draw ({self.draw_reason})")
            rows.append(f"game over after {self.turns} plies: {tail}")
        else:
            rows.append(f"{'white' if self.player == 0 else 'black'} to move, ply {self.turns}, "
                        f"tokens white {white} black {black}")
        return "\n".join(rows)


def _square(sq: int) -> str:
    return f"({sq % 8},{sq // 8})"


def _is_legal(board: tuple[int, ...], player: int, action) -> bool:
    """Cheap legality check without generating every move."""
    sign = 1 if player == 0 else -1
    if not isinstance(action, tuple) or not action:
        return False
    if action[0] == "BOOM" and len(action) == 2:
        sq = action[1]
        return isinstance(sq, int) and 0 <= sq < 64 and board[sq] * sign > 0
    if action[0] == "MOVE" and len(action) == 4:
        _, m, src, dst = action
        if not all(isinstance(v, int) for v in (m, src, dst)):
            return False
        if not (0 <= src < 64 and 0 <= dst < 64):
            return False
        n = board[src] * sign
        if n <= 0 or not 1 <= m <= n or board[dst] * sign < 0:
            return False
        return any(dst in line[:n] for line in RAYS[src])
    return False


class Expendibots(GameBase):
    """The game; ``opening_plies`` random MOVE actions (drawn with the match's RNG)
    start each match, so that deterministic players meet in varied games."""

    name = "expendibots"
    num_players = 2
    draw_value = 0.5
    """Ψ scores a draw (turn limit, repeated state) ½, as the learning runs and the
    tournaments of ``experiments/studies/expendibots_learning.py`` do."""

    def margin(self, state: ExpendibotsState, seat: int) -> float:
        """The seat's token lead at the end of a match, / 12, in [-1, 1]: Ψ's
        tie-break among equal scores (``gp.fitness.WinRate``'s ``margin_weight``)."""
        white, black = tokens(state.board)
        return (white - black if seat == 0 else black - white) / 12

    def __init__(self, turn_limit: int = TURN_LIMIT, opening_plies: int = 0) -> None:
        if turn_limit < 1 or opening_plies < 0:
            raise ValueError("turn_limit must be >= 1 and opening_plies >= 0")
        self.turn_limit = turn_limit
        self.opening_plies = opening_plies

    def new_initial_state(self, rng: random.Random | None = None) -> ExpendibotsState:
        state = ExpendibotsState(turn_limit=self.turn_limit)
        if self.opening_plies:
            rng = rng or random.Random(0)
            for _ in range(self.opening_plies):
                moves = [a for a in state.legal_actions() if a[0] == "MOVE"]
                state.apply_action(moves[rng.randrange(len(moves))])
            state.history = {(state.board, state.player): 1}
            state.turns = 0
        return state

    def state_from_dict(self, data: dict[str, Any], rng: random.Random | None = None
                        ) -> ExpendibotsState:
        try:
            board = tuple(int(v) for v in data["board"])
            player = int(data["player"])
            history = {(tuple(b), int(p)): int(n) for b, p, n in data.get("history", [])}
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"bad expendibots snapshot: {err!r}") from None
        if len(board) != 64 or player not in (0, 1):
            raise ValueError("bad expendibots snapshot: 64 squares and player 0 or 1 needed")
        state = ExpendibotsState.__new__(ExpendibotsState)
        state.board, state.player = board, player
        state.turns = int(data.get("turns", 0))
        state.turn_limit = self.turn_limit
        state.history = history or {(board, player): 1}
        state.won_by, state.over, state.draw_reason = None, False, None
        state.last_player, state._legal = player, None
        state._settle()
        return state

    def action_from_json(self, value: Any):
        if isinstance(value, list):
            return tuple(value)
        raise ValueError(f"not an expendibots action: {value!r}")
