"""Expendibots rules on hand-worked positions, alpha-beta, TD-Leaf(λ), the evaluation DSL."""

import random

import numpy as np
import pytest

from games import load_game
from games.api import RandomStrategy
from games.conformance import check_random_playouts
from games.expendibots import boom, features, hand_weights_player
from games.expendibots.rules import Expendibots, ExpendibotsState, initial_board
from games.expendibots.tdleaf import LeafRecord, td_leaf_update
from gp.languages.expendibots import EXPENDIBOTS_DSL, EvaluationProgramPlayer


def sq(x, y):
    return y * 8 + x


def board(**stacks):
    """board(w=[(x, y, n), ...], b=[...])."""
    cells = [0] * 64
    for x, y, n in stacks.get("w", []):
        cells[sq(x, y)] = n
    for x, y, n in stacks.get("b", []):
        cells[sq(x, y)] = -n
    return tuple(cells)


def state(cells, player=0):
    return Expendibots().state_from_dict({"board": list(cells), "player": player})


def test_start_position_and_first_moves():
    b = initial_board()
    assert sum(v for v in b if v > 0) == 12 and sum(-v for v in b if v < 0) == 12
    assert b[sq(0, 0)] == b[sq(4, 1)] == b[sq(7, 1)] == 1 and b[sq(2, 0)] == 0
    assert b[sq(0, 7)] == b[sq(3, 6)] == -1
    s = Expendibots().new_initial_state()
    actions = s.legal_actions()
    assert actions[:12] == [("BOOM", i) for i in sorted(i for i, v in enumerate(b) if v > 0)]
    assert ("MOVE", 1, sq(0, 0), sq(1, 0)) in actions  # onto an own stack
    assert ("MOVE", 1, sq(1, 1), sq(2, 1)) in actions
    # one-square steps: 2 corners x 2 + 6 edge tokens x 3 + 4 inner tokens x 4 = 38
    assert len(actions) == 12 + 38


def test_moves_stack_onto_own_jump_but_not_onto_the_opponent():
    s = state(board(w=[(3, 3, 2), (3, 5, 1)], b=[(4, 3, 1), (3, 4, 3)]))
    acts = set(s.legal_actions())
    assert ("MOVE", 2, sq(3, 3), sq(3, 5)) in acts  # jumps over the black stack onto own
    assert ("MOVE", 1, sq(3, 3), sq(5, 3)) in acts  # jumps over black at (4,3)
    assert ("MOVE", 1, sq(3, 3), sq(4, 3)) not in acts  # cannot land on black
    assert ("MOVE", 1, sq(3, 3), sq(3, 6)) not in acts  # 3 squares: beyond a 2-stack's range
    s.apply_action(("MOVE", 2, sq(3, 3), sq(3, 5)))
    assert s.board[sq(3, 5)] == 3 and s.board[sq(3, 3)] == 0 and s.current_player() == 1


def test_boom_chains_through_neighbours_of_both_colours():
    cells = board(w=[(0, 0, 1), (2, 2, 2), (7, 7, 1)], b=[(1, 1, 1), (3, 3, 4), (5, 5, 1)])
    after = boom(cells, sq(0, 0))
    # (0,0) -> (1,1) -> (2,2) -> (3,3); (5,5) is two squares from (3,3): survives
    assert after == board(w=[(7, 7, 1)], b=[(5, 5, 1)])


def test_elimination_wins_and_mutual_elimination_draws():
    s = state(board(w=[(0, 0, 1)], b=[(1, 1, 2)]))
    s.apply_action(("BOOM", sq(0, 0)))
    assert s.is_terminal() and s.winner() is None  # both gone at once
    s = state(board(w=[(0, 0, 1), (7, 7, 1)], b=[(1, 1, 2)]))
    s.apply_action(("BOOM", sq(0, 0)))
    assert s.is_terminal() and s.winner() == 0


def test_fourth_repetition_and_turn_limit_draw():
    s = state(board(w=[(0, 0, 1)], b=[(7, 7, 1)]))
    shuffle = [("MOVE", 1, sq(0, 0), sq(1, 0)), ("MOVE", 1, sq(7, 7), sq(6, 7)),
               ("MOVE", 1, sq(1, 0), sq(0, 0)), ("MOVE", 1, sq(6, 7), sq(7, 7))]
    for _ in range(3):
        assert not s.is_terminal()
        for a in shuffle:
            s.apply_action(a)
    assert s.is_terminal() and s.winner() is None and s.draw_reason == "4th repetition"
    game = Expendibots(turn_limit=3)
    s = game.new_initial_state()
    for _ in range(6):
        s.apply_action([a for a in s.legal_actions() if a[0] == "MOVE"][0])
    assert s.is_terminal() and s.is_capped()


def test_random_playouts_keep_the_api_contract():
    stats = check_random_playouts(Expendibots(opening_plies=2), playouts=400, seed=9,
                                  deep_check_every=11)
    assert stats["playouts"] == 400 and sum(stats["wins"]) > 300


def test_features_by_hand():
    cells = board(w=[(0, 0, 3), (2, 0, 1)], b=[(4, 0, 1), (4, 2, 1)])
    f = features(cells, 0)
    # tokens 4 vs 2: lead 2 -> 4/144; centres (1,0) and (4,1): d = 4
    assert f == pytest.approx((4 / 144, 4 / 4 / 12, -2 / 4 / 12, 2 / 12, 2 / 12))
    g = features(cells, 1)
    assert g[0] == pytest.approx(-4 / 144) and g[1] == pytest.approx(2 / 4 / 12)


def test_alpha_beta_takes_a_winning_boom_and_beats_random():
    s = state(board(w=[(3, 3, 1), (0, 7, 1)], b=[(4, 4, 2), (2, 2, 1)]))
    assert hand_weights_player(depth=2)(s) == ("BOOM", sq(3, 3))
    summary = __import__("games.match", fromlist=["play_matches"]).play_matches(
        load_game("expendibots", opening_plies=4), (hand_weights_player(depth=1),
                                                    RandomStrategy()), 6, seed=2)
    assert summary.wins[0] >= 5


def test_td_leaf_update_by_hand():
    leaves = [LeafRecord(0.2, np.array([1.0, 0.0])), LeafRecord(0.5, np.array([0.0, 2.0]))]
    w = np.array([0.0, 0.0])
    # d0 = 0.5 - 0.2 = 0.3, d1 = 1 - 0.5 = 0.5; traces: t1: 0.5, t0: 0.3 + 0.8 * 0.5 = 0.7
    new = td_leaf_update(w, leaves, outcome=1.0, alpha=0.1, lam=0.8)
    assert new == pytest.approx([0.1 * 0.7 * 1.0, 0.1 * 0.5 * 2.0])


def test_evaluation_programs_round_trip_and_play():
    rng = random.Random(3)
    for _ in range(500):
        tree = EXPENDIBOTS_DSL.random_program(rng)
        text = EXPENDIBOTS_DSL.to_text(tree)
        assert EXPENDIBOTS_DSL.to_text(EXPENDIBOTS_DSL.parse(text)) == text
    player = EvaluationProgramPlayer("value: (my_tokens - their_tokens) * 4")
    s = ExpendibotsState()
    assert player(s) in s.legal_actions()
