"""A user fitness: run through the backend like Ψ, failures contained and logged."""

import math
import random
from functools import partial

import pytest

from experiments.cli import main
from games import load_game
from games.backends import PoolMap
from gp.evaluator import Budget, Evaluator, read_log
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from gp.user_fitness import FitnessFailed, UserFitness

from . import fitness_plugin


def _programs(n, seed=0):
    rng = random.Random(seed)
    return [CANTSTOP_DSL.random_program(rng) for _ in range(n)]


def _fitness(function, **kwargs):
    return UserFitness(function, game=load_game("cantstop"), strategy_class=SketchStrategy,
                       seed=3, **kwargs)


def test_failures_score_minus_infinity_and_are_logged_once_each(tmp_path):
    log = tmp_path / "failures.log"
    fitness = _fitness("tests.fitness_plugin:fails_on_long", failure_log=log)
    programs = _programs(30)
    values = fitness.many(programs)
    kinds = {len(SketchStrategy(p).text) % 5 for p in programs}
    assert kinds == {0, 1, 2, 3, 4}
    for program, value in zip(programs, values):
        n = len(SketchStrategy(program).text)
        assert value == (1.0 / n if n % 5 == 4 else -math.inf)
    lines = log.read_text().splitlines()
    texts = {SketchStrategy(p).text for p in programs if len(SketchStrategy(p).text) % 5 != 4}
    assert len(lines) == len(texts) == fitness.failures
    causes = {line.split("\t")[2].split(":")[0] for line in lines}
    assert causes == {"ZeroDivisionError", "returned None", "returned NaN",
                      "returned str 'long', not a number"}
    assert all(line.startswith("fails_on_long\tfitness tests.fitness_plugin:fails_on_long")
               for line in lines)
    assert fitness.many(programs) == values and len(log.read_text().splitlines()) == len(lines)


def test_stop_on_failure_names_the_function_in_one_line():
    fitness = _fitness("tests.fitness_plugin:fails_on_long", on_failure="stop")
    with pytest.raises(FitnessFailed) as err:
        fitness.many(_programs(30))
    assert str(err.value).startswith("fitness tests.fitness_plugin:fails_on_long failed (")
    assert "\n" not in str(err.value)


def test_a_time_limit_scores_a_late_evaluation_as_a_failure():
    fitness = _fitness(fitness_plugin.slow, time_limit=0.2)
    programs = _programs(6, seed=1)
    values = fitness.many(programs)
    odd = [len(SketchStrategy(p).text) % 2 == 1 for p in programs]
    assert any(odd) and not all(odd)
    assert values == [-math.inf if o else 1.0 for o in odd]


def test_a_pool_gives_the_values_serial_evaluation_gives_a_partial_included():
    function = partial(fitness_plugin.with_weight, weight=2.0)
    programs = _programs(12)
    serial = _fitness(function).many(programs)
    with PoolMap(2) as pool:
        pooled = _fitness(function, map=pool).many(programs)
    assert pooled == serial and serial[0] == 2.0 / len(SketchStrategy(programs[0]).text)
    assert _fitness(function).name == "with_weight"


def test_the_evaluator_logs_a_user_fitness_under_its_name(tmp_path):
    fitness = _fitness("tests.fitness_plugin:brevity")
    ev = Evaluator({fitness.name: fitness}, CANTSTOP_DSL.to_text, Budget(evaluations=5),
                   run_dir=tmp_path)
    for program in _programs(5):
        ev.score(program)
    ev.close()
    rows = read_log(tmp_path / "log.csv")
    assert list(rows[0])[4:6] == ["brevity", "best_brevity"]
    assert {r["metric"] for r in rows} == {"brevity"}
    assert (tmp_path / "best.txt").read_text().startswith("# best brevity ")


def test_a_failing_fitness_run_goes_on_and_lists_the_failures(tmp_path):
    out = tmp_path / "run"
    assert main(["synth", "cantstop", "--evaluations", "25", "--matches", "2", "--workers", "1",
                 "--fitness", "tests.fitness_plugin:fails_on_long", "--quiet",
                 "--out", str(out)]) == 0
    rows = read_log(out / "log.csv")
    assert len(rows) == 25 and any(r["value"] == "-inf" for r in rows)
    assert (out / "failures.log").read_text().count("fails_on_long\t") >= 1
    assert main(["resume", str(out), "--quiet"]) == 2  # its module is named again, or not run
    assert main(["resume", str(out), "--quiet", "--fitness",
                 "tests.fitness_plugin:fails_on_long"]) == 0
    assert read_log(out / "log.csv") == rows


def test_a_report_names_a_user_fitness_by_its_name(tmp_path):
    from experiments.report import build_report

    for seed in (1, 2):
        assert main(["synth", "cantstop", "--evaluations", "8", "--matches", "2",
                     "--workers", "1", "--seed", str(seed), "--quiet",
                     "--fitness", "tests.fitness_plugin:brevity",
                     "--out", str(tmp_path / "runs" / "short" / f"seed{seed}")]) == 0
    text = build_report(tmp_path, matches=4, workers=1).read_text()
    assert "| brevity during search |" in text and "Ψ during search" not in text
    curve = (tmp_path / "runs" / "short" / "seed1" / "curve.csv").read_text()
    assert curve.startswith("seconds,evaluations,best_brevity,program\n")


def test_a_fitness_that_calls_sys_exit_is_a_logged_failure_not_the_end(tmp_path):
    out = tmp_path / "run"
    assert main(["synth", "cantstop", "--evaluations", "12", "--matches", "2", "--workers", "1",
                 "--fitness", "tests.fitness_plugin:exits", "--quiet", "--out", str(out)]) == 0
    rows = read_log(out / "log.csv")
    assert len(rows) == 12 and (out / "done").is_file()
    assert "SystemExit" in (out / "failures.log").read_text()
    assert any(r["value"] == "-inf" for r in rows) and any(r["value"] != "-inf" for r in rows)


def test_a_user_fitness_runs_under_a_default_time_limit_a_saved_run_keeps_its_own(tmp_path):
    from experiments.config import DEFAULT_FITNESS_TIME_LIMIT, SynthesisConfig
    from experiments.loader import load, with_identity
    from experiments.synthesis import SynthesisRun
    from games.backends import SerialMap

    given = {"game": "cantstop", "evaluations": 3, "fitness": "tests.fitness_plugin:brevity"}
    new = load(SynthesisConfig, given)
    assert new.fitness_time_limit == DEFAULT_FITNESS_TIME_LIMIT
    saved = load(SynthesisConfig, with_identity(new), "config.json", saved=True)
    assert saved.fitness_time_limit == DEFAULT_FITNESS_TIME_LIMIT
    metric = SynthesisRun(tmp_path, new, resume=False, where="test").metrics(SerialMap())
    assert metric.functions["brevity"].time_limit == DEFAULT_FITNESS_TIME_LIMIT
    # a run that recorded no limit (started before the default) resumes with none
    for old in (given, {**given, "fitness_time_limit": None}):
        config = load(SynthesisConfig, old, "config.json", saved=True)
        metric = SynthesisRun(tmp_path, config, resume=True, where="test").metrics(SerialMap())
        assert metric.functions["brevity"].time_limit is None
    assert load(SynthesisConfig, {**given, "fitness_time_limit": 0}).fitness_time_limit == 0
    assert load(SynthesisConfig, {**given, "fitness": "psi"}).fitness_time_limit is None


def test_a_fitness_that_sleeps_is_a_logged_failed_evaluation(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["synth", "cantstop", "--fitness", "tests.fitness_plugin:slow",
                 "--fitness-time-limit", "0.3", "--evaluations", "6", "--workers", "1",
                 "--quiet", "--seed", "1", "--out", str(run)]) == 0
    failures = (run / "failures.log").read_text().splitlines()
    assert failures and all("took longer than 0.3 s" in line for line in failures)
    assert len(read_log(run / "log.csv")) == 6


def test_a_fitness_that_fails_on_every_program_ends_in_one_line_naming_the_failures(
        tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["synth", "cantstop", "--fitness", "tests.fitness_plugin:always_nan",
                 "--evaluations", "3", "--workers", "1", "--quiet", "--out", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no evaluation of the 3 gave a value" in err, err
    assert str(run / "failures.log") in err and not (run / "best.txt").exists()
    assert "returned NaN" in (run / "failures.log").read_text()
