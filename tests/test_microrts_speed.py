"""The speed work on microRTS program players changes no action.

``tests/fixtures/microrts_program_traces.json`` holds, per match, a digest of every
player action a DSL program gave (cycle and ``PlayerAction`` text, from
``ProgramAI.trace``), the cycles and the winner, recorded against deterministic Java
bots (WorkerRush, LightRush) on fixed seeds with the engine's own path finding
(``AStarPathFinding``) and the interpreter as they were before the speed work. The
players of today must reproduce them exactly, under both path finders and both match
loops. Rewrite the fixture only for an intended change of behaviour:
``python -m tests.test_microrts_speed --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import partial
from pathlib import Path

import pytest

from games.backends import PoolMap

from .extras import need_microrts
from .microrts_orders import SameOrders, java_orders, python_orders

need_microrts(module=True)
ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "experiments" / "programs"
FIXTURE = Path(__file__).parent / "fixtures" / "microrts_program_traces.json"
MAX_CYCLES = 1500
CASES = [  # (program file, map, opponent, program's seat)
    (program, map_name, opponent, seat)
    for program in ("microrts_coac_16x16.txt", "microrts_coac_24x24.txt",
                    "microrts_coac_32x32.txt", "microrts_coac_32x32_one_start.txt",
                    "microrts_workerrush.txt")
    for map_name, opponent, seat in (("16x16", "lightrush", 0), ("24x24", "workerrush", 1),
                                     ("32x32", "lightrush", 1), ("64x64", "workerrush", 0))
]
FAST_CASES = [CASES[16], CASES[5], CASES[10], CASES[7]]
"""One per map, for the fast suite; the slow test plays them all."""


class _Traced:
    """A program player whose bridge records every player action it hands over."""

    def __init__(self, text: str, path_finding: str | None, evaluator: str) -> None:
        from gp.languages.microrts import MicroRTSProgramPlayer

        self.player = MicroRTSProgramPlayer(text, evaluator=evaluator)
        self.path_finding = path_finding
        self.bridge = None

    def build(self, utt):
        import jpype

        bot = self.player.build(utt)
        self.bridge = bot.ai if hasattr(bot, "ai") else bot  # Python ProgramBot or Java
        if self.path_finding is not None:
            self.bridge.usePathFinding(self.path_finding)
        self.bridge.trace = jpype.JClass("java.util.ArrayList")()
        return bot


def _trace(case, path_finding: str | None = None, loop: str = "java",
           evaluator: str = "python") -> dict:
    from games.microrts import BotSpec
    from games.microrts.match import play_microrts_match

    program, map_name, opponent, seat = case
    traced = _Traced((PROGRAMS / program).read_text(), path_finding, evaluator)
    seats = [BotSpec(opponent), BotSpec(opponent)]
    seats[seat] = traced
    result = play_microrts_match(map_name, seats, max_cycles=MAX_CYCLES, loop=loop,
                                 seeds=(11, 12, 13))
    lines = [str(line) for line in traced.bridge.trace]
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:24]
    return {"case": "/".join(map(str, case)), "digest": digest, "steps": len(lines),
            "cycles": result["cycles"], "winner": result["winner"]}


def _traces(job) -> list[dict]:
    cases, path_finding, loop, evaluator = job
    return [_trace(case, path_finding, loop, evaluator) for case in cases]


def _expected(cases) -> list[dict]:
    recorded = {entry["case"]: entry for entry in json.loads(FIXTURE.read_text())["matches"]}
    return [recorded["/".join(map(str, case))] for case in cases]


def _check(cases, variants) -> None:
    expected = _expected(cases)
    with PoolMap(1) as pool:
        runs = pool(_traces, [(cases, *variant) for variant in variants])
    for variant, got in zip(variants, runs):
        for want, have in zip(expected, got):
            assert have == want, "path finding {}, {} loop, {} interpreter".format(*variant)
    assert any(entry["steps"] > 50 for entry in expected)


def test_programs_give_the_recorded_actions_one_match_per_map():
    _check(FAST_CASES, [("engine", "java", "python"), ("grid", "java", "java")])


@pytest.mark.slow
def test_programs_give_the_recorded_actions_on_every_map_and_loop():
    _check(CASES, [("engine", "java", "python"), ("grid", "java", "python"),
                   ("grid", "python", "python"), ("grid", "java", "java"),
                   ("engine", "python", "java")])


if __name__ == "__main__" and "--write" in sys.argv:
    FIXTURE.write_text(json.dumps({
        "recorded_with": "python -m tests.test_microrts_speed --write",
        "max_cycles": MAX_CYCLES, "seeds": [11, 12, 13],
        "matches": _traces((CASES, None, "java", "python"))}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")


def _interpreter_pairs(programs: list, utt) -> list:
    """Each program on the Python and on the Java interpreter."""
    import jpype

    from gp.languages.microrts import MicroRTSProgramPlayer

    names = jpype.JArray(jpype.JString)
    interpreter = jpype.JClass("stratsynth.ProgramInterpreter")
    return [(str(tree),
             partial(python_orders, MicroRTSProgramPlayer(tree, evaluator="python").build(utt)),
             partial(java_orders, interpreter(names([node.name for node in tree]), utt)))
            for tree in programs]


def _random_programs_agree(job) -> tuple[int, int, list[str]]:
    import random

    from games.microrts import BotSpec
    from games.microrts.match import play_microrts_match
    from gp.languages.microrts import MICRORTS_DSL

    seed, map_name, count = job
    rng = random.Random(seed)
    programs = []
    while len(programs) < count:
        tree = MICRORTS_DSL.random_program(rng)
        if not any(node.name == "Op_Random" for node in tree):
            programs.append(tree)
    checker = SameOrders((PROGRAMS / "microrts_coac_24x24.txt").read_text(),
                         partial(_interpreter_pairs, programs))
    play_microrts_match(map_name, (checker, BotSpec("lightrush")), max_cycles=1200,
                        loop="python", seeds=(seed, seed, seed))
    return checker.states, checker.nonempty, checker.mismatches[:5]


def test_java_and_python_interpreters_give_the_same_orders_for_random_programs():
    with PoolMap(1) as pool:
        runs = pool(_random_programs_agree, [(1, "24x24", 60), (3, "32x32", 60),
                                             (4, "64x64", 40)])
    for states, nonempty, mismatches in runs:
        assert mismatches == []
        assert states > 50 and nonempty > 1000


def _reference_pairs(programs: list, utt) -> list:
    """Each program on the Python and on the Java interpreter, both with
    ``interpreter=reference``."""
    import jpype

    from gp.languages.microrts import MicroRTSProgramPlayer

    names = jpype.JArray(jpype.JString)
    klass = jpype.JClass("stratsynth.ProgramInterpreter")
    pairs = []
    for tree in programs:
        java = klass(names([node.name for node in tree]), utt)
        java.useReference(True)
        python = MicroRTSProgramPlayer(tree, evaluator="python").build(utt, "reference")
        pairs.append((str(tree), partial(python_orders, python), partial(java_orders, java)))
    return pairs


def _reference_programs_agree(job) -> tuple[int, int, list[str]]:
    import random

    from games.microrts import BotSpec
    from games.microrts.match import play_microrts_match
    from gp.languages.microrts import MICRORTS_DSL

    seed, map_name, count = job
    rng = random.Random(seed)
    programs = [MICRORTS_DSL.parse((PROGRAMS / f"seed000_sketch_sa_o_{m}.txt").read_text())
                for m in ("16x16", "24x24", "32x32", "64x64")]
    while len(programs) < count:
        tree = MICRORTS_DSL.random_program(rng)
        if not any(node.name == "Op_Random" for node in tree):
            programs.append(tree)
    checker = SameOrders((PROGRAMS / "seed000_sketch_sa_o_24x24.txt").read_text(),
                         partial(_reference_pairs, programs))
    play_microrts_match(map_name, (checker, BotSpec("workerrush")), max_cycles=1000,
                        loop="python", seeds=(seed, seed, seed))
    return checker.states, checker.nonempty, checker.mismatches[:5]


def test_java_and_python_reference_interpreters_give_the_same_orders():
    with PoolMap(1) as pool:  # 64x64: walls, and directions off the map's edge
        runs = pool(_reference_programs_agree, [(2, "24x24", 40), (5, "64x64", 30)])
    for states, nonempty, mismatches in runs:
        assert mismatches == []
        assert states > 50 and nonempty > 300
