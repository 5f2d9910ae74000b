"""The sketch-learning paper's appendix grammar with untyped holes, run as its reference code runs
it
(``--dsl sketch-paper``).

Our typed DSL (``gp.languages.cantstop``) makes every program run: the column hole
is always ``argmax(map(lambda a: ..., actions))``. Here, as in the reference code
(leandrocouto/sketch-learning, ``cant-stop-sketch-learning/src/dsl/base_dsl.py``),
each hole takes any production the grammar allows there, so a program can fail at
run time, and a program that fails anywhere scores 0 (``failure_scores_zero``).

Grammar (the reference's ``accepted_types`` after ``filter_production_rules`` with
the operations, constants ``[0, 1]``, lists ``neutrals``/``actions`` and tables
``progress_value``/``move_value`` of its SA and Sketch-SA runs, ``main.py``)::

    program  -> score: B   column: B
    B        -> if C < C then B else B | argmax(L) | sum(L) | O + O | O * O | O - O
    O        -> progress_value[x] | move_value[x] | advanced(x) | advance_of(x) | 0 | 1
              | O + O | O * O | O - O | sum(L) | secured(x) | opponent_secured(x)
              | difficulty
    F        -> O - O | O + O | O * O | sum(L) | map(lambda x: F, L)    (a lambda's body)
    C        -> 0 | 1 | O + O | O * O | O - O | sum(L)
    L        -> map(lambda x: F, L) | neutrals | actions | local_list

DEAP needs types, so each slot of that grammar (B, O, F, C, L) is a DEAP type and
a production that several slots accept (``+``, ``sum``, ...) is one primitive per
slot; the *values* are untyped. ``LT`` lives only in ``ITE`` and ``Function``
only in ``Map``, so they are folded into ``if x < y then ...`` and
``map(lambda x: ..., list)``. Generation follows the reference's
``fill_random_program``: a production drawn uniformly among those the slot accepts
(then a constant or list name uniformly), and below depth 4 only leaves (else
one-child productions).

Semantics (the reference's ``interpret`` methods, Python and numpy as they behave):

* one variable environment per decision; ``map`` binds each element by its type,
  an ``int`` to the ``x`` that ``progress_value[x]``, ``advanced(x)``,
  ``secured(x)`` ... read, a list (a tuple becomes a list) to ``local_list`` and
  ``advance_of(x)``; any other element type (numpy numbers from ``sum``/``argmax``,
  ``'y'``/``'n'``) is a failure. Bindings are dynamic and outlive the ``map`` (the
  reference keeps them in one dict), and reading an unbound one is a failure;
* ``sum`` and ``argmax`` are ``numpy.sum``/``numpy.argmax`` (an empty sum is the
  float 0.0, which then cannot index; ``argmax`` of an empty list fails);
  ``+ - *`` are Python's; tables and the board index like Python lists (negative
  indices count from the end, 13 entries);
* ``actions`` is the list of legal column moves in a column decision and
  ``['y', 'n']`` in the stop decision; ``neutrals`` the columns of the neutral
  markers (``paper_neutrals``);
* the stop decision evaluates the score program first, then the fixed sketch
  ("stop if stopping wins", "roll while a neutral is free", ``score >= 29``);
  the column decision plays ``actions[column program]``, a Python list index.

The reference ran on numpy < 1.24, where ``sum`` or ``argmax`` of a ragged list
(e.g. ``actions`` holding one- and two-column moves) makes a one-dimensional object
array: ``argmax`` then compares the moves as Python tuples and ``sum``
concatenates them. numpy 2 raises instead, so ``ragged_array`` rebuilds that
object array (for lists ragged at the top level; deeper ragged nests, which numpy
1.2x would shape differently, are treated the same way). A ``*`` that would
build a list of more than ``MAX_LIST`` elements fails (the reference would try).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable

import numpy as np
from deap import gp

from games.cantstop.players import GLENN_ALOI, can_place_new_neutral
from games.cantstop.reference_rules import (
    positions_opponent_has_secured,
    positions_player_has_secured,
)
from games.cantstop.rules import HEIGHTS, PHASE_ROLL_OR_STOP, ROLL, STOP
from gp.dsl import DSL
from gp.syntax import Syntax

from . import DSLS, MOVE_VALUE, PROGRESS_VALUE, THRESHOLD, SketchStrategy


class PaperProgram:
    """Root: the score line and the column line."""


class Block:
    """B: a hole of the program, or a branch of ``if``."""


class Operand:
    """O: an operand of ``+ - *``."""


class Body:
    """F: the body of a ``map`` lambda."""


class Comparand:
    """C: a side of ``<`` in ``if``."""


class ListSlot:
    """L: what ``sum``, ``argmax`` and ``map`` range over."""


SLOTS = {"B": Block, "O": Operand, "F": Body, "C": Comparand, "L": ListSlot}

PROGRESS_TABLE = list(PROGRESS_VALUE)
MOVE_TABLE = list(MOVE_VALUE)
BOARD_ENTRIES = 13  # the reference's board list: columns 0..12, 0 and 1 empty
LOCAL_TYPES = ("int", "list", "tuple")
MAX_FREE_DEPTH = 4  # the reference's ``max_mutation_depth``
MAX_LIST = 100_000


class ProgramFailure(RuntimeError):
    """A paper-mode program failed at run time (the reference scores it 0)."""


class Env:
    """The reference's ``env`` for one decision: state, lists and the lambda bindings."""

    __slots__ = ("state", "actions", "neutrals", "locals", "difficulty")

    def __init__(self, state, actions: list, neutrals: list[int]) -> None:
        self.state = state
        self.actions = actions
        self.neutrals = neutrals
        self.locals: dict[str, object] = {}
        self.difficulty: int | None = None  # of ``neutrals``, computed once per decision


def paper_neutrals(state) -> list[int]:
    """Columns of the neutral markers in the reference's order.

    Reference rules: every neutral on the board, a column claimed this turn by a
    neutral that stepped past the top included, as the reference player's
    ``[col[0] for col in state.neutral_positions]`` lists it (its ``play`` leaves
    such a neutral in ``neutral_positions``); a D2 claim places no neutral and is
    not listed. Paper rules, which the reference never ran: without a column whose
    neutral reached the top cell and so claimed it."""
    if getattr(state, "won_now", None) is not None:
        return list(state.neutral_cols)
    neutral = state.neutral
    return [c for c in state.neutral_cols if neutral[c] < HEIGHTS[c]]


def _bound(env: Env, name: str):
    try:
        return env.locals[name]
    except KeyError:
        raise KeyError(f"no lambda variable of type {name} bound") from None


def _advanced(state, column: int) -> int:
    """The reference's ``NumberAdvancedThisRound(column)``, indexing its 13-entry board
    list as Python does (columns 0 and 1 are empty; -13..-1 count from the end,
    without the won-this-turn bonus, which compares the column number itself)."""
    if not -BOARD_ENTRIES <= column < BOARD_ENTRIES:
        raise IndexError(f"board index {column} out of range")
    c = column % BOARD_ENTRIES
    if c < 2:
        return 0
    value = state.advanced_this_turn(c)
    if column < 0 and c in getattr(state, "won_now", ()):
        value = value - 1 if state.neutral[c] else 0
    return value


def _difficulty(neutrals: list[int]) -> int:
    g = GLENN_ALOI
    score = 0
    if all(c % 2 != 0 for c in neutrals):
        score += g.odds
    if all(c % 2 == 0 for c in neutrals):
        score += g.evens
    if all(c <= 7 for c in neutrals):
        score += g.lows
    if all(c >= 7 for c in neutrals):
        score += g.highs
    return score


# ---- leaves: env -> value --------------------------------------------------------------
def _progress(env: Env):
    return PROGRESS_TABLE[_bound(env, "int")]


def _move(env: Env):
    return MOVE_TABLE[_bound(env, "int")]


def _advanced_leaf(env: Env):
    return _advanced(env.state, _bound(env, "int"))


def _advance_of(env: Env):
    action = _bound(env, "list")
    return 2 if len(action) == 2 and action[0] == action[1] else 1


def _secured(env: Env):
    return positions_player_has_secured(env.state, _bound(env, "int"))


def _opponent_secured(env: Env):
    return positions_opponent_has_secured(env.state, _bound(env, "int"))


def _difficulty_leaf(env: Env):
    value = env.difficulty
    if value is None:
        value = env.difficulty = _difficulty(env.neutrals)
    return value


def _neutrals(env: Env):
    return env.neutrals


def _actions(env: Env):
    return env.actions


def _local_list(env: Env):
    return _bound(env, "list")


# ---- builders: children's closures -> closure(env) ----------------------------------------
def _leaf(fn: Callable) -> Callable:
    return lambda: fn


def _const(value: int) -> Callable:
    return lambda: (lambda env: value)


def _binop(op, x, y):
    if op is not operator.mul:  # only ``*`` can build a list (a repetition)
        return lambda env: op(x(env), y(env))

    def run(env: Env):
        a, b = x(env), y(env)
        if isinstance(a, list | tuple) or isinstance(b, list | tuple):
            _check_repeat(a, b)
        return op(a, b)
    return run


def _check_repeat(a, b) -> None:
    """Refuse a list repetition (``list * n``) too long to build."""
    seq, times = (a, b) if isinstance(a, list | tuple) else (b, a)
    if isinstance(times, int | np.integer) and len(seq) * int(times) > MAX_LIST:
        raise MemoryError(f"list of {len(seq)} elements repeated {int(times)} times")


def ragged_array(value):
    """``value`` as numpy < 1.24 saw it: an array, or for a ragged list a 1-D object
    array of its elements."""
    try:
        return np.asarray(value)
    except ValueError:
        array = np.empty(len(value), dtype=object)
        for i, item in enumerate(value):
            array[i] = item
        return array


_INT64_SAFE = 2**62
_INT64 = 2**63


def _numpy_sum(value):
    """``np.sum`` as the reference calls it on a program's list.

    A non-empty list of Python ints, the common case, is summed in Python: the same
    value and type (``np.int64``) as numpy's, several times cheaper on short lists."""
    if value and type(value) is list and all(type(item) is int for item in value):
        total = sum(value)  # numpy wraps at 2**64: equal when items and total fit
        if -_INT64_SAFE < total < _INT64_SAFE and -_INT64 <= min(value) and max(value) < _INT64:
            return np.int64(total)
    return np.sum(ragged_array(value))


def _sum(lst):
    return lambda env: _numpy_sum(lst(env))


def _argmax(lst):
    return lambda env: np.argmax(ragged_array(lst(env)))


def _map(body, lst):
    def run(env: Env) -> list:
        items = lst(env)  # the list first, then the lambda, as the reference does
        out = []
        bound = env.locals
        for item in items:
            kind = type(item).__name__
            if kind not in LOCAL_TYPES:
                raise TypeError(f"map over a {kind}: type not allowed in a lambda")
            if kind == "tuple":
                item, kind = list(item), "list"
            bound[kind] = item
            out.append(body(env))
        return out
    return run


def _ite(x, y, p, q):
    return lambda env: p(env) if x(env) < y(env) else q(env)


def _pair(score, column):
    return (score, column)


BINOPS = (("add", "+", operator.add), ("sub", "-", operator.sub), ("mul", "*", operator.mul))

OPERAND_LEAVES = {
    "progress_value": (Syntax("index", "progress_value", "x"), _progress),
    "move_value": (Syntax("index", "move_value", "x"), _move),
    "advanced": (Syntax("callv", "advanced", "x"), _advanced_leaf),
    "advance_of": (Syntax("callv", "advance_of", "x"), _advance_of),
    "secured": (Syntax("callv", "secured", "x"), _secured),
    "opponent_secured": (Syntax("callv", "opponent_secured", "x"), _opponent_secured),
    "difficulty": (Syntax("lit", "difficulty"), _difficulty_leaf),
}
"""The reference's ``VarScalarFromArray`` (two tables), ``NumberAdvancedThisRound``,
``NumberAdvancedByAction``, ``PositionsPlayerHasSecuredInColumn``,
``PositionsOpponentHasSecuredInColumn`` and ``DifficultyScore``."""

LIST_LEAVES = {
    "neutrals": (Syntax("lit", "neutrals"), _neutrals),
    "actions": (Syntax("lit", "actions"), _actions),
    "local_list": (Syntax("lit", "local_list"), _local_list),
}

PRODUCTIONS = {
    "B": ("ite", "argmax", "sum", "add", "mul", "sub"),
    "O": ("table", "advanced", "advance_of", "const", "add", "mul", "sub", "sum", "secured",
          "opponent_secured", "difficulty"),
    "F": ("sub", "add", "mul", "sum", "map"),
    "C": ("const", "add", "mul", "sub", "sum"),
    "L": ("map", "varlist", "local_list"),
}
"""Slot -> the reference's productions it accepts (a family such as ``const`` or
``table`` has one primitive per value, drawn uniformly once the family is drawn)."""

LEAF_FAMILIES = {"table", "advanced", "advance_of", "const", "secured", "opponent_secured",
                 "difficulty", "varlist", "local_list"}
ONE_CHILD_FAMILIES = {"argmax", "sum"}


class PaperDSL(DSL):
    """A DSL whose values are untyped: generation as the reference's, and the
    simplifier told that a subtree may fail (so it never drops one)."""

    programs_may_fail = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.families: dict[type, dict[str, list]] = {}

    def add_family(self, slot: type, family: str, name: str) -> None:
        self.families.setdefault(slot, {}).setdefault(family, []).append(name)

    def _draw(self, rng: random.Random, slot: type, forced: bool):
        families = self.families[slot]
        names = list(families)
        if forced:  # the reference's ``return_terminal_child``
            leaves = [f for f in names if f in LEAF_FAMILIES]
            names = leaves or [f for f in names if f in ONE_CHILD_FAMILIES] or names
        members = families[names[rng.randrange(len(names))]]
        return self.pset.mapping[members[rng.randrange(len(members))]]

    def generate(self, rng: random.Random, type_: type | None = None,
                 max_height: int | None = None) -> list:
        """A random expression of ``type_`` as the reference's ``fill_random_program``
        builds one: free choices down to depth 4, then leaves. (``max_height`` is
        not used: the reference bounds depth only this way, also in mutations.)"""
        type_ = type_ or self.root_type
        out: list = []
        stack = [(type_, -1)]  # (slot, depth of the parent); the top is never forced
        while stack:
            slot, parent_depth = stack.pop()
            if slot is self.root_type:
                node = self.pset.primitives[slot][0]
            else:
                node = self._draw(rng, slot, parent_depth >= MAX_FREE_DEPTH)
            out.append(node)
            if isinstance(node, gp.Primitive):
                for arg in reversed(node.args):
                    stack.append((arg, parent_depth + 1))
        return out


def build_paper_dsl(name: str = "cantstop-paper", constants=(0, 1), max_size: int = 120,
                    max_height: int = 40) -> PaperDSL:
    """The appendix grammar with untyped holes, registered under ``name``."""
    dsl = PaperDSL(name, PaperProgram, max_height=max_height, max_size=max_size)
    dsl.primitive("program", [Block, Block], PaperProgram,
                  Syntax("lines", labels=("score", "column")), _pair)

    def prim(slot: str, family: str, name: str, args: list, syntax: Syntax, builder) -> None:
        dsl.primitive(f"{name}_{slot}", args, SLOTS[slot], syntax, builder)
        dsl.add_family(SLOTS[slot], family, f"{name}_{slot}")

    def term(slot: str, family: str, name: str, syntax: Syntax, builder) -> None:
        dsl.terminal(f"{name}_{slot}", SLOTS[slot], syntax, builder)
        dsl.add_family(SLOTS[slot], family, f"{name}_{slot}")

    for slot, families in PRODUCTIONS.items():
        for family in families:
            if family in ("add", "mul", "sub"):
                symbol, op = {n: (s, o) for n, s, o in BINOPS}[family]
                prim(slot, family, family, [Operand, Operand], Syntax("binop", symbol),
                     functools.partial(_binop, op))
            elif family == "sum":
                prim(slot, family, "sum", [ListSlot], Syntax("call", "sum"), _sum)
            elif family == "argmax":
                prim(slot, family, "argmax", [ListSlot], Syntax("call", "argmax"), _argmax)
            elif family == "map":
                prim(slot, family, "map", [Body, ListSlot], Syntax("map", var="x"), _map)
            elif family == "ite":
                prim(slot, family, "if", [Comparand, Comparand, Block, Block], Syntax("ite"),
                     _ite)
            elif family == "const":
                for value in constants:
                    term(slot, family, f"n{value}", Syntax("lit", str(value)), _const(value))
            elif family == "table":
                for table in ("progress_value", "move_value"):
                    syntax, fn = OPERAND_LEAVES[table]
                    term(slot, family, table, syntax, _leaf(fn))
            elif family == "varlist":
                for lst in ("neutrals", "actions"):
                    syntax, fn = LIST_LEAVES[lst]
                    term(slot, family, lst, syntax, _leaf(fn))
            elif family == "local_list":
                syntax, fn = LIST_LEAVES["local_list"]
                term(slot, family, "local_list", syntax, _leaf(fn))
            else:
                syntax, fn = OPERAND_LEAVES[family]
                term(slot, family, family, syntax, _leaf(fn))
    dsl.min_heights()
    DSLS[name] = dsl
    return dsl


PAPER_DSL = build_paper_dsl()


class PaperSketch(SketchStrategy):
    """The reference's sketch (``Rule_of_28_Player_Double_Program``) over ``PAPER_DSL``:
    ``--dsl sketch-paper``. A run-time failure raises ``ProgramFailure`` (the match
    runner counts a forfeit); Ψ and the cloning scores are 0 for a program that
    fails anywhere in an evaluation (``failure_scores_zero``)."""

    LANGUAGE = PAPER_DSL
    failure_scores_zero = True
    lowerings = {"cantstop.numpy": "gp.languages.cantstop.paper_arrays:paper_array_program"}

    def __call__(self, state):
        try:
            if state.phase == PHASE_ROLL_OR_STOP:
                score = self._score(Env(state, ["y", "n"], paper_neutrals(state)))
                if state.stopping_wins():
                    return STOP
                if can_place_new_neutral(state):
                    return ROLL
                return STOP if score >= THRESHOLD else ROLL
            legal = state.legal
            return legal[self._column(Env(state, legal, paper_neutrals(state)))]
        except Exception as err:
            raise ProgramFailure(f"{type(err).__name__}: {err}") from None


