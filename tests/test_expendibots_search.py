"""The fast alpha-beta (make/undo, transposition table, killers, history) against plain
minimax and the copy-per-node search, on random positions."""

import math
import random

import pytest

from games.expendibots.players import (
    HAND_WEIGHTS_BLACK,
    HAND_WEIGHTS_WHITE,
    CopyAlphaBeta,
    linear_evaluation,
)
from games.expendibots.rules import Expendibots, apply_move, generate_moves, tokens
from games.expendibots.search import FastAlphaBeta, Position, SearchOptions, counts_of, zobrist
from gp.languages.expendibots import EvaluationProgramPlayer

EVAL = linear_evaluation(HAND_WEIGHTS_WHITE)
OPTION_SETS = [SearchOptions(tt=False, killers=False, dedup_booms=False),
               SearchOptions(),
               SearchOptions(history=True),
               SearchOptions(tt=True, killers=False, history=True, dedup_booms=False)]


def minimax(board, player, depth, seen):
    """Plain fixed-depth negamax with the report's pruning, no alpha-beta: (value, move)."""
    if depth == 0:
        return EVAL(board, player), None
    white, black = tokens(board)
    if not white or not black:
        return EVAL(board, player), None
    sign = 1 if player == 0 else -1
    theirs = sum(-v * sign for v in board if v * sign < 0)
    best, best_move = -math.inf, None
    for action in generate_moves(board, player):
        child = apply_move(board, player, action)
        if action[0] == "BOOM" and sum(-v * sign for v in child if v * sign < 0) == theirs:
            continue
        if (child, 1 - player) in seen:
            continue
        value = -minimax(child, 1 - player, depth - 1, seen)[0]
        if value > best:
            best, best_move = value, action
    if best_move is None:
        return EVAL(board, player), None
    return best, best_move


def random_positions(count, seed, max_moves=None):
    """Positions from games of random moves (BOOMs only when they hit the opponent)."""
    rng = random.Random(seed)
    game = Expendibots(opening_plies=2)
    out = []
    while len(out) < count:
        state = game.new_initial_state(rng)
        for _ in range(rng.randrange(2, 70)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        if state.is_terminal():
            continue
        if max_moves is None or len(state.legal_actions()) <= max_moves:
            out.append(state)
    return out


@pytest.mark.parametrize("options", OPTION_SETS)
def test_alpha_beta_equals_minimax_at_depth_2(options):
    for state in random_positions(6, seed=11):
        seen = set(state.history)
        value, move = minimax(state.board, state.player, 2, seen)
        search = FastAlphaBeta(EVAL, 2, options)
        got_move, got_value, _ = search.choose(state)
        assert got_value == pytest.approx(value, abs=1e-12)
        assert got_move == move


def test_alpha_beta_equals_minimax_at_depth_3():
    for state in random_positions(3, seed=5, max_moves=22):
        value, move = minimax(state.board, state.player, 3, set(state.history))
        for options in OPTION_SETS[:2]:
            got_move, got_value, _ = FastAlphaBeta(EVAL, 3, options).choose(state)
            assert got_value == pytest.approx(value, abs=1e-12)
            assert got_move == move


def test_fast_search_matches_copy_search_and_visits_fewer_nodes():
    for state in random_positions(4, seed=3):
        old, new = CopyAlphaBeta(EVAL, 3), FastAlphaBeta(EVAL, 3)
        a_old, v_old, leaf_old = old.choose(state)
        a_new, v_new, leaf_new = new.choose(state)
        assert (a_new, v_new) == (a_old, v_old)
        assert new.nodes <= old.nodes
        # the principal leaf scores the root value (TD-Leaf reads it)
        leaf_board, leaf_player = leaf_new
        sign = 1 if leaf_player == state.player else -1
        assert sign * EVAL(leaf_board, leaf_player) == pytest.approx(v_new)


def test_make_and_undo_restore_board_counts_and_hash():
    rng = random.Random(2)
    for state in random_positions(5, seed=9):
        pos = Position(state.board, state.player)
        for action in generate_moves(state.board, state.player):
            before = (list(pos.board), pos.player, list(pos.counts), pos.hash)
            if action[0] == "BOOM":
                undo, theirs = pos.make_boom(action[1])
            else:
                undo = pos.make_move(*action[1:])
            child = apply_move(state.board, state.player, action)
            assert tuple(pos.board) == child
            assert pos.counts == counts_of(child)
            assert pos.hash == zobrist(child, 1 - state.player)
            if action[0] == "BOOM":
                sign = 1 if state.player == 0 else -1
                assert theirs == sum(-v * sign for v in state.board if v * sign < 0) - sum(
                    -v * sign for v in child if v * sign < 0)
                pos.undo_boom(undo)
            else:
                pos.undo_move(undo)
            assert (list(pos.board), pos.player, list(pos.counts), pos.hash) == before
        rng.random()


def test_per_colour_weights_give_the_colours_own_values():
    state = random_positions(1, seed=4)[0]
    white = FastAlphaBeta(linear_evaluation(HAND_WEIGHTS_WHITE), 1).choose(state)[1]
    black = FastAlphaBeta(linear_evaluation(HAND_WEIGHTS_BLACK), 1).choose(state)[1]
    assert white != black  # f4 weights differ, and every position has stacks


def test_program_evaluation_fast_path_equals_board_scan():
    player = EvaluationProgramPlayer("value: f1 + my_largest - 0.5 * their_stacks", depth=2)
    evaluation = player.search.evaluate
    for state in random_positions(5, seed=8):
        pos = Position(state.board, state.player)
        from games.expendibots.search import view

        fast = evaluation.from_position(view(pos.counts, pos.player), pos.board, pos.player)
        assert fast == evaluation(state.board, state.player)


def test_the_seed003_feature_is_the_reports_hand_evaluation():
    from games.expendibots.players import HAND_WEIGHTS_BLACK, HAND_WEIGHTS_WHITE

    player = EvaluationProgramPlayer("value: seed003", depth=2)
    evaluation = player.search.evaluate
    for state in random_positions(4, seed=6):
        for colour, weights in ((0, HAND_WEIGHTS_WHITE), (1, HAND_WEIGHTS_BLACK)):
            assert evaluation(state.board, colour) == pytest.approx(
                linear_evaluation(weights)(state.board, colour), abs=1e-12)
