"""P-MCTS's progressive bias: the paper's h/(1 + n) and the framework code's h/(n + ε)."""

from __future__ import annotations

import random

from games.tribes import Tribes
from games.tribes.constants import END_TURN
from games.tribes.qd import player
from games.tribes.search import SearchParams, _Node, _uct


def _two_children(h_second: float):
    """A node whose first child has the better mean (0.6 against 0.4), each visited once;
    only the second has a prior."""
    s = Tribes(level=0).new_initial_state(random.Random(0))
    node = _Node(s, [((END_TURN,), 0.0, None), ((END_TURN,), h_second, None)], None, 0)
    for i, total in enumerate((0.6, 0.4)):
        child = _Node(s, (), node, 1)
        child.visits, child.total = 1, total
        node.children[i] = child
    node.visits, node.lo, node.hi = 2, 0.0, 1.0
    return node


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
