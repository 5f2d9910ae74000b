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


# --- a fresh game, the behaviour counters, snapshots --------------------------------------

OUTER_COLUMNS = {2, 3, 4, 10, 11, 12}


def test_a_new_game_starts_empty_with_the_first_seat_to_act():
    import random

    from games.cantstop import CantStopState

    for first in (0, 1):
        s = CantStopState(random.Random(3), first_player=first)
        data = s.to_dict()
        assert data["markers"] == [[0] * 11, [0] * 11] and data["neutral"] == [0] * 11
        assert data["claimed"] == [-1] * 11 and data["neutral_order"] == []
        assert data["player"] == first and not s.is_terminal() and not s.is_capped()
        assert data["moves"] == 0 and data["winner"] is None and s.claims == [0, 0]
        assert s.turns == ([1, 0] if first == 0 else [0, 1])
        assert s.busts == s.stops == s.banked == s.advances == s.outer == [0, 0]


def test_without_an_rng_the_game_rolls_as_with_seed_0():
    import random

    from games.cantstop import CantStopState

    a, b = CantStopState(), CantStopState(random.Random(0))
    for _ in range(30):
        assert a == b and a.rng.random() == b.rng.random()
        a.apply_action(a.legal_actions()[0])
        b.apply_action(b.legal_actions()[0])


class _Draws:
    """An rng whose ``random()`` returns the given values in turn."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_a_roll_maps_the_unit_interval_onto_all_1296_outcomes_in_order():
    from games.cantstop import CantStopState

    assert CantStopState(_Draws(0.0)).dice == (1, 1, 1, 1)
    assert CantStopState(_Draws(1 / 1296)).dice == (1, 1, 1, 2)
    assert CantStopState(_Draws(0.5)).dice == (4, 1, 1, 1)
    assert CantStopState(_Draws(1 - 1e-12)).dice == (6, 6, 6, 6)


def test_every_move_counts_its_advances_and_those_in_the_outer_columns():
    from games.cantstop.rules import ROLLS

    singles = 0
    for neutral in ({}, {6: 1, 8: 1}, {3: 1, 7: 1, 11: 1}):
        for dice in ROLLS[::7]:
            try:
                s = position(neutral=neutral, dice=dice)
            except ValueError:  # a bust: no move to count
                continue
            for action in s.legal_actions():
                singles += len(action) == 1
                t = s.clone()
                t.apply_action(action)
                assert t.advances == [len(action), 0], (dice, action)
                assert t.outer == [sum(c in OUTER_COLUMNS for c in action), 0], (dice, action)
    assert singles > 100
    s = position(dice=(1, 1, 1, 1))
    s.apply_action((2, 2))
    assert s.outer == [2, 0] and s.advances == [2, 0]


def test_stopping_counts_the_stop_and_the_cells_banked():
    s = position(mine={7: 3, 2: 1}, neutral={2: 3, 7: 5, 9: 2}, order=[7, 2, 9])
    s.apply_action(STOP)
    # 7: 5 - 3, 2: 3 - 1 (claimed), 9: 2 - 0
    assert s.stops == [1, 0] and s.banked == [6, 0]
    assert s.claimed[2] == 0 and s.markers[0][2] == 0 and s.markers[1][2] == 0
    assert s.turns == [0, 1] and s.busts == [0, 0]


def test_a_bust_counts_for_the_seat_that_busts_and_the_next_turn_for_the_other():
    s = position(neutral={4: 2, 5: 4, 6: 1}, dice=(1, 2, 3, 4))
    s.set_dice((1, 1, 1, 1))
    assert s.busts == [1, 0] and s.turns == [0, 1] and s.stops == [0, 0]


def test_a_pairing_in_a_column_claimed_by_either_seat_moves_only_the_open_one():
    for seat in (0, 1):
        s = position(claimed={12: seat}, dice=(6, 6, 1, 1))  # (2,12), (7,7), (7,7)
        assert s.legal_actions() == [(2,), (7, 7)]
        s = position(claimed={2: seat}, dice=(6, 6, 1, 1))
        assert s.legal_actions() == [(12,), (7, 7)]


def test_advanced_this_turn_counts_cells_above_the_own_marker():
    s = position(mine={7: 3}, neutral={7: 5, 6: 1})
    assert s.advanced_this_turn(7) == 2 and s.advanced_this_turn(6) == 1
    assert s.advanced_this_turn(8) == 0


def test_a_new_neutral_can_be_placed_only_below_three_and_in_a_free_column():
    assert position().can_place_new_neutral()
    assert position(neutral={4: 1, 6: 1}).can_place_new_neutral()
    assert not position(neutral={4: 1, 6: 1, 8: 1}).can_place_new_neutral()
    for seat in (0, 1):
        claimed = {c: seat for c in range(2, 13) if c != 7}
        assert not position(claimed=claimed, neutral={7: 1}).can_place_new_neutral()
        assert position(claimed=claimed).can_place_new_neutral()


def test_actions_are_named_for_a_person():
    s = position()
    assert s.action_to_string(ROLL) == "roll again"
    assert s.action_to_string(STOP) == "stop"
    assert s.action_to_string((7, 7)) == "advance 7 twice"
    assert s.action_to_string((6, 8)) == "advance 6 and 8"
    assert s.action_to_string((5,)) == "advance 5"


def test_a_snapshot_holds_every_field_over_columns_2_to_12_and_loads_back():
    s = position(player=1, mine={3: 2, 7: 4}, theirs={7: 6, 12: 1}, neutral={7: 5, 2: 1},
                 claimed={4: 0, 10: 1, 11: 1}, order=[7, 2], dice=(1, 2, 3, 4))
    data = s.to_dict()
    assert data["markers"] == [[0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 1],
                               [0, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0]]
    assert data["neutral"] == [1, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0]
    assert data["claimed"] == [-1, -1, 0, -1, -1, -1, -1, -1, 1, 1, -1]
    assert data["neutral_order"] == [7, 2] and s.neutral_cols == [7, 2]
    assert (data["player"], data["phase"], data["dice"]) == (1, PHASE_COLUMN, [1, 2, 3, 4])
    assert s.claims == [1, 2]
    again = CantStop().state_from_dict(data)
    assert again == s and again.to_dict() == data and again.legal_actions() == s.legal_actions()


def test_a_snapshot_may_leave_out_the_optional_fields():
    s = CantStop().state_from_dict({"player": 0, "phase": PHASE_ROLL_OR_STOP,
                                    "markers": [[0] * 11, [0] * 11]})
    data = s.to_dict()
    assert data["neutral"] == [0] * 11 and data["claimed"] == [-1] * 11
    assert data["moves"] == 0 and data["capped"] is False and data["winner"] is None
    assert s.legal_actions() == [ROLL, STOP]
    neutral = [0] * 11
    neutral[9 - 2], neutral[3 - 2] = 2, 1
    s = CantStop().state_from_dict({"player": 0, "phase": PHASE_ROLL_OR_STOP,
                                    "markers": [[0] * 11, [0] * 11], "neutral": neutral})
    assert s.neutral_cols == [3, 9]


def test_a_finished_game_round_trips_with_no_legal_action():
    s = position(claimed={2: 0, 12: 0, 7: 1}, neutral={3: 5, 6: 2})
    s.apply_action(STOP)
    again = CantStop().state_from_dict(s.to_dict())
    assert again == s and again.is_terminal() and again.legal_actions() == []
    assert again.winner() == 0 and again.current_player() == -1


def test_a_capped_game_has_no_seat_to_act_and_shows_no_neutrals():
    s = CantStop(max_moves=1).new_initial_state()
    s.apply_action(s.legal_actions()[0])
    assert s.is_capped() and s.current_player() == -1 and s.to_dict()["player"] == -1
    assert s.neutral_cols and "^" not in str(s) and "move cap reached" in str(s)


def test_bad_snapshots_are_refused_naming_the_field():
    good = position(dice=(1, 2, 3, 4)).to_dict()

    def refused(match, **change):
        with pytest.raises(ValueError, match=match):
            CantStop().state_from_dict({**good, **change})

    refused("bad Can't Stop state snapshot", player="x")
    refused("player 2", player=2)
    refused("player -2", player=-2)
    refused("markers/neutral need 11 columns", markers=[[0] * 11, [0] * 10])
    refused("markers/neutral need 11 columns", markers=[[0] * 10, [0] * 11])
    high = [0] * 11
    high[7 - 2] = 14
    refused("markers\\[0\\] column 7 = 14", markers=[high, [0] * 11])
    refused("markers\\[1\\] column 7 = 14", markers=[[0] * 11, high])


def test_dice_can_be_set_only_when_a_column_move_is_due():
    with pytest.raises(ValueError, match="column move is due"):
        position().set_dice((1, 2, 3, 4))
    s = position(claimed={2: 0, 12: 0, 7: 1}, neutral={3: 5, 6: 2})
    s.apply_action(STOP)
    s.phase = PHASE_COLUMN
    with pytest.raises(ValueError, match="column move is due"):
        s.set_dice((1, 2, 3, 4))


def test_a_transition_is_described_by_its_busts_and_new_dice():
    s = position(neutral={4: 2, 5: 4, 6: 1}, dice=(1, 2, 3, 4))
    assert s.describe_transition(s.clone()) == []
    before = s.clone()
    s.set_dice((1, 1, 1, 1))  # seat 0 busts, seat 1 rolls
    lines = s.describe_transition(before)
    assert len(lines) == 2 and lines[0].startswith("seat 0 busts")
    assert lines[1] == f"seat 1 rolls {' '.join(map(str, s.dice))}"
    s = position(dice=(1, 2, 3, 4))
    s.apply_action((3, 7))
    before = s.clone()
    assert s.describe_transition(before) == []
    s.apply_action(ROLL)  # seed 0: no bust, seat 0 rolls again
    assert s.player == 0 and s.dice != before.dice
    assert s.describe_transition(before) == [f"seat 0 rolls {' '.join(map(str, s.dice))}"]
    s = position(player=1, neutral={4: 2, 5: 4, 6: 1}, dice=(1, 2, 3, 4))
    before = s.clone()
    s.set_dice((1, 1, 1, 1))
    assert s.describe_transition(before)[0].startswith("seat 1 busts")


def test_the_board_text_counts_claims_and_draws_every_cell():
    s = position(claimed={2: 0, 12: 0, 3: 1}, dice=(3, 4, 5, 6))
    text = str(s)
    assert "claimed: player 0 = 2, player 1 = 1" in text
    assert " 4 |.  .  .  .  .  .  .\n" in text  # 7 cells, all empty
    assert "\n 7 |" + ".  " * 12 + "." in text


def test_json_actions_are_one_or_two_columns_2_to_12():
    game = CantStop()
    assert game.action_from_json([2, 12]) == (2, 12)
    assert game.action_from_json([7, 7]) == (7, 7)
    assert game.action_from_json([12]) == (12,) and game.action_from_json((2,)) == (2,)
    assert game.action_from_json("y") == ROLL and game.action_from_json("n") == STOP
    for bad in ([1], [13], [2, 3, 4], [], ["7"], "x", 7):
        with pytest.raises(ValueError, match="not a Can't Stop action"):
            game.action_from_json(bad)


def test_the_rule_set_chooses_the_state_class_and_shows_in_the_repr():
    from games.cantstop import CantStopState
    from games.cantstop.reference_rules import ReferenceCantStopState

    assert type(CantStop().new_initial_state()) is CantStopState
    assert type(CantStop(rules="reference").new_initial_state()) is ReferenceCantStopState
    assert repr(CantStop()) == "CantStop(max_moves=300)"
    assert repr(CantStop(9, rules="reference")) == "CantStop(max_moves=9, rules='reference')"
    for bad in ({"rules": "house"}, {"max_moves": 0}):
        with pytest.raises(ValueError):
            CantStop(**bad)


def test_a_clone_is_equal_independent_and_rolls_the_same_dice():
    s = position(mine={3: 2, 7: 4}, theirs={7: 6, 12: 1}, neutral={7: 5}, claimed={4: 1},
                 dice=(1, 2, 3, 4), seed=11)
    s.busts, s.stops, s.banked, s.advances, s.outer, s.turns = \
        [1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]
    other = s.clone()
    other.markers[1][12] = other.neutral[7] = other.claimed[4] = 0
    other.neutral_cols.append(9)
    assert (s.markers[1][12], s.neutral[7], s.claimed[4], s.neutral_cols) == (1, 5, 1, [7])
    t = s.clone()
    assert t == s and t.markers == s.markers and t.legal_actions() == s.legal_actions()
    assert (t.busts, t.stops, t.banked, t.advances, t.outer, t.turns) == \
        ([1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12])
    for _ in range(20):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[-1])
        t.apply_action(t.legal_actions()[-1])
        assert t == s


def test_the_reference_rules_allow_a_neutral_one_cell_above_the_top():
    from games.cantstop.reference_rules import ReferenceCantStopState

    s = position(neutral={2: 4}, won_now=[2], state_class=ReferenceCantStopState)
    assert s.neutral[2] == 4
    with pytest.raises(ValueError, match="neutral column 2 = 5"):
        position(neutral={2: 5}, won_now=[2], state_class=ReferenceCantStopState)
    with pytest.raises(ValueError, match="neutral column 2 = 4"):
        position(neutral={2: 4})


def test_a_game_never_stopped_is_capped_at_300_decisions_by_default():
    game = CantStop()
    s = game.new_initial_state()
    while not s.is_terminal():
        s.apply_action(ROLL if s.phase == PHASE_ROLL_OR_STOP else s.legal_actions()[0])
    assert s.is_capped() and s.move_number() == 300 and s.winner() is None
    assert game.num_players == 2 and len(s.returns()) == 2


def test_a_win_on_the_last_allowed_move_is_a_win_not_a_cap():
    data = position(claimed={2: 0, 12: 0, 7: 1}, neutral={3: 5, 6: 2}).to_dict()
    s = CantStop(max_moves=1).state_from_dict(data)
    s.apply_action(STOP)
    assert s.winner() == 0 and not s.is_capped() and s.current_player() == -1


def test_snapshots_of_the_wrong_shape_are_refused_as_snapshots():
    good = position(dice=(1, 2, 3, 4)).to_dict()
    for markers in ([[0] * 11], None, [[0] * 11, 5]):
        with pytest.raises(ValueError, match="bad Can't Stop state snapshot"):
            CantStop().state_from_dict({**good, "markers": markers})


def test_states_equal_only_states_with_the_same_snapshot():
    s = position(dice=(1, 2, 3, 4))
    assert s == position(dice=(1, 2, 3, 4)) and s != position(dice=(1, 2, 3, 5))
    assert s != s.to_dict() and s != "x" and s is not None


def test_the_board_text_names_the_seat_whose_neutrals_are_shown():
    s = position(player=1, neutral={7: 2}, claimed={12: 0})
    s.apply_action(STOP)  # seat 1 banks; seat 0 rolls (seed 0: no bust) and moves
    s.apply_action(s.legal_actions()[0])
    assert s.player == 0 and s.neutral_cols
    text = str(s)
    assert f"neutral markers (^) of player 0 in columns {s.neutral_cols[0]}" in text
    assert "12 |claimed by player 0" in text


def test_seat_0_acts_first_by_default_and_two_columns_do_not_win():
    s = CantStop().new_initial_state()
    assert s.current_player() == 0 and s.turns == [1, 0]
    s = position(claimed={2: 0}, neutral={3: 5})
    assert not s.stopping_wins()
    s.apply_action(STOP)
    assert s.claims == [2, 0] and not s.is_terminal() and s.winner() is None


def test_a_rolled_bust_counts_for_the_seat_and_passes_the_turn():
    import random

    from games.cantstop import CantStopState

    data = position(neutral={4: 2, 5: 4, 6: 1}).to_dict()
    # four ones: only (2, 2), with no neutral left for seat 0; the same roll is legal
    # for seat 1
    s = CantStopState.from_dict(data, rng=_Draws(0.0, 0.0))
    s.apply_action(ROLL)
    assert s.busts == [1, 0] and s.turns == [0, 1] and s.player == 1
    assert s.legal_actions() == [(2, 2)] and s.neutral_cols == []
    rng = random.Random(5)
    CantStopState.from_dict(data, rng=rng)
    assert rng.getstate() == random.Random(5).getstate()  # restoring draws nothing


def test_snapshots_no_play_can_reach_are_refused():
    def refused(match, **fields):
        with pytest.raises(ValueError, match=match):
            position(**fields)

    refused("markers\\[0\\] column 7 = -1", mine={7: -1})
    refused("neutral_order does not match neutral", neutral={7: 2}, order=[8])
    refused("neutral_order does not match neutral", neutral={2: 1, 3: 1, 4: 1, 5: 1})


def test_a_game_capped_on_a_roll_describes_no_seat_rolling():
    s = CantStop(max_moves=2).new_initial_state()
    s.apply_action(s.legal_actions()[0])
    before = s.clone()
    s.apply_action(ROLL)  # seed 0: no bust; the cap ends the game on the new dice
    assert s.is_capped() and s.phase == PHASE_COLUMN and s.busts == [0, 0]
    assert s.describe_transition(before) == []
