"""HSS's parts on hand-made bandits and libraries: the ε conventions, the two phases,
γ decay of the arms' means, the library lookup, and level 2's cooling length."""

import dataclasses
import random
from collections import Counter

import pytest

import qd.hss
from gp.evaluator import CLOCKS, Budget
from gp.languages.cantstop import CANTSTOP_DSL
from gp.sa import SimulatedAnnealing
from qd.hss import HSS, SKETCH, UTILITY, Library, cooling_steps, similarity
from qd.naive_sampling import (
    LEGACY_PHASES,
    PHASE1,
    PHASE2,
    REFERENCE_PHASES,
    NaiveSampling,
    from_reference,
)

VALUES = [[0, 1, 2, 3, 4]] * 3


def _bandit(phase, **kw) -> NaiveSampling:
    return NaiveSampling(VALUES, seed=0, phase1=phase, phase2=phase, gamma=1.0, **kw)


def test_epsilon_zero_exploits_the_global_bandit():
    ns = _bandit((0.0, 0.0, 0.0))
    ns.update((1, 2, 3), 1.0)
    ns.update((4, 4, 4), 0.2)
    assert {ns.choose() for _ in range(50)} == {(1, 2, 3)}


def test_epsilon_0_one_always_builds_from_the_local_bandits():
    ns = _bandit((1.0, 0.0, 0.0))  # explore at level 0, greedy locally
    ns.update((1, 2, 3), 1.0)
    ns.update((4, 0, 0), 0.0)
    # greedy local values: best mean per variable, i.e. 1, 2, 3 -> the same arm here
    assert {ns.choose() for _ in range(30)} == {(1, 2, 3)}
    ns = _bandit((1.0, 1.0, 0.0))  # and uniformly random local values
    ns.update((1, 2, 3), 1.0)
    draws = Counter(v for _ in range(3000) for v in ns.choose())
    assert set(draws) == {0, 1, 2, 3, 4}
    assert max(draws.values()) / min(draws.values()) < 1.25


def test_epsilon_g_is_the_probability_of_a_uniform_global_pick():
    ns = _bandit((0.0, 0.0, 0.5))
    ns.update((0, 0, 0), 1.0)
    ns.update((4, 4, 4), 0.0)
    picks = Counter(ns.choose() for _ in range(4000))
    # best arm: 1 − εg + εg/2 = 0.75 of the picks
    assert abs(picks[(0, 0, 0)] / 4000 - 0.75) < 0.03 and set(picks) == {(0, 0, 0), (4, 4, 4)}


def test_reference_epsilons_are_greedy_probabilities_so_phase_1_explores_more():
    assert from_reference(REFERENCE_PHASES[0]) == PHASE1 == (0.7, 0.7, 0.4)
    assert from_reference(REFERENCE_PHASES[1]) == PHASE2 == (0.1, 0.3, 0.1)
    assert LEGACY_PHASES == REFERENCE_PHASES

    def global_share(phase) -> float:
        ns = _bandit(phase)
        for arm in [(0, 0, 0), (1, 1, 1), (2, 2, 2)]:
            ns.update(arm, 0.5)
        return sum(ns.choose() in ns.glob for _ in range(3000)) / 3000

    # new arms (not yet in the global bandit) are rarer in phase 2
    assert global_share(PHASE1) < global_share(PHASE2) - 0.3


def test_phases_switch_by_budget_fraction_steps_or_time():
    ns = NaiveSampling(VALUES)
    assert ns.phase(0.0) == ns.phase(0.49) == 1 and ns.phase(0.5) == ns.phase(1.0) == 2
    assert ns.epsilons(0.2) == PHASE1 and ns.epsilons(0.8) == PHASE2
    by_steps = NaiveSampling(VALUES, switch_after=2)
    phases = []
    for _ in range(4):
        phases.append(by_steps.phase(0.0))
        by_steps.choose(0.0)
    assert phases == [1, 1, 2, 2]
    assert NaiveSampling(VALUES, switch_seconds=0.0).phase() == 2


def test_gamma_decays_every_mean_once_per_choice():
    ns = NaiveSampling(VALUES, gamma=0.5)
    ns.update((1, 2, 3), 1.0)
    assert ns.mean((1, 2, 3)) == 1.0
    ns.choose()
    assert ns.mean((1, 2, 3)) == 0.5 and ns.local[0][1].mean == 0.5
    ns.choose()
    assert ns.mean((1, 2, 3)) == 0.25
    ns.update((1, 2, 3), 1.0)  # running mean over the decayed value: (0.25 + 1) / 2
    assert ns.mean((1, 2, 3)) == pytest.approx(0.625)
    # an arm updated recently beats one that was better long ago
    ns.update((4, 4, 4), 0.9)
    for _ in range(3):
        ns.choose()
    ns.update((0, 0, 0), 0.3)
    assert ns.best() == (0, 0, 0)


def test_legacy_gamma_is_a_discounted_average_that_keeps_means():
    ns = NaiveSampling(VALUES, gamma=0.5, decay="weights")
    ns.update((1, 2, 3), 1.0)
    for _ in range(5):
        ns.choose()
    ns.update((0, 0, 0), 0.0)
    assert ns.mean((1, 2, 3)) == 1.0
    ns.update((1, 2, 3), 0.0)  # two updates since the first: weights 0.25 and 1
    assert ns.mean((1, 2, 3)) == pytest.approx(0.25 / 1.25)


def test_naive_sampling_finds_the_best_arm_of_a_noisy_bandit():
    means = {(a, b): 0.1 * a + 0.2 * b for a in range(4) for b in range(3)}  # best (3, 2)
    rng = random.Random(0)
    ns = NaiveSampling([range(4), range(3)], seed=1, gamma=1.0)
    for step in range(1500):
        arm = ns.choose(step / 1500)
        ns.update(arm, means[arm] + rng.gauss(0, 0.05))
    assert ns.best() == (3, 2)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="probability"):
        NaiveSampling(VALUES, phase1=(1.5, 0, 0))
    with pytest.raises(ValueError, match="decay"):
        NaiveSampling(VALUES, decay="sometimes")
    with pytest.raises(ValueError, match="is not one of"):
        NaiveSampling(VALUES).update((9, 9, 9), 1.0)


def test_library_lookup_by_distance_and_by_similarity():
    lib = Library()
    lib.add("a", [0.0, 0.0], 0.1)
    lib.add("c", [30.0, 0.0], 0.1)
    lib.add("d", [10.0, 4.0], 0.1)
    target = [10.0, 0.0]
    # Σ|F − V|: a 10, c 20, d 4; similarity: a 0.5, c 0.667, d 0.5 (1 − 4/4 = 0 on the second)
    assert lib.nearest(target).program == "d"
    assert lib.nearest(target, by="similarity").program == "c"
    lib.add("e", [10.0, 4.0 - 1e-9], 0.9)
    lib.add("f", [10.0, 4.0], 0.5)  # same features as d, higher utility: ties go to it
    assert lib.nearest([10.0, 4.0]).program == "f"
    with pytest.raises(ValueError, match="lookup"):
        lib.nearest(target, by="nope")


def _fake_evaluate(text: str) -> tuple[float, list[float]]:
    """A cheap, deterministic stand-in for matches: U rises with program length up to a
    point; features are two counts of the text."""
    utility = min(len(text), 400) / 400
    return utility, [float(text.count("(")), float(text.count("\n"))]


def test_level_2_cools_fully_and_level_1_learns_from_every_program():
    assert cooling_steps(SimulatedAnnealing(None, None)) == 112  # T1 = 100 → T < 1
    levels = [[0, 2, 5, 10, 20, 50]] * 2
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, levels, seed=4, local_search="sa")
    hss.run(Budget(evaluations=112 * 4))
    assert [it["evaluations"] for it in hss.iterations] == [112] * 4
    assert "sketch_evaluations" not in hss.iterations[0]
    assert [it["phase"] for it in hss.iterations[:2]] == [1, 1]
    assert hss.iterations[-1]["phase"] == 2  # the switch happens within one call
    assert hss.iterations[0]["start"] is None and hss.iterations[1]["start"] is not None
    # every evaluated program is in the library and its snapped features are a global arm
    assert sum(ns.count for ns in hss.bandit.glob.values()) == 112 * 4
    for entry in hss.library.entries.values():
        assert hss.snap(entry.features) in hss.bandit.glob
    assert hss.best[0] == max(e.utility for e in hss.library.entries.values())


def test_sketch_sa_is_level_2_by_default_a_sketch_phase_then_sa_on_u_from_its_best(
        monkeypatch):
    """Sketch-SA inside level 2: one cooling on the similarity to V, then one on U that
    starts from the sketch phase's best program by U (ties by similarity)."""
    objectives, seen = [], []
    real = qd.hss.Evaluator

    def spy(metrics, *args, **kwargs):
        objectives.append(next(iter(metrics)))
        return real(metrics, *args, **kwargs)

    def evaluate(text):
        seen.append(text)
        return _fake_evaluate(text)

    monkeypatch.setattr(qd.hss, "Evaluator", spy)
    hss = HSS(CANTSTOP_DSL, evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4)
    assert hss.local_search == "sketch-sa"
    hss.run(Budget(evaluations=224 * 2))
    assert objectives == [SKETCH, UTILITY] * 2
    assert [(it["evaluations"], it["sketch_evaluations"]) for it in hss.iterations] == \
        [(224, 112)] * 2
    target = hss.iterations[0]["target"]
    sketch = seen[:112]

    def by_u(text):
        utility, features = _fake_evaluate(text)
        return utility + hss.tie_scale * similarity(features, target)

    assert seen[112] == CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(max(sketch, key=by_u)))
    # the sketch phase climbed the similarity to V: its annealing accepted moves towards it
    sims = [similarity(_fake_evaluate(t)[1], target) for t in sketch]
    assert max(sims) > sims[0]
    # plain SA has no sketch phase: one search on U
    del objectives[:]
    plain = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
                local_search="sa")
    plain.run(Budget(evaluations=112))
    assert objectives == [UTILITY] and len(plain.iterations) == 1


def test_sketch_sa_splits_a_given_local_search_length_between_its_phases():
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_evaluations=9)
    hss.run(Budget(evaluations=18))
    assert [(it["evaluations"], it["sketch_evaluations"]) for it in hss.iterations] == \
        [(9, 4)] * 2
    assert HSS(CANTSTOP_DSL, _fake_evaluate, [[0]], variant="legacy").local_search == "sa"
    with pytest.raises(ValueError, match="local search"):
        HSS(CANTSTOP_DSL, _fake_evaluate, [[0]], local_search="uct")


def test_legacy_variant_keeps_the_earlier_short_local_searches():
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              variant="legacy")
    hss.run(Budget(evaluations=60))
    assert [it["evaluations"] for it in hss.iterations] == [20, 20, 20]
    assert hss.bandit.phase1 == LEGACY_PHASES[0] and hss.bandit.decay == "weights"
    with pytest.raises(ValueError, match="variant"):
        HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 1]] * 2, variant="nope")


def test_same_seed_same_search():
    runs = []
    for _ in range(2):
        hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=9)
        runs.append((hss.run(Budget(evaluations=150)), [it["target"] for it in hss.iterations]))
    assert runs[0] == runs[1]


def test_a_schedule_that_starts_below_epsilon_is_its_start_alone():
    """One evaluation for the start, then one per temperature at or above ε."""
    assert cooling_steps(SimulatedAnnealing(None, None, t1=0.5, epsilon=1.0)) == 1
    # T1 = 1.5 >= 1 is tried; T(1) = 1.5 / 1.9 < 1 is not
    assert cooling_steps(SimulatedAnnealing(None, None, t1=1.5, epsilon=1.0)) == 2


def test_level_2_scores_u_plus_a_small_share_of_the_similarity_to_v():
    near, far = (CANTSTOP_DSL.random_program(random.Random(s)) for s in (1, 2))
    features = {CANTSTOP_DSL.to_text(near): [2.0, 0.0], CANTSTOP_DSL.to_text(far): [4.0, 0.0]}
    assert len(features) == 2

    def evaluate(text):
        return 0.5, features[text]

    hss = HSS(CANTSTOP_DSL, evaluate, [[0, 5]] * 2, seed=1)
    assert hss.tie_scale == 1e-3
    evaluated = []
    fitness = hss._score([2.0, 0.0], evaluated)
    assert fitness(far) == 0.5 + 1e-3 * similarity([4.0, 0.0], [2.0, 0.0])
    assert fitness(near) == 0.5 + 1e-3  # at V: similarity 1
    assert hss._score([2.0, 0.0], evaluated, sketch=True)(far) == 0.75
    text = CANTSTOP_DSL.to_text(far)
    assert evaluated == [(text, [4.0, 0.0], 0.5), (CANTSTOP_DSL.to_text(near), [2.0, 0.0], 0.5),
                         (text, [4.0, 0.0], 0.5)]
    assert hss.evaluations == 3


def test_of_programs_with_equal_u_the_first_evaluated_stays_the_best():
    seen = []

    def evaluate(text):
        seen.append(text)
        return 0.25, _fake_evaluate(text)[1]

    hss = HSS(CANTSTOP_DSL, evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_evaluations=6)
    assert hss.run(Budget(evaluations=12)) == (0.25, seen[0])
    assert len(set(seen)) > 1


def test_a_budget_spent_while_measuring_the_library_ends_the_run_with_the_best_so_far():
    texts = [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(random.Random(s)))
             for s in range(3)]
    library = Library()
    for text in texts:
        library.add_unmeasured(text)
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              library=library)
    budget = Budget(evaluations=2)
    assert hss.run(budget) == max((_fake_evaluate(t)[0], t) for t in texts[:2])
    assert [e.features is None for e in library.entries.values()] == [False, False, True]
    assert budget.used == 2 and hss.iterations == []


def test_local_seconds_go_whole_to_sa_and_half_to_each_phase_of_sketch_sa():
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 1]] * 2, local_seconds=10.0)
    budget = Budget(seconds=100.0)
    for phase, seconds in (("all", 10.0), ("sketch", 5.0), ("response", 5.0)):
        local, restart = hss._local_budget(budget, phase)
        assert (local.seconds, local.evaluations, local.parent, restart) == \
            (seconds, None, budget, True)


def test_a_local_search_of_one_evaluation_spends_it_in_the_sketch_phase():
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_evaluations=1)
    hss.run(Budget(evaluations=3))
    assert [(it["evaluations"], it["sketch_evaluations"]) for it in hss.iterations] == \
        [(1, 1)] * 3
    # of two, one each
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_evaluations=2)
    hss.run(Budget(evaluations=4))
    assert [(it["evaluations"], it["sketch_evaluations"]) for it in hss.iterations] == \
        [(2, 1)] * 2


def test_one_cooling_schedule_draws_no_neighbour_it_does_not_evaluate(monkeypatch):
    """Level 2's default length is one schedule, not restarted: 111 neighbours of the
    start, each evaluated (a draw past the schedule would shift the seed's stream)."""
    drawn = []
    real = CANTSTOP_DSL.neighbour

    def neighbour(tree, rng, *args, **kwargs):
        drawn.append(1)
        return real(tree, rng, *args, **kwargs)

    monkeypatch.setattr(CANTSTOP_DSL, "neighbour", neighbour)
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_search="sa")
    hss.run(Budget(evaluations=112 * 2))
    assert len(drawn) == 111 * 2 and hss.evaluations == 112 * 2


def test_hss_variants_are_fixed_once_made():
    with pytest.raises(dataclasses.FrozenInstanceError):
        qd.hss.PUBLISHED.local_search = "sa"


def test_progress_is_the_further_of_the_evaluations_and_the_time_used(monkeypatch):
    monkeypatch.setitem(CLOCKS, "wall", lambda: 100.0)
    budget = Budget(seconds=10.0, evaluations=20)
    budget.set_elapsed(4.0)
    assert qd.hss._progress(budget) == 0.4
    budget.count(10)
    assert qd.hss._progress(budget) == 0.5
    budget.set_elapsed(25.0)
    assert qd.hss._progress(budget) == 1.0
    assert qd.hss._progress(Budget()) == 0.0


def test_a_step_whose_evaluation_fails_still_puts_what_it_evaluated_in_the_library():
    """Lines 8-9 run however the local search ends; an unfinished sketch phase counts no
    sketch evaluations."""
    calls = []

    def evaluate(text):
        calls.append(text)
        if len(calls) == 3:
            raise RuntimeError("the game failed")
        return _fake_evaluate(text)

    hss = HSS(CANTSTOP_DSL, evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4)
    with pytest.raises(RuntimeError, match="the game failed"):
        hss.run(Budget(evaluations=50))
    assert set(hss.library.entries) == set(calls[:2])
    assert [(it["evaluations"], it["sketch_evaluations"]) for it in hss.iterations] == [(2, 0)]


def test_feature_levels_are_evenly_spaced_from_each_range_low_to_its_high():
    assert qd.hss.feature_levels([(0.0, 10.0), (2.0, 4.0)], 3) == [[0.0, 5.0, 10.0],
                                                                 [2.0, 3.0, 4.0]]
    assert qd.hss.feature_levels([(1.0, 2.0)]) == [[1.0, 1.25, 1.5, 1.75, 2.0]]


def test_the_default_seed_is_0():
    def run(**seed):
        hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2,
                  local_evaluations=10, **seed)
        return hss.run(Budget(evaluations=30)), [it["target"] for it in hss.iterations]

    assert run() == run(seed=0)
    assert run() != run(seed=1)


@pytest.mark.parametrize("variant, as_it_goes", [("published", False), ("legacy", True)])
def test_the_published_variant_learns_after_each_local_search_the_legacy_one_as_it_goes(
        variant, as_it_goes):
    sizes = []

    def evaluate(text):
        sizes.append((len(hss.library), sum(ns.count for ns in hss.bandit.glob.values())))
        return _fake_evaluate(text)

    hss = HSS(CANTSTOP_DSL, evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              variant=variant, local_evaluations=10)
    hss.run(Budget(evaluations=20))
    library = [size for size, _ in sizes]
    learned = [count for _, count in sizes]
    if as_it_goes:
        assert library[:2] == [0, 1] and all(b > a for a, b in zip(learned, learned[1:]))
    else:  # lines 8-9: nothing learned while a local search runs
        assert library[:10] == [0] * 10 and len(set(library[10:])) == 1 and library[10] > 0
        assert learned == [0] * 10 + [10] * 10


def test_the_sketch_phase_hands_on_its_best_u_with_similarity_only_breaking_ties():
    """U 0.5 far from V against U 0.49 at V: the response phase starts from the first."""
    seen = []

    def evaluate(text):
        seen.append(text)
        return (0.5, [0.0, 0.0]) if len(text) % 2 == 0 else (0.49, [10.0, 10.0])

    hss = HSS(CANTSTOP_DSL, evaluate, [[10.0]] * 2, seed=4, local_evaluations=20)
    hss.run(Budget(evaluations=20))
    sketch = seen[:10]
    assert {len(t) % 2 for t in sketch} == {0, 1}
    assert seen[10] == next(t for t in sketch if len(t) % 2 == 0)


def test_a_given_local_search_length_restarts_sa_until_it_is_spent():
    hss = HSS(CANTSTOP_DSL, _fake_evaluate, [[0, 2, 5, 10, 20, 50]] * 2, seed=4,
              local_evaluations=300, local_search="sa")
    hss.run(Budget(evaluations=300))
    assert [it["evaluations"] for it in hss.iterations] == [300]  # past one schedule (112)


def test_a_library_file_without_programs_is_named(tmp_path):
    path = tmp_path / "lib.json"
    path.write_text('[{"features": [1.0], "utility": 0.5}]')
    with pytest.raises(ValueError, match="lib.json: not a program library"):
        Library.load(path)
