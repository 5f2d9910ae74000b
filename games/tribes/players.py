"""Tribes players of the play-styles paper: random, one-step look-ahead, the rule-based simple
agent, MCTS, RHEA and Portfolio MCTS.

Search players count their budget in forward-model calls (``apply_action`` on a
copy), 2,000 per decision by default as in the play-styles paper; rollouts and individuals are
20 actions long and C = √2. A state is valued by the framework's differential
heuristic (``TribesDiffHeuristic``): for each tribe 5·Δproduction + 4·Δtechnologies
+ 0.1·Δscore + 4·Δcities + 2·Δunits + 3·Δkills + 2·Δ(sum of city levels) between the
decision state and the state reached; the value is the own sum minus the opponent's
plus the own change in explored tiles and in the number of cities connected to the
capital (the framework's ``scoreOwn``; ``Heuristic(connected_term="grew")`` is the
earlier reading, +1 only when that number grew). The tree search brings these rewards
into [0, 1] by each node's min / max, as the framework does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import partial

from . import framework_portfolio
from .constants import (
    ATTACK,
    BORDER_GROWTH,
    BUILD,
    BUILDING_POP,
    BURN_FOREST,
    CAPTURE,
    CITY_WALL,
    CLEAR_FOREST,
    CONVERT,
    DESTROY,
    DISBAND,
    END_TURN,
    EXAMINE,
    EXPLORER,
    GROW_FOREST,
    HEAL_OTHERS,
    LEVEL_UP,
    MAKE_VETERAN,
    MONUMENTS,
    MOVE,
    PARK,
    POP_GROWTH,
    RECOVER,
    RESEARCH,
    RESOURCE,
    RESOURCES,
    SPAWN,
    SUPER,
    TECH_TIER,
    TEMPLES,
    UNIT_ATK,
    UNIT_COST,
    UNIT_DEF,
    UNIT_POINTS,
    UPGRADE,
    WORKSHOP,
)
from .portfolio import NUM_SCRIPTS, assignments, default_weights, random_assignment
from .rules import TribesState
from .search import SearchParams, copy_state, search

FEATURE_NAMES = ("production", "techs", "score", "cities", "units", "kills", "city_levels")
DIFF_WEIGHTS = (5.0, 4.0, 0.1, 4.0, 2.0, 3.0, 2.0)
"""TribesDiffHeuristic's weights, in FEATURE_NAMES order."""


def features(state: TribesState, p: int) -> tuple[int, ...]:
    units = 0
    u_tribe, u_type = state.u_tribe, state.u_type
    for u in range(len(u_tribe)):
        if u_tribe[u] == p and u_type[u] >= 0:
            units += 1
    cities = levels = 0
    c_level = state.c_level
    for c, t in enumerate(state.c_tribe):
        if t == p:
            cities += 1
            levels += c_level[c]
    return (state.production(p), bin(state.techs[p]).count("1"), state.score[p], cities, units,
            state.kills[p], levels)


CONNECTED_TERMS = ("change", "grew")
"""How the heuristic counts cities connected to the capital: ``"change"``, the signed
change in their number (the framework's ``TribesDiffHeuristic.scoreOwn``); ``"grew"``,
+1 when their number grew and 0 otherwise (the reading every Tribes run before the
option existed was played with)."""


class Heuristic:
    """value(root, state, p): the differential heuristic above (unbounded; the tree
    search normalises it). ``win_bonus`` (0 in the framework) is added for a won game
    and subtracted for a lost one. ``connected_term``: one of ``CONNECTED_TERMS``."""

    def __init__(self, weights: Sequence[float] = DIFF_WEIGHTS, win_bonus: float = 0.0,
                 connected_term: str = "change") -> None:
        if len(weights) != len(FEATURE_NAMES):
            raise ValueError(f"{len(FEATURE_NAMES)} weights expected ({FEATURE_NAMES})")
        if connected_term not in CONNECTED_TERMS:
            raise ValueError(f"connected_term is one of {CONNECTED_TERMS}, not {connected_term!r}")
        self.weights = tuple(weights)
        self.win_bonus = win_bonus
        self.connected_term = connected_term

    def root(self, state: TribesState) -> tuple:
        return (features(state, 0), features(state, 1), tuple(state.n_explored),
                tuple(state.connected))

    def value(self, root: tuple, state: TribesState, p: int = 0) -> float:
        total = 0.0
        mine, theirs = features(state, p), features(state, 1 - p)
        r_mine, r_theirs = root[p], root[1 - p]
        for w, a, a0, b, b0 in zip(self.weights, mine, r_mine, theirs, r_theirs):
            total += w * ((a - a0) - (b - b0))
        total += state.n_explored[p] - root[2][p]
        if state.connected[p] != root[3][p]:
            grown = bin(state.connected[p]).count("1") - bin(root[3][p]).count("1")
            if self.connected_term == "change":
                total += grown
            elif grown > 0:
                total += 1.0
        if state.over and self.win_bonus and state.won_by is not None:
            total += self.win_bonus if state.won_by == p else -self.win_bonus
        return total


class _Seeded:
    name = "tribes-player"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)


class OneStepLookAhead(_Seeded):
    """Plays the legal action whose resulting state the heuristic values most
    (at most ``budget`` actions tried, sampled when there are more)."""

    name = "osla"

    def __init__(self, budget: int = 2000, seed: int = 0,
                 heuristic: Heuristic | None = None) -> None:
        super().__init__(seed)
        self.budget = budget
        self.heuristic = heuristic or Heuristic()

    def __call__(self, state: TribesState):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        root = self.heuristic.root(state)
        candidates = legal if len(legal) <= self.budget else self.rng.sample(legal, self.budget)
        best, best_value = [], -1.0
        for action in candidates:
            child = state.clone()
            child.apply_action(action)
            value = self.heuristic.value(root, child, p)
            if action[0] == END_TURN:
                value -= 1e-6  # end the turn only when nothing else helps
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[self.rng.randrange(len(best))]


class SimpleAgent(_Seeded):
    """Rule-based player in the spirit of the framework's SimpleAgent: every legal
    action gets a hand-made score, the best positive one is played (ties at random),
    and the turn ends when no action scores above zero."""

    name = "simple"

    def __call__(self, state: TribesState):
        legal = state.legal_actions()
        p = state.current_player()
        targets = _targets(state, p)
        best, best_score = [], 0.0
        for action in legal:
            score = self._score(state, p, action, targets)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score and best:
                best.append(action)
        if not best:  # a pending level-up leaves no END_TURN; it always scores > 0
            return (END_TURN,)
        return best[self.rng.randrange(len(best))]

    def _score(self, s: TribesState, p: int, a: tuple, targets: list[int]) -> float:
        kind = a[0]
        if kind == CAPTURE:
            return 100.0
        if kind == ATTACK:
            dealt, back = s.attack_result(a[1], a[2])
            if dealt >= s.u_hp[a[2]]:
                return 60.0 + UNIT_POINTS[s.u_type[a[2]]] / 10
            return 20.0 + dealt - back
        if kind == LEVEL_UP:
            return 50.0 + {WORKSHOP: 3, EXPLORER: 1, CITY_WALL: 1, RESOURCES: 3, POP_GROWTH: 3,
                           BORDER_GROWTH: 1, PARK: 1, SUPER: 4}[a[2]]
        if kind == MAKE_VETERAN:
            return 45.0
        if kind == EXAMINE:
            return 40.0
        if kind == RESOURCE:
            return 30.0
        if kind == BUILD:
            bt = a[3]
            if bt in MONUMENTS:
                return 35.0
            if bt in TEMPLES:
                return 5.0
            return 15.0 + BUILDING_POP.get(bt, 1)
        if kind == RESEARCH:
            return 12.0 - 3 * TECH_TIER[a[1]] + self.rng.random()
        if kind == SPAWN:
            ut = a[2]
            n_units = len(s.units_of(p))
            if n_units >= 2 * len(s.cities_of(p)) + 2:
                return 0.0
            return 18.0 + (UNIT_ATK[ut] + UNIT_DEF[ut]) / max(1, UNIT_COST[ut])
        if kind == MOVE:
            if not targets:
                return 0.0
            u, t = a[1], a[2]
            here = s.u_pos[u]
            d0 = min(s.b.cheb(here, g) for g in targets)
            d1 = min(s.b.cheb(t, g) for g in targets)
            if s.u_hp[u] * 2 < s.max_hp(u) and d1 < d0:
                return 0.0
            return 10.0 + 3 * (d0 - d1) if d1 < d0 else 0.0
        if kind == RECOVER:
            return 8.0 if s.u_hp[a[1]] * 2 < s.max_hp(a[1]) else 0.0
        if kind in (HEAL_OTHERS, CONVERT, UPGRADE):
            return 25.0
        if kind == CLEAR_FOREST:
            return 2.0
        return 0.0  # END_TURN, roads, burning/growing forests, destroy, disband


def _targets(s: TribesState, p: int) -> list[int]:
    """Tiles worth walking to: cities and villages not ours, and enemy units."""
    out = [s.b.city_pos[c] for c, t in enumerate(s.c_tribe) if t != p]
    out += [s.u_pos[u] for u in range(len(s.u_type)) if s.u_tribe[u] == 1 - p]
    return out


def _random_legal(state: TribesState, rng: random.Random):
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


class _PlainMoves(Sequence):
    """A state's legal actions as the search's move tuples (action, h 0, no label), each
    made when the search reads it: most of a node's actions are never expanded."""

    __slots__ = ("actions",)

    def __init__(self, actions: list[tuple]) -> None:
        self.actions = actions

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, i: int) -> tuple:
        return (self.actions[i], 0.0, None)


def _plain_moves(state: TribesState) -> _PlainMoves:
    return _PlainMoves(state.legal_actions())


class _TreeSearch(_Seeded):
    """A player deciding by ``games.tribes.search`` over the moves ``_moves`` offers,
    with rollouts of ``_rollout`` (state, rng -> action) and the heuristic's
    differential value; by default single legal actions and uniform rollouts."""

    params: SearchParams
    heuristic: Heuristic
    _moves = staticmethod(_plain_moves)
    _rollout = staticmethod(_random_legal)

    @property
    def budget(self) -> int:
        return self.params.budget

    prioritise_root = False

    def __call__(self, state: TribesState):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root_moves = None
        if self.prioritise_root:
            group = action_group(state, self.rng)
            if not group:
                return (END_TURN,)
            root_moves = [(a, 0.0, None) for a in group]
        me = state.current_player()
        root_f = self.heuristic.root(state)
        value = partial(self.heuristic.value, root_f, p=me)
        return search(state, self.params, self._moves, self._rollout, value, self.rng,
                      root_moves)[0]


_CITY_KINDS = frozenset((BUILD, SPAWN, LEVEL_UP, RESOURCE, BURN_FOREST, CLEAR_FOREST,
                         GROW_FOREST))
_UNIT_KINDS = frozenset(range(MOVE, DISBAND + 1))


def action_group(state: TribesState, rng: random.Random) -> list[tuple]:
    """The framework's prioritised root (``Agent.determineActionGroup``): one of the
    groups city actions (destroying left out), unit actions and tribe actions (research,
    roads, diplomacy and end turn; only when there is more than end turn), drawn
    uniformly among those that are not empty. The unit group keeps disbanding (the
    framework filters it only to decide whether the group is there)."""
    legal = state.legal_actions()
    city = [a for a in legal if a[0] in _CITY_KINDS]
    unit = [a for a in legal if a[0] in _UNIT_KINDS]
    tribe = [a for a in legal if a[0] not in _CITY_KINDS and a[0] not in _UNIT_KINDS
             and a[0] != DESTROY]
    groups = [g for g in (city, unit, tribe if len(tribe) > 1 else []) if g]
    if not groups:
        return []
    return groups[rng.randrange(len(groups))]


class MCTS(_TreeSearch):
    """The framework's MCTS: closed-loop UCT over single actions (C = √2), every child
    expanded before UCT, random rollouts to a horizon of ``rollout_length`` actions
    (tree depth included), heuristic rewards in [0, 1] normalised per node, budget in
    forward-model calls per decision, the most visited root action played
    (games.tribes.search). ``rollouts=False`` and ``prioritise_root=True`` are the
    framework's tournament configuration (``tournament.json`` ``"Rollouts": false``,
    ``Run.getAgent``'s ``PRIORITIZE_ROOT = true``): new leaves valued as they stand, the
    root branching on one action group drawn at random (``action_group``).
    ``framework_details``: fresh chance in every copy and the framework's tie-breaks
    (``SearchParams.fresh_chance``, ``framework_ties``)."""

    name = "mcts"

    def __init__(self, budget: int = 2000, rollout_length: int = 20, c: float = math.sqrt(2),
                 seed: int = 0, heuristic: Heuristic | None = None, rollouts: bool = True,
                 prioritise_root: bool = False, framework_details: bool = False) -> None:
        super().__init__(seed)
        self.params = SearchParams(budget=budget, rollout_length=rollout_length, c=c,
                                   rollouts=rollouts, fresh_chance=framework_details,
                                   framework_ties=framework_details)
        self.prioritise_root = prioritise_root
        self.heuristic = heuristic or Heuristic()


class PortfolioMCTS(_TreeSearch):
    """Portfolio MCTS (Perez-Liebana et al. 2021, §III-B): the tree branches on action assignments
    ⟨σ, actor, a, v(a), w_σ⟩ produced by the 57 scripts of Table III at each node;
    rollouts play random assignments. ``bias`` adds progressive bias, ``pruning``
    progressive unpruning (P-MCTS(B): bias; P-MCTS(PU): unpruning, with bias as in
    the reference code's defaults). ``weights``: w_σ for σ = 1..57 (index 0 unused).
    ``unprune_schedule``: ``"code"`` (the reference code's reading, the default) or
    ``"printed"`` (the paper's formula read literally; see ``search``).
    ``portfolio``: ``"paper"`` (Table III's scripts as we read them, ``portfolio.py``) or
    ``"framework"`` (the Java framework's ``SimplePortfolio``, its bugs kept,
    ``framework_portfolio.py``; its weights: those of the SPAWN and RESEARCH scripts,
    0.5 for the rest, and pruning keeps children tied on h last-listed first, as its
    prune heuristic does). Both draw their random picks from the player's seeded rng.
    ``tree``: ``"ours"`` (UCT over every selectable child, the most visited root child
    played) or ``"framework"`` (the framework's ``PortfolioTreeNode`` with its bugs:
    see ``SearchParams.framework_tree``). ``framework_details`` as for ``MCTS``."""

    name = "pmcts"
    PORTFOLIOS = ("paper", "framework")
    TREES = ("ours", "framework")

    def __init__(self, budget: int = 2000, rollout_length: int = 20, c: float = math.sqrt(2),
                 bias: bool = False, pruning: bool = False, weights: Sequence[float] | None = None,
                 bias_denominator: str = "paper", seed: int = 0,
                 heuristic: Heuristic | None = None, unprune_schedule: str = "code",
                 portfolio: str = "paper", tree: str = "ours",
                 framework_details: bool = False) -> None:
        super().__init__(seed)
        if portfolio not in self.PORTFOLIOS:
            raise ValueError(f"portfolio is one of {self.PORTFOLIOS}, not {portfolio!r}")
        if tree not in self.TREES:
            raise ValueError(f"tree is one of {self.TREES}, not {tree!r}")
        self.portfolio, self.tree = portfolio, tree
        self.params = SearchParams(budget=budget, rollout_length=rollout_length, c=c, bias=bias,
                                   pruning=pruning, bias_denominator=bias_denominator,
                                   unprune_schedule=unprune_schedule,
                                   prune_ties_last=portfolio == "framework",
                                   framework_tree=tree == "framework",
                                   fresh_chance=framework_details,
                                   framework_ties=framework_details)
        self.weights = list(weights) if weights is not None else default_weights()
        if len(self.weights) != NUM_SCRIPTS + 1:
            raise ValueError(f"weights needs {NUM_SCRIPTS + 1} entries (index 0 unused)")
        self.heuristic = heuristic or Heuristic()

    def reset(self, seed: int) -> None:
        super().reset(seed)
        if self.portfolio == "framework":
            framework_portfolio.clear_memos()

    def _moves(self, state: TribesState) -> list[tuple]:
        if self.portfolio == "framework":
            return framework_portfolio.assignments(state, self.weights, self.rng)
        return assignments(state, self.weights)

    def _rollout(self, state: TribesState, rng: random.Random):
        if self.portfolio == "framework":
            return framework_portfolio.random_assignment(state, self.weights, rng)[0]
        return random_assignment(state, self.weights, rng)[0]


def _random_good(state: TribesState, rng: random.Random):
    """A random legal action, avoiding Destroy and Disband when possible: drawn again up to
    8 times (our RHEA's reading of the framework's ``allGoodActions``)."""
    legal = state.legal_actions()
    action = legal[int(rng.random() * len(legal))]
    for _ in range(8):
        if action[0] != DESTROY and action[0] != DISBAND:
            break
        action = legal[int(rng.random() * len(legal))]
    return action


def _random_good_framework(state: TribesState, rng: random.Random):
    """A random action uniform over the legal ones but Destroy and Disband, the
    framework's ``allGoodActions`` (drawn again until one is neither; the full list only
    if every legal action is one of the two)."""
    legal = state.legal_actions()
    for _ in range(64):
        action = legal[int(rng.random() * len(legal))]
        if action[0] != DESTROY and action[0] != DISBAND:
            return action
    good = [a for a in legal if a[0] != DESTROY and a[0] != DISBAND] or legal
    return good[int(rng.random() * len(good))]


def _apply_planned(sim: TribesState, action) -> bool:
    """Apply a planned action if the framework's RHEA would (``checkActionFeasibility``:
    the game not over, and ``isFeasible``, which passes some actions the lists never
    offer: ``TribesState.is_feasible``); whether it did."""
    if sim.over:
        return False
    if sim.is_legal(action):
        sim.apply_legal(action)
        return True
    if sim.is_feasible(action):
        sim.apply_feasible(action)
        return True
    return False


class RHEA(_Seeded):
    """The framework's RHEA with population 1: an individual is a sequence of up to
    ``length`` actions played from the current state; an action that is no longer legal
    is replaced by a random one. The first decision of a turn starts from a random
    individual, later ones shift the best individual by one action (refilled at the
    end); then the best is mutated (each action replaced by a random one with
    probability ``mutation_rate``, 0.1) and replaced when the mutant is not worse,
    until the budget of forward-model calls is spent.

    ``framework_details=True`` plays ``RHEAAgent`` line by line: the shifted plan is
    replayed up to its first action no longer feasible, the rest kept, and random
    actions appended until 20 have been simulated (plans grow past 20 actions); a
    mutant runs the whole plan; random steps are uniform over the legal actions but
    Destroy and Disband; a planned action is kept when ``isFeasible`` passes it
    (``TribesState.is_feasible``, looser than the lists under rules version 4, so the
    player may return an action the lists do not offer, as the framework's does); at
    least one mutant per decision; and every copy of the state draws its own chance."""

    name = "rhea"

    def __init__(self, budget: int = 2000, length: int = 20, mutation_rate: float = 0.1,
                 seed: int = 0, heuristic: Heuristic | None = None,
                 framework_details: bool = False) -> None:
        super().__init__(seed)
        self.budget, self.length, self.mutation_rate = budget, length, mutation_rate
        self.heuristic = heuristic or Heuristic()
        self.framework_details = framework_details
        self._best: list[tuple] | None = None
        self._turn: tuple[int, int] | None = None

    def reset(self, seed: int) -> None:
        super().reset(seed)
        self._best, self._turn = None, None

    def _play(self, state: TribesState, genes: Sequence[tuple], mutate: bool, me: int,
              root_f) -> tuple[list[tuple], float, int]:
        rng = self.rng
        sim = state.clone()
        out: list[tuple] = []
        for gene in genes:
            if sim.over or len(out) >= self.length:
                break
            if mutate and rng.random() < self.mutation_rate:
                action = _random_good(sim, rng)
            else:
                action = gene if sim.is_legal(gene) else _random_good(sim, rng)
            sim.apply_legal(action)  # legal: checked, or drawn from the legal list
            out.append(action)
        while not sim.over and len(out) < self.length:
            action = _random_good(sim, rng)
            sim.apply_legal(action)
            out.append(action)
        return out, self.heuristic.value(root_f, sim, me), max(len(out), 1)

    def _fill(self, sim: TribesState, out: list[tuple], done: int) -> int:
        """Random actions appended to ``out`` from ``sim`` until ``length`` are simulated."""
        rng = self.rng
        while not sim.over and done < self.length:
            action = _random_good_framework(sim, rng)
            sim.apply_legal(action)
            out.append(action)
            done += 1
        return done

    def _shift_framework(self, state: TribesState, genes: Sequence[tuple], me: int,
                         root_f) -> tuple[list[tuple], float, int]:
        """``RHEAAgent.shift``: the shifted plan replayed while feasible, the rest kept,
        random actions appended."""
        sim = copy_state(state, True, self.rng)
        out = list(genes)
        done = 0
        while done < len(out) and _apply_planned(sim, out[done]):
            done += 1
        calls = self._fill(sim, out, done)
        return out, self.heuristic.value(root_f, sim, me), calls

    def _mutate_framework(self, state: TribesState, genes: Sequence[tuple], me: int,
                          root_f) -> tuple[list[tuple], float, int]:
        """``RHEAAgent.mutate``: each action replaced at random with probability
        ``mutation_rate`` or when no longer feasible, over the whole plan."""
        rng = self.rng
        sim = copy_state(state, True, rng)
        out: list[tuple] = []
        for gene in genes:
            if sim.over:
                break
            if rng.random() < self.mutation_rate or not _apply_planned(sim, gene):
                gene = _random_good_framework(sim, rng)
                sim.apply_legal(gene)
            out.append(gene)
        return out, self.heuristic.value(root_f, sim, me), len(out)

    def _new_framework(self, state: TribesState, me: int,
                       root_f) -> tuple[list[tuple], float, int]:
        """``RHEAAgent.newRandomIndividual``."""
        sim = copy_state(state, True, self.rng)
        out: list[tuple] = []
        calls = self._fill(sim, out, 0)
        return out, self.heuristic.value(root_f, sim, me), calls

    def __call__(self, state: TribesState):
        legal = state.legal_actions()
        me = state.current_player()
        turn = (state.turn, me)
        root_f = self.heuristic.root(state)
        new_turn = self._best is None or turn != self._turn
        self._turn = turn
        if self.framework_details:
            best, best_value, calls = self._new_framework(state, me, root_f) if new_turn \
                else self._shift_framework(state, self._best[1:], me, root_f)
            while True:  # RHEAAgent.rheaLoop: at least one generation
                child, value, used = self._mutate_framework(state, best, me, root_f)
                calls += used
                if value >= best_value:
                    best, best_value = child, value
                if calls >= self.budget:
                    break
        else:
            genes: Sequence[tuple] = () if new_turn else self._best[1:]  # shift buffer
            best, best_value, calls = self._play(state, genes, False, me, root_f)
            while calls < self.budget:
                child, value, used = self._play(state, best, True, me, root_f)
                calls += used
                if value >= best_value:
                    best, best_value = child, value
        self._best = best
        action = best[0] if best else legal[0]
        return action


__all__ = ["DIFF_WEIGHTS", "FEATURE_NAMES", "Heuristic", "MCTS", "OneStepLookAhead",
           "PortfolioMCTS", "RHEA", "SimpleAgent", "features"]
