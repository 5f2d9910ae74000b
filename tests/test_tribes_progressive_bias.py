"""P-MCTS's progressive bias (the paper's h/(1 + n), the framework code's h/(n + ε)) and the
framework's tree search as its code runs it."""

from __future__ import annotations

import random

from games.tribes import Tribes
from games.tribes.constants import END_TURN
from games.tribes.qd import player
from games.tribes.search import SearchParams, _Node, _uct


def _node(priors: tuple, totals: tuple):
    """A node whose children have these priors h and total rewards, each visited once."""
    s = Tribes(level=0).new_initial_state(random.Random(0))
    node = _Node(s, [((END_TURN,), h, None) for h in priors], None, 0)
    for i, total in enumerate(totals):
        child = _Node(s, (), node, 1)
        child.visits, child.total = 1, total
        node.children[i] = child
    node.visits, node.lo, node.hi = len(totals), 0.0, 1.0
    return node


def _two_children(h_second: float):
    """The first child has the better mean (0.6 against 0.4); only the second a prior."""
    return _node((0.0, h_second), (0.6, 0.4))


def test_the_codes_bias_is_twice_the_papers_at_one_visit():
    node = _two_children(0.3)  # paper: 0.4 + 0.3/2 < 0.6; code: 0.4 + 0.3/1 > 0.6
    me = node.mover
    paper = _uct(node, SearchParams(bias=True), me, random.Random(0))
    code = _uct(node, SearchParams(bias=True, bias_denominator="code"), me, random.Random(0))
    unbiased = _uct(node, SearchParams(), me, random.Random(0))
    assert paper is node.children[0] and unbiased is node.children[0]
    assert code is node.children[1]


def test_player_specs_and_table1_rows_carry_the_codes_bias():
    from experiments.studies.tribes_table1 import CODE_BIAS_PAIRINGS, SEED_TABLE_I, make

    for name, pruning in (("pmcts-b-code", False), ("pmcts-pu-code", True)):
        made = player(f"{name}:300")
        assert made.params.bias_denominator == "code" and made.params.budget == 300
        assert made.params.bias and made.params.pruning == pruning
        agent = make(name, 50)
        assert agent.params.bias_denominator == "code" and agent.params.pruning == pruning
    assert player("pmcts-pu").params.bias_denominator == "paper"
    for first, second in CODE_BIAS_PAIRINGS:
        assert SEED_TABLE_I[(first, second)] == SEED_TABLE_I[(first[:-5], second)]


def _pruned_three():
    return _node((0.0, 0.3, 0.2), (0.2, 0.9, 0.5))


def test_the_framework_tree_descends_into_the_first_child_until_a_node_is_pruned():
    node = _pruned_three()
    ours = SearchParams(bias=True)
    framework = SearchParams(bias=True, framework_tree=True)
    assert _uct(node, ours, node.mover, random.Random(0)) is node.children[1]
    assert _uct(node, framework, node.mover, random.Random(0)) is node.children[0]
    assert _uct(node, framework, 1 - node.mover, random.Random(0)) is node.children[0]


def test_after_pruning_the_framework_tree_values_only_the_kept_children():
    node = _pruned_three()
    node.pruned = [True, False, False]  # the first child pruned (its h is the lowest)
    node.k_plus = 1
    framework = SearchParams(bias=True, pruning=True, framework_tree=True)
    me = node.mover
    assert _uct(node, framework, me, random.Random(0)) is node.children[1]  # best kept
    # at the opponent's node the pruned child's 0 wins the minimum (a framework bug)
    assert _uct(node, framework, 1 - me, random.Random(0)) is node.children[0]
    ours = SearchParams(bias=True, pruning=True)
    assert _uct(node, ours, 1 - me, random.Random(0)) is node.children[2]


def test_the_framework_players_play_the_root_child_of_best_mean():
    from games.tribes.search import _best_mean, _most_visited

    node = _pruned_three()
    node.children[0].visits, node.children[0].total = 5, 1.0  # most visited, mean 0.2
    assert _most_visited(node, random.Random(0)) == 0
    assert _best_mean(node, random.Random(0)) == 1
    fw = player("pmcts-pu-fw:100")
    assert fw.params.framework_tree and fw.portfolio == "framework"
    assert fw.params.bias_denominator == "code" and not player("pmcts-pu").params.framework_tree
