"""``obs-eval``: evaluation functions over an OpenSpiel game's observation tensor.

One language for every OpenSpiel game. A program is an evaluation of a position
from one seat's point of view (higher is better for it); the program player
(``ObservationEvalPlayer``) searches the legal actions to a depth (1: one ply, the
action whose resulting state scores best; deeper: alpha-beta, chance nodes
averaged), with won and lost ends scored beyond any program value.

A program reads the tensor of ``state.observation_tensor(seat)`` as planes of
rows × columns (``games.openspiel.observation``):

* planes: ``mine0`` … ``mine3`` (the seat's own planes, in order; zeros beyond the
  game's), ``theirs0`` … ``theirs3`` (the opponent's, paired with them), ``all_mine``,
  ``all_theirs`` (their sums), ``other0``, ``other1`` (planes neither owns, such as
  empty cells), ``diff(p, q)`` (the difference of two planes);
* numbers from a plane: ``count(p)`` (its total), ``rows(p)``, ``cols(p)``,
  ``diags(p)`` (the largest total of one row, column or diagonal), ``lines(p, k)``
  (the k-in-a-row windows, k = 2, 3, 4, filled in p, along rows, columns and both
  diagonals), ``threats(p, q, k)`` (k-windows with no cell of q and at least k−1 of
  p), ``advance(p)`` (p's cells weighted by how far forward, towards the
  opponent's side, they stand, 0 … 1), ``centre(p)`` (weighted by closeness to the
  centre, 0 … 1);
* arithmetic ``+ - *``, ``max``, ``min``, ``if a < b then x else y``, constants 0,
  0.5, 1, 2, 3, 10.

For a game of imperfect information the search looks at the true state (like
OpenSpiel's MCTS bot): its programs are clairvoyant.
"""

from __future__ import annotations

import functools
import math
import operator

import numpy as np
from deap import gp

from games.openspiel.observation import Layout, layout_of, observation
from gp.dsl import DSL, ProgramPlayer
from gp.syntax import Syntax

OWN_PLANES = 4
OTHER_PLANES = 2
WIN = 1e9
"""What a won end scores in the search: beyond any program value."""


class Num:
    """A number computed from the position."""


class Plane:
    """A plane of the observation tensor (rows × columns)."""


class Width:
    """A window length for ``lines`` and ``threats``: 2, 3 or 4."""


class View:
    """One seat's view of a state: the tensor, read once, and the game's layout."""

    __slots__ = ("layout", "seat", "tensor")

    def __init__(self, inner, seat: int, layout: Layout) -> None:
        self.layout = layout
        self.seat = seat
        self.tensor = observation(inner, seat, layout.shape)

    def plane(self, planes: tuple[int, ...], k: int) -> np.ndarray:
        return self.tensor[planes[k]] if k < len(planes) else self.zeros()

    def total(self, planes: tuple[int, ...]) -> np.ndarray:
        return self.tensor[list(planes)].sum(axis=0) if planes else self.zeros()

    def zeros(self) -> np.ndarray:
        return np.zeros(self.layout.shape[1:])


# ---- plane computations ------------------------------------------------------------------
def _windows(plane: np.ndarray, k: int) -> list[list[np.ndarray]]:
    """For each direction (row, column, both diagonals), the k shifted views whose
    element-wise combination covers every k-window of that direction."""
    rows, cols = plane.shape
    out = []
    if k <= cols:
        out.append([plane[:, j:cols - k + 1 + j] for j in range(k)])
    if k <= rows:
        out.append([plane[j:rows - k + 1 + j, :] for j in range(k)])
    if k <= rows and k <= cols:
        out.append([plane[j:rows - k + 1 + j, j:cols - k + 1 + j] for j in range(k)])
        out.append([plane[j:rows - k + 1 + j, k - 1 - j:cols - j] for j in range(k)])
    return out


def lines(plane: np.ndarray, k: int) -> float:
    filled = plane > 0
    total = 0
    for views in _windows(filled, k):
        window = views[0].copy()
        for view in views[1:]:
            window &= view
        total += int(window.sum())
    return float(total)


def threats(plane: np.ndarray, blocker: np.ndarray, k: int) -> float:
    own = (plane > 0).astype(int)
    blocked = blocker > 0
    total = 0
    for mine, theirs in zip(_windows(own, k), _windows(blocked, k)):
        count = sum(mine)
        clear = ~np.logical_or.reduce(theirs)
        total += int(((count >= k - 1) & clear).sum())
    return float(total)


def diagonal_max(plane: np.ndarray) -> float:
    rows, cols = plane.shape
    flipped = plane[:, ::-1]
    return float(max(max(plane.trace(o), flipped.trace(o)) for o in range(1 - rows, cols)))


@functools.cache
def _progress(rows: int, forward: int) -> np.ndarray:
    progress = np.arange(rows, dtype=float) / max(rows - 1, 1)
    return progress[::-1].copy() if forward < 0 else progress


def advance(plane: np.ndarray, forward: int) -> float:
    if plane.shape[0] == 1:
        return 0.0
    return float(plane.sum(axis=1) @ _progress(plane.shape[0], forward))


@functools.cache
def _closeness(rows: int, cols: int) -> np.ndarray:
    r = np.abs(np.arange(rows) - (rows - 1) / 2) / max((rows - 1) / 2, 1)
    c = np.abs(np.arange(cols) - (cols - 1) / 2) / max((cols - 1) / 2, 1)
    return 1.0 - np.maximum(r[:, None], c[None, :])


def centre(plane: np.ndarray) -> float:
    return float((plane * _closeness(*plane.shape)).sum())


# ---- builders ------------------------------------------------------------------------------
def _own(side, k):
    def build():
        if side == "mine":
            return lambda v: v.plane(v.layout.mine[v.seat], k)
        if side == "theirs":
            return lambda v: v.plane(v.layout.theirs[v.seat], k)
        return lambda v: v.plane(v.layout.other[v.seat], k)
    return build


def _total(side):
    def build():
        if side == "mine":
            return lambda v: v.total(v.layout.mine[v.seat])
        return lambda v: v.total(v.layout.theirs[v.seat])
    return build


def _const(value):
    return lambda: (lambda v: value)


def _plane_number(function):
    return lambda p: (lambda v: function(p(v)))


def _binop(op):
    return lambda x, y: (lambda v: op(x(v), y(v)))


def _lines(p, k):
    return lambda v: lines(p(v), k(v))


def _threats(p, q, k):
    return lambda v: threats(p(v), q(v), k(v))


def _advance(p):
    return lambda v: advance(p(v), v.layout.forward[v.seat])


def _ite(a, b, x, y):
    return lambda v: x(v) if a(v) < b(v) else y(v)


def _sum(plane):
    return float(plane.sum())


def _row_max(plane):
    return float(plane.sum(axis=1).max())


def _col_max(plane):
    return float(plane.sum(axis=0).max())


def build_dsl(name: str = "obs-eval", max_height: int = 6, max_size: int = 30) -> DSL:
    dsl = DSL(name, Num, max_height=max_height, max_size=max_size)
    for side in ("mine", "theirs"):
        for k in range(OWN_PLANES):
            dsl.terminal(f"{side}{k}", Plane, Syntax("lit", f"{side}{k}"), _own(side, k))
        dsl.terminal(f"all_{side}", Plane, Syntax("lit", f"all_{side}"), _total(side))
    for k in range(OTHER_PLANES):
        dsl.terminal(f"other{k}", Plane, Syntax("lit", f"other{k}"), _own("other", k))
    dsl.primitive("diff", [Plane, Plane], Plane, Syntax("call", "diff"),
                  _binop(operator.sub))
    for text, function in (("count", _sum), ("rows", _row_max), ("cols", _col_max),
                           ("diags", diagonal_max), ("centre", centre)):
        dsl.primitive(text, [Plane], Num, Syntax("call", text), _plane_number(function))
    dsl.primitive("advance", [Plane], Num, Syntax("call", "advance"), _advance)
    for k in (2, 3, 4):
        dsl.terminal(f"w{k}", Width, Syntax("lit", str(k)), _const(k))
    dsl.primitive("lines", [Plane, Width], Num, Syntax("call", "lines"), _lines)
    dsl.primitive("threats", [Plane, Plane, Width], Num, Syntax("call", "threats"), _threats)
    for value, text in ((0.0, "0"), (0.5, "0.5"), (1.0, "1"), (2.0, "2"), (3.0, "3"),
                        (10.0, "10")):
        dsl.terminal(f"c{text.replace('.', '_')}", Num, Syntax("lit", text), _const(value))
    dsl.primitive("add", [Num, Num], Num, Syntax("binop", "+"), _binop(operator.add))
    dsl.primitive("sub", [Num, Num], Num, Syntax("binop", "-"), _binop(operator.sub))
    dsl.primitive("mul", [Num, Num], Num, Syntax("binop", "*"), _binop(operator.mul))
    dsl.primitive("max", [Num, Num], Num, Syntax("call", "max"), _binop(max))
    dsl.primitive("min", [Num, Num], Num, Syntax("call", "min"), _binop(min))
    dsl.primitive("ite", [Num, Num, Num, Num], Num, Syntax("ite"), _ite)
    dsl.min_heights()
    return dsl


OBS_EVAL = build_dsl()


class ObservationEvalPlayer(ProgramPlayer):
    """Plays the legal action whose result a program scores best, searching ``depth``
    plies (default: the game's ``search_depth`` parameter).

    Args:
        program: the program, as text or a tree.
        name: how reports call the player.
        depth: plies searched (1: one ply); None: the game's ``search_depth``.
    """

    LANGUAGE = OBS_EVAL

    def __init__(self, program, name: str | None = None, depth: int | None = None) -> None:
        self.tree = (self.LANGUAGE.parse(program) if isinstance(program, str)
                     else gp.PrimitiveTree(program))
        self.text = self.LANGUAGE.to_text(self.tree)
        self.name = name or "program"
        if depth is not None and not 1 <= depth <= 6:
            raise ValueError(f"{self.name}: depth must be in 1..6, got {depth}")
        self.depth = depth
        self._evaluate = self.LANGUAGE.compile(self.tree)

    def __call__(self, state) -> int:
        game = state.game
        layout = layout_of(game)
        seat = state.current_player()
        depth = self.depth or game.search_depth
        best_action, best = None, -math.inf
        alpha = -math.inf
        for action in state.legal_actions():
            child = state.inner.clone()
            child.apply_action(action)
            value = self._value(child, depth - 1, seat, layout, alpha, math.inf)
            if best_action is None or value > best:
                best_action, best = action, value
                alpha = max(alpha, value)
        return best_action

    def _value(self, inner, depth: int, seat: int, layout: Layout, alpha: float,
               beta: float) -> float:
        if inner.is_terminal():
            mine, theirs = inner.returns()[seat], inner.returns()[1 - seat]
            return WIN if mine > theirs else -WIN if mine < theirs else 0.0
        if inner.is_chance_node():
            total = 0.0
            for outcome, probability in inner.chance_outcomes():
                child = inner.child(outcome)
                total += probability * self._value(child, depth, seat, layout, -math.inf,
                                                   math.inf)
            return total
        if depth <= 0:
            value = float(self._evaluate(View(inner, seat, layout)))
            return value if not math.isnan(value) else -WIN / 2
        maximise = inner.current_player() == seat
        best = -math.inf if maximise else math.inf
        for action in inner.legal_actions():
            value = self._value(inner.child(action), depth - 1, seat, layout, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def __getstate__(self):
        return {"text": self.text, "name": self.name, "depth": self.depth}

    def __setstate__(self, data):
        self.__init__(data["text"], data["name"], data["depth"])

    def __repr__(self) -> str:
        return f"ObservationEvalPlayer({self.text!r})"
