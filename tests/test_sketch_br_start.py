"""Sketch-UCT's best-response tree starts from the complete best program or from the
partial program of the sketch-tree node that produced it (``br_start``)."""

from __future__ import annotations

import random

import pytest

from gp.synthesis import synthesizer_class
from gp.uct import Hole

from .search_problems import ORDER, order_evaluator

BUDGET = 300


def _run(br_start: str, seed: int, rollouts: int = 5):
    cls = synthesizer_class("sketch-uct")
    ev = order_evaluator(BUDGET)
    method = cls(language=ORDER, evaluator=ev, rng=random.Random(seed),
                 settings=cls.Settings(sketch_share=0.5, rollout_evaluations=rollouts,
                                       br_start=br_start))
    method.run()
    assert ev.budget.used == BUDGET
    return method, ev


@pytest.mark.parametrize("br_start", ["complete", "incomplete"])
def test_each_start_runs_and_replays_under_a_seed(br_start):
    _, first = _run(br_start, seed=3)
    _, again = _run(br_start, seed=3)
    assert [s.program for s in first.history] == [s.program for s in again.history]
    assert first.best_value == again.best_value


def test_the_incomplete_start_inserts_the_sketch_node_with_its_holes():
    method, ev = _run("incomplete", seed=1)
    partial = method.best_partial
    assert partial is not None and any(isinstance(n, Hole) for n in partial)
    # the response tree holds the node of exactly that partial program, holes open
    node = method.response.root
    for production in (n for n in partial if not isinstance(n, Hole)):
        node = node.children[production.name]
    assert node.partial == partial and not node.complete
    assert node.visits >= 1


def test_the_complete_start_inserts_the_complete_program():
    method, ev = _run("complete", seed=1)
    node = method.response.root
    tree = method.response_start
    for production in tree:
        node = node.children[production.name]
    assert node.complete and list(node.partial) == list(tree)


def test_a_config_without_br_start_starts_complete():
    assert synthesizer_class("sketch-uct").Settings().br_start == "complete"
