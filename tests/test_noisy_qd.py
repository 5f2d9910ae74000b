"""Noise-aware MAP-Elites (``qd.resampling``) and the corrected archive (``qd.corrected``):
the contest rules on hand-made samples, the corrected archive of a hand-made archive,
adaptive sampling against plain MAP-Elites on a noisy problem with a known truth, and
``stratsynth qd --resample adaptive`` / ``qd-check`` end to end."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time

import numpy as np
import pytest

from experiments.cli import main
from gp.evaluator import BudgetSpent, read_log
from qd.archive import ProgramArchive
from qd.corrected import corrected_archive
from qd.map_elites import run_map_elites
from qd.resampling import (
    AdaptiveSamplingArchive,
    SampleCounter,
    make_resampling,
    resampling_names,
)
from qd.vectors import AlgorithmOneEmitter

from .noisy_qd_problem import FEATURES, RANGES, VALUES, NoisyProblem, truth
from .test_determinism import ROOT, archive_of, cli

# -- the contest on hand-made samples ------------------------------------------------------

class Script:
    """A sampler that answers each text's listed samples in order (and records calls)."""

    def __init__(self, **samples) -> None:
        self.queues = {t: list(v) for t, v in samples.items()}
        self.calls: list[str] = []

    def __call__(self, texts):
        self.calls += texts
        out = []
        for t in texts:
            if not self.queues.get(t):
                raise BudgetSpent()
            out.append(self.queues[t].pop(0))
        return out


def two_cells(script, **settings) -> AdaptiveSamplingArchive:
    """One feature in [0, 1], two cells: [0, 0.5) and [0.5, 1]."""
    inner = ProgramArchive(["b"], [(0.0, 1.0)], [2]).archive
    return AdaptiveSamplingArchive(archive=inner, sample=script, **settings)


def offer(archive, text, objective, measure) -> int:
    solutions = np.empty(1, dtype=object)
    solutions[:] = [text]
    return int(archive.add(solutions, [objective], [[measure]])["status"][0])


def held(archive) -> dict[str, float]:
    """What the inner pyribs archive holds: program -> objective."""
    data = archive.inner.data()
    return {str(s): float(o) for s, o in zip(data["solution"], data["objective"])}


def test_an_empty_cell_takes_a_solution_on_one_sample():
    script = Script()
    archive = two_cells(script)
    assert offer(archive, "a", 0.5, 0.2) == 2
    assert script.calls == [] and held(archive) == {"a": 0.5}


def test_the_incumbent_is_resampled_and_a_better_challenger_catches_up_then_wins():
    script = Script(a=[(0.5, [0.2])], b=[(0.7, [0.2])])
    archive = two_cells(script)
    offer(archive, "a", 0.5, 0.2)
    assert offer(archive, "b", 0.8, 0.2) == 1
    assert script.calls == ["a", "b"]  # incumbent once, challenger until as many samples
    assert held(archive) == {"b": 0.75} and archive.samples_of("b") == 2


def test_a_challenger_worse_than_the_resampled_incumbent_gets_no_more_samples():
    script = Script(a=[(0.1, [0.2])])
    archive = two_cells(script)
    offer(archive, "a", 0.9, 0.2)
    assert offer(archive, "b", 0.2, 0.2) == 0
    assert script.calls == ["a"]
    assert held(archive) == {"a": 0.5}  # the incumbent's mean went down: the grid says so


def test_a_challenger_stops_being_sampled_once_it_is_worse():
    script = Script(a=[(0.5, [0.2])], b=[(0.0, [0.2]), (1.0, [0.2])])
    archive = two_cells(script)
    offer(archive, "a", 0.5, 0.2)
    offer(archive, "a", 0.5, 0.2)  # proposed again: a second sample of the elite
    assert archive.samples_of("a") == 2
    assert offer(archive, "b", 0.9, 0.2) == 0
    assert script.calls == ["a", "b"]  # b at 0.45 < 0.5 after 2 of a's 3 samples: stop
    assert archive.samples_of("b") == 2 and held(archive) == {"a": 0.5}


def test_an_incumbent_whose_mean_behaviour_moves_leaves_its_cell_to_the_challenger():
    script = Script(a=[(0.5, [0.8])])
    archive = two_cells(script)
    offer(archive, "a", 0.5, 0.4)
    assert offer(archive, "b", 0.1, 0.1) == 2  # a's mean behaviour 0.6: cell 1
    assert held(archive) == {"a": 0.5, "b": 0.1}
    assert archive.cells == {0: "b", 1: "a"}


@pytest.mark.parametrize("drift, placed", [("follow", {0: "a", 1: "b"}), ("drop", {0: "a"})])
def test_a_challenger_whose_mean_behaviour_drifts_follows_the_contest_or_is_dropped(drift,
                                                                                  placed):
    script = Script(a=[(0.5, [0.1])], b=[(0.9, [0.75])])
    archive = two_cells(script, drift=drift)
    offer(archive, "a", 0.5, 0.1)
    offer(archive, "b", 0.9, 0.45)  # resampled: mean behaviour 0.6, cell 1 (empty)
    assert archive.cells == placed and script.calls == ["a", "b"]


@pytest.mark.parametrize("ties, winner, calls", [("incumbent", "a", ["a"]),
                                                 ("challenger", "b", ["a", "b"])])
def test_equal_means_go_to_the_incumbent_unless_ties_say_challenger(ties, winner, calls):
    script = Script(a=[(0.5, [0.2])], b=[(0.5, [0.2])])
    archive = two_cells(script, ties=ties)
    offer(archive, "a", 0.5, 0.2)
    offer(archive, "b", 0.5, 0.2)
    assert archive.cells == {0: winner} and script.calls == calls


def test_max_samples_caps_both_incumbent_and_challenger():
    script = Script()
    archive = two_cells(script, max_samples=1)
    offer(archive, "a", 0.5, 0.2)
    assert offer(archive, "b", 0.6, 0.2) == 1 and script.calls == []


def test_a_budget_spent_mid_contest_leaves_the_archive_consistent():
    script = Script(a=[(0.1, [0.2])])  # b has no second sample: the budget ends there
    archive = two_cells(script)
    offer(archive, "a", 0.9, 0.2)
    with pytest.raises(BudgetSpent):
        offer(archive, "b", 0.95, 0.2)
    assert held(archive) == {"a": 0.5} and archive.cells == {0: "a"}


def test_the_sample_counter_asks_the_k_th_sample_of_the_k_th_call():
    class Metric:
        def __init__(self):
            self.requests = []

        def sample_many(self, requests):
            self.requests += requests
            return [(float(k), [0.0]) for _, k in requests]

    metric = Metric()
    counter = SampleCounter(metric)
    assert counter.many(["x", "y", "x"]) == [(0.0, [0.0]), (0.0, [0.0]), (1.0, [0.0])]
    counter.remember("z", (0.3, [0.0]))  # a replayed call counts
    assert counter("z") == (1.0, [0.0])
    assert metric.requests == [("x", 0), ("y", 0), ("x", 1), ("z", 1)]
    with pytest.raises(ValueError, match="cannot draw fresh samples"):
        SampleCounter(lambda text: (0.0, [0.0]))


def test_policies_are_registered_and_settings_checked():
    assert resampling_names()[:2] == ["plain", "adaptive"]
    assert make_resampling("adaptive", max_samples=4).max_samples == 4
    with pytest.raises(ValueError, match="unknown"):
        make_resampling("lucky")
    with pytest.raises(ValueError, match="takes no setting"):
        make_resampling("plain", max_samples=4)


# -- the corrected archive -------------------------------------------------------------------

def test_the_corrected_archive_of_a_hand_made_archive():
    archive = ProgramArchive(["b"], [(0.0, 1.0)], [4])
    archive.add(["p1", "p2", "p3"], [0.9, 0.8, 0.7], [[0.1], [0.3], [0.6]])
    fresh = {"p1": (0.5, [0.1]),    # keeps its cell, worth less
             "p2": (0.6, [0.12]),   # moves to p1's cell and beats it there
             "p3": (0.4, [0.9])}    # moves to an empty cell
    elites = archive.elites()
    corrected, c = corrected_archive(archive, [fresh[e["program"]] for e in elites], 5)
    assert (c.elites, c.coverage, round(c.qd_score, 6)) == (3, 0.75, 2.4)
    assert (c.corrected_elites, c.corrected_coverage) == (2, 0.5)
    assert round(c.corrected_qd_score, 6) == 1.0 and c.corrected_best == 0.6
    assert c.kept == pytest.approx(1 / 3) and c.samples == 5
    assert {e["program"] for e in corrected.elites()} == {"p2", "p3"}
    assert archive.stats()["elites"] == 3  # the archive itself is left as it was
    assert "| corrected | 2 | 0.500 | 1.00 | 0.600 |" in c.lines()


# -- adaptive against plain on a noisy problem with a known truth -----------------------------

def noisy_run(policy: str, seed: int, out) -> tuple:
    archive = ProgramArchive(FEATURES, RANGES, [5, 5], seed=seed)
    metric = NoisyProblem(seed=seed, noise=0.25, measure_noise=0.1)
    emitter = AlgorithmOneEmitter(archive.archive, 4, VALUES, random_init=40, seed=seed,
                                  batch_size=8)
    run_map_elites(archive, None, metric, seed, out, evaluations=2000, emitter_list=[emitter],
                   resampling=make_resampling(policy), present=str)
    elites = archive.elites()
    _, correction = corrected_archive(archive, [truth(e["program"]) for e in elites], 0)
    return correction, len(read_log(out / "log.csv")), metric.samples


def test_adaptive_sampling_beats_plain_map_elites_on_the_corrected_archive(tmp_path):
    """Same problem, same 2,000 evaluations (re-evaluations counted), five seeds: the
    archive corrected by the true fitness and behaviour is better with adaptive sampling
    in every seed, by more than the spread over seeds explains."""
    plain, adaptive = [], []
    for seed in range(1, 6):
        for policy, results in (("plain", plain), ("adaptive", adaptive)):
            correction, logged, drawn = noisy_run(policy, seed, tmp_path / f"{policy}{seed}")
            assert logged == 2000
            if policy == "adaptive":
                assert drawn == 2000  # every evaluation is a fresh sample
            results.append(correction)
    plain_qd = [c.corrected_qd_score for c in plain]
    adaptive_qd = [c.corrected_qd_score for c in adaptive]
    gains = [a - p for a, p in zip(adaptive_qd, plain_qd)]
    assert min(adaptive_qd) > max(plain_qd)
    assert statistics.mean(gains) > 3 * statistics.stdev(gains) / len(gains) ** 0.5
    assert min(c.kept for c in adaptive) > max(c.kept for c in plain)
    # plain MAP-Elites' own figures flatter it far more than adaptive sampling's
    assert min(c.qd_score - c.corrected_qd_score for c in plain) > \
        max(c.qd_score - c.corrected_qd_score for c in adaptive)


# -- the command line --------------------------------------------------------------------------

QD_ADAPTIVE = ("qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims", "6,6",
               "--matches", "20", "--batch", "4", "--evaluations", "48", "--seed", "11",
               "--workers", "1", "--quiet", "--resample", "adaptive")


def test_adaptive_qd_killed_with_sigkill_resumes_in_a_new_process_to_the_same_run(tmp_path):
    reference = tmp_path / "reference"
    assert cli(*QD_ADAPTIVE, "--out", str(reference), hash_seed="1").returncode == 0
    logged = read_log(reference / "log.csv")
    assert len(logged) == 48 and len({r["program"] for r in logged}) < 48  # re-evaluations
    killed = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *QD_ADAPTIVE, "--out",
                             str(killed)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "2"})
    log = killed / "log.csv"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= 21:
            break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < len(read_log(log)) < 48, "the run finished before it could be killed"
    resumed = cli("resume", str(killed), "--quiet", hash_seed="3")
    assert resumed.returncode == 0, resumed.stderr
    assert archive_of(killed) == archive_of(reference)
    assert (killed / "archive.json").read_text() == (reference / "archive.json").read_text()
    assert (killed / "stats.csv").read_text().splitlines()[-1].split(",")[1:] == \
        (reference / "stats.csv").read_text().splitlines()[-1].split(",")[1:]


def test_qd_check_reports_the_corrected_archive(tmp_path):
    out = tmp_path / "qd"
    assert main(["qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims", "6,6",
                 "--matches", "10", "--evaluations", "24", "--batch", "4", "--seed", "3",
                 "--workers", "1", "--resample", "adaptive", "--max-samples", "3",
                 "--out", str(out), "--quiet"]) == 0
    assert json.loads((out / "config.json").read_text())["resample"] == "adaptive"
    assert main(["qd-check", str(out), "--matches", "10", "--corrected", "2",
                 "--workers", "1"]) == 0
    report = (out / "corners.md").read_text()
    assert "## Corrected archive (2 fresh samples of 10 matches per elite)" in report
    assert "--corrected 2" in report and "`--resample adaptive`, 24 evaluations" in report
    data = json.loads((out / "corners-corrected.json").read_text())
    elites = json.loads((out / "archive.json").read_text())["elites"]
    assert data["elites"] == len(elites) and 0 <= data["kept"] <= 1
    assert data["corrected_elites"] <= data["elites"] and data["samples"] == 2


def test_bad_resampling_settings_are_refused_before_anything_is_written(tmp_path, capsys):
    for extra, message in ((["--resample", "lucky"], "not one of plain, adaptive"),
                           (["--max-samples", "3"], "max_samples is a setting of --resample "
                                                    "adaptive")):
        out = tmp_path / "x"
        assert main(["qd", "cantstop", "--evaluations", "4", "--out", str(out), *extra]) == 2
        assert message in capsys.readouterr().err and not out.exists()


def test_tribes_samples_are_the_next_games_of_the_solution(tmp_path):
    from games.tribes.qd import WeightsScore

    score = WeightsScore({"turn_limit": 3, "levels": [0, 1]}, "mcts:8", ["attacks"], 2, 5,
                         out=tmp_path)
    text = ",".join(["0.5"] * 11)
    first, second = score.sample_many([(text, 0), (text, 1)])
    assert first == score(text)  # sample 0 is the solution's evaluation
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [g["match"] for g in games] == [0, 1, 2, 3]
    again = WeightsScore({"turn_limit": 3, "levels": [0, 1]}, "mcts:8", ["attacks"], 2, 5,
                         out=tmp_path)
    assert again.sample_many([(text, 1)]) == [second]  # read back from the games log


def test_the_study_passes_the_subject_to_each_run_only_when_given(tmp_path):
    import argparse

    from experiments.studies.noisy_qd import run_args

    base = dict(game="tribes", features="attacks,win_round", dims=None, target="mcts-fw:200",
                matches=4, batch=8, evaluations=16, workers=1, game_param=["rules=4"])
    given = run_args(argparse.Namespace(**base, subject="pmcts-pu-fw"), "adaptive", 3,
                     tmp_path)
    assert given[given.index("--subject") + 1] == "pmcts-pu-fw"
    assert "--subject" not in run_args(argparse.Namespace(**base, subject=None), "plain", 3,
                                       tmp_path)
