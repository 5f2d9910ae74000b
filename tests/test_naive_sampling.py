"""Naive Sampling (``qd.naive_sampling``): the ε convention, the phase switch, the local
and global bandits, decay and credit, each checked on small hand-made bandits."""

from __future__ import annotations

import pytest

from qd import naive_sampling
from qd.naive_sampling import (
    LEGACY_PHASES,
    PHASE1,
    PHASE2,
    REFERENCE_PHASES,
    NaiveSampling,
    _Arm,
    from_reference,
)


def test_the_reference_numbers_are_greedy_probabilities_turned_into_exploring_ones():
    assert from_reference((0.3, 0.3, 0.6)) == (0.7, 0.7, 0.4) == PHASE1
    assert from_reference((0.9, 0.7, 0.9)) == (0.1, 0.3, 0.1) == PHASE2
    assert LEGACY_PHASES == REFERENCE_PHASES == ((0.3, 0.3, 0.6), (0.9, 0.7, 0.9))
    ns = NaiveSampling([[0]])
    assert (ns.phase1, ns.phase2, ns.gamma, ns.decay, ns.phase1_ratio) == \
        (PHASE1, PHASE2, 0.95, "means", 0.5)


def test_an_arms_mean_is_the_mean_of_its_rewards_either_way():
    for decay in ("means", "weights"):
        arm = _Arm()
        for reward in (1.0, 0.0, 0.5, 0.3):
            arm.add(reward, decay)
        assert arm.mean == pytest.approx(0.45) and arm.count == 4
    arm = _Arm()
    arm.add(2.0, "weights")
    assert arm.total == 2.0 and arm.mean == 2.0


def test_bad_settings_are_refused():
    for values in ([], [[1], []]):
        with pytest.raises(ValueError, match="at least one value"):
            NaiveSampling(values)
    for eps in (-0.1, 1.1):
        with pytest.raises(ValueError, match="ε must be a probability"):
            NaiveSampling([[0]], phase1=(eps, 0.5, 0.5))
        with pytest.raises(ValueError, match="ε must be a probability"):
            NaiveSampling([[0]], phase2=(0.5, 0.5, eps))
    NaiveSampling([[0]], phase1=(0.0, 1.0, 0.0), phase2=(1.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="decay must be one of"):
        NaiveSampling([[0]], decay="none")
    for gamma in (0.0, 1.01):
        with pytest.raises(ValueError, match="γ must be in"):
            NaiveSampling([[0]], gamma=gamma)
    NaiveSampling([[0]], gamma=1.0)


def test_the_phase_switches_by_steps_by_time_or_by_the_budgets_progress(monkeypatch):
    ns = NaiveSampling([[0, 1]], switch_after=2)
    assert [ns.phase(0.9)] == [1]
    ns.choose()
    assert ns.phase() == 1
    ns.choose()
    assert ns.phase() == 2 and ns.epsilons() == PHASE2
    now = [10.0]
    monkeypatch.setattr(naive_sampling.time, "perf_counter", lambda: now[0])
    ns = NaiveSampling([[0, 1]], switch_seconds=5.0)
    now[0] = 14.9
    assert ns.phase(0.9) == 1
    now[0] = 15.0
    assert ns.phase(0.0) == 2
    ns = NaiveSampling([[0, 1]], phase1=(0.5, 0.5, 0.5), phase1_ratio=0.25)
    assert ns.phase() == ns.phase(0.2) == 1 and ns.phase(0.25) == ns.phase(0.9) == 2
    assert ns.epsilons(0.1) == (0.5, 0.5, 0.5) and ns.epsilons(0.3) == PHASE2


def test_a_local_bandit_plays_its_best_value_unless_it_explores():
    ns = NaiveSampling([[0, 1, 2, 3]], seed=1)
    arms = ns.local[0]
    assert {ns._local_value(arms, 0.0) for _ in range(100)} == {0, 1, 2, 3}  # none visited
    arms[2].add(0.5, "means")
    arms[3].add(0.5, "means")
    arms[1].add(0.2, "means")
    assert {ns._local_value(arms, 0.0) for _ in range(100)} == {2, 3}  # ties drawn
    assert {ns._local_value(arms, 1.0) for _ in range(100)} == {0, 1, 2, 3}


def test_the_global_bandit_plays_its_best_arm_unless_it_explores():
    ns = NaiveSampling([[0, 1], [0, 1]], seed=2)
    ns.update((0, 0), 0.9)
    ns.update((1, 1), 0.9)
    ns.update((0, 1), 0.1)
    assert {ns._global_arm(0.0) for _ in range(100)} == {(0, 0), (1, 1)}
    assert {ns._global_arm(1.0) for _ in range(100)} == {(0, 0), (1, 1), (0, 1)}
    assert ns.best() == (0, 0) and ns.mean((1, 1)) == 0.9 and ns.mean([0, 1]) == 0.1


def test_a_choice_explores_the_locals_first_then_by_eps0():
    local_only = NaiveSampling([[0, 1, 2]], phase1=(1.0, 0.0, 0.0), seed=3)
    assert local_only.choose() in {(0,), (1,), (2,)} and local_only.steps == 1
    local_only.update((2,), 1.0)
    local_only.update((1,), 0.0)
    assert {local_only.choose() for _ in range(50)} == {(2,)}  # εl = 0: the best value
    global_only = NaiveSampling([[0, 1, 2]], phase1=(0.0, 1.0, 0.0), seed=3)
    # while the global bandit is empty every choice is a local draw (here uniform)
    assert {global_only.choose() for _ in range(30)} == {(0,), (1,), (2,)}
    global_only.glob.clear()
    global_only.update((1,), 0.2)
    global_only.update((0,), 0.1)
    assert {global_only.choose() for _ in range(50)} == {(1,)}  # ε0 = 0, εg = 0: the best arm
    assert global_only.steps == 80


def test_means_decay_before_each_choice_once_the_global_bandit_has_arms():
    ns = NaiveSampling([[0, 1]], gamma=0.5)
    ns.choose()
    ns.update((1,), 1.0)
    assert ns.mean((1,)) == 1.0 and ns.local[0][1].mean == 1.0
    ns.choose()
    assert ns.mean((1,)) == 0.5 and ns.local[0][1].mean == 0.5 and ns.local[0][0].mean == 0
    ns.choose()
    assert ns.mean((1,)) == 0.25


def test_with_weight_decay_every_update_discounts_all_sums_and_counts():
    ns = NaiveSampling([[0, 1]], gamma=0.5, decay="weights")
    ns.update((1,), 1.0)
    ns.update((0,), 0.0)  # (1,) now weighs 0.5 and still means 1
    assert ns.mean((1,)) == 1.0 and ns.glob[(1,)].count == 0.5
    ns.update((1,), 0.0)  # (1,): 0.25 of reward 1 and a fresh 0 -> 0.25 / 1.25
    assert ns.mean((1,)) == pytest.approx(0.2) and ns.local[0][1].mean == pytest.approx(0.2)
    assert ns.glob[(0,)].count == 0.5 and ns.local[0][0].total == 0.0
    ns.choose()
    assert ns.mean((1,)) == pytest.approx(0.2)  # choosing decays nothing


def test_an_update_credits_the_macro_arm_and_each_of_its_values():
    ns = NaiveSampling([[0, 1], [5, 6, 7]])
    ns.update((1, 6), 0.8)
    ns.update([1, 7], 0.4)
    assert ns.glob[(1, 6)].count == 1 and ns.glob[(1, 7)].mean == 0.4
    assert ns.local[0][1].mean == pytest.approx(0.6) and ns.local[0][0].count == 0
    assert ns.local[1][6].mean == 0.8 and ns.local[1][7].mean == 0.4
    with pytest.raises(ValueError, match=r"arm \(1,\) has 1 values, expected 2"):
        ns.update((1,), 0.1)
    with pytest.raises(ValueError, match=r"value 9 is not one of \[5, 6, 7\]"):
        ns.update((1, 9), 0.1)


def test_without_a_seed_the_sampler_draws_as_with_seed_0():
    values = [[0, 1, 2, 3], [0, 1, 2, 3]]
    default, zero, one = NaiveSampling(values), NaiveSampling(values, seed=0), \
        NaiveSampling(values, seed=1)
    draws = [[s.choose() for _ in range(20)] for s in (default, zero, one)]
    assert draws[0] == draws[1] != draws[2]
