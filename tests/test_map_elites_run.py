"""``run_map_elites`` as a whole: where a time budget or a policy's re-evaluation ends
the run, its defaults, its emitters' seeds, its output directory and ``best.txt``."""

from __future__ import annotations

import gp.evaluator as evaluator_module
import qd.map_elites as map_elites
from gp.evaluator import read_log
from qd.archive import ProgramArchive
from qd.map_elites import run_map_elites
from qd.resampling import Resampling

from .search_problems import ORDER, coverage, order_value


def _archive() -> ProgramArchive:
    return ProgramArchive(["size", "coverage"], [(1, 41), (0, 1)], [8, 5])


class _Behaviour:
    """ORDER's value and (size, coverage) measures, as ``BehaviourWinRate`` gives them;
    ``tick`` is called once per evaluation."""

    def __init__(self, tick=None) -> None:
        self.tick = tick

    def __call__(self, text: str) -> tuple[float, list[float]]:
        if self.tick is not None:
            self.tick()
        tree = ORDER.parse(text)
        return order_value(tree), [float(len(tree)), coverage(tree)]

    def many(self, texts):
        return [self(t) for t in texts]


def _stats_evaluations(out) -> list[int]:
    rows = (out / "stats.csv").read_text().splitlines()[1:]
    return [int(row.split(",")[1]) for row in rows]


def test_a_spent_time_budget_ends_the_run_after_the_last_batch_begun_within_it(
        tmp_path, monkeypatch):
    now = [0.0]

    def one_second_per_evaluation():
        now[0] += 1.0

    monkeypatch.setitem(evaluator_module.CLOCKS, "wall", lambda: now[0])
    archive = run_map_elites(_archive(), ORDER, _Behaviour(one_second_per_evaluation),
                             seed=1, out=tmp_path, seconds=12, batch_size=4)
    # 8 evaluations a batch: after 8 s there is time left, after 16 s none
    assert len(read_log(tmp_path / "log.csv")) == 16
    assert _stats_evaluations(tmp_path) == [8, 16]
    assert archive.stats()["elites"] > 0


class _ReevaluateOnAdd(Resampling):
    """A policy whose archive evaluates every solution once more before adding it."""

    name = "reevaluate-on-add"

    def archive(self, archive, sample):
        return _Reevaluating(archive, sample)


class _Reevaluating:
    def __init__(self, inner, sample) -> None:
        self.inner, self.sample = inner, sample

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def add(self, solution, objective, measures, **fields):
        self.sample(list(solution))
        return self.inner.add(solution, objective, measures, **fields)


def test_a_re_evaluation_that_spends_the_budget_ends_the_run_without_an_error(tmp_path):
    seen = []
    run_map_elites(_archive(), ORDER, _Behaviour(), seed=1, out=tmp_path, evaluations=12,
                   batch_size=4, resampling=_ReevaluateOnAdd(),
                   progress=lambda used, stats: seen.append(used))
    # the first batch of 8, then 4 of its 8 re-evaluations: the budget is spent there
    assert len(read_log(tmp_path / "log.csv")) == 12
    assert _stats_evaluations(tmp_path) == [12]
    assert seen == [12]


def test_by_default_two_emitters_ask_batches_of_8_and_a_run_starts_afresh(tmp_path):
    out = tmp_path / "runs" / "qd"  # made with its parents
    run_map_elites(_archive(), ORDER, _Behaviour(), seed=3, out=out, evaluations=40)
    assert _stats_evaluations(out) == [16, 32, 40]
    # the same directory again, without resume: the new run's own log, as in a new one
    run_map_elites(_archive(), ORDER, _Behaviour(), seed=4, out=out, evaluations=40)
    run_map_elites(_archive(), ORDER, _Behaviour(), seed=4, out=tmp_path / "new",
                   evaluations=40)
    programs = [row["program"] for row in read_log(out / "log.csv")]
    assert programs == [row["program"] for row in read_log(tmp_path / "new" / "log.csv")]
    assert len(programs) == 40


def test_emitter_i_of_seed_s_draws_from_seed_101s_plus_i(tmp_path, monkeypatch):
    """Committed runs replay with these streams; runs whose seeds differ (up to 101
    emitters each) never share one."""
    seeds = []

    class Recorded(map_elites.ProgramEmitter):
        def __init__(self, archive, dsl, batch_size, seed):
            seeds.append(seed)
            super().__init__(archive, dsl, batch_size, seed)

    monkeypatch.setattr(map_elites, "ProgramEmitter", Recorded)
    for seed in (3, 4):
        run_map_elites(_archive(), ORDER, _Behaviour(), seed=seed, out=tmp_path / str(seed),
                       evaluations=0, emitters=3)
    assert seeds == [303, 304, 305, 404, 405, 406]
    assert all(isinstance(seed, int) for seed in seeds)


def _shouted(text: str) -> str:
    return text.upper()


def test_best_txt_shows_the_best_program_as_present_shows_it(tmp_path):
    run_map_elites(_archive(), ORDER, _Behaviour(), seed=2, out=tmp_path, evaluations=16,
                   present=_shouted)
    found = (tmp_path / "best_raw.txt").read_text().splitlines()[1]
    values = {row["program"]: float(row["value"]) for row in read_log(tmp_path / "log.csv")}
    assert values[found] == max(values.values())
    shown = (tmp_path / "best.txt").read_text().splitlines()[1]
    assert shown == found.upper() and shown != found
