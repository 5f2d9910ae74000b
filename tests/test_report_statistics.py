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
    assert holm([0.6, 0.7, 0.02]) == pytest.approx([1.0, 1.0, 0.06])  # capped at 1


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
    # Holm over the three pairs, in brackets; a threshold no run reached tells nothing apart
    rows = pairwise_tests(["A", "B", "C"], rates, {0.99: {"A": never, "B": never, "C": never}})
    cells = [[cell.strip() for cell in row.split("|")[2:4]] for row in rows[2:]]
    raw = [float(cell[0].split()[0]) for cell in cells]
    bracketed = [float(cell[0].split("(")[1].rstrip(")")) for cell in cells]
    assert bracketed == pytest.approx([float(f"{p:.3g}") for p in holm(raw)], rel=1e-2)
    assert bracketed[0] > raw[0]  # adjusted for three pairs
    assert [cell[1] for cell in cells] == ["1 (1)"] * 3


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
    # quartiles of two values, linearly interpolated: a quarter and three quarters of the way
    assert low[4] == pytest.approx(0.175) and high[4] == pytest.approx(0.325)


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


def _hand_made_run(root, label, seed, times, best, seconds, evaluations, wins, distinct=None,
                   done=True, settings=None):
    """A finished run as a comparison keeps it (curve and summary, no log), its best
    program already re-measured on 100 matches."""
    import csv
    import json
    import random

    from gp.languages.cantstop import CANTSTOP_DSL

    run_dir = root / "runs" / label / f"seed{seed}"
    run_dir.mkdir(parents=True)
    rng = random.Random(seed * 31 + len(label))
    programs = [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng)) for _ in times]
    (run_dir / "config.json").write_text(json.dumps(
        {"game": "cantstop", "method": "sa", "target": "ga", "budget": "3m",
         "evaluations": None, "matches": 10, "seed": seed, "label": label, **(settings or {})}))
    with (run_dir / "curve.csv").open("w", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(("seconds", "evaluations", "best_psi", "program"))
        writer.writerows(zip(times, range(1, len(times) + 1), best, programs))
    summary = {"evaluations": evaluations, "seconds": seconds, "c_evaluations": None}
    if distinct is not None:
        summary["distinct"] = distinct
    (run_dir / "summary.json").write_text(json.dumps(summary))
    if programs:
        (run_dir / "remeasured.json").write_text(json.dumps(
            {"program": programs[-1], "matches": 100, "seed": 10_007 + seed, "wins": wins}))
    if done:
        (run_dir / "done").write_text("")
    return programs[-1] if programs else None


def _drawn(monkeypatch) -> list[dict]:
    """What each saved figure shows: its axes' labels and limits and its curves."""
    from matplotlib.figure import Figure

    drawn, save = [], Figure.savefig

    def savefig(fig, *args, **kwargs):
        ax = fig.axes[0]
        drawn.append({"lines": len(ax.get_lines()),
                      "ends": sorted(float(line.get_xdata()[-1]) for line in ax.get_lines()),
                      "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                      "ylim": ax.get_ylim(), "curves": {
                          line.get_label(): (line.get_xdata(), line.get_ydata())
                          for line in ax.get_lines() if not line.get_label().startswith("_")}})
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    return drawn


def test_a_report_of_hand_made_runs_has_each_methods_statistics(tmp_path, monkeypatch):
    from experiments.report import build_report
    from games.match import wilson_interval
    from gp.languages.cantstop import CANTSTOP_DSL
    from gp.simplify import simplified_text

    best_a = _hand_made_run(tmp_path, "A", 1, [6.0, 120.0], [0.2, 0.5], 180.0, 100, 60,
                            distinct=80)
    _hand_made_run(tmp_path, "A", 2, [60.0], [0.4], 180.0, 120, 40, distinct=90)
    _hand_made_run(tmp_path, "A", 3, [1.0], [0.9], 180.0, 10, 99, done=False)  # unfinished
    _hand_made_run(tmp_path, "A", 0, [], [], 180.0, 0, 0)  # found nothing: left out
    _hand_made_run(tmp_path, "B", 1, [30.0, 90.0], [0.1, 0.3], 240.0, 50, 30,
                   settings={"budget": None, "evaluations": 50})
    drawn = _drawn(monkeypatch)
    text = build_report(tmp_path, matches=100, workers=1, thresholds=(0.35,)).read_text()
    # the picture: the median best Ψ of each method over minutes, as a win rate in [0, 1]
    (figure,) = drawn
    assert figure["xlabel"] == "time (minutes)" and figure["ylim"] == (0.0, 1.0)
    assert figure["ylabel"].startswith("win rate against ga")
    minutes, median = figure["curves"]["B"]
    assert minutes[-1] == 4.0 and median[-1] == 0.3  # B's one seed, to its end at 240 s
    minutes, median = figure["curves"]["A"]
    assert np.isnan(median[minutes < 1.0]).all()  # until A's second seed has a value
    assert median[-1] == 0.45
    # A's median and its two seeds' own curves; B's median alone (one seed); the threshold
    assert figure["lines"] == 3 + 1 + 1
    assert figure["ends"] == [1.0] + [4.0] * 4  # every curve ends at 4 minutes; the threshold
    lines = text.splitlines()
    assert lines[0] == "# Synthesis against ga"
    assert "Budget per run: 3m, 50 evaluations. " in text
    assert "re-measured on 100 fresh matches" in text
    lo, hi = wilson_interval(100, 200)
    # A: rates 0.6 and 0.4 (seed 3 is not done); Ψ during search 0.5 and 0.4
    assert f"| A | 2 | 0.500 ± 0.100 | 0.400–0.600 | {lo:.3f}–{hi:.3f} | 0.450 | 110 | 85 |" \
        in lines
    lo, hi = wilson_interval(30, 100)
    assert f"| B | 1 | 0.300 (one seed) | — | {lo:.3f}–{hi:.3f} | 0.300 | 50 | — |" in lines
    assert "| Ψ during search |" in text and "over minutes" in text
    # the time to Ψ ≥ 0.35: A's seeds at 2 and 1 minutes (median 1), B's never
    assert "## Time to reach Ψ ≥ 0.35" in lines
    assert "| A | 2/2 | 1.00 | 1.00, 2.00 |" in lines
    assert "| B | 0/1 | not reached by half | — |" in lines
    pair = next(line for line in lines if line.startswith("| A vs B |"))
    assert pair.count("n/a (one seed)") == 2
    # the best program of each method: its best re-measured seed's, simplified
    at = lines.index("**A** (seed 1, re-measured 0.600):")
    assert lines[at + 2:at + 4] == ["```", simplified_text(CANTSTOP_DSL, best_a)
                                    .splitlines()[0]]
    assert "**B** (seed 1, re-measured 0.300):" in lines
    assert (tmp_path / "winrate.png").stat().st_size > 0
    _hand_made_run(tmp_path / "other", "A", 1, [6.0], [0.2], 180.0, 100, 60)
    _hand_made_run(tmp_path / "other", "A", 2, [6.0], [0.2], 180.0, 100, 60,
                   settings={"target": "random"})
    # the title names the target of the first run (the first method's first seed)
    assert build_report(tmp_path / "other", matches=100, workers=1).read_text() \
        .startswith("# Synthesis against ga\n")


def test_a_run_is_read_from_its_log_and_again_from_the_curve_and_summary_it_leaves(tmp_path):
    import json

    from experiments.report import load_run
    from gp.evaluator import Evaluator
    from gp.metrics import CLONING, PSI

    values = {"a": 0.1, "b": 0.3, "c": 0.2, "d": 0.5}
    ev = Evaluator({PSI: values.get, CLONING: lambda p: 0.0}, str, Budget(evaluations=7),
                   tmp_path)
    for program in ["a", "b", "c", "b", "d"]:
        ev.score(program)
    ev.score("a", CLONING)
    ev.score("c", CLONING)
    ev.close()
    (tmp_path / "config.json").write_text(json.dumps({"game": "cantstop", "seed": 1}))
    run = load_run(tmp_path)
    assert (run["objective"], run["best"], run["program"], run["best_value"]) == \
        (PSI, [0.1, 0.3, 0.5], "d", 0.5)
    assert (run["evaluations"], run["distinct"], run["c_evaluations"]) == (7, 4, 2)
    from gp.evaluator import read_log

    assert run["seconds"] == float(read_log(tmp_path / "log.csv")[-1]["seconds"])
    assert [row.split(",")[1:3] for row in
            (tmp_path / "curve.csv").read_text().splitlines()] == \
        [["evaluations", "best_psi"], ["1", "0.1"], ["2", "0.3"], ["5", "0.5"]]
    (tmp_path / "log.csv").unlink()
    again = load_run(tmp_path)
    assert {k: again[k] for k in run if k != "dir"} == {k: run[k] for k in run if k != "dir"}


def test_a_file_that_is_not_a_run_log_is_named(tmp_path):
    from experiments.report import log_objective, metric_label

    path = tmp_path / "log.csv"
    path.write_text("seconds,evaluations,metric,score,psi\n")
    with pytest.raises(ValueError, match="log.csv: not a run log"):
        log_objective(path)
    path.write_text("seconds,evaluations,metric,value,fitness,best_fitness,measures,program\n")
    assert log_objective(path) == "fitness"
    path.write_text("seconds,evaluations,metric,value,psi\n")  # the least a log has
    assert log_objective(path) == "psi"
    for text in ("", "seconds,evaluations,metric,value\n"):
        path.write_text(text)
        with pytest.raises(ValueError, match="log.csv: not a run log"):
            log_objective(path)
    assert metric_label("psi") == "Ψ" and metric_label("fitness") == "fitness"


def test_the_interval_over_seeds_is_the_bootstrap_interval_of_their_mean():
    from experiments.report import seed_interval

    assert seed_interval(np.array([0.4])) is None
    assert seed_interval(np.array([0.3, 0.3, 0.3])) == (0.3, 0.3)
    rates = np.linspace(0.0, 0.9, 10)  # mean 0.45, standard error 0.091
    lo, hi = seed_interval(rates)
    assert abs(lo - (0.45 - 1.96 * 0.0908)) < 0.02 and abs(hi - (0.45 + 1.96 * 0.0908)) < 0.02
    narrow = seed_interval(rates, confidence=0.5)
    assert lo < narrow[0] < 0.45 < narrow[1] < hi


def test_a_target_named_on_the_command_line_is_checked_only_against_its_own_runs(tmp_path):
    from experiments.report import admitted_target
    from experiments.trust import Consent

    named = Consent(target="random")
    # one run: naming another target than its own is an error
    with pytest.raises(ValueError, match="--target random is not the run's target 'ga'"):
        admitted_target({"target": "ga"}, tmp_path, named)
    assert admitted_target({"target": "random"}, tmp_path, named) == "random"
    # a comparison: the name is for the runs with that target, the others keep theirs
    assert admitted_target({"target": "ga"}, tmp_path / "runs" / "A", named, tmp_path) == "ga"


def test_report_command_passes_its_thresholds_on(tmp_path, capsys):
    _hand_made_run(tmp_path, "A", 1, [6.0, 120.0], [0.2, 0.5], 180.0, 100, 60)
    assert main(["report", str(tmp_path), "--matches", "100", "--workers", "1",
                 "--threshold", "0.35", "--threshold", "0.45"]) == 0
    out = capsys.readouterr().out
    assert "| A | 1 | 0.600 (one seed) |" in out
    assert "## Time to reach Ψ ≥ 0.35" in out and "## Time to reach Ψ ≥ 0.45" in out
    # by default each best program is re-measured on 10,000 matches (here already done)
    import json

    kept = tmp_path / "runs" / "A" / "seed1" / "remeasured.json"
    kept.write_text(json.dumps(json.loads(kept.read_text()) | {"matches": 10_000,
                                                               "wins": 5_000}))
    assert main(["report", str(tmp_path), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "re-measured on 10,000 fresh matches" in out and "| A | 1 | 0.500 (one seed) |" in out


def test_a_run_whose_config_no_longer_loads_has_no_sketch_phase(tmp_path):
    from experiments.report import has_sketch_phase

    assert not has_sketch_phase({"config": {"game": "cantstop", "method": "retired"},
                                 "dir": tmp_path})


def test_a_run_that_found_nothing_has_no_best_value(tmp_path):
    import json

    from experiments.report import load_run

    (tmp_path / "config.json").write_text(json.dumps({"game": "cantstop", "seed": 1}))
    (tmp_path / "log.csv").write_text("seconds,evaluations,metric,value,psi,best_psi,"
                                      "measures,program\n")
    run = load_run(tmp_path)
    assert run["best_value"] == -np.inf and run["program"] is None and run["best"] == []
    for name in ("log.csv", "curve.csv", "summary.json"):  # a run that logged nothing at all
        (tmp_path / name).unlink()
    run = load_run(tmp_path)
    assert (run["evaluations"], run["seconds"], run["distinct"], run["program"]) == \
        (0, 0.0, None, None)


def test_a_comparison_without_finished_runs_is_named(tmp_path):
    from experiments.report import build_report

    (tmp_path / "runs" / "A" / "seed1").mkdir(parents=True)  # not done
    with pytest.raises(ValueError, match=f"no finished runs under {tmp_path / 'runs'}"):
        build_report(tmp_path, matches=10, workers=1)


def test_a_best_program_is_re_measured_for_its_own_wins_once(tmp_path):
    import json
    from pathlib import Path

    from experiments.report import remeasure
    from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy

    ga = Path(__file__).resolve().parents[1] / "experiments" / "programs" / "cantstop_ga.txt"
    program = SketchStrategy.parse_program(ga.read_text())
    run = {"config": {"game": "cantstop", "target": "random", "seed": 3},
           "program": CANTSTOP_DSL.to_text(program), "dir": tmp_path}
    wins, matches = remeasure(run, 20, 1)
    assert matches == 20 and wins >= 16  # Glenn and Aloi's player against random moves
    kept = json.loads((tmp_path / "remeasured.json").read_text())
    assert kept == {"program": run["program"], "matches": 20, "seed": 10_010, "wins": wins}
    kept["wins"] = 7  # the cache is read, not played again
    (tmp_path / "remeasured.json").write_text(json.dumps(kept))
    assert remeasure(run, 20, 1) == (7, 20)
    assert remeasure(run, 10, 1)[1] == 10  # other matches: measured again
