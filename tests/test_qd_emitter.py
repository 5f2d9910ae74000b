"""MAP-Elites' program emitter, through its own class: which elites pair up, how often
crossover happens, what a crossover child beyond the limits becomes, and its defaults."""

from __future__ import annotations

import random

import numpy as np
import pytest

import qd.map_elites as map_elites
from qd.map_elites import ProgramEmitter

from .search_problems import ORDER


class _Archive:
    """Stands in for a ribs archive: the elites it hands out, and how many were asked."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.asked: list[int] = []
        self.empty = not texts
        self.dtypes = {"solution": object}

    def sample_elites(self, n: int) -> dict:
        self.asked.append(n)
        return {"solution": np.array(self.texts[:n], dtype=object)}


def _parents(n: int) -> list[str]:
    rng = random.Random(5)
    texts: list[str] = []
    while len(texts) < n:
        text = ORDER.to_text(ORDER.random_program(rng))
        if text not in texts:
            texts.append(text)
    return texts


@pytest.fixture
def recorded(monkeypatch):
    """Crossover and mutation that record their inputs and change nothing."""
    calls = {"cx": [], "mut": []}

    def cx(a, b, rng):
        calls["cx"].append((ORDER.to_text(a), ORDER.to_text(b)))
        return a, b

    def mut(tree, rng, *, dsl):
        calls["mut"].append(ORDER.to_text(tree))
        return tree

    monkeypatch.setattr(map_elites, "cxOnePoint", cx)
    monkeypatch.setattr(map_elites, "mutSubtree", mut)
    return calls


def test_each_child_mutates_elite_2i_and_never_crosses_at_rate_0(recorded):
    parents = _parents(6)
    archive = _Archive(parents)
    out = ProgramEmitter(archive, ORDER, batch_size=3, seed=1, crossover=0.0).ask()
    assert archive.asked == [6]
    assert recorded["cx"] == []
    assert recorded["mut"] == [parents[0], parents[2], parents[4]]
    assert list(out) == [parents[0], parents[2], parents[4]]


def test_at_rate_1_every_child_crosses_elite_2i_with_elite_2i_plus_1(recorded):
    parents = _parents(6)
    ProgramEmitter(_Archive(parents), ORDER, batch_size=3, seed=1, crossover=1.0).ask()
    assert recorded["cx"] == [(parents[0], parents[1]), (parents[2], parents[3]),
                              (parents[4], parents[5])]


def test_a_crossover_child_beyond_the_limits_is_replaced_by_its_first_parent(monkeypatch,
                                                                             recorded):
    parents = _parents(4)
    crossed = ORDER.to_text(ORDER.random_program(random.Random(99)))
    monkeypatch.setattr(map_elites, "cxOnePoint",
                        lambda a, b, rng: (ORDER.parse(crossed), b))
    monkeypatch.setattr(ORDER, "within_limits", lambda tree: False)
    ProgramEmitter(_Archive(parents), ORDER, batch_size=2, seed=1, crossover=1.0).ask()
    assert recorded["mut"] == [parents[0], parents[2]]
    monkeypatch.setattr(ORDER, "within_limits", lambda tree: True)
    recorded["mut"].clear()
    ProgramEmitter(_Archive(parents), ORDER, batch_size=2, seed=1, crossover=1.0).ask()
    assert recorded["mut"] == [crossed, crossed]


def test_the_default_crossover_rate_is_one_in_five(recorded):
    parents = _parents(16)
    emitter = ProgramEmitter(_Archive(parents), ORDER)
    for _ in range(250):
        emitter.ask()
    share = len(recorded["cx"]) / (250 * emitter.batch_size)
    assert 0.16 < share < 0.24


def test_defaults_are_a_batch_of_8_from_seed_0():
    default = ProgramEmitter(_Archive([]), ORDER).ask()
    assert len(default) == 8
    assert list(default) == list(ProgramEmitter(_Archive([]), ORDER, batch_size=8,
                                                seed=0).ask())
    assert list(default) != list(ProgramEmitter(_Archive([]), ORDER, batch_size=8,
                                                seed=1).ask())
