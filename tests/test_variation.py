"""Variation on program trees: typed one-point crossover and subtree regrowth."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from deap import gp

from gp.dsl import node_depth, subtree_end
from gp.variation import cxOnePoint, mutSubtree

from .search_problems import ORDER, Seq, Var


def _tree(text: str) -> gp.PrimitiveTree:
    return ORDER.parse(text)


def _names(tree) -> list[str]:
    return [node.name for node in tree]


def _well_typed(tree) -> bool:
    """Every child has the type its parent's slot asks for, and the tree is whole."""
    if tree[0].ret is not Seq:
        return False
    for i, node in enumerate(tree):
        child = i + 1
        for arg in getattr(node, "args", []):
            if tree[child].ret is not arg:
                return False
            child = subtree_end(tree, child)
    return subtree_end(tree, 0) == len(tree)


def _replaced_subtree(parent, child):
    """(index, old subtree, new subtree) if ``child`` is ``parent`` with one subtree
    replaced by a complete subtree of the same type, else None (the last such subtree:
    the smallest replacement)."""
    p, c = _names(parent), _names(child)
    for i in reversed(range(len(parent))):
        end = subtree_end(parent, i)
        rest = len(parent) - end
        new_end = len(child) - rest
        if new_end <= i or p[:i] != c[:i] or p[end:] != c[new_end:]:
            continue
        new = child[i:new_end]
        if new[0].ret is parent[i].ret and subtree_end(new, 0) == len(new):
            return i, parent[i:end], new
    return None


def test_crossover_swaps_one_subtree_of_a_common_type_and_keeps_every_node():
    rng = random.Random(0)
    swapped_types = Counter()
    for _ in range(200):
        a, b = ORDER.random_program(rng, 5), ORDER.random_program(rng, 5)
        if len(a) < 2 or len(b) < 2:
            continue
        before = Counter(_names(a)) + Counter(_names(b))
        a0, b0 = list(a), list(b)
        c, d = cxOnePoint(gp.PrimitiveTree(a), gp.PrimitiveTree(b), rng)
        assert Counter(_names(c)) + Counter(_names(d)) == before
        assert _well_typed(c) and _well_typed(d)
        assert c[0] is a0[0] and d[0] is b0[0]  # the roots never move
        if _names(c) == _names(a0):
            continue
        _, gone, arrived = _replaced_subtree(a0, c)
        assert _replaced_subtree(b0, d) is not None
        assert len(c) - len(a0) == len(b0) - len(d)  # one subtree went each way
        swapped_types[arrived[0].ret.__name__] += 1
    assert set(swapped_types) == {"Seq", "Var"}  # both common types get drawn


def test_crossover_leaves_a_single_node_program_alone():
    rng = random.Random(1)
    lone = _tree("pos(v1)")[:1]  # a root alone cannot be cut
    other = _tree("join(pos(v1), neg(v2))")
    assert cxOnePoint(gp.PrimitiveTree(lone), gp.PrimitiveTree(other), rng) == (lone, other)
    state = rng.getstate()
    assert cxOnePoint(gp.PrimitiveTree(other), gp.PrimitiveTree(lone), rng) == (other, lone)
    assert rng.getstate() == state  # nothing drawn


def test_crossover_draws_only_from_the_given_stream_and_repeats_with_it():
    a, b = _tree("join(pos(v1), neg(v2))"), _tree("join(neg(v3), join(pos(v4), pos(v5)))")
    runs = []
    for _ in range(2):
        random.seed(99)
        runs.append([_names(t) for t in cxOnePoint(gp.PrimitiveTree(a), gp.PrimitiveTree(b),
                                                    random.Random(5))])
        runs.append(random.random())
    assert runs[0] == runs[2] and runs[1] == runs[3]
    random.seed(5)
    assert [_names(t) for t in cxOnePoint(gp.PrimitiveTree(a), gp.PrimitiveTree(b))] == runs[0]


def test_a_var_can_only_trade_with_a_var():
    rng = random.Random(3)
    a, b = _tree("pos(v1)"), _tree("neg(v2)")  # the only common cut point type: Var
    for _ in range(20):
        c, d = cxOnePoint(gp.PrimitiveTree(a), gp.PrimitiveTree(b), rng)
        assert _names(c) == ["pos", "v2"] and _names(d) == ["neg", "v1"]


def test_subtree_mutation_regrows_one_subtree_within_the_limits():
    rng = random.Random(4)
    parent = _tree("join(join(pos(v1), neg(v2)), join(pos(v3), pos(v4)))")
    changed = 0
    for _ in range(200):
        child = mutSubtree(parent, rng, dsl=ORDER)
        assert isinstance(child, gp.PrimitiveTree) and _well_typed(child)
        assert ORDER.within_limits(child)
        if _names(child) == _names(parent):
            continue
        changed += 1
        assert _replaced_subtree(parent, child) is not None
    assert changed > 150


def test_subtree_bounds_and_depths_of_a_prefix_list():
    tree = _tree("join(join(pos(v1), neg(v2)), pos(v3))")
    assert _names(tree) == ["join", "join", "pos", "v1", "neg", "v2", "pos", "v3"]
    assert [subtree_end(tree, i) for i in range(len(tree))] == [8, 6, 4, 4, 6, 6, 8, 8]
    assert [node_depth(tree, i) for i in range(len(tree))] == [0, 1, 2, 3, 2, 3, 1, 2]
    assert tree[3].ret is Var


def test_the_language_is_passed_by_name():
    # partial(mutSubtree, dsl=...) is how every search binds it
    tree, rng = _tree("join(pos(v1), neg(v2))"), random.Random(0)
    assert _well_typed(mutSubtree(tree=tree, rng=rng, dsl=ORDER))
    with pytest.raises(TypeError):
        mutSubtree(tree, rng, ORDER)
