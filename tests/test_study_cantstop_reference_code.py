"""``experiments.studies.cantstop_reference_code``: the rate loop's seats, winner counts,
chunks and resumption, with a stand-in for the reference code (not in this repository)."""

import json

import pytest

from experiments.studies import cantstop_reference_code as study


class FirstSeatWins:
    """The first seat wins every match (``play`` returns 1); seats are recorded."""

    def __init__(self):
        self.players = {"random": lambda: "random", "ga": lambda: "ga"}
        self.seats = []

    def play(self, first, second):
        self.seats.append((first, second))
        return 1


def test_rate_alternates_seats_counts_wins_in_chunks_and_resumes(tmp_path):
    ref, out = FirstSeatWins(), tmp_path / "rate.jsonl"
    study.rate(ref, "random", matches=5, base=0, out=str(out), chunk=2)
    assert ref.seats == [("random", "ga"), ("ga", "random")] * 2 + [("random", "ga")]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["start"], x["end"], x["a"], x["b"], x["none"]) for x in lines] == [
        (0, 2, 1, 1, 0), (2, 4, 1, 1, 0), (4, 5, 1, 0, 0)]
    study.rate(ref, "random", matches=7, base=0, out=str(out), chunk=2)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["start"], x["end"]) for x in lines][-1] == (5, 7) and len(ref.seats) == 7


def test_rate_counts_matches_without_a_winner(tmp_path):
    ref = FirstSeatWins()
    ref.play = lambda first, second: None
    study.rate(ref, "random", matches=3, base=0, out=str(tmp_path / "r.jsonl"))
    line = json.loads((tmp_path / "r.jsonl").read_text())
    assert (line["a"], line["b"], line["none"]) == (0, 0, 3)


def test_a_source_without_game_py_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="no game.py there"):
        study.Reference(str(tmp_path))
