"""Synthesis runs: cloning scores, resume after kill -9, plug-in fitness, backends, UCT, GP."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from experiments.cli import main
from games import load_game
from games.cantstop.cloning import CantStopObservationCloning, worked_example
from games.records import load_records
from gp.cloning import ActionCloning
from gp.evaluator import read_log
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

from .extras import need_dask

ROOT = Path(__file__).parent.parent
GA_TEXT = (ROOT / "experiments" / "programs" / "cantstop_ga.txt").read_text()
GA_DATA = ROOT / "experiments" / "data" / "cantstop_ga.jsonl"
RANDOM_DATA = ROOT / "experiments" / "data" / "cantstop_random.jsonl"


def rows(run_dir):
    return read_log(Path(run_dir) / "log.csv")


def same_search(a, b):
    key = ("evaluations", "metric", "value", "program")
    return [tuple(r[k] for k in key) for r in a] == [tuple(r[k] for k in key) for r in b]


def test_observation_score_worked_example_of_the_sketch_paper():
    assert f"{worked_example():.2f}" == "0.35" and int(worked_example() * 100) == 34


def test_ga_program_clones_ga_data_perfectly_and_random_programs_do_not():
    _, matches = load_records(GA_DATA, load_game("cantstop"))
    c_a = ActionCloning(matches, SketchStrategy)
    c_o = CantStopObservationCloning(matches, SketchStrategy)
    assert c_a(GA_TEXT) == 1.0 and c_o(GA_TEXT) == 1.0
    import random
    other = CANTSTOP_DSL.random_program(random.Random(3))
    assert c_a(other) < 0.9 and c_o(other) < 0.5


def _synth(out, *extra, workers="1"):
    return ["synth", "cantstop", "--matches", "60", "--seed", "3", "--workers", workers,
            "--out", str(out), "--quiet", *extra]


def test_stop_at_ends_the_search_at_the_first_program_that_reaches_it(tmp_path, capsys):
    assert main(_synth(tmp_path / "full", "--evaluations", "40")) == 0
    full = rows(tmp_path / "full")
    values = [float(r["value"]) for r in full]
    first = next(i for i, v in enumerate(values) if v > values[0]) + 1  # the first gain
    threshold = values[first - 1]
    assert main(_synth(tmp_path / "stop", "--evaluations", "40", "--stop-at",
                       repr(threshold))) == 0
    stopped = rows(tmp_path / "stop")
    assert len(stopped) == first and same_search(stopped, full[:first])
    assert main(["synth", "cantstop", "--evaluations", "3", "--stop-at", "0",
                 "--out", str(tmp_path / "bad")]) == 2
    assert "stop_at must be a number > 0" in capsys.readouterr().err


def test_resume_after_kill_9_loses_and_repeats_nothing(tmp_path):
    argv = ["--method", "sa", "--evaluations", "70"]
    reference = tmp_path / "reference"
    assert main(_synth(reference, *argv)) == 0
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *_synth(killed, *argv)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300  # generous: CI machines may be loaded
    while time.time() < deadline:
        log = killed / "log.csv"
        if log.exists() and log.read_text().count("\n") > 30:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = rows(killed)
    assert 0 < len(partial) < 70 and not (killed / "done").exists()
    assert main(["resume", str(killed), "--quiet"]) == 0
    final = rows(killed)
    assert [int(r["evaluations"]) for r in final] == list(range(1, 71))
    assert same_search(final, rows(reference))
    assert (killed / "done").exists()


@pytest.mark.parametrize("method, extra", [("gp", ["--population", "6"]),
                                           ("sketch-sa", ["--score", "O", "--data",
                                                          str(RANDOM_DATA)])])
def test_resume_in_a_new_process_replays_other_methods(tmp_path, method, extra):
    argv = ["--method", method, "--evaluations", "40", *extra]
    reference = tmp_path / "reference"
    assert main(_synth(reference, *argv)) == 0
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "experiments.cli", *_synth(run, *argv)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    log = (run / "log.csv").read_text().splitlines(keepends=True)
    (run / "log.csv").write_text("".join(log[:20]) + log[20][:15])  # killed mid-row
    (run / "done").unlink()
    named = ["--data", str(RANDOM_DATA)] if "--data" in extra else []  # outside the run
    resumed = subprocess.run([sys.executable, "-m", "experiments.cli", "resume", str(run),
                              "--quiet", *named], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    final = rows(run)
    assert [int(r["evaluations"]) for r in final] == list(range(1, 41))
    assert same_search(final, rows(reference))


@pytest.mark.parametrize("method", [["sa"], ["gp", "--population", "6"]])
def test_same_results_whatever_the_backend(tmp_path, method):
    """SA scores one program at a time, GP a population at once (one batch)."""
    argv = ["--method", *method, "--evaluations", "15"]
    assert main(_synth(tmp_path / "serial", *argv)) == 0
    assert main(_synth(tmp_path / "pool", *argv, workers="2")) == 0
    assert same_search(rows(tmp_path / "serial"), rows(tmp_path / "pool"))


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_results(tmp_path):
    need_dask()
    argv = ["--method", "sa", "--evaluations", "10"]
    assert main(_synth(tmp_path / "serial", *argv)) == 0
    assert main(_synth(tmp_path / "dask", *argv, "--backend", "dask", workers="2")) == 0
    assert same_search(rows(tmp_path / "serial"), rows(tmp_path / "dask"))


def test_user_fitness_from_a_test_module_drives_a_run_through_a_config(tmp_path, capsys):
    config = tmp_path / "plugin.toml"
    config.write_text(f"""
[experiment]
out = "{tmp_path / 'out'}"
game = "cantstop"
evaluations = 40
seeds = [5]
workers = 1

[[methods]]
label = "brevity"
method = "sa"
fitness = "tests.fitness_plugin:brevity"
""")
    from tests import fitness_plugin

    fitness_plugin.CALLS.clear()
    assert main(["run", str(config), "--quiet"]) == 0
    log = rows(tmp_path / "out" / "runs" / "brevity" / "seed5")
    assert len(log) == 40 and fitness_plugin.CALLS
    for r in log:
        assert float(r["value"]) == pytest.approx(1 / len(SketchStrategy(r["program"]).text),
                                                  abs=1e-6)
    assert {r["metric"] for r in log} == {"brevity"}  # logged under the function's name
    assert float(log[-1]["best_brevity"]) == max(float(r["value"]) for r in log)


@pytest.mark.parametrize("body, message", [
    ("[experiment]\nout='x'\ngame='cantstop'\nevaluations=5\n[[methods]]\nmethod='sa'\n"
     "colour='red'\n", "[[methods]] #1 has unknown field 'colour'"),
    ("[experiment]\nout='x'\ngame='cantstop'\n[[methods]]\nmethod='sa'\n",
     "give a budget"),
    ("[experiment]\nout='x'\ngame='cantstop'\nevaluations=5\n[[methods]]\nmethod='annealing'\n",
     "method 'annealing' unknown"),
    ("[experiment]\nout='x'\ngame='cantstop'\nevaluations=5\n[[methods]]\nmethod='sketch-sa'\n",
     "needs data"),
    ("[experiment\nout='x'\n", "not TOML"),
])
def test_malformed_configs_name_the_field(tmp_path, capsys, body, message):
    config = tmp_path / "bad.toml"
    config.write_text(body)
    assert main(["run", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(config) in err and message in err


def test_unknown_fitness_function_is_a_clear_error(tmp_path, capsys):
    assert main(_synth(tmp_path / "x", "--evaluations", "3", "--fitness",
                       "tests.fitness_plugin:nothing_here")) == 2
    assert "has no function nothing_here" in capsys.readouterr().err


@pytest.mark.parametrize("method, extra", [
    ("uct", ["--rollout-evaluations", "4"]),
    ("gp", ["--population", "6"]),
    ("gp-simple", ["--population", "6"]),
    ("sketch-sa", ["--score", "O", "--data", str(RANDOM_DATA), "--sketch-share", "0.5"]),
    ("sketch-uct", ["--score", "A", "--data", str(RANDOM_DATA), "--sketch-share", "0.5",
                    "--rollout-evaluations", "4"]),
])
def test_every_method_runs_reproducibly_and_logs_valid_programs(tmp_path, method, extra):
    argv = ["--method", method, "--evaluations", "30", *extra]
    assert main(_synth(tmp_path / "a", *argv)) == 0
    assert main(_synth(tmp_path / "b", *argv)) == 0
    log = rows(tmp_path / "a")
    assert len(log) == 30 and same_search(log, rows(tmp_path / "b"))
    for r in log:
        tree = CANTSTOP_DSL.parse(r["program"])
        assert CANTSTOP_DSL.within_limits(tree)
    metrics = {r["metric"] for r in log}
    assert metrics == ({"c", "psi"} if method.startswith("sketch") else {"psi"})
    best = (tmp_path / "a" / "best.txt").read_text()
    assert json.loads((tmp_path / "a" / "config.json").read_text())["method"] == method
    SketchStrategy(best)


def test_uct_expands_the_leftmost_hole_and_starts_from_an_inserted_branch():
    import random

    from gp.evaluator import Budget, Evaluator
    from gp.uct import UCT, Hole

    seen = []
    ev = Evaluator({"psi": lambda tree: seen.append(str(tree)) or 0.5},
                   CANTSTOP_DSL.to_text, Budget(evaluations=12))
    uct = UCT(CANTSTOP_DSL, ev, random.Random(0), rollout_evaluations=3)
    ga = CANTSTOP_DSL.parse(GA_TEXT)
    uct.insert_branch(ga, 0.9)
    node = uct.root
    for production in ga:
        node = node.children[production.name]
        assert node.visits == 1 and node.total == 0.9
    assert node.complete
    child = uct._apply((Hole(CANTSTOP_DSL.root_type, 0),), ga[0])
    assert [type(n) for n in child[1:]] == [Hole, Hole]  # program(score, column): two holes
    uct.run()
    assert len(seen) == 12


def _two_method_config(tmp_path, evaluations: int, matches: int, second: str) -> Path:
    """A small SA-and-another-method comparison over seeds 1 and 2, written to cmp.toml."""
    config = tmp_path / "cmp.toml"
    config.write_text(f"""
[experiment]
out = "{tmp_path / 'cmp'}"
game = "cantstop"
evaluations = {evaluations}
matches = {matches}
seeds = [1, 2]
workers = 1

[[methods]]
label = "SA"
method = "sa"

[[methods]]
{second}
""")
    return config


def test_report_writes_plot_table_and_curves(tmp_path, capsys):
    config = _two_method_config(tmp_path, 8, 40, 'label = "GP"\nmethod = "gp"\npopulation = 4')
    assert main(["run", str(config), "--quiet"]) == 0
    assert main(["run", str(config), "--quiet"]) == 0  # finished runs are skipped
    assert capsys.readouterr().out.count(": done") == 4
    assert main(["report", str(tmp_path / "cmp"), "--matches", "100", "--workers", "1"]) == 0
    md = (tmp_path / "cmp" / "report.md").read_text()
    assert "| SA | 2 |" in md and "| GP | 2 |" in md and "```" in md
    assert (tmp_path / "cmp" / "winrate.png").stat().st_size > 10_000
    for run in (tmp_path / "cmp" / "runs").glob("*/seed*/"):
        (run / "log.csv").unlink()  # the report stands on curves and summaries alone
    assert main(["report", str(tmp_path / "cmp"), "--matches", "100", "--workers", "1"]) == 0
    assert (tmp_path / "cmp" / "report.md").read_text() == md


def test_report_reuses_a_re_measurement_only_for_the_same_program_matches_and_seed(
        tmp_path):
    import json

    config = _two_method_config(tmp_path, 4, 20, 'label = "UCT"\nmethod = "uct"')
    assert main(["run", str(config), "--quiet"]) == 0
    report = ["report", str(tmp_path / "cmp"), "--matches", "50", "--workers", "1"]
    assert main(report) == 0
    caches = sorted((tmp_path / "cmp" / "runs").glob("*/seed*/remeasured.json"))
    assert len(caches) == 4
    for cache in caches:  # a planted result shows the cache is what the report reads
        kept = json.loads(cache.read_text())
        assert kept["matches"] == 50
        cache.write_text(json.dumps({**kept, "wins": 50}))
    assert main(report) == 0
    assert "| SA | 2 | 1.000 ± 0.000 |" in (tmp_path / "cmp" / "report.md").read_text()
    assert main(report[:2] + ["--matches", "30", "--workers", "1"]) == 0
    assert "| SA | 2 | 1.000 ± 0.000 |" not in (tmp_path / "cmp" / "report.md").read_text()
    assert all(json.loads(c.read_text())["matches"] == 30 for c in caches)


def test_a_claimed_run_is_not_taken_twice(tmp_path):
    from experiments.lock import claim

    run = tmp_path / "runs" / "SA" / "seed1"
    with claim(run) as first:
        with claim(run) as second:
            assert first and not second
    with claim(run) as again:
        assert again  # released when its holder lets go
    assert not list(run.parent.glob("*.lock"))  # and no lock file stays behind


def test_side_by_side_jobs_run_every_run_exactly_once(tmp_path, capsys):
    config = _two_method_config(tmp_path, 6, 20, 'label = "UCT"\nmethod = "uct"')
    assert main(["run", str(config), "--jobs", "2", "--quiet"]) == 0
    runs = sorted((tmp_path / "cmp" / "runs").glob("*/seed*/"))
    assert len(runs) == 4
    for run in runs:
        assert (run / "done").exists()
        assert [int(r["evaluations"]) for r in rows(run)] == list(range(1, 7))
    assert not list((tmp_path / "cmp" / "runs").rglob("*.lock"))  # none left behind


def test_best_txt_holds_the_simplified_program_and_best_raw_txt_the_one_found(tmp_path):
    from gp.simplify import simplified_text

    found = ("score: sum(map(lambda c: advanced(c) * (2 - 1), neutrals))\n"
             "column: if 2 < 1 then argmax(map(lambda a: 3, actions)) "
             "else argmax(map(lambda a: sum(columns(a)), actions))")
    (tmp_path / "start.txt").write_text(found + "\n")
    assert simplified_text(CANTSTOP_DSL, found) != found
    assert main(_synth(tmp_path / "a", "--method", "sa", "--evaluations", "1",
                       "--initial", str(tmp_path / "start.txt"))) == 0
    assert rows(tmp_path / "a")[0]["program"] == found
    best = (tmp_path / "a" / "best.txt").read_text().splitlines()
    raw = (tmp_path / "a" / "best_raw.txt").read_text().splitlines()
    assert best[1:] == simplified_text(CANTSTOP_DSL, found).splitlines()
    assert raw[0].startswith(best[0]) and "as found" in raw[0]
    assert raw[1:] == found.splitlines()
    SketchStrategy((tmp_path / "a" / "best_raw.txt").read_text())  # a program file too
    assert main(["resume", str(tmp_path / "a"), "--initial", str(tmp_path / "start.txt"),
                 "--quiet"]) == 0  # replayed: the same files
    assert (tmp_path / "a" / "best_raw.txt").read_text().splitlines() == raw
