"""One loader for every source of run settings (command line, TOML, config.json, Python):
a bad value is one line naming its source and field, exit 2, and nothing is written."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments import api
from experiments.cli import main
from experiments.config import QDConfig, SynthesisConfig, cores
from experiments.loader import load, to_dict
from experiments.lock import claim
from qd.archive import ProgramArchive

TOO_MANY = str(cores() + 1)


def one_line_error(capsys, argv, *needles) -> None:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:"), err
    for needle in needles:
        assert needle in err, err


def files_under(path: Path) -> list[Path]:
    return sorted(path.rglob("*"))


@pytest.mark.parametrize("extra, needles", [
    (["--workers", TOO_MANY], ["command line: workers", f"{TOO_MANY} on a machine"]),
    (["--workers", "all"], ["'all' is not a whole number"]),
    (["--budget", "0"], ["budget '0' is not a duration"]),
    (["--budget", "soon"], ["budget 'soon' is not a duration"]),
    (["--method", "sketch-sa", "--score", "A", "--data", "experiments/data/cantstop_ga"
      ".jsonl", "--sketch-share", "5"], ["method sketch-sa: sketch_share must be <= 1"]),
    (["--method", "gp", "--population", "0"], ["method gp: population must be >="]),
    (["--population", "4"], ["method sa has no setting population"]),
    (["--method", "annealing"], ["method 'annealing' unknown"]),
    (["--stop-at", "nan"], ["stop_at must be a number"]),
    (["--matches", "0"], ["matches must be at least 1"]),
    (["--seed", "-3"], ["seed must be at least 0"]),
    (["--margin-weight", "-0.1"], ["margin_weight must be at least 0"]),
    (["--clock", "cpu"], ["clock cpu", "workers 1"]),
    (["--target", "ga,,random"], ["empty player spec"]),
    (["--game-param", "nope=1"], ["nope"]),
    (["--game-param", "max_moves=abc"], ['game cantstop with parameters {"max_moves": "abc"}']),
])
def test_bad_synth_flags_are_one_line_and_write_nothing(tmp_path, capsys, extra, needles):
    out = tmp_path / "run"
    one_line_error(capsys, ["synth", "cantstop", "--evaluations", "2", "--out", str(out),
                            *extra], *needles)
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("line, needles", [
    ("workers = " + TOO_MANY, ["[experiment]: workers", "on a machine"]),
    ('workers = "all"', ["[experiment]: workers must be a whole number, got 'all'"]),
    ("out = 5", ["[experiment]: out must be text, got 5"]),
    ('game_params = "x"', ["[experiment]: game_params must be a table, got 'x'"]),
    ("seeds = [-1]", ["[experiment]: seeds must be at least 0"]),
    ('seeds = ["a"]', ["[experiment]: seeds must be a list of whole numbers"]),
    ("matches = 2.5", ["[experiment]: matches must be a whole number, got 2.5"]),
    ('paired = "yes"', ["[experiment]: paired must be true or false"]),
    ('clock = "sundial"', ["[experiment]: clock must be one of wall, cpu"]),
])
def test_bad_toml_values_are_one_line_and_write_nothing(tmp_path, capsys, line, needles):
    config = tmp_path / "cmp.toml"
    out = tmp_path / "out"
    lines = [f'out = "{out}"', 'game = "cantstop"', "evaluations = 2", "workers = 1"]
    key = line.split("=")[0].strip()
    lines = [entry for entry in lines if not entry.startswith(key + " ")] + [line]
    config.write_text("[experiment]\n" + "\n".join(lines) + '\n[[methods]]\nmethod = "sa"\n')
    one_line_error(capsys, ["run", str(config)], str(config), *needles)
    assert files_under(tmp_path) == [config]


def test_a_method_entry_names_its_own_section(tmp_path, capsys):
    config = tmp_path / "cmp.toml"
    config.write_text(f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\n'
                      'evaluations = 2\n[[methods]]\nmethod = "sa"\n'
                      '[[methods]]\nmethod = "gp"\npopulation = "many"\n')
    one_line_error(capsys, ["run", str(config)],
                   "[[methods]] #2 (gp): method gp: population must be a whole number")
    assert not (tmp_path / "out").exists()


def test_method_settings_in_the_experiment_section_follow_its_method(tmp_path, capsys):
    """``method = "gp"`` in [experiment] makes gp's own settings there count too."""
    config = tmp_path / "cmp.toml"
    config.write_text(f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\n'
                      'method = "gp"\npopulation = 0\nevaluations = 2\n'
                      '[[methods]]\nlabel = "GP"\n')
    one_line_error(capsys, ["run", str(config)], "method gp: population must be >= 2, got 0")
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("runs") / "sa"
    assert main(["synth", "cantstop", "--evaluations", "4", "--matches", "6", "--workers", "1",
                 "--quiet", "--out", str(run)]) == 0
    return run


@pytest.mark.parametrize("edit, needles", [
    (lambda c: [c], ["config.json: expected a table of settings, got list"]),
    (lambda c: {**c, "workers": "all"}, ["config.json: workers must be a whole number"]),
    (lambda c: {**c, "workers": int(TOO_MANY)}, ["config.json: workers", "on a machine"]),
    (lambda c: {**c, "game_params": "x"}, ["config.json: game_params must be a table"]),
    (lambda c: {**c, "colour": "red"}, ["config.json: method sa has no setting colour"]),
    (lambda c: {**c, "evaluations": 0}, ["config.json: evaluations must be at least 1"]),
])
def test_bad_config_json_is_one_line_on_resume_and_changes_nothing(tmp_path, capsys,
                                                                   finished_run, edit, needles):
    run = tmp_path / "run"
    run.mkdir()
    for path in finished_run.iterdir():
        (run / path.name).write_bytes(path.read_bytes())
    config = edit(json.loads((run / "config.json").read_text()))
    (run / "config.json").write_text(json.dumps(config))
    before = {p: p.read_bytes() for p in files_under(tmp_path) if p.is_file()}
    one_line_error(capsys, ["resume", str(run)], *needles)
    assert {p: p.read_bytes() for p in files_under(tmp_path) if p.is_file()} == before


def test_a_binary_config_json_is_named(tmp_path, capsys):
    (tmp_path / "config.json").write_bytes(b"\xff\xfe\x00garbage")
    one_line_error(capsys, ["resume", str(tmp_path)], "config.json: not text")


@pytest.mark.parametrize("call, needles", [
    (lambda out: api.synthesize("cantstop", evaluations=2, workers=int(TOO_MANY), out=out),
     ["synthesize(): workers"]),
    (lambda out: api.synthesize("cantstop", evaluations=2, game_params="x", out=out),
     ["synthesize(): game_params must be a table"]),
    (lambda out: api.synthesize("cantstop", evaluations="2", out=out),
     ["synthesize(): evaluations must be a whole number, got '2'"]),
    (lambda out: api.synthesize("cantstop", evaluations=2, colour="red", out=out),
     ["synthesize(): method sa has no setting colour"]),
    (lambda out: api.run_qd("cantstop", features=["bust_rate"], dims=[100000, 100000],
                            evaluations=2, out=out), ["run_qd(): dims", "cells"]),
])
def test_python_keywords_go_through_the_same_checks(tmp_path, call, needles):
    with pytest.raises(ValueError) as err:
        call(tmp_path / "run")
    assert all(needle in str(err.value) for needle in needles) and "\n" not in str(err.value)
    assert files_under(tmp_path) == []


def test_the_same_value_is_refused_the_same_way_from_every_source():
    values = {"game": "cantstop", "evaluations": 2, "workers": int(TOO_MANY)}
    messages = set()
    for where in ("command line", "a.toml [experiment]", "RUN/config.json", "synthesize()"):
        with pytest.raises(ValueError) as err:
            load(SynthesisConfig, values, where)
        messages.add(str(err.value).removeprefix(where))
    assert len(messages) == 1


def test_a_saved_config_reads_back_as_itself():
    config = load(SynthesisConfig, {"game": "cantstop", "budget": "1m", "method": "gp",
                                    "population": 4, "engine": "numpy"})
    again = load(SynthesisConfig, json.loads(json.dumps(to_dict(config))), saved=True)
    assert again == config and to_dict(again)["engine"] == "numpy"


def test_a_resume_is_refused_while_another_process_holds_the_run(tmp_path, capsys):
    run = tmp_path / "sa"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "6", "--workers", "1",
                 "--quiet", "--out", str(run)]) == 0
    (run / "done").unlink()
    log = (run / "log.csv").read_text().splitlines()
    (run / "log.csv").write_text("\n".join(log[:-1]) + "\n")  # killed before the last row
    capsys.readouterr()
    with claim(run) as mine:
        assert mine
        child = subprocess.run([sys.executable, "-m", "experiments.cli", "resume", str(run),
                                "--quiet"], capture_output=True, text=True,
                               env={**os.environ, "PYTHONPATH": str(Path.cwd())})
        assert child.returncode == 2 and "another process" in child.stderr
        assert child.stderr.count("\n") == 1
        one_line_error(capsys, ["resume", str(run), "--quiet"], "another process")
    assert (run / "log.csv").read_text().splitlines() == log[:-1]  # untouched while held
    assert main(["resume", str(run), "--quiet"]) == 0
    again = (run / "log.csv").read_text().splitlines()
    assert [row.split(",", 1)[1] for row in again] == [row.split(",", 1)[1] for row in log]


def test_the_api_returns_objects_and_builds_no_command_line(tmp_path):
    tree = ast.parse(Path(api.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any("argparse" in (name or "") for name in imported)
    assert "Namespace" not in Path(api.__file__).read_text()
    archive = api.run_qd("cantstop", features=["markers_per_stop", "bust_rate"], dims=[3, 3],
                         evaluations=6, matches=6, batch=3, workers=1, out=tmp_path / "qd")
    assert isinstance(archive, ProgramArchive)
    (tmp_path / "qd" / "archive.json").unlink()  # the API does not read back its own files
    more = api.resume(tmp_path / "qd", evaluations=9)
    assert isinstance(more, ProgramArchive) and more.stats()["elites"] >= archive.stats()["elites"]
    saved = json.loads((tmp_path / "qd" / "config.json").read_text())
    assert load(QDConfig, saved, saved=True).evaluations == 9


def test_a_qd_extension_below_the_done_evaluations_changes_nothing(tmp_path, capsys):
    out = tmp_path / "qd"
    assert main(["qd", "cantstop", "--features", "bust_rate", "--evaluations", "4",
                 "--matches", "6", "--batch", "2", "--workers", "1", "--quiet",
                 "--out", str(out)]) == 0
    before = (out / "config.json").read_bytes()
    one_line_error(capsys, ["resume", str(out), "--evaluations", "2"], "fewer than the 4")
    assert (out / "config.json").read_bytes() == before


def test_select_checks_its_output_path_before_measuring(tmp_path, capsys, finished_run):
    one_line_error(capsys, ["select", str(finished_run), "--out", str(tmp_path)], "--out")
    one_line_error(capsys, ["select", str(finished_run), "--out",
                            str(tmp_path / "missing" / "best.txt")], "existing directory")
    assert not (finished_run / "select.json").exists()


@pytest.mark.parametrize("argv", [
    ["play", "cantstop", "--p0", "ga", "--p1", "ga", "--game-param", "max_moves=abc"],
    ["play", "hexapawn", "--p0", "random", "--p1", "random", "--game-param", "size=big"],
    ["tournament", "hexapawn", "--players", "random,minimax", "--game-param", "size=big"],
])
def test_a_game_parameter_of_the_wrong_type_is_one_line(capsys, argv):
    one_line_error(capsys, argv, "with parameters")


def test_a_resume_refuses_a_config_json_edited_after_the_run_started(tmp_path, capsys):
    run = tmp_path / "sa"
    assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "6", "--workers", "1",
                 "--quiet", "--out", str(run)]) == 0
    (run / "done").unlink()
    config = json.loads((run / "config.json").read_text())
    edited = {**config, "matches": 8, "target": "random"}
    (run / "config.json").write_text(json.dumps(edited))
    before = {p: p.read_bytes() for p in files_under(tmp_path) if p.is_file()}
    capsys.readouterr()
    one_line_error(capsys, ["resume", str(run), "--quiet"], "matches, target changed")
    assert {p: p.read_bytes() for p in files_under(tmp_path) if p.is_file()} == before
    (run / "config.json").write_text(json.dumps({**config, "workers": 0}))  # not a result
    assert main(["resume", str(run), "--quiet"]) == 0


def test_a_comparison_continues_a_run_only_with_its_settings(tmp_path, capsys):
    toml = tmp_path / "cmp.toml"
    body = (f'[experiment]\nout = "{tmp_path / "out"}"\ngame = "cantstop"\nevaluations = 2\n'
            'workers = 1\nmatches = MATCHES\n[[methods]]\nmethod = "sa"\n')
    toml.write_text(body.replace("MATCHES", "6"))
    assert main(["run", str(toml), "--quiet"]) == 0
    (tmp_path / "out" / "runs" / "sa" / "seed0" / "done").unlink()
    toml.write_text(body.replace("MATCHES", "8"))
    capsys.readouterr()
    one_line_error(capsys, ["run", str(toml), "--quiet"], "matches 6 there, 8 here")


def test_a_killed_regret_run_goes_on_from_its_finished_learners(tmp_path, capsys):
    out = tmp_path / "regret"
    argv = ["regret", "tictactoe", "--learners", "menace,q", "--runs", "2", "--games", "6",
            "--workers", "1", "--out", str(out)]
    assert main(argv) == 0
    whole = {name: (out / name).read_text() for name in ("curves.json", "regret.md")}
    kept = json.loads(whole["curves.json"])
    del kept["learners"]["q"]  # as if killed while q was learning
    (out / "curves.json").write_text(json.dumps(kept))
    assert main(argv) == 0
    assert {name: (out / name).read_text() for name in whole} == whole
    capsys.readouterr()
    one_line_error(capsys, [*argv[:-2], "--games", "7", "--out", str(out)],
                   "curves.json: a run with another setting (games 6 there, 7 here)")


def test_the_api_runs_every_kind_and_returns_its_objects(tmp_path):
    result = api.tournament("tictactoe", ["random", "minimax"], matches=4, workers=1)
    assert result.markdown().count("|") > 4
    matrix = api.pool("tictactoe", ["random"], ["minimax"], matches=2, workers=1,
                      out=tmp_path / "pool")
    assert matrix["rows"]["random"]["minimax"]["matches"] == 2
    curves = api.regret("tictactoe", ["q"], runs=2, games=4, workers=1, out=tmp_path / "r")
    assert curves["q"][0].shape == (2, 4)
    with pytest.raises(ValueError, match="regret\\(\\): runs must be at least 1"):
        api.regret("tictactoe", ["q"], runs=0, out=tmp_path / "r0")
    assert not (tmp_path / "r0").exists()


def test_resuming_a_finished_run_says_it_is_finished(tmp_path, capsys, finished_run):
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in finished_run.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    log = (copy / "log.csv").read_bytes()
    assert main(["resume", str(copy), "--quiet"]) == 0
    assert "the run is finished (4 evaluations)" in capsys.readouterr().err
    assert (copy / "log.csv").read_bytes() == log
