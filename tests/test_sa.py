"""Simulated annealing: schedule, determinism under a seed, run directory contents."""

import csv
import random

from experiments.cli import main
from games import load_game
from games.cantstop import glenn_aloi_player
from gp.cantstop_dsl import CANTSTOP_DSL, SketchStrategy
from gp.fitness import WinRate, program_seed
from gp.sa import Budget, SimulatedAnnealing


def _fitness(seed=0):
    return WinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy, matches=30,
                   seed=seed)


def test_same_seed_same_search():
    runs = []
    for _ in range(2):
        seen = []
        sa = SimulatedAnnealing(
            CANTSTOP_DSL, _fitness(), seed=3,
            on_evaluation=lambda ev, seen=seen: seen.append((ev.program, ev.value)))
        best, value = sa.run(Budget(evaluations=25))
        runs.append((seen, str(best), value))
    assert runs[0] == runs[1] and len(runs[0][0]) == 25


def test_restart_from_best_after_the_schedule_cools():
    # T_j = 100 / (1 + 0.9 j) drops below 1 after 110 steps: 1 + 110 evaluations per run
    values = iter(random.Random(0).random() for _ in range(10_000))
    seen = []
    sa = SimulatedAnnealing(CANTSTOP_DSL, lambda tree: next(values), seed=1,
                            on_evaluation=lambda ev: seen.append(ev))
    sa.run(Budget(evaluations=250))
    assert len(seen) == 250
    assert all(b.best_value >= a.best_value for a, b in zip(seen, seen[1:]))
    assert seen[-1].best_value == max(ev.value for ev in seen)


def test_fitness_cache_and_seed_from_program():
    fit = _fitness()
    tree = CANTSTOP_DSL.random_program(random.Random(4))
    assert fit(tree) == fit(tree) and fit.evaluations == 1
    assert program_seed(1, "x") != program_seed(2, "x") != program_seed(1, "y")


def test_synth_command_writes_a_run_directory(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["synth", "cantstop", "--method", "sa", "--evaluations", "12", "--matches",
                 "20", "--seed", "2", "--workers", "1", "--out", str(out), "--quiet"])
    assert code == 0
    rows = list(csv.DictReader((out / "log.csv").open()))
    assert len(rows) == 12
    assert float(rows[-1]["best_value"]) == max(float(r["value"]) for r in rows)
    best = (out / "best.txt").read_text()
    SketchStrategy(best)  # the best program parses back
    assert (out / "config.json").exists()
    assert main(["synth", "cantstop", "--evaluations", "1", "--out", str(out)]) == 2
    assert "not empty" in capsys.readouterr().err
