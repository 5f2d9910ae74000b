"""The MIGO paper's baseline learners from the inside: Q-values and bead boxes after
hand-made games, against values worked out by hand."""

from __future__ import annotations

import pytest

from experiments.regret.learners import BeadBoxes, QLearner
from games import load_game
from games.tictactoe import EMPTY, NOUGHT, X

GAME = load_game("tictactoe")
_ = EMPTY
# two positions of the learner (X, player 0): three empty cells, then one
THREE_LEFT = ((X, NOUGHT, X, NOUGHT, X, NOUGHT, _, _, _), 0)
ONE_LEFT = ((X, NOUGHT, X, NOUGHT, X, NOUGHT, NOUGHT, X, _), 0)
# earlier positions, where MENACE starts a box with 3 and 2 beads per move
OPEN2 = ((X, NOUGHT) + (_,) * 7, 0)
OPEN4 = ((X, NOUGHT, X, NOUGHT) + (_,) * 5, 0)


class _At:
    def __init__(self, key) -> None:
        self._key = key

    def key(self):
        return self._key


@pytest.mark.parametrize("outcome, last, first", [
    # last move: 1 + 0.3 (outcome - 1); first: target 0.9 * (last), 1 + 0.3 (target - 1)
    (-1, 0.4, 1 + 0.3 * (0.9 * 0.4 - 1)),
    (0, 0.7, 1 + 0.3 * (0.9 * 0.7 - 1)),
    (1, 1.0, 1 + 0.3 * (0.9 * 1.0 - 1)),
])
def test_q_learning_backs_the_outcome_up_the_game(outcome, last, first):
    q = QLearner(GAME, seed=0)
    q.learn([(THREE_LEFT, 6), (ONE_LEFT, 8)], outcome)
    assert q.q[ONE_LEFT] == {8: pytest.approx(last)}
    assert q.q[THREE_LEFT] == {6: pytest.approx(first), 7: 1.0, 8: 1.0}


def test_q_learning_is_greedy_and_breaks_ties_at_random():
    q = QLearner(GAME, seed=0)
    q.learn([(THREE_LEFT, 6), (ONE_LEFT, 8)], -1)
    picks = {q(_At(THREE_LEFT)) for _ in range(40)}
    assert picks == {7, 8}  # never the move that lost, both of the untried ones
    q.q[THREE_LEFT][8] = 1.5
    assert {q(_At(THREE_LEFT)) for _ in range(10)} == {8}


def _filled(n: int) -> tuple:
    marks = [X, NOUGHT] * 4 + [X]
    return tuple(marks[:n]) + (EMPTY,) * (9 - n)


@pytest.mark.parametrize("filled, beads", [(0, 4), (1, 4), (2, 3), (3, 3), (4, 2), (5, 2),
                                           (6, 1), (7, 1), (8, 1)])
def test_menace_starts_a_box_with_fewer_beads_the_later_the_move(filled, beads):
    menace, her = BeadBoxes(GAME, menace=True), BeadBoxes(GAME, menace=False)
    assert menace._initial(_filled(filled)) == beads
    assert her._initial(_filled(filled)) == 1


def _box(learner, key):
    return dict(learner._box(key))


@pytest.mark.parametrize("outcome, delta", [(1, 3), (0, 1), (-1, -1)])
def test_menace_adds_beads_to_every_move_of_the_game(outcome, delta):
    menace = BeadBoxes(GAME, menace=True)
    before = [_box(menace, OPEN2), _box(menace, OPEN4)]
    assert set(before[0].values()) == {3} and set(before[1].values()) == {2}
    menace.learn([(OPEN2, 4), (OPEN4, 4)], outcome)
    after = [_box(menace, OPEN2), _box(menace, OPEN4)]
    changed = [{m: after[i][m] - before[i][m] for m in before[i] if after[i][m] != before[i][m]}
               for i in range(2)]
    assert all(len(c) == 1 and list(c.values()) == [delta] for c in changed)


def test_her_punishes_only_the_last_move_and_only_a_loss():
    her = BeadBoxes(GAME, menace=False)
    start = [_box(her, OPEN2), _box(her, OPEN4)]
    for outcome in (1, 0):
        her.learn([(OPEN2, 4), (OPEN4, 4)], outcome)
        assert [_box(her, OPEN2), _box(her, OPEN4)] == start
    her.learn([(OPEN2, 4), (OPEN4, 4)], -1)
    assert _box(her, OPEN2) == start[0]
    ones = _box(her, OPEN4)
    assert sum(ones.values()) == sum(start[1].values()) - 1 and min(ones.values()) == 0


def test_an_emptied_box_is_refilled_and_beads_never_go_negative():
    her = BeadBoxes(GAME, menace=False)
    key = ONE_LEFT  # one move: one bead
    assert sum(_box(her, key).values()) == 1
    her.learn([(key, 8)], -1)  # the last bead goes: the box would resign
    assert _box(her, key) == {m: 1 for m in _box(her, key)}  # refilled when next asked
    menace = BeadBoxes(GAME, menace=True)
    for _ in range(5):
        menace.learn([(THREE_LEFT, 6)], -1)
    box = _box(menace, THREE_LEFT)
    assert min(box.values()) >= 0 and sum(box.values()) > 0


def test_symmetric_positions_share_one_box():
    menace = BeadBoxes(GAME, menace=True)
    corner = ((X,) + (EMPTY,) * 8, 1)
    other_corner = ((EMPTY, EMPTY, X) + (EMPTY,) * 6, 1)
    menace.learn([(corner, 4)], 1)  # the centre answer, +3 beads
    assert _box(menace, other_corner) == _box(menace, corner)
    assert len(menace.boxes) == 1
