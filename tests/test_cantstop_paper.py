"""Can't Stop's paper mode: the appendix grammar with untyped holes (``--dsl sketch-paper``),
failures that score 0, the reference's sketch schedule and ``--paper``.

The restart re-measurement on matches never played before is tested in
``tests/test_sa_remeasure.py`` (``test_each_re_measurement_plays_matches_not_played_before``);
here the reference schedule's best-response search starts with such a measurement.
"""

import json
import random
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from experiments.cli import main
from experiments.comparison import plan
from experiments.config import SynthesisConfig
from experiments.loader import load, to_dict
from games import game_names, game_spec, load_game
from games.cantstop import glenn_aloi_player
from games.cantstop.reference_rules import ReferenceCantStopState
from games.cantstop.rules import HEIGHTS, ROLL, STOP
from games.match import play_matches
from games.records import load_records
from gp.evaluator import Budget, Evaluator, read_log
from gp.fitness import WinRate, score_of
from gp.languages.cantstop_paper import PAPER_DSL, Env, PaperSketch, paper_neutrals
from gp.simplify import simplified_text
from gp.sketch import REFERENCE_SKETCH_SCHEDULES, REFERENCE_SKETCH_SEARCHES, SketchSA

from .cantstop_positions import position

ROOT = Path(__file__).parent.parent
RANDOM_DATA = ROOT / "experiments" / "data" / "cantstop_random.jsonl"
GA_DATA = ROOT / "experiments" / "data" / "cantstop_ga.jsonl"

GA_LIKE = ("score: sum(map(lambda x: (advanced(x) + 1) * progress_value[x], neutrals))"
           " + difficulty\n"
           "column: argmax(map(lambda x: sum(map(lambda x: advance_of(x) * move_value[x], "
           "local_list)), actions))")
"""A program that never fails: GA's stop score and column values with constants 0 and 1."""

SOMETIMES_FAILS = GA_LIKE.replace(
    "+ difficulty\n", "+ (difficulty + (0 * secured(x)))\n")
"""Fails when a stop decision finds no neutral listed (``x`` is then unbound)."""


def score_of_program(text: str, state) -> object:
    """The score line's value on ``state`` (the stop decision's environment)."""
    score, _ = PAPER_DSL.compile(PAPER_DSL.parse(text))
    return score(Env(state, ["y", "n"], paper_neutrals(state)))


def test_text_round_trip_and_generation_as_the_reference_grammar():
    rng = random.Random(5)
    roots = {"B": set(), "L": set()}
    for _ in range(200):
        tree = PAPER_DSL.random_program(rng)
        text = PAPER_DSL.to_text(tree)
        assert PAPER_DSL.to_text(PAPER_DSL.parse(text)) == text
        roots["B"].add(tree[1].name.rsplit("_", 1)[0])
    # any production of the reference's DoubleProgram slot fills a hole, e.g. the column's
    assert roots["B"] == {"if", "argmax", "sum", "add", "mul", "sub"}
    with pytest.raises(ValueError):  # no constant but 0 and 1 in the appendix grammar
        PAPER_DSL.parse("score: 7 + 1\ncolumn: argmax(actions)")


def test_random_programs_can_fail_and_a_failure_scores_zero():
    game = load_game("cantstop")
    rng = random.Random(11)
    failed = 0
    for i in range(200):
        summary = play_matches(game, [PaperSketch(PAPER_DSL.random_program(rng)),
                                      glenn_aloi_player()], 2, seed=i)
        failed += summary.forfeits[0] > 0
        assert summary.forfeits[1] == 0
    assert failed > 150  # mostly a lambda's variable read where no lambda binds it
    for works in ("score: 1 + 1\ncolumn: 0 + 0", GA_LIKE):
        assert play_matches(game, [PaperSketch(works), glenn_aloi_player()], 6,
                            seed=1).forfeits == [0, 0]
    psi = WinRate(game, glenn_aloi_player(), PaperSketch, matches=150, seed=1)
    summary = psi.play(SOMETIMES_FAILS)
    assert summary.forfeits[0] > 0 and summary.wins[0] > 0 and score_of(game, summary) > 0
    assert psi(SOMETIMES_FAILS) == 0.0 and psi.failures == 1
    assert "no lambda variable of type int bound" in summary.first_error[0]
    assert psi(GA_LIKE) == score_of(game, psi.play(GA_LIKE)) > 0.1


def test_a_failing_program_decides_nothing_and_says_why():
    state = position(neutral={}, dice=(1, 1, 1, 2))  # first column decision: no neutral yet
    player = PaperSketch("score: difficulty + 0\ncolumn: sum(neutrals)")  # sum([]) is 0.0
    with pytest.raises(RuntimeError, match="list indices must be integers"):
        player(state)
    index = PaperSketch("score: difficulty + 0\ncolumn: 0 - 1")  # a negative index is Python's
    assert index(state) == state.legal[-1]
    # the score program runs before the sketch's own tests, as in the reference
    stop_wins = position(mine={2: 3, 3: 5}, claimed={4: 0, 5: 0}, neutral={2: 3})
    assert stop_wins.stopping_wins()
    assert PaperSketch("score: difficulty + 0\ncolumn: 0 + 1")(stop_wins) == STOP
    with pytest.raises(RuntimeError, match="TypeError"):  # sum(['y', 'n'])
        PaperSketch("score: sum(actions)\ncolumn: 0 + 1")(stop_wins)


def test_secured_and_neutrals_follow_the_reference_code():
    ref = position(mine={4: 2, 6: 3, 2: 3}, theirs={4: 4}, neutral={6: 5, 3: 6, 8: 2},
                   order=[6, 3, 8], claimed={12: 0, 11: 1}, won_now=[3],
                   state_class=ReferenceCantStopState)
    # the reference lists a neutral past the top (column 3, claimed this turn) too
    assert paper_neutrals(ref) == [6, 3, 8]
    each = "score: sum(map(lambda x: secured(x) + 0, neutrals))\ncolumn: 0 + 1"
    assert score_of_program(each, ref) == 5 + (HEIGHTS[3] + 1) + 2  # this turn included
    bind = "score: sum(map(lambda x: {}(x) + 0, map(lambda x: {}, neutrals)))\ncolumn: 0 + 1"
    one = "(1 + 1) * (1 + 1) * (1 + 1) * (1 + 1) - (1 + 1 + 1 + 1)"  # 12, per neutral
    assert score_of_program(bind.format("secured", one), ref) == 3 * (HEIGHTS[12] + 1)
    eleven = f"({one}) - 1"
    assert score_of_program(bind.format("secured", eleven), ref) == 0  # the opponent's
    assert score_of_program(bind.format("opponent_secured", eleven), ref) == 3 * (
        HEIGHTS[11] + 1)
    four = "(1 + 1) * (1 + 1)"
    assert score_of_program(bind.format("secured", four), ref) == 3 * 2  # permanent marker
    assert score_of_program(bind.format("opponent_secured", four), ref) == 3 * 4
    three = "(1 + 1) + 1"  # claimed this turn, a neutral past the top: height + 1
    assert score_of_program(bind.format("secured", three), ref) == 3 * (HEIGHTS[3] + 1)
    with pytest.raises(ValueError, match="out of range"):  # the reference raises too
        score_of_program(bind.format("secured", "0 + 1"), ref)
    paper = position(mine={5: 2}, neutral={5: 4, 2: 3}, order=[5, 2])
    assert paper_neutrals(paper) == [5]  # paper rules: a neutral on the top cell claims
    assert score_of_program(each, paper) == 4


def test_the_failing_program_does_not_stop_an_sa_run(tmp_path):
    out = tmp_path / "run"
    assert main(["synth", "cantstop", "--dsl", "sketch-paper", "--method", "sa",
                 "--evaluations", "40", "--matches", "10", "--seed", "2", "--workers", "1",
                 "--quiet", "--out", str(out)]) == 0
    assert (out / "done").exists()
    rows = read_log(out / "log.csv")
    failures = (out / "failures.log").read_text().splitlines()
    assert failures and len(rows) == 40
    for line in failures:
        metric, matches, error, program = line.split("\t")
        assert metric == "psi" and "ProgramFailure" in error
        logged = [r for r in rows if r["program"] == program.replace(" | ", "\n")]
        assert logged and all(float(r["value"]) == 0.0 for r in logged)


def _c_of(tree) -> float:
    """A cheap deterministic stand-in for a cloning score (zero for half the programs)."""
    value = zlib.crc32(PAPER_DSL.to_text(tree).encode()) % 1000 / 1000
    return 0.0 if value < 0.5 else value


def test_reference_schedule_measures_psi_only_on_each_searchs_best_c():
    calls = {"psi": 0, "psi-fresh": 0}

    def psi(tree):
        calls["psi"] += 1
        return _c_of(tree) / 2

    def fresh(tree):
        calls["psi-fresh"] += 1
        return 0.01

    per_search = REFERENCE_SKETCH_SCHEDULES * 112  # initial + 111 moves while T >= 1
    budget = REFERENCE_SKETCH_SEARCHES * (per_search + 1) + 30
    ev = Evaluator({"c": _c_of, "psi": psi, "psi-fresh": fresh}, PAPER_DSL.to_text,
                   Budget(evaluations=budget))
    SketchSA(language=PAPER_DSL, evaluator=ev, rng=random.Random(7),
             settings=SketchSA.Settings(sketch_schedule="reference",
                                        remeasure_restarts=True)).run()
    metrics = [s.metric for s in ev.history]
    first_br = metrics.index("psi-fresh")
    assert metrics[:first_br].count("psi") == REFERENCE_SKETCH_SEARCHES == 5
    start = 0
    best_psi = None
    for _ in range(REFERENCE_SKETCH_SEARCHES):
        end = start + per_search
        assert metrics[start:end] == ["c"] * per_search and metrics[end] == "psi"
        searched = ev.history[start:end]
        best = max(searched, key=lambda s: s.value)  # first of the best
        assert ev.history[end].program == best.program
        if best_psi is None or ev.history[end].value > best_psi.value:
            best_psi = ev.history[end]
        start = end + 1
    assert first_br == start  # the best-response search starts on fresh matches
    assert ev.history[first_br].program == best_psi.program
    assert calls["psi"] == 5 + len(metrics[first_br + 1:])


def test_text_schedule_is_the_default(tmp_path):
    config = load(SynthesisConfig, {"game": "cantstop", "method": "sketch-sa", "score": "A",
                                    "data": str(RANDOM_DATA), "evaluations": 1})
    assert to_dict(config)["sketch_schedule"] == "text" and config.paper is False


def _paper_argv(out, *extra):
    return ["synth", "cantstop", "--paper", "--method", "sketch-sa", "--score", "A",
            "--data", str(RANDOM_DATA), "--evaluations", "120", "--matches", "10", "--seed",
            "3", "--workers", "1", "--quiet", "--out", str(out), *extra]


def test_paper_flag_records_its_settings_and_explicit_ones_win(tmp_path, capsys):
    assert main(_paper_argv(tmp_path / "paper")) == 0
    config = json.loads((tmp_path / "paper" / "config.json").read_text())
    assert config["paper"] is True and config["dsl"] == "sketch-paper"
    assert config["sketch_schedule"] == "reference" and config["remeasure_restarts"] is True
    assert main(_paper_argv(tmp_path / "mine", "--dsl", "sketch-01", "--sketch-schedule",
                            "text")) == 0
    config = json.loads((tmp_path / "mine" / "config.json").read_text())
    assert config["dsl"] == "sketch-01" and config["sketch_schedule"] == "text"
    gp_config = load(SynthesisConfig, {"game": "cantstop", "method": "gp", "paper": True,
                                       "evaluations": 1})
    assert gp_config.dsl == "sketch-paper" and "remeasure_restarts" not in to_dict(gp_config)
    other = next(g for g in game_names() if not game_spec(g).synthesis.paper_settings)
    capsys.readouterr()
    assert main(["synth", other, "--paper", "--evaluations", "5", "--out",
                 str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no paper mode" in err[0]


def test_paper_in_a_toml_comparison(tmp_path):
    toml = tmp_path / "cmp.toml"
    toml.write_text(f"""[experiment]
out = "{tmp_path / 'out'}"
game = "cantstop"
evaluations = 10
seeds = [1]
paper = true

[[methods]]
label = "SA"
method = "sa"

[[methods]]
label = "Sketch-SA"
method = "sketch-sa"
score = "A"
data = "{RANDOM_DATA}"

[[methods]]
label = "typed"
paper = false
""")
    configs = {c["label"]: c for _, c in plan(toml)}
    assert configs["SA"]["dsl"] == "sketch-paper" and configs["SA"]["remeasure_restarts"]
    assert configs["Sketch-SA"]["sketch_schedule"] == "reference"
    assert configs["typed"]["dsl"] is None and configs["typed"]["remeasure_restarts"] is False


def test_paper_runs_are_deterministic_across_processes(tmp_path):
    start = tmp_path / "start.txt"
    start.write_text(GA_LIKE)

    def argv(out):
        return ["synth", "cantstop", "--paper", "--method", "sa", "--initial", str(start),
                "--evaluations", "60", "--matches", "20", "--seed", "5", "--workers", "1",
                "--quiet", "--out", str(out)]

    assert main(argv(tmp_path / "here")) == 0
    subprocess.run([sys.executable, "-m", "experiments.cli", *argv(tmp_path / "there")],
                   cwd=ROOT, check=True, capture_output=True)
    key = ("metric", "value", "program")
    here, there = (read_log(tmp_path / d / "log.csv") for d in ("here", "there"))
    assert len({r["value"] for r in here}) > 2  # Ψ values that could differ
    assert [tuple(r[k] for k in key) for r in here] == [tuple(r[k] for k in key) for r in there]


def test_simplified_paper_programs_act_the_same():
    _, matches = load_records(GA_DATA, load_game("cantstop"))
    states = [state for m in matches for _, state, _ in m.pairs][:150]
    rng = random.Random(21)
    changed = 0
    for _ in range(150):
        text = PAPER_DSL.to_text(PAPER_DSL.random_program(rng))
        short = simplified_text(PAPER_DSL, text)
        changed += short != text
        program, simple = PaperSketch(text), PaperSketch(short)
        for state in states:
            assert _decide(program, state) == _decide(simple, state), (text, short)
    assert changed > 0
    # the simplifier keeps a subtree that may fail: x * 0 is not 0 here
    assert "secured(x)" in simplified_text(PAPER_DSL, "score: 0 * secured(x)\ncolumn: 0 + 1")


def _decide(player: PaperSketch, state):
    try:
        return player(state)
    except RuntimeError:
        return "fails"


def test_paper_players_pickle_as_text():
    import pickle

    player = pickle.loads(pickle.dumps(PaperSketch(GA_LIKE)))
    assert player.text == PaperSketch(GA_LIKE).text
    state = position(mine={5: 2}, neutral={5: 4, 6: 1}, order=[5, 6])
    assert player(state) in (ROLL, STOP)


# ---- the fast array engine: the same Ψ as the scalar engine --------------------------------
COMPILED = [
    GA_LIKE,
    "score: if sum(neutrals) < (1 + 1) * (1 + 1 + 1) then sum(map(lambda x: opponent_secured(x)"
    " * progress_value[x], neutrals)) else (difficulty - 1)\n"
    "column: if difficulty + 0 < (1 + 1) * (1 + 1) * (1 + 1) * (1 + 1) then argmax(map(lambda x:"
    " sum(map(lambda x: move_value[x] - opponent_secured(x), local_list)), actions)) else "
    "argmax(map(lambda x: sum(map(lambda x: secured(x) + progress_value[x], neutrals))"
    " - sum(local_list), actions))",
    "score: sum(map(lambda x: (advanced(x) + 1) * progress_value[x], neutrals)) + difficulty\n"
    "column: 0 - 1",
    "score: (sum(neutrals) - difficulty) * (1 + 1)\n"
    "column: if sum(neutrals) < 1 then 0 * difficulty else argmax(map(lambda x: advance_of(x)"
    " * sum(map(lambda x: opponent_secured(x) - secured(x), local_list)), actions))",
    "score: sum(map(lambda x: secured(x) * advanced(x), neutrals)) + difficulty\n"
    "column: argmax(map(lambda x: sum(map(lambda x: sum(map(lambda x: advanced(x)"
    " - move_value[x], neutrals)) * advance_of(x), local_list)), actions))",
    "score: argmax(actions)\ncolumn: argmax(map(lambda x: (1 * difficulty) - sum(neutrals), "
    "actions))",
]
"""Programs the array compiler runs: every construct it accepts."""

SCALAR_ONLY = [
    SOMETIMES_FAILS,
    "score: sum(map(lambda x: sum(map(lambda x: secured(x) * advanced(x), neutrals))"
    " + progress_value[x] * 0, neutrals)) + difficulty\ncolumn: 0 + 0",  # a stale x: legal
    "score: difficulty + 0\ncolumn: sum(neutrals)",
]
"""Programs it leaves to the scalar engine: failing, or reading a binding left by a map."""


def _both_engines(text: str, matches: int, seed: int):
    game = load_game("cantstop")
    out = []
    for engine in ("fast", "reference"):
        psi = WinRate(game, glenn_aloi_player(), PaperSketch, matches=matches, seed=seed,
                      engine=engine)
        summary = psi.play(text)
        out.append((psi.value(summary), summary.wins, summary.capped, summary.total_moves,
                    summary.forfeits))
    return out


def test_fast_engine_gives_the_scalar_engines_psi_for_paper_programs():
    from games.cantstop import fast
    from gp.languages.cantstop_paper_compile import paper_array_program

    for text in COMPILED + SCALAR_ONLY:
        compiled = paper_array_program(PaperSketch(text)) is not None
        assert compiled == (text in COMPILED), text
        if compiled:
            assert fast.strategies_for(load_game("cantstop"), [PaperSketch(text),
                                                               glenn_aloi_player()])
        on_fast, on_scalar = _both_engines(text, 30, 4)
        assert on_fast == on_scalar, text
    assert _both_engines(SOMETIMES_FAILS, 150, 1)[0][0] == 0.0


@pytest.mark.slow
def test_fast_engine_equals_scalar_on_mutated_programs():
    from gp.languages.cantstop_paper_compile import paper_array_program

    rng = random.Random(8)
    current = PAPER_DSL.parse(GA_LIKE)
    compiled = checked = 0
    for _ in range(300):
        tree = PAPER_DSL.neighbour(current, rng)
        player = PaperSketch(tree)
        if paper_array_program(player) is not None:
            current = tree
            compiled += 1
        on_fast, on_scalar = _both_engines(player.text, 60, checked)
        assert on_fast == on_scalar, player.text
        checked += 1
    assert compiled > 30


def test_a_programs_sum_is_numpys_in_value_and_type():
    from gp.languages.cantstop.paper import _numpy_sum, ragged_array

    big = 2**63 - 1
    lists = [[], [0], [3, 4, 5], [-7, 2], [True, 2], [1.5, 2], [big, 1], [big, -big],
             [2**64, -2**64], [[1, 2], [3, 4]], [[1, 2], [3]], [(2, 3)], [2**62, 2**62],
             [-(2**63), 0], [1, [2]]]
    rng = random.Random(3)
    lists += [[rng.randrange(-50, 50) for _ in range(rng.randrange(1, 7))]
              for _ in range(200)]
    for value in lists:
        try:
            expected = np.sum(ragged_array(value))
        except Exception as err:
            with pytest.raises(type(err)):
                _numpy_sum(value)
            continue
        got = _numpy_sum(value)
        assert type(got) is type(expected), value
        assert np.array_equal(got, expected), value
