"""The framework agents' details (``framework_details``): fresh chance in every copy of
the state, the framework's tie-breaks, and RHEA's plan handling as ``RHEAAgent``."""

from __future__ import annotations

import random

import pytest

from games.tribes import MCTS, PLAYERS, RHEA, Tribes
from games.tribes.constants import DESTROY, DISBAND, END_TURN
from games.tribes.players import _random_good_framework
from games.tribes.search import SearchParams, _best_mean, _Node, copy_state


def _state(turn: int = 6, level: str = "java:2"):
    state = Tribes(level=level, rules=4).new_initial_state(random.Random(1))
    agents = [PLAYERS["simple"](), PLAYERS["simple"]()]
    while state.turn < turn:
        state.apply_action(agents[state.current_player()](state))
    return state


def test_a_fresh_copy_draws_its_own_chance_and_leaves_the_games():
    state = _state()
    carried = copy_state(state, False, random.Random(0))
    assert carried.rng == state.rng and carried.to_dict() == state.to_dict()
    fresh = [copy_state(state, True, random.Random(seed)).rng for seed in (0, 0, 1)]
    assert fresh[0] == fresh[1] != fresh[2], "seeded by the player's generator"
    assert state.rng not in fresh
    before = state.to_dict()
    player = MCTS(budget=120, rollouts=False, prioritise_root=True, framework_details=True)
    player.reset(3)
    first = player(state)
    assert state.to_dict() == before, "the game's own chance is untouched by the search"
    player.reset(3)
    assert player(state) == first


def test_framework_ties_pick_among_roots_children_of_mean_zero_at_random():
    state = _state()
    root = _Node(state, [(a, 0.0, None) for a in state.legal_actions()[:4]], None, 0)
    for i in range(4):
        child = _Node(state, (), root, 1)
        child.visits, child.total = 3, 0.0
        root.children[i] = child
    ours = {_best_mean(root, random.Random(seed)) for seed in range(40)}
    framework = {_best_mean(root, random.Random(seed), 1e-6) for seed in range(40)}
    assert ours == {0}, "noise times a mean of 0 leaves the first child"
    assert framework == {0, 1, 2, 3}
    assert SearchParams(framework_ties=True).span_floor == 0.0
    assert SearchParams().span_floor == 1e-12


def test_rhea_random_steps_never_destroy_or_disband_when_anything_else_is_legal():
    state = Tribes(level="java:5", rules=4).new_initial_state(random.Random(1))
    agents = [PLAYERS["simple"](), PLAYERS["simple"]()]
    while not any(a[0] == DISBAND for a in state.legal_actions()):  # round 8
        state.apply_action(agents[state.current_player()](state))
    legal = state.legal_actions()
    rng = random.Random(0)
    drawn = {_random_good_framework(state, rng) for _ in range(3000)}
    assert not any(a[0] in (DESTROY, DISBAND) for a in drawn)
    good = {a for a in legal if a[0] not in (DESTROY, DISBAND)}
    assert drawn == good, "uniform over the rest: every one of them drawn"


def test_rhea_shift_keeps_the_plan_after_an_infeasible_action_and_appends():
    state = _state()
    player = RHEA(budget=200, framework_details=True)
    player.reset(1)
    me = state.current_player()
    root = player.heuristic.root(state)
    plan, _, calls = player._new_framework(state, me, root)
    assert calls == len(plan) == 20
    broken = [plan[0], ("no such action",)] + plan[1:]
    out, _, calls = player._shift_framework(state, broken, me, root)
    assert out[:len(broken)] == broken, "the rest of the plan is kept as it was"
    assert len(out) == len(broken) + 19 and calls == 20, "one replayed, 19 appended"
    player.mutation_rate = 0.0
    mutant, _, calls = player._mutate_framework(state, out, me, root)
    assert calls == len(mutant) == len(out), "a mutant runs the whole plan"
    assert mutant[0] == plan[0] and mutant[1] != ("no such action",)


def test_rules_4_games_play_a_feasible_action_the_lists_do_not_offer():
    """The framework's Game executes any feasible action (its RHEA returns some); under
    rules 3 only a listed one."""
    for rules, accepted in ((4, True), (3, False)):
        state = Tribes(level="java:MovementPlayground", rules=rules).new_initial_state()
        state.c_pop[0] = 2  # the capital's level-up is due: the lists offer only it
        state._legal = state._legal_set = None
        assert (END_TURN,) not in state.legal_actions()
        if accepted:
            state.apply_action((END_TURN,))
            assert state.current_player() == 1
        else:
            with pytest.raises(ValueError):
                state.apply_action((END_TURN,))


@pytest.mark.parametrize("spec", ["mcts-fw", "pmcts-pu-fw", "rhea-fw"])
def test_framework_players_use_the_details(spec):
    player = PLAYERS[spec](budget=40)
    if spec == "rhea-fw":
        assert player.framework_details
    else:
        assert player.params.fresh_chance and player.params.framework_ties
    assert not PLAYERS["mcts"]().params.fresh_chance and not PLAYERS["rhea"]().framework_details

