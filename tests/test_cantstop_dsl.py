"""The Can't Stop DSL: GA as a program, text <-> tree, safe generation, clear errors."""

import json
import pickle
import random
from pathlib import Path

import pytest

from experiments.cli import main
from games import load_game
from games.cantstop import glenn_aloi_player
from games.match import play_match
from gp.dsl import ProgramSyntaxError
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy, build_dsl
from gp.programs import load_program_player

GA_FILE = Path(__file__).parent.parent / "experiments" / "programs" / "cantstop_ga.txt"
GAME = load_game("cantstop")


def test_ga_program_decides_like_the_builtin_ga_on_1000_matches():
    program = load_program_player("cantstop", str(GA_FILE))
    ga = glenn_aloi_player()
    decisions = 0
    for index in range(1000):
        result = play_match(GAME, (ga, ga), seed=77, index=index, record=True)
        for _, snapshot, action in result.pairs:
            state = GAME.state_from_dict(snapshot)
            assert program(state) == action, (snapshot, action)
            decisions += 1
    assert decisions > 100_000


def test_play_gives_the_same_json_with_the_program_file_or_the_builtin(capsys):
    outputs = []
    for spec in (f"program:{GA_FILE}", "ga"):
        assert main(["play", "cantstop", "--p0", spec, "--p1", "random", "-n", "300",
                     "--seed", "9", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds"), out.pop("players")
        outputs.append(out)
    assert outputs[0] == outputs[1]


def test_text_tree_round_trip_over_random_programs():
    rng = random.Random(2024)
    for _ in range(3000):
        tree = CANTSTOP_DSL.random_program(rng)
        text = CANTSTOP_DSL.to_text(tree)
        again = CANTSTOP_DSL.parse(text)
        assert str(again) == str(tree)
        assert CANTSTOP_DSL.to_text(again) == text


@pytest.mark.parametrize("height", [0, 1, 2, 3, 5, 8, 12])
def test_generation_never_fails_and_respects_limits(height):
    rng = random.Random(height)
    dsl = CANTSTOP_DSL
    for _ in range(300):
        tree = dsl.random_program(rng, max_height=height)
        assert len(tree) <= dsl.max_size and tree.height <= max(height, dsl.min_heights()[
            dsl.root_type])
        neighbour = dsl.neighbour(tree, rng)
        assert dsl.within_limits(neighbour)
        assert [n.ret for n in neighbour][:1] == [dsl.root_type]


def test_random_programs_play_legal_moves():
    rng = random.Random(5)
    for i in range(40):
        player = SketchStrategy(CANTSTOP_DSL.random_program(rng))
        result = play_match(GAME, (player, glenn_aloi_player()), seed=1, index=i)
        assert result.forfeit is None


def test_strategy_pickles_as_text():
    player = SketchStrategy(GA_FILE.read_text())
    clone = pickle.loads(pickle.dumps(player))
    assert clone.text == player.text and str(clone) == player.text


def test_appendix_constants_variant():
    dsl = build_dsl("cantstop-01", constants=(0, 1))
    texts = {dsl.to_text(dsl.random_program(random.Random(i))) for i in range(200)}
    assert not any(f" {d}" in t for t in texts for d in "234567")
    with pytest.raises(ProgramSyntaxError):
        dsl.parse(GA_FILE.read_text())  # GA needs the constant 6


@pytest.mark.parametrize("text, message", [
    ("score: sum(neutrals) +\ncolumn: argmax(map(lambda a: 1, actions))", "line 1: unexpected end"),
    ("score: 1 + 1\ncolum: argmax(map(lambda a: 1, actions))", "line 2: expected one of score:"),
    ("score: advanced(c)\ncolumn: argmax(map(lambda a: 1, actions))", "line 1: 'score' is not"),
    ("score: 1 + 1\ncolumn: argmax(map(lambda c: 1, neutrals))", "line 2: 'column' is not"),
    ("score: 1 + 1", "missing line(s): column:"),
    ("score: 1 ? 2\ncolumn: argmax(map(lambda a: 1, actions))", "unexpected '?' at column 10"),
])
def test_malformed_programs_say_where(text, message):
    with pytest.raises(ProgramSyntaxError) as err:
        CANTSTOP_DSL.parse(text, source="prog.txt")
    assert str(err.value).startswith("prog.txt: ") and message in str(err.value)


def test_node_depth_and_subtree_end_agree_with_deap():
    from gp.dsl import node_depth, subtree_end

    rng = random.Random(8)
    for _ in range(200):
        tree = CANTSTOP_DSL.random_program(rng)
        for i in range(len(tree)):
            assert subtree_end(tree, i) == tree.searchSubtree(i).stop
            ancestors = sum(1 for j in range(i) if tree.searchSubtree(j).stop > i)
            assert node_depth(tree, i) == ancestors


def test_the_appendix_constants_are_a_language_of_their_own(tmp_path):
    import re

    from experiments.cli import main
    from gp.evaluator import read_log

    assert main(["synth", "cantstop", "--dsl", "sketch-01", "--evaluations", "12", "--matches",
                 "40", "--workers", "2", "--quiet", "--out", str(tmp_path / "run")]) == 0
    programs = [row["program"] for row in read_log(tmp_path / "run" / "log.csv")]
    numbers = {int(n) for text in programs for n in re.findall(r"\b\d+\b", text)}
    assert numbers and numbers <= {0, 1}


def test_secured_can_mean_what_the_reference_code_means():
    from games.cantstop import HEIGHTS
    from games.cantstop.reference_rules import positions_player_has_secured
    from gp.languages.cantstop import REFERENCE_SECURED_DSL

    from .cantstop_positions import position

    text = ("score: sum(map(lambda c: secured(c), neutrals))\n"
            "column: argmax(map(lambda a: 1, actions))")
    state = position(mine={7: 3, 5: 2}, neutral={7: 5}, claimed={12: 0})
    ours = CANTSTOP_DSL.compile(CANTSTOP_DSL.parse(text))[0]
    theirs = REFERENCE_SECURED_DSL.compile(REFERENCE_SECURED_DSL.parse(text))[0]
    assert ours(state, None, None) == 3  # the permanent marker
    assert theirs(state, None, None) == 5  # the neutral's cell, this turn's progress included
    assert positions_player_has_secured(state, 12) == HEIGHTS[12] + 1  # claimed by the player
