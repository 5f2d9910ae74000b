"""Paired Ψ: matches in colour-swapped pairs on one opening (``games.match.opening_index``).

A program against an identical copy scores exactly ½ paired, and not in general
unpaired; the members of a pair share the opening and each seat's seed; an odd
number of matches is refused; Can't Stop's numpy and compiled engines give the
reference engine's paired matches; a synthesis run with ``--paired`` is the same in
two processes.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from experiments.cli import main as cli_main
from games import load_game
from games.api import RandomStrategy
from games.cantstop import fast, glenn_aloi_player, kernel
from games.cantstop.features import FEATURES
from games.expendibots.rules import Expendibots
from games.match import MatchJob, opening_index, play_job, play_many, play_match
from gp.fitness import FreshWinRate, WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from gp.languages.expendibots import EXPENDIBOTS_DSL, EvaluationProgramPlayer
from tests.test_determinism import cli, search_of

CANTSTOP = load_game("cantstop")
GA_TEXT = open("experiments/programs/cantstop_ga.txt").read()
EXPENDIBOTS = Expendibots(opening_plies=4, turn_limit=40)
DEPTH1 = functools.partial(EvaluationProgramPlayer, depth=1)


def copy_of(text: str):
    return DEPTH1(EXPENDIBOTS_DSL.parse(text))


def test_opening_index():
    assert [opening_index(k) for k in range(5)] == [0, 1, 2, 3, 4]
    assert [opening_index(k, paired=True) for k in range(5)] == [0, 0, 1, 1, 2]


def test_pair_members_share_the_opening_and_the_seat_seeds():
    """Two random players: paired matches 2k and 2k+1 start from the same random
    opening and, each seat drawing from the same seed, play the same moves."""
    players = (RandomStrategy(), RandomStrategy())
    game = Expendibots(opening_plies=4, turn_limit=8)

    def moves(index: int, paired: bool) -> list:
        result = play_match(game, players, seed=5, index=index, record=True, paired=paired)
        return [(seat, state["board"], action) for seat, state, action in result.pairs]

    for k in range(3):
        first, second = moves(2 * k, True), moves(2 * k + 1, True)
        assert first == second and first[0][1] == moves(k, False)[0][1]
    assert moves(0, False)[0][1] != moves(1, False)[0][1]  # unpaired: one opening per match


def test_a_copy_of_the_target_scores_one_half_paired_only():
    """A deterministic evaluation at depth 1 against itself: unpaired, one opening per
    match gives it 0.6875 over 8 matches; paired, exactly ½, margin tie-break included."""
    text = "value: f3"
    unpaired = WinRate(EXPENDIBOTS, copy_of(text), DEPTH1, matches=8, seed=0)(text)
    assert unpaired == pytest.approx(0.6875)
    for weight in (0.0, 0.01):
        paired = WinRate(EXPENDIBOTS, copy_of(text), DEPTH1, matches=8, seed=0, paired=True,
                         margin_weight=weight)
        assert paired(text) == 0.5
        assert FreshWinRate(paired)(text) == 0.5  # fresh matches are paired too


def test_margin_breaks_ties_below_the_step():
    """Expendibots scores draws ½ and has a margin (token lead / 12): the tie-break
    moves Ψ by less than half of its step and is refused at or above it."""
    text, target = "value: f1 - f2", copy_of("value: 0")
    plain = WinRate(EXPENDIBOTS, target, DEPTH1, matches=8, seed=1)
    tied = WinRate(EXPENDIBOTS, target, DEPTH1, matches=8, seed=1, margin_weight=0.03)
    summary = tied.play(text)
    assert tied(text) == pytest.approx(plain(text) + 0.03 * summary.behavior(0)["_margin"])
    assert abs(tied(text) - plain(text)) < plain.resolution / 2
    with pytest.raises(ValueError, match=r"margin_weight must be in \(0, 0.03125\)"):
        WinRate(EXPENDIBOTS, target, DEPTH1, matches=8, margin_weight=0.04)
    with pytest.raises(ValueError, match="has no margin"):
        WinRate(CANTSTOP, glenn_aloi_player(), SketchStrategy, matches=8, margin_weight=0.01)


def test_odd_match_counts_are_refused():
    with pytest.raises(ValueError, match="must be even, got 7"):
        WinRate(EXPENDIBOTS, copy_of("value: 1"), DEPTH1, matches=7, paired=True)
    with pytest.raises(ValueError, match="must be even, got 3"):
        play_many(CANTSTOP, [(RandomStrategy(), RandomStrategy())], 3, [0], paired=True)


def test_cli_refuses_odd_matches_with_one_line(capsys, tmp_path):
    code = cli_main(["synth", "cantstop", "--paired", "--matches", "7", "--evaluations", "2",
                     "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "matches must be even, got 7" in err
    code = cli_main(["synth", "cantstop", "--margin-weight", "0.01", "--matches", "8",
                     "--evaluations", "2", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "has no margin" in err


def test_cantstop_copy_of_ga_scores_one_half_on_every_engine():
    """Dice are chance too: a pair shares them, so GA against GA scores exactly ½
    paired (the first player's edge and the dice cancel), on all three engines, and
    every engine gives the reference engine's paired Ψ of other programs."""
    rng = random.Random(3)
    programs = [GA_TEXT] + [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
                            for _ in range(1)]
    values = {}
    for engine in ("reference", "numpy", "fast"):
        target = SketchStrategy(GA_TEXT)
        paired = WinRate(CANTSTOP, target, SketchStrategy, matches=20, seed=9, paired=True,
                         engine=engine)
        unpaired = WinRate(CANTSTOP, target, SketchStrategy, matches=20, seed=9, engine=engine)
        values[engine] = (paired.many(programs), unpaired.many(programs))
        assert values[engine][0][0] == 0.5
    assert values["reference"][1][0] != 0.5
    assert values["fast"] == values["numpy"] == values["reference"]


def test_cantstop_paired_chunks_match_the_reference():
    """Chunks that split a pair (odd bounds), with features, several pairings and
    paired and unpaired jobs in one batch: the numpy and compiled engines give
    ``play_job``'s summaries."""
    ga, rnd = glenn_aloi_player(), RandomStrategy()
    program = SketchStrategy(GA_TEXT)
    jobs = [MatchJob(CANTSTOP, (program, ga), 4, 0, 13, FEATURES, True),
            MatchJob(CANTSTOP, (program, ga), 4, 13, 30, FEATURES, True),
            MatchJob(CANTSTOP, (rnd, ga), 6, 3, 20, None, True),
            MatchJob(CANTSTOP, (program, ga), 4, 0, 13, FEATURES, False)]
    expected = [play_job(job) for job in jobs]
    assert expected[0] != expected[3]
    assert fast.play_chunks(jobs) == expected
    assert kernel.play_chunks(jobs) == expected


def test_paired_synthesis_is_the_same_in_two_processes(tmp_path):
    runs = []
    for k, hash_seed in enumerate(("1", "2")):
        run = tmp_path / f"run{k}"
        cli("synth", "cantstop", "--method", "sa", "--evaluations", "8", "--matches", "20",
            "--paired", "--seed", "7", "--workers", "1", "--quiet", "--out", str(run),
            hash_seed=hash_seed)
        assert json.loads((run / "config.json").read_text())["paired"] is True
        runs.append(search_of(run))
    assert len(runs[0]) == 8 and runs[0] == runs[1]


def test_a_toml_comparison_accepts_paired_and_the_margin_weight(tmp_path):
    from experiments.comparison import Comparison

    path = tmp_path / "compare.toml"
    path.write_text('[experiment]\nout = "runs"\ngame = "expendibots"\npaired = true\n'
                    'evaluations = 5\nmatches = 10\n'
                    '[[methods]]\nmethod = "sa"\nmargin_weight = 0.01\n'
                    '[[methods]]\nmethod = "gp"\npaired = false\n')
    (_, sa), (_, gp) = Comparison(path).runs
    assert sa.paired is True and sa.margin_weight == 0.01 and gp.paired is False
    path.write_text('[experiment]\nout = "runs"\ngame = "expendibots"\n'
                    '[[methods]]\nmethod = "sa"\npairs = true\n')
    with pytest.raises(ValueError, match="unknown field 'pairs'"):
        Comparison(path)
