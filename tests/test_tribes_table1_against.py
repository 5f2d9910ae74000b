"""``experiments.studies.tribes_table1_against``: Table I rows tested against the seed's
and another run's, on hand-worked counts."""

import json

import pytest

from experiments.studies import tribes_table1_against as study


def _run(folder, setting, rules, rows):
    folder.mkdir()
    (folder / "games.jsonl").write_text(json.dumps({"agent_setting": setting,
                                                    "rules_version": rules}) + "\n")
    (folder / "table1.json").write_text(json.dumps(
        [{"agent": a, "opponent": b, "games": n, "wins": 100 * w / n} for a, b, w, n in rows]))
    return folder


def test_fisher_and_wilson_on_hand_worked_counts():
    # [[3, 0], [0, 3]]: the observed table is the most extreme of C(6, 3) = 20, both ways
    assert study.fisher((3, 3), (0, 3)) == pytest.approx(0.1)
    assert study.fisher((1, 2), (1, 2)) == pytest.approx(1.0)
    # 5 of 10: centre 0.5, half-width 1.96 * sqrt(0.025 + 1.96^2 / 400) / (1 + 1.96^2 / 10)
    low, high = study.wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert study.wins_of({"wins": 93.75, "games": 16}) == (15, 16)


def test_the_table_tests_each_row_against_the_seed_and_the_other_run(tmp_path, capsys):
    v4 = _run(tmp_path / "v4", "framework", 4, [("pmcts", "mcts", 3, 3), ("mcts", "rhea", 1, 2)])
    v3 = _run(tmp_path / "v3", "ours", 3, [("pmcts", "mcts", 0, 3)])
    assert study.main([str(v4), "--against", str(v3), "--out", str(tmp_path / "t.md")]) == 0
    text = capsys.readouterr().out
    assert (tmp_path / "t.md").read_text() == text
    lines = text.splitlines()
    assert lines[0].startswith("| agent | vs | v4, framework's agents: wins [95 %] | "
                               "seed's wins % (500 games) | p against the seed's | "
                               "v3, our agents: wins [95 %] | p against the first run |")
    # P-MCTS 3 of 3 against the seed's 328 of 500 (65.6 %); against v3's 0 of 3, p = 0.1
    seed_p = study.fisher((3, 3), (328, 500))
    assert lines[2] == (f"| P-MCTS | MCTS | 3 / 3 = 100.0 % [44, 100] | 65.6 | {seed_p:.2g} | "
                        "0 / 3 = 0.0 % [0, 56] | 0.1 |")
    assert lines[3].startswith("| MCTS | RHEA | 1 / 2 = 50.0 % ") and \
        lines[3].endswith("| — | — |")  # v3 has no such row
    assert len(lines) == 4  # rows the first run lacks are left out


def test_a_folder_that_is_no_run_is_one_line_and_exit_2(tmp_path, capsys):
    assert study.main([str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "missing" in err and len(err.strip().splitlines()) == 1
