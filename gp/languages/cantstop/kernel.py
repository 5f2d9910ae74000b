"""Can't Stop sketch programs flattened for the compiled kernel (``games.cantstop.kernel``).

A program becomes code for a small stack machine inside the kernel
(``kernel_jit.run_program``): int64 rows (opcode, argument) in postfix order, with
jumps for ``if`` and loops for ``sum(map(lambda c: body, list))`` (binding each
column of the list in turn) and ``argmax(map(lambda a: body, actions))`` (binding
each legal move's slot). So no program is ever compiled by numba: a new program
costs one walk over its tree (tens of microseconds), not a JIT compilation.

Constant subexpressions are folded (so dead ``if 5 < 5`` branches cost
nothing). Exactness: the reference computes with Python integers, the kernel
with int64. Each node carries a bound on its absolute value (as in
``cantstop_compile``: leaves have known ranges, sums multiply by the list's
length, products multiply bounds); a program whose bound reaches 2**62 is not
flattened (it plays on the numpy engine, which refuses it too, and so on the
reference engine). Flattened programs are cached by program text.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from . import (
    APPENDIX_CONSTANTS_DSL,
    CANTSTOP_DSL,
    MOVE_VALUE,
    PROGRESS_VALUE,
    REFERENCE_SECURED_DSL,
    SketchStrategy,
)
from .arrays import DIFFICULTY_BOUND, LIMIT

KERNEL_DSLS = {dsl.name: dsl for dsl in (CANTSTOP_DSL, APPENDIX_CONSTANTS_DSL,
                                         REFERENCE_SECURED_DSL)}
"""The DSLs the kernel runs: ``secured`` reads the permanent markers, except in
``cantstop-reference`` (``REFERENCE_SECURED``), which reads it the reference code's way."""
REFERENCE_SECURED = {REFERENCE_SECURED_DSL.name}

LEAF_BOUNDS = {"advanced": 13, "secured": 14, "opponent_secured": 14, "is_new_neutral": 1,
               "progress_value": max(PROGRESS_VALUE), "move_value": max(MOVE_VALUE),
               "advance_of": 2, "difficulty": DIFFICULTY_BOUND}
LIST_LENGTH = {"neutrals": 3, "columns": 2}


class Unsupported(ValueError):
    """A program the kernel does not run (unknown primitive or too large values)."""


class Node:
    """A node of the folded tree before it is written as code: opcode, children,
    value (constants), bound on its absolute value."""

    __slots__ = ("op", "kids", "value", "bound")

    def __init__(self, op: int, kids: tuple = (), value: int = 0, bound: int = 0) -> None:
        self.op, self.kids, self.value = op, kids, value
        self.bound = abs(value) if op == _ops().OP_CONST else bound
        if self.bound >= LIMIT:
            raise Unsupported("values may exceed 64-bit integers")

    @property
    def const(self) -> bool:
        return self.op == _ops().OP_CONST


def _ops():
    from games.cantstop import kernel_jit

    return kernel_jit


class Flattener:
    """Reads a program's prefix list into ``Node``s (folding constants) and writes rows."""

    def __init__(self, tree, dsl) -> None:
        self.dsl = dsl
        self.names = [node.name for node in tree]
        self.i = 0
        self.K = _ops()

    def next(self) -> str:
        name = self.names[self.i]
        self.i += 1
        return name

    def program(self) -> tuple[np.ndarray, int, int]:
        """Code rows of both holes, and the row where each starts."""
        if self.next() != "program":
            raise Unsupported("not a sketch program")
        score = self.num(())
        column = self.choice()
        if self.i != len(self.names):
            raise Unsupported("malformed program tree")
        rows: list[list[int]] = []
        starts = []
        for hole in (score, column):
            starts.append(len(rows))
            self.emit(hole, rows)
            rows.append([self.K.OP_RETURN, 0])
        return np.array(rows, dtype=np.int64).reshape(-1, self.K.CODE_WIDTH), starts[0], starts[1]

    def emit(self, node: Node, rows: list[list[int]]) -> None:
        """Append the node's code: it leaves the node's value on the stack."""
        K = self.K
        if node.op in (K.OP_ADD, K.OP_SUB, K.OP_MUL):
            self.emit(node.kids[0], rows)
            self.emit(node.kids[1], rows)
            rows.append([node.op, 0])
        elif node.op == K.OP_IF:
            x, y, yes, no = node.kids
            self.emit(x, rows)
            self.emit(y, rows)
            branch = len(rows)
            rows.append([K.OP_JUMP_UNLESS_LESS, -1])
            self.emit(yes, rows)
            skip = len(rows)
            rows.append([K.OP_JUMP, -1])
            rows[branch][1] = len(rows)
            self.emit(no, rows)
            rows[skip][1] = len(rows)
        elif node.op in (K.OP_MAP_NEUTRALS, K.OP_MAP_COLUMNS, K.OP_ARGMAX):
            start = len(rows)
            rows.append([node.op, -1])
            self.emit(node.kids[0], rows)
            rows.append([K.OP_ARG_NEXT if node.op == K.OP_ARGMAX else K.OP_LOOP_NEXT, start + 1])
            rows[start][1] = len(rows)
        else:
            rows.append([node.op, node.value])

    # ---- the column hole ----------------------------------------------------------
    def choice(self) -> Node:
        K = self.K
        name = self.next()
        if name == "column_argmax":
            body = self.num(("a",))
            if body.const:  # every move scores the same: the first
                return Node(K.OP_CONST, value=0)
            return Node(K.OP_ARGMAX, (body,), bound=5)
        if name == "column_if":
            x, y = self.num(()), self.num(())
            yes, no = self.choice(), self.choice()
            return self._if(x, y, yes, no)
        raise Unsupported(f"unknown column primitive {name!r}")

    def _if(self, x: Node, y: Node, yes: Node, no: Node) -> Node:
        if x.const and y.const:
            return yes if x.value < y.value else no
        return Node(self.K.OP_IF, (x, y, yes, no), bound=max(yes.bound, no.bound))

    # ---- numbers -------------------------------------------------------------------
    def num(self, axes: tuple[str, ...]) -> Node:
        K = self.K
        name = self.next()
        head = name[len("score_"):] if name.startswith("score_") else name.rpartition("_")[0]
        if head in ("add", "sub", "mul"):
            x, y = self.num(axes), self.num(axes)
            if x.const and y.const:
                value = {"add": x.value + y.value, "sub": x.value - y.value,
                         "mul": x.value * y.value}[head]
                return Node(K.OP_CONST, value=value)
            op = {"add": K.OP_ADD, "sub": K.OP_SUB, "mul": K.OP_MUL}[head]
            bound = x.bound * y.bound if head == "mul" else x.bound + y.bound
            return Node(op, (x, y), bound=bound)
        if head == "if":
            x, y = self.num(axes), self.num(axes)
            yes, no = self.num(axes), self.num(axes)
            return self._if(x, y, yes, no)
        if head == "sumc":
            lst = self.list(axes)
            op = K.OP_SUM_NEUTRALS if lst == "neutrals" else K.OP_SUM_COLUMNS
            return Node(op, bound=12 * LIST_LENGTH[lst])
        if head == "sumn":
            inner = self.next()
            if inner.rpartition("_")[0] != "map":
                raise Unsupported(f"sum over {inner!r}")
            body = self.num(axes + ("c",))
            lst = self.list(axes)
            op = K.OP_MAP_NEUTRALS if lst == "neutrals" else K.OP_MAP_COLUMNS
            return Node(op, (body,), bound=body.bound * LIST_LENGTH[lst])
        syntax = self.dsl.syntax.get(name)
        if syntax is not None and syntax.kind == "lit" and syntax.text.isdigit():
            return Node(K.OP_CONST, value=int(syntax.text))
        return self.leaf(head, axes)

    def list(self, axes: tuple[str, ...]) -> str:
        head = self.next().rpartition("_")[0]
        if head == "columns" and "a" not in axes:
            raise Unsupported("columns(a) outside the action lambda")
        if head not in LIST_LENGTH:
            raise Unsupported(f"unknown list primitive {head!r}")
        return head

    def leaf(self, head: str, axes: tuple[str, ...]) -> Node:
        K = self.K
        ops = {"advanced": K.OP_ADVANCED, "secured": K.OP_SECURED,
               "opponent_secured": K.OP_OPPONENT_SECURED, "is_new_neutral": K.OP_IS_NEW_NEUTRAL,
               "progress_value": K.OP_PROGRESS_VALUE, "move_value": K.OP_MOVE_VALUE,
               "advance_of": K.OP_ADVANCE_OF, "difficulty": K.OP_DIFFICULTY}
        if self.dsl.name in REFERENCE_SECURED:
            ops["secured"] = K.OP_REFERENCE_SECURED
            ops["opponent_secured"] = K.OP_REFERENCE_OPPONENT_SECURED
        if head not in ops:
            raise Unsupported(f"unknown primitive {head!r}")
        if head == "advance_of" and "a" not in axes:
            raise Unsupported("advance_of(a) outside the action lambda")
        if head not in ("advance_of", "difficulty") and (not axes or axes[-1] != "c"):
            raise Unsupported(f"{head}(c) outside a column lambda")
        return Node(ops[head], bound=LEAF_BOUNDS[head])


_CACHE: OrderedDict[tuple[str, str], tuple[np.ndarray, int, int] | None] = OrderedDict()
CACHE_SIZE = 4096


def kernel_program(player: SketchStrategy) -> tuple[np.ndarray, int, int] | None:
    """The player's program as kernel code rows and the rows where its two holes
    start (cached by text, least recently used dropped), or None if the kernel
    cannot run it."""
    dsl = player.dsl
    if KERNEL_DSLS.get(dsl.name) is not dsl:
        return None
    key = (dsl.name, player.text)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    try:
        program = Flattener(player.tree, dsl).program()
    except Unsupported:
        program = None
    _CACHE[key] = program
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return program

