"""Rules of Can't Stop (``games.cantstop.rules``) on hand-worked positions."""

import pytest

from games.cantstop import HEIGHTS, ROLL, STOP, CantStop
from games.cantstop.rules import PHASE_COLUMN, PHASE_ROLL_OR_STOP

from .cantstop_positions import position


def test_board_heights():
    assert [HEIGHTS[c] for c in range(2, 13)] == [3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3]


# --- dice pairings with 0, 1, 2, 3 neutral markers placed ----------------------------

def test_no_neutrals_every_pairing_is_offered_whole_and_duplicates_merge():
    # 1+1 / 2+3, 1+2 / 1+3, 1+3 / 1+2 -> (2,5), (3,4), (4,3)=(3,4)
    assert position(dice=(1, 1, 2, 3)).legal_actions() == [(2, 5), (3, 4)]


def test_no_neutrals_double_is_one_action_advancing_twice():
    s = position(dice=(3, 3, 4, 4))  # (6,8), (7,7), (7,7)
    assert s.legal_actions() == [(6, 8), (7, 7)]
    s.apply_action((7, 7))
    assert s.neutral[7] == 2 and s.neutral_cols == [7]


def test_one_neutral_pair_of_two_new_columns_uses_the_last_two_neutrals():
    s = position(neutral={6: 1}, dice=(1, 2, 3, 4))  # (3,7), (4,6), (5,5)
    assert s.legal_actions() == [(3, 7), (4, 6), (5, 5)]
    s.apply_action((3, 7))
    assert sorted(s.neutral_cols) == [3, 6, 7]


def test_two_neutrals_pair_needing_two_new_neutrals_is_split():
    s = position(neutral={6: 1, 8: 1}, dice=(1, 2, 3, 4))  # (3,7), (4,6), (5,5)
    # (3,7) needs two new neutrals with one left: each sum alone; (4,6) reuses 6;
    # (5,5) is one new neutral advancing twice.
    assert s.legal_actions() == [(3,), (7,), (4, 6), (5, 5)]


def test_three_neutrals_only_columns_with_neutrals_move():
    s = position(neutral={4: 1, 6: 1, 8: 1}, dice=(1, 2, 3, 5))  # (3,8), (4,7), (5,6)
    assert s.legal_actions() == [(8,), (4,), (6,)]
    s = position(neutral={4: 1, 6: 1, 8: 1}, dice=(2, 2, 4, 4))  # (4,8), (6,6), (6,6)
    assert s.legal_actions() == [(4, 8), (6, 6)]


def test_new_neutral_goes_one_above_own_marker_not_the_opponents():
    s = position(mine={7: 4}, theirs={7: 9}, dice=(3, 4, 3, 4))  # (7,7), (6,8)
    s.apply_action((6, 8))
    assert s.neutral[6] == 1 and s.neutral[8] == 1
    s = position(mine={7: 4}, theirs={7: 9}, dice=(3, 4, 3, 4))
    s.apply_action((7, 7))
    assert s.neutral[7] == 6


def test_pair_with_one_blocked_column_offers_the_other_alone():
    s = position(claimed={2: 1}, dice=(1, 1, 3, 3))  # (2,6), (4,4), (4,4)
    assert s.legal_actions() == [(6,), (4, 4)]


def test_topped_column_takes_no_more_advances_this_turn():
    s = position(neutral={2: 3}, dice=(1, 1, 2, 2))  # (2,4), (3,3), (3,3)
    assert s.legal_actions() == [(4,), (3, 3)]


def test_double_is_capped_at_the_top():
    s = position(mine={2: 2}, dice=(1, 1, 1, 1))  # (2,2) only
    s.apply_action((2, 2))
    assert s.neutral[2] == 3 and s.stopping_wins() is False and s.topped_columns() == 1


# --- bust ---------------------------------------------------------------------------------

def test_bust_removes_neutrals_and_passes_the_turn():
    s = position(mine={5: 2}, neutral={4: 2, 5: 4, 6: 1}, seed=5)
    assert s.phase == PHASE_ROLL_OR_STOP
    s.apply_action(ROLL)
    # the roll is random; force a bust by setting dice with no 4, 5 or 6 sums
    s = position(mine={5: 2}, neutral={4: 2, 5: 4, 6: 1}, dice=(1, 2, 3, 4), seed=5)
    before = s.to_dict()
    s.set_dice((1, 1, 1, 1))  # only (2,2): no neutral there and none left
    assert s.busts[0] == 1
    assert s.player == 1 and s.phase == PHASE_COLUMN
    assert s.neutral_cols == [] and all(h == 0 for h in s.neutral)
    assert s.markers[0][5] == 2  # progress of the busted turn is lost, permanent stays
    assert before["markers"] == s.to_dict()["markers"]


def test_roll_with_no_move_at_all_is_a_bust_even_with_free_neutrals():
    claimed = {c: 1 for c in (2, 3)}
    s = position(claimed=claimed, dice=(3, 4, 5, 6))
    s.set_dice((1, 1, 1, 1))  # (2,2) in a claimed column
    assert s.player == 1 and s.busts[0] == 1


# --- stop, claim, closed columns, win -------------------------------------------------------

def test_stop_makes_neutrals_permanent_and_claims_topped_columns():
    s = position(mine={7: 3}, theirs={2: 2, 7: 8}, neutral={2: 3, 7: 5}, order=[7, 2])
    s.apply_action(STOP)
    assert s.claimed[2] == 0 and s.claims == [1, 0]
    assert s.markers[0][2] == 0 and s.markers[1][2] == 0  # a claimed column is cleared
    assert s.markers[0][7] == 5 and s.markers[1][7] == 8  # older marker replaced
    assert s.player == 1 and s.neutral_cols == [] and not s.is_terminal()


def test_play_into_a_closed_column_is_refused():
    s = position(claimed={7: 1}, dice=(3, 4, 3, 4))  # (7,7) closed, (6,8) open
    assert s.legal_actions() == [(6, 8)]
    with pytest.raises(ValueError, match="illegal action"):
        s.apply_action((7, 7))
    assert s.neutral_cols == []


def test_third_column_wins_when_the_player_stops():
    s = position(claimed={2: 0, 12: 0, 7: 1}, neutral={3: 5, 6: 2})
    assert s.stopping_wins()
    s.apply_action(STOP)
    assert s.is_terminal() and s.winner() == 0 and s.returns() == [1.0, -1.0]
    assert s.legal_actions() == [] and s.current_player() == -1
    assert "player 0 wins" in str(s)


def test_rolling_again_risks_the_win():
    s = position(claimed={2: 0, 12: 0}, neutral={3: 5, 6: 2, 8: 1})
    assert s.stopping_wins()
    s.apply_action(ROLL)
    s = position(claimed={2: 0, 12: 0}, neutral={3: 5, 6: 2, 8: 1}, dice=(1, 2, 3, 5))
    s.set_dice((1, 1, 2, 2))  # (2,4), (3,3): 2 closed, 3 topped, 4 needs a fourth neutral
    assert s.player == 1 and s.claims == [2, 0] and s.busts[0] == 1
    with pytest.raises(ValueError, match="no legal move"):
        position(claimed={2: 0, 12: 0}, neutral={3: 5, 6: 2, 8: 1}, dice=(1, 1, 2, 2))


def test_move_cap_ends_without_winner():
    game = CantStop(max_moves=3)
    s = game.new_initial_state()
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.is_capped() and s.winner() is None and s.returns() == [0, 0]


def test_snapshot_errors_name_the_field():
    with pytest.raises(ValueError, match="neutral column 2"):
        position(neutral={2: 4})
    with pytest.raises(ValueError, match="dice"):
        position(dice=(0, 1, 2, 3))


def test_board_is_drawn_as_text():
    s = position(mine={7: 2}, theirs={7: 3}, neutral={7: 3}, claimed={2: 1}, dice=(1, 2, 3, 4))
    text = str(s)
    assert "player 0 to act, dice 1 2 3 4" in text
    assert " 2 |claimed by player 1" in text
    assert " 7 |.  0  1^" in text
