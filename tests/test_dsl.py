"""Typed DSLs (``gp.dsl``): least heights, the generator's limits, the neighbour move,
the compiler and prefix-list helpers, on ORDER and on small made-up grammars."""

from __future__ import annotations

import functools
import random

import pytest
from deap import gp

from gp.dsl import DSL, ProgramPlayer, Syntax, node_depth, subtree_end

from .search_problems import ORDER, Seq, Var, literals

TREE = "join(pos(v1), join(neg(v2), pos(v3)))"


class A:
    """Needs a B."""


class B:
    """Needs a C."""


class C:
    """A leaf type."""


class Nowhere:
    """A type with no finite program."""


def _chain() -> DSL:
    dsl = DSL("chain", A, max_height=6, max_size=10)
    dsl.terminal("c", C, Syntax("lit", "c"), lambda: (lambda: "c"))
    dsl.primitive("b", [C], B, Syntax("call", "b"), lambda x: (lambda: f"b({x()})"))
    dsl.primitive("a", [B], A, Syntax("call", "a"), lambda x: (lambda: f"a({x()})"))
    return dsl


def test_least_heights_are_the_grammars_fixpoint_and_follow_new_productions():
    assert ORDER.min_heights() == {Seq: 1, Var: 0}
    dsl = _chain()
    assert dsl.min_heights() == {A: 2, B: 1, C: 0}
    dsl.terminal("b0", B, Syntax("lit", "b0"), lambda: (lambda: "b0"))
    assert dsl.min_heights() == {A: 1, B: 0, C: 0}
    dsl.primitive("n", [Nowhere], A, Syntax("call", "n"), lambda x: x)
    dsl.primitive("m", [Nowhere], Nowhere, Syntax("call", "m"), lambda x: x)
    with pytest.raises(ValueError, match=r"DSL chain: no finite program of type\(s\) "
                                         r"\['Nowhere'\]"):
        dsl.min_heights()


def test_a_production_is_offered_only_where_its_least_height_fits():
    assert sorted(p.name for p in ORDER._choices(Seq, 2)) == ["join", "neg", "pos"]
    assert sorted(p.name for p in ORDER._choices(Seq, 1)) == ["neg", "pos"]
    with pytest.raises(ValueError, match="no production of type Seq fits height 0"):
        ORDER._choices(Seq, 0)
    assert [p.name for p in _chain()._choices(A, 2)] == ["a"]
    with pytest.raises(ValueError, match="no production of type A fits height 1"):
        _chain()._choices(A, 1)


def test_generated_programs_keep_to_the_height_asked_and_reach_it():
    rng = random.Random(0)
    for limit in (1, 2, 4, 8):
        heights = [gp.PrimitiveTree(ORDER.generate(rng, Seq, limit)).height
                   for _ in range(300)]
        assert max(heights) == limit and min(heights) == 1
    roots = {ORDER.generate(rng)[0].name for _ in range(200)}
    assert roots == {"join", "pos", "neg"}
    # a height below the type's least height is raised to it
    assert gp.PrimitiveTree(ORDER.generate(rng, Seq, 0)).height == 1
    assert [n.name for n in _chain().generate(rng, A, 0)] == ["a", "b", "c"]


def test_a_random_program_keeps_to_the_size_limit_or_falls_back_to_the_smallest():
    rng = random.Random(1)
    for _ in range(100):
        assert len(ORDER.random_program(rng)) <= ORDER.max_size
    tight = DSL("tight", Seq, max_height=8, max_size=2)
    for i in range(3):
        tight.terminal(f"v{i}", Var, Syntax("lit", f"v{i}"), lambda: (lambda: 0))
    tight.primitive("pos", [Var], Seq, Syntax("call", "pos"), lambda v: v)
    tight.primitive("join", [Seq, Seq], Seq, Syntax("call", "join"), lambda a, b: a)
    sizes = {len(tight.random_program(rng, tries=3)) for _ in range(40)}
    assert sizes == {2}  # pos(v): every join is over the limit
    assert {len(tight.random_program(random.Random(s), tries=0)) for s in range(5)} == {2}


def _one_subtree_apart(old: list, new: list) -> bool:
    """``new`` is ``old`` with the subtree at some index replaced."""
    old_names, new_names = [n.name for n in old], [n.name for n in new]
    for i in range(len(old)):
        tail = old_names[subtree_end(old, i):]
        if new_names[:i] == old_names[:i] and len(new_names) >= i + 1 + len(tail) and \
                new_names[len(new_names) - len(tail):] == tail:
            return True
    return False


def test_the_neighbour_regrows_one_subtree_within_the_limits():
    tree = ORDER.parse(TREE)
    rng = random.Random(2)
    changed = 0
    for _ in range(200):
        new = ORDER.neighbour(tree, rng)
        assert type(new) is gp.PrimitiveTree and ORDER.within_limits(new)
        assert _one_subtree_apart(list(tree), list(new))
        changed += str(new) != str(tree)
    assert changed > 100
    assert type(ORDER.neighbour(list(tree), rng)) is list
    for _ in range(100):  # under a lower height limit, the regrown subtree obeys it
        assert gp.PrimitiveTree(ORDER.neighbour(tree, rng, max_height=3)).height <= 3


def test_a_neighbour_that_never_fits_is_the_program_itself():
    dsl = _chain()
    dsl.max_size = 2
    tree = [dsl.pset.mapping["a"], dsl.pset.mapping["b"], dsl.pset.mapping["c"]]
    assert dsl.neighbour(tree, random.Random(0)) == tree


def test_limits_hold_at_their_boundaries():
    import copy

    def limited(height, size):
        dsl = copy.copy(ORDER)
        dsl.max_height, dsl.max_size = height, size
        return dsl

    tree = ORDER.parse("join(pos(v0), neg(v1))")  # size 5, height 2
    assert limited(2, 5).within_limits(tree)
    assert not limited(2, 4).within_limits(tree) and not limited(1, 5).within_limits(tree)


def test_a_program_compiles_to_the_closure_of_its_nodes():
    assert literals(ORDER.parse(TREE)) == [(1, True), (2, False), (3, True)]
    assert _chain().compile([_chain().pset.mapping[n] for n in "abc"])() == "a(b(c))"
    two_roots = list(ORDER.parse("pos(v1)")) + list(ORDER.parse("pos(v2)"))
    with pytest.raises(ValueError, match="malformed program tree"):
        ORDER.compile(two_roots)


def test_subtrees_and_depths_of_a_prefix_list():
    nodes = list(ORDER.parse(TREE))
    # join pos v1 join neg v2 pos v3
    assert [subtree_end(nodes, i) for i in range(8)] == [8, 3, 3, 8, 6, 6, 8, 8]
    assert [node_depth(nodes, i) for i in range(8)] == [0, 1, 2, 1, 2, 3, 2, 3]


def test_programs_run_through_compile_and_declarations_that_would_not_parse_are_refused():
    with pytest.raises(RuntimeError, match="join: programs run through DSL.compile"):
        ORDER.pset.context["join"](1, 2)
    dsl = _chain()
    with pytest.raises(ValueError, match="DSL chain: primitive 'bad'"):
        dsl.primitive("bad", [C, C], B, Syntax("lit", "bad"), lambda x, y: x)
    with pytest.raises(ValueError, match="DSL chain: primitive 'c2'"):
        dsl.terminal("c2", C, Syntax("call", "c2"), lambda: (lambda: 0))


class _Player(ProgramPlayer):
    LANGUAGE = ORDER
    lowerings = {"demo": "builtins:repr"}

    def __init__(self, text: str) -> None:
        self.text = text


class _Heir(_Player):
    pass


def test_a_player_lowers_only_through_its_own_class_declarations():
    player = _Player("pos(v1)")
    assert player.lowering("demo") == repr(player) and player.lowering("other") is None
    assert _Heir("pos(v1)").lowering("demo") is None
    assert str(player) == "pos(v1)" and _Player.default_dsl() is ORDER
    assert str(_Player.parse_program("pos(v1)")) == str(ORDER.parse("pos(v1)"))


def test_a_primitive_without_operands_counts_one_level_above_a_terminal():
    """Kept so that the microRTS runs (whose language has such primitives) replay."""
    dsl = DSL("leaves", A, max_height=3, max_size=10)
    dsl.primitive("k", [], C, Syntax("lit", "k"), lambda: (lambda: "k"))
    dsl.primitive("b", [C], B, Syntax("call", "b"), lambda x: (lambda: f"b({x()})"))
    dsl.primitive("a", [B], A, Syntax("call", "a"), lambda x: (lambda: f"a({x()})"))
    assert dsl.min_heights() == {A: 3, B: 2, C: 1}
    assert [p.name for p in dsl._choices(C, 1)] == ["k"]
    assert [p.name for p in dsl._choices(A, 3)] == ["a"]
    with pytest.raises(ValueError, match="no production of type C fits height 0"):
        dsl._choices(C, 0)
    with pytest.raises(ValueError, match="no production of type A fits height 2"):
        dsl._choices(A, 2)
    tree = gp.PrimitiveTree(dsl.generate(random.Random(0), A, 0))
    assert [n.name for n in tree] == ["a", "b", "k"] and tree.height == 2
    assert dsl.compile(tree)() == "a(b(k))"


def _pairs(max_size: int) -> DSL:
    """Programs pos(v) (2 nodes) or pair(v, v) (3 nodes)."""
    dsl = DSL("pairs", Seq, max_height=2, max_size=max_size)
    for i in range(2):
        dsl.terminal(f"v{i}", Var, Syntax("lit", f"v{i}"), lambda: (lambda: 0))
    dsl.primitive("pos", [Var], Seq, Syntax("call", "pos"), lambda v: v)
    dsl.primitive("pair", [Var, Var], Seq, Syntax("call", "pair"), lambda a, b: a)
    return dsl


def test_a_program_or_neighbour_of_exactly_the_size_limit_is_kept():
    dsl, rng = _pairs(3), random.Random(4)
    assert {len(dsl.random_program(rng)) for _ in range(60)} == {2, 3}
    start = dsl.parse("pos(v0)")
    assert {len(dsl.neighbour(start, rng)) for _ in range(60)} == {2, 3}
    smaller = _pairs(2)
    assert {len(smaller.random_program(rng)) for _ in range(60)} == {2}
    assert {len(smaller.neighbour(start, rng)) for _ in range(60)} == {2}


def test_a_program_and_a_neighbour_are_drawn_100_times_before_giving_up():
    dsl = _pairs(1)  # every program has 2 or 3 nodes: nothing ever fits
    start = dsl.parse("pos(v0)")

    def state_after(draw, **tries) -> object:
        rng = random.Random(9)
        draw(rng, **tries)
        return rng.getstate()

    for draw in (dsl.random_program, functools.partial(dsl.neighbour, start)):
        assert state_after(draw) == state_after(draw, tries=100)
        assert state_after(draw) != state_after(draw, tries=101)
        assert state_after(draw) != state_after(draw, tries=99)
    assert dsl.neighbour(start, random.Random(1)) == start
    assert len(dsl.random_program(random.Random(1))) == 2  # the fallback: least height


def test_a_language_is_typed_and_limited_to_height_12_and_80_nodes_unless_told():
    from gp.simplify import simplify

    dsl = DSL("sums", Seq)
    assert (dsl.max_height, dsl.max_size) == (12, 80)
    dsl.terminal("x", Seq, Syntax("lit", "x"), lambda: (lambda: 1))
    dsl.terminal("zero", Seq, Syntax("lit", "0"), lambda: (lambda: 0))
    dsl.primitive("plus", [Seq, Seq], Seq, Syntax("binop", "+"), lambda a, b: a)
    # typed values never fail, so a subtree that adds nothing may go
    assert dsl.to_text(simplify(dsl, dsl.parse("x + 0"))) == "x"

    class Untyped(DSL):
        programs_may_fail = True

    untyped = Untyped("sums", Seq)
    for name in ("x", "zero", "plus"):
        if name == "plus":
            untyped.primitive(name, [Seq, Seq], Seq, dsl.syntax[name], dsl.builders[name])
        else:
            untyped.terminal(name, Seq, dsl.syntax[name], dsl.builders[name])
    assert untyped.to_text(simplify(untyped, untyped.parse("x + 0"))) == "x + 0"
