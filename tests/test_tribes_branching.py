"""The branching-factor study's turn products and phases."""

import math

from experiments.studies.tribes_branching import EDGE_TURNS, play, summarise


def test_turn_factor_is_the_product_of_the_choices_and_phases_take_the_edges():
    turns = [{"game": 0, "player": 0, "raw": [10, 10], "assignments": [2, 5],
              "distinct": [2, 5]} for _ in range(EDGE_TURNS)]
    turns += [{"game": 0, "player": 0, "raw": [100], "assignments": [10], "distinct": [10]}
              for _ in range(EDGE_TURNS)]
    s = summarise(turns)
    assert math.isclose(s["early"]["raw"]["log10_turn_mean_of_logs"], 2.0)
    assert math.isclose(s["early"]["assignments"]["log10_turn_mean_of_logs"], 1.0)
    assert math.isclose(s["end"]["raw"]["log10_turn_mean_of_logs"], 2.0)
    assert s["end"]["decisions_per_turn"] == 1 and s["all"]["turns"] == 2 * EDGE_TURNS


def test_a_played_game_counts_every_decision_of_both_players():
    by_type: dict = {}
    turns, _ = play(0, ("simple", "random"), 0, 3, 0, by_type)
    assert {t["player"] for t in turns} == {0, 1}
    decisions = sum(len(t["raw"]) for t in turns)
    assert by_type["end_turn"][0] == decisions  # end turn is legal at every decision here
    assert all(len(t["raw"]) == len(t["assignments"]) for t in turns)
