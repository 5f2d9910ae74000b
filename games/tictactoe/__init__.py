"""Noughts-and-crosses (Hocquette and Muggleton): X (player 0) moves first; cells 0..8 row by
row."""

from __future__ import annotations

from ..api import RandomStrategy
from ..boardgame import BoardGame
from ..human import HumanPlayer
from ..spec import CLISpec, GameSpec, SynthesisSpec, register_game

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY, X, NOUGHT = 0, 1, 2


def _perm(f) -> tuple[int, ...]:
    """Cell permutation of a map (r, c) -> (r', c'): image cell i takes board[perm[i]]."""
    out = [0] * 9
    for r in range(3):
        for c in range(3):
            r2, c2 = f(r, c)
            out[r2 * 3 + c2] = r * 3 + c
    return tuple(out)


SYMMETRIES = tuple(_perm(f) for f in (
    lambda r, c: (r, c), lambda r, c: (c, 2 - r), lambda r, c: (2 - r, 2 - c),
    lambda r, c: (2 - c, r), lambda r, c: (r, 2 - c), lambda r, c: (2 - r, c),
    lambda r, c: (c, r), lambda r, c: (2 - c, 2 - r)))


class TicTacToeRules:
    name = "tictactoe"
    MARKS = ("X", "O")
    symmetry_perms = SYMMETRIES

    def initial_board(self) -> tuple:
        return (EMPTY,) * 9

    def moves(self, board: tuple, player: int) -> list[int]:
        return [i for i, v in enumerate(board) if v == EMPTY]

    def play(self, board: tuple, player: int, action: int) -> tuple:
        cells = list(board)
        cells[action] = X if player == 0 else NOUGHT
        return tuple(cells)

    def outcome(self, board: tuple, player: int):
        """0 or 1 for a win, "draw" for a full board, None while playing."""
        for a, b, c in LINES:
            if board[a] != EMPTY and board[a] == board[b] == board[c]:
                return 0 if board[a] == X else 1
        return "draw" if EMPTY not in board else None

    def validate(self, board: tuple, player: int) -> None:
        if len(board) != 9 or any(v not in (EMPTY, X, NOUGHT) for v in board):
            raise ValueError(f"bad tictactoe snapshot: board {board!r}")
        xs, os_ = board.count(X), board.count(NOUGHT)
        if player not in (0, 1) or xs - os_ != player:
            raise ValueError(f"bad tictactoe snapshot: {xs} X and {os_} O with player "
                             f"{player} to move")

    def parse_action(self, action) -> int:
        if isinstance(action, int) and 0 <= action < 9:
            return action
        raise ValueError(f"not a tictactoe action: {action!r}")

    def action_to_string(self, action: int) -> str:
        return f"cell {action} (row {action // 3 + 1}, column {action % 3 + 1})"

    def render(self, board: tuple) -> str:
        marks = {EMPTY: ".", X: "X", NOUGHT: "O"}
        return "\n".join(" ".join(marks[board[r * 3 + c]] for c in range(3)) for r in range(3))


class TicTacToe(BoardGame):
    def __init__(self) -> None:
        super().__init__(TicTacToeRules())


def _minimax():
    from ..solver import MinimaxPlayer

    return MinimaxPlayer(TicTacToe())


PLAYERS = {"random": RandomStrategy, "human": HumanPlayer, "minimax": _minimax}

register_game(GameSpec(
    name="tictactoe",
    summary="noughts-and-crosses (Hocquette and Muggleton), solved by the built-in minimax player",
    factory="games.tictactoe:TicTacToe",
    players="games.tictactoe:PLAYERS",
    synthesis=SynthesisSpec(default_target="minimax", cloning={"A": "gp.cloning:action_cloning"}),
    cli=CLISpec(move_cap=None),
))
