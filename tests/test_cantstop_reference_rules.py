"""Can't Stop under rules=reference: the sketch-learning paper's reference engine, bug included.

The fixture traces were recorded from the reference code itself (see
docs/cantstop-reference-rules.md); the hand-worked positions are the places where
the two rule sets differ (D1 top cell, D2 the double-count bug, D3 move order,
D4 "stop if stopping wins").
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from games import load_game
from games.cantstop import ROLL, STOP, CantStopState, glenn_aloi_player, rule_of_28_player
from games.cantstop.players import GLENN_ALOI, progress_score
from games.cantstop.reference_rules import (
    ReferenceCantStopState,
    neutral_positions,
    positions_opponent_has_secured,
    positions_player_has_secured,
)
from games.cantstop.reference_traces import read_traces, replay
from games.cantstop.rules import PHASE_COLUMN, PHASE_ROLL_OR_STOP
from games.match import play_matches

from .cantstop_positions import position

TRACES = Path(__file__).parent / "fixtures" / "cantstop_reference_traces.jsonl"
GA = glenn_aloi_player()
R28 = rule_of_28_player()


def ref_position(*args, **kwargs) -> ReferenceCantStopState:
    return position(*args, state_class=ReferenceCantStopState, **kwargs)


# ---- the traces recorded from the reference code -------------------------------------------
@functools.cache
def _traces() -> list[dict]:
    return list(read_traces(TRACES))


def test_fixture_covers_every_seat_and_the_bug():
    traces = _traces()
    assert sum(t["decisions"] for t in traces) >= 40_000
    seats = {tuple(t["seats"]) for t in traces}
    assert {("random", "ga"), ("ga", "random"), ("rule28", "ga"), ("ga", "ga")} <= seats


def test_a_sample_of_traces_replays_decision_by_decision():
    # every 7th match: each seat pairing once per block of seven
    for trace in _traces()[::7]:
        assert replay(trace) is None


@pytest.mark.slow
def test_every_trace_replays_decision_by_decision():
    for trace in _traces():
        assert replay(trace) is None


def test_the_paper_rules_do_not_replay_the_traces():
    disagreements = [replay(t, state_class=CantStopState) for t in _traces()[:20]]
    assert all(d is not None for d in disagreements)


# ---- D1: the top cell ----------------------------------------------------------------------
def test_d1_a_neutral_on_the_top_cell_may_step_once_more_and_that_claims():
    # column 2 is 3 cells; neutral on cell 3; dice 1 1 x x give a 2
    paper = position(neutral={2: 3}, dice=(1, 1, 3, 4))
    ref = ref_position(neutral={2: 3}, dice=(1, 1, 3, 4))
    assert (2,) not in paper.legal_actions() and all(2 not in a for a in paper.legal_actions())
    assert (2, 7) in ref.legal_actions()
    ref.apply_action((2, 7))
    assert ref.won_now == [2] and ref.neutral[2] == 4 and ref.stopping_wins() is False
    assert ref.advanced_this_turn(2) == 4  # three cells and the step past the top
    ref.apply_action(STOP)
    assert ref.claimed[2] == 0 and ref.markers[0][2] == 0


def test_d1_stopping_on_the_top_cell_does_not_claim():
    paper = position(neutral={2: 3}, theirs={2: 1})
    ref = ref_position(neutral={2: 3}, theirs={2: 1})
    paper.apply_action(STOP)
    ref.apply_action(STOP)
    assert paper.claimed[2] == 0 and paper.markers[1][2] == 0
    assert ref.claimed[2] == -1 and ref.markers[0][2] == 3 and ref.markers[1][2] == 1


# ---- D2: the bug -----------------------------------------------------------------------------
def test_d2_from_own_marker_on_the_top_cell_counts_a_neutral_but_places_none():
    s = ref_position(mine={2: 3}, dice=(1, 1, 3, 4))  # (2,7) (4,5) (5,4)
    s.apply_action((2, 7))
    assert s.neutral_cols == [7] and s.neutral[2] == 0
    assert s.neutral_count == 2 and s.won_now == [2]
    assert s.advanced_this_turn(2) == 1
    s.apply_action(ROLL)
    s.set_dice((1, 1, 3, 4))  # the 2 is no longer offered: the column is claimed this turn
    assert all(2 not in a for a in s.legal_actions())


def test_d2_a_double_counts_twice_and_ga_then_never_stops():
    # two neutrals down (count 2); 1 1 1 1 gives only (2, 2) on the player's top marker
    s = ref_position(mine={2: 3}, neutral={7: 13, 8: 11}, dice=(1, 1, 1, 1))
    assert s.legal_actions() == [(2, 2)]
    s.apply_action((2, 2))
    assert s.neutral_count == 4 and s.won_now == [2] and s.neutral_cols == [7, 8]
    # progress far above the threshold, but the count is 4, not 3: "a neutral is free"
    assert progress_score(s, GLENN_ALOI) == 14 * 1 + 12 * 2 >= GLENN_ALOI.threshold
    assert s.can_place_new_neutral() and GA(s) == ROLL and R28(s) == ROLL
    # with the count at 4 only moves in the neutral columns are legal
    s.apply_action(ROLL)
    while s.phase == PHASE_COLUMN and s.player == 0:
        assert all(s.neutral[c] for a in s.legal_actions() for c in a)
        s.apply_action(s.legal_actions()[0])
        assert GA(s) == ROLL or s.stopping_wins()
        s.apply_action(ROLL) if GA(s) == ROLL else s.apply_action(STOP)


def test_d2_stopping_claims_the_column():
    s = ref_position(mine={2: 3}, theirs={2: 2}, dice=(1, 1, 3, 4))
    s.apply_action((2, 7))
    s.apply_action(STOP)
    assert s.claimed[2] == 0 and s.claims[0] == 1 and s.markers[1][2] == 0
    assert s.markers[0][7] == 1


# ---- D3: the order of the legal moves ------------------------------------------------------
def test_d3_moves_in_set_order_change_ga_tie_break():
    paper = position(dice=(1, 1, 5, 6))
    ref = ref_position(dice=(1, 1, 5, 6))
    assert paper.legal_actions() == [(2, 11), (6, 7)]
    assert ref.legal_actions() == [(6, 7), (2, 11)]
    assert GA(paper) == (2, 11) and GA(ref) == (6, 7)  # both worth -5 to GA


# ---- D4: stop if stopping wins -------------------------------------------------------------
def test_d4_stopping_wins_only_at_exactly_three_columns():
    # one column claimed, two claimed this turn: exactly three -> stop
    s = ref_position(claimed={12: 0}, neutral={2: 4, 3: 6}, won_now=[2, 3])
    assert s.stopping_wins() and GA(s) == STOP
    # two claimed, two more this turn: four -> the reference players do not see the win
    s = ref_position(claimed={11: 0, 12: 0}, neutral={2: 4, 3: 6}, won_now=[2, 3])
    assert not s.stopping_wins() and GA(s) == ROLL and R28(s) == ROLL
    paper = position(claimed={11: 0, 12: 0}, neutral={2: 3, 3: 5})
    assert paper.stopping_wins() and GA(paper) == STOP
    s.apply_action(STOP)  # stopping would have won all the same
    assert s.winner() == 0 and s.claims[0] == 4


# ---- the reference DSL's board functions ---------------------------------------------------
def test_positions_player_has_secured_follows_the_reference():
    s = ref_position(mine={4: 2, 6: 3, 2: 3}, theirs={4: 4}, neutral={6: 5, 3: 6},
                     claimed={12: 0, 11: 1}, won_now=[3])
    assert positions_player_has_secured(s, 12) == 4  # claimed by the player: height + 1
    assert positions_player_has_secured(s, 11) == 0  # claimed by the opponent
    assert positions_player_has_secured(s, 6) == 5   # the neutral, this turn's progress included
    assert positions_player_has_secured(s, 3) == 6   # a neutral past the top cell
    assert positions_player_has_secured(s, 4) == 2   # the permanent marker
    assert positions_player_has_secured(s, 2) == 3   # own marker on the top cell, not claimed
    assert positions_player_has_secured(s, 7) == 0
    assert positions_opponent_has_secured(s, 4) == 4
    assert positions_opponent_has_secured(s, 11) == 6 and positions_opponent_has_secured(s, 12) == 0
    with pytest.raises(ValueError, match="out of range"):
        positions_player_has_secured(s, 13)


def test_positions_player_has_secured_counts_the_d2_claim():
    s = ref_position(mine={2: 3}, dice=(1, 1, 3, 4))
    assert positions_player_has_secured(s, 2) == 3
    s.apply_action((2, 7))
    assert positions_player_has_secured(s, 2) == 4


def test_neutral_positions_reference_order_and_claimed_columns():
    s = ref_position(neutral={4: 1, 6: 1}, order=[4, 6], dice=(2, 2, 3, 3))  # (4,6) (5,5)
    s.apply_action((4, 6))
    assert neutral_positions(s) == [4, 6]
    s.apply_action(ROLL)
    s.set_dice((1, 3, 2, 2))  # (4,4) (3,5) (3,5)
    s.apply_action((4, 4))
    assert neutral_positions(s) == [6, 4]  # a neutral that moves goes last
    t = ref_position(neutral={2: 3, 7: 2}, order=[2, 7], dice=(1, 1, 3, 4))
    t.apply_action((2, 7))  # 2 steps past its top cell (claimed, stays listed); 7 moves last
    assert neutral_positions(t) == [2, 7] and t.won_now == [2]


# ---- the game parameter, snapshots, copies ---------------------------------------------------
def test_game_parameter_selects_the_rules():
    assert type(load_game("cantstop").new_initial_state()) is CantStopState
    game = load_game("cantstop", rules="reference")
    assert type(game.new_initial_state(random.Random(1))) is ReferenceCantStopState
    assert "reference" in repr(game)
    with pytest.raises(ValueError, match="rules must be 'paper' or 'reference'"):
        load_game("cantstop", rules="seed")


def test_snapshot_round_trip_and_clone_are_independent():
    s = ref_position(mine={2: 3}, neutral={7: 13, 8: 11}, dice=(1, 1, 1, 1))
    s.apply_action((2, 2))
    game = load_game("cantstop", rules="reference")
    again = game.state_from_dict(s.to_dict())
    assert again == s and again.neutral_count == 4 and again.won_now == [2]
    copy = s.clone()
    copy.apply_action(STOP)
    assert s.phase == PHASE_ROLL_OR_STOP and s.neutral_count == 4 and copy.claimed[2] == 0


def test_bad_reference_snapshot_names_the_field():
    with pytest.raises(ValueError, match="neutral above column 2"):
        ref_position(neutral={2: 4}, won_now=[])


def test_random_playouts_keep_the_reference_invariants():
    game = load_game("cantstop", rules="reference")
    rng = random.Random(5)
    for seed in range(30):
        s = game.new_initial_state(random.Random(seed))
        while not s.is_terminal():
            assert len(s.neutral_cols) <= s.neutral_count <= 4
            assert len(set(s.won_now)) == len(s.won_now)
            s.apply_action(rng.choice(s.legal_actions()))


def test_matches_are_deterministic_under_a_seed():
    game = load_game("cantstop", rules="reference")
    a = play_matches(game, (GA, R28), 20, seed=3)
    b = play_matches(game, (GA, R28), 20, seed=3)
    assert a.wins == b.wins and a.mean_moves == b.mean_moves
