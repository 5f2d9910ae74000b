"""The report's statistics on hand-made data, and the CPU-time budget clock."""

import time

import numpy as np
import pytest

from experiments.cli import main
from experiments.report import holm, km_median, pairwise_tests, time_to_threshold
from gp.evaluator import Budget


def test_time_to_threshold_is_the_first_crossing_or_censored_at_the_end():
    run = {"times": [1.0, 5.0, 9.0], "best": [0.1, 0.31, 0.4], "seconds": 12.0}
    assert time_to_threshold(run, 0.3) == (5.0, True)
    assert time_to_threshold(run, 0.5) == (12.0, False)


def test_kaplan_meier_median_counts_censored_runs_as_not_yet_reached():
    # four runs reach it at 1, 2, 3, 4; two are censored at 10: S drops by 1/6 per event,
    # so S(3) = 1/2 and the median is 3 (ignoring the censored runs would give 2.5).
    times = [(1.0, True), (2.0, True), (3.0, True), (4.0, True), (10.0, False), (10.0, False)]
    assert km_median(times) == 3.0
    # a censoring before the events shifts the later drops: S(2) = 2/3, S(3) = 1/3
    assert km_median([(0.5, False), (1.0, True), (2.0, True), (3.0, True)]) == 2.0
    assert km_median([(1.0, True), (10.0, False), (10.0, False)]) is None
    assert km_median([(10.0, False)]) is None


def test_holm_adjusts_step_down_and_stays_monotone():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_pairwise_tests_tell_clearly_different_methods_apart():
    rates = {"A": np.linspace(0.40, 0.45, 10), "B": np.linspace(0.10, 0.15, 10),
             "C": np.linspace(0.40, 0.45, 10)}
    fast = [(float(t), True) for t in range(1, 11)]
    never = [(100.0, False)] * 10
    rows = pairwise_tests(["A", "B", "C"], rates, {0.3: {"A": fast, "B": never, "C": fast}})
    by_pair = {row.split(" |")[0][2:]: row for row in rows[2:]}
    assert set(by_pair) == {"A vs B", "A vs C", "B vs C"}
    a_b = [float(x.split()[0]) for x in by_pair["A vs B"].split("|")[2:4]]
    a_c = [float(x.split()[0]) for x in by_pair["A vs C"].split("|")[2:4]]
    assert max(a_b) < 0.001 and min(a_c) == 1.0


def test_cpu_clock_does_not_count_time_spent_waiting():
    wall, cpu = Budget(seconds=0.1), Budget(seconds=0.1, clock="cpu")
    time.sleep(0.15)
    assert wall.spent() and not cpu.spent()
    with pytest.raises(ValueError, match="clock"):
        Budget(seconds=1, clock="sundial")


def test_cpu_clock_needs_serial_evaluation(tmp_path, capsys):
    code = main(["synth", "cantstop", "--budget", "5s", "--clock", "cpu", "--workers", "2",
                 "--out", str(tmp_path / "run")])
    assert code == 2
    assert "clock cpu" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_quartiles_start_when_every_seed_has_a_value_and_never_fall():
    from experiments.report import curve, quartiles

    grid = np.linspace(0, 10, 11)
    early = {"times": [0.0, 6.0], "best": [0.4, 0.5]}
    late = {"times": [4.0], "best": [0.1]}  # starts late, low: a median of the early seed
    curves = np.array([curve(early, grid), curve(late, grid)])  # alone would fall at t=4
    low, median, high = quartiles(curves)
    assert np.isnan(median[:4]).all() and not np.isnan(median[4:]).any()
    assert (np.diff(median[4:]) >= 0).all()
    assert median[4] == 0.25 and low[4] <= median[4] <= high[4]


def test_pairwise_tests_say_n_a_for_a_method_with_one_seed():
    rates = {"A": np.array([0.4]), "B": np.linspace(0.1, 0.2, 5), "C": np.linspace(0.4, 0.5, 5)}
    fast = [(1.0, True)] * 5
    rows = pairwise_tests(["A", "B", "C"], rates,
                          {0.3: {"A": fast[:1], "B": fast, "C": fast}})
    by_pair = {row.split(" |")[0][2:]: row for row in rows[2:]}
    assert by_pair["A vs B"].count("n/a (one seed)") == 2
    assert by_pair["A vs C"].count("n/a (one seed)") == 2
    assert "n/a" not in by_pair["B vs C"]
    assert float(by_pair["B vs C"].split("|")[2].split()[0]) < 0.05


def test_a_report_counts_distinct_programs_and_warns_of_a_sketch_phase_that_barely_ran(
        tmp_path):
    from experiments.report import build_report

    common = ["--evaluations", "20", "--matches", "4", "--workers", "1", "--seed", "1",
              "--quiet"]
    assert main(["synth", "cantstop", "--method", "sketch-sa", "--score", "O",
                 "--data", "experiments/data/cantstop_random.jsonl", "--sketch-share", "0.1",
                 *common, "--out", str(tmp_path / "runs" / "Sketch" / "seed1")]) == 0
    assert main(["synth", "cantstop", "--method", "gp", "--population", "4", *common,
                 "--out", str(tmp_path / "runs" / "GP" / "seed1")]) == 0
    text = build_report(tmp_path, matches=4, workers=1).read_text()
    # a run of `synth` is named by its method; a tenth of 20 evaluations: one C, one Ψ
    assert "the sketch phase of sketch-sa evaluated the cloning score C fewer than 5 times " \
        "(seed 1: 1)" in text
    assert "phase of gp" not in text
    gp_row = next(line for line in text.splitlines() if line.startswith("| gp |"))
    evaluations, distinct = (int(cell) for cell in gp_row.split("|")[-3:-1])
    assert evaluations == 20 and 1 <= distinct < evaluations  # GP revisits programs
    assert "(one seed) |" in gp_row
