"""P-MCTS(PU)'s unpruning schedule: the reference code's reading and the paper's print."""

from __future__ import annotations

import random

import pytest

from games.tribes import PLAYERS, Tribes
from games.tribes.constants import END_TURN
from games.tribes.qd import player
from games.tribes.search import SearchParams, _Node, _uct


def test_the_printed_schedule_swaps_base_and_factor():
    code, printed = SearchParams(), SearchParams(unprune_schedule="printed")
    n = 10  # |A|: beta1 = 3|A| = 30, beta2 = 1.3
    assert [code.unprune_limit(n, k) for k in (1, 2, 3)] == [39, 50, 65]  # 30·1.3^k
    assert [printed.unprune_limit(n, k) for k in (1, 2, 3)] == [39, 1170, 35100]  # 1.3·30^k
    assert printed.unprune_limit(n, 40) == float("inf")  # far past any budget, no overflow
    with pytest.raises(ValueError, match="unprune_schedule"):
        SearchParams(unprune_schedule="paper")


def _pruned_node():
    s = Tribes(level=0).new_initial_state(random.Random(0))
    moves = [((END_TURN,), h, None) for h in (0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.5, 0.0)]
    node = _Node(s, moves, None, 0)
    for i in range(len(moves)):
        child = _Node(s, (), node, 1)
        child.visits, child.total = 1, 0.5
        node.children[i] = child
    node.lo, node.hi = 0.0, 1.0
    return s, node


@pytest.mark.parametrize("schedule, second_at", [("code", 51), ("printed", 1171)])
def test_a_node_unprunes_its_second_child_when_the_schedule_says(schedule, second_at):
    s, node = _pruned_node()
    params, rng, me = SearchParams(pruning=True, unprune_schedule=schedule), random.Random(0), 0
    for visits in (20, 40):  # prune to the 5 best h, then the first unpruning (> 39)
        node.visits = visits
        _uct(node, params, me, rng)
    assert node.k_plus == 2 and node.pruned.count(True) == 4
    node.visits = second_at - 1
    _uct(node, params, me, rng)
    assert node.k_plus == 2
    node.visits = second_at
    _uct(node, params, me, rng)
    assert node.k_plus == 3 and not node.pruned[5]  # h = 0.3, the best still pruned


def test_player_specs_carry_the_schedule():
    assert PLAYERS["pmcts-pu"]().params.unprune_schedule == "code"
    made = player("pmcts-pu-printed:300")
    assert made.params.unprune_schedule == "printed" and made.params.budget == 300
    assert made.params.pruning and made.params.bias


def test_table1_runner_plays_the_printed_schedule_beside_the_papers_pu_rows():
    from experiments.studies.tribes_table1 import (
        PRINTED_PU_PAIRINGS,
        SEED_TABLE_I,
        main,
        make,
    )

    agent = make("pmcts-pu-printed", 50)
    assert agent.params.unprune_schedule == "printed" and agent.params.budget == 50
    for first, second in PRINTED_PU_PAIRINGS:
        assert SEED_TABLE_I[(first, second)] == SEED_TABLE_I[("pmcts-pu", second)]
    assert main(["--pairings", "pmcts-pu-printed:osla", "--levels", "0"]) == 2
