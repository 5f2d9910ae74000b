"""Hexapawn on an n×n board (Hocquette and Muggleton): pawns step forward onto an empty square or
capture diagonally forward; reaching the far row wins. ``no_move="draw"`` is the
seed's variant (a player with no legal move draws), ``"lose"`` the classic rule.

Player 0 (W) starts on the bottom row and moves up; cells run row by row from the top.
"""

from __future__ import annotations

from ..api import RandomStrategy
from ..boardgame import BoardGame
from ..human import HumanPlayer
from ..spec import CLISpec, GameSpec, SynthesisSpec, register_game

EMPTY, WHITE, BLACK = 0, 1, 2
NO_MOVE_RULES = ("draw", "lose")


class HexapawnRules:
    MARKS = ("W", "B")

    def __init__(self, size: int = 3, no_move: str = "draw") -> None:
        if size < 3:
            raise ValueError(f"hexapawn needs a board of at least 3x3, got {size}")
        if no_move not in NO_MOVE_RULES:
            raise ValueError(f"no_move must be one of {NO_MOVE_RULES}, got {no_move!r}")
        self.size = size
        self.no_move = no_move
        self.name = f"hexapawn{size}" + ("" if no_move == "draw" else "-classic")
        n = size
        mirror = tuple(r * n + (n - 1 - c) for r in range(n) for c in range(n))
        self.symmetry_perms = (tuple(range(n * n)), mirror)

    def initial_board(self) -> tuple:
        n = self.size
        return (BLACK,) * n + (EMPTY,) * (n * (n - 2)) + (WHITE,) * n

    def moves(self, board: tuple, player: int) -> list[tuple[int, int]]:
        n = self.size
        me, them, step = (WHITE, BLACK, -1) if player == 0 else (BLACK, WHITE, 1)
        out = []
        for i, v in enumerate(board):
            if v != me:
                continue
            r, c = divmod(i, n)
            r2 = r + step
            if not 0 <= r2 < n:
                continue
            if board[r2 * n + c] == EMPTY:
                out.append((i, r2 * n + c))
            for c2 in (c - 1, c + 1):
                if 0 <= c2 < n and board[r2 * n + c2] == them:
                    out.append((i, r2 * n + c2))
        return out

    def play(self, board: tuple, player: int, action: tuple[int, int]) -> tuple:
        src, dst = action
        cells = list(board)
        cells[dst], cells[src] = cells[src], EMPTY
        return tuple(cells)

    def outcome(self, board: tuple, player: int):
        n = self.size
        if WHITE in board[:n]:
            return 0
        if BLACK in board[-n:]:
            return 1
        if not self.moves(board, player):
            return "draw" if self.no_move == "draw" else 1 - player
        return None

    def validate(self, board: tuple, player: int) -> None:
        n = self.size
        if len(board) != n * n or any(v not in (EMPTY, WHITE, BLACK) for v in board):
            raise ValueError(f"bad {self.name} snapshot: board {board!r}")
        if player not in (0, 1):
            raise ValueError(f"bad {self.name} snapshot: player {player}")

    def parse_action(self, action) -> tuple[int, int]:
        n2 = self.size * self.size
        if (isinstance(action, tuple) and len(action) == 2
                and all(isinstance(x, int) and 0 <= x < n2 for x in action)):
            return action
        raise ValueError(f"not a {self.name} action: {action!r}")

    def square(self, i: int) -> str:
        r, c = divmod(i, self.size)
        return f"{'abcdefgh'[c]}{self.size - r}"

    def action_to_string(self, action: tuple[int, int]) -> str:
        return f"{self.square(action[0])}-{self.square(action[1])}"

    def render(self, board: tuple) -> str:
        n = self.size
        marks = {EMPTY: ".", WHITE: "W", BLACK: "B"}
        rows = [f"{n - r} " + " ".join(marks[board[r * n + c]] for c in range(n))
                for r in range(n)]
        return "\n".join(rows + ["  " + " ".join("abcdefgh"[:n])])

    def __repr__(self) -> str:
        return f"HexapawnRules(size={self.size}, no_move={self.no_move!r})"


class Hexapawn(BoardGame):
    def __init__(self, size: int = 3, no_move: str = "draw") -> None:
        super().__init__(HexapawnRules(size, no_move))


def _minimax():
    from ..solver import MinimaxPlayer

    return MinimaxPlayer(Hexapawn())


PLAYERS = {"random": RandomStrategy, "human": HumanPlayer, "minimax": _minimax}

register_game(GameSpec(
    name="hexapawn",
    summary="Hexapawn on an n×n board (Hocquette and Muggleton; game parameters size and no_move)",
    factory="games.hexapawn:Hexapawn",
    players="games.hexapawn:PLAYERS",
    synthesis=SynthesisSpec(default_target="minimax", cloning={"A": "gp.cloning:action_cloning"}),
    cli=CLISpec(move_cap=None),
))
