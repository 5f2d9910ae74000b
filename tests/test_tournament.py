"""Round robins: score intervals, and a tournament continued from its pairings file."""

import json

import pytest

from experiments.players import make_player
from games import load_game
from qd.tournament import round_robin, score_interval

SPECS = ["random", "minimax", "random"]
NAMES = ["random-a", "minimax", "random-b"]


def _players():
    return [make_player("tictactoe", spec) for spec in SPECS]


def test_score_interval_by_hand():
    low, high = score_interval(wins=5, draws=0, games=10)  # scores 1/0: sd 0.5, se 0.158
    assert low == pytest.approx(0.5 - 1.96 * 0.5 / 10 ** 0.5)
    assert high == pytest.approx(0.5 + 1.96 * 0.5 / 10 ** 0.5)
    assert score_interval(wins=0, draws=10, games=10) == (0.5, 0.5)  # all draws: no spread
    assert score_interval(wins=10, draws=0, games=10) == (1.0, 1.0)
    assert score_interval(wins=0, draws=0, games=0) == (0.0, 1.0)


class Refuses:
    def __call__(self, state):
        raise AssertionError("a finished pairing was played again")

    def reset(self, seed):
        pass


def test_a_tournament_continues_from_its_pairings_file(tmp_path):
    game = load_game("tictactoe")
    whole = round_robin(game, _players(), NAMES, 6, seed=3)
    pairs = tmp_path / "pairs.jsonl"
    round_robin(game, _players(), NAMES, 6, seed=3, pairs_file=pairs)
    header, first, *_ = pairs.read_text().splitlines()
    pairs.write_text(f"{header}\n{first}\n{first[:10]}")  # killed while writing pair 2
    again = round_robin(game, _players(), NAMES, 6, seed=3,
                        pairs_file=pairs)
    assert (again.score == whole.score).all() and (again.games == whole.games).all()
    assert len(pairs.read_text().splitlines()) == 1 + 3
    done = round_robin(game, [Refuses(), Refuses(), Refuses()], NAMES, 6, seed=3,
                       pairs_file=pairs)  # everything is in the file now
    assert (done.score == whole.score).all()
    assert "95% interval" in done.markdown()


def test_a_pairings_file_of_another_tournament_is_refused(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"format": "stratsynth-tournament-pairs", "names": NAMES,
                                 "matches": 4, "seed": 3}) + "\n")
    with pytest.raises(ValueError, match="pairs.jsonl.*matches"):
        round_robin(load_game("tictactoe"), _players(), NAMES, 6, seed=3, pairs_file=pairs)
    other = tmp_path / "other.jsonl"
    round_robin(load_game("tictactoe"), _players(), NAMES, 2, seed=3, pairs_file=other,
                setting={"game_params": {"size": 3}})
    with pytest.raises(ValueError, match="game_params"):
        round_robin(load_game("tictactoe"), _players(), NAMES, 2, seed=3, pairs_file=other,
                    setting={"game_params": {"size": 4}})
