"""The semantic neighbourhood: behaviour signatures, the library, neighbours that act
differently, and SA runs with it that replay in a new process and after a kill."""

import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from experiments.cli import main
from gp.evaluator import read_log
from gp.languages.cantstop import CANTSTOP_DSL
from gp.neighbourhoods import NeighbourhoodSettings, make_neighbourhood
from gp.semantic import Library, SemanticNeighbourhood, behaviour_for

ROOT = Path(__file__).parent.parent
GA = CANTSTOP_DSL.parse((ROOT / "experiments" / "programs" / "cantstop_ga.txt").read_text())


def settings(epsilon: float) -> SimpleNamespace:
    return SimpleNamespace(semantic_epsilon=epsilon)


@pytest.fixture(scope="module")
def behaviour():
    recorded = behaviour_for(CANTSTOP_DSL)
    recorded.record(GA, random.Random(5))
    return recorded


def well_typed(nodes, root_type) -> bool:
    """Every node has the type its parent's argument asks for."""
    expected = [root_type]
    for node in nodes:
        if not expected or node.ret != expected.pop():
            return False
        expected.extend(reversed(getattr(node, "args", [])))
    return not expected


def same_behaviour_neighbour(program, behaviour, rng):
    """A program with other text that acts like ``program`` on the states."""
    for _ in range(500):
        other = CANTSTOP_DSL.neighbour(program, rng)
        if list(other) != list(program) and behaviour.of(other) == behaviour.of(program):
            return other
    raise AssertionError("no look-alike found")


def test_cantstop_records_states_with_a_real_choice(behaviour):
    assert len(behaviour.states) == 200
    assert all(len(state.legal_actions()) >= 2 for state in behaviour.states)
    rng = random.Random(1)
    signatures = {behaviour.of(CANTSTOP_DSL.random_program(rng)) for _ in range(20)}
    assert len(signatures) > 5  # random programs mostly act differently


def test_the_library_keeps_one_program_per_behaviour_and_every_fragment(behaviour):
    library = Library(behaviour)
    program = CANTSTOP_DSL.random_program(random.Random(2))
    look_alike = same_behaviour_neighbour(program, behaviour, random.Random(2))
    assert library.add(program)
    assert not library.add(look_alike) and len(library.programs) == 1
    assert sum(len(f) for f in library.fragments.values()) == len({
        tuple(n.name for n in program[i:program.searchSubtree(i).stop])
        for i in range(len(program))})
    assert behaviour.of(GA) != behaviour.of(program)
    assert library.add(GA) and len(library.programs) == 2
    for type_, fragments in library.fragments.items():
        assert all(fragment[0].ret == type_ for fragment in fragments)


def test_semantic_neighbours_are_well_typed_and_act_differently(behaviour):
    neighbourhood = SemanticNeighbourhood(language=CANTSTOP_DSL, settings=settings(0.0),
                                          behaviour=behaviour)
    rng = random.Random(4)
    neighbourhood.library.add(GA)
    for _ in range(10):
        neighbourhood.improved(CANTSTOP_DSL.random_program(rng), 0.0)
    current = CANTSTOP_DSL.random_program(rng)
    offered = set()
    for _ in range(60):
        candidate = neighbourhood.library_move(list(current), rng)
        if candidate is None:
            continue
        text = CANTSTOP_DSL.to_text(type(GA)(candidate))
        assert text not in offered  # never a program it offered before
        offered.add(text)
        assert well_typed(candidate, CANTSTOP_DSL.root_type)
        assert CANTSTOP_DSL.within_limits(type(GA)(candidate))
        assert behaviour.of(candidate) != behaviour.of(current)
    assert len(offered) > 20
    syntactic_same = sum(behaviour.of(CANTSTOP_DSL.neighbour(current, rng)) ==
                         behaviour.of(current) for _ in range(60))
    assert syntactic_same > 0  # the waste the library moves avoid


class AllAlike:
    """A hand-made behaviour under which every program acts the same."""

    def of(self, program) -> tuple:
        return ()


def test_without_a_fragment_that_changes_the_behaviour_the_move_is_syntactic():
    neighbourhood = SemanticNeighbourhood(language=CANTSTOP_DSL, settings=settings(0.0),
                                          behaviour=AllAlike())
    rng = random.Random(6)
    assert neighbourhood.library.add(GA)
    assert not neighbourhood.library.add(CANTSTOP_DSL.random_program(rng))
    assert len(neighbourhood.library.programs) == 1
    assert neighbourhood.library_move(list(GA), rng) is None
    got = neighbourhood(GA, random.Random(7))
    expected = random.Random(7)
    expected.random()
    assert neighbourhood.library_move(list(GA), expected) is None
    assert got == CANTSTOP_DSL.neighbour(GA, expected)


def test_epsilon_one_is_the_syntactic_neighbourhood(behaviour):
    neighbourhood = SemanticNeighbourhood(language=CANTSTOP_DSL, settings=settings(1.0),
                                          behaviour=behaviour)
    neighbourhood.library.add(GA)
    a, b = random.Random(8), random.Random(8)
    for _ in range(20):
        got = neighbourhood(GA, a)
        b.random()
        assert got == CANTSTOP_DSL.neighbour(GA, b)


def test_the_neighbourhood_setting_is_checked_and_the_default_is_syntactic():
    assert NeighbourhoodSettings().neighbourhood == "syntactic"
    with pytest.raises(ValueError, match="neighbourhood must be one of syntactic, semantic"):
        NeighbourhoodSettings(neighbourhood="semnatic")
    plain = make_neighbourhood("syntactic", language=CANTSTOP_DSL, settings=None)
    assert plain(GA, random.Random(9)) == CANTSTOP_DSL.neighbour(GA, random.Random(9))


def test_the_semantic_neighbourhood_records_on_the_game_object_it_is_given():
    from games import load_game

    capped = load_game("cantstop", max_moves=12)
    semantic = NeighbourhoodSettings(neighbourhood="semantic")
    recorded = {}
    for name, game in (("default", None), ("capped", capped)):
        neighbourhood = make_neighbourhood("semantic", language=CANTSTOP_DSL,
                                           settings=semantic, game=game)
        neighbourhood.start(GA, random.Random(5))
        recorded[name] = neighbourhood.behaviour
    assert recorded["capped"].game is capped and recorded["default"].game.max_moves == 300
    assert len(recorded["default"].states) == 200
    assert 0 < len(recorded["capped"].states) < 200  # 4 matches of at most 12 moves


class GameSeen(Exception):
    """Raised by ``spy_factory`` with the game it was given."""


def spy_factory(*, language, settings, game=None):
    raise GameSeen(game)


@pytest.fixture
def spy():
    from gp.neighbourhoods import NEIGHBOURHOODS

    NEIGHBOURHOODS.entries["test-game-spy"] = spy_factory
    try:
        yield NeighbourhoodSettings(neighbourhood="test-game-spy")
    finally:
        NEIGHBOURHOODS.entries.pop("test-game-spy")


def test_sa_hill_climbing_and_the_self_play_oracles_pass_the_runs_game_to_the_neighbourhood(
        spy):
    from games import load_game
    from gp.hill_climbing import HillClimbing, HillClimbingSettings
    from gp.methods import SA, SASettings
    from qd.selfplay import started_neighbourhood

    game = load_game("cantstop", max_moves=12)
    for cls, settings_class in ((SA, SASettings), (HillClimbing, HillClimbingSettings)):
        method = cls(language=CANTSTOP_DSL, evaluator=None, rng=random.Random(1),
                     settings=settings_class(neighbourhood="test-game-spy"), game=game)
        with pytest.raises(GameSeen) as seen:
            method.run()
        assert seen.value.args[0] is game
    with pytest.raises(GameSeen) as seen:
        started_neighbourhood(CANTSTOP_DSL, spy, GA, random.Random(1), game)
    assert seen.value.args[0] is game
    plain = make_neighbourhood("syntactic", language=CANTSTOP_DSL, settings=None, game=game)
    assert plain(GA, random.Random(9)) == CANTSTOP_DSL.neighbour(GA, random.Random(9))


def test_a_synthesis_run_gives_its_method_the_game_with_its_own_parameters(spy, tmp_path):
    with pytest.raises(GameSeen) as seen:
        main(["synth", "cantstop", "--game-param", "max_moves=12", "--method", "sa",
              "--neighbourhood", "test-game-spy", "--evaluations", "3", "--quiet",
              "--out", str(tmp_path / "run")])
    assert seen.value.args[0].max_moves == 12


def test_a_game_without_behaviour_is_refused_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["synth", "tictactoe", "--method", "sa", "--neighbourhood", "semantic",
                 "--evaluations", "3", "--out", str(out), "--quiet"]) == 2
    assert "declares no behaviour" in capsys.readouterr().err and not out.exists()


SYNTH = ("synth", "cantstop", "--method", "sa", "--neighbourhood", "semantic",
         "--evaluations", "125", "--matches", "10", "--seed", "3", "--workers", "1", "--quiet")


def cli(*argv, hash_seed: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-m", "experiments.cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def search_of(run: Path) -> list[tuple]:
    return [(r["evaluations"], r["metric"], r["value"], r["program"])
            for r in read_log(run / "log.csv")]


def test_a_semantic_run_replays_in_another_process_and_after_a_kill(tmp_path):
    """125 evaluations cross the first restart (new states, the library regrouped)."""
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert cli(*SYNTH, "--out", str(whole), hash_seed="1").returncode == 0
    assert cli(*SYNTH, "--out", str(cut), hash_seed="2").returncode == 0
    reference = search_of(whole)
    assert len(reference) == 125 and search_of(cut) == reference
    lines = (cut / "log.csv").read_text().splitlines(keepends=True)
    (cut / "log.csv").write_text("".join(lines[:119]) + lines[119][:20])  # killed mid-row
    (cut / "done").unlink()
    resumed = cli("resume", str(cut), "--quiet", hash_seed="3")
    assert resumed.returncode == 0, resumed.stderr
    assert search_of(cut) == reference
    syntactic = tmp_path / "syntactic"
    assert cli(*SYNTH[:4], *SYNTH[6:], "--out", str(syntactic), hash_seed="1").returncode == 0
    assert search_of(syntactic) != reference


def test_hill_climbing_with_the_semantic_neighbourhood_replays_after_a_kill(tmp_path):
    argv = ("synth", "cantstop", "--method", "hc", "--neighbours", "6", "--neighbourhood",
            "semantic", "--semantic-epsilon", "0.3", "--evaluations", "40", "--matches", "10",
            "--seed", "4", "--workers", "1", "--quiet")
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert cli(*argv, "--out", str(whole), hash_seed="1").returncode == 0
    assert cli(*argv, "--out", str(cut), hash_seed="2").returncode == 0
    reference = search_of(whole)
    assert len(reference) == 40 and search_of(cut) == reference
    lines = (cut / "log.csv").read_text().splitlines(keepends=True)
    (cut / "log.csv").write_text("".join(lines[:25]))
    (cut / "done").unlink()
    assert cli("resume", str(cut), "--quiet", hash_seed="3").returncode == 0
    assert search_of(cut) == reference


def test_expendibots_compares_the_moves_programs_choose_in_recorded_positions():
    from gp.languages.expendibots import EXPENDIBOTS_DSL

    rng = random.Random(2)
    start = EXPENDIBOTS_DSL.random_program(rng)
    recorded, again = behaviour_for(EXPENDIBOTS_DSL), behaviour_for(EXPENDIBOTS_DSL)
    recorded.record(start, random.Random(4))
    again.record(start, random.Random(4))
    assert len(recorded.states) == 100
    assert all(len(state.legal_actions()) >= 2 for state in recorded.states)
    assert [s.to_dict() for s in again.states] == [s.to_dict() for s in recorded.states]
    signatures = {recorded.of(EXPENDIBOTS_DSL.random_program(rng)) for _ in range(10)}
    assert len(signatures) > 3


def test_a_semantic_expendibots_run_replays_in_another_process(tmp_path):
    argv = ("synth", "expendibots", "--target", "alphabeta1", "--method", "sa",
            "--neighbourhood", "semantic", "--evaluations", "6", "--matches", "2", "--seed", "3",
            "--workers", "1", "--quiet")
    runs = [tmp_path / "first", tmp_path / "second"]
    for run, hash_seed in zip(runs, "12"):
        done = cli(*argv, "--out", str(run), hash_seed=hash_seed)
        assert done.returncode == 0, done.stderr
    assert len(search_of(runs[0])) == 6 and search_of(runs[0]) == search_of(runs[1])
