"""Tribes players: legal, reproducible, within budget, and stronger than random."""

from __future__ import annotations

import random

import pytest

from games.match import play_match
from games.tribes import MCTS, PLAYERS, RHEA, Heuristic, OneStepLookAhead, Tribes, TribesState


def _states(n=3, plies=60):
    out = []
    rng = random.Random(3)
    for level in range(n):
        s = Tribes(level=level).new_initial_state(random.Random(level))
        for _ in range(plies):
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        out.append(s)
    return out


@pytest.mark.parametrize("spec", ["random", "simple", "osla", "mcts200", "rhea200"])
def test_players_choose_legal_actions_reproducibly(spec):
    states = _states()
    choices = []
    for _ in range(2):
        player = PLAYERS[spec]()
        player.reset(42)
        choices.append([player(s.clone()) for s in states])
    assert choices[0] == choices[1]
    for s, a in zip(states, choices[0]):
        assert a in s.legal_actions()


@pytest.mark.parametrize("make", [lambda: MCTS(budget=60), lambda: RHEA(budget=60),
                                  lambda: MCTS(budget=60, framework_details=True),
                                  lambda: RHEA(budget=60, framework_details=True),
                                  lambda: OneStepLookAhead(budget=5)])
def test_search_stays_within_its_forward_model_budget(make, monkeypatch):
    calls = [0]
    for method in ("apply_action", "apply_legal"):  # forward-model calls, checked or not
        original = getattr(TribesState, method)

        def counting(self, action, original=original):
            calls[0] += 1
            return original(self, action)

        monkeypatch.setattr(TribesState, method, counting)
    player = make()
    searched = [s for s in _states(3) if len(s.legal_actions()) > 1]  # one action: no search
    assert searched
    for s in searched:
        calls[0] = 0
        player(s)
        budget = player.budget
        assert 0 < calls[0] <= budget + 20, "a decision spends about its budget, not more"


def test_differential_heuristic_hand_values():
    h = Heuristic()
    s = _states(1)[0]
    root = h.root(s)
    assert h.value(root, s, 0) == 0.0
    s.score[0] += 100  # 0.1 per point
    s.kills[1] += 1  # 3 per kill, the opponent's counts against
    assert h.value(root, s, 0) == pytest.approx(10.0 - 3.0)
    assert h.value(root, s, 1) == pytest.approx(-7.0)
    s.over, s.won_by = True, 1
    assert Heuristic(win_bonus=50).value(root, s, 1) == pytest.approx(-7.0 + 50)


def test_heuristic_connected_cities_term_signed_or_grew():
    """The framework's scoreOwn adds the signed change in the number of cities connected
    to the capital; the "grew" reading adds 1 only when that number grew."""
    s = _states(1)[0]
    framework, grew = Heuristic(), Heuristic(connected_term="grew")
    s.connected = [0b1, 0]
    root = framework.root(s)
    s.connected = [0b1011, 0]  # two more connected
    assert framework.value(root, s, 0) == pytest.approx(2.0)
    assert grew.value(root, s, 0) == pytest.approx(1.0)
    s.connected = [0, 0]  # one lost
    assert framework.value(root, s, 0) == pytest.approx(-1.0)
    assert grew.value(root, s, 0) == 0.0
    s.connected = [0b10, 0]  # another city, same number
    assert framework.value(root, s, 0) == grew.value(root, s, 0) == 0.0
    with pytest.raises(ValueError, match="connected_term"):
        Heuristic(connected_term="more")


def test_connected_term_study_copies_decide_as_the_player():
    """The study's copy of a deciding agent, given the same reading, decides as the agent
    does at every decision (its random state is copied), so the differences it counts
    with the other reading are the term's."""
    from experiments.studies.tribes_heuristic_connected import play_compared

    for first, second in (("pmcts-pu", "mcts"), ("mcts", "rhea")):
        row = play_compared(first, second, 0, 60, 3, turn_limit=4, shadow_term="grew")
        assert all(c["decisions"] > 5 and c["differ"] == 0 for c in row["counts"].values())


def test_simple_agent_beats_random():
    game = Tribes(turn_limit=30)
    wins = 0
    for seed in range(4):
        seats = (PLAYERS["simple"](), PLAYERS["random"]())
        if seed % 2:
            seats = seats[::-1]
        result = play_match(game, list(seats), seed=seed)
        simple_seat = 0 if seed % 2 == 0 else 1
        wins += result.winner == simple_seat
    assert wins >= 3


@pytest.mark.slow
def test_mcts_beats_random():
    game = Tribes(turn_limit=20)
    wins = 0
    for seed in range(2):
        seats = [PLAYERS["mcts200"](), PLAYERS["random"]()]
        if seed:
            seats.reverse()
        result = play_match(game, seats, seed=seed)
        wins += result.winner == (0 if seed == 0 else 1)
    assert wins == 2


def test_game_log_counts_and_slopes():
    from games.tribes.gamelog import play_logged, slope
    assert slope([1, 2, 3, 4]) == pytest.approx(1.0) and slope([5]) == 0.0
    log = play_logged(Tribes(turn_limit=12), [PLAYERS["simple"](), PLAYERS["random"]()],
                      seed=3, level=2)
    assert log["level"] == 2 and log["rounds"] <= 12
    for seat in log["seats"]:
        assert sum(seat["spawns"].values()) >= seat["defender_spawns"] >= 0
        assert 0 <= seat["techs_fraction"] <= 1 and seat["attacks"] >= 0
    again = play_logged(Tribes(turn_limit=12), [PLAYERS["simple"](), PLAYERS["random"]()],
                        seed=3, level=2)
    assert again == log


@pytest.mark.parametrize("setup", [
    "s=Tribes(level=4,turn_limit=3).new_initial_state(random.Random(1));"
    "a=[PortfolioMCTS(budget=30,bias=True,pruning=True),RHEA(budget=30)];",
    # the framework's details: fresh chance in copies, RHEA's plans, rules 4
    "s=Tribes(level='java:3',turn_limit=4,rules=4).new_initial_state(random.Random(1));"
    "a=[RHEA(budget=40,framework_details=True),"
    "MCTS(budget=40,rollouts=False,prioritise_root=True,framework_details=True)];"])
def test_search_game_is_the_same_in_another_process(setup):
    import subprocess
    import sys
    code = ("import random,hashlib,json;from games.tribes import Tribes,PortfolioMCTS,RHEA,MCTS;"
            + setup + "a[0].reset(5);a[1].reset(6)\n"
            "while not s.is_terminal(): s.apply_action(a[s.current_player()](s))\n"
            "print(hashlib.sha1(json.dumps(s.to_dict()).encode()).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": str(seed), "PATH": "",
                                            "PYTHONPATH": ":".join(sys.path)}).stdout.strip()
            for seed in (1, 2)}
    assert len(runs) == 1, "same seeds, same game, whatever the hash seed"
    assert len(runs.pop()) == 40


def test_framework_mcts_values_leaves_without_rollouts_and_prioritises_the_root():
    import functools

    from games.tribes import PLAYERS
    from games.tribes.constants import DESTROY, END_TURN, MOVE
    from games.tribes.players import MCTS, action_group
    from games.tribes.search import SearchParams, search

    game = Tribes(level="java:2", rules=4)
    state = game.new_initial_state(random.Random(1))
    agents = [PLAYERS["simple"](), PLAYERS["simple"]()]
    while state.turn < 6:
        state.apply_action(agents[state.current_player()](state))
    legal = state.legal_actions()
    seen = set()
    for seed in range(30):
        group = action_group(state, random.Random(seed))
        assert group and set(group) <= set(legal)
        kinds = {a[0] for a in group}
        assert DESTROY not in kinds
        if END_TURN in kinds:
            assert len(group) > 1
        seen.add(min(kinds) >= MOVE)
    assert seen == {True, False}  # unit and other groups are both drawn

    def no_rollout(sim, rng):
        raise AssertionError("a rollout was played")

    player = MCTS(budget=150, rollouts=False, prioritise_root=True)
    value = functools.partial(player.heuristic.value, player.heuristic.root(state),
                              p=state.current_player())
    move = search(state, SearchParams(budget=150, rollouts=False), lambda s: [
        (a, 0.0, None) for a in s.legal_actions()], no_rollout, value, random.Random(0))
    assert move[0] in legal
    player.reset(3)
    first = player(state)
    player.reset(3)
    assert player(state) == first and first in legal
