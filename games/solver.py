"""Exact minimax for small deterministic games, with a value database and symmetry
reduction, and the sets of boards one full move ahead that the MIGO paper's learners
start from.

Values are from the viewpoint of the player to move: +1 win, 0 draw, -1 loss.
``depth`` is the number of plies to the end under optimal play: the
winner wins as fast as it can, the loser lasts as long as it can.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Solved:
    value: int
    depth: int


class MinimaxSolver:
    """Memoised negamax over canonical positions (boards up to the game's symmetries)."""

    def __init__(self, game) -> None:
        self.game = game
        self.rules = game.rules
        self.table: dict[tuple, Solved] = {}

    def _key(self, board: tuple, player: int) -> tuple:
        return (self.game.canonical(board), player)

    def solve_board(self, board: tuple, player: int) -> Solved:
        key = self._key(board, player)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        outcome = self.rules.outcome(board, player)
        if outcome is not None:
            result = Solved(0 if outcome == "draw" else (1 if outcome == player else -1), 0)
        else:
            best: Solved | None = None
            for move in self.rules.moves(board, player):
                child = self.solve_board(self.rules.play(board, player, move), 1 - player)
                mine = Solved(-child.value, child.depth + 1)
                if best is None or _better(mine, best):
                    best = mine
            result = best
        self.table[key] = result
        return result

    def solve(self, state) -> Solved:
        board, player = state.key()
        return self.solve_board(board, player)

    def best_moves(self, state) -> list:
        """Optimal moves of the player to move (best outcome, then fewest / most plies)."""
        board, player = state.key()
        scored = []
        for move in self.rules.moves(board, player):
            child = self.solve_board(self.rules.play(board, player, move), 1 - player)
            scored.append((Solved(-child.value, child.depth + 1), move))
        best = scored[0][0]
        for s, _ in scored[1:]:
            if _better(s, best):
                best = s
        return [m for s, m in scored if s == best]


def _better(a: Solved, b: Solved) -> bool:
    """Higher value; among wins fewer plies, among losses more plies."""
    if a.value != b.value:
        return a.value > b.value
    if a.value > 0:
        return a.depth < b.depth
    if a.value < 0:
        return a.depth > b.depth
    return False


class MinimaxPlayer:
    """Deterministic optimal opponent: the first of the optimal moves in move order.

    A built-in player is made without the game's parameters (``hexapawn`` with
    ``size=4``), so a state of other rules than the solver's is solved with a
    solver of its own rules (``state.rules``, as board games carry them).
    """

    name = "minimax"

    def __init__(self, game, solver: MinimaxSolver | None = None) -> None:
        self.solver = solver or MinimaxSolver(game)
        self._others: dict[str, MinimaxSolver] = {}

    def __call__(self, state):
        return self._solver_for(state).best_moves(state)[0]

    def _solver_for(self, state) -> MinimaxSolver:
        rules = getattr(state, "rules", self.solver.rules)
        key = _rules_key(rules)
        if rules is self.solver.rules or key == _rules_key(self.solver.rules):
            return self.solver
        if key not in self._others:
            from .boardgame import BoardGame

            self._others[key] = MinimaxSolver(BoardGame(rules))
        return self._others[key]


def _rules_key(rules) -> str:
    """Rules of the same class and parameters are the same game."""
    return f"{type(rules).__qualname__}{sorted(vars(rules).items())!r}"


def one_move_ahead(game) -> list[tuple]:
    """Boards after one move of each player from the start, one per symmetry class."""
    rules = game.rules
    start = rules.initial_board()
    seen: dict[tuple, tuple] = {}
    for m0 in rules.moves(start, 0):
        b1 = rules.play(start, 0, m0)
        if rules.outcome(b1, 1) is not None:
            continue
        for m1 in rules.moves(b1, 1):
            b2 = rules.play(b1, 1, m1)
            if rules.outcome(b2, 0) is not None:
                continue
            seen.setdefault(game.canonical(b2), b2)
    return [seen[k] for k in sorted(seen)]
