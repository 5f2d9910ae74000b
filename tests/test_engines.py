"""Engines by declaration: the chain a choice gives, declining, lowerings, MatchJob."""

from __future__ import annotations

import pickle
import random

import pytest

from games import load_game
from games.api import RandomStrategy
from games.cantstop import fast, glenn_aloi_player, kernel
from games.engines import (
    Engine,
    StateEngine,
    engines_for,
    lowering,
    play_in_process,
    play_jobs,
)
from games.match import MatchJob, play_job, play_many
from gp.languages.cantstop import AppendixConstantsSketch, ReferenceSecuredSketch, SketchStrategy
from gp.languages.cantstop.paper import PAPER_DSL, PaperSketch
from qd.selfplay import MixtureStrategy

from .extras import need_microrts_maps

GA_TEXT = open("experiments/programs/cantstop_ga.txt").read()
GA01_TEXT = open("experiments/programs/cantstop_ga_constants01.txt").read()


class EvenOnly(Engine):
    """Plays the jobs that start at an even match, declines the others."""

    def play(self, jobs):
        return [play_job(job) if job.start % 2 == 0 else None for job in jobs]


def test_a_choice_gives_the_declared_chain():
    cantstop, tictactoe = load_game("cantstop"), load_game("tictactoe")
    assert [type(e) for e in engines_for(cantstop, "fast")] == \
        [kernel.KernelEngine, fast.ArrayEngine, StateEngine]
    assert [type(e) for e in engines_for(cantstop, "numpy")] == [fast.ArrayEngine, StateEngine]
    assert [type(e) for e in engines_for(cantstop, "reference")] == [StateEngine]
    assert [type(e) for e in engines_for(tictactoe, "fast")] == [StateEngine]
    with pytest.raises(ValueError, match="engine must be one of fast, numpy, reference"):
        engines_for(tictactoe, "kernel")


def test_declined_jobs_go_to_the_next_engine():
    game = load_game("tictactoe")
    players = (RandomStrategy(), RandomStrategy())
    jobs = [MatchJob(game, players, 3, start, start + 3) for start in range(0, 12, 3)]
    assert [s is None for s in EvenOnly().play(jobs)] == [False, True, False, True]
    assert play_in_process(jobs, (EvenOnly(), StateEngine())) == [play_job(j) for j in jobs]
    with pytest.raises(ValueError, match="no engine"):
        play_in_process(jobs, (EvenOnly(),))


def test_a_plain_map_runs_the_chain_per_job():
    game = load_game("cantstop")
    players = (SketchStrategy(GA_TEXT), glenn_aloi_player())
    jobs = [MatchJob(game, players, 5, 0, 7), MatchJob(game, players, 5, 7, 20, paired=False)]

    def plain_map(func, items):
        return [func(pickle.loads(pickle.dumps(item))) for item in items]

    assert play_jobs(jobs, engines_for(game, "fast"), plain_map) == [play_job(j) for j in jobs]
    serial = play_many(game, [players], 20, [5], engine="reference")[0]
    mapped = play_many(game, [players], 20, [5], map=plain_map, engine="fast")[0]
    serial.seconds = mapped.seconds = 0.0
    assert mapped == serial


def test_a_program_gives_the_lowerings_its_own_class_declares():
    assert lowering(SketchStrategy(GA_TEXT), fast.LOWERING) is not None
    assert lowering(SketchStrategy(GA_TEXT), kernel.LOWERING) is not None
    assert lowering(AppendixConstantsSketch(GA01_TEXT), kernel.LOWERING) is not None
    assert lowering(ReferenceSecuredSketch(GA01_TEXT), kernel.LOWERING) is not None
    assert lowering(ReferenceSecuredSketch(GA01_TEXT), fast.LOWERING) is None
    paper = PaperSketch(PAPER_DSL.random_program(random.Random(1)))
    assert lowering(paper, kernel.LOWERING) is None
    assert lowering(glenn_aloi_player(), kernel.LOWERING) is None  # not a program

    class Variant(SketchStrategy):  # may play differently: no inherited lowering
        pass

    assert lowering(Variant(GA_TEXT), fast.LOWERING) is None
    mixture = MixtureStrategy([SketchStrategy(GA_TEXT)])  # forwards attributes
    assert mixture.lowering is not None and lowering(mixture, kernel.LOWERING) is None


def test_the_jvm_engine_has_no_paired_matches():
    need_microrts_maps()
    from games.microrts.match import JVMEngine

    game = load_game("microrts")
    assert [type(e) for e in engines_for(game, "fast")] == [JVMEngine]
    with pytest.raises(ValueError, match="no paired"):
        play_many(game, [("coac", "coac")], 2, [0], paired=True)
