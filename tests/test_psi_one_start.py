"""Ψ from one start position (Aleixo 2023's microRTS Ψ: one match per start, a separate
run per side) beside the seat-alternating Ψ, on Can't Stop's engines and in self-play."""

import json
from pathlib import Path

import pytest

from experiments.cli import main
from games import load_game
from games.cantstop import glenn_aloi_player
from games.cantstop.features import FEATURES
from games.match import play_many
from gp.fitness import WinRate
from gp.languages.cantstop import SketchStrategy
from qd.reference import target_behaviour_win_rate

PROGRAM = (Path(__file__).resolve().parents[1] / "experiments" / "programs"
           / "cantstop_ga.txt").read_text()


def _seats_played(summary) -> tuple[int, int]:
    """Wins of the program (player 0) from seat 0 and from seat 1, and of the target
    (player 1) from seat 1 and seat 0: which seats each sat in."""
    (mine0, mine1), (theirs0, theirs1) = summary.wins_by_seat
    return mine0 + theirs1, mine1 + theirs0  # matches decided with the program in seat 0 / 1


@pytest.mark.parametrize("seat", [0, 1])
def test_every_match_puts_the_program_in_one_seat_on_every_engine(seat):
    game = load_game("cantstop")
    pairing = [(SketchStrategy(PROGRAM), glenn_aloi_player())]
    summaries = {engine: play_many(game, pairing, 12, [7], engine=engine, seat=seat)[0]
                 for engine in ("reference", "fast")}
    summary = summaries["reference"]
    decided = _seats_played(summary)
    assert summary.matches == 12 and decided[seat] == 12 - summary.draws - summary.capped
    assert decided[1 - seat] == 0
    assert summaries["fast"].wins_by_seat == summary.wins_by_seat
    alternating = play_many(game, pairing, 12, [7], engine="reference")[0]
    assert min(_seats_played(alternating)) > 0  # without a seat both are played


def test_one_match_psi_plays_one_match_per_evaluation_from_its_side():
    game = load_game("cantstop")
    for seat in (0, 1):
        psi = WinRate(game, glenn_aloi_player(), SketchStrategy, matches=1, seed=3, seat=seat)
        summary = psi.play(SketchStrategy(PROGRAM).text)
        assert summary.matches == 1 and _seats_played(summary)[1 - seat] == 0
    behaviour = target_behaviour_win_rate(game, glenn_aloi_player(), SketchStrategy, FEATURES,
                                          ["bust_rate"], 4, 3, seat=1)
    behaviour(PROGRAM)
    summary = behaviour.psi.play(PROGRAM)
    assert summary.matches == 4 and _seats_played(summary)[0] == 0
    with pytest.raises(ValueError, match="seat"):
        play_many(game, [(SketchStrategy(PROGRAM), glenn_aloi_player())], 2, [1], seat=2)
    with pytest.raises(ValueError, match="seat"):
        play_many(game, [(SketchStrategy(PROGRAM), glenn_aloi_player())], 2, [1], seat=0,
                  paired=True)


def _selfplay(out, *extra):
    return main(["selfplay", "cantstop", "--oracle", "sa", "--iterations", "1",
                 "--evaluations", "3", "--matches", "1", "--seed", "2", "--workers", "1",
                 "--out", str(out), *extra])


def test_a_self_play_run_for_one_side_plays_its_searches_from_it_and_records_it(
        tmp_path, monkeypatch):
    import gp.fitness

    seats = []
    real = gp.fitness.play_many

    def spy(*args, **kwargs):
        seats.append(kwargs.get("seat"))
        return real(*args, **kwargs)

    monkeypatch.setattr(gp.fitness, "play_many", spy)
    assert _selfplay(tmp_path / "side1", "--side", "1") == 0
    assert seats and set(seats) == {1}
    assert json.loads((tmp_path / "side1" / "config.json").read_text())["side"] == 1
    del seats[:]
    assert _selfplay(tmp_path / "both") == 0
    assert set(seats) == {None}
    assert "side" not in json.loads((tmp_path / "both" / "config.json").read_text())
    assert _selfplay(tmp_path / "side1", "--side", "0") == 2  # another side: a new run
    assert _selfplay(tmp_path / "bad", "--side", "2") == 2
    assert not (tmp_path / "bad").exists()
