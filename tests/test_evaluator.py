"""The evaluator (``gp.evaluator``): budgets, the run log as written and read, the best
programs, batches and the replay of a logged run; programs here are plain strings."""

from __future__ import annotations

import math

import pytest

from gp import evaluator as evaluator_module
from gp.evaluator import (
    LOG_FIELDS,
    Budget,
    BudgetSpent,
    Evaluator,
    ResumeMismatch,
    decode_program,
    encode_program,
    log_fields,
    read_log,
)
from gp.metrics import Metrics


def _length(text):
    return float(len(text))


def _vowels(text):
    return float(sum(ch in "aeiou" for ch in text))


def _metrics(**more) -> Metrics:
    return Metrics("psi", {"psi": _length, "c": _vowels, **more}, ("psi", "c"))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setitem(evaluator_module.CLOCKS, "wall", fake)
    return fake


# ---- budgets -------------------------------------------------------------------------

def test_an_evaluation_budget_is_spent_at_its_count_not_before():
    budget = Budget(evaluations=3)
    budget.count(2)
    assert budget.used == 2 and not budget.spent()
    budget.count()
    assert budget.spent() and not Budget().spent()


def test_a_time_budget_is_spent_when_its_clock_reaches_it(clock):
    budget = Budget(seconds=5.0)
    assert budget.started == 100.0 and budget.elapsed() == 0.0
    clock.now = 104.5
    assert budget.elapsed() == 4.5 and not budget.spent()
    clock.now = 105.0
    assert budget.spent()
    budget.set_elapsed(2.0)  # a resumed run's clock starts at the logged time
    assert budget.elapsed() == 2.0 and not budget.spent()
    clock.now = 106.0
    assert budget.elapsed() == 3.0
    with pytest.raises(ValueError, match="clock must be one of wall, cpu"):
        Budget(clock="moon")
    assert Budget(clock="cpu").child().clock == "cpu"


def test_a_child_budget_ends_with_its_own_count_or_its_parents():
    parent = Budget(evaluations=10)
    child = parent.child(evaluations=3)
    child.count(2)
    assert (child.used, parent.used) == (2, 2) and not child.spent()
    parent.count(8)
    assert child.spent() and child.used == 2
    assert not Budget(evaluations=10).child(evaluations=3).spent()


def test_reaching_the_stop_value_spends_the_budget():
    ev = Evaluator(_metrics(), str, Budget(evaluations=10, stop_at=4.0))
    ev.score("abc")
    assert not ev.budget.reached and not ev.budget.spent()
    ev.score("ab", "c")  # an extra metric never reaches the objective's stop value
    assert not ev.budget.spent()
    ev.score("abcd")
    assert ev.budget.reached and ev.budget.spent()
    with pytest.raises(BudgetSpent):
        ev.score("a")


# ---- the log -------------------------------------------------------------------------

def test_each_evaluation_is_one_exact_row_of_the_log(tmp_path, clock):
    ev = Evaluator(_metrics(), str, Budget(evaluations=10), run_dir=tmp_path)
    clock.now = 101.25
    assert ev.score("banana") == 6.0
    clock.now = 102.5
    assert ev.score("kiwi", "c") == 2.0
    clock.now = 103.75
    assert ev.score("fig") == 3.0
    ev.close()
    lines = (tmp_path / "log.csv").read_text().splitlines()
    assert tuple(lines[0].split(",")) == LOG_FIELDS == log_fields(("psi", "c"))
    assert lines[1:] == ["1.250,1,psi,6.0,6.0,,6.0,,,banana",
                         "2.500,2,c,2.0,,2.0,6.0,2.0,,kiwi",
                         "3.750,3,psi,3.0,3.0,,6.0,2.0,,fig"]
    rows = read_log(tmp_path / "log.csv")
    assert [r["program"] for r in rows] == ["banana", "kiwi", "fig"]
    assert ev.logged_seconds() == 3.75 and ev.best_c == 2.0 and ev.best_c_program == "kiwi"
    alone = Evaluator(Metrics("psi", {"psi": _length}), str, Budget())
    assert alone.best_c == -math.inf and alone.best_c_program is None
    assert alone.logged_seconds() == 0.0


def test_the_log_holds_values_exactly_and_programs_on_one_line(tmp_path):
    third = Metrics("psi", {"psi": lambda text: 1 / 3}, ())
    ev = Evaluator(third, str, Budget(evaluations=2), run_dir=tmp_path)
    ev.score("if x:\n  y")
    ev.close()
    (row,) = read_log(tmp_path / "log.csv")
    assert float(row["value"]) == 1 / 3 and row["program"] == "if x:\n  y"
    assert len((tmp_path / "log.csv").read_text().splitlines()) == 2
    assert encode_program("a\nb") == "a\\nb" and decode_program("a\\nb") == "a\nb"


def test_measures_are_logged_and_returned_with_the_value(tmp_path):
    def measured(text):
        return float(len(text)), (len(text) / 10, 0.5)

    ev = Evaluator(Metrics("psi", {"psi": measured}), str, Budget(evaluations=5),
                   run_dir=tmp_path)
    assert ev.score("abc") == (3.0, [0.3, 0.5])
    ev.close()
    assert read_log(tmp_path / "log.csv")[0]["measures"] == "[0.3, 0.5]"
    again = Evaluator(Metrics("psi", {"psi": measured}), str, Budget(evaluations=5),
                      run_dir=tmp_path, resume=True)
    assert again.score("abc") == (3.0, [0.3, 0.5]) and again.history[0].measures == [0.3, 0.5]


def test_a_missing_or_empty_log_has_no_rows_and_a_cut_row_is_left_out(tmp_path):
    path = tmp_path / "log.csv"
    assert read_log(path) == []
    path.write_text("seconds,evaluations")
    assert read_log(path, repair=True) == [] and path.read_text() == ""
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score("ab")
    ev.close()
    whole = path.read_text()
    path.write_text(whole + "0.1,2,psi,3.0")
    assert len(read_log(path)) == 1 and path.read_text() != whole
    assert len(read_log(path, repair=True)) == 1 and path.read_text() == whole


def test_a_log_that_is_not_one_is_named_with_its_line(tmp_path):
    path = tmp_path / "log.csv"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="log.csv: not a run log"):
        read_log(path)
    header = ",".join(LOG_FIELDS)
    path.write_text(f"{header}\n1.0,1,psi,2.0,2.0,,2.0,,,ab\n1.0,2,psi\n")
    with pytest.raises(ValueError, match="line 3: not a row of this log .*10 fields"):
        read_log(path)
    path.write_text(f"{header}\n1.0,1,psi,2.0,2.0,,2.0,,,ab\n1.0,x2,psi,2.0,2.0,,2.0,,,ab\n")
    with pytest.raises(ValueError, match="line 3: evaluations 'x2' is not a number"):
        read_log(path)
    path.write_text("seconds,evaluations\n1.0,1\n")
    with pytest.raises(ValueError, match="line 2: not a row of this log"):
        read_log(path)


# ---- the best program ------------------------------------------------------------------

def test_the_best_program_is_kept_and_shown_as_presented(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=10), run_dir=tmp_path,
                   present=str.upper)
    ev.score("ab")
    assert ev.best_value == ev.best_psi == 2.0 and ev.best_tree == "ab"
    assert (tmp_path / "best.txt").read_text() == "# best psi 2.0000 after 1 evaluations\nAB\n"
    assert "ab" in (tmp_path / "best_raw.txt").read_text()
    ev.score("xyz")
    ev.score("uvw")  # a tie keeps the first
    assert ev.best_program == ev.best_psi_program == "xyz" and ev.best_psi_tree == "xyz"
    assert (tmp_path / "best.txt").read_text().startswith("# best psi 3.0000 after 2 ")
    ev.close()
    assert (tmp_path / "best.txt").read_text() == "# best psi 3.0000\nXYZ\n"
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "best_raw.txt").write_text("old")
    ev = Evaluator(_metrics(), str, Budget(evaluations=10), run_dir=plain)
    ev.score("ab")
    assert not (plain / "best_raw.txt").exists()
    assert Evaluator(_metrics(), str, Budget()).best_c == -math.inf


def test_every_evaluation_is_reported_with_the_bests_so_far():
    seen = []
    ev = Evaluator(_metrics(), str, Budget(evaluations=10), on_score=seen.append)
    ev.score("abcd")
    ev.score("ae", "c")
    first, second = seen
    assert (first.evaluations, first.metric, first.value, first.psi, first.c) == \
        (1, "psi", 4.0, 4.0, None)
    assert (second.psi, second.c, second.best, second.best_psi, second.best_c) == \
        (None, 2.0, 4.0, 4.0, 2.0)
    assert first.best_c == -math.inf and first.program == "abcd"
    assert ev.history == seen


# ---- batches -------------------------------------------------------------------------

def test_a_batch_past_the_budget_logs_what_fits_then_ends():
    ev = Evaluator(_metrics(), str, Budget(evaluations=3))
    ev.score("a")
    with pytest.raises(BudgetSpent):
        ev.score_many(["bb", "ccc", "dddd"])
    assert [s.program for s in ev.history] == ["a", "bb", "ccc"] and ev.budget.used == 3
    ev = Evaluator(_metrics(), str, Budget(evaluations=3))
    assert ev.score_many(["a", "bb", "ccc"]) == [1.0, 2.0, 3.0]
    with pytest.raises(BudgetSpent):
        ev.score("x")


def test_a_metric_with_many_scores_a_batch_in_one_call_and_a_single_program_alone():
    calls = []

    def psi(text):
        calls.append("one")
        return float(len(text))

    def many(texts):
        calls.append(len(texts))
        return [float(len(t)) for t in texts]

    psi.many = many
    ev = Evaluator(Metrics("psi", {"psi": psi}), str, Budget(evaluations=10))
    assert ev.score_many(["a", "bb"]) == [1.0, 2.0] and ev.score("ccc") == 3.0
    assert calls == [2, "one"]
    with pytest.raises(KeyError, match="metric 'x' is not among"):
        ev.score("a", "x")


# ---- resume ---------------------------------------------------------------------------

def test_a_resumed_run_answers_its_logged_calls_from_the_log_then_goes_on(tmp_path, clock):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    clock.now = 107.0
    ev.score("ab")
    ev.score("abc", "c")
    ev.close()
    before = (tmp_path / "log.csv").read_text()
    remembered = []

    def changed(text):  # the metric changed: the log's values stand
        return 100.0

    changed.remember = lambda text, value: remembered.append((text, value))
    clock.now = 500.0
    again = Evaluator(Metrics("psi", {"psi": changed, "c": _vowels}, ("psi", "c")), str,
                      Budget(evaluations=5), run_dir=tmp_path, resume=True)
    assert again.replaying
    assert again.score("ab") == 2.0 and again.budget.elapsed() == 7.0
    assert again.score("abc", "c") == 1.0 and not again.replaying
    assert remembered == [("ab", 2.0)] and again.budget.used == 2
    assert again.score("z") == 100.0
    again.close()
    text = (tmp_path / "log.csv").read_text()
    assert text.startswith(before) and len(text.splitlines()) == 4
    assert (tmp_path / "best.txt").read_text() == "# best psi 100.0000\nz\n"


def test_a_replay_that_asks_for_another_evaluation_is_refused(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score("ab")
    ev.score("cd")
    ev.close()
    again = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    with pytest.raises(ResumeMismatch, match="log row 1 holds another evaluation"):
        again.score("xy")
    again = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    with pytest.raises(ResumeMismatch, match="log row 1"):
        again.score("ab", "c")
    again = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    again.score("ab")
    with pytest.raises(ResumeMismatch, match="1 logged evaluations were never replayed"):
        again.close()


def test_a_replayed_batch_past_the_log_scores_the_rest(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score_many(["a", "bb"])
    ev.close()
    again = Evaluator(_metrics(), str, Budget(evaluations=3), run_dir=tmp_path, resume=True)
    with pytest.raises(BudgetSpent):
        again.score_many(["a", "bb", "ccc", "dddd"])
    assert [s.program for s in again.history] == ["a", "bb", "ccc"]
    again.close()
    assert [r["program"] for r in read_log(tmp_path / "log.csv")] == ["a", "bb", "ccc"]


def test_resuming_a_run_that_logged_nothing_writes_the_header_once(tmp_path):
    (tmp_path / "log.csv").write_text("")
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    ev.score("ab")
    ev.close()
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    ev.score("ab")
    ev.score("abc")
    ev.close()
    lines = (tmp_path / "log.csv").read_text().splitlines()
    assert lines[0] == ",".join(LOG_FIELDS) and len(lines) == 3


# ---- views -----------------------------------------------------------------------------

def test_a_view_ends_when_its_stop_holds_and_reads_through_to_the_evaluator():
    ev = Evaluator(_metrics(), str, Budget(evaluations=4))
    stop = [False]
    view = ev.until(lambda: stop[0])
    inner = view.until(lambda: ev.budget.used >= 2)
    assert view.score("abc") == 3.0 and view.best_value == 3.0 and view.budget is ev.budget
    assert inner.score_many(["a"]) == [1.0] and inner.spent()
    with pytest.raises(BudgetSpent):
        inner.score("b")
    assert not view.spent()
    stop[0] = True
    assert view.spent()
    with pytest.raises(BudgetSpent):
        view.score_many(["b"])
    assert ev.budget.used == 2 and ev.score("dd") == 2.0


def test_a_run_without_resume_starts_its_log_afresh(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score("ab")
    ev.close()
    again = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    assert not again.replaying
    again.score("xyz")
    again.close()
    assert [r["program"] for r in read_log(tmp_path / "log.csv")] == ["xyz"]


def test_a_resume_cuts_the_row_a_kill_left_unfinished_before_it_appends(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score("ab")
    ev.close()
    with (tmp_path / "log.csv").open("a") as file:
        file.write("0.5,2,psi,3.0,3.0")
    again = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    again.score("ab")
    again.score("abc")
    again.close()
    assert [r["program"] for r in read_log(tmp_path / "log.csv")] == ["ab", "abc"]


def test_a_log_whose_first_line_is_blank_is_not_taken_for_another_runs(tmp_path):
    (tmp_path / "log.csv").write_text("\n")
    Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True).close()


def test_a_closed_evaluator_writes_no_more_rows():
    Evaluator(_metrics(), str, Budget()).close()  # nothing written, nothing to close
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=None)
    ev.score("ab")
    ev.close()


def test_scoring_after_close_leaves_the_log_as_closed(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path)
    ev.score("ab")
    ev.close()
    closed = (tmp_path / "log.csv").read_text()
    ev.score("abc")
    assert (tmp_path / "log.csv").read_text() == closed
    ev.close()


def test_a_child_budgets_limits_are_keywords():
    with pytest.raises(TypeError):
        Budget().child(3)
    assert Budget().child(evaluations=3, seconds=2.0).evaluations == 3


def test_a_run_that_logs_neither_psi_nor_c_reports_them_as_never_reached():
    seen = []
    ev = Evaluator(Metrics("score", {"score": _length}), str, Budget(), on_score=seen.append)
    ev.score("abc")
    assert seen[0].best == 3.0 and seen[0].best_psi == -math.inf
    assert seen[0].best_c == -math.inf and seen[0].psi is None


def test_a_bad_number_is_quoted_up_to_40_characters(tmp_path):
    path = tmp_path / "log.csv"
    header = ",".join(LOG_FIELDS)
    path.write_text(f"{header}\n1.0,{'x' * 50},psi,2.0,2.0,,2.0,,,ab\n")
    with pytest.raises(ValueError, match=f"evaluations '{'x' * 40}' is not a number"):
        read_log(path)


def test_resuming_a_log_of_only_its_header_keeps_one_header(tmp_path):
    Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path).close()
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    ev.score("ab")
    ev.close()
    lines = (tmp_path / "log.csv").read_text().splitlines()
    assert lines[0] == ",".join(LOG_FIELDS) and len(lines) == 2


def test_logged_seconds_are_the_last_evaluations_to_the_millisecond(clock):
    ev = Evaluator(_metrics(), str, Budget())
    clock.now = 101.23456
    ev.score("ab")
    assert ev.logged_seconds() == 1.235


def test_resuming_where_no_log_was_written_starts_one(tmp_path):
    ev = Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
    assert not ev.replaying
    ev.score("ab")
    ev.close()
    assert [r["program"] for r in read_log(tmp_path / "log.csv")] == ["ab"]


def test_a_log_with_more_columns_is_another_runs_even_if_they_begin_alike(tmp_path):
    more = Metrics("psi", {"psi": _length, "c": _vowels, "d": _length}, ("psi", "c", "d"))
    Evaluator(more, str, Budget(evaluations=5), run_dir=tmp_path).close()
    with pytest.raises(ResumeMismatch, match="its columns"):
        Evaluator(_metrics(), str, Budget(evaluations=5), run_dir=tmp_path, resume=True)
