"""UCT over partial programs (Medeiros, Aleixo and Lelis 2022).

A tree node is a partial program: a prefix list whose open slots are holes of a
type. A child applies one production rule to the leftmost hole. Selection uses
X̄_j + K·sqrt(ln N / N_j) (K = 10); a simulation completes the partial program at
random and runs one simulated-annealing schedule that may change only what
filled the holes; the best value it saw is backed up. Evaluations are cached by
program text (the fitness cache), and the best program evaluated is the result.

Sketch-UCT's best-response search starts with the branch of a given program
inserted (its leftmost derivation is its prefix order) and backed up with its Ψ; the
program may be partial (its holes are then the inserted node's open slots).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from deap import gp

from .dsl import DSL
from .evaluator import BudgetSpent, Evaluator
from .sa import SimulatedAnnealing


@dataclass(frozen=True)
class Hole:
    """An open slot of type ``ret`` at ``depth`` in a partial program."""

    ret: type
    depth: int
    arity = 0


@dataclass
class Node:
    partial: tuple
    untried: list | None = None
    children: dict = field(default_factory=dict)
    visits: int = 0
    total: float = 0.0

    @property
    def complete(self) -> bool:
        return not any(isinstance(n, Hole) for n in self.partial)


class UCT:
    def __init__(self, dsl: DSL, evaluator: Evaluator, rng: random.Random,
                 metric: str | None = None, k: float = 10.0, rollout_evaluations: int | None = None,
                 on_improve=None) -> None:
        self.dsl = dsl
        self.evaluator = evaluator
        self.rng = rng
        self.metric = metric
        self.k = k
        self.rollout_evaluations = rollout_evaluations
        self.on_improve = on_improve
        self.best_value = -math.inf
        self.root = Node((Hole(dsl.root_type, 0),))
        self.rollout_partial: tuple | None = None
        """The partial program (a node's) whose simulation is running: ``on_improve``
        may read it to know which node a new best program came from."""

    # ---- tree moves ------------------------------------------------------------
    def _productions(self, hole: Hole) -> list:
        return self.dsl._choices(hole.ret, self.dsl.max_height - hole.depth)

    def _apply(self, partial: tuple, production) -> tuple:
        i = next(i for i, n in enumerate(partial) if isinstance(n, Hole))
        hole = partial[i]
        new = [production] + [Hole(arg, hole.depth + 1) for arg in getattr(production, "args", [])]
        return partial[:i] + tuple(new) + partial[i + 1:]

    def _child(self, node: Node, production) -> Node:
        key = production.name
        if key not in node.children:
            node.children[key] = Node(self._apply(node.partial, production))
        return node.children[key]

    def _untried(self, node: Node) -> list:
        if node.untried is None:
            hole = next(n for n in node.partial if isinstance(n, Hole))
            node.untried = [p for p in self._productions(hole) if p.name not in node.children]
            self.rng.shuffle(node.untried)
        return node.untried

    def _select(self, node: Node) -> Node:
        log_n = math.log(max(node.visits, 1))
        best, best_score = None, -math.inf
        for child in node.children.values():
            if child.visits == 0:
                return child
            score = child.total / child.visits + self.k * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    # ---- simulation --------------------------------------------------------------
    def _score(self, tree) -> float:
        value = self.evaluator.score(tree, self.metric)
        if value > self.best_value:
            self.best_value = value
            if self.on_improve is not None:
                self.on_improve(tree, value)
        return value

    def _assemble(self, partial: Sequence, fills: Sequence[list]) -> gp.PrimitiveTree:
        out, k = [], 0
        for n in partial:
            if isinstance(n, Hole):
                out += fills[k]
                k += 1
            else:
                out.append(n)
        return gp.PrimitiveTree(out)

    def _simulate(self, partial: tuple) -> float:
        self.rollout_partial = partial
        holes = [n for n in partial if isinstance(n, Hole)]
        if not holes:
            return self._score(gp.PrimitiveTree(partial))
        budgets = [self.dsl.max_height - h.depth for h in holes]
        fixed = len(partial) - len(holes)
        room = self.dsl.max_size - fixed
        fills = None
        for _ in range(100):
            fills = [self.dsl.generate(self.rng, h.ret, b) for h, b in zip(holes, budgets)]
            if sum(map(len, fills)) <= room:
                break
        else:  # the smallest completion always fits: holes exist only where it does
            fills = [self.dsl.generate(self.rng, h.ret, 0) for h in holes]

        def neighbour(current, rng):
            sizes = [len(f) for f in current]
            for _ in range(100):
                pick = rng.randrange(sum(sizes))
                k = 0
                while pick >= sizes[k]:
                    pick -= sizes[k]
                    k += 1
                new = list(current)
                new[k] = self.dsl.neighbour(current[k], rng, budgets[k])
                if sum(sizes) - sizes[k] + len(new[k]) <= room:
                    return new
            return list(current)

        used_before = self.evaluator.budget.used
        limit = self.rollout_evaluations

        def until():
            return limit is not None and self.evaluator.budget.used - used_before >= limit

        sa = SimulatedAnnealing(self.evaluator, self.rng, metric=self.metric)
        sa_best = -math.inf

        def track(candidate, value):
            nonlocal sa_best
            sa_best = max(sa_best, value)
            if value > self.best_value:
                self.best_value = value
                if self.on_improve is not None:
                    self.on_improve(self._assemble(partial, candidate), value)

        sa.run(fills, neighbour, until=until, restart=False,
               tree_of=lambda f: self._assemble(partial, f), on_improve=track)
        if self.evaluator.budget.used == used_before:  # not one evaluation: budget spent
            raise BudgetSpent()
        return sa_best

    # ---- search --------------------------------------------------------------------
    def insert_branch(self, tree: Sequence, value: float) -> None:
        """Add the derivation of ``tree`` to the search tree and back up ``value``.

        ``tree`` is a program or a partial program (a node's ``partial``): its
        productions in prefix order are its leftmost derivation; holes are skipped,
        so the branch ends at the node with that partial program."""
        node = self.root
        path = [node]
        for production in tree:
            if isinstance(production, Hole):
                continue
            node = self._child(node, production)
            if node.untried is not None and production in node.untried:
                node.untried.remove(production)
            path.append(node)
        for n in path:
            n.visits += 1
            n.total += value
        # keep untried lists consistent with the inserted children
        for n in path:
            if n.untried is not None:
                n.untried = [p for p in n.untried if p.name not in n.children]

    def run(self) -> None:
        try:
            while True:
                node, path = self.root, [self.root]
                while not node.complete:
                    untried = self._untried(node)
                    if untried:
                        node = self._child(node, untried.pop())
                        path.append(node)
                        break
                    node = self._select(node)
                    path.append(node)
                value = self._simulate(node.partial)
                for n in path:
                    n.visits += 1
                    n.total += value
        except BudgetSpent:
            pass
