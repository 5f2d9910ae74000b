"""Tables of two studies on hand-made inputs: the Can't Stop rule variants' report
(``cantstop_reference_rules``) and the Expendibots tournament (``expendibots_learning``)."""

import json
from types import SimpleNamespace

import numpy as np
import pytest

from experiments.studies import cantstop_reference_rules as rules
from experiments.studies import expendibots_learning as expendibots


def test_wilson_interval_by_hand():
    # 0 of 10: upper bound z^2 / (n + z^2) = 3.8415 / 13.8415
    assert rules._wilson(0, 10) == "0.00% [0.00, 27.75]"
    # 5 of 10: centre 0.5, half-width z * sqrt(n/4 + z^2/4) / (n + z^2) = 0.2634
    assert rules._wilson(5, 10) == "50.00% [23.66, 76.34]"


def test_reference_rules_report_rows_from_the_files_present(tmp_path, monkeypatch):
    monkeypatch.setattr(rules, "OUT", tmp_path)
    (tmp_path / "random-vs-ga-rules-paper.json").write_text(json.dumps(
        {"wins": [0, 10], "matches": 10, "capped": 0}))
    (tmp_path / "random-vs-ga-variant-reference-D2.json").write_text(json.dumps(
        {"wins": [5, 5], "matches": 10, "capped": 1}))
    chunks = [{"end": 6, "a": 2, "none": 0}, {"end": 10, "a": 3, "none": 2}]
    (tmp_path / "reference-code-rule28-vs-ga.jsonl").write_text(
        "".join(json.dumps(c) + "\n" for c in chunks))
    table = rules.report()
    assert table.splitlines()[2:] == [
        "| random vs GA | ours, rules=paper (CLI) | 10 | 0.00% [0.00, 27.75] | 0 |",
        "| random vs GA | ours, study variant reference-D2 | 10 | 50.00% [23.66, 76.34] | 1 |",
        "| rule28 vs GA | reference code (a93feef) | 10 | 50.00% [23.66, 76.34] | 2 |"]
    assert (tmp_path / "table.md").read_text() == table


def test_pair_seed_ignores_the_order_of_the_names():
    assert expendibots.pair_seed(7, "a", "b") == expendibots.pair_seed(7, "b", "a")
    assert expendibots.pair_seed(8, "a", "b") == expendibots.pair_seed(7, "a", "b") + 1
    assert expendibots.pair_seed(7, "a", "b") != expendibots.pair_seed(7, "a", "c")


DONE = {  # white, black, winner seat (None: a draw)
    1: {"white": "x", "black": "y", "winner": 0},
    2: {"white": "y", "black": "x", "winner": 0},
    3: {"white": "x", "black": "y", "winner": None},
    4: {"white": "x", "black": "z", "winner": 1},  # z is not in the table
}


def test_score_by_colour():
    lines = expendibots._by_colour(["x", "y"], DONE).splitlines()
    # x: as White a win, a draw, a loss to z; as Black a loss. y: as White a win.
    assert lines[4:] == ["| x | 1.5/3 | 0/1 |", "| y | 1/1 | 0.5/2 |"]


def test_tournament_matrices(tmp_path):
    seen = {}

    class Result:
        def __init__(self, names, score, wins, draws, games):
            seen.update(names=names, score=score, wins=wins, draws=draws, games=games)

        def markdown(self):
            return "MATRIX"

    args = SimpleNamespace(out=str(tmp_path), games=2, seed=0, opening_plies=4,
                           turn_limit=40, players="x,y")
    assert expendibots.write_table(tmp_path, ["x", "y"], [("x", "value: f1")], DONE, args,
                                   Result) == 0
    assert seen["games"].tolist() == [[0, 3], [3, 0]]
    assert seen["wins"].tolist() == [[0, 1], [1, 0]]
    assert seen["draws"].tolist() == [[0, 1], [1, 0]]
    np.testing.assert_allclose(seen["score"], [[0, 1.5], [1.5, 0]])
    text = (tmp_path / "tournament.md").read_text()
    assert "3 games; random 4-ply openings; draw after 40 turns each" in text
    assert "- x: `value: f1`" in text and "MATRIX" in text


@pytest.mark.parametrize("k, n", [(3, 10), (10, 10)])
def test_wilson_bounds_contain_the_rate(k, n):
    text = rules._wilson(k, n)
    low, high = (float(x) for x in text.split("[")[1].rstrip("]").split(", "))
    assert low <= 100 * k / n <= high
