"""Paper-mode programs (``--dsl sketch-paper``) on the fast array engine, where that is exact.

The reference semantics (``gp.languages.cantstop_paper``) are dynamic: a value's
type shows at run time, lambda bindings outlive their ``map``, and a program
fails where a Python list index, a type check or numpy fails. Here a program is
compiled to array closures only if a static check shows that, on every position
of the paper rules, it cannot fail and every value it reads is the one the
reference reads:

* every ``x``/``local_list``/``advance_of(x)`` read is of the binding of the
  innermost ``map`` that binds that kind, and no ``map`` evaluated before it in
  the same lambda body (or in an earlier element of the enclosing ``map``) has
  rebound it; after a ``map``, its own binding is stale (it holds the list's last
  element) and is not read;
* ``neutrals`` and ``local_list`` (an action's columns) hold valid columns, so
  the tables, ``advanced``, ``secured`` and ``opponent_secured`` cannot fail;
* no ``map`` over a ``map``'s results, over ``actions`` in a stop decision (its
  ``'y'``/``'n'`` fail) or nested in another ``map`` over ``actions``; no
  ``argmax`` that could see an empty or ragged list (only ``argmax(map(...,
  actions))`` in the column line and ``argmax(actions)`` in the score line,
  which is 0); the column line is that ``argmax``, an ``if`` of such, or a
  constant index 0 or -1 (valid for any list of moves);
* values stay below 2**52 in absolute value (an empty ``sum`` is the float 0.0 in
  the reference, exact as int64 then; only an index must be an integer, and
  only constants are used as indices).

Every other program (most that fail, and those whose failure depends on the
position) returns None from ``paper_array_program``, and its matches run on the
scalar engine; Ψ is then the scalar engine's, so it is the same either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from games.cantstop import fast
from games.cantstop.players import GLENN_ALOI

from . import DSLS, MOVE_VALUE, PROGRESS_VALUE, THRESHOLD
from .paper import PaperSketch

LIMIT = 1 << 52
PV = np.array(PROGRESS_VALUE, dtype=np.int64)
MV = np.array(MOVE_VALUE, dtype=np.int64)
H1 = fast.H + 1
TOP = {"add": np.add, "sub": np.subtract, "mul": np.multiply}
PY = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__}
DIFFICULTY_BOUND = GLENN_ALOI.odds + GLENN_ALOI.evens + GLENN_ALOI.highs + GLENN_ALOI.lows


class Unsupported(ValueError):
    """A program this compiler does not run exactly (it runs on the scalar engine)."""


@dataclass
class Num:
    """A number per position: constant ``value`` or ``fn(pos, env)``; ``bound`` >= |value|;
    ``may_float``: the reference may hold the float 0.0 (an empty ``sum``) here."""

    value: int | None = None
    fn: Callable | None = None
    bound: int = 0
    may_float: bool = False

    def __post_init__(self) -> None:
        if self.fn is None:
            self.bound = abs(self.value)
        if self.bound >= LIMIT:
            raise Unsupported("values may exceed 2**52")

    def __call__(self, pos, env):
        return self.value if self.fn is None else self.fn(pos, env)


@dataclass
class Scope:
    """Static binding state at a point of evaluation: which kinds hold the binding of
    the innermost enclosing ``map`` of that kind (``int_axis``/``list_axis``: its
    axis in ``axes``, None if stale or unbound)."""

    axes: tuple[str, ...] = ()
    int_axis: int | None = None
    list_axis: int | None = None
    phase: str = "stops"
    rebinds: dict = field(default_factory=lambda: {"int": False, "list": False})


def _embed(values: np.ndarray, axis: int, rank: int) -> np.ndarray:
    """``values`` (length, n) on the axis of ``axes[axis]`` of a rank-``rank`` value
    (innermost axis first, matches last)."""
    shape = [1] * rank + [values.shape[-1]]
    shape[rank - 1 - axis] = values.shape[0]
    return values.reshape(shape)


def _lift(values: np.ndarray, rank: int) -> np.ndarray:
    """A per-match value (n,) as a rank-``rank`` value."""
    return values.reshape((1,) * rank + values.shape)


class _Reader:
    def __init__(self, tree) -> None:
        self.nodes = list(tree)
        self.i = 0

    def next(self) -> tuple[str, str]:
        node = self.nodes[self.i]
        self.i += 1
        head, _, slot = node.name.rpartition("_")
        return (head, slot) if head else (node.name, "")


class PaperArrayProgram:
    """``stops(pos)`` and ``columns(pos)`` of a paper program, per live match."""

    def __init__(self, tree) -> None:
        reader = _Reader(tree)
        if reader.next()[0] != "program":
            raise Unsupported("not a paper program")
        self.score = self._num(reader, Scope(phase="stops"))
        self.choose = self._column(reader, Scope(phase="columns"))
        if reader.i != len(reader.nodes):
            raise Unsupported("malformed program tree")

    # ---- the fast engine's interface ---------------------------------------------------
    def stops(self, pos) -> np.ndarray:
        score = self.score(pos, {})
        return pos.stopping_wins | (~pos.can_place_new_neutral & (np.asarray(score) >= THRESHOLD))

    def columns(self, pos) -> np.ndarray:
        return np.broadcast_to(self.choose(pos), (pos.n,)).astype(np.int64)

    # ---- the column line ----------------------------------------------------------------
    def _column(self, reader: _Reader, scope: Scope) -> Callable:
        start = reader.i
        head, _ = reader.next()
        if head == "argmax":
            lhead, _ = reader.next()
            if lhead != "map":
                raise Unsupported("argmax over a list that may be empty or ragged")
            body, lst = self._map_parts(reader, scope)
            if lst != "actions":
                raise Unsupported("argmax over another list than actions")

            def argmax(pos):
                value = np.broadcast_to(body(pos, {"act": True}), (fast.MAX_LEGAL, pos.n))
                return np.where(pos.action_mask, value, fast.BIG_NEGATIVE).argmax(0)
            return argmax
        if head == "if":
            x, y = self._num(reader, scope), self._num(reader, scope)
            yes, no = self._column(reader, scope), self._column(reader, scope)
            if x.fn is None and y.fn is None:
                return yes if x.value < y.value else no
            return lambda pos: np.where(np.asarray(x(pos, {}) < y(pos, {})), yes(pos), no(pos))
        reader.i = start
        index = self._num(reader, scope)
        if index.fn is not None or index.may_float or index.value not in (0, -1):
            raise Unsupported("a column index that may be out of range or a float")
        if index.value == 0:
            return lambda pos: 0
        return lambda pos: pos.b.nl - 1

    # ---- numbers --------------------------------------------------------------------------
    def _num(self, reader: _Reader, scope: Scope) -> Num:
        head, _ = reader.next()
        rank = len(scope.axes)
        if head in TOP:
            x, y = self._num(reader, scope), self._num(reader, scope)
            may_float = x.may_float or y.may_float
            if x.fn is None and y.fn is None:
                return Num(PY[head](x.value, y.value), may_float=may_float)
            if head == "mul" and not may_float and 0 in (x.value, y.value):
                return Num(0)  # Python's 0 * n (the other side cannot fail here)
            op = TOP[head]
            bound = x.bound * y.bound if head == "mul" else x.bound + y.bound
            return Num(fn=lambda pos, env: op(x(pos, env), y(pos, env)), bound=bound,
                       may_float=may_float)
        if head == "if":
            x, y = self._num(reader, scope), self._num(reader, scope)
            after_test = replace(scope, rebinds=dict(scope.rebinds))
            yes = self._num(reader, after_test)
            other = replace(scope, rebinds=dict(scope.rebinds))
            no = self._num(reader, other)
            _merge(scope, after_test, other)
            if x.fn is None and y.fn is None:
                return yes if x.value < y.value else no
            return Num(fn=lambda pos, env: np.where(x(pos, env) < y(pos, env), yes(pos, env),
                                                    no(pos, env)),
                       bound=max(yes.bound, no.bound), may_float=yes.may_float or no.may_float)
        if head == "sum":
            return self._sum(reader, scope)
        if head == "argmax":
            lhead, _ = reader.next()
            if lhead == "actions" and scope.phase == "stops":
                return Num(0)  # argmax(['y', 'n'])
            raise Unsupported("argmax over a list that may be empty or ragged")
        if head in ("n0", "n1"):
            return Num(int(head[1:]))
        if head == "difficulty":
            return Num(fn=lambda pos, env: _lift(_difficulty(pos), rank), bound=DIFFICULTY_BOUND)
        if head == "advance_of":
            if scope.list_axis is None:
                raise Unsupported("advance_of(x) of a stale or unbound list")
            axis = scope.list_axis
            return Num(fn=lambda pos, env: _embed(pos.advance_of, axis, rank), bound=2)
        if head in ("progress_value", "move_value", "advanced", "secured", "opponent_secured"):
            if scope.int_axis is None:
                raise Unsupported(f"{head}(x) of a stale or unbound x")
            return self._column_value(head, scope)
        raise Unsupported(f"{head} is not run on arrays")

    def _column_value(self, head: str, scope: Scope) -> Num:
        axis, axes = scope.int_axis, scope.axes

        def columns(pos):
            if axes[axis] == "n":
                return _embed(pos.b.nc, axis, len(axes))
            return _action_columns(pos, axes, axis)
        if head in ("progress_value", "move_value"):
            table = PV if head == "progress_value" else MV
            return Num(fn=lambda pos, env: table[columns(pos)], bound=int(table.max()))
        if head == "advanced":
            return Num(fn=lambda pos, env: pos.advanced_at(columns(pos)), bound=13)
        mine = head == "secured"
        return Num(fn=lambda pos, env: _secured(pos, columns(pos), mine), bound=14)

    def _sum(self, reader: _Reader, scope: Scope) -> Num:
        head, _ = reader.next()
        rank = len(scope.axes)
        if head == "neutrals":
            def total(pos, env):
                cols, mask = _neutrals(pos)
                return _lift(np.where(mask, cols, 0).sum(0), rank)
            return Num(fn=total, bound=36, may_float=True)
        if head == "local_list":
            if scope.list_axis is None:
                raise Unsupported("local_list stale or unbound")
            axes = scope.axes
            return Num(fn=lambda pos, env: _action_sum(pos, axes), bound=24)
        if head == "map":
            body, lst = self._map_parts(reader, scope)
            if lst == "actions":
                raise Unsupported("sum over a map over actions")
            length = 3 if lst == "neutrals" else 2

            def total(pos, env):
                mask = _list_mask(pos, lst, scope)
                return np.where(mask, body(pos, env), 0).sum(0)
            return Num(fn=total, bound=body.bound * length, may_float=lst == "neutrals")
        raise Unsupported(f"sum over {head}")

    def _map_parts(self, reader: _Reader, scope: Scope) -> tuple[Num, str]:
        """``map(lambda x: F, L)`` after its ``map`` node: F compiled in the new scope,
        and the list's name; updates ``scope`` to what holds after the map."""
        body_start = reader.i
        self._skip(reader)  # the body is compiled after the list, its evaluation order
        lhead, _ = reader.next()
        if lhead not in ("neutrals", "actions", "local_list"):
            raise Unsupported(f"map over {lhead}")
        if lhead == "actions" and (scope.phase == "stops" or "a" in scope.axes):
            raise Unsupported("map over actions here")
        if lhead == "local_list" and scope.list_axis is None:
            raise Unsupported("local_list stale or unbound")
        end = reader.i
        kind = "list" if lhead == "actions" else "int"
        axis_name = {"neutrals": "n", "actions": "a", "local_list": "c"}[lhead]
        inner = Scope(axes=scope.axes + (axis_name,), phase=scope.phase,
                      int_axis=scope.int_axis, list_axis=scope.list_axis,
                      rebinds={"int": False, "list": False})
        other = "list" if kind == "int" else "int"
        reader.i = body_start
        probe = _rebinding_kinds(reader.nodes, body_start)
        if kind == "int":
            inner.int_axis = len(scope.axes)
        else:
            inner.list_axis = len(scope.axes)
        if probe[other]:  # a later element would read what an earlier one left
            setattr(inner, f"{other}_axis", None)
        body = self._num(reader, inner)
        reader.i = end
        # after the map: its own kind holds the last element, the other maybe rebound
        setattr(scope, f"{kind}_axis", None)
        scope.rebinds[kind] = True
        if probe[other]:
            setattr(scope, f"{other}_axis", None)
            scope.rebinds[other] = True
        return body, lhead

    def _skip(self, reader: _Reader) -> None:
        node = reader.nodes[reader.i]
        reader.i += 1
        for _ in range(node.arity):
            self._skip(reader)


def _rebinding_kinds(nodes, start: int) -> dict[str, bool]:
    """Kinds that some ``map`` inside the subtree at ``start`` binds (by its list)."""
    out = {"int": False, "list": False}
    end, total = start + 1, nodes[start].arity
    while total > 0:
        total += nodes[end].arity - 1
        end += 1
    for i in range(start, end):
        if nodes[i].name.startswith("map_"):
            j = i + 1
            depth = nodes[j].arity
            j += 1
            while depth > 0:  # skip the body to the list
                depth += nodes[j].arity - 1
                j += 1
            lst = nodes[j].name.rpartition("_")[0]
            out["list" if lst == "actions" else "int"] = True
    return out


def _merge(scope: Scope, a: Scope, b: Scope) -> None:
    """After an ``if``: a binding is fresh only if fresh after both branches."""
    for kind in ("int", "list"):
        axis = getattr(a, f"{kind}_axis")
        if axis != getattr(b, f"{kind}_axis"):
            axis = None
        setattr(scope, f"{kind}_axis", axis)
        scope.rebinds[kind] = a.rebinds[kind] or b.rebinds[kind]


def _neutrals(pos) -> tuple[np.ndarray, np.ndarray]:
    """``neutrals`` of the reference: neutral columns without one on the top cell."""
    cols = pos.b.nc
    mask = pos.neutral_mask & (pos.neutral_at(cols) < fast.H[cols])
    return cols, mask


def _list_mask(pos, lst: str, scope: Scope) -> np.ndarray:
    """Which elements of the new innermost axis of a ``map`` over ``lst`` exist."""
    axes = scope.axes + ("n" if lst == "neutrals" else "c",)
    if lst == "neutrals":
        return _embed(_neutrals(pos)[1], len(axes) - 1, len(axes))
    return _action_columns(pos, axes, len(axes) - 1) > 0


def _action_columns(pos, axes: tuple[str, ...], column_axis: int) -> np.ndarray:
    """The columns of the action bound on the ``a`` axis, on ``axes[column_axis]`` (a
    ``c`` axis inside it, so the two keep the order of ``action_columns``)."""
    rank = len(axes)
    shape = [1] * rank + [pos.n]
    shape[rank - 1 - axes.index("a")] = fast.MAX_LEGAL
    shape[rank - 1 - column_axis] = 2
    return pos.action_columns.reshape(shape)


def _action_sum(pos, axes: tuple[str, ...]) -> np.ndarray:
    """``sum(local_list)``: the bound action's columns added (0 for a one-column move's
    missing second column)."""
    cols = pos.action_columns
    return _embed(cols[0] + cols[1], axes.index("a"), len(axes))


def _secured(pos, cols: np.ndarray, mine: bool) -> np.ndarray:
    """``PositionsPlayerHasSecuredInColumn`` / ``PositionsOpponentHasSecuredInColumn``
    under the paper rules (no column claimed this turn stays open)."""
    b = pos.b
    owner = b.S.take((fast.CL + cols) * pos.n + pos.rows)
    player = b.p if mine else 1 - b.p
    if mine:
        h = pos.neutral_at(cols)
        open_value = np.where(h > 0, h, pos.own_at(cols))
    else:
        open_value = pos.opponent_at(cols)
    return np.where(owner == player, H1[cols], np.where(owner >= 0, 0, open_value))


def _difficulty(pos) -> np.ndarray:
    """``DifficultyScore`` of the listed neutrals (those on the top cell are not)."""
    return fast.difficulty_table(GLENN_ALOI).take(pos.b.nb & ~pos.b.tb)


@lru_cache(maxsize=4096)
def _compiled(dsl_name: str, text: str) -> PaperArrayProgram | None:
    dsl = DSLS[dsl_name]
    try:
        return PaperArrayProgram(dsl.parse(text))
    except Unsupported:
        return None


def paper_array_program(player: PaperSketch) -> PaperArrayProgram | None:
    """The player's program on arrays (cached by text), or None: the scalar engine."""
    if DSLS.get(player.dsl.name) is not player.dsl:
        try:
            return PaperArrayProgram(player.tree)
        except Unsupported:
            return None
    return _compiled(player.dsl.name, player.text)

