"""Noughts-and-crosses and Hexapawn: rules, conformance, minimax values (Hocquette and
Muggleton)."""

from collections import Counter

import pytest

from games import load_game
from games.api import RandomStrategy
from games.conformance import check_random_playouts
from games.match import play_matches
from games.solver import MinimaxPlayer, MinimaxSolver, one_move_ahead

X, N, E = 1, 2, 0  # cross, nought (Hexapawn: white, black), empty


@pytest.mark.parametrize("name, params", [("tictactoe", {}), ("hexapawn", {}),
                                          ("hexapawn", {"size": 4}),
                                          ("hexapawn", {"no_move": "lose"})])
def test_random_playouts_keep_the_api_contract(name, params):
    stats = check_random_playouts(load_game(name, **params), playouts=2000, seed=4,
                                  deep_check_every=3)
    assert stats["playouts"] == 2000 and stats["capped"] == 0


def test_tictactoe_lines_and_full_board():
    game = load_game("tictactoe")
    s = game.state_from_dict({"board": [X, X, E, N, N, E, E, E, E], "player": 0})
    s.apply_action(2)
    assert s.is_terminal() and s.winner() == 0 and s.returns() == [1.0, -1.0]
    s = game.state_from_dict({"board": [X, N, X, X, N, N, N, X, E], "player": 0})
    s.apply_action(8)
    assert s.is_terminal() and s.winner() is None and s.returns() == [0.0, 0.0]
    with pytest.raises(ValueError, match="2 X and 0 O"):
        game.state_from_dict({"board": [X, X, E, E, E, E, E, E, E], "player": 0})


def test_hexapawn_moves_captures_and_the_two_no_move_rules():
    game = load_game("hexapawn")
    s = game.new_initial_state()
    assert sorted(s.legal_actions()) == [(6, 3), (7, 4), (8, 5)]  # only steps forward
    s.apply_action((7, 4))  # b1-b2
    # a3 steps or takes b2; b3 is blocked by b2; c3 steps or takes b2
    assert sorted(s.legal_actions()) == [(0, 3), (0, 4), (2, 4), (2, 5)]
    s.apply_action((0, 4))  # a3xb2
    assert s.key() == ((E, N, N, E, N, E, X, E, X), 0)  # (W is 1, B is 2 on the board)
    blocked = {"board": [N, E, E, X, E, E, E, E, E], "player": 1}  # black a3 faces white a2
    draw = load_game("hexapawn").state_from_dict(blocked)
    assert draw.is_terminal() and draw.winner() is None  # the MIGO paper: no move is a draw
    lose = load_game("hexapawn", no_move="lose").state_from_dict(blocked)
    assert lose.is_terminal() and lose.winner() == 0  # classic: no move loses


def test_reaching_the_far_row_wins():
    game = load_game("hexapawn")
    s = game.state_from_dict({"board": [E, E, 2, 1, E, E, E, E, E], "player": 0})
    s.apply_action((3, 0))
    assert s.is_terminal() and s.winner() == 0


def test_minimax_values_of_the_start_positions():
    ttt = MinimaxSolver(load_game("tictactoe"))
    assert ttt.solve(load_game("tictactoe").new_initial_state()).value == 0
    assert len(ttt.table) == 765  # the known count of positions up to symmetry
    hexa = MinimaxSolver(load_game("hexapawn", no_move="lose"))
    assert hexa.solve(load_game("hexapawn", no_move="lose").new_initial_state()).value == -1
    seed = MinimaxSolver(load_game("hexapawn"))
    assert seed.solve(load_game("hexapawn").new_initial_state()).value == 0


def test_one_move_ahead_boards_match_the_migo_paper():
    for name, params, total, by_value in (
            ("tictactoe", {}, 12, {1: 7, 0: 5}),
            ("hexapawn", {}, 5, {0: 3, 1: 2})):
        game = load_game(name, **params)
        solver = MinimaxSolver(game)
        boards = one_move_ahead(game)
        assert len(boards) == total
        assert Counter(solver.solve_board(b, 0).value for b in boards) == by_value


def test_hand_worked_tictactoe_openings():
    game = load_game("tictactoe")
    solver = MinimaxSolver(game)
    corner_edge = (X, N, E, E, E, E, E, E, E)  # X corner, O adjacent edge: X wins
    centre_corner = (N, E, E, E, X, E, E, E, E)  # X centre, O corner: draw
    corner_centre = (X, E, E, E, N, E, E, E, E)  # X corner, O centre: draw
    corner_far_edge = (X, E, E, E, E, N, E, E, E)  # X corner, O far edge: X wins
    assert solver.solve_board(corner_edge, 0).value == 1
    assert solver.solve_board(centre_corner, 0).value == 0
    assert solver.solve_board(corner_centre, 0).value == 0
    assert solver.solve_board(corner_far_edge, 0).value == 1


def test_minimax_player_never_loses_and_wins_fast():
    game = load_game("tictactoe")
    summary = play_matches(game, (MinimaxPlayer(game), RandomStrategy()), 200, seed=3)
    assert summary.wins[1] == 0 and summary.wins[0] > 150
    solver = MinimaxSolver(game)
    s = game.state_from_dict({"board": [X, X, E, N, N, E, E, E, E], "player": 0})
    assert solver.best_moves(s) == [2]  # win now rather than later
