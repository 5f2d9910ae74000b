"""microRTS behaviour for the semantic neighbourhood: snapshots recorded from the Java
engine, signatures computed without it, and a semantic SA run that replays."""

import multiprocessing
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from gp.evaluator import read_log
from gp.languages.microrts import MICRORTS_DSL, MicroRTSProgramPlayer
from gp.semantic import behaviour_for

from .extras import need_microrts

ROOT = Path(__file__).parent.parent
COAC_16 = MICRORTS_DSL.parse((ROOT / "experiments" / "programs" /
                              "microrts_coac_16x16.txt").read_text())
IDLE = MICRORTS_DSL.parse("pass")


def _recordings() -> dict:
    """Everything the tests need from the Java engine, in a fresh process (a forked
    one would inherit a JVM that cannot survive the fork, and a JVM started here
    would break the tests after this one that fork)."""
    from games.microrts.engine import unit_type_table
    from games.microrts.program_bot import ProgramBot

    recorded = behaviour_for(MICRORTS_DSL)
    out = {}
    for name, program in (("coac", COAC_16), ("again", COAC_16), ("idle", IDLE)):
        recorded.record(program, random.Random(5))
        out[name] = recorded.states
    bot = ProgramBot(MICRORTS_DSL.compile(COAC_16), unit_type_table())
    out["orders"] = []
    for state in out["coac"][:40]:
        bot.width, bot.height, bot.walls = state.width, state.height, state.walls
        out["orders"].append(tuple(int(o) for o in bot.decide(state.me, list(state.rows))))
    return out


def _recorded_on(map_name: str, seed: int) -> list[tuple]:
    """What the semantic neighbourhood of a run on ``map_name`` records from COAC's
    16×16 program with ``seed``: each snapshot's seat, map size and unit rows."""
    from games import load_game
    from gp.neighbourhoods import NeighbourhoodSettings, make_neighbourhood

    neighbourhood = make_neighbourhood(
        "semantic", language=MICRORTS_DSL, settings=NeighbourhoodSettings(
            neighbourhood="semantic"), game=load_game("microrts", map=map_name))
    neighbourhood.start(COAC_16, random.Random(seed))
    return [(s.me, s.width, s.height, s.rows) for s in neighbourhood.behaviour.states]


def _in_a_new_process(function, *args):
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


@pytest.fixture(scope="module")
def recordings():
    need_microrts()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_recordings).result()


@pytest.fixture(scope="module")
def behaviour(recordings):
    recorded = behaviour_for(MICRORTS_DSL)
    recorded.states = recordings["coac"]
    return recorded


def test_the_snapshots_are_the_programs_decisions_spread_over_the_matches(behaviour):
    states = behaviour.states
    assert 20 <= len(states) <= behaviour.recorder.states
    assert {s.me for s in states} == {0, 1}  # seats alternate between the two matches
    assert len({(s.me, s.rows) for s in states}) == len(states)
    assert all(any(row == s.me for row in s.rows[3::8]) for s in states)  # it owns a unit


def test_the_same_seed_records_the_same_snapshots_and_another_program_others(recordings):
    def rows(name):
        return [(s.me, s.rows) for s in recordings[name]]

    assert rows("again") == rows("coac") and rows("idle") != rows("coac")


def test_the_signature_is_the_orders_the_program_gives_in_a_match(behaviour, recordings):
    signature = behaviour.of(COAC_16)
    assert list(signature[:40]) == recordings["orders"]
    assert any(orders for orders in signature)


def test_programs_that_give_the_same_orders_share_a_signature_and_others_do_not(behaviour):
    padded = MICRORTS_DSL.parse(MICRORTS_DSL.to_text(COAC_16) + "\npass")
    assert list(padded) != list(COAC_16)
    assert behaviour.of(padded) == behaviour.of(COAC_16)
    assert behaviour.of(IDLE) != behaviour.of(COAC_16)
    assert set(behaviour.of(IDLE)) == {()}
    player = MicroRTSProgramPlayer(COAC_16)
    assert behaviour.recorder.signature(player, behaviour.states) == behaviour.of(COAC_16)


SYNTH = ("synth", "microrts", "--target", "workerrush", "--method", "sa", "--neighbourhood",
         "semantic", "--evaluations", "8", "--matches", "1", "--seed", "2", "--workers", "1",
         "--quiet")


def test_a_semantic_microrts_run_replays_in_another_process(tmp_path):
    need_microrts()
    runs = []
    for index, hash_seed in enumerate(("1", "2")):
        out = tmp_path / f"run{index}"
        done = subprocess.run([sys.executable, "-m", "experiments.cli", *SYNTH, "--out",
                               str(out)], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        runs.append([(r["evaluations"], r["value"], r["program"])
                     for r in read_log(out / "log.csv")])
    assert len(runs[0]) == 8 and runs[0] == runs[1]


def test_a_run_on_24x24_records_its_own_map_the_same_in_any_process():
    need_microrts()
    on_24 = _in_a_new_process(_recorded_on, "24x24", 5)
    assert {(width, height) for _, width, height, _ in on_24} == {(24, 24)}
    assert _in_a_new_process(_recorded_on, "24x24", 5) == on_24
    on_16 = _in_a_new_process(_recorded_on, "16x16", 5)
    assert {(width, height) for _, width, height, _ in on_16} == {(16, 16)}
    assert {rows for *_, rows in on_24}.isdisjoint(rows for *_, rows in on_16)
