"""Minimax solver speed: positions solved per second from an empty value database.

Run with ``make bench`` or ``python -m experiments.bench.solver``.
"""

from __future__ import annotations

import time

from games import load_game
from games.solver import MinimaxSolver, one_move_ahead

CASES = (("tictactoe", {}), ("hexapawn", {"size": 3}), ("hexapawn", {"size": 4}),
         ("hexapawn", {"size": 3, "no_move": "lose"}))


def run_solver_bench(repeats: int = 3) -> None:
    print(f"{'game':<28} {'value':>5} {'positions':>10} {'seconds':>8} {'positions/s':>12} "
          f"{'one-move-ahead boards':>22}")
    for name, params in CASES:
        game = load_game(name, **params)
        best = float("inf")
        for _ in range(repeats):
            solver = MinimaxSolver(game)
            started = time.perf_counter()
            value = solver.solve(game.new_initial_state())
            best = min(best, time.perf_counter() - started)
        boards = one_move_ahead(game)
        counts = {v: sum(1 for b in boards if solver.solve_board(b, 0).value == v)
                  for v in (1, 0, -1)}
        label = f"{name} {params}" if params else name
        print(f"{label:<28} {value.value:>5} {len(solver.table):>10} {best:>8.3f} "
              f"{len(solver.table) / best:>12.0f} "
              f"{f'{len(boards)} (W{counts[1]} D{counts[0]} L{counts[-1]})':>22}")


if __name__ == "__main__":
    run_solver_bench()
