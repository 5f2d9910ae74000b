"""The tree search shared by MCTS and Portfolio MCTS (Perez-Liebana et al. 2021), as the framework's
``PortfolioTreeNode`` does it.

* Closed loop: every node keeps its state. A node's children are its *moves*
  (plain legal actions for MCTS, action assignments for P-MCTS), each with a prior
  h (v(a)·w_σ for assignments, 0 for MCTS). All children are expanded once, in
  random order, before UCT picks among them.
* Tree depth and rollout share one horizon: a rollout from a node at depth d plays
  ``rollout_length − d`` random moves (so the tree never grows past that depth).
* Rewards: the heuristic value of the reached state for the deciding player; each
  node normalises its children's means into [0, 1] by the min/max reward it saw.
* UCT: Q + C·sqrt(ln(N+1)/(n+ε)) [+ φ]; at nodes where the opponent moves the
  lowest value is chosen (the UCT values are inverted).
* Progressive bias (``bias``): φ = h/(1 + n) as in the paper (``bias_denominator=
  "code"`` gives the reference code's h/(n + ε)).
* Progressive unpruning (``pruning``): with A = |children|, once N ≥ T = ⌊2A⌋ only
  the k0 = max(⌊A/2⌋, 1) children of highest h stay selectable; the next best is
  unpruned each time N exceeds ⌊⌊3A⌋·1.3^k⌋ (k = unprunings so far + 1; the code's
  A_mult 1.5 on T is the paper's α_β = 3.0 on |A|). That is the reference code's
  reading (``unprune_schedule="code"``, the default) and Chaslot et al.'s original
  form A·B^k. The paper prints the schedule as β2·β1^(k−k0) with β1 = |A|·α_β and
  β2 = 1.3, which read literally puts the base and the factor the other way round:
  ``unprune_schedule="printed"`` unprunes the k-th time when N > ⌊1.3·⌊3A⌋^k⌋. Both
  give the first unpruning at N > ⌊3.9A⌋; the printed one the second at 11.7·A², so
  at 2,000 calls a node with more than a dozen children unprunes once at most.
* ``rollouts=False`` values a new leaf as it stands (the framework's tournament
  setting); the root may branch on a subset of the moves (``root_moves``: the
  framework's prioritised root, ``Agent.determineActionGroup``).
* Budget: forward-model calls, counted as the framework does: one per expansion,
  per tree step and per rollout action; the search stops once the count exceeds
  the budget. The most visited root child is played (ties: best mean).
* ``fresh_chance`` gives every copy of the state a generator of its own, drawn from
  the player's (the framework's ``GameState.copy`` makes each copy a new ``Random``), so
  a search does not meet the chance outcomes the game will produce; without it a copy
  carries its generator and replays them. ``framework_ties`` breaks ties as the
  framework's nodes do: noise (x + ε)(1 + ε(r − ½)) on the best mean as well (a root
  whose children all mean 0 picks one at random, not the first), and rewards
  normalised whenever min < max (ours: when the range exceeds 10⁻¹²).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from .rules import TribesState

EPSILON = 1e-6
UNPRUNE_SCHEDULES = ("code", "printed")
"""Progressive unpruning's schedule: the reference code's reading, or the paper's formula
as printed (see the module docstring)."""


class SearchParams:
    """Parameters of one tree search (defaults: the play-styles paper)."""

    def __init__(self, budget: int = 2000, rollout_length: int = 20, c: float = math.sqrt(2),
                 bias: bool = False, pruning: bool = False, bias_denominator: str = "paper",
                 k_mult: float = 0.5, t_mult: float = 2.0, a_mult: float = 1.5,
                 b: float = 1.3, rollouts: bool = True, unprune_schedule: str = "code",
                 prune_ties_last: bool = False, framework_tree: bool = False,
                 fresh_chance: bool = False, framework_ties: bool = False) -> None:
        if budget < 1 or rollout_length < 1:
            raise ValueError("budget and rollout_length must be >= 1")
        if bias_denominator not in ("paper", "code"):
            raise ValueError("bias_denominator is 'paper' (1 + n) or 'code' (n + ε)")
        if unprune_schedule not in UNPRUNE_SCHEDULES:
            raise ValueError(f"unprune_schedule is one of {UNPRUNE_SCHEDULES}, "
                             f"not {unprune_schedule!r}")
        self.unprune_schedule = unprune_schedule
        self.budget, self.rollout_length, self.c = budget, rollout_length, c
        self.bias, self.pruning, self.bias_denominator = bias, pruning, bias_denominator
        self.k_mult, self.t_mult, self.a_mult, self.b = k_mult, t_mult, a_mult, b
        self.prune_ties_last = prune_ties_last
        self.framework_tree = framework_tree
        """True: the framework's ``PortfolioTreeNode`` as it is (framework bugs, kept on
        purpose): ``uct`` values only the children a pruned node keeps (``if(pruned !=
        null && !pruned[i])``) and leaves the others at 0, so a node not yet pruned (any
        node without pruning) always descends into its first child, and at the
        opponent's nodes a pruned child (0) wins the minimum; and the root plays its
        child of best mean (``bestAction``), not the most visited."""
        """True: when pruning, children tied on h are kept last-listed first, as the
        framework's ``PrunePortfolioHeuristic.prune`` ranks them (its TreeSet comparator
        puts a later entry before an equal one); False: first-listed first."""
        self.rollouts = rollouts
        """False: a new leaf is valued as it stands (the framework's ``Rollouts: false``
        in its ``tournament.json``); the tree still grows to ``rollout_length``."""
        self.fresh_chance = fresh_chance
        self.framework_ties = framework_ties
        self.span_floor = 0.0 if framework_ties else 1e-12
        """Normalise a node's rewards only when their range exceeds this."""

    def prune_t(self, n: int) -> int:
        return int(n * self.t_mult)

    def prune_k(self, n: int) -> int:
        return max(int(n * self.k_mult), 1)

    def unprune_limit(self, n: int, k_plus: int) -> float:
        """Visits of a node with ``n`` children after which its ``k_plus``-th unpruning
        happens: ⌊⌊3n⌋·1.3^k⌋ (the code) or ⌊1.3·⌊3n⌋^k⌋ (as printed in the paper)."""
        beta1 = int(self.prune_t(n) * self.a_mult)
        if self.unprune_schedule == "code":
            return int(beta1 * self.b ** k_plus)
        if k_plus * math.log(max(beta1, 1)) > 60:  # beyond any budget; avoids a float overflow
            return math.inf
        return int(self.b * beta1 ** k_plus)


Moves = Callable[[TribesState], Sequence[tuple]]
"""state -> list of (action, h, label) the node branches on."""


class _Node:
    __slots__ = ("state", "moves", "children", "parent", "visits", "total", "lo", "hi",
                 "depth", "pruned", "k_plus", "mover")

    def __init__(self, state: TribesState, moves: Sequence[tuple], parent: _Node | None,
                 depth: int) -> None:
        self.state = state
        self.moves = moves
        self.children: list[_Node | None] = [None] * len(moves)
        self.parent = parent
        self.visits = 0
        self.total = 0.0
        self.lo, self.hi = math.inf, -math.inf
        self.depth = depth
        self.pruned: list[bool] | None = None
        self.k_plus = 0
        self.mover = state.current_player()


def copy_state(state: TribesState, fresh_chance: bool, rng: random.Random) -> TribesState:
    """A copy of ``state`` for a search; with ``fresh_chance`` its chance comes from a
    generator seeded from ``rng`` instead of replaying the game's."""
    copy = state.clone()
    if fresh_chance:
        copy.rng = rng.getrandbits(64)
    return copy


def search(state: TribesState, params: SearchParams, moves: Moves, rollout_move: Callable,
           value: Callable[[TribesState], float], rng: random.Random,
           root_moves: Sequence[tuple] | None = None) -> tuple:
    """One decision: the chosen move tuple (action, h, label) of the root (branching on
    ``root_moves`` when given, else on ``moves(state)``)."""
    me = state.current_player()
    fresh = params.fresh_chance
    root = _Node(copy_state(state, fresh, rng),
                 moves(state) if root_moves is None else root_moves, None, 0)
    calls = 0
    L = params.rollout_length
    while calls <= params.budget:
        node = root
        # tree policy
        while not node.state.over and node.depth < L:
            unexpanded = [i for i, ch in enumerate(node.children) if ch is None]
            if unexpanded:
                i = unexpanded[rng.randrange(len(unexpanded))]
                child_state = copy_state(node.state, fresh, rng)
                child_state.apply_legal(node.moves[i][0])
                calls += 1
                child = _Node(child_state, moves(child_state) if not child_state.over else (),
                              node, node.depth + 1)
                node.children[i] = child
                node = child
                break
            node = _uct(node, params, me, rng)
            calls += 1
        # rollout
        sim = node.state
        depth = node.depth
        if params.rollouts and not sim.over and depth < L:
            sim = copy_state(sim, fresh, rng)
            while depth < L and not sim.over:
                sim.apply_legal(rollout_move(sim, rng))
                calls += 1
                depth += 1
        reward = value(sim)
        n = node
        while n is not None:
            n.visits += 1
            n.total += reward
            if reward < n.lo:
                n.lo = reward
            if reward > n.hi:
                n.hi = reward
            n = n.parent
        if node is root and root.state.over:  # pragma: no cover - agents never search a
            break                             # finished game
    plus = EPSILON if params.framework_ties else 0.0
    if params.framework_tree:
        return root.moves[_best_mean(root, rng, plus)]
    return root.moves[_most_visited(root, rng, plus)]


def _uct(node: _Node, params: SearchParams, me: int, rng: random.Random) -> _Node:
    n_children = len(node.children)
    if params.pruning and node.visits >= params.prune_t(n_children):
        if node.k_plus == 0:
            keep = params.prune_k(n_children)
            order = sorted(range(n_children - 1, -1, -1) if params.prune_ties_last
                           else range(n_children), key=lambda i: -node.moves[i][1])
            node.pruned = [True] * n_children
            for i in order[:keep]:
                node.pruned[i] = False
            node.k_plus = 1
        elif node.visits > params.unprune_limit(n_children, node.k_plus):
            ties, best_h = [], -math.inf
            for i in range(n_children):
                if node.pruned[i]:
                    h = node.moves[i][1]
                    if h > best_h:
                        ties, best_h = [i], h
                    elif h == best_h:
                        ties.append(i)
            if ties:  # the best pruned child by h, ties at random (as the reference)
                node.pruned[ties[rng.randrange(len(ties))]] = False
                node.k_plus += 1
    if params.framework_tree:
        return _framework_uct(node, params, me, rng)
    lo, hi = node.lo, node.hi
    span = hi - lo
    log_n = math.log(node.visits + 1)
    maximise = node.mover == me
    best_child, best_v = None, -math.inf if maximise else math.inf
    pruned = node.pruned
    code_bias = params.bias_denominator == "code"
    for i, child in enumerate(node.children):
        if pruned is not None and pruned[i]:
            continue
        q = child.total / (child.visits + EPSILON)
        q = (q - lo) / span if span > params.span_floor else q
        v = q + params.c * math.sqrt(log_n / (child.visits + EPSILON))
        if params.bias:
            h = node.moves[i][1]
            v += h / (child.visits + EPSILON) if code_bias else h / (1 + child.visits)
        v = (v + EPSILON) * (1.0 + EPSILON * (rng.random() - 0.5))  # random tie-break
        if (maximise and v > best_v) or (not maximise and v < best_v):
            best_child, best_v = child, v
    if best_child is None:  # pragma: no cover - cannot happen with at least one child
        best_child = node.children[rng.randrange(n_children)]
    return best_child


def _uct_value(node: _Node, child: _Node, h: float, params: SearchParams, log_n: float,
               rng: random.Random) -> float:
    """A child's UCT value with the bias and the random tie-break."""
    lo, hi = node.lo, node.hi
    span = hi - lo
    q = child.total / (child.visits + EPSILON)
    q = (q - lo) / span if span > params.span_floor else q
    v = q + params.c * math.sqrt(log_n / (child.visits + EPSILON))
    if params.bias:
        v += h / (child.visits + EPSILON) if params.bias_denominator == "code" \
            else h / (1 + child.visits)
    return (v + EPSILON) * (1.0 + EPSILON * (rng.random() - 0.5))


def _framework_uct(node: _Node, params: SearchParams, me: int, rng: random.Random) -> _Node:
    """The framework's ``PortfolioTreeNode.uct`` after its pruning step, bugs kept
    (``SearchParams.framework_tree``): values for the children a pruned node keeps, 0
    for every other child; the first best in list order."""
    pruned = node.pruned
    if pruned is None:  # every value 0: the first child, whoever moves
        return node.children[0]
    log_n = math.log(node.visits + 1)
    maximise = node.mover == me
    which, best_v = 0, -math.inf if maximise else math.inf
    for i, child in enumerate(node.children):
        v = 0.0 if pruned[i] else _uct_value(node, child, node.moves[i][1], params, log_n, rng)
        if (maximise and v > best_v) or (not maximise and v < best_v):
            which, best_v = i, v
    return node.children[which]


def _best_mean(root: _Node, rng: random.Random, plus: float = 0.0) -> int:
    """The root child of best mean reward, ties broken at random (the framework's
    ``bestAction``; ``plus`` = ε as the framework adds it before the noise, 0 as ours)."""
    best, best_v = 0, -math.inf
    for i, ch in enumerate(root.children):
        if ch is not None:
            v = (ch.total / (ch.visits + EPSILON) + plus) * (1.0 + EPSILON * (rng.random() - 0.5))
            if v > best_v:
                best, best_v = i, v
    return best


def _most_visited(root: _Node, rng: random.Random, plus: float = 0.0) -> int:
    best, best_v = 0, -math.inf
    visits = [ch.visits if ch is not None else -1 for ch in root.children]
    seen = [v for v in visits if v >= 0]
    if seen and all(v == seen[0] for v in seen):  # all equal: best mean instead
        return _best_mean(root, rng, plus)
    for i, v in enumerate(visits):
        if v >= 0:
            noisy = (v + EPSILON) * (1.0 + EPSILON * (rng.random() - 0.5))
            if noisy > best_v:
                best, best_v = i, noisy
    return best
