"""TD-Leaf against an improving pool: snapshots join the pool, and a saved run resumes
to exactly the weights of an uninterrupted one."""

import numpy as np
import pytest

from games.api import RandomStrategy
from games.expendibots.players import hand_weights_player
from games.expendibots.rules import Expendibots
from games.expendibots.tdleaf import PoolTDLeaf, load_weights_player


def trainer(games=4):
    game = Expendibots(opening_plies=2, turn_limit=40)
    fixed = [("random", RandomStrategy()), ("alphabeta1", hand_weights_player(depth=1))]
    return PoolTDLeaf(game, fixed, depth=1, games=games, snapshot_every=2, seed=3)


def test_snapshots_join_the_pool_and_both_colours_learn():
    t = trainer()
    t.train()
    assert len(t.log) == 4 and [s["game"] for s in t.snapshots] == [2, 4]
    assert [name for name, _ in t.pool()][-2:] == ["self@2", "self@4"]
    for seat in (0, 1):  # a colour learns from its decided games (start weights score
        decided = any(e["outcome"] for e in t.log if e["seat"] == seat)  # level play 0)
        assert decided == (not np.array_equal(t.weights[seat], [1, 1, 1, 0, 0]))
    assert any(e["outcome"] for e in t.log)
    assert t.rate(0) == pytest.approx(0.1) and t.rate(3) == pytest.approx(0.01)


def test_a_saved_run_resumes_to_the_same_weights(tmp_path):
    straight = trainer()
    straight.train()
    path = tmp_path / "weights.json"
    first = trainer()
    first.train(until_seconds=0.0, checkpoint=path)  # stops after one game
    assert len(first.log) == 1
    second = trainer()
    second.load(path)
    second.train(checkpoint=path)
    assert second.log == straight.log
    np.testing.assert_allclose(second.weights, straight.weights)
    player = load_weights_player(path, depth=1)
    assert [s.evaluate.weights for s in player.searches] == [tuple(w) for w in straight.weights]
    with pytest.raises(ValueError, match="games"):
        trainer(games=5).load(path)
