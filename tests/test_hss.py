"""Naive Sampling, the HSS library, HSS itself and the self-play drivers."""

import json
import random
from pathlib import Path

import pytest

from games import load_game
from games.cantstop import glenn_aloi_player
from games.cantstop.features import FEATURES
from gp.evaluator import Budget
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from qd.hss import HSS, Library, feature_levels, similarity
from qd.map_elites import BehaviourWinRate
from qd.naive_sampling import NaiveSampling
from qd.selfplay import MixtureStrategy, hss_oracle, sa_oracle, self_play


def test_naive_sampling_finds_the_best_arm_of_a_toy_bandit():
    means = {(a, b): 0.1 * a + 0.2 * b for a in range(4) for b in range(3)}  # best (3, 2)
    rng = random.Random(0)
    ns = NaiveSampling([range(4), range(3)], seed=1, switch_after=200, gamma=1.0)
    for _ in range(1500):
        arm = ns.choose()
        ns.update(arm, means[arm] + rng.gauss(0, 0.05))
    assert ns.best() == (3, 2)


def test_library_returns_the_nearest_program_and_round_trips(tmp_path):
    lib = Library()
    lib.add("a", [1.0, 0.0], 0.2)
    lib.add("b", [5.0, 0.5], 0.4)
    lib.add("c", [5.0, 0.6], 0.9)
    assert lib.nearest([4.0, 0.55]).program in ("b", "c")
    assert lib.nearest([4.0, 0.6]).program == "c"
    assert lib.nearest([0.0, 0.0]).program == "a"
    lib.save(tmp_path / "lib.json")
    again = Library.load(tmp_path / "lib.json")
    assert again.nearest([4.0, 0.6]).program == "c" and len(again) == 3
    assert similarity([2, 0], [2, 0]) == 1.0 and similarity([4, 0], [2, 0]) == 0.75


def test_hss_runs_within_budget_and_fills_the_library():
    names = ["markers_per_stop", "bust_rate"]
    evaluate = BehaviourWinRate(load_game("cantstop"), glenn_aloi_player(), SketchStrategy,
                                FEATURES, names, 20, 1)
    levels = feature_levels([FEATURES[n][1] for n in names], 4)
    hss = HSS(CANTSTOP_DSL, evaluate, levels, seed=3, local_evaluations=5)
    utility, program = hss.run(Budget(evaluations=16))
    assert hss.evaluations >= 15 and len(hss.library) >= 5
    assert utility == max(e.utility for e in hss.library.entries.values())
    SketchStrategy(program)


def test_ibr_and_fp_produce_sequences():
    game = load_game("cantstop")
    start = CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(random.Random(1)))
    oracle = sa_oracle(game, SketchStrategy, matches=10, evaluations=4)
    ibr = self_play(oracle, SketchStrategy, start, iterations=2, seed=1)
    fp = self_play(oracle, SketchStrategy, start, iterations=2, seed=1, fictitious=True)
    assert len(ibr) == len(fp) == 3 and ibr[0] == fp[0] == start
    names = ["markers_per_stop", "bust_rate"]
    h = hss_oracle(game, SketchStrategy, FEATURES, names,
                   feature_levels([FEATURES[n][1] for n in names], 3), 10, 6)
    seq = self_play(h, SketchStrategy, start, iterations=2, seed=2)
    assert len(seq) == 3 and len(h.library) >= 6  # the library persists across calls
    mix = MixtureStrategy([SketchStrategy(s) for s in seq])
    picks = set()
    for seed in range(20):
        mix.reset(seed)
        picks.add(id(mix.current))
    assert len(picks) > 1


def _selfplay(out, iterations, *extra):
    from experiments.cli import main
    return main(["selfplay", "cantstop", "--oracle", "hss", "--driver", "fp",
                 "--features", "markers_per_stop,bust_rate", "--levels", "3",
                 "--iterations", str(iterations), "--evaluations", "4", "--matches", "6",
                 "--local-evaluations", "4", "--seed", "5", "--workers", "1",
                 "--out", str(out), *extra])


def test_a_self_play_run_continued_equals_one_run(tmp_path):
    assert _selfplay(tmp_path / "once", 3) == 0
    assert _selfplay(tmp_path / "twice", 1) == 0
    first = (tmp_path / "twice" / "library.json").read_text()
    assert _selfplay(tmp_path / "twice", 3) == 0  # continues after program1
    for name in ("sequence.json", "library.json", "program3.txt"):
        assert (tmp_path / "once" / name).read_text() == (tmp_path / "twice" / name).read_text()
    grown = json.loads((tmp_path / "twice" / "library.json").read_text())["entries"]
    assert len(json.loads(first)["entries"]) < len(grown)


def test_a_self_play_run_refuses_other_settings(tmp_path, capsys):
    assert _selfplay(tmp_path / "run", 1) == 0
    capsys.readouterr()
    assert _selfplay(tmp_path / "run", 2, "--matches", "8") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "config.json" in err[0] and "matches" in err[0]


def test_fictitious_play_from_a_pool_answers_the_pool_then_the_pool_and_responses():
    seen = []

    def oracle(target, seed):
        seen.append(target)
        return f"response {len(seen)}"

    class Program:
        def __init__(self, text):
            self.text = text

    pool = ["bot a", "bot b"]
    sequence = self_play(oracle, Program, "random start", 2, seed=1, fictitious=True,
                         opponents=pool, mixture="stratified")
    assert sequence == ["random start", "response 1", "response 2"]
    assert seen[0] == pool  # the random start is not a member once a pool is given
    assert seen[1][:2] == pool and [p.text for p in seen[1][2:]] == ["response 1"]
    seen.clear()
    self_play(oracle, Program, "random start", 1, seed=1, fictitious=True)
    assert isinstance(seen[0], MixtureStrategy) and [p.text for p in seen[0].players] == [
        "random start"]
    try:
        self_play(oracle, Program, "random start", 1, seed=1, opponents=pool)
    except ValueError as err:
        assert "IBR" in str(err)
    else:
        raise AssertionError("IBR with fixed opponents was accepted")


def test_a_stratified_mixture_scores_the_mean_over_its_members():
    game = load_game("cantstop")
    program = CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(random.Random(4)))
    members = [glenn_aloi_player(), SketchStrategy(program)]
    from gp.fitness import PoolWinRate, WinRate
    pooled = PoolWinRate(game, members, SketchStrategy, matches=8, seed=2)(program)
    each = [WinRate(game, m, SketchStrategy, matches=8, seed=2)(program) for m in members]
    assert pooled == sum(each) / 2
    names = ["markers_per_stop", "bust_rate"]
    rate, features = BehaviourWinRate(game, members, SketchStrategy, FEATURES, names, 8, 2)(
        program)
    assert rate == pooled and len(features) == 2


def test_selfplay_opponents_need_fictitious_play(tmp_path, capsys):
    assert _selfplay(tmp_path / "run", 1, "--driver", "ibr", "--opponents", "ga,random") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "opponents" in err[0] and not (tmp_path / "run").exists()


def test_library_programs_without_features_are_measured_first_and_can_win():
    names = ["markers_per_stop", "bust_rate"]
    game = load_game("cantstop")
    evaluate = BehaviourWinRate(game, glenn_aloi_player(), SketchStrategy, FEATURES, names, 20, 1)
    strong = (Path(__file__).resolve().parents[1] / "experiments" / "programs"
              / "cantstop_ga.txt")
    text = CANTSTOP_DSL.to_text(SketchStrategy.parse_program(strong.read_text()))
    library = Library()
    library.add_unmeasured(text)
    assert library.nearest([1.0, 0.1]) is None  # not measured: no features to compare
    levels = feature_levels([FEATURES[n][1] for n in names], 3)
    hss = HSS(CANTSTOP_DSL, evaluate, levels, seed=2, library=library, local_evaluations=2)
    budget = Budget(evaluations=3)
    utility, program = hss.run(budget)
    entry = library.entries[text]
    assert entry.features is not None and entry.utility == evaluate(text)[0]
    assert hss.evaluations == 3 and budget.used == 3
    assert hss.iterations[0]["start"] == text  # the only measured program starts the search
    assert utility >= entry.utility


def test_selfplay_library_programs_are_checked_before_anything_is_written(tmp_path, capsys):
    assert _selfplay(tmp_path / "a", 1, "--oracle", "sa", "--library-programs",
                     "experiments/programs/cantstop_ga.txt") == 2
    assert _selfplay(tmp_path / "b", 1, "--library-programs", str(tmp_path / "none.txt")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "HSS" in err[0] and "none.txt" in err[1]
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_run_recorded_under_the_former_variant_name_continues_unchanged(tmp_path):
    # committed runs' config.json say "dissertation", the former name of "published"
    assert _selfplay(tmp_path / "once", 2) == 0
    assert _selfplay(tmp_path / "old", 1) == 0
    config = tmp_path / "old" / "config.json"
    saved = json.loads(config.read_text())
    assert saved["hss_variant"] == "published"
    config.write_text(json.dumps({**saved, "hss_variant": "dissertation"}, indent=1) + "\n")
    before = config.read_text()
    assert _selfplay(tmp_path / "old", 2) == 0
    assert config.read_text() == before
    for name in ("sequence.json", "library.json"):
        assert (tmp_path / "once" / name).read_text() == (tmp_path / "old" / name).read_text()


def test_the_former_variant_name_is_read_as_published():
    from experiments.config import SelfPlayConfig
    from experiments.loader import load
    from qd.hss import PUBLISHED

    config = load(SelfPlayConfig, {"game": "cantstop", "hss_variant": "dissertation",
                                   "out": "x"}, "test")
    assert config.hss_variant == "published"
    hss = HSS(CANTSTOP_DSL, lambda text: (0.0, [0.0]), [[0.0]], variant="dissertation")
    assert hss.variant is PUBLISHED


def test_a_new_hss_run_uses_sketch_sa_and_a_run_recorded_without_the_key_continues_with_sa(
        tmp_path, capsys):
    """The level-2 search is part of a run's identity: new runs record sketch-sa; a
    config.json written before the setting existed means plain SA, and continues so."""
    assert _selfplay(tmp_path / "new", 1) == 0
    assert json.loads((tmp_path / "new" / "config.json").read_text())["hss_local_search"] == \
        "sketch-sa"
    assert _selfplay(tmp_path / "once", 2, "--hss-local-search", "sa") == 0
    assert _selfplay(tmp_path / "old", 1, "--hss-local-search", "sa") == 0
    config = tmp_path / "old" / "config.json"
    saved = json.loads(config.read_text())
    del saved["hss_local_search"]  # as every run before the setting wrote it
    config.write_text(json.dumps(saved, indent=1) + "\n")
    before = config.read_text()
    assert _selfplay(tmp_path / "old", 2) == 0
    assert config.read_text() == before
    for name in ("sequence.json", "library.json"):
        assert (tmp_path / "once" / name).read_text() == (tmp_path / "old" / name).read_text()
    capsys.readouterr()
    assert _selfplay(tmp_path / "old", 3, "--hss-local-search", "sketch-sa") == 2
    assert "hss_local_search" in capsys.readouterr().err


def test_a_config_without_the_local_search_key_means_plain_sa():
    from experiments.config import SelfPlayConfig
    from experiments.loader import load

    values = {"game": "cantstop", "oracle": "hss", "out": "x"}
    assert load(SelfPlayConfig, values, "test").local_search() == "sa"
    chosen = load(SelfPlayConfig, {**values, "hss_local_search": "sketch-sa"}, "test")
    assert chosen.local_search() == "sketch-sa"
    with pytest.raises(ValueError, match="hss_local_search"):
        load(SelfPlayConfig, {**values, "oracle": "sa", "hss_local_search": "sa"}, "test")


def test_a_library_saved_for_a_step_whose_checkpoint_was_never_written_is_not_used(tmp_path):
    from experiments.selfplay import kept_library, save_library

    def library(*programs):
        kept = Library()
        for i, text in enumerate(programs):
            kept.add(text, [float(i)], 0.5)
        return kept

    save_library(library("a"), tmp_path)  # step 1's library; killed before its checkpoint
    assert kept_library(tmp_path) is None  # the run starts afresh
    (tmp_path / "state.json").write_text('{"calls": 1}\n')  # step 1's checkpoint
    assert list(kept_library(tmp_path).entries) == ["a"]
    save_library(library("a", "b"), tmp_path)  # step 2's; killed before its checkpoint
    assert list(kept_library(tmp_path).entries) == ["a"]  # the one step 1 left
    (tmp_path / "state.json").write_text('{"calls": 2}\n')
    assert list(kept_library(tmp_path).entries) == ["a", "b"]
    # step 3 killed after moving the library aside, before writing its own
    (tmp_path / "library.json").replace(tmp_path / "library.prev.json")
    assert list(kept_library(tmp_path).entries) == ["a", "b"]
