"""The self-play driver registry, Double Oracle and 2L: hand-made payoff matrices and
records, the reference-opponent fitness, hill climbing, and runs through the CLI."""

import json
import random

import pytest

from games import load_game
from games.cantstop import glenn_aloi_player
from gp.evaluator import Budget, Evaluator
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from qd import drivers
from qd.double_oracle import DoubleOracle
from qd.drivers import (
    DriverSettings,
    SelfPlayBudget,
    SelfPlayDriver,
    driver_class,
    driver_names,
    driver_settings_from,
    register_driver,
)
from qd.empirical_game import EmpiricalGame, PopulationState, maximin
from qd.hill_climbing import good_enough_for, sampled_hill_climbing
from qd.local_learner import LocalLearner, greedy_cover, helpful_bits, readmitted
from qd.reference import ReferenceOpponents, ReferenceWinRate, utility

RPS_ZERO_SUM = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# rock, paper, scissors as a constant-sum game (win 1, draw ½, loss 0) plus a fourth
# strategy that every one of them beats: strictly dominated
RPS_AND_DOMINATED = [[0.5, 0.0, 1.0, 0.9],
                     [1.0, 0.5, 0.0, 0.9],
                     [0.0, 1.0, 0.5, 0.9],
                     [0.1, 0.1, 0.1, 0.5]]


def test_rock_paper_scissors_has_value_zero_and_the_uniform_equilibrium():
    x, value = maximin(RPS_ZERO_SUM)
    assert abs(value) < 1e-9
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_a_dominated_strategy_gets_no_weight():
    x, value = maximin(RPS_AND_DOMINATED)
    assert value == pytest.approx(0.5)
    assert x[3] == 0.0 and x[:3] == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_a_pure_saddle_point_is_found():
    x, value = maximin([[0.5, 0.8], [0.2, 0.5]])  # row 0 beats row 1
    assert x == pytest.approx([1.0, 0.0]) and value == pytest.approx(0.5)


def _state(payoffs, reference, programs=None, data=()):
    programs = programs or [f"p{i}" for i in range(len(payoffs))]
    return PopulationState("test", EmpiricalGame(programs, [list(r) for r in payoffs]),
                           list(reference), [1.0] * len(reference), data=list(data))


def _driver(cls, **settings):
    return cls(oracle=None, context=None, settings=cls.Settings(**settings))


def test_double_oracle_answers_the_support_weighted_or_not():
    state = _state(RPS_AND_DOMINATED, [3])
    record = _driver(DoubleOracle).update(state, 3)
    assert state.reference == [0, 1, 2] and state.weights == pytest.approx([1 / 3] * 3)
    assert record["solver"] == "highs" and record["value"] == pytest.approx(0.5)
    state = _state(RPS_AND_DOMINATED, [3])
    _driver(DoubleOracle, weighting="uniform").update(state, 3)
    assert state.reference == [0, 1, 2] and state.weights == [1.0, 1.0, 1.0]


def test_the_strongest_program_has_the_largest_row_sum_ties_to_the_later():
    assert EmpiricalGame(["a", "b"], [[0.5, 0.7], [0.3, 0.5]]).strongest() == 0
    assert EmpiricalGame(["a", "b", "c"], [[0.5, 0.5, 0.5]] * 3).strongest() == 2


def test_helpful_bits_intended_and_the_legacy_running_sum():
    # the candidate beats the newest opponent (0.6) and loses to opponents 0 and 1
    assert helpful_bits([0.4, 0.3, 0.6]) == (1, 1, 0)
    # the running sum of the authors' code hides both
    assert helpful_bits([0.4, 0.3, 0.6], "legacy") == (0, 0, 0)
    assert helpful_bits([0.1, 0.0, 0.6], "legacy") == (1, 1, 0)
    # a candidate that does not beat the newest opponent tells nothing
    assert helpful_bits([0.0, 0.0, 0.5]) == (0, 0, 0)


def test_greedy_cover_keeps_the_newest_then_the_opponents_that_explain_the_data():
    points = [((0, 1, 0, 0), 5), ((0, 1, 1, 0), 2), ((0, 0, 1, 0), 4), ((0, 0, 0, 0), 9)]
    # opponent 1 covers 7, then opponent 2 the 4 left; opponent 0 never helped
    assert greedy_cover(points, 4) == [3, 1, 2]
    assert greedy_cover([((1, 0, 1), 3), ((1, 1, 0), 0)], 3) == [2, 0]  # tie: the first
    assert greedy_cover([], 2) == [1]


def test_2l_prunes_by_set_cover_when_nothing_beats_the_new_program():
    # programs 0..3 and the new one, 4, which beats every earlier program
    payoffs = [[0.5] * 5 for _ in range(5)]
    for q in range(4):
        payoffs[q][4], payoffs[4][q] = 0.2, 0.8
    state = _state(payoffs, [0, 1, 2, 3], data=[[[0, 0, 1, 0], 3], [[1, 0, 0, 0], 1]])
    record = _driver(LocalLearner).update(state, 4)
    assert record == {"kept": [3, 2, 0]}
    assert state.reference == [3, 2, 0, 4] and state.data == []


def test_2l_readmits_the_programs_that_beat_the_new_one():
    payoffs = [[0.5] * 4 for _ in range(4)]
    payoffs[1][3], payoffs[3][1] = 0.7, 0.3  # program 1 beats the new program 3
    payoffs[2][3], payoffs[3][2] = 0.6, 0.4  # so does program 2, already an opponent
    assert readmitted(payoffs, 3) == [1, 2]
    state = _state(payoffs, [0, 2], data=[[[1, 0], 2]])
    assert _driver(LocalLearner).update(state, 3) == {"readmitted": [1, 2]}
    assert state.reference == [0, 2, 1] and state.data == []  # the new one left out
    state = _state(payoffs, [0, 2])
    _driver(LocalLearner, readmit_adds_new=True).update(state, 3)
    assert state.reference == [0, 2, 1, 3]


def test_2l_counts_each_scored_candidate_as_a_data_point():
    state = _state([[0.5]], [0])
    learner = _driver(LocalLearner)
    for utilities in ([0.4, 0.6], [0.4, 0.7], [0.6, 0.6]):
        learner.observe(state, "p", utilities)
    assert state.data == [[[1, 0], 2], [[0, 0], 1]]


def test_the_registry_has_the_four_drivers_and_takes_a_plug_in():
    assert driver_names()[:4] == ["ibr", "fp", "do", "2l"]
    with pytest.raises(ValueError, match="known: ibr, fp, do, 2l"):
        driver_class("psro")

    @register_driver
    class Latest(SelfPlayDriver):
        name = "test-latest"
        summary = "the initial program only"

        def run(self, initial, budget, out=None, after_step=None):
            return [initial]

        def answer(self, programs):
            return programs[0]

    try:
        assert driver_class("test-latest") is Latest and "test-latest" in driver_names()
        with pytest.raises(ValueError, match="registered twice"):
            register_driver(type("Other", (Latest,), {"__module__": "elsewhere"}))
    finally:
        drivers._REGISTRY.pop("test-latest")
    with pytest.raises(ValueError, match="driver do has no setting readmit_adds_new"):
        driver_settings_from(DoubleOracle, {"readmit_adds_new": True}, where="test")
    with pytest.raises(ValueError, match="weighting must be one of nash, uniform"):
        driver_settings_from(DoubleOracle, {"weighting": "equal"}, where="test")
    assert driver_settings_from(LocalLearner, {"weighting": None}, where="test") == \
        LocalLearner.Settings()
    assert isinstance(driver_class("ibr").Settings(), DriverSettings)


def test_the_reference_fitness_is_the_weighted_mean_of_per_opponent_utilities():
    game = load_game("cantstop")
    program = CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(random.Random(4)))
    opponents = [glenn_aloi_player(), SketchStrategy(program)]
    seen = []
    reference = ReferenceOpponents(opponents, [3.0, 1.0],
                                   observe=lambda text, u: seen.append((text, u)))
    rate = ReferenceWinRate(game, reference, SketchStrategy, matches=8, seed=2)
    each = [utility(WinRate(game, o, SketchStrategy, matches=8, seed=2).play(program))
            for o in opponents]
    assert rate(program) == pytest.approx(0.75 * each[0] + 0.25 * each[1])
    assert rate(program) == rate.many([program])[0]  # cached, observed each time
    assert seen == [(program, each)] * 3
    with pytest.raises(ValueError, match="weights"):
        ReferenceOpponents(opponents, [0.0, 0.0])


def test_hill_climbing_steps_to_the_best_neighbour_and_stops_when_good_enough():
    ev = Evaluator({"psi": lambda x: 1 - abs(x - 30) / 100}, str, Budget(evaluations=500))

    def neighbour(x, rng):
        return x + rng.choice((-2, -1, 1, 2))

    best, value = sampled_hill_climbing(ev, 0, neighbour, random.Random(1), neighbours=4,
                                        good_enough=0.995)
    assert best == 30 and value == 1.0 and ev.budget.used < 500
    assert good_enough_for(1) == pytest.approx(0.9) and good_enough_for(4) == 0.975
    ev = Evaluator({"psi": lambda x: -abs(x - 30)}, str, Budget(evaluations=9))
    best, _ = sampled_hill_climbing(ev, 0, neighbour, random.Random(1), neighbours=4)
    assert ev.budget.used == 9 and best == ev.best_tree and best > 0


def test_a_budget_in_matches_stops_before_the_next_call():
    budget = SelfPlayBudget(iterations=10, matches=100)
    assert budget.left(0, 0) and budget.left(3, 99) and not budget.left(3, 100)
    assert not SelfPlayBudget(iterations=2).left(2, 0)
    ticks = iter([0.0, 5.0, 20.0])
    cpu = SelfPlayBudget(iterations=10, cpu_seconds=10, clock=lambda: next(ticks))
    assert cpu.left(0, 0, cpu_before=4.0) and not cpu.left(1, 0, cpu_before=4.0)


def _selfplay(out, driver, iterations, *extra):
    from experiments.cli import main
    return main(["selfplay", "cantstop", "--driver", driver, "--oracle", "sa",
                 "--iterations", str(iterations), "--evaluations", "5", "--matches", "6",
                 "--seed", "4", "--workers", "1", "--out", str(out), *extra])


@pytest.mark.parametrize("driver", ["do", "2l"])
def test_a_population_run_continued_equals_one_run(tmp_path, driver):
    assert _selfplay(tmp_path / "once", driver, 4) == 0
    assert _selfplay(tmp_path / "twice", driver, 2) == 0
    assert _selfplay(tmp_path / "twice", driver, 4) == 0
    for name in ("state.json", "calls.csv", "final.txt", "config.json"):
        assert (tmp_path / "once" / name).read_text() == \
            (tmp_path / "twice" / name).read_text()
    state = json.loads((tmp_path / "once" / "state.json").read_text())
    assert state["calls"] == 4 and len(state["history"]) == 4
    assert len(state["payoffs"]) == len(state["programs"])


def test_driver_settings_reach_the_run_and_its_config(tmp_path, capsys):
    assert _selfplay(tmp_path / "do", "do", 1, "--weighting", "uniform") == 0
    config = json.loads((tmp_path / "do" / "config.json").read_text())
    assert config["driver"] == "do" and config["weighting"] == "uniform"
    assert "helpful_test" not in config
    capsys.readouterr()
    assert _selfplay(tmp_path / "2l", "2l", 1, "--weighting", "uniform") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "driver 2l has no setting weighting" in err[0]
    assert not (tmp_path / "2l").exists()
    assert _selfplay(tmp_path / "do", "do", 1, "--weighting", "nash") == 2
    assert "weighting" in capsys.readouterr().err


def test_a_match_budget_ends_the_run_before_its_iterations(tmp_path):
    assert _selfplay(tmp_path / "ibr", "ibr", 50, "--max-matches", "60") == 0
    saved = json.loads((tmp_path / "ibr" / "sequence.json").read_text())
    assert saved["search_matches"] == 60 and len(saved["programs"]) == 3  # 5 × 6 per call
    assert _selfplay(tmp_path / "2l", "2l", 50, "--max-matches", "200") == 0
    state = json.loads((tmp_path / "2l" / "state.json").read_text())
    assert state["calls"] < 50 and state["search_matches"] >= 200
    assert state["history"][-2]["search_matches"] < 200


def test_every_committed_self_play_run_keeps_its_identity():
    """Committed IBR and FP runs continue under the driver registry: their settings load
    and give the identity their config.json holds (so a rerun continues them)."""
    from pathlib import Path

    from experiments.config import SelfPlayConfig
    from experiments.loader import load
    from qd.hss import variant_name

    results = Path(__file__).resolve().parent.parent / "experiments" / "results"
    checked = 0
    for path in sorted(results.rglob("config.json")):
        saved = json.loads(path.read_text())
        if saved.get("command") != "selfplay":
            continue
        values = {k: v for k, v in saved.items() if k not in ("command", "engine")}
        identity = load(SelfPlayConfig, {**values, "out": "x"}, str(path)).identity()
        expected = {k: v for k, v in saved.items() if k != "engine"}
        expected["hss_variant"] = variant_name(expected["hss_variant"])
        assert identity == expected, path
        checked += 1
    assert checked >= 12
