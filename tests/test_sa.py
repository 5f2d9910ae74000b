"""Simulated annealing and the evaluator: schedule, restarts, budget, determinism, cache."""

import dataclasses
import itertools
import math
import random
import statistics

import pytest

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.evaluator import CLOCKS, Budget, Evaluator
from gp.fitness import WinRate, program_seed
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from gp.sa import RestartFromBest, RestartRandomWhileZero, RestartRemeasured, SimulatedAnnealing


def _evaluator(fitness, evaluations):
    return Evaluator({"psi": fitness}, CANTSTOP_DSL.to_text, Budget(evaluations=evaluations))


def _win_rate(seed=0):
    return WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy, matches=30,
                   seed=seed)


def test_schedule_of_the_sketch_paper():
    sa = SimulatedAnnealing(_evaluator(lambda t: 0.0, 1), random.Random(0))
    assert sa.temperature(0) == 100 and round(sa.temperature(1), 6) == round(100 / 1.9, 6)
    assert sa.temperature(110) >= 1 > sa.temperature(111)


def test_same_seed_same_search():
    runs = []
    for _ in range(2):
        ev = _evaluator(_win_rate(), 25)
        rng = random.Random(3)
        SimulatedAnnealing(ev, rng).run(CANTSTOP_DSL.random_program(rng), CANTSTOP_DSL.neighbour)
        runs.append([(s.program, s.value) for s in ev.history])
    assert runs[0] == runs[1] and len(runs[0]) == 25


def test_restarts_from_the_best_after_the_schedule_cools():
    values = random.Random(0)
    ev = _evaluator(lambda tree: values.random(), 250)
    rng = random.Random(1)
    starts = []
    sa = SimulatedAnnealing(ev, rng)
    original = sa.temperature

    def spy(j):
        if j == 1:
            starts.append(len(ev.history))
        return original(j)

    sa.temperature = spy
    best, value = sa.run(CANTSTOP_DSL.random_program(rng), CANTSTOP_DSL.neighbour)
    assert len(ev.history) == 250
    # a schedule is 1 + 111 evaluations long: 100 / (1 + 0.9 j) < 1 from j = 111 on
    assert starts[:2] == [2, 113]
    assert value == max(s.value for s in ev.history) == ev.best_psi
    history = [s.best_psi for s in ev.history]
    assert history == sorted(history)


def _walk(step: float, seed: int) -> list[int]:
    """One SA schedule over integer candidates: the neighbour of k is k + 1, worth
    ``step`` more than k. Returns the current candidate at each move."""
    currents: list[int] = []

    def neighbour(k, rng):
        currents.append(k)
        return k + 1

    ev = Evaluator({"psi": lambda k: 0.5 + step * k}, str, Budget(evaluations=10_000))
    SimulatedAnnealing(ev, random.Random(seed)).run(0, neighbour, restart=False)
    return currents


def test_sa_accepts_worse_moves_when_hot_and_rarely_when_cold():
    # each move is 0.01 worse: accepted with probability exp(-200 * 0.01 / T), about
    # 0.98 at T = 100 and 0.14 at T = 1
    hot, cold = [], []
    for seed in range(5):
        currents = _walk(-0.01, seed)
        assert len(currents) == 111  # one schedule: while T = 100 / (1 + 0.9 j) >= 1
        moved = [b != a for a, b in zip(currents, currents[1:])]
        hot += moved[:20]
        cold += moved[-20:]
    assert statistics.mean(hot) > 0.75
    assert statistics.mean(cold) < 0.35


def test_a_slightly_worse_move_is_a_coin_flip_when_cold():
    # 0.003 worse at T near 1: exp(-200 * 0.003 / T) is about 0.55
    cold = []
    for seed in range(10):
        currents = _walk(-0.003, seed)
        cold += [b != a for a, b in zip(currents[-20:], currents[-19:])]
    assert 0.35 < statistics.mean(cold) < 0.75


@pytest.mark.parametrize("step", [0.01, 0.0])
def test_sa_always_accepts_better_and_equal_moves_even_when_cold(step):
    currents = _walk(step, 0)
    assert currents == list(range(len(currents)))


class _Draws:
    """A stream that returns the given numbers, then 0.999."""

    def __init__(self, values) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0) if self.values else 0.999


def test_a_worse_move_is_accepted_exactly_when_the_draw_is_below_exp_beta_delta_over_t():
    # each candidate is 0.5 worse: at move j the temperature is 100 / (1 + 0.9 (j - 1))
    # (100 at the first), so exp(200 * -0.5 / T) is e^-1, e^-1.9, e^-2.8
    margin = 1e-6
    draws = [math.exp(-1) - margin, math.exp(-1.9) + margin, math.exp(-2.8) - margin]
    currents: list[int] = []

    def neighbour(k, rng):
        currents.append(k)
        return k + 1

    ev = Evaluator({"psi": lambda k: 0.5 - 0.5 * k}, str, Budget(evaluations=5))
    SimulatedAnnealing(ev, _Draws(draws)).run(0, neighbour, restart=False)
    assert currents == [0, 1, 1, 2, 2]  # accept, reject, accept, then 0.999: reject


def test_the_schedule_is_given_by_name():
    ev = _evaluator(lambda t: 0.0, 1)
    with pytest.raises(TypeError):
        SimulatedAnnealing(ev, random.Random(0), None)
    sa = SimulatedAnnealing(evaluator=ev, rng=random.Random(0), alpha=0.5, t1=10.0)
    assert sa.temperature(2) == 10.0 / 2


def test_restart_rules_are_immutable_values():
    rule = RestartRemeasured("fresh_psi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.metric = "psi"
    with pytest.raises(dataclasses.FrozenInstanceError):
        RestartFromBest().x = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        RestartRandomWhileZero(CANTSTOP_DSL.random_program).then = rule
    assert RestartRemeasured("fresh_psi") == rule


def test_only_a_worse_move_draws_from_the_stream():
    # a replayed run depends on the stream: a move that is not worse draws nothing
    ev = Evaluator({"psi": lambda k: 0.5}, str, Budget(evaluations=10_000))
    rng = random.Random(7)
    SimulatedAnnealing(ev, rng).run(0, lambda k, r: k + 1, restart=False)
    assert rng.random() == random.Random(7).random()


def test_fitness_cache_and_seed_from_program():
    fit = _win_rate()
    tree = CANTSTOP_DSL.random_program(random.Random(4))
    assert fit(tree) == fit(tree) and fit.evaluations == 1
    assert program_seed(1, "x") != program_seed(2, "x") != program_seed(1, "y")


def test_budget_in_seconds_stops_the_search(monkeypatch):
    ticks = itertools.count()  # a clock that moves 1 ms per reading: no load can delay it
    monkeypatch.setitem(CLOCKS, "ticks", lambda: next(ticks) / 1000)
    ev = Evaluator({"psi": lambda t: 0.1}, CANTSTOP_DSL.to_text,
                   Budget(seconds=0.3, clock="ticks"))
    rng = random.Random(2)
    SimulatedAnnealing(ev, rng).run(CANTSTOP_DSL.random_program(rng), CANTSTOP_DSL.neighbour)
    assert ev.budget.spent() and len(ev.history) > 10
    assert ev.history[-1].seconds < 0.3 + 0.01  # nothing evaluated once the budget is spent


def _logged(ev):
    return [(s.evaluations, s.metric, s.value, s.program) for s in ev.history]


def test_a_batch_scores_and_logs_as_calls_one_by_one(tmp_path):
    from gp.evaluator import BudgetSpent, read_log

    rng = random.Random(6)
    trees = [CANTSTOP_DSL.random_program(rng) for _ in range(7)]
    one = _evaluator(_win_rate(), 5)
    singles = []
    try:
        for tree in trees:
            singles.append(one.score(tree))
    except BudgetSpent:
        pass
    fitness = _win_rate()
    batch = Evaluator({"psi": fitness}, CANTSTOP_DSL.to_text, Budget(evaluations=5), tmp_path)
    try:
        batch.score_many(trees)
        raise AssertionError("the evaluation budget ran out inside the batch")
    except BudgetSpent:
        pass
    assert len(singles) == 5 and _logged(batch) == _logged(one)
    assert fitness.evaluations == 5  # the programs past the budget were never played
    batch.close()
    resumed = Evaluator({"psi": _win_rate()}, CANTSTOP_DSL.to_text, Budget(evaluations=7),
                        tmp_path, resume=True)
    expected = singles + [_win_rate()(t) for t in trees[5:]]
    assert resumed.score_many(trees[:3]) == pytest.approx(expected[:3], abs=1e-6)  # the log's
    assert resumed.score_many(trees[3:]) == pytest.approx(expected[3:], abs=1e-6)
    resumed.close()
    assert [int(r["evaluations"]) for r in read_log(tmp_path / "log.csv")] == list(range(1, 8))
