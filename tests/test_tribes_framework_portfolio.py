"""The Java framework's portfolio (``framework_portfolio``): its offers, values and bugs on
hand-made and reached positions, the rollout draw, and P-MCTS playing with it."""

from __future__ import annotations

import collections
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.tribes import PLAYERS, Tribes
from games.tribes import framework_portfolio as fw
from games.tribes.constants import (
    ALL_TECHS,
    ATTACK,
    BOAT,
    BUILD,
    BUILD_ROAD,
    CATAPULT,
    CLIMBING,
    CROPS,
    DEFENDER,
    DESTROY,
    DISBAND,
    END_TURN,
    EXPLORER,
    FARM,
    FARMING,
    FRESH,
    GATE_OF_POWER,
    KNIGHT,
    LEVEL_UP,
    MONUMENTS,
    PHILOSOPHY,
    RESEARCH,
    RIDING,
    ROADS,
    SHIELDS,
    SPAWN,
    TECH_TIER,
    TEMPLES,
    UPGRADE,
    WARRIOR,
    WORKSHOP,
)
from games.tribes.players import PortfolioMCTS
from games.tribes.portfolio import default_weights, weights_with
from games.tribes.qd import player
from games.tribes.rules import AVAILABLE, MONUMENT_INDEX

W = default_weights()
ROOT = Path(__file__).resolve().parents[1]


def _edited(setup, level: str = "java:0"):
    """The start of ``level`` under rules 4 with tribe 0 to move, edited by ``setup`` and
    rebuilt from its snapshot (so no cached list outlives the edit). java:0: tribe 0's
    capital on tile 29 (row 2, column 7) holds 17, 18, 19, 28, 30, 39, 40, 41."""
    s = Tribes(level=level, rules=4).new_initial_state(random.Random(0))
    s._own_tiles()
    setup(s)
    return Tribes().state_from_dict(s.to_dict())


def _rich(s) -> None:
    s.techs[0], s.stars[0] = ALL_TECHS, 200


def _of(out: list, kind: int) -> list:
    return [(a, h, info) for a, h, info in out if a[0] == kind]


def _reached(n_states: int = 400) -> list:
    """States of games on the framework's levels under rules 4, played by the framework
    portfolio's random assignments (and now and then any legal action)."""
    out = []
    rng = random.Random(7)
    for level in range(4):
        game = Tribes(level=f"java:{level}", rules=4)
        s = game.new_initial_state(random.Random(level))
        while not s.is_terminal() and len(out) < (level + 1) * n_states // 4:
            out.append(s.clone())
            s.apply_action(fw.random_assignment(s, W, rng)[0] if rng.random() < 0.8
                           else rng.choice(s.legal_actions()))
    return out


@pytest.fixture(scope="module")
def reached():
    return _reached()


def test_no_destroy_or_disband_is_ever_assigned():
    def both_rich(s):
        s.techs[:] = [ALL_TECHS, ALL_TECHS]
        s.stars[:] = [200, 200]
    rng = random.Random(3)
    s = _edited(both_rich)
    seen = collections.Counter()
    while not s.is_terminal() and s.turn < 12:
        legal = s.legal_actions()
        seen.update(a[0] for a in legal if a[0] in (DESTROY, DISBAND))
        out = fw.assignments(s, W, random.Random(s.moves))
        assert not {a[0] for a, _, _ in out} & {DESTROY, DISBAND}
        assert not {info[0] for _, _, info in out} & {2, 10}
        for _ in range(50):
            assert fw.random_assignment(s, W, rng)[0][0] not in (DESTROY, DISBAND)
        builds = [a for a in legal if a[0] == BUILD]
        s.apply_action(rng.choice(builds) if builds and rng.random() < 0.5
                       else rng.choice(legal))
    assert seen[DESTROY] and seen[DISBAND], "the positions offered both"


def test_wrappers_offer_the_groups_first_action_at_a_quarter(reached):
    wrapped = 0
    for s in reached:
        groups = {(kind, actor): actions for kind, actor, actions in s.legal_groups()}
        per_group = collections.Counter()
        for a, h, (sid, actor, v, w) in fw.assignments(s, W, random.Random(0)):
            if a[0] in fw.WRAPPERS:
                per_group[a[0], actor] += 1
                assert a == groups[a[0], actor][0] and (v, w, h) == (0.5, 0.5, 0.25)
                if a[0] == UPGRADE:  # UPGRADE_BOAT, UPGRADE_SHIP
                    assert sid == (6 if s.u_type[actor] == BOAT else 7)
                else:
                    assert sid == fw.WRAPPERS[a[0]]
                wrapped += 1
        assert set(per_group.values()) <= {1}
        assert set(per_group) == {key for key in groups if key[0] in fw.WRAPPERS}
    assert wrapped > len(reached)  # END_TURN and more


def test_research_values_by_tier_and_a_single_research_action():
    def stars(s):
        s.stars[0] = 100
    s = _edited(stars)  # Imperius: Organization researched
    out = _of(fw.assignments(s, W, random.Random(0)), RESEARCH)
    by_script = {info[0]: (a, info[2]) for a, _, info in out}
    assert all(v == (4 - TECH_TIER[a[1]]) / 4 for a, v in by_script.values())
    assert by_script[15][0][1] in (FARMING, SHIELDS) and by_script[15][1] == 0.5  # tier 2
    assert by_script[17] == ((RESEARCH, CLIMBING), 0.75)  # tier 1
    farms = {next(a for a, _, info in fw.assignments(s, W, random.Random(k)) if info[0] == 15)
             for k in range(100)}
    assert farms == {(RESEARCH, FARMING), (RESEARCH, SHIELDS)}, "tier-2 ties at random"

    def one_left(s):
        s.techs[0], s.stars[0] = ALL_TECHS & ~(1 << PHILOSOPHY), 100
    s = _edited(one_left)
    assert [a for a in s.legal_actions() if a[0] == RESEARCH] == [(RESEARCH, PHILOSOPHY)]
    out = _of(fw.assignments(s, weights_with([0.0, 1.0, 1.0, 1.0, 1.0] + [0.5] * 6),
                             random.Random(0)), RESEARCH)
    # every research script offers it at 0.5; the first (farms, weight 0) keeps it
    assert out == [((RESEARCH, PHILOSOPHY), 0.0, (15, -1, 0.5, 0.0))]


def test_spawn_scripts_max_stat_at_one_and_the_first_scripts_pick_kept():
    def empty_capital(s):
        _rich(s)
        s._kill(s.unit_at[29])
    s = _edited(empty_capital)
    spawns = [a[2] for a in s.legal_actions() if a[0] == SPAWN]
    assert spawns == list(range(8))  # warrior .. mind bender, Types.UNIT's order
    evolved = [0.5] * 5 + [0.1, 0.2, 0.3, 0.4, 0.6, 0.7]  # σ36..σ41
    w = weights_with(evolved)
    w[48] = 1.0  # not a SPAWN or RESEARCH script: the framework keeps 0.5
    out = _of(fw.assignments(s, w, random.Random(0)), SPAWN)
    assert [(a[2], info[0], info[2], info[3]) for a, _, info in out] == [
        (CATAPULT, 36, 1.0, 0.1),  # strongest: the first with attack 4
        (DEFENDER, 37, 1.0, 0.2),  # defence 3
        (WARRIOR, 38, 0.0, 0.3),   # cheapest: 1 - 2/2, the warrior comes first
        (KNIGHT, 39, 1.0, 0.4),    # movement 3
    ]  # σ40 (defender, hp 15) and σ41 (catapult, range 3) repeat earlier picks: dropped
    assert all(h == pytest.approx(info[2] * info[3]) for _, h, info in out)
    assert fw.script_weights(w)[48] == 0.5 and fw.script_weights(w)[41] == 0.7


def test_monuments_and_temples_are_never_offered():
    def monument_ready(s):
        _rich(s)
        s.monuments[MONUMENT_INDEX[GATE_OF_POWER]] = AVAILABLE
    s = _edited(monument_ready)
    builds = [a for a in s.legal_actions() if a[0] == BUILD]
    assert any(a[3] == GATE_OF_POWER for a in builds)
    assert any(a[3] in TEMPLES for a in builds)
    out = fw.assignments(s, W, random.Random(0))
    assert _of(out, BUILD), "other buildings are offered"
    assert not [a for a, _, _ in out if a[0] == BUILD and a[3] in MONUMENTS + TEMPLES]
    assert not {34, 35} & {info[0] for _, _, info in out}


def test_level_up_duplicates_dropped_so_the_first_script_wins():
    def grown(s):
        s.c_pop[0] = 2  # level 1: due to level up
    s = _edited(grown)
    assert s.legal_actions() == [(LEVEL_UP, 0, WORKSHOP), (LEVEL_UP, 0, EXPLORER)]
    # growth and military both pick the workshop; nobody picks the explorer
    assert fw.assignments(s, W) == [((LEVEL_UP, 0, WORKSHOP), 0.25, (24, 0, 0.5, 0.5))]


def test_attacks_max_damage_is_the_first_at_zero_and_closest_is_euclidean():
    def two_targets(s):
        s._new_unit(DEFENDER, 39, 1, -1, FRESH)  # diagonal from 29, first in tile order
        s._new_unit(WARRIOR, 40, 1, -1, FRESH)   # straight below 29
        s.u_status[s.unit_at[29]] = FRESH
    s = _edited(two_targets)
    u = s.unit_at[29]
    attacks = [a for a in s.legal_actions() if a[0] == ATTACK]
    first, below = (ATTACK, u, s.unit_at[39]), (ATTACK, u, s.unit_at[40])
    assert attacks == [first, below]
    ctx = fw._Ctx(s, 0)
    assert fw.SCRIPTS[56](56, s, 0, u, attacks, ctx) == (56, (first,), 0.0)
    assert fw.SCRIPTS[54](54, s, 0, u, attacks, ctx) == (54, (below,), 1 - 1 / math.sqrt(2))
    assert fw.SCRIPTS[55](55, s, 0, u, attacks, ctx) == (55, (below,), 1 - 2 / 3)
    out = _of(fw.assignments(s, W, random.Random(0)), ATTACK)
    # weakest (v 1/3) and strongest pick what closest picked: closest's value stays
    assert [(a, info[0], info[2]) for a, _, info in out] == [
        (below, 54, 1 - 1 / math.sqrt(2)), (first, 56, 0.0)]


def test_a_base_building_is_offered_only_where_a_later_site_ties_the_best():
    def crops(*tiles):
        def setup(s):
            s.techs[0] |= 1 << FARMING
            s.stars[0] = 50
            for t in tiles:
                s.resource[t] = CROPS
        return setup
    # one farm site (28): its own best, dropped by buildBaseBuilding
    s = _edited(crops(28))
    assert [a for a in s.legal_actions() if a[0] == BUILD] == [(BUILD, 0, 28, FARM)]
    assert not _of(fw.assignments(s, W, random.Random(0)), BUILD)
    # two sites (28, 39) whose best windmill neighbour (27 for both, next to the crops
    # of 28 and 39) is worth 2/8: the later one is offered at 0.25
    s = _edited(crops(28, 39))
    assert _of(fw.assignments(s, W, random.Random(0)), BUILD) == [
        ((BUILD, 0, 39, FARM), 0.125, (31, 0, 0.25, 0.5))]


def test_roads_next_to_the_capitals_grid_even_with_every_city_connected():
    def roads(s):
        s.techs[0] |= (1 << RIDING) | (1 << ROADS)
        s.stars[0] = 50
    s = _edited(roads)
    legal = [a for a in s.legal_actions() if a[0] == BUILD_ROAD]
    assert len(legal) > 10
    ctx = fw._Ctx(s, 0)
    # one city, none connected (the capital never counts): the script still runs
    assert fw.SCRIPTS[11](11, s, 0, -1, legal, ctx) == (
        11, ((BUILD_ROAD, 28), (BUILD_ROAD, 30), (BUILD_ROAD, 39)), 0.5)
    s.apply_action((BUILD_ROAD, 28))  # the grid grows by 28: its neighbours join
    legal = [a for a in s.legal_actions() if a[0] == BUILD_ROAD]
    sid, cands, v = fw.SCRIPTS[11](11, s, 0, -1, legal, fw._Ctx(s, 0))
    assert [a[1] for a in cands] == [27, 30, 38, 39]  # around 28 and 29, on land


def test_values_the_framework_bugs_fix_on_reached_positions(reached):
    seen = collections.Counter()
    for s in reached:
        legal = set(s.legal_actions())
        for a, h, (sid, _, v, w) in fw.assignments(s, W, random.Random(1)):
            assert a in legal and h == v * w and 0.0 <= v <= 1.0
            assert sid not in (2, 10, 34, 35, 53)
            seen[sid] += 1
            if sid in (13, 38, 56):  # grow forest, spawn cheapest, max damage
                assert v == 0.0
            elif sid == 12:  # burn forest: the farm's score is always 0
                assert v <= 0.5
            elif sid in (51, 52):  # attack range, converge: only at a full neighbourhood
                assert v == 1.0
    level_ups = sum(1 for s in reached if s.legal_actions()[0][0] == LEVEL_UP)
    assert seen[1] + level_ups == len(reached) and seen[45] and seen[36] and seen[15]


def test_random_assignment_lists_only_what_assignments_lists(reached):
    """Each drawn assignment is in the list ``assignments`` makes with some seed (its
    scripts' draws among equals make the lists differ from seed to seed)."""
    rng = random.Random(5)
    drawn = 0
    for s in reached[::20]:
        lists: set = set()
        seeds = iter(range(3000))
        for _ in range(200):
            a, h, info = fw.random_assignment(s, W, rng)
            assert h == info[2] * info[3]
            while (a, info) not in lists:
                k = next(seeds)  # StopIteration: no seed lists it
                lists.update((b, i) for b, _, i in fw.assignments(s, W, random.Random(k)))
            drawn += 1
    assert drawn == 200 * len(reached[::20])


def test_random_assignment_is_uniform_over_a_fixed_list(reached):
    checked = 0
    for s in reached[5::13]:
        lists = {tuple(fw.assignments(s, W, random.Random(k))) for k in range(20)}
        if len(lists) != 1:
            continue  # the scripts draw among equals here
        full = collections.Counter((a, info) for a, _, info in lists.pop())
        rng = random.Random(2)
        n = 4000
        drawn = collections.Counter()
        for _ in range(n):
            a, _, info = fw.random_assignment(s, W, rng)
            drawn[a, info] += 1
        assert set(drawn) == set(full)
        assert max(abs(drawn[k] / n - 1 / len(full)) for k in full) < 0.025
        checked += 1
    assert checked >= 3


def test_kept_offers_equal_offers_worked_out_afresh():
    """Along games the offers kept between states (unit memos, the module's memos) give
    the lists a state rebuilt from its snapshot with empty memos gives."""
    checked = 0
    for level in ("java:1", "java:5"):
        game = Tribes(level=level, rules=4)
        s = game.new_initial_state(random.Random(3))
        rng = random.Random(4)
        while not s.is_terminal() and s.turn < 25:
            k = rng.getrandbits(30)
            kept = fw.assignments(s, W, random.Random(k))
            for memo in (fw._ACTION_MEMO, fw._TILE_MEMO, fw._TOWARDS_MEMO, fw._GOAL_MEMO,
                         fw._TABLES):
                memo.clear()
            assert kept == fw.assignments(game.state_from_dict(s.to_dict()), W,
                                          random.Random(k)), s.moves
            checked += 1
            s.apply_action(fw.random_assignment(s, W, rng)[0])
    assert checked > 300


def test_player_specs_and_options():
    for name, bias, pruning in (("pmcts-fw", False, False), ("pmcts-b-fw", True, False),
                                ("pmcts-pu-fw", True, True)):
        made = player(f"{name}:70")
        assert made.portfolio == "framework" and made.params.budget == 70
        assert (made.params.bias, made.params.pruning) == (bias, pruning)
        assert made.params.bias_denominator == "code" and made.params.prune_ties_last
    paper = PLAYERS["pmcts-pu"]()
    assert paper.portfolio == "paper" and not paper.params.prune_ties_last
    with pytest.raises(ValueError, match="portfolio"):
        PortfolioMCTS(portfolio="java")


def test_framework_pruning_keeps_the_last_listed_of_tied_children():
    from games.tribes.search import SearchParams, _Node, _uct
    s = Tribes(level=0).new_initial_state(random.Random(0))
    moves = [((END_TURN,), h, None) for h in (0.5, 0.25, 0.25, 0.25, 0.25, 0.0)]
    for last, kept in ((False, [0, 1, 2]), (True, [0, 4, 3])):
        node = _Node(s, moves, None, 0)
        for i in range(len(moves)):
            node.children[i] = child = _Node(s, (), node, 1)
            child.visits, child.total = 1, 0.5
        node.visits, node.lo, node.hi = 12, 0.0, 1.0  # T = 2 * 6
        _uct(node, SearchParams(pruning=True, prune_ties_last=last), s.current_player(),
             random.Random(0))
        assert [i for i, p in enumerate(node.pruned) if not p] == sorted(kept)


def test_same_seed_same_decision_in_another_process():
    s = Tribes(level="java:2", rules=4).new_initial_state(random.Random(0))
    rng = random.Random(8)
    for _ in range(60):
        s.apply_action(fw.random_assignment(s, W, rng)[0])
    here = []
    for _ in range(2):
        made = player("pmcts-pu-fw:50")
        made.reset(11)
        here.append(made(s.clone()))
    assert here[0] == here[1]
    code = (
        "import json, random, sys\n"
        "from games.tribes import Tribes\n"
        "from games.tribes.qd import player\n"
        "game = Tribes(level='java:2', rules=4)\n"
        "s = game.state_from_dict(json.loads(sys.stdin.read()))\n"
        "made = player('pmcts-pu-fw:50')\n"
        "made.reset(11)\n"
        "print(json.dumps(made(s)))\n")
    # a fresh process: empty memos, its own hash seeds
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(s.to_dict()),
                          capture_output=True, text=True, cwd=ROOT, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert tuple(json.loads(done.stdout)) == here[0]


def test_a_whole_game_against_the_framework_configured_mcts():
    game = Tribes(level="java:0", rules=4)
    s = game.new_initial_state(random.Random(0))
    seats = [player("pmcts-pu-fw:30"), player("mcts-fw:30")]
    for i, seat in enumerate(seats):
        seat.reset(i)
    decisions = 0
    while not s.is_terminal():
        action = seats[s.current_player()](s)
        assert action in s.legal_actions()
        s.apply_action(action)
        decisions += 1
    assert s.is_terminal() and decisions > 100


def test_a_framework_player_starts_each_game_with_empty_memos():
    """A game must not depend on the games the process played before it: the module's
    memos are emptied when a framework player is reset for a game."""
    from games.tribes import framework_portfolio as fp

    state = Tribes(level="java:0", rules=4).new_initial_state(random.Random(0))
    player = PLAYERS["pmcts-pu-fw"]()
    player.reset(0)
    fp.assignments(state, player.weights, random.Random(0))
    fp.random_assignment(state, player.weights, random.Random(0))
    memos = (fp._GOAL_MEMO, fp._ACTION_MEMO, fp._TOWARDS_MEMO, fp._TILE_MEMO)
    assert any(memos)
    player.reset(1)
    assert not any(memos)
    paper = PLAYERS["pmcts-pu"]()
    fp.assignments(state, player.weights, random.Random(0))
    paper.reset(2)  # the paper portfolio's player leaves them alone
    assert any(memos)


def test_road_offers_see_a_road_the_opponent_built_next_to_the_grid(reached):
    """A road of either tribe extends the capital's trade grid (``calcHotspots``) but
    not the road candidates of the tribe to move (so a search's simulated turn and the
    game's same turn may share them): the road script must still see it."""
    checked = 0
    for s in reached:
        p = s.current_player()
        groups = [g for g in s.legal_groups() if g[0] == BUILD_ROAD]
        if not groups:
            continue
        _, actor, actions = groups[0]
        cands = {a[1] for a in actions}
        hot = fw._road_hotspots(s, p)
        for x in range(s.b.n):
            newly = {m for m in s.b.nbr[x] if m in cands and not hot[m]}
            if not hot[x] or s.road[x] or x in cands or not newly:
                continue
            before = fw._offers(s, p, BUILD_ROAD, actor, actions, fw._Ctx(s, p))
            assert not newly & {a[1] for a in before.offers[0][1]}
            t = s.clone()
            t._own_tiles()
            t.road[x] = 1  # the opponent's road, as the forward model writes it
            assert t.tile_candidates()[0] is s.tile_candidates()[0]
            after = fw._offers(t, p, BUILD_ROAD, actor, actions, fw._Ctx(t, p))
            assert newly <= {a[1] for a in after.offers[0][1]}, (x, s.moves)
            checked += 1
            break
    assert checked >= 3


def test_the_framework_tree_never_reads_the_bias_without_pruning(reached):
    """P-MCTS and P-MCTS(B) decide alike in the framework's tree (so Table I copies one's
    games into the other's rows), while in our tree the bias changes decisions."""
    states = reached[::8]

    def decisions(**options) -> list:
        made = []
        for s in states:
            search = PortfolioMCTS(budget=200, portfolio="framework", bias_denominator="code",
                                   **options)
            search.reset(5)
            made.append(search(s.clone()))
        return made

    assert decisions(tree="framework") == decisions(tree="framework", bias=True)
    assert decisions(tree="ours") != decisions(tree="ours", bias=True)
