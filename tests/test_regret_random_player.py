"""The regret of a player that does not learn (the MIGO paper's 1.58 and 1.4)."""

from fractions import Fraction

from experiments.studies.regret_random_player import exact, simulate
from games import load_game


def test_worst_case_regret_is_the_papers_and_random_play_is_below_it():
    ttt, hexapawn = load_game("tictactoe"), load_game("hexapawn", size=3)
    a, b = exact(ttt), exact(hexapawn)
    assert (a["wins"], a["draws"], a["worst_case"]) == (7, 5, Fraction(19, 12))
    assert (b["wins"], b["draws"], b["worst_case"]) == (2, 3, Fraction(7, 5))
    for e in (a, b):
        assert 0 < e["random_exact"] < e["worst_case"]


def test_simulated_random_regret_brackets_the_exact_value():
    game = load_game("hexapawn", size=3)
    s = simulate(game, runs=8, games=400, seed=5)
    assert s["low"] <= float(exact(game)["random_exact"]) <= s["high"]
