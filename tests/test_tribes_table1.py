"""The play-styles paper's Table I runner: resume, summary, no mixing of two Tribes rule sets."""

from __future__ import annotations

import json

from experiments.studies.tribes_table1 import main as table1
from games.tribes.rules import RULES_VERSION

TINY = ["--pairings", "pmcts-pu:mcts", "--levels", "0-1", "--games-per-level", "2",
        "--budget", "5", "--turn-limit", "1"]


def test_table1_runner_resumes_and_summarises(tmp_path):
    argv = ["--out", str(tmp_path), *TINY]
    assert table1(argv) == 0
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4 and {json.loads(x)["seat"] for x in lines} == {0, 1}
    assert {json.loads(x)["rules_version"] for x in lines} == {RULES_VERSION}
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    assert table1(argv) == 0
    again = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(again) == 4 and again[:2] == lines[:2]
    assert [json.loads(x)["log"] for x in again] == [json.loads(x)["log"] for x in lines]
    table = json.loads((tmp_path / "table1.json").read_text())
    assert table[0]["games"] == 4 and table[0]["seed_win_rate"] == 68.6
    summary = (tmp_path / "table1.md").read_text()
    assert "| pmcts-pu | mcts | 4 (2) |" in summary
    assert f"rules version {RULES_VERSION}" in summary
    beside = summary.split("Ours / the play-styles paper's")[1]
    wins = table[0]["wins"]
    assert f"| P-MCTS(PU) | MCTS | 4 | {wins:.1f} (" in beside and "/ 68.6 (3.1) |" in beside
    (tmp_path / "table1.md").unlink()
    assert table1(argv) == 0 and (tmp_path / "table1.md").read_text() == summary  # all played
    assert table1(["--out", str(tmp_path), "--pairings", "x:y"]) == 2


def test_table1_refuses_to_add_games_to_another_rule_sets_folder(tmp_path, capsys):
    assert table1(["--out", str(tmp_path), *TINY]) == 0
    path = tmp_path / "games.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    del rows[0]["rules_version"]  # a game logged before versions were recorded: version 1
    old = "".join(json.dumps(r) + "\n" for r in rows[:2])
    path.write_text(old)
    assert table1(["--out", str(tmp_path), *TINY]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "rules version 1" in err and str(path) in err
    assert path.read_text() == old, "nothing added"


def test_table1_default_folder_is_named_by_budget_and_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert table1(TINY[:4] + ["--games-per-level", "1", "--budget", "5", "--turn-limit", "1"]) == 0
    folder = tmp_path / f"experiments/results/tribes/table1_budget5_rules_v{RULES_VERSION}"
    assert len((folder / "games.jsonl").read_text().splitlines()) == 2


def test_table1_games_are_the_same_with_two_workers(tmp_path):
    argv = [*TINY[:4], "--games-per-level", "3", "--budget", "5", "--turn-limit", "2"]
    assert table1(["--out", str(tmp_path / "serial"), *argv]) == 0
    assert table1(["--out", str(tmp_path / "pool"), *argv, "--workers", "2"]) == 0

    def games(folder):
        rows = [json.loads(x) for x in (tmp_path / folder / "games.jsonl").read_text().splitlines()]
        return [(r["agents"], r["level"], r["rep"], r["seat"], r["log"]) for r in rows]

    serial = games("serial")
    assert len(serial) == 6 and games("pool") == serial
    assert (tmp_path / "serial" / "table1.md").read_text() == \
        (tmp_path / "pool" / "table1.md").read_text()


def test_table1_plays_the_framework_game_with_its_agents(tmp_path, capsys):
    argv = ["--out", str(tmp_path), "--pairings", "mcts:rhea", "--levels", "3",
            "--games-per-level", "2", "--budget", "5", "--turn-limit", "1", "--rules", "4",
            "--agents", "framework"]
    assert table1(argv) == 0
    rows = [json.loads(x) for x in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert {r["rules_version"] for r in rows} == {4}
    assert {r["agent_setting"] for r in rows} == {"framework"}
    assert {r["log"]["level"] for r in rows} == {"java:3"}
    assert all(r["log"]["rounds"] == 2 for r in rows)  # rounds 0..turn_limit
    assert "rules version 4 on the framework's 25 tournament levels" in \
        (tmp_path / "table1.md").read_text()
    assert table1(argv[:-2]) == 2  # the folder holds the framework setting
    assert "agent setting 'framework'" in capsys.readouterr().err
    assert table1(["--out", str(tmp_path / "x"), *argv[2:8], "--rules", "4",
                   "--levels", "25"]) == 2


def test_table1_keeps_one_connected_term_per_folder(tmp_path, capsys):
    """Games record the heuristic's connected-cities reading; a line without one was
    played with 'grew', and a folder never mixes the two readings."""
    from experiments.studies.tribes_table1 import make

    assert table1(["--out", str(tmp_path), *TINY]) == 0
    path = tmp_path / "games.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert {r["connected_term"] for r in rows} == {"change"}
    for r in rows:
        del r["connected_term"]  # a game played before the option: 'grew'
    old = "".join(json.dumps(r) + "\n" for r in rows[:2])
    path.write_text(old)
    assert table1(["--out", str(tmp_path), *TINY]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--connected-term grew" in err and str(path) in err
    assert path.read_text() == old, "nothing added"
    assert table1(["--out", str(tmp_path), *TINY, "--connected-term", "grew"]) == 0
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(rows) == 4 and [r.get("connected_term") for r in rows[2:]] == ["grew"] * 2
    assert "`--connected-term grew`" in (tmp_path / "table1.md").read_text()
    for agents in ("ours", "framework"):
        assert make("rhea", 5, agents, "grew").heuristic.connected_term == "grew"
        assert make("pmcts-pu", 5, agents).heuristic.connected_term == "change"


def test_table1_keeps_one_agent_details_setting_per_folder(tmp_path, capsys):
    """Games record whether the agents had the framework's details; a line without the
    field was played without them, and a folder never mixes the two."""
    from experiments.studies.tribes_table1 import make

    argv = ["--out", str(tmp_path), *TINY]
    assert table1(argv) == 0
    path = tmp_path / "games.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert {r["agent_details"] for r in rows} == {"framework"}
    for r in rows:
        del r["agent_details"]
    old = "".join(json.dumps(r) + "\n" for r in rows[:2])
    path.write_text(old)
    assert table1(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--agent-details earlier" in err and str(path) in err
    assert path.read_text() == old, "nothing added"
    assert table1([*argv, "--agent-details", "earlier"]) == 0
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r.get("agent_details") for r in rows[2:]] == ["earlier"] * 2
    assert "`--agent-details earlier`" in (tmp_path / "table1.md").read_text()
    assert make("rhea", 5).framework_details and not make("rhea", 5, details="earlier") \
        .framework_details
    fw = make("pmcts-pu", 5, "framework")
    assert fw.params.fresh_chance and fw.params.framework_tree
    assert not make("pmcts-pu", 5, "framework", details="earlier").params.fresh_chance
    assert not make("pmcts-pu", 5, "ours").params.fresh_chance, "ours has no such details"
    assert make("mcts", 5, "framework-mcts").params.framework_ties


def test_table1_agent_settings_pick_the_framework_players():
    from experiments.studies.tribes_table1 import default_out, make

    for spec in ("pmcts", "pmcts-b", "pmcts-pu"):
        ours, fw_mcts, fw = (make(spec, 50, agents)
                             for agents in ("ours", "framework-mcts", "framework"))
        assert ours.portfolio == fw_mcts.portfolio == "paper"
        assert not ours.params.framework_tree and not fw_mcts.params.framework_tree
        assert fw.portfolio == "framework" and fw.params.framework_tree
        assert fw.params.bias_denominator == "code" and fw.params.budget == 50
        assert (fw.params.bias, fw.params.pruning) == (ours.params.bias, ours.params.pruning)
    assert make("mcts", 50, "ours").params.rollouts
    assert not make("mcts", 50, "framework-mcts").params.rollouts
    assert not make("mcts", 50, "framework").params.rollouts
    names = {default_out(2000, 4, agents).name for agents in ("ours", "framework-mcts",
                                                                "framework")}
    assert names == {"table1_budget2000_rules_v4", "table1_budget2000_rules_v4_framework_mcts",
                     "table1_budget2000_rules_v4_framework_agents"}


def test_the_readmes_table_i_is_the_committed_runs_table():
    """README's Tribes Table I is what ``tribes_table1_versions`` makes of the committed
    runs it names (a run that gains games must bring the README along)."""
    from pathlib import Path

    from experiments.studies.tribes_table1_versions import load, versions_table

    root = Path(__file__).resolve().parents[1]
    results = root / "experiments/results/tribes"
    readme = (root / "README.md").read_text()
    start = readme.index("| agent | vs | games | wins % | score | techs % |")
    shown = readme[start:readme.index("\n\n", start)] + "\n"
    made = versions_table(load(results / "table1_budget2000_rules_v4_framework_agents")[1], [
        load(results / name)
        for name in ("table1_budget2000_rules_v3", "table1_budget2000_rules_v4_framework_mcts")])
    assert shown == made


def test_the_versions_table_refuses_a_folder_that_is_no_run(tmp_path, capsys):
    from experiments.studies.tribes_table1_versions import main as versions

    assert versions([str(tmp_path)]) == 2
    assert str(tmp_path) in capsys.readouterr().err
    (tmp_path / "games.jsonl").write_text("{}\n")
    (tmp_path / "table1.json").write_text("[{")
    assert versions([str(tmp_path)]) == 2
    assert "table1.json: not JSON" in capsys.readouterr().err


def test_the_versions_table_refuses_an_unknown_agent_setting(tmp_path, capsys):
    from experiments.studies.tribes_table1_versions import main as versions

    (tmp_path / "games.jsonl").write_text('{"agent_setting": "mine"}\n')
    (tmp_path / "table1.json").write_text("[]")
    assert versions([str(tmp_path)]) == 2
    assert "agent_setting 'mine'" in capsys.readouterr().err


def test_framework_pmcts_b_rows_are_the_pmcts_games_copied_and_play_alike(tmp_path):
    """Under the framework setting P-MCTS(B)'s games are P-MCTS's (its tree never reads
    the bias without pruning): copied and marked, not played again; played when the
    P-MCTS pairing is not in the run, and then the same game."""
    base = ["--levels", "2", "--games-per-level", "2", "--budget", "8", "--turn-limit", "2",
            "--rules", "4", "--agents", "framework"]
    both = tmp_path / "both"
    assert table1(["--out", str(both), "--pairings", "pmcts:rhea,pmcts-b:rhea", *base]) == 0
    rows = [json.loads(x) for x in (both / "games.jsonl").read_text().splitlines()]
    played = [r for r in rows if r["agents"] == ["pmcts", "rhea"]]
    copied = [r for r in rows if r["agents"] == ["pmcts-b", "rhea"]]
    assert len(played) == len(copied) == 2
    assert all(r["same_games_as"] == "pmcts" and r["seconds"] == 0.0 for r in copied)
    assert "P-MCTS(B)'s games are P-MCTS's, copied" in (both / "table1.md").read_text()
    alone = tmp_path / "alone"
    assert table1(["--out", str(alone), "--pairings", "pmcts-b:rhea", *base]) == 0
    own = [json.loads(x) for x in (alone / "games.jsonl").read_text().splitlines()]
    assert all("same_games_as" not in r for r in own)
    assert [(r["seat"], r["log"]) for r in own] == [(r["seat"], r["log"]) for r in copied]
    table = {(r["agent"], r["opponent"]): r for r in
             json.loads((both / "table1.json").read_text())}
    assert table[("pmcts-b", "rhea")]["wins"] == table[("pmcts", "rhea")]["wins"]


def _game(first: str, level: int, rep: int, won: bool, rounds: int = 20, **extra) -> dict:
    seat = rep % 2
    return {"agents": [first, "mcts"], "level": level, "rep": rep, "seat": seat,
            "budget": 2000, "rules_version": 3, "seconds": 1.0,
            "log": {"winner": seat if won else 1 - seat, "rounds": rounds}, **extra}


def _write(folder, rows) -> None:
    folder.mkdir()
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_paired_table_counts_the_pairs_each_agent_alone_won(tmp_path):
    """Hand-worked: 10 paired games, A won 8 and B 3; A alone won 6, B alone 1, so
    McNemar's exact p = 2·(C(7,6) + C(7,7))/2^7 = 0.125. A game with no counterpart is
    counted apart; B's games against another opponent are not A's pairs."""
    from experiments.studies.tribes_table1_paired import main as paired

    a_won = [True] * 8 + [False] * 2
    b_won = [True, True, False, False, False, False, False, False, True, False]
    keys = [(level, rep) for level in range(5) for rep in range(2)]
    _write(tmp_path / "a", [_game("printed", lv, rep, w) for (lv, rep), w in zip(keys, a_won)]
           + [_game("printed", 9, 0, True)])
    _write(tmp_path / "b", [_game("code", lv, rep, w, rounds=30)
                            for (lv, rep), w in zip(keys, b_won)]
           + [{**_game("code", 0, 0, True), "agents": ["code", "rhea"]}])
    out = tmp_path / "paired.md"
    assert paired([str(tmp_path / "a"), "--against", str(tmp_path / "b"),
                   "--pair", "printed=code", "--out", str(out)]) == 0
    row = out.read_text().splitlines()[2]
    assert row == ("| printed | code | MCTS | 10 | 8 (80%) | 3 (30%) | 2 | 6 | 1 | 0.125 | "
                   "20 / 30 | 0 | 1 |")


def test_paired_table_refuses_games_of_other_settings_and_bad_folders(tmp_path, capsys):
    from experiments.studies.tribes_table1_paired import main as paired

    _write(tmp_path / "a", [_game("printed", 0, 0, True)])
    _write(tmp_path / "b", [{**_game("code", 0, 0, True), "rules_version": 4}])
    argv = [str(tmp_path / "a"), "--against", str(tmp_path / "b"), "--pair", "printed=code"]
    assert paired(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "level 0 rep 0" in err and "different settings" in err
    assert paired([str(tmp_path / "none"), *argv[1:]]) == 2
    assert f"{tmp_path / 'none'}: no games.jsonl" in capsys.readouterr().err
    (tmp_path / "b" / "games.jsonl").write_text('{"agents": ["code", "mcts"]}\n')
    assert paired(argv) == 2
    assert "line 1: not a Table I game" in capsys.readouterr().err
    _write(tmp_path / "c", [_game("code", 0, 0, True)])
    assert paired([argv[0], "--against", str(tmp_path / "c"), "--pair", "printed=other"]) == 0
    assert "| 0 | 0 | 0 | 0 | 0 | 0 | 1 | — | 0 | 1 |" in capsys.readouterr().out


def test_a_games_seeds_do_not_depend_on_the_other_pairings_of_its_run(tmp_path):
    """What pairing by level and repetition rests on: the same agents' games come out
    the same in a run of one pairing and in a run of several."""
    from experiments.studies.tribes_table1_paired import games, paired

    base = ["--levels", "0-1", "--games-per-level", "2", "--budget", "5", "--turn-limit", "2"]
    assert table1(["--out", str(tmp_path / "one"), "--pairings", "pmcts:rhea", *base]) == 0
    assert table1(["--out", str(tmp_path / "two"), "--pairings", "mcts:rhea,pmcts:rhea",
                   *base]) == 0
    (row,) = paired(games(tmp_path / "one"), games(tmp_path / "two"), "pmcts", "pmcts")
    assert row["games"] == row["same_games"] == 4 and row["p"] == 1.0
    (row,) = paired(games(tmp_path / "two"), games(tmp_path / "two"), "mcts", "pmcts")
    assert row["opponent"] == "rhea" and row["games"] == 4


def test_the_printed_schedules_paired_table_is_the_committed_runs_table():
    """``paired.md`` of the printed-schedule run is what ``tribes_table1_paired`` makes of
    the committed games (a run that gains games must bring it along)."""
    from pathlib import Path

    from experiments.studies.tribes_table1_paired import games, markdown, paired

    results = Path(__file__).resolve().parents[1] / "experiments/results/tribes"
    run = results / "table1_budget2000_rules_v3_printed_pu"
    made = markdown(paired(games(run), games(results / "table1_budget2000_rules_v3"),
                           "pmcts-pu-printed", "pmcts-pu"))
    assert (run / "paired.md").read_text() == made


def test_a_versions_cell_gives_each_measure_with_its_standard_error():
    from experiments.studies.tribes_table1_versions import cell

    row = {"games": 4, "wins": 75.0, "wins_se": 25.0, "score": 8216.8, "score_se": 546.8,
           "techs": 100.0, "cities": 3.785, "cities_se": 0.35, "production": 22.71,
           "production_se": 2.72}
    assert cell(row) == "75.0 (25.0) / 8217 (547) / 100 / 3.79 (0.35) / 22.7 (2.7) [4]"
    assert cell({**row, "games": 1}) == "75.0 / 8217 / 100 / 3.79 / 22.7 [1]"
    assert cell(None) == "—"
