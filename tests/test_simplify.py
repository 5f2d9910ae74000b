"""Simplified programs read better and act the same, decision by decision."""

import json
import random
from functools import partial
from pathlib import Path

import pytest

from games import load_game
from games.backends import PoolMap
from games.records import load_records
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from gp.languages.expendibots import EXPENDIBOTS_DSL
from gp.languages.microrts import MICRORTS_DSL
from gp.simplify import simplified_text

from .extras import need_microrts
from .microrts_orders import SameOrders, python_orders

ROOT = Path(__file__).parent.parent
_, MATCHES = load_records(ROOT / "experiments" / "data" / "cantstop_ga.jsonl",
                          load_game("cantstop"))
STATES = [state for match in MATCHES for _, state, _ in match.pairs]


def decisions(text: str) -> list:
    player = SketchStrategy(text)
    return [player(state) for state in STATES]


def test_dead_branches_and_constants_go():
    text = ("score: (4 * 5) + (0 * difficulty)\n"
            "column: if 4 < 7 then argmax(map(lambda a: sum(map(lambda c: 1 * move_value[c], "
            "columns(a))), actions)) else argmax(map(lambda a: 2, actions))")
    simple = simplified_text(CANTSTOP_DSL, text)
    assert "if" not in simple and "1 *" not in simple and "0 *" not in simple, simple
    assert decisions(simple) == decisions(text)
    text = ("score: sum(map(lambda c: sum(map(lambda c: 0, neutrals)) + progress_value[c], "
            "neutrals)) + difficulty\ncolumn: argmax(map(lambda a: sum(map(lambda c: 0, "
            "columns(a))) + advance_of(a), actions))")
    simple = simplified_text(CANTSTOP_DSL, text)
    assert simple == ("score: sum(map(lambda c: progress_value[c], neutrals)) + difficulty\n"
                      "column: argmax(map(lambda a: advance_of(a), actions))"), simple
    assert decisions(simple) == decisions(text)


def committed_programs() -> list[str]:
    """Best programs of the committed Can't Stop runs in the default language."""
    files = [f for f in sorted(ROOT.glob("experiments/results/cantstop-*/runs/*/seed*/best.txt"))
             if json.loads((f.parent / "config.json").read_text()).get("dsl") in (None, "sketch")]
    return [f.read_text() for f in files] + [(ROOT / "experiments/programs/cantstop_ga.txt")
                                             .read_text()]


def test_committed_and_random_programs_act_the_same_once_simplified():
    rng = random.Random(3)
    programs = committed_programs() + [CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(rng))
                                       for _ in range(60)]
    changed = 0
    for text in programs:
        simple = simplified_text(CANTSTOP_DSL, text)
        changed += CANTSTOP_DSL.to_text(CANTSTOP_DSL.parse(text)) != simple
        assert decisions(simple) == decisions(text), text
        assert simplified_text(CANTSTOP_DSL, simple) == simple  # already as simple as it gets
    assert changed > 0


@pytest.mark.parametrize("dsl", [EXPENDIBOTS_DSL, MICRORTS_DSL])
def test_other_languages_simplify_to_programs_that_parse(dsl):
    rng = random.Random(5)
    for _ in range(100):
        text = simplified_text(dsl, dsl.random_program(rng))
        assert dsl.to_text(dsl.parse(text)) == text


def _simplified_pairs(pairs: list, utt) -> list:
    """Each program and its simplified form, on the Python interpreter."""
    from gp.languages.microrts import MicroRTSProgramPlayer

    def orders(text):
        return partial(python_orders, MicroRTSProgramPlayer(text, evaluator="python").build(utt))

    return [(simple, orders(text), orders(simple)) for text, simple in pairs]


def _simplified_programs_agree(seed: int) -> tuple[int, int, list[str]]:
    """In a worker process (the JVM stays out of the test process)."""
    from games.microrts import BotSpec
    from games.microrts.match import play_microrts_match

    rng = random.Random(seed)
    pairs = []
    while len(pairs) < 60:
        tree = MICRORTS_DSL.random_program(rng)
        if any(node.name == "Op_Random" for node in tree):
            continue
        text, simple = MICRORTS_DSL.to_text(tree), simplified_text(MICRORTS_DSL, tree)
        if simple != text:
            assert simplified_text(MICRORTS_DSL, simple) == simple
            pairs.append((text, simple))
    checker = SameOrders((ROOT / "experiments/programs/microrts_coac_24x24.txt").read_text(),
                         partial(_simplified_pairs, pairs))
    play_microrts_match("24x24", (checker, BotSpec("lightrush")), max_cycles=800,
                        loop="python", seeds=(seed, seed, seed))
    return checker.states, checker.nonempty, checker.mismatches[:5]


def test_microrts_programs_give_the_same_orders_once_simplified():
    need_microrts()
    with PoolMap(1) as pool:
        [(states, nonempty, mismatches)] = pool(_simplified_programs_agree, [7])
    assert mismatches == []
    assert states > 50 and nonempty > 500
