"""Typed DSLs on DEAP: the grammar, a safe generator and a compiler to closures.

A DSL is a ``deap.gp.PrimitiveSetTyped`` plus, for each primitive, how it prints
(``Syntax``, see ``gp.syntax``) and what it computes (a *builder* that turns the
children's closures into the node's closure). Programs are
``deap.gp.PrimitiveTree`` objects, so DEAP's operators (``cxOnePoint``,
``mutUniform``, ``staticLimit``) work on them unchanged; we run them without
``eval`` or recursion limits. What a closure takes is the language's choice (its
builders'): e.g. the state and the variables its lambdas bind, or an
interpreter's context.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from deap import gp

from games.api import StrategyBase
from games.spec import resolve

from .syntax import ProgramSyntaxError, ProgramText, Syntax

Closure = Callable[..., Any]
Builder = Callable[..., Closure]


class DSL(ProgramText):
    """A typed primitive set with syntax, builders and a size limit; prints and parses
    its programs through ``ProgramText``."""

    programs_may_fail = False
    """True for a language whose values are untyped, so that a subtree may fail at
    run time (``gp.simplify`` then keeps such subtrees)."""

    def __init__(self, name: str, root_type: type, max_height: int = 12,
                 max_size: int = 80) -> None:
        self.name = name
        self.root_type = root_type
        self.pset = gp.PrimitiveSetTyped(name, [], root_type)
        self.syntax: dict[str, Syntax] = {}
        self.builders: dict[str, Builder] = {}
        self.values: dict[str, Any] = {}
        self.max_height = max_height
        self.max_size = max_size
        self._min_height: dict[type, int] | None = None

    # ---- declaring the language ------------------------------------------------
    def primitive(self, name: str, in_types: Sequence[type], ret: type, syntax: Syntax,
                  builder: Builder) -> None:
        """Declare a primitive; refused (``ValueError`` naming it) if its text would not
        parse back (``ProgramText.syntax_problem``)."""
        self._check_syntax(name, syntax, len(in_types), ret)
        self.pset.addPrimitive(_named(name), list(in_types), ret, name=name)
        self.syntax[name] = syntax
        self.builders[name] = builder
        self._min_height = None

    def terminal(self, name: str, ret: type, syntax: Syntax, builder: Builder) -> None:
        self._check_syntax(name, syntax, 0, ret)
        self.pset.addTerminal(name, ret, name=name)
        self.syntax[name] = syntax
        self.builders[name] = builder
        self._min_height = None

    def _check_syntax(self, name: str, syntax: Syntax, arity: int, ret: type) -> None:
        problem = self.syntax_problem(syntax, arity, ret)
        if problem is not None:
            raise ValueError(f"DSL {self.name}: primitive '{name}': {problem}")

    # ---- generation --------------------------------------------------------------
    def min_heights(self) -> dict[type, int]:
        """Least height of a complete subtree of each type (fixpoint over the grammar)."""
        if self._min_height is not None:
            return self._min_height
        inf = float("inf")
        types = set(self.pset.terminals) | set(self.pset.primitives)
        best: dict[type, float] = {t: inf for t in types}
        for t, terms in self.pset.terminals.items():
            if terms:
                best[t] = 0
        changed = True
        while changed:
            changed = False
            for t, prims in self.pset.primitives.items():
                for prim in prims:
                    h = production_height(prim, best)
                    if h < best[t]:
                        best[t] = h
                        changed = True
        unreachable = [t.__name__ for t, h in best.items() if h == inf]
        if unreachable:
            raise ValueError(f"DSL {self.name}: no finite program of type(s) {unreachable}")
        self._min_height = {t: int(h) for t, h in best.items()}
        return self._min_height

    def _choices(self, type_: type, budget: int) -> list:
        heights = self.min_heights()
        options = [t for t in self.pset.terminals.get(type_, [])]
        options += [p for p in self.pset.primitives.get(type_, [])
                    if production_height(p, heights) <= budget]
        if not options:
            raise ValueError(f"no production of type {type_.__name__} fits height {budget}")
        return options

    def generate(self, rng: random.Random, type_: type | None = None,
                 max_height: int | None = None) -> list:
        """A random complete expression (prefix list) of ``type_``.

        Productions are drawn uniformly among those that can still be completed
        within the height budget (the ``d >= h`` stop of the typed grammar), so
        generation never fails.
        """
        type_ = type_ or self.root_type
        budget = self.max_height if max_height is None else max_height
        budget = max(budget, self.min_heights()[type_])
        out: list = []
        stack = [(type_, budget)]
        while stack:
            t, b = stack.pop()
            node = rng.choice(self._choices(t, b))
            out.append(node)
            if isinstance(node, gp.Primitive):
                for arg in reversed(node.args):
                    stack.append((arg, b - 1))
        return out

    def random_program(self, rng: random.Random, max_height: int | None = None,
                       tries: int = 100) -> gp.PrimitiveTree:
        """A random program of the root type within the size limit."""
        for _ in range(tries):
            tree = gp.PrimitiveTree(self.generate(rng, self.root_type, max_height))
            if len(tree) <= self.max_size:
                return tree
        return gp.PrimitiveTree(self.generate(rng, self.root_type, self.min_heights()[
            self.root_type]))

    def neighbour(self, tree: Sequence, rng: random.Random, max_height: int | None = None,
                  tries: int = 100):
        """Regrow a uniformly chosen subtree with the generator (the SA move of the
        sketch-learning paper).

        The new subtree may be as tall as the height limit allows at its depth;
        candidates over the size limit are drawn again. Works on whole programs
        and on sub-expressions (UCT's holes); returns the same container type.
        """
        limit = self.max_height if max_height is None else max_height
        nodes = list(tree)
        for _ in range(tries):
            index = rng.randrange(len(nodes))
            stop = subtree_end(nodes, index)
            new = self.generate(rng, nodes[index].ret, limit - node_depth(nodes, index))
            candidate = nodes[:index] + new + nodes[stop:]
            if len(candidate) <= self.max_size:
                return type(tree)(candidate)
        return type(tree)(nodes)

    def within_limits(self, tree: gp.PrimitiveTree) -> bool:
        return len(tree) <= self.max_size and tree.height <= self.max_height

    # ---- compile ---------------------------------------------------------------------
    def compile(self, tree: Sequence) -> Closure:
        """Closure of the program, built by one walk over the prefix list (no ``eval``)."""
        stack: list[Closure] = []
        for node in reversed(tree):
            arity = node.arity
            children = [stack.pop() for _ in range(arity)]
            stack.append(self.builders[node.name](*children))
        if len(stack) != 1:
            raise ValueError("malformed program tree")
        return stack[0]

def production_height(primitive: gp.Primitive, heights: Mapping[type, float]) -> float:
    """Least height of a subtree rooted at ``primitive``, given its operand types' least
    heights: one more than its tallest operand's.

    A primitive without operands counts as height 1, one more than a terminal (DEAP's
    tree height would say 0), so a production over it is refused one level before the
    height limit strictly requires. The microRTS language's conditions and ``MoveAway``
    are such primitives, and every microRTS run made so far drew its programs under
    this count: counting 0 would change which programs a seed draws, and the runs would
    no longer resume or replay."""
    return 1 + max((heights.get(a, float("inf")) for a in primitive.args), default=0)


def subtree_end(nodes: Sequence, begin: int) -> int:
    """End (exclusive) of the subtree rooted at ``begin`` in a prefix list."""
    end = begin + 1
    total = nodes[begin].arity
    while total > 0:
        total += nodes[end].arity - 1
        end += 1
    return end


def node_depth(nodes: Sequence, index: int) -> int:
    """Depth of ``nodes[index]`` (the root has depth 0)."""
    open_children: list[int] = []  # children not yet finished, per open ancestor
    for i in range(index):
        if nodes[i].arity:
            open_children.append(nodes[i].arity)
            continue
        while open_children:  # a leaf finishes its parent's child, maybe more
            open_children[-1] -= 1
            if open_children[-1]:
                break
            open_children.pop()
    return len(open_children)


def _named(name: str) -> Callable:
    """DEAP wants a callable per primitive; ours run through builders, so a placeholder."""
    def primitive(*args):
        raise RuntimeError(f"{name}: programs run through DSL.compile, not gp.compile")
    primitive.__name__ = name
    return primitive


class ProgramPlayer(StrategyBase):
    """Shared plumbing of players that run a program of one DSL.

    Subclasses set ``LANGUAGE`` (their default DSL); ``parse_program`` and
    ``default_dsl`` let generic code (program files, synthesis runs) handle them,
    and ``str(player)`` is the program text. A class may declare ``lowerings``:
    engine form name (e.g. ``cantstop.kernel``) -> ``"module:function"`` compiling a
    player into that engine's form (``function(player) -> form or None``), imported
    on first use; an engine asks the player for it (``lowering``).
    """

    LANGUAGE: DSL
    lowerings: ClassVar[Mapping[str, str]] = {}

    def lowering(self, target: str) -> Any:
        """This program in the form of the engine ``target``, or None. Only the
        lowerings declared on the player's own class count: a subclass that changes
        how programs play declares its own."""
        reference = vars(type(self)).get("lowerings", {}).get(target)
        return None if reference is None else resolve(reference)(self)

    @classmethod
    def default_dsl(cls) -> DSL:
        return cls.LANGUAGE

    @classmethod
    def parse_program(cls, text: str, source: str = "<program>"):
        return cls.LANGUAGE.parse(text, source)

    def __str__(self) -> str:
        return self.text


__all__ = ["DSL", "Builder", "Closure", "ProgramPlayer", "ProgramSyntaxError", "Syntax",
           "node_depth", "subtree_end"]
