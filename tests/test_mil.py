"""Meta-interpretive learner of MIGO (Hocquette and Muggleton): metarules, meta-interpreter,
learner."""

import random
import subprocess
import sys

import numpy as np
import pytest

from experiments.regret.harness import regret_run
from experiments.regret.metarules import (
    MIGO_METARULES,
    Clause,
    Interpreter,
    parse_program,
    program_text,
)
from experiments.regret.mil import MetaInterpreter, MILLearner
from games import load_game
from games.solver import MinimaxSolver
from gp.languages.rules import Positions

WIN_1 = parse_program("win_1(A,B) :- move(A,B), won(B).")
MIGO_WIN_2 = {"win_2(A,B) :- win_2_1(A,B), not win_2_1(B,_).",
              "win_2_1(A,B) :- move(A,B), not win_1(B,_)."}


def _positions(game, rng, count, plies=(2, 6)):
    """Non-terminal positions reached by random play, in a fixed order."""
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(*plies)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.key() not in out:
            out.append(state.key())
    return out


def _labelled(game, depth_of_win: int, count: int, seed: int):
    """Moves A->B of positions with a forced win in ``depth_of_win`` of the mover's
    moves and none faster: positives are the moves that keep it (minimax), negatives
    the other non-terminal moves of the same positions."""
    solver = MinimaxSolver(game)
    positions = Positions(game.rules)
    pos, neg = [], []
    for a in _positions(game, random.Random(seed), 400):
        solved = solver.solve_board(*a)
        if (solved.value, solved.depth) != (1, 2 * depth_of_win - 1):
            continue
        for b in positions.successors(a):
            value = solver.solve_board(*b)
            if value.value == -1 and value.depth == 2 * (depth_of_win - 1):
                pos.append((a, b))
            elif positions.outcome(b) is None:
                neg.append((a, b))
        if len(pos) >= count:
            break
    return positions, pos, neg


@pytest.fixture(scope="module")
def ttt():
    return load_game("tictactoe")


def _program_lines(program) -> set:
    return set(program_text(program).splitlines())


def test_clauses_print_and_parse_back():
    text = ("win_1(A,B) :- move(A,B), won(B).\n"
            "win_2_1(A,B) :- move(A,B), not drawn(B).\n"
            "win_2(A,B) :- win_2_1(A,B), not win_2_1(B,_).\n"
            "draw_1(A,B) :- move(A,B), not draw_1(B,_).\n"
            "p(A,B) :- won(A), move(A,B).\n"
            "q(A,B) :- move(A,C), move(C,B).\n"
            "q(A,B) :- move(A,C), q(C,B).")
    program = parse_program(text)
    assert program["draw_1"][0].metarule == "negation_rec"
    assert program["q"][1].metarule == "tailrec"
    assert set(program_text(program).splitlines()) == set(text.splitlines())
    with pytest.raises(ValueError, match="not a clause"):
        parse_program("win_1(A,B) :- move(A,B)")
    with pytest.raises(ValueError, match="left-recursive"):
        Clause("postcon", "p", "p", "won")


def test_recovers_win_1_from_hand_built_examples(ttt):
    positions, pos, neg = _labelled(ttt, 1, 6, seed=3)
    assert pos and neg
    mil = MetaInterpreter(Interpreter(positions))
    learned = mil.learn("win_1", pos, neg)
    assert _program_lines(learned) == {"win_1(A,B) :- move(A,B), won(B)."}


def test_recovers_the_seeds_win_2_with_its_metarules(ttt):
    positions, pos, neg = _labelled(ttt, 2, 8, seed=4)
    assert len(pos) >= 8 and neg
    mil = MetaInterpreter(Interpreter(positions), MIGO_METARULES)
    learned = mil.learn("win_2", pos, neg, background=WIN_1)
    assert _program_lines(learned) == MIGO_WIN_2


def test_full_library_win_2_agrees_with_minimax_on_unseen_positions(ttt):
    positions, pos, neg = _labelled(ttt, 2, 8, seed=4)
    interp = Interpreter(positions)
    learned = MetaInterpreter(interp).learn("win_2", pos, neg, background=WIN_1)
    assert learned is not None and any("not win_1(B,_)" in c.text()
                                       for cl in learned.values() for c in cl)
    program = {**WIN_1, **learned}
    _, test_pos, test_neg = _labelled(ttt, 2, 30, seed=99)
    test_pos = [ex for ex in test_pos if ex not in pos]  # unseen ones only
    test_neg = [ex for ex in test_neg if ex not in neg]
    assert len(test_pos) >= 15 and len(test_neg) >= 15
    assert all(interp.holds("win_2", program, a, b) for a, b in test_pos)
    assert not any(interp.holds("win_2", program, a, b) for a, b in test_neg)


def test_negative_examples_prune_the_over_general_rule(ttt):
    positions, pos, neg = _labelled(ttt, 2, 8, seed=4)
    interp = Interpreter(positions)
    mil = MetaInterpreter(interp, MIGO_METARULES)
    general = mil.learn("win_2", pos, (), background=WIN_1)  # positives only
    assert _program_lines(general) == {"win_2(A,B) :- move(A,B), not win_1(B,_)."}
    program = {**WIN_1, **general}
    assert any(interp.holds("win_2", program, a, b) for a, b in neg)  # over-general
    specific = mil.learn("win_2", pos, neg, background=WIN_1)
    assert _program_lines(specific) != _program_lines(general)
    program = {**WIN_1, **specific}
    assert not any(interp.holds("win_2", program, a, b) for a, b in neg)


def test_dependent_learning_reuses_the_learned_predicate(ttt):
    positions, pos, neg = _labelled(ttt, 2, 8, seed=4)
    mil = MetaInterpreter(Interpreter(positions), MIGO_METARULES)
    with_win_1 = mil.learn("win_2", pos, neg, background=WIN_1)
    assert "win_1(B,_)" in program_text(with_win_1)
    # without win_1 in the background the two-clause program does not exist
    assert MetaInterpreter(Interpreter(positions), MIGO_METARULES,
                           max_clauses=2).learn("win_2", pos, neg) is None


def test_chain_metarule_learns_a_two_ply_relation(ttt):
    positions = Positions(ttt.rules)
    starts = _positions(ttt, random.Random(5), 3)
    pos = [(a, c) for a in starts for b in positions.successors(a)[:1]
           for c in positions.successors(b)[:2]]
    learned = MetaInterpreter(Interpreter(positions)).learn("two_plies", pos)
    assert _program_lines(learned) == {"two_plies(A,B) :- move(A,C), move(C,B)."}


def test_learner_plays_learned_rules_and_lowers_regret(ttt):
    learner_box = {}

    def make(seed):
        learner_box["l"] = MILLearner(ttt, seed)
        return learner_box["l"]

    regret = regret_run(ttt, make, 120, seed=1)
    learner = learner_box["l"]
    assert "win_1(A,B) :- move(A,B), won(B)." in learner.program_text()
    assert regret[-40:].mean() < regret[:40].mean()
    assert regret[-40:].mean() < 0.3


_SCRIPT = """
from experiments.regret.harness import regret_run
from experiments.regret.mil import MILLearner
from games import load_game
g = load_game('hexapawn')
box = {}
def make(s):
    box['l'] = MILLearner(g, s)
    return box['l']
r = regret_run(g, make, 40, seed=7)
print(list(r), box['l'].program_text())
"""


def test_deterministic_under_a_seed_across_processes():
    outs = [subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1] and "win_1" in outs[0]
    game = load_game("hexapawn")
    a = regret_run(game, lambda s: MILLearner(game, s), 40, seed=7)
    assert np.array_equal(a, np.array(eval(outs[0].split("]")[0] + "]")))


def test_the_former_learner_name_mil_seed_is_read_as_mil_migo():
    from experiments.config import RegretConfig
    from experiments.loader import load
    from experiments.regret.experiment import make_mil

    config = load(RegretConfig, {"game": "tictactoe", "learners": "mil,mil-seed", "out": "x"})
    assert config.learner_names() == ["mil", "mil-migo"]
    learner = make_mil("mil-migo", load_game("tictactoe"), 1)
    assert learner.mil.metarules == MIGO_METARULES
    with pytest.raises(ValueError, match="unknown learner"):
        load(RegretConfig, {"game": "tictactoe", "learners": "mil-nope", "out": "x"})
