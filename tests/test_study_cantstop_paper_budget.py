"""``experiments.studies.cantstop_paper_budget`` on hand-made run directories: the
condensed curve and counts of a log, best Ψ at a number of Ψ evaluations, the Fig. 2
table's quartiles, rates and tests, and Table 1's cells, each worked out by hand."""

import csv
import json
import math
from pathlib import Path

import pytest

from experiments.studies import cantstop_paper_budget as study

HEADER = ("seconds", "evaluations", "metric", "value", "program")


def _run(root: Path, label: str, seed: int, rows, *, done: bool = True,
         failures: tuple[str, ...] = (), header: tuple[str, ...] = HEADER,
         failure_lines: str = "", **config) -> Path:
    run_dir = root / "runs" / label.replace("(", "_").replace(")", "") / f"seed{seed}"
    run_dir.mkdir(parents=True)
    settings = {"label": label, "seed": seed, "method": "sa", "fitness": "psi", "score": None,
                "data": None, **config}
    (run_dir / "config.json").write_text(json.dumps(settings))
    with (run_dir / "log.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    if failures or failure_lines:
        (run_dir / "failures.log").write_text(
            "".join(f"{m}\tprogram\terror\n" for m in failures) + failure_lines)
    if done:
        (run_dir / "done").write_text("")
    return run_dir


def _curve(run_dir: Path) -> list[list[str]]:
    with (run_dir / study.CURVE_FILE).open(newline="") as fh:
        return list(csv.reader(fh))


def test_condense_counts_psi_and_c_evaluations_and_keeps_strict_improvements(tmp_path):
    run_dir = _run(tmp_path, "Sketch-SA(O)", 1, [
        (1.0, 1, "c", 0.8, "x"),
        (2.0, 2, "psi", 0.30, "a"),
        (3.0, 3, "psi", 0.20, "b"),
        (4.0, 4, "psi-fresh", 0.31, "a"),
        (5.0, 5, "psi", 0.45, "c"),
        (6.0, 6, "psi", 0.45, "d"),  # equal: not an improvement
    ], failures=("psi", "c", "psi-fresh"), method="sketch-sa")
    study.condense(run_dir)
    assert _curve(run_dir) == [
        ["psi_evaluations", "evaluations", "cpu_seconds", "best", "program"],
        ["1", "2", "2.0", "0.3", "a"],
        ["4", "5", "5.0", "0.45", "c"]]
    assert json.loads((run_dir / study.SUMMARY_FILE).read_text()) == {
        "psi_evaluations": 5, "c_evaluations": 1, "failed_psi_evaluations": 2,
        "cpu_seconds": 6.0, "best": 0.45, "best_is": "psi",
        "last_improvement_at_evaluation": 5, "failed_share_of_psi_evaluations": 0.0,
        "reference_cpu_seconds": 208.0}  # failures.log's lines say no share: 5 x 41.6


def test_condense_of_a_run_on_c_counts_every_evaluation_as_c(tmp_path):
    # with --fitness c the objective is logged under "psi" but holds C
    run_dir = _run(tmp_path, "BC", 1, [(1.0, 1, "psi", 0.5, "a"), (2.0, 2, "psi", 0.7, "b"),
                                       (3.0, 3, "psi", 0.6, "c")],
                   failures=("psi",), fitness="c")
    study.condense(run_dir)
    summary = json.loads((run_dir / study.SUMMARY_FILE).read_text())
    assert summary == {"psi_evaluations": 0, "c_evaluations": 3, "failed_psi_evaluations": 0,
                       "cpu_seconds": 3.0, "best": 0.7, "best_is": "c",
                       "last_improvement_at_evaluation": 2,
                       "failed_share_of_psi_evaluations": 0.0, "reference_cpu_seconds": 0.0}
    assert [row[0] for row in _curve(run_dir)[1:]] == ["0", "0"]


def test_condense_charges_each_psi_evaluation_its_outcomes_reference_cost(tmp_path):
    run_dir = _run(tmp_path, "SA", 1, [
        (1.0, 1, "psi", 0.0, "a"),
        (2.0, 2, "psi", 0.0, "a"),  # a repeat, answered from the cache: no new failure line
        (3.0, 3, "psi", 0.2, "b"),
        (4.0, 4, "c", 0.5, "b"),
        (5.0, 5, "psi-fresh", 0.1, "line1\\nline2"),
    ], failure_lines="psi\t1000 of 1000 matches\tmatch 0: KeyError\ta\n"
                     "psi-fresh\t250 of 1000 matches\tmatch 3: KeyError\tline1 | line2\n")
    study.condense(run_dir)
    summary = json.loads((run_dir / study.SUMMARY_FILE).read_text())
    # failed shares 1 + 1 + 0 + 0.25 of 4 Ψ evaluations: 1.75 x 41.6 + 2.25 x 1.9 = 77.075
    assert summary["failed_share_of_psi_evaluations"] == 2.25
    assert summary["reference_cpu_seconds"] == 77.1
    assert summary["failed_psi_evaluations"] == 2
    assert study.reference_hours(summary) == (77.1 / 3600, True)
    assert study.failed_evaluations(summary) == (2.25, True)
    assert study.failed_evaluations({"failed_psi_evaluations": 2}) == (2, False)


def test_condense_of_a_charged_run_sums_its_logged_charges(tmp_path):
    run_dir = _run(tmp_path, "SA", 1, [(1.0, 1, "psi", 0.0, "a", 1.9),
                                       (2.0, 2, "psi", 0.3, "b", 41.6)],
                   header=HEADER + ("charge",))
    study.condense(run_dir)
    summary = json.loads((run_dir / study.SUMMARY_FILE).read_text())
    assert summary["reference_cpu_seconds"] == 43.5


def test_reference_hours_of_a_summary_without_them_is_an_upper_bound():
    hours, exact = study.reference_hours({"psi_evaluations": 4400,
                                          "failed_psi_evaluations": 4073})
    assert hours == pytest.approx((327 * 41.6 + 4073 * 1.9) / 3600) and not exact


def test_condense_without_a_log_keeps_the_condensed_files(tmp_path):
    run_dir = _run(tmp_path, "SA", 1, [(1.0, 1, "psi", 0.5, "a")])
    study.condense(run_dir)
    before = (run_dir / study.CURVE_FILE).read_text()
    (run_dir / "log.csv").unlink()  # full logs are not committed
    study.condense(run_dir)
    assert (run_dir / study.CURVE_FILE).read_text() == before


def test_best_at_is_the_last_improvement_at_or_before():
    run = {"curve": [(1, 0.3), (4, 0.45)]}
    assert math.isnan(study.best_at(run, 0))
    assert [study.best_at(run, e) for e in (1, 3, 4, 100)] == [0.3, 0.3, 0.45, 0.45]


def test_quartiles_ignore_runs_without_a_value():
    assert study.quartiles([1.0, 2.0, 3.0, 4.0, math.nan]) == pytest.approx((1.75, 2.5, 3.25))


def test_holm_multiplies_by_rank_keeps_monotone_and_caps_at_one():
    # sorted 0.01, 0.03, 0.04 -> 3 x 0.01, 2 x 0.03, max(0.06, 1 x 0.04)
    assert study.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert study.holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_table1_key_sorts_bc_and_sketch_sa_runs_by_score_and_data_set():
    assert study.table1_key({"fitness": "c", "method": "sa", "score": "A",
                             "data": "experiments/data/cantstop_random.jsonl"}) == \
        ("A", "random", "BC")
    for fitness in ("psi", None):
        assert study.table1_key({"fitness": fitness, "method": "sketch-sa", "score": "O",
                                 "data": "experiments/data/cantstop_ga.jsonl"}) == \
            ("O", "ga", "Sketch-SA")
    assert study.table1_key({"fitness": "psi", "method": "sa", "score": None}) is None
    assert study.table1_key({"fitness": "psi+c", "method": "sketch-sa", "score": "O",
                             "data": "x.jsonl"}) is None


@pytest.fixture
def comparison(tmp_path, monkeypatch):
    """Three SA runs (final rates 0.1, 0.2, 0.3), three Sketch-SA(O) runs (0.5, 0.6, 0.7),
    two BC runs on the random data set (0.2, 0.3), one unfinished run."""
    fig2, table1 = tmp_path / "fig2", tmp_path / "table1"
    rates = {}
    for seed in (1, 2, 3):
        # SA: one Ψ evaluation, best 0.1 * seed from the start, 60 * seed CPU seconds
        rates[_run(fig2, "SA", seed, [(60.0 * seed, 1, "psi", 0.1 * seed, "p")])] = 0.1 * seed
        # Sketch-SA(O): a C evaluation, then Ψ 0, 0, 0.4 + 0.1 * seed at its 3rd Ψ
        rates[_run(fig2, "Sketch-SA(O)", seed, [
            (1.0, 1, "c", 0.9, "s"), (2.0, 2, "psi", 0.0, "s"), (3.0, 3, "psi", 0.0, "t"),
            (30.0, 4, "psi", 0.4 + 0.1 * seed, "u")], method="sketch-sa", score="O",
            data="experiments/data/cantstop_random.jsonl")] = 0.4 + 0.1 * seed
    _run(fig2, "SA", 4, [(1.0, 1, "psi", 0.9, "p")], done=False)
    bc = {"fitness": "c", "score": "O", "data": "experiments/data/cantstop_random.jsonl",
          "evaluations": 10000}
    rates[_run(table1, "BC(O) random", 1, [(1.0, 1, "psi", 0.5, "a"),
                                           (2.0, 3, "psi", 0.8, "b")], **bc)] = 0.2
    rates[_run(table1, "BC(O) random", 2, [(1.0, 2, "psi", 0.6, "a")], **bc)] = 0.3

    import experiments.report as report

    monkeypatch.setattr(report, "load_run", lambda run_dir: run_dir)
    monkeypatch.setattr(report, "remeasure",
                        lambda run_dir, matches, workers: (round(rates[run_dir] * matches),
                                                           matches))
    return [fig2, table1]


def test_finished_reads_done_runs_by_label_in_seed_order(comparison):
    methods = study.finished(comparison, 1000, 1)
    assert sorted(methods) == ["BC(O) random", "SA", "Sketch-SA(O)"]
    assert [r["config"]["seed"] for r in methods["SA"]] == [1, 2, 3]  # seed 4 is unfinished
    assert [r["rate"] for r in methods["Sketch-SA(O)"]] == pytest.approx([0.5, 0.6, 0.7])
    assert methods["Sketch-SA(O)"][0]["curve"] == [(1, 0.0), (3, 0.5)]


def test_fig2_table_quartiles_rates_and_tests(comparison):
    methods = study.finished(comparison, 1000, 1)
    lines = study.fig2_lines(methods, budget=10, matches=1000)
    # checkpoints at 1, 2, 5 and 10 Ψ evaluations
    assert "| SA | 3 | 0.200 [0.150–0.250] | 0.200 [0.150–0.250] | 0.200 [0.150–0.250] | " \
        "0.200 [0.150–0.250] | 0.200 ± 0.082 | 0.200 | 0/3 | 0/3 | 0% | 1 | 2.0 | " \
        "0.0 [0.0–0.0] |" in lines
    assert "| Sketch-SA(O) | 3 | 0.000 [0.000–0.000] | 0.000 [0.000–0.000] | " \
        "0.600 [0.550–0.650] | 0.600 [0.550–0.650] | 0.600 ± 0.082 | 0.600 | 2/3 | 0/3 | " \
        "0% | 3 | 0.5 | 0.0 [0.0–0.0] |" in lines
    # 1 and 3 Ψ evaluations of running programs: 41.6 s and 124.8 s
    assert any(line.startswith("**Budget in the reference code's CPU time:**") and
               "each run's Ψ evaluations are 0.0–0.0 (median 0.0) reference CPU-hours in the "
               "6 runs whose Ψ evaluations' outcomes are recorded; not the paper's 48." in line
               for line in lines)
    # exact Mann-Whitney U, 3 against 3 fully separated: two-sided 2/20, one-sided 1/20
    assert "| SA vs Sketch-SA(O) | 3 / 3 | 0.1 | 0.1 |" in lines
    assert "- Sketch-SA(O) > SA: medians 0.600 against 0.200, p = 0.05, Holm 0.05" in lines
    assert "Seeds finished: SA: 1, 2, 3; Sketch-SA(O): 1, 2, 3" in lines
    assert "| seed | SA | Sketch-SA(O) |" in lines
    assert "| 3 | 0.300 | 0.700 |" in lines
    assert not any(line.startswith("| 4 |") for line in lines)  # seed 4 is unfinished


def test_table1_cells_bc_beside_sketch_sa(comparison):
    methods = study.finished(comparison, 1000, 1)
    lines = study.table1_lines(methods, 1000)
    # BC 0.2, 0.3 below Sketch-SA 0.5, 0.6, 0.7: exact one-sided p = 1 / C(5, 2)
    assert "| O | random | 0.250 ± 0.050 (2) | 0.600 ± 0.082 (3) | 0.244 ± 0.114 | " \
        "0.518 ± 0.058 | 0.1 |" in lines
    assert "| O | GA | not run yet | not run yet | 0.368 ± 0.088 | 0.543 ± 0.024 | – |" in lines
    assert "| A | human | no data set (human matches) | no data set (human matches) | " \
        "0.352 ± 0.199 | 0.491 ± 0.117 | – |" in lines
    # best C 0.8 and 0.6; last improvements at evaluations 3 and 2
    assert "BC runs: best C 0.700 median (range 0.600–0.800); the last improvement of best " \
        "C came at evaluation 2 (median; latest 3) of 10,000." in lines


def test_table1_names_the_bc_budget_only_when_the_runs_share_one(comparison):
    methods = study.finished(comparison, 1000, 1)
    methods["BC(O) random"][1]["config"]["evaluations"] = 200000
    lines = study.table1_lines(methods, 1000)
    assert any(line.endswith("(median; latest 3) of each run's budget.") for line in lines)
    methods["BC(O) random"][0]["config"]["evaluations"] = 200000
    lines = study.table1_lines(methods, 1000)
    assert any(line.endswith("(median; latest 3) of 200,000.") for line in lines)


def test_table1_needs_bc_runs(comparison):
    methods = study.finished(comparison[:1], 1000, 1)
    assert study.table1_lines(methods, 1000) == []


def test_report_writes_the_page_and_the_figure(comparison, tmp_path):
    out = tmp_path / "out"
    path = study.report(comparison, out, budget=10, matches=1000, workers=1)
    text = path.read_text()
    assert path == out / "budget-report.md" and (out / "psi-by-evaluations.png").stat().st_size
    assert "## Fig. 2: best Ψ over Ψ evaluations" in text
    assert "## Table 1: behavioural cloning alone (BC) against Sketch-SA" in text


def test_report_without_finished_runs_says_so(tmp_path):
    _run(tmp_path / "fig2", "SA", 1, [(1.0, 1, "psi", 0.1, "p")], done=False)
    with pytest.raises(SystemExit, match="no finished runs"):
        study.report([tmp_path / "fig2"], tmp_path / "out", 10, 1000, 1)


def test_hours_cell_and_line_mark_upper_bounds():
    runs = [{"summary": {"reference_cpu_seconds": 3600.0 * h}} for h in (2.0, 5.0, 6.0)]
    runs.append({"summary": {"psi_evaluations": 4400, "failed_psi_evaluations": 4400}})
    assert study.hours_cell(runs[:3]) == "5.0 [2.0–6.0]"
    assert study.hours_cell(runs) == "≤ 3.7 [2.0–6.0]"  # 4,400 x 1.9 s: 2.32 h
    line = study.reference_hours_line(runs)
    assert "are 2.0–6.0 (median 5.0) reference CPU-hours in the 3 runs whose Ψ evaluations' " \
        "outcomes are recorded; at most 2.3–2.3 (median 2.3) in the 1 runs condensed " in line
    assert line.endswith("; not the paper's 48.")


def test_typed_runs_get_their_own_section_and_the_languages_side_by_side(comparison, tmp_path,
                                                                          monkeypatch):
    import experiments.report as report

    typed = tmp_path / "fig2-typed"
    rates = {}
    for seed in (1, 2, 3):  # typed SA: final rates 0.4, 0.5, 0.6
        rates[_run(typed, "SA", seed, [(10.0, 1, "psi", 0.3 + 0.1 * seed, "p")])] = \
            0.3 + 0.1 * seed
    paper_remeasure = report.remeasure

    def remeasure(run_dir, matches, workers):
        if run_dir in rates:
            return round(rates[run_dir] * matches), matches
        return paper_remeasure(run_dir, matches, workers)

    monkeypatch.setattr(report, "remeasure", remeasure)
    out = tmp_path / "out"
    text = study.report(comparison, out, budget=10, matches=1000, workers=1,
                        typed=typed).read_text()
    assert (out / study.TYPED_FIGURE_FILE).stat().st_size
    assert f"![best Ψ over Ψ evaluations]({study.TYPED_FIGURE_FILE})" in text
    assert "## Fig. 2 in the typed language" in text
    # paper-mode SA 0.1, 0.2, 0.3 against typed 0.4, 0.5, 0.6: fully separated, p = 2/20
    assert "| SA | 3 / 3 | 0.200, 0.200 | 0.500, 0.500 | 0.1 |" in text
    # Sketch-SA(O) ran in paper mode only: no row
    assert "| Sketch-SA(O) | 3 / " not in text
    # the typed runs stay out of the paper-mode table
    assert text.count("| SA | 3 | 0.200 [0.150–0.250]") == 1


def test_typed_runs_alone_are_a_report(tmp_path, monkeypatch):
    import experiments.report as report

    typed = tmp_path / "fig2-typed"
    run = _run(typed, "SA", 1, [(10.0, 1, "psi", 0.4, "p")])
    monkeypatch.setattr(report, "load_run", lambda run_dir: run_dir)
    monkeypatch.setattr(report, "remeasure", lambda run_dir, matches, workers: (400, 1000))
    text = study.report([tmp_path / "empty"], tmp_path / "out", budget=10, matches=1000,
                        workers=1, typed=typed).read_text()
    assert run.exists() and "## Fig. 2 in the typed language" in text
    assert "## Fig. 2: best Ψ over Ψ evaluations" not in text


def test_rate_by_seed_marks_a_seed_one_method_has_not_finished():
    methods = {"SA": [{"config": {"seed": 2}, "rate": 0.25}],
               "UCT": [{"config": {"seed": 1}, "rate": 0.5}, {"config": {"seed": 2}, "rate": 0.0}]}
    lines = study.rate_by_seed_lines(methods, ["SA", "UCT"])
    assert lines[2:6] == ["| seed | SA | UCT |", "|---|---|---|", "| 1 | – | 0.500 |",
                          "| 2 | 0.250 | 0.000 |"]


def test_typed_runs_under_the_paper_rules_get_their_section_and_the_rules_side_by_side(
        tmp_path, monkeypatch):
    import experiments.report as report

    typed, paper_rules = tmp_path / "fig2-typed", tmp_path / "fig2-typed-paper-rules"
    rates = {}
    for seed in (1, 2, 3):  # typed SA: 0.4, 0.5, 0.6; under the paper's rules 0.15 higher
        rates[_run(typed, "SA", seed, [(10.0, 1, "psi", 0.4, "p")])] = 0.3 + 0.1 * seed
        rates[_run(paper_rules, "SA", seed, [(10.0, 1, "psi", 0.5, "p")])] = 0.45 + 0.1 * seed
    monkeypatch.setattr(report, "load_run", lambda run_dir: run_dir)
    monkeypatch.setattr(report, "remeasure", lambda run_dir, matches, workers:
                        (round(rates[run_dir] * matches), matches))
    out = tmp_path / "out"
    text = study.report([tmp_path / "empty"], out, budget=10, matches=1000, workers=1,
                        typed=typed, typed_paper_rules=paper_rules).read_text()
    assert f"--typed-paper-rules {paper_rules} --out {out}`" in text
    assert (out / study.TYPED_PAPER_RULES_FIGURE_FILE).stat().st_size
    assert "## Fig. 2 in the typed language under the paper's rules" in text
    assert "| method | seeds (reference rules / paper rules) |" in text
    # 0.4, 0.5, 0.6 against 0.55, 0.65, 0.75: U = 1, exact two-sided p = 2 * 2/20
    assert "| SA | 3 / 3 | 0.500, 0.500 | 0.650, 0.650 | 0.2 |" in text
    assert text.count("| SA | 3 | ") == 2  # each setting its own Fig. 2 table


def test_paper_ordering_questions_are_holm_adjusted_within_their_group(comparison):
    methods = study.finished(comparison, 1000, 1)
    # UCT and Sketch-UCT(O) play like SA (0.1, 0.2, 0.3)
    methods["UCT"], methods["Sketch-UCT(O)"] = methods["SA"], methods["SA"]
    lines = study.fig2_lines(methods, budget=10, matches=1000)
    assert "SA above UCT, one-sided (first greater than second; Holm over these " \
        "questions):" in lines
    # two questions in this group: 1/20 doubled, not tripled as over all three asked
    assert "- Sketch-SA(O) > Sketch-UCT(O): medians 0.600 against 0.200, p = 0.05, " \
        "Holm 0.1" in lines
    assert any(line.startswith("- Sketch-UCT(O) > UCT: medians 0.200 against 0.200")
               for line in lines)
    assert not any(line.startswith("- Sketch-UCT(A)") for line in lines)
