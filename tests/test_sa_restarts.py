"""SA's restart rules on a hand-made landscape: the best is kept by the highest value
ever measured, a re-measured restart starts from its fresh value, and with
``RestartRandomWhileZero`` a schedule restarts from a new program while everything scored 0."""

import random

from gp.evaluator import Budget, Evaluator
from gp.sa import RestartRandomWhileZero, RestartRemeasured, SimulatedAnnealing


def _step(x: int, rng: random.Random) -> int:
    return x + 1


def _evaluator(metrics: dict, evaluations: int) -> Evaluator:
    return Evaluator(metrics, str, Budget(evaluations=evaluations))


def test_while_everything_scores_zero_schedules_restart_from_new_programs():
    ev = _evaluator({"psi": lambda x: 0.0}, 400)
    starts = iter(range(10_000, 100_000, 10_000))
    sa = SimulatedAnnealing(ev, random.Random(0),
                            restart=RestartRandomWhileZero(lambda rng: next(starts)))
    sa.run(0, _step)
    programs = [int(s.program) for s in ev.history]
    fresh = [p for p in programs if p % 10_000 == 0 and p > 0]
    assert fresh[:3] == [10_000, 20_000, 30_000]
    k = programs.index(10_000)
    assert programs[k + 1] == 10_001  # the next schedule anneals from the new program


def test_without_the_random_restart_rule_a_zero_landscape_restarts_from_the_best():
    ev = _evaluator({"psi": lambda x: 0.0}, 400)
    SimulatedAnnealing(ev, random.Random(0)).run(0, _step)
    programs = [int(s.program) for s in ev.history]
    assert max(programs) < 400 and programs.count(1) >= 2  # back to program 0's step


def test_random_restarts_stop_once_something_scores():
    ev = _evaluator({"psi": lambda x: 0.5 if x == 3 else 0.0}, 400)
    sa = SimulatedAnnealing(ev, random.Random(0),
                            restart=RestartRandomWhileZero(lambda rng: 10_000))
    best, value = sa.run(0, _step)
    assert (best, value) == (3, 0.5)
    assert all(int(s.program) < 10_000 for s in ev.history)


def test_a_re_measured_restart_keeps_the_best_value_ever_measured():
    landscape = {"psi": lambda x: 0.5 if x == 3 else 0.1,
                 "psi-fresh": lambda x: 0.2}
    ev = _evaluator(landscape, 400)
    sa = SimulatedAnnealing(ev, random.Random(0), restart=RestartRemeasured("psi-fresh"))
    best, value = sa.run(0, _step)
    assert (best, value) == (3, 0.5)
    fresh = [s for s in ev.history if s.metric == "psi-fresh"]
    assert fresh and all(s.program == "3" for s in fresh)


def test_paper_mode_turns_the_restart_rules_on_only_where_they_apply():
    from experiments.config import SynthesisConfig
    from experiments.loader import load, to_dict

    def run_config(settings):
        return to_dict(load(SynthesisConfig, settings))

    sa = run_config({"game": "cantstop", "method": "sa", "paper": True, "budget": "1m"})
    assert sa["restart_random"] and sa["remeasure_restarts"]
    gp = run_config({"game": "cantstop", "method": "gp", "paper": True, "budget": "1m"})
    assert "restart_random" not in gp and "remeasure_restarts" not in gp
    own = run_config({"game": "cantstop", "method": "sa", "paper": True,
                      "restart_random": False, "budget": "1m"})
    assert not own["restart_random"]
