"""The house every game lives in: game specs, the CLI spine and its defects fixed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main
from games import game_names, game_parameters, game_spec, load_game
from games.human import HumanPlayer, play_with_human
from games.spec import CLISpec, GameSpec, register_game

ROOT = Path(__file__).parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(capsys, *argv) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:"), err
    assert "Traceback" not in err and "[Errno" not in err and "invalid literal" not in err
    return err


def test_every_builtin_game_declares_itself_once():
    for name in game_names():
        spec = game_spec(name)
        assert spec.name == name
        assert spec.synthesis.default_target in __import__("games").game_players(name)
        for dsl in spec.synthesis.languages:
            assert hasattr(spec.language(dsl), "default_dsl")


def test_a_game_registered_at_run_time_is_playable(capsys):
    register_game(GameSpec(name="tictactoe-clone", summary="test", cli=CLISpec(move_cap=None),
                           players="games.tictactoe:PLAYERS", factory="games.tictactoe:TicTacToe"))
    code, out, _ = run(capsys, "play", "tictactoe-clone", "--p0", "minimax", "--p1", "random",
                       "-n", "4", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["wins"][1] == 0


def test_unknown_game_parameters_name_the_known_ones():
    with pytest.raises(ValueError, match="unknown game parameter.*known: size, no_move"):
        load_game("hexapawn", sise=4)
    assert game_parameters("cantstop") == ["max_moves", "rules"]


@pytest.mark.parametrize("game", ["tictactoe", "hexapawn"])
def test_max_moves_on_a_game_without_a_cap_is_one_line(capsys, game):
    err = one_line_error(capsys, "play", game, "--p0", "random", "--p1", "random",
                         "--max-moves", "5")
    assert "no move cap" in err


def test_max_moves_caps_the_games_that_have_a_cap(capsys):
    code, out, _ = run(capsys, "play", "expendibots", "--p0", "random", "--p1", "random",
                       "-n", "2", "--max-moves", "3", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["mean_moves"] <= 6
    code, out, _ = run(capsys, "play", "cantstop", "--p0", "ga", "--p1", "ga", "-n", "2",
                       "--max-moves", "10", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["capped"] == 2


def test_tournament_with_an_unknown_game_parameter_is_one_line(capsys):
    err = one_line_error(capsys, "tournament", "cantstop", "--players", "ga,random",
                         "--game-param", "colour=red")
    assert "colour" in err and "max_moves" in err


def test_more_workers_than_cores_is_refused(capsys):
    err = one_line_error(capsys, "play", "cantstop", "--p0", "ga", "--p1", "ga",
                         "--workers", "999")
    assert "cores" in err


@pytest.mark.parametrize("argv", [
    ("synth", "cantstop", "--method", "nope", "--evaluations", "3"),
    ("synth", "cantstop", "--evaluations", "3", "--target", "gaa"),
    ("synth", "cantstop", "--evaluations", "3", "--initial", "no/such/file.txt"),
    ("synth", "cantstop", "--method", "sketch-sa", "--score", "O", "--evaluations", "3",
     "--data", "no/such.jsonl"),
    ("qd", "cantstop", "--features", "nope", "--evaluations", "3"),
    ("qd", "cantstop", "--features", "bust_rate", "--dims", "a", "--evaluations", "3"),
    ("qd", "cantstop", "--features", "bust_rate"),
])
def test_a_rejected_run_writes_nothing(capsys, tmp_path, argv):
    out = tmp_path / "run"
    one_line_error(capsys, *argv, "--out", str(out))
    assert not out.exists()


def test_missing_files_are_one_line_without_python_text(capsys, tmp_path):
    one_line_error(capsys, "report", str(tmp_path / "nothing"))
    one_line_error(capsys, "resume", str(tmp_path / "nothing"))
    one_line_error(capsys, "play", "cantstop", "--p0", f"program:{tmp_path / 'x.txt'}",
                   "--p1", "ga")
    empty = tmp_path / "empty.txt"
    empty.write_text("# only a comment\n")
    err = one_line_error(capsys, "play", "cantstop", "--p0", f"program:{empty}", "--p1", "ga")
    assert "no program" in err


def test_help_imports_no_search_library():
    code = ("import sys; from experiments.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('ribs', 'matplotlib', 'torch', 'dask', 'jpype', 'scipy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


def test_bench_makes_no_claim_against_an_unmeasured_reference(capsys):
    code, out, _ = run(capsys, "bench", "--matches", "20", "--workers", "1")
    assert code == 0 and "reference" not in out


def test_human_play_shows_seat_opponent_moves_and_final_position():
    answers = iter(["5", "1", "3", "7", "9", "2", "4", "6", "8"])
    seen: list[str] = []

    def read(prompt):
        seen.append(prompt)
        return next(answers)

    human = HumanPlayer(read=read, write=seen.append)
    from games.tictactoe import PLAYERS

    summary = play_with_human(load_game("tictactoe"), [human, PLAYERS["minimax"]()],
                              ["human", "minimax"], 1, seed=0, write=seen.append)
    text = "\n".join(seen)
    assert "you are seat 0 (human)" in text
    assert "seat 1 (minimax) plays cell" in text
    assert "final position:" in text and "result:" in text
    assert summary.matches == 1 and summary.wins[0] == 0  # nobody beats minimax
    # cell k is always answer k+1: the centre stays 5 whatever is taken
    menus = [line for line in seen if line.startswith("  5) ")]
    assert menus and all("cell 4" in line for line in menus)


def test_cant_stop_narration_reports_busts():
    from games.cantstop.rules import CantStop

    state = CantStop().new_initial_state(__import__("random").Random(0))
    before = state.clone()
    state.busts[0] += 1
    assert any("busts" in line for line in state.describe_transition(before))


def test_one_config_schema_for_synthesis_and_qd(tmp_path):
    from experiments.config import QDConfig, SynthesisConfig
    from experiments.loader import load, to_dict

    assert load(SynthesisConfig, {"game": "cantstop", "evaluations": 1}).method == "sa"
    with pytest.raises(ValueError, match="where: .*setting.*features"):
        load(SynthesisConfig, {"game": "cantstop", "features": "bust_rate"}, "where")
    assert main(["qd", "cantstop", "--features", "bust_rate", "--evaluations", "4", "--workers",
                 "1", "--matches", "10", "--quiet", "--out", str(tmp_path / "qd")]) == 0
    saved = json.loads((tmp_path / "qd" / "config.json").read_text())
    assert saved["kind"] == "qd" and saved["cells"] == QDConfig().cells
    identity = saved.pop("identity")  # fingerprints of the settings that shape the results
    assert set(identity) <= set(saved)
    assert to_dict(load(QDConfig, saved)) == saved  # complete, and reads back as is


def test_a_failing_opponent_forfeits_in_human_play():
    class Broken:
        def __call__(self, state):
            raise RuntimeError("no move")

    seen: list[str] = []
    answers = iter(["5"] * 9)
    human = HumanPlayer(read=lambda prompt: next(answers), write=seen.append)
    summary = play_with_human(load_game("tictactoe"), [human, Broken()], ["human", "broken"], 1,
                              seed=0, write=seen.append)
    assert summary.wins == [1, 0] and summary.forfeits == [0, 1]
    assert any("forfeits" in line for line in seen)


@pytest.mark.parametrize("param, named", [("level=abc", "level"), ("level=/x.csv", "level"),
                                          ('levels=[1,"a"]', "levels"), ("size=9.5", "size")])
def test_a_tribes_level_that_is_not_a_number_is_one_line(capsys, param, named):
    err = one_line_error(capsys, "play", "tribes", "--p0", "simple", "--p1", "simple",
                         "--game-param", param)
    assert named in err and "integer" in err
