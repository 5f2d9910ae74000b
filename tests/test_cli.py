"""The ``stratsynth`` command line: JSON output, determinism, one-line errors."""

import json

import pytest

from experiments.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_json_has_the_documented_fields_and_is_reproducible(capsys):
    argv = ("play", "cantstop", "--p0", "random", "--p1", "ga", "-n", "40", "--seed", "5",
            "--json")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    first = json.loads(out)
    assert set(first) == {"game", "players", "matches", "wins", "wins_by_seat", "draws",
                          "capped", "mean_moves", "seconds"}
    assert first["players"] == ["random", "ga"] and first["matches"] == 40
    assert [sum(seats) for seats in first["wins_by_seat"]] == first["wins"]
    assert sum(first["wins"]) + first["draws"] + first["capped"] == 40
    _, out, _ = run(capsys, *argv, "--workers", "2")
    second = json.loads(out)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


@pytest.mark.parametrize("argv, message", [
    (("play", "chess", "--p0", "ga", "--p1", "ga"), "unknown game 'chess'"),
    (("play", "cantstop", "--p0", "gaa", "--p1", "ga"), "unknown player 'gaa'"),
    (("play", "cantstop", "--p0", "ga", "--p1", "nope:x"), "unknown player spec prefix"),
    (("play", "cantstop", "--p0", "ga", "--p1", "ga", "-n", "-1"), "-1 is negative"),
    (("play", "cantstop", "--p0", "ga", "--p1", "ga", "-n", "ten"), "'ten' is not a whole"),
    (("play", "cantstop", "--p0", "ga"), "--p1"),
    (("frobnicate",), "invalid choice"),
])
def test_errors_are_one_line_with_exit_code_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:") and message in err


def test_record_writes_winner_only_self_play(capsys, tmp_path):
    target = tmp_path / "data" / "ga.jsonl"
    code, out, _ = run(capsys, "record", "cantstop", "--player", "ga", "--matches", "3",
                       "--self-play", "--winner-only", "-o", str(target))
    assert code == 0 and "wrote 3 matches" in out
    lines = target.read_text().splitlines()
    assert len(lines) == 4
    header = json.loads(lines[0])
    assert header["players"] == ["ga", "ga"] and header["self_play"] and header["winner_only"]


def test_a_run_whose_initial_program_its_language_cannot_read_writes_nothing(capsys,
                                                                            tmp_path):
    out = tmp_path / "run"  # GA's program needs the constant 6; sketch-reference has 0, 1
    code, _, err = run(capsys, "synth", "cantstop", "--dsl", "sketch-reference", "--method",
                       "gp", "--initial", "experiments/programs/cantstop_ga.txt",
                       "--evaluations", "2", "--out", str(out))
    assert code == 2 and err.count("\n") == 1 and "cantstop_ga.txt: line 5" in err
    assert not out.exists()


def test_a_game_s_own_command_is_named_under_its_game_not_among_the_generic_ones():
    from experiments.cli import build_parser

    text = build_parser().format_help()
    commands, games = text.split("games: ")
    assert "tdleaf" not in commands and "synth" in commands
    assert "(its own command: stratsynth tdleaf)" in " ".join(games.split())
    assert build_parser().parse_args(["tdleaf", "--out", "x"]).command == "tdleaf"  # still runs


def test_a_few_matches_play_in_process_on_the_reference_engine_with_the_same_results(
        capsys, monkeypatch):
    from experiments import matches
    from games.match import play_matches

    played = []

    def spy(*args, **kwargs):
        played.append(kwargs)
        return play_matches(*args, **kwargs)

    monkeypatch.setattr(matches, "play_matches", spy)
    argv = ("play", "cantstop", "--p0", "ga", "--p1", "random", "-n", "30", "--seed", "3",
            "--json")
    _, few, _ = run(capsys, *argv)
    assert played[-1]["engine"] == "reference" and type(played[-1]["map"]).__name__ == \
        "SerialMap"
    _, chosen, _ = run(capsys, *argv, "--engine", "numpy", "--workers", "2")
    assert played[-1]["engine"] == "numpy" and type(played[-1]["map"]).__name__ == "PoolMap"
    few, chosen = json.loads(few), json.loads(chosen)
    few.pop("seconds"), chosen.pop("seconds")
    assert few == chosen


HEAVY = ("matplotlib", "scipy", "ribs", "dask", "distributed", "jpype", "numba", "torch",
         "multiprocess")


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["play", "cantstop", "--p0", "program:experiments/programs/cantstop_ga.txt",
     "--p1", "ga", "-n", "1"],
])
def test_a_short_command_imports_none_of_the_heavy_packages(argv):
    """A command starts fast by importing only what it uses: no plotting, statistics,
    pyribs, cluster, JVM, compiler or torch for --help or a match."""
    import subprocess
    import sys
    from pathlib import Path

    script = ("import sys, io, contextlib\nfrom experiments.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    try:\n        main(sys.argv[1:])\n    except SystemExit:\n        pass\n"
              f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-c", script, *argv], cwd=root, check=True,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout
