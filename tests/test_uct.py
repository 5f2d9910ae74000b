"""UCT over partial programs (``gp.uct``) on ORDER: the tree's moves, selection,
simulation and backup, each driven through the class."""

from __future__ import annotations

import random

import pytest

from gp.evaluator import Budget, BudgetSpent, Evaluator
from gp.uct import UCT, Hole, Node

from .search_problems import ORDER, Seq, Var, order_evaluator, order_value

P = ORDER.pset.mapping


def _uct(evaluations: int = 50, seed: int = 0, **settings) -> UCT:
    return UCT(ORDER, order_evaluator(evaluations), random.Random(seed), **settings)


def test_a_child_fills_the_leftmost_hole_with_one_hole_per_argument_a_level_deeper():
    uct = _uct()
    assert uct.root.partial == (Hole(Seq, 0),) and not uct.root.complete
    joined = uct._apply(uct.root.partial, P["join"])
    assert joined == (P["join"], Hole(Seq, 1), Hole(Seq, 1))
    literal = uct._apply(joined, P["pos"])
    assert literal == (P["join"], P["pos"], Hole(Var, 2), Hole(Seq, 1))
    filled = uct._apply(literal, P["v3"])
    assert filled == (P["join"], P["pos"], P["v3"], Hole(Seq, 1))
    done = uct._apply(uct._apply(filled, P["neg"]), P["v0"])
    assert Node(done).complete and ORDER.to_text(done) == "join(pos(v3), neg(v0))"


def test_a_hole_offers_the_productions_that_fit_the_height_left_below_it():
    uct = _uct()

    def names(hole):
        return sorted(p.name for p in uct._productions(hole))

    assert names(Hole(Seq, 0)) == names(Hole(Seq, ORDER.max_height - 2)) == \
        ["join", "neg", "pos"]
    assert names(Hole(Seq, ORDER.max_height - 1)) == ["neg", "pos"]  # no room for a join
    assert names(Hole(Var, ORDER.max_height)) == [f"v{i}" for i in range(10)]


def test_a_child_is_made_once_and_the_untried_productions_are_the_others_shuffled():
    uct = _uct()
    child = uct._child(uct.root, P["join"])
    assert uct._child(uct.root, P["join"]) is child and uct.root.children == {"join": child}
    untried = uct._untried(uct.root)
    assert sorted(p.name for p in untried) == ["neg", "pos"]
    assert uct._untried(uct.root) is untried
    orders = set()
    for seed in range(12):
        fresh = _uct(seed=seed)
        orders.add(tuple(p.name for p in fresh._untried(fresh.root)))
    assert len(orders) > 1  # the order of expansion is drawn


def test_selection_ties_go_to_the_first_child_and_an_unvisited_parent_explores_nothing():
    parent = Node((), visits=4)
    parent.children = {"a": Node((), visits=2, total=1.0), "b": Node((), visits=2, total=1.0)}
    assert _uct()._select(parent) is parent.children["a"]
    parent = Node((), visits=0)  # ln(max(0, 1)) = 0: the means alone decide
    parent.children = {"good": Node((), visits=10, total=9.0),
                       "rare": Node((), visits=1, total=0.5)}
    assert _uct()._select(parent) is parent.children["good"]
    parent.visits = 2  # ln 2 > 0: the rarely visited child's bonus wins at K = 10
    assert _uct()._select(parent) is parent.children["rare"]


def test_a_simulation_spends_its_rollout_evaluations_and_returns_the_best_it_saw():
    uct = _uct(evaluations=100, seed=3, rollout_evaluations=4)
    ev = uct.evaluator
    partial = uct._apply(uct.root.partial, P["join"])
    value = uct._simulate(partial)
    assert ev.budget.used == 4
    seen = ev.history[-4:]
    assert value == max(s.value for s in seen)
    for s in seen:
        tree = ORDER.parse(s.program)
        assert tree[0] is P["join"] and ORDER.within_limits(tree)
    complete = ORDER.parse("pos(v2)")
    assert uct._simulate(tuple(complete)) == order_value(complete) == 0.1
    assert ev.budget.used == 5


def test_every_program_a_run_scores_is_within_the_languages_limits():
    uct = _uct(evaluations=300, seed=5, rollout_evaluations=10)
    uct.run()
    assert uct.evaluator.budget.used == 300
    for s in uct.evaluator.history:
        assert ORDER.within_limits(ORDER.parse(s.program)), s.program


def test_each_improvement_is_reported_once_with_its_program():
    reported = []
    uct = _uct(evaluations=200, seed=2, rollout_evaluations=10,
               on_improve=lambda tree, value: reported.append((ORDER.to_text(tree), value)))
    uct.run()
    values = [v for _, v in reported]
    assert values == sorted(set(values)) and len(values) >= 2
    assert values[-1] == uct.best_value == uct.evaluator.best_value
    for text, value in reported:
        assert order_value(ORDER.parse(text)) == value


def test_a_simulation_with_no_budget_left_ends_the_run():
    uct = _uct(evaluations=0)
    with pytest.raises(BudgetSpent):
        uct._simulate(uct._apply(uct.root.partial, P["join"]))
    uct.run()
    assert uct.root.visits == 0


def test_without_a_rollout_limit_a_simulation_runs_one_whole_annealing_schedule():
    limited = _uct(evaluations=200, seed=0, rollout_evaluations=5)
    limited.run()
    unlimited = _uct(evaluations=200, seed=0)
    unlimited.run()
    assert unlimited.root.visits <= 5 < 40 <= limited.root.visits


def test_an_inserted_branch_is_no_longer_untried_and_is_backed_up_along_its_path():
    uct = _uct()
    uct._untried(uct.root)
    uct.insert_branch(ORDER.parse("pos(v1)"), 0.1)
    assert sorted(p.name for p in uct.root.untried) == ["join", "neg"]
    node = uct.root.children["pos"]
    assert (uct.root.visits, uct.root.total, node.visits, node.total) == (1, 0.1, 1, 0.1)
    assert node.children["v1"].complete and node.children["v1"].visits == 1
    uct.insert_branch(ORDER.parse("pos(v2)"), 0.3)
    assert (uct.root.visits, uct.root.total) == (2, pytest.approx(0.4))
    assert set(node.children) == {"v1", "v2"}


def test_completions_and_their_neighbours_keep_to_a_tight_size_limit():
    import copy

    tight = copy.copy(ORDER)
    tight.max_size = 12  # a random completion of a deep partial often overflows this
    for seed in range(3):
        ev = Evaluator({"psi": order_value}, tight.to_text, Budget(evaluations=200))
        UCT(tight, ev, random.Random(seed), rollout_evaluations=10).run()
        sizes = [len(tight.parse(s.program)) for s in ev.history]
        assert max(sizes) <= 12 and len(sizes) == 200


def test_a_simulation_starts_from_a_random_completion_not_the_smallest():
    uct = _uct(evaluations=40, seed=4, rollout_evaluations=1)
    for _ in range(40):
        uct._simulate(uct.root.partial)
    sizes = [len(ORDER.parse(s.program)) for s in uct.evaluator.history]
    assert len(sizes) == 40 and sum(size > 2 for size in sizes) >= 5  # not all pos(v)


def test_each_simulation_counts_its_rollout_from_where_it_started():
    uct = _uct(evaluations=100, seed=6, rollout_evaluations=4)
    partial = uct._apply(uct.root.partial, P["join"])
    for expected in (4, 8, 12):
        uct._simulate(partial)
        assert uct.evaluator.budget.used == expected


def _flip_at(k_star: float) -> Node:
    """A parent whose two children tie at exploration weight ``k_star``: below it the
    often-visited child with the higher mean wins, above it the rarely visited one."""
    import math

    parent = Node((), visits=100)
    log_n = math.log(100)
    gap = k_star * (math.sqrt(log_n / 2) - math.sqrt(log_n / 50))
    parent.children = {"often": Node((), visits=50, total=50 * gap),
                       "rarely": Node((), visits=2, total=0.0)}
    return parent


def test_the_default_exploration_weight_is_10():
    uct = _uct()
    low, high = _flip_at(9.5), _flip_at(10.5)
    assert uct._select(low) is low.children["rarely"]
    assert uct._select(high) is high.children["often"]


def test_a_simulation_of_a_whole_program_reports_an_improvement():
    reported = []
    uct = _uct(on_improve=lambda tree, value: reported.append((str(tree), value)))
    complete = ORDER.parse("join(pos(v2), pos(v5))")
    assert uct._simulate(tuple(complete)) == 0.2
    assert reported == [(str(complete), 0.2)] and uct.best_value == 0.2
    assert _uct()._simulate(tuple(complete)) == 0.2  # no listener: nothing to call


def test_with_one_evaluation_per_rollout_every_evaluation_is_one_backed_up_simulation():
    uct = _uct(evaluations=60, seed=7, rollout_evaluations=1)
    uct.run()
    assert uct.root.visits == 60 == sum(c.visits for c in uct.root.children.values())
    assert uct.root.total == pytest.approx(sum(s.value for s in uct.evaluator.history))


class T:
    """A tree of pairs (``tiny``)."""


def _tiny(max_size: int, max_height: int = 4):
    """A language of pairs ``g(a, b)`` over one leaf ``t``, with a counting generator and
    neighbour move (``calls``); ``big`` makes every neighbour move overflow."""
    from gp.dsl import DSL, Syntax

    tiny = DSL("tiny", T, max_height=max_height, max_size=max_size)
    tiny.terminal("t", T, Syntax("lit", "t"), lambda: (lambda: 1))
    tiny.primitive("g", [T, T], T, Syntax("call", "g"), lambda a, b: (lambda: a() + b()))
    tiny.calls = {"generate": [], "neighbour": []}
    tiny.big = False
    generate = tiny.generate

    def counted_generate(rng, type_=None, max_height=None):
        tiny.calls["generate"].append(max_height)
        return generate(rng, type_, max_height)

    def kept_neighbour(tree, rng, max_height=None):
        tiny.calls["neighbour"].append(id(tree))
        g, t = tiny.pset.mapping["g"], tiny.pset.mapping["t"]
        return [g, t, t] if tiny.big else tree  # the same object: its hole can be told

    tiny.generate, tiny.neighbour = counted_generate, kept_neighbour
    return tiny


def _simulate_g(tiny, evaluations: int):
    seen = []
    ev = Evaluator({"psi": lambda tree: seen.append(str(tree)) or 0.0}, tiny.to_text,
                   Budget(evaluations=evaluations))
    uct = UCT(tiny, ev, random.Random(0), rollout_evaluations=evaluations)
    partial = uct._apply(uct.root.partial, tiny.pset.mapping["g"])
    uct._simulate(partial)
    return seen


def test_completions_that_never_fit_fall_back_to_the_smallest_after_100_tries():
    tiny = _tiny(max_size=2)  # room for one node below g: no completion of two holes fits
    assert _simulate_g(tiny, 1) == ["g(t, t)"]
    calls = tiny.calls["generate"]
    assert len(calls) == 2 * 100 + 2 and calls[-2:] == [0, 0]


def test_a_completion_or_move_that_exactly_fills_the_room_is_taken_at_once():
    tiny = _tiny(max_size=3, max_height=1)  # g(t, t) exactly: room 2 for the two holes
    seen = _simulate_g(tiny, 41)
    assert seen == ["g(t, t)"] * 41 and len(tiny.calls["generate"]) == 2
    moves = tiny.calls["neighbour"]
    assert len(moves) == 40  # every move fits at its first try
    assert min(moves.count(i) for i in set(moves)) >= 8 and len(set(moves)) == 2


def test_a_move_that_never_fits_leaves_the_fills_after_100_tries():
    tiny = _tiny(max_size=3, max_height=1)
    tiny.big = True
    assert _simulate_g(tiny, 2) == ["g(t, t)", "g(t, t)"]
    assert len(tiny.calls["neighbour"]) == 100
