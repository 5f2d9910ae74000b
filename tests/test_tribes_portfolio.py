"""Portfolio of the play-styles paper's Table III, action assignments, P-MCTS's schedule."""

from __future__ import annotations

import collections
import random

import pytest

from games.tribes import PLAYERS, Tribes
from games.tribes.constants import (
    ARCHER,
    ARCHERY,
    CATAPULT,
    CHIVALRY,
    DEFENDER,
    END_TURN,
    FARMING,
    HUNTING,
    KNIGHT,
    MATHEMATICS,
    ORGANIZATION,
    RESEARCH,
    RIDER,
    RIDING,
    SHIELDS,
    SPAWN,
    WARRIOR,
)
from games.tribes.portfolio import (
    EVOLVED_SCRIPTS,
    NUM_SCRIPTS,
    SCRIPTS,
    assignments,
    default_weights,
    random_assignment,
    weights_with,
)
from games.tribes.search import SearchParams


def _states():
    out = []
    rng = random.Random(5)
    for level in range(3):
        s = Tribes(level=level).new_initial_state(random.Random(level))
        for _ in range(80):
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        out.append(s)
    return out


def test_table_iii_has_57_scripts_and_11_evolved():
    assert len(SCRIPTS) == NUM_SCRIPTS == 57
    assert [SCRIPTS[s][2] for s in EVOLVED_SCRIPTS[:5]] == [
        "research farms", "research naval", "research mountain", "research range",
        "research roads"]
    assert SCRIPTS[36][2] == "spawn strongest" and SCRIPTS[41][2] == "spawn range"
    w = weights_with([0.0, 0.25, 0.5, 0.75, 1.0, 0, 0, 0, 0, 0, 1])
    assert w[15] == 0.0 and w[19] == 1.0 and w[41] == 1 and w[20] == 0.5
    with pytest.raises(ValueError):
        weights_with([0.5] * 10)


def test_assignments_are_legal_with_prior_v_times_w():
    w = default_weights()
    w[48] = 1.0
    for s in _states():
        legal = set(s.legal_actions())
        out = assignments(s, w)
        assert any(a[0] == (END_TURN,) for a in out)
        for action, h, (sid, _actor, v, weight) in out:
            assert action in legal
            assert 0.0 <= v <= 1.0 and weight == w[sid] and h == pytest.approx(v * weight)
            assert SCRIPTS[sid][0] == action[0], "a script only returns its own action type"
        types = {a[0] for a in legal}
        assert types == {a[0][0] for a in out}, "every legal action type has an assignment"


def test_random_assignment_is_uniform_over_assignments():
    s = _states()[1]
    w = default_weights()
    full = collections.Counter((a, sid, actor) for a, _, (sid, actor, _, _) in assignments(s, w))
    rng = random.Random(3)
    n = 6000
    drawn = collections.Counter()
    for _ in range(n):
        a, _, (sid, actor, _, _) = random_assignment(s, w, rng)
        drawn[(a, sid, actor)] += 1
    assert set(drawn) == set(full)
    total = sum(full.values())
    assert max(abs(drawn[k] / n - full[k] / total) for k in full) < 0.02


def _plain_random_assignment(state, weights, rng):
    """The draw over the full slot list, written plainly (what the fast one must equal)."""
    from games.tribes.constants import BOAT, UPGRADE
    from games.tribes.portfolio import _SCRIPT_IDS, _WRAPPER_IDS, Context, _groups

    p = state.current_player()
    slots = []
    for (kind, actor), actions in _groups(state.legal_actions()).items():
        for sid in _WRAPPER_IDS[kind]:
            if kind == UPGRADE and (sid == 6) != (state.u_type[actor] == BOAT):
                continue
            slots.extend((sid, actor, a) for a in actions)
        slots.extend((sid, actor, actions) for sid in _SCRIPT_IDS[kind])
    ctx = Context(state, p)
    while slots:
        i = int(rng.random() * len(slots))
        sid, actor, what = slots[i]
        w = weights[sid]
        if sid <= 10:
            return what, 0.5 * w, (sid, actor, 0.5, w)
        picked = SCRIPTS[sid][1](state, p, what, ctx)
        if picked is not None:
            return picked[0], picked[1] * w, (sid, actor, picked[1], w)
        slots[i] = slots[-1]
        slots.pop()


def test_random_assignment_draws_as_over_the_full_slot_list():
    rng = random.Random(11)
    w = weights_with([rng.choice((0.0, 0.25, 0.5, 0.75, 1.0)) for _ in EVOLVED_SCRIPTS])
    checked = 0
    for level in range(10):
        s = Tribes(level=level, turn_limit=30).new_initial_state(random.Random(level))
        while not s.is_terminal() and checked < 2500:
            seed = rng.getrandbits(32)
            fast = random_assignment(s, w, random.Random(seed))
            assert fast == _plain_random_assignment(s, w, random.Random(seed)), s.moves
            checked += 1
            s.apply_action(fast[0] if rng.random() < 0.7 else
                           rng.choice(s.legal_actions()))
    assert checked >= 1500


def test_research_and_spawn_style_scripts():
    s = Tribes(level=0).new_initial_state(random.Random(0))
    s.techs[0] = (1 << ORGANIZATION) | (1 << HUNTING) | (1 << RIDING)
    s.stars[0] = 100
    s._legal = s._legal_set = None
    research = [a for a in s.legal_actions() if a[0] == RESEARCH]
    farms = SCRIPTS[15][1](s, 0, research, None)
    assert farms == ((RESEARCH, FARMING), 0.75), "lowest tier of the farms branch"
    rng_branch = SCRIPTS[18][1](s, 0, research, None)
    assert rng_branch[0] == (RESEARCH, ARCHERY)
    s.techs[0] |= (1 << ARCHERY) | (1 << SHIELDS) | (1 << MATHEMATICS) | (1 << CHIVALRY)
    s.techs[0] |= 1 << 7  # FORESTRY (Mathematics' parent)
    u = s.unit_at[s.b.city_pos[0]]
    s._kill(u)
    s._legal = s._legal_set = None
    spawns = [a for a in s.legal_actions() if a[0] == SPAWN]
    assert {a[2] for a in spawns} >= {WARRIOR, RIDER, DEFENDER, ARCHER, CATAPULT, KNIGHT}
    pick = {sid: SCRIPTS[sid][1](s, 0, spawns, None)[0][2] for sid in range(36, 42)}
    assert pick[36] in (CATAPULT, KNIGHT)  # strongest attack (4)
    assert pick[37] == DEFENDER  # highest defence among these (3)
    assert pick[38] == WARRIOR  # cheapest (2)
    assert pick[39] == KNIGHT  # fastest (3)
    assert pick[40] in (DEFENDER, KNIGHT)  # 15 hp
    assert pick[41] == CATAPULT  # range 3


def test_progressive_unpruning_schedule():
    p = SearchParams()
    n = 10  # |A|
    assert p.prune_t(n) == 20 and p.prune_k(n) == 5  # T = 2|A|, k0 = |A|/2
    assert [p.unprune_limit(n, k) for k in (1, 2, 3)] == [39, 50, 65]  # 3|A|·1.3^k
    assert p.prune_k(1) == 1


@pytest.mark.parametrize("spec", ["pmcts-pu200"])
def test_portfolio_players_legal_and_reproducible(spec):
    states = _states()
    runs = []
    for _ in range(2):
        player = PLAYERS[spec]()
        player.reset(9)
        runs.append([player(s.clone()) for s in states])
    assert runs[0] == runs[1]
    assert all(a in s.legal_actions() for s, a in zip(states, runs[0]))


def test_pruned_children_are_not_selected_until_unpruned():
    from games.tribes.search import _Node, _uct
    s = Tribes(level=0).new_initial_state(random.Random(0))
    moves = [((END_TURN,), h, None) for h in (0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.5, 0.0)]
    node = _Node(s, moves, None, 0)
    for i in range(len(moves)):
        child = _Node(s, (), node, 1)
        child.visits, child.total = 1, 1.0 if moves[i][1] < 0.35 else 0.0  # bad h, good Q
        node.children[i] = child
    node.lo, node.hi = 0.0, 1.0
    params = SearchParams(pruning=True)
    node.visits = 20  # = T for 10 children: prune to the 5 best h
    rng = random.Random(0)
    picked = {node.children.index(_uct(node, params, s.current_player(), rng))
              for _ in range(50)}
    assert picked <= {0, 2, 4, 6, 8} and node.k_plus == 1
    node.visits = 40  # > 39: the next best h (index 7, h = 0.4) comes back
    _uct(node, params, s.current_player(), rng)
    assert node.pruned == [False, True, False, True, False, True, False, False, False, True]
    unpruned = SearchParams()
    node.pruned = None
    picked = {node.children.index(_uct(node, unpruned, s.current_player(), rng))
              for _ in range(5)}
    assert picked & {1, 3, 5, 9}, "without pruning the high-Q, low-h children win"
