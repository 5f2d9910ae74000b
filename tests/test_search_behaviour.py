"""Every search searches: on ORDER (a known optimum) each method beats random search at the
same budget, and each one's own mechanics (acceptance, selection, tree statistics,
self-play targets) are driven through its classes."""

from __future__ import annotations

import random

import pytest
from deap import algorithms

from gp.evaluator import Budget, Evaluator
from gp.sa import SimulatedAnnealing
from gp.synthesis import synthesizer_class
from gp.uct import UCT, Node
from gp.variation import mutSubtree
from qd.selfplay import MixtureStrategy, self_play

from .search_problems import (
    ORDER,
    N,
    clearly_better,
    coverage,
    method_best,
    optimum_text,
    order_evaluator,
    order_value,
    random_search_best,
)

SEEDS = range(8)
BUDGET = 500


@pytest.fixture(scope="module")
def random_baseline() -> list[float]:
    return [random_search_best(seed, BUDGET) for seed in SEEDS]


def test_order_has_its_known_optimum_and_random_search_stays_far_from_it(random_baseline):
    best = ORDER.parse(optimum_text())
    assert ORDER.within_limits(best) and order_value(best) == coverage(best) == 1.0
    flipped = ORDER.parse(optimum_text().replace("pos(v3)", "neg(v3)"))
    assert order_value(flipped) == 1 - 1 / N and coverage(flipped) == 1.0
    later = ORDER.parse("join(neg(v0), join(pos(v0), pos(v1)))")
    assert order_value(later) == 1 / N  # the first literal of v0 counts, not the later one
    assert max(random_baseline) <= 0.7  # random programs are short


@pytest.mark.parametrize("method", ["sa", "uct", "gp", "gp-simple", "sketch-sa", "sketch-uct"])
def test_every_method_beats_random_search_at_the_same_budget(method, random_baseline):
    found = [method_best(method, seed, BUDGET) for seed in SEEDS]
    assert max(found) <= 1.0
    assert clearly_better(found, random_baseline, margin=0.2), (found, random_baseline)


def test_gp_selection_pressure_is_what_climbs():
    # tournament size 1 selects at random: the same variation without selection drifts
    pressed = [method_best("gp", seed, BUDGET, tournament=5) for seed in SEEDS]
    drifting = [method_best("gp", seed, BUDGET, tournament=1) for seed in SEEDS]
    assert clearly_better(pressed, drifting, margin=0.2), (pressed, drifting)


def _gp_run(method: str, seed: int, evaluations: int, fitness=order_value, initial=None):
    cls = synthesizer_class(method)
    ev = Evaluator({"psi": fitness}, ORDER.to_text, Budget(evaluations=evaluations))
    cls(language=ORDER, evaluator=ev, rng=random.Random(seed), initial=initial).run()
    return ev


@pytest.mark.parametrize("method, algorithm", [("gp", "eaMuPlusLambda"),
                                               ("gp-simple", "eaSimple")])
def test_each_gp_method_runs_its_deap_algorithm_one_generation_at_a_time(
        method, algorithm, monkeypatch):
    calls = []
    for name in ("eaMuPlusLambda", "eaSimple"):
        real = getattr(algorithms, name)

        def spy(*args, name=name, real=real, **kwargs):
            calls.append((name, kwargs["ngen"]))
            return real(*args, **kwargs)
        monkeypatch.setattr(algorithms, name, spy)
    _gp_run(method, 0, 100)
    assert calls and set(calls) == {(algorithm, 1)}


def test_the_library_gp_defaults_are_the_gp_methods_and_it_runs_quietly(capsys):
    from gp.evolution import GPSettings
    from gp.methods import GPMethodSettings

    library, method = GPSettings(), GPMethodSettings()
    assert library.mu == library.lambda_ == method.population
    assert (library.cxpb, library.mutpb, library.tournament, library.mutation_height) == \
        (method.cxpb, method.mutpb, method.tournament, method.mutation_height)
    _gp_run("gp", 0, 45)
    _gp_run("gp-simple", 0, 45)
    assert capsys.readouterr().out == ""  # DEAP's per-generation log stays off


@pytest.mark.parametrize("method", ["gp", "gp-simple"])
def test_gp_offspring_stay_within_the_languages_limits(method):
    ev = _gp_run(method, 2, 400)
    trees = [ORDER.parse(s.program) for s in ev.history]
    assert all(ORDER.within_limits(tree) for tree in trees)
    assert max(len(tree) for tree in trees) > 30  # the search does press on the limit


def test_gp_starts_from_the_initial_program():
    best = ORDER.parse(optimum_text())
    ev = _gp_run("gp", 0, 20, initial=best)
    assert ev.history[0].program == ORDER.to_text(best) and ev.best_value == 1.0


def _draws_from_random(tree) -> float:
    random.random()
    return order_value(tree)


def test_a_fitness_that_draws_from_random_does_not_shift_gps_stream():
    plain = _gp_run("gp", 4, 120)
    drawing = _gp_run("gp", 4, 120, fitness=_draws_from_random)
    assert [s.program for s in plain.history] == [s.program for s in drawing.history]


def _anneal(seed: int, **schedule) -> float:
    ev = order_evaluator(BUDGET)
    rng = random.Random(seed)
    _, value = SimulatedAnnealing(ev, rng, **schedule).run(
        ORDER.random_program(rng), lambda tree, r: mutSubtree(tree, r, dsl=ORDER))
    return value


def test_sa_acceptance_is_what_climbs():
    # beta = 0 accepts every neighbour: the same moves as a random walk
    annealed = [_anneal(seed) for seed in SEEDS]
    walked = [_anneal(seed, beta=0.0) for seed in SEEDS]
    assert clearly_better(annealed, walked, margin=0.2), (annealed, walked)


def test_uct_selects_by_mean_plus_exploration_and_tries_unvisited_children_first():
    ev = order_evaluator(10)

    def node(visits, total):
        return Node((), visits=visits, total=total)

    parent = Node((), visits=11)
    parent.children = {"good": node(10, 9.0), "rare": node(1, 0.5)}
    # K = 10: 0.9 + 10 sqrt(ln 11 / 10) = 5.8 < 0.5 + 10 sqrt(ln 11) = 16.0
    assert UCT(ORDER, ev, random.Random(0))._select(parent) is parent.children["rare"]
    assert UCT(ORDER, ev, random.Random(0), k=0.0)._select(parent) is parent.children["good"]
    # K = 0.2: 0.9 + 0.2 sqrt(ln 11 / 10) = 1.00 > 0.5 + 0.2 sqrt(ln 11) = 0.81
    assert UCT(ORDER, ev, random.Random(0), k=0.2)._select(parent) is parent.children["good"]
    parent.children["new"] = node(0, 0.0)
    assert UCT(ORDER, ev, random.Random(0), k=0.0)._select(parent) is parent.children["new"]


def test_uct_backs_up_every_simulation_and_visits_the_promising_branch_most():
    ev = order_evaluator(BUDGET)
    uct = UCT(ORDER, ev, random.Random(1), rollout_evaluations=10)
    uct.run()
    root = uct.root
    assert root.visits == sum(child.visits for child in root.children.values()) >= 40
    assert set(root.children) == {"pos", "neg", "join"}
    # a lone literal scores at most 1/N; only join leads higher
    assert max(root.children.values(), key=lambda c: c.visits) is root.children["join"]
    assert root.children["pos"].total / root.children["pos"].visits <= 1 / N + 1e-12
    assert root.children["neg"].total == 0.0
    assert uct.best_value == ev.best_value >= root.children["join"].total / \
        root.children["join"].visits


# ---- self-play drivers on rock-paper-scissors (exact best responses) ------------------

BEATS = {"R": "S", "P": "R", "S": "P"}  # key beats value


class Hand:
    def __init__(self, text: str) -> None:
        self.text = text


def _best_response(calls, target, seed):
    members = target.players if isinstance(target, MixtureStrategy) else [target]
    calls.append([m.text for m in members])
    counts = {move: sum(m.text == move for m in members) for move in "RPS"}

    def payoff(move):
        return counts[BEATS[move]] - sum(counts[m] for m in "RPS" if BEATS[m] == move)
    return max("RPS", key=payoff)


def test_ibr_answers_the_latest_program_and_cycles_on_rock_paper_scissors():
    calls: list = []
    sequence = self_play(lambda t, s: _best_response(calls, t, s), Hand, "R", iterations=6,
                         seed=0)
    assert sequence == list("RPSRPSR")
    assert calls == [[text] for text in sequence[:-1]]


def test_fictitious_play_answers_everything_so_far_and_its_mixture_nears_the_equilibrium():
    calls: list = []
    sequence = self_play(lambda t, s: _best_response(calls, t, s), Hand, "R", iterations=60,
                         seed=0, fictitious=True)
    assert calls == [sequence[:i] for i in range(1, 61)]
    shares = [sequence.count(move) / len(sequence) for move in "RPS"]
    assert all(abs(share - 1 / 3) < 0.1 for share in shares), shares
    assert sequence[:4] != list("RPSR")  # not IBR's cycle
