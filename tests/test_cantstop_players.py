"""GA (Glenn & Aloi) and Rule-of-28 decisions on hand-worked positions."""

import dataclasses

import pytest

from games.cantstop import ROLL, STOP, glenn_aloi_player, rule_of_28_player
from games.cantstop.players import GLENN_ALOI, RULE_OF_28, difficulty_score, progress_score

from .cantstop_positions import position

GA = glenn_aloi_player()
R28 = rule_of_28_player()


def test_stop_when_stopping_wins_even_with_free_neutrals():
    s = position(claimed={2: 0, 12: 0}, neutral={7: 13})
    assert GA(s) == STOP and R28(s) == STOP


def test_keep_rolling_while_a_neutral_is_free():
    s = position(mine={2: 1}, neutral={2: 3, 3: 5})  # a huge score, but a neutral is free
    assert GA(s) == ROLL and R28(s) == ROLL


def test_ga_threshold_is_inclusive():
    # neutrals 4, 6, 8 each 3 above the bottom: GA (3+1)*(3+2+2) = 28, +1 evens = 29 -> stop
    s = position(neutral={4: 3, 6: 3, 8: 3})
    assert progress_score(s, GLENN_ALOI) == 28 and difficulty_score(s, GLENN_ALOI) == 1
    assert GA(s) == STOP


def test_one_below_each_threshold_rolls_on():
    # GA: neutrals 4, 6, 9 each 3 up: 4*3 + 4*2 + 4*2 = 28, no bonus: 28 < 29 -> roll
    s = position(neutral={4: 3, 6: 3, 9: 3})
    assert progress_score(s, GLENN_ALOI) == 28 and difficulty_score(s, GLENN_ALOI) == 0
    assert GA(s) == ROLL
    # Rule of 28: neutrals 2 (1 up), 5 and 8 (2 up): 2*6 + 3*3 + 3*2 = 27 < 28 -> roll
    s = position(neutral={2: 1, 5: 2, 8: 2})
    assert progress_score(s, RULE_OF_28) == 27 and difficulty_score(s, RULE_OF_28) == 0
    assert R28(s) == ROLL
    # GA there: 2*7 + 3*2 + 3*2 = 26
    assert progress_score(s, GLENN_ALOI) == 26 and GA(s) == ROLL


def test_progress_counts_cells_advanced_this_turn_from_the_own_marker():
    # own marker at 2 in column 7, neutral at 5: 3 cells this turn, (3 + 1) * value
    s = position(mine={7: 2}, neutral={7: 5})
    assert progress_score(s, GLENN_ALOI) == 4 * 1 and progress_score(s, RULE_OF_28) == 4 * 1
    s = position(mine={12: 1}, neutral={12: 2, 2: 1})
    assert progress_score(s, GLENN_ALOI) == 2 * 7 + 2 * 7
    assert progress_score(s, RULE_OF_28) == 2 * 6 + 2 * 6


@pytest.mark.parametrize("columns, ga, rule28", [
    ((3, 5, 7), 7 + 5, 2 + 4),      # odd, low (7 is low)
    ((7, 9, 11), 7 + 6, 2 + 4),     # odd, high (7 is high)
    ((2, 4, 6), 1 + 5, -2 + 4),     # even, low
    ((8, 10, 12), 1 + 6, -2 + 4),   # even, high
    ((6, 7, 8), 0, 0),              # mixed parity, neither all low nor all high
    ((2, 3, 8), 0, 0),
    ((6, 8), 1, -2),                # even only: 6 is low, 8 is high
    ((7,), 7 + 5 + 6, 2 + 4 + 4),   # odd, low and high at once
])
def test_each_difficulty_bonus_applies_exactly_when_every_neutral_qualifies(columns, ga,
                                                                            rule28):
    s = position(neutral={c: 1 for c in columns})
    assert difficulty_score(s, GLENN_ALOI) == ga
    assert difficulty_score(s, RULE_OF_28) == rule28


def test_the_marker_penalty_is_only_for_a_new_neutral():
    s = position(neutral={7: 1}, dice=(1, 2, 3, 4))  # (3,7), (4,6), (5,5)
    # GA move values: column 3: 0, 5: 0, 7: 3; the neutral in 7 is already down
    assert GA.column_move_value(s, (3, 7)) == (0 - 6) + 3
    assert GA.column_move_value(s, (5, 5)) == 2 * (2 * 0 - 6)  # a double: both terms
    assert GA(s) == (3, 7)
    # Rule of 28: column 3: 2, 4: 3, 5: 4, 6: 5, 7: 6
    assert R28.column_move_value(s, (3, 7)) == (2 - 6) + 6
    assert R28.column_move_value(s, (4, 6)) == (3 - 6) + (5 - 6)
    assert R28.column_move_value(s, (5, 5)) == 2 * (2 * 4 - 6)
    assert R28(s) == (5, 5)


def test_ga_and_rule28_disagree_on_a_hand_worked_score():
    # advances 3, 3, 2 in 4, 6, 8 (own markers at 1 in column 4)
    s = position(mine={4: 1}, neutral={4: 4, 6: 3, 8: 2})
    # GA: 4*3 + 4*2 + 3*2 = 26, evens +1 = 27 < 29 -> roll
    assert progress_score(s, GLENN_ALOI) + difficulty_score(s, GLENN_ALOI) == 27
    assert GA(s) == ROLL
    # Rule of 28: 4*4 + 4*2 + 3*2 = 30, evens -2 = 28 >= 28 -> stop
    assert progress_score(s, RULE_OF_28) + difficulty_score(s, RULE_OF_28) == 28
    assert R28(s) == STOP


def test_difficulty_odd_low_columns():
    s = position(neutral={3: 2, 5: 2, 7: 2})  # GA: 3*(7+2+1) = 30, odds 7, lows 5
    assert difficulty_score(s, GLENN_ALOI) == 12 and GA(s) == STOP
    assert difficulty_score(s, RULE_OF_28) == 6


def test_column_choice_prefers_move_value_and_existing_neutrals():
    s = position(neutral={7: 1}, dice=(1, 2, 3, 6))  # (3,9), (4,8), (5,7)
    # GA: (3,9) = -6-6 = -12, (4,8) = 2-6+4-6 = -6, (5,7) = 4-6+3 = 1
    assert GA(s) == (5, 7) and R28(s) == (5, 7)


def test_ga_ties_go_to_the_first_action_rule28_differs():
    s = position(dice=(1, 1, 5, 6))  # (2,11), (6,7)
    assert s.legal_actions() == [(2, 11), (6, 7)]
    assert GA.column_move_value(s, (2, 11)) == GA.column_move_value(s, (6, 7)) == -5
    assert GA(s) == (2, 11)
    assert R28(s) == (6, 7)  # -9 against -1


def test_double_counts_twice_per_column():
    s = position(dice=(3, 3, 4, 4))  # (6,8), (7,7)
    assert GA.column_move_value(s, (7, 7)) == 2 * (2 * 3 - 6) == 0
    assert GA.column_move_value(s, (6, 8)) == -4
    assert GA(s) == (7, 7)
    assert R28.column_move_value(s, (7, 7)) == 12 and R28(s) == (7, 7)


# The published per-column constants, columns 2..12 (Glenn & Aloi's GA; Keller's Rule of 28)
GA_PROGRESS = dict(zip(range(2, 13), (7, 7, 3, 2, 2, 1, 2, 2, 3, 7, 7)))
GA_MOVE = dict(zip(range(2, 13), (7, 0, 2, 0, 4, 3, 4, 0, 2, 0, 7)))
R28_PROGRESS = dict(zip(range(2, 13), (6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6)))
R28_MOVE = dict(zip(range(2, 13), (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)))


@pytest.mark.parametrize("column", range(2, 13))
def test_each_column_scores_its_published_progress_and_move_value(column):
    s = position(neutral={column: 2})  # 2 cells this turn: (2 + 1) * value
    assert progress_score(s, GLENN_ALOI) == 3 * GA_PROGRESS[column]
    assert progress_score(s, RULE_OF_28) == 3 * R28_PROGRESS[column]
    # a move in a column whose neutral is already down: no marker penalty
    assert GA.column_move_value(s, (column,)) == GA_MOVE[column]
    assert R28.column_move_value(s, (column,)) == R28_MOVE[column]


def test_the_shared_constants_cannot_be_changed_by_a_player():
    with pytest.raises(dataclasses.FrozenInstanceError):
        GLENN_ALOI.threshold = 28
