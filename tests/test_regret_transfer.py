"""Transfer between games for the MIL learners (the MIGO paper's Fig. 5)."""

import numpy as np
import pytest

from experiments.regret.experiment import _one_run, make_mil, run_regret
from experiments.regret.harness import regret_run
from experiments.regret.metarules import MIGO_METARULES
from games import load_game


def test_mil_pos_transfer_is_taught_by_the_paper_learner_on_the_source_game():
    source = load_game("hexapawn")
    teacher = make_mil("mil-pos", source, 3)
    regret_run(source, lambda s: teacher, 30, 3)
    expected = "\n".join(teacher.rules_text().values())
    assert "win_1" in expected
    curve, rules, transfer = _one_run(("mil-pos+transfer", "tictactoe", {}, 5, 3,
                                       ("hexapawn", {}, 30), 5))
    assert transfer == expected
    assert curve.shape == (5,) and np.all(np.diff(curve) >= 0)
    assert "win_1" in rules  # the transferred rule is still there after 5 games


def test_mil_pos_transfer_keeps_the_paper_learner_and_plays_the_program_at_once():
    game = load_game("tictactoe")
    text = "win_1(A,B) :- move(A,B), won(B)."
    learner = make_mil("mil-pos+transfer", game, 0, transfer=text)
    assert learner.mil.metarules == MIGO_METARULES and learner.negatives == "none"
    assert learner.rules_text() == {"win_1": text}
    state = game.state_from_dict({"board": [1, 1, 0, 2, 2, 0, 0, 0, 0], "player": 0})
    assert learner(state) == 2  # the transferred win_1 completes the top row
    plain = make_mil("mil-pos", game, 0)
    assert plain.rules_text() == {}


def test_transfer_learners_need_a_source_game():
    with pytest.raises(ValueError, match="needs --transfer-from"):
        run_regret("tictactoe", {}, ["mil-pos+transfer"], 1, 2, 0, 1, None, 5)


def test_the_report_tests_each_transfer_against_its_learner_from_scratch():
    import numpy as np
    from scipy.stats import ttest_ind

    from experiments.regret.experiment import transfer_tests

    rng = np.random.default_rng(0)
    scratch = rng.normal(30, 20, size=(20, 5)).cumsum(axis=1)
    moved = rng.normal(4, 2, size=(20, 5)).cumsum(axis=1)
    results = {"mil": (scratch, {}, None), "mil+transfer": (moved, {}, "p"),
               "q": (scratch, {}, None)}
    p = ttest_ind(moved[:, -1], scratch[:, -1], equal_var=False).pvalue
    assert transfer_tests(results) == [
        "", f"- `mil+transfer` against `mil`, final cumulative regret: Welch's t-test "
            f"two-sided p = {p:.2g}"]
    assert transfer_tests({"q": results["q"], "mil+transfer": results["mil+transfer"]}) == []
