"""Timed alpha-beta, the Expendibots report's full agent: opening books (Black's conditional
reply), the time budget's depth-1 fall-back, per-colour weights loaded from a file and used."""

import json

import pytest

from experiments.players import make_player
from games.expendibots.players import HAND_WEIGHTS_BLACK, HAND_WEIGHTS_WHITE
from games.expendibots.rules import Expendibots, initial_board
from games.expendibots.tdleaf import load_weights_player
from games.expendibots.timed_agent import (
    BLACK_BOOK,
    WHITE_BOOK,
    TimedAlphaBetaPlayer,
    is_safe,
    threat_side,
)


def sq(x, y):
    return y * 8 + x


def state_of(cells, player, turns=0):
    return Expendibots().state_from_dict({"board": list(cells), "player": player,
                                          "turns": turns})


def moved(board, *moves):
    cells = list(board)
    for m, src, dst in moves:
        sign = 1 if cells[src] > 0 else -1
        cells[src] -= sign * m
        cells[dst] += sign * m
    return tuple(cells)


def test_white_plays_its_four_book_moves_from_the_start():
    player = TimedAlphaBetaPlayer()
    state = Expendibots().new_initial_state()
    black_replies = [("MOVE", 1, sq(0, 7), sq(0, 6)), ("MOVE", 1, sq(7, 7), sq(7, 6)),
                     ("MOVE", 1, sq(0, 6), sq(0, 5)), ("MOVE", 1, sq(7, 6), sq(7, 5))]
    for expected, reply in zip(WHITE_BOOK, black_replies):
        assert player(state) == expected and player.last_source == "book"
        state.apply_action(expected)
        state.apply_action(reply)
    assert state.board[sq(4, 3)] == 4
    player(state)
    assert player.last_source == "search" and player.last_depth == 3


def test_black_without_a_threat_mirrors_the_book():
    state = state_of(moved(initial_board(), (1, sq(0, 0), sq(0, 1))), player=1, turns=1)
    assert threat_side(state.board) is None
    assert TimedAlphaBetaPlayer()(state) == BLACK_BOOK[0] == ("MOVE", 1, sq(3, 7), sq(3, 6))


def test_black_answers_a_four_stack_on_the_left_with_a_stack_on_the_right():
    # White stacked its left block into a 4-stack on (1,1)
    board = moved(initial_board(), (1, sq(0, 0), sq(1, 0)), (2, sq(1, 0), sq(1, 1)),
                  (1, sq(0, 1), sq(1, 1)))
    assert board[sq(1, 1)] == 4 and threat_side(board) == "left"
    player = TimedAlphaBetaPlayer()
    state = state_of(board, player=1, turns=5)
    first = player(state)
    assert first == ("MOVE", 1, sq(6, 7), sq(6, 6))
    state.apply_action(first)
    state.apply_action(("MOVE", 1, sq(3, 0), sq(3, 1)))
    second = player(state)
    assert second == ("MOVE", 1, sq(7, 7), sq(7, 6))
    state.apply_action(second)
    state.apply_action(("MOVE", 1, sq(4, 0), sq(4, 1)))
    third = player(state)
    assert third == ("MOVE", 2, sq(7, 6), sq(6, 6))
    state.apply_action(third)
    assert state.board[sq(6, 6)] == -4


def test_black_answers_an_advance_on_the_right_with_a_stack_on_the_left():
    board = moved(initial_board(), (1, sq(6, 1), sq(6, 2)), (1, sq(6, 2), sq(6, 3)))
    assert threat_side(board) == "right"
    assert TimedAlphaBetaPlayer()(state_of(board, player=1, turns=3)) == ("MOVE", 1, sq(1, 7),
                                                                     sq(1, 6))


def test_black_switches_to_defence_when_the_threat_appears_mid_book():
    player = TimedAlphaBetaPlayer()
    state = Expendibots().new_initial_state()
    state.apply_action(("MOVE", 1, sq(6, 1), sq(6, 2)))
    assert player(state) == BLACK_BOOK[0]  # no threat yet: the mirrored book
    state.apply_action(BLACK_BOOK[0])
    state.apply_action(("MOVE", 1, sq(6, 2), sq(6, 3)))  # White advances on the right
    assert player(state) == ("MOVE", 1, sq(1, 7), sq(1, 6))


def test_a_book_move_that_loses_tokens_to_a_boom_is_not_played():
    # a black token sits next to (4,3): advancing the 4-stack there would lose 4 for 1
    board = moved(initial_board(), (1, sq(3, 0), sq(3, 1)), (1, sq(4, 0), sq(4, 1)),
                  (2, sq(3, 1), sq(4, 1)), (1, sq(4, 6), sq(4, 5)), (1, sq(4, 5), sq(4, 4)))
    move = WHITE_BOOK[3]
    assert not is_safe(board, 0, move)
    player = TimedAlphaBetaPlayer()
    player.books[0].index = 3
    player.last_turns[0] = 6
    state = state_of(board, player=0, turns=6)
    assert player(state) != move and player.last_source == "search"
    assert player.books[0].line is None  # the book has ended for this game


def test_the_time_budget_falls_back_to_depth_one():
    ticks = iter(range(0, 1000, 1))
    clock = lambda: 3.0 * next(ticks)  # noqa: E731 - every search costs 3 s
    player = TimedAlphaBetaPlayer(budget=10.0, reserve=2.0, book=False, clock=clock)
    state = Expendibots().new_initial_state()
    depths = []
    for _ in range(4):
        state.apply_action(player(state))
        depths.append(player.last_depth)
        state.apply_action(("MOVE", 1, sq(0, 7), sq(0, 6)) if len(depths) == 1 else
                           state.legal_actions()[-1])
    assert depths == [3, 3, 3, 1]  # 9 s spent leaves 1 s < 2 s reserve
    player.reset()
    assert player.remaining(0) == 10.0


def test_per_colour_weights_are_loaded_and_used(tmp_path):
    white = [1.0, 2.0, 3.0, -0.5, 0.25]
    black = [4.0, 0.5, 0.5, -2.0, 1.0]
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"white": white, "black": black, "depth": 2}))
    player = load_weights_player(path)
    assert [s.evaluate.weights for s in player.searches] == [tuple(white), tuple(black)]
    assert player.searches[0].depth == 2
    full = make_player("expendibots", f"weights:{path}?book=1&depth=3")
    assert isinstance(full, TimedAlphaBetaPlayer)
    assert [e.weights for e in full.evaluations] == [tuple(white), tuple(black)]
    # used: the same position is scored with each colour's own weights
    board = moved(initial_board(), (1, sq(0, 0), sq(1, 0)))
    v_white = full.evaluations[0](board, 0)
    v_black = full.evaluations[1](board, 0)
    assert v_white != v_black
    default = TimedAlphaBetaPlayer()
    assert [e.weights for e in default.evaluations] == [HAND_WEIGHTS_WHITE, HAND_WEIGHTS_BLACK]
    (tmp_path / "bad.json").write_text(json.dumps({"white": [1, 2]}))
    with pytest.raises(ValueError, match="bad.json"):
        load_weights_player(tmp_path / "bad.json")


def test_timed_alphabeta_spec_plays_a_whole_game_against_random():
    from games.match import play_match

    timed = make_player("expendibots", "timed-alphabeta-depth2")
    result = play_match(Expendibots(opening_plies=0, turn_limit=60),
                        [timed, make_player("expendibots", "random")], seed=1)
    assert result.winner == 0


@pytest.mark.parametrize("old, new", [("seed003", "timed-alphabeta"),
                                      ("seed003-nobook", "timed-alphabeta-nobook"),
                                      ("seed003-depth2", "timed-alphabeta-depth2")])
def test_the_former_player_names_still_build_the_same_players(old, new):
    # committed runs and results name the timed alpha-beta players by their former names
    before, now = make_player("expendibots", old), make_player("expendibots", new)
    assert isinstance(before, TimedAlphaBetaPlayer)
    assert (before.depth, before.use_book, before.name) == (now.depth, now.use_book, now.name)


def test_former_player_names_are_not_listed_as_players():
    from experiments.players import SpecError

    with pytest.raises(SpecError) as error:
        make_player("expendibots", "nobody")
    assert "timed-alphabeta-depth2" in str(error.value) and "seed003" not in str(error.value)


def test_an_evolved_evaluation_plays_inside_the_timed_agent(tmp_path):
    path = tmp_path / "eval.txt"
    path.write_text("value: f1 + f2 - my_stacks\n")
    player = make_player("expendibots", f"program:{path}?depth=2&agent=1&book=1")
    state = Expendibots().new_initial_state()
    assert player(state) == WHITE_BOOK[0]
    assert isinstance(player.player, TimedAlphaBetaPlayer) and player.player.depth == 2
    import pickle

    again = pickle.loads(pickle.dumps(player))
    assert (again.agent, again.book, again.depth) == (1, 1, 2)
    plain = make_player("expendibots", f"program:{path}?depth=2")
    assert plain.player is None
