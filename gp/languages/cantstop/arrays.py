"""Can't Stop sketch programs compiled to array expressions for the fast engine.

``DSL.compile`` turns a program into a tree of closures called once per
decision. The fast engine (``games.cantstop.fast``) decides for all live matches
at once, so here a program becomes closures over numpy arrays: the score line
gives one value per match, the column line one action slot per match.

Shapes: a value at the top has shape (n,) (n live matches, always the last
axis). ``lambda a:`` over ``actions`` puts an axis of the 6 padded action slots
in front, and every ``map(lambda c: ..., list)`` another in front of that, of
the list's length (3 neutral slots, or the 2 columns of an action); ``sum`` over
a mapped list adds along that first axis under the list's mask. Lists carry
size-1 axes for the variables they do not depend on, so numpy broadcasting
lines every value up. Constant subexpressions are
folded, so dead ``if 5 < 5`` branches cost nothing.

Exactness: the reference computes with Python integers, here int64. Each node
carries a bound on its absolute value (leaves have known ranges, sums multiply
by the list length, products multiply bounds); a program whose bound passes
2**62 is not compiled (the batch then runs on the reference engine), so no
value can overflow and every comparison and argmax is the reference's.
Compiled programs are cached by program text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from games.cantstop import fast
from games.cantstop.players import GLENN_ALOI

from . import (
    DSLS,
    MOVE_VALUE,
    PROGRESS_VALUE,
    THRESHOLD,
    SketchStrategy,
)

LIMIT = 1 << 62
PV = np.array(PROGRESS_VALUE, dtype=np.int64)
MV = np.array(MOVE_VALUE, dtype=np.int64)
DIFFICULTY_BOUND = GLENN_ALOI.odds + GLENN_ALOI.evens + GLENN_ALOI.highs + GLENN_ALOI.lows
OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply}
PY_OPS = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__}


class Unsupported(ValueError):
    """A program the array compiler does not run (unknown primitive or too large values)."""


class Expr:
    """A compiled numeric node: a constant ``value`` or a function ``fn(pos, c)``,
    with ``bound`` >= |value| for every position."""

    __slots__ = ("value", "fn", "bound")

    def __init__(self, value: int | None = None, fn: Callable | None = None,
                 bound: int = 0) -> None:
        self.value = value
        self.fn = fn
        self.bound = abs(value) if fn is None else bound
        if self.bound >= LIMIT:
            raise Unsupported("values may exceed 64-bit integers")

    def __call__(self, pos, c):
        return self.value if self.fn is None else self.fn(pos, c)


class ListExpr:
    """A list of columns at a depth: ``fn(pos, c) -> (values, mask)`` with a new last
    axis of ``length`` entries, each at most 12."""

    __slots__ = ("fn", "length")

    def __init__(self, fn: Callable, length: int) -> None:
        self.fn = fn
        self.length = length


class _Tree:
    """A prefix list read as nested (name, children)."""

    def __init__(self, nodes) -> None:
        self.nodes = list(nodes)
        self.i = 0

    def next(self) -> tuple[str, list]:
        node = self.nodes[self.i]
        self.i += 1
        return node.name, [None] * node.arity


class ArrayProgram:
    """A sketch program on arrays: ``stops(pos)`` and ``columns(pos)`` per live match."""

    def __init__(self, tree, dsl) -> None:
        self.dsl = dsl
        reader = _Tree(tree)
        name, _ = reader.next()
        if name != "program":
            raise Unsupported(f"root {name!r} is not a sketch program")
        self.score = self._num(reader, ())
        self.choose = self._choice(reader)
        if reader.i != len(reader.nodes):
            raise Unsupported("malformed program tree")

    # ---- the two holes -------------------------------------------------------------
    def stops(self, pos) -> np.ndarray:
        decided = pos.stopping_wins
        score = self.score(pos, None)
        if self.score.fn is None:
            return decided | (~pos.can_place_new_neutral & bool(score >= THRESHOLD))
        return decided | (~pos.can_place_new_neutral & (score >= THRESHOLD))

    def columns(self, pos) -> np.ndarray:
        out = self.choose(pos)
        return np.zeros(pos.n, dtype=np.int64) if isinstance(out, int) else out

    # ---- compiling ------------------------------------------------------------------
    def _split(self, name: str) -> tuple[str, str]:
        head, _, scope = name.rpartition("_")
        return head, scope

    def _choice(self, reader: _Tree):
        name, _ = reader.next()
        if name == "column_argmax":
            body = self._num(reader, ("a",))
            if body.fn is None:
                return lambda pos: 0

            def argmax(pos):
                value = np.broadcast_to(body(pos, None), (fast.MAX_LEGAL, pos.n))
                return np.where(pos.action_mask, value, fast.BIG_NEGATIVE).argmax(0)
            return argmax
        if name == "column_if":
            x, y = self._num(reader, ()), self._num(reader, ())
            yes, no = self._choice(reader), self._choice(reader)
            if x.fn is None and y.fn is None:
                return yes if x.value < y.value else no

            def choose_if(pos):
                return np.where(np.asarray(x(pos, None) < y(pos, None)), yes(pos), no(pos))
            return choose_if
        raise Unsupported(f"unknown column primitive {name!r}")

    def _num(self, reader: _Tree, axes: tuple[str, ...]) -> Expr:
        name, _ = reader.next()
        if name.startswith("score_"):
            head = name[len("score_"):]
        else:
            head, _scope = self._split(name)
        depth = len(axes)
        if head in OPS:
            x, y = self._num(reader, axes), self._num(reader, axes)
            if x.fn is None and y.fn is None:
                return Expr(PY_OPS[head](x.value, y.value))
            op = OPS[head]
            bound = x.bound * y.bound if head == "mul" else x.bound + y.bound
            return Expr(fn=lambda pos, c: op(x(pos, c), y(pos, c)), bound=bound)
        if head == "if":
            x, y = self._num(reader, axes), self._num(reader, axes)
            yes, no = self._num(reader, axes), self._num(reader, axes)
            if x.fn is None and y.fn is None:
                return yes if x.value < y.value else no
            return Expr(fn=lambda pos, c: np.where(x(pos, c) < y(pos, c), yes(pos, c),
                                                   no(pos, c)),
                        bound=max(yes.bound, no.bound))
        if head == "sumc":
            lst = self._list(reader, axes)
            return Expr(fn=lambda pos, c: lst.fn(pos, c)[0].sum(0), bound=12 * lst.length)
        if head == "sumn":
            return self._sum_map(reader, axes)
        syntax = self.dsl.syntax.get(name)
        if syntax is not None and syntax.kind == "lit" and syntax.text.isdigit():
            return Expr(int(syntax.text))
        return self._leaf(head, axes, depth)

    def _sum_map(self, reader: _Tree, axes: tuple[str, ...]) -> Expr:
        name, _ = reader.next()
        head, _scope = self._split(name)
        if head != "map":
            raise Unsupported(f"sum over {name!r}")
        body = self._num(reader, axes + ("c",))
        lst = self._list(reader, axes)
        bound = body.bound * lst.length
        if body.fn is None:
            value = body.value
            return Expr(fn=lambda pos, c: lst.fn(pos, c)[1].sum(0) * value, bound=bound)

        def total(pos, c):
            values, mask = lst.fn(pos, c)
            return np.where(mask, body(pos, values), 0).sum(0)
        return Expr(fn=total, bound=bound)

    def _list(self, reader: _Tree, axes: tuple[str, ...]) -> ListExpr:
        name, _ = reader.next()
        head, _scope = self._split(name)
        depth = len(axes)
        if head == "neutrals":
            shape = (3,) + (1,) * depth

            def neutrals(pos, c):
                return (pos.b.nc.reshape(shape + (pos.n,)),
                        pos.neutral_mask.reshape(shape + (pos.n,)))
            return ListExpr(neutrals, 3)
        if head == "columns":
            if not axes or axes[0] != "a":
                raise Unsupported("columns(a) outside the action lambda")
            shape = (2,) + (1,) * (depth - 1) + (fast.MAX_LEGAL,)

            def columns(pos, c):
                cols = pos.action_columns
                return cols.reshape(shape + (pos.n,)), (cols > 0).reshape(shape + (pos.n,))
            return ListExpr(columns, 2)
        raise Unsupported(f"unknown list primitive {name!r}")

    def _leaf(self, head: str, axes: tuple[str, ...], depth: int) -> Expr:
        readers = {"advanced": fast.Position.advanced_at, "secured": fast.Position.own_at,
                   "opponent_secured": fast.Position.opponent_at,
                   "is_new_neutral": fast.Position.new_neutral_at}
        if head in readers:
            if not axes or axes[-1] != "c":
                raise Unsupported(f"{head}(c) outside a column lambda")
            read = readers[head]
            return Expr(fn=lambda pos, c: read(pos, c), bound=1 if head == "is_new_neutral" else 13)
        if head in ("progress_value", "move_value"):
            if not axes or axes[-1] != "c":
                raise Unsupported(f"{head}[c] outside a column lambda")
            table = PV if head == "progress_value" else MV
            return Expr(fn=lambda pos, c: table[c], bound=int(table.max()))
        if head == "advance_of":
            if not axes or axes[0] != "a":
                raise Unsupported("advance_of(a) outside the action lambda")
            return Expr(fn=lambda pos, c: pos.advance_of, bound=2)
        if head == "difficulty":
            return Expr(fn=lambda pos, c: pos.difficulty(GLENN_ALOI), bound=DIFFICULTY_BOUND)
        raise Unsupported(f"unknown primitive {head!r}")


@lru_cache(maxsize=4096)
def _compiled(dsl_name: str, text: str) -> ArrayProgram | None:
    dsl = DSLS[dsl_name]
    try:
        return ArrayProgram(dsl.parse(text), dsl)
    except Unsupported:
        return None


def array_program(player: SketchStrategy) -> ArrayProgram | None:
    """The player's program on arrays (cached by text), or None if it cannot be compiled."""
    if DSLS.get(player.dsl.name) is not player.dsl:
        try:
            return ArrayProgram(player.tree, player.dsl)
        except Unsupported:
            return None
    return _compiled(player.dsl.name, player.text)

