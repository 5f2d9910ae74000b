"""GA (Glenn & Aloi) and Rule-of-28 decisions on hand-worked positions."""

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
