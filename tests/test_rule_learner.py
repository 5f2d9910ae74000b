"""The rule language over move/won/drawn and the rule learner (Hocquette and Muggleton)."""

import random

import numpy as np

from experiments.regret.harness import regret_run
from experiments.regret.rule_learner import RuleLearner, split_label
from games import load_game
from games.solver import MinimaxSolver
from gp.languages.rules import Positions, build_rules_dsl


def test_rules_print_and_parse_back():
    dsl = build_rules_dsl([("win1", lambda p, k, a: False)])
    rng = random.Random(0)
    for _ in range(1000):
        tree = dsl.random_program(rng)
        text = dsl.to_text(tree)
        assert dsl.to_text(dsl.parse(text)) == text
    text = "rule: not(some_reply(lost)) and every_reply(some_move(win1))"
    assert dsl.to_text(dsl.parse(text)) == text


def test_the_migo_rules_mean_what_minimax_says():
    game = load_game("tictactoe")
    solver = MinimaxSolver(game)
    positions = Positions(game.rules)
    base = build_rules_dsl()
    win1 = base.compile(base.parse("rule: won"))
    dsl = build_rules_dsl([("win1", win1)])
    win2 = dsl.compile(dsl.parse("rule: every_reply(some_move(win1))"))
    rng = random.Random(1)
    checked = 0
    for _ in range(300):
        state = game.new_initial_state()
        for _ in range(rng.randrange(2, 7)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        board, player = state.key()
        for move in game.rules.moves(board, player):
            child = (game.rules.play(board, player, move), 1 - player)
            value = solver.solve_board(*child)
            if win1(positions, child, None):
                assert value.value == -1 and value.depth == 0  # the mover has won
            if win2(positions, child, None) and not win1(positions, child, None):
                assert value.value == -1 and value.depth <= 2  # forced win in two
                checked += 1
    assert checked > 10


def test_learner_finds_win_rules_and_beats_q_learning_early_on_tictactoe():
    game = load_game("tictactoe")
    learners = []

    def make(seed):
        learners.append(RuleLearner(game, seed))
        return learners[-1]

    regret = regret_run(game, make, 60, seed=1)
    rules = learners[0].rules_text()
    assert rules["win1"] == "won"
    assert "win2" in rules
    assert regret[-20:].mean() < regret[:20].mean()
    assert split_label("draw12") == ("draw", 12)


def test_transferred_rules_are_used_from_the_first_game():
    game = load_game("hexapawn", size=4)
    learner = RuleLearner(game, 0, transfer={"win1": "won",
                                             "win2": "every_reply(some_move(win1))"})
    assert learner.rules_text() == {"win1": "won", "win2": "every_reply(some_move(win1))"}
    state = game.state_from_dict({"board": [0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0],
                                  "player": 0})
    assert learner(state) == (4, 0)  # the white pawn steps onto the far row
    assert np.isfinite(regret_run(game, lambda s: learner, 3, seed=2)).all()


def test_rule_learner_with_gp_search_learns_win1():
    game = load_game("tictactoe")
    learners = []

    def make(seed):
        learners.append(RuleLearner(game, seed, search="gp"))
        return learners[-1]

    regret_run(game, make, 30, seed=2)
    assert learners[0].rules_text()["win1"] == "won"
