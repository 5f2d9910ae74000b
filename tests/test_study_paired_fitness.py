"""``experiments.studies.paired_fitness``: a copy of the target scores exactly ½ paired, and
the table's mean ± standard deviation and range, worked by hand."""

import pytest

from experiments.studies import paired_fitness as study


def test_table_mean_population_sd_and_range():
    row = {"setting": "s", "program": "p", "matches": 8,
           "unpaired": [0.25, 0.75], "unpaired_mean": 0.5, "unpaired_sd": 0.25,
           "paired": [0.5, 0.5], "paired_mean": 0.5, "paired_sd": 0.0}
    lines = study.table([row], 2).splitlines()
    assert lines[0] == "Ψ over 2 run seeds: mean ± standard deviation (population), min–max."
    assert lines[-1] == ("| s | `p` | 8 | 0.500 ± 0.250 (0.250–0.750) | "
                         "0.500 ± 0.000 (0.500–0.500) |")


def test_a_copy_of_the_target_scores_one_half_paired_at_every_seed(capsys):
    name, game, target, cls, _, programs = study.cantstop_setting(1)
    copy = programs[0]
    assert copy[0] == "GA (copy of the target)"
    rows = study.measure((name, game, target, cls, 4, [copy]), seeds=3)
    row = rows[0]
    assert row["paired"] == [0.5, 0.5, 0.5] and row["paired_sd"] == 0.0
    assert len(row["unpaired"]) == 3
    assert row["unpaired_mean"] == pytest.approx(sum(row["unpaired"]) / 3)
    assert "GA (copy of the target)" in capsys.readouterr().out
