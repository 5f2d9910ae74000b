"""``stratsynth select``: candidates from a run's log, fresh matches, a re-checkable file."""

import json
import shlex

import pytest

from experiments.cli import build_parser, main
from experiments.selection import candidates, command_of


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("select") / "run"
    assert main(["synth", "cantstop", "--game-param", "rules=reference", "--method", "sa",
                 "--dsl", "sketch-reference", "--evaluations", "40", "--matches", "20",
                 "--seed", "3", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    return out


def test_candidates_are_distinct_and_ordered_by_in_search_psi(run_dir):
    pool = candidates(run_dir, 4)
    assert 1 <= len(pool) <= 4
    assert len({c["program"] for c in pool}) == len(pool)
    assert [c["psi"] for c in pool] == sorted((c["psi"] for c in pool), reverse=True)


def test_stage_two_is_what_play_prints_and_the_header_recheck_says_so(run_dir, capsys):
    program = run_dir.parent / "chosen.txt"
    assert main(["select", str(run_dir), "--top", "3", "--matches", "40", "--workers", "1",
                 "--out", str(program)]) == 0
    result = json.loads((run_dir / "select.json").read_text())
    assert result["chosen"]["program"] in {c["program"] for c in result["candidates"]}
    assert result["stage1_seed"] != result["stage2_seed"]
    recheck = next(line for line in program.read_text().splitlines() if "Re-check" in line)
    assert "--dsl sketch-reference" in recheck  # the run's language reads the program
    argv = shlex.split(recheck.split("stratsynth ", 1)[1].replace("THIS", str(program)))
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    played = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert played["wins"][0] == result["stage2_wins"]


def test_the_search_command_parses_back_to_the_run_config(run_dir):
    config = json.loads((run_dir / "config.json").read_text())
    argv = shlex.split(command_of(config, "somewhere"))[1:]
    args = build_parser().parse_args(argv)
    assert args.game_param == ["rules=reference"]
    assert (args.game, args.method, args.seed, args.matches, args.evaluations) == (
        config["game"], config["method"], config["seed"], config["matches"],
        config["evaluations"])


def test_a_directory_without_a_run_is_one_clear_error(tmp_path, capsys):
    assert main(["select", str(tmp_path)]) == 2
    assert "not a run directory" in capsys.readouterr().err


def test_select_on_the_reference_engine_chooses_the_same_program(run_dir):
    from experiments.selection import select

    fast = select(run_dir, top=3, matches=40, workers=1)
    reference = select(run_dir, top=3, matches=40, workers=1, engine="reference")
    assert fast == reference
