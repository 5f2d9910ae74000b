"""The Can't Stop DSL of the sketch-learning paper (appendix) as a DEAP typed primitive set.

A program fills the two holes of the fixed sketch used by the reference code:

    score:  an expression; with all neutrals down the player stops when score >= 29
    column: the index of the column move to play, ``argmax(map(lambda a: ..., actions))``

"Stop if stopping wins" and "roll while a neutral marker is free" are hard-wired
in the sketch (``SketchStrategy``), as in the reference implementation.

Types make every generated program run: the grammar's lambdas bind a column
(``lambda c:`` over ``neutrals`` or ``columns(a)``) or an action (``lambda a:``
over ``actions``), and the functions that read ``c`` or ``a`` exist only inside
the lambdas that bind them. Scopes: T (no variable), C (``c``), A (``a``),
AC (both). Two deliberate restrictions of the untyped reference grammar, both
to rule out programs that can only crash: ``actions`` appears only as the list of
the column program's ``argmax(map(...))`` (in the stop decision the reference's
actions are ``y``/``n``), and ``map`` ranges over lists of columns (a map over a
mapped list equals one map with the composed lambda).

Numeric constants N default to 0..7 (the reference runs use ``[1..7]`` or
``[0, 1]``; the GA program needs 1 and 6); ``build_dsl(constants=(0, 1))`` gives
the appendix's ``N -> 0 | 1``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

from games.cantstop.players import GLENN_ALOI, can_place_new_neutral, difficulty_score
from games.cantstop.reference_rules import (
    positions_opponent_has_secured,
    positions_player_has_secured,
)
from games.cantstop.rules import PHASE_ROLL_OR_STOP, ROLL, STOP
from gp.dsl import DSL, ProgramPlayer
from gp.syntax import Syntax


class Program:
    """Root type: a complete strategy (score line and column line)."""


class YesNo:
    """The score hole."""


class Choice:
    """The column hole."""


SCOPES = ("T", "C", "A", "AC")
BIND_COLUMN = {"T": "C", "C": "C", "A": "AC", "AC": "AC"}
HAS_COLUMN = {"C", "AC"}
HAS_ACTION = {"A", "AC"}


def _scope_type(kind: str, scope: str) -> type:
    cls = type(f"{kind}_{scope}", (), {"__doc__": f"{kind} in scope {scope}",
                                      "__module__": __name__})
    globals()[cls.__name__] = cls  # importable by name, so trees pickle to workers
    return cls


NUM = {s: _scope_type("Num", s) for s in SCOPES}
COLS = {s: _scope_type("Cols", s) for s in SCOPES}
NUMS = {s: _scope_type("Nums", s) for s in SCOPES}

PROGRESS_VALUE = (0, 0) + GLENN_ALOI.progress_value
MOVE_VALUE = (0, 0) + GLENN_ALOI.move_value
THRESHOLD = GLENN_ALOI.threshold
BINOPS = (("add", "+", operator.add), ("sub", "-", operator.sub), ("mul", "*", operator.mul))


# ---- builders: children's closures -> closure(state, column, action) -------------------
def _binop(op, x, y):
    return lambda s, c, a: op(x(s, c, a), y(s, c, a))


def _const(value):
    return lambda: (lambda s, c, a: value)


def _leaf(fn):
    return lambda: fn


def _sum(lst):
    return lambda s, c, a: sum(lst(s, c, a))


def _map_columns(body, lst):
    return lambda s, c, a: [body(s, x, a) for x in lst(s, c, a)]


def _ite(x, y, p, q):
    return lambda s, c, a: p(s, c, a) if x(s, c, a) < y(s, c, a) else q(s, c, a)


def _argmax_actions(body):
    def choose(s, c, a):
        legal = s.legal
        best, best_value = 0, None
        for i, action in enumerate(legal):
            value = body(s, c, action)
            if best_value is None or value > best_value:
                best, best_value = i, value
        return best
    return choose


def _pair(yes_no, choice):
    return (yes_no, choice)


def _advanced(s, c, a):
    return s.advanced_this_turn(c)


LEAVES = {
    "advanced": ("callv", "advanced", "c", _advanced, HAS_COLUMN),
    "secured": ("callv", "secured", "c", lambda s, c, a: s.markers[s.player][c], HAS_COLUMN),
    "opponent_secured": ("callv", "opponent_secured", "c",
                         lambda s, c, a: s.markers[1 - s.player][c], HAS_COLUMN),
    "is_new_neutral": ("callv", "is_new_neutral", "c",
                       lambda s, c, a: 1 if s.neutral[c] == 0 else 0, HAS_COLUMN),
    "progress_value": ("index", "progress_value", "c",
                       lambda s, c, a: PROGRESS_VALUE[c], HAS_COLUMN),
    "move_value": ("index", "move_value", "c", lambda s, c, a: MOVE_VALUE[c], HAS_COLUMN),
    "advance_of": ("callv", "advance_of", "a",
                   lambda s, c, a: 2 if len(a) == 2 and a[0] == a[1] else 1, HAS_ACTION),
    "difficulty": ("lit", "difficulty", "",
                   lambda s, c, a: difficulty_score(s, GLENN_ALOI), set(SCOPES)),
}
"""Domain functions f1..f6 and tables l4, l5 of the sketch-learning paper: name -> (syntax kind,
text,
variable, function, scopes where it is defined)."""

REFERENCE_LEAVES = {
    "secured": ("callv", "secured", "c",
                lambda s, c, a: positions_player_has_secured(s, c), HAS_COLUMN),
    "opponent_secured": ("callv", "opponent_secured", "c",
                         lambda s, c, a: positions_opponent_has_secured(s, c), HAS_COLUMN),
}
"""``secured`` as the reference code's ``PositionsPlayerHasSecuredInColumn`` (the
neutral's cell when a neutral is in the column, this turn's progress included;
height + 1 for a claimed column) and its opponent twin; ours count permanent
markers only (``games.cantstop.reference_rules`` lists where the reference code
differs)."""


DSLS: dict = {}
"""Built DSLs by name, so a strategy pickles as (DSL name, program text)."""


def build_dsl(name: str = "cantstop", constants: Sequence[int] = tuple(range(8)),
              max_height: int = 12, max_size: int = 80, secured: str = "markers") -> DSL:
    """A Can't Stop DSL, registered under ``name``; the default is ``CANTSTOP_DSL``.

    ``secured="reference"`` gives ``secured``/``opponent_secured`` the reference
    code's meaning (``REFERENCE_LEAVES``)."""
    if secured not in ("markers", "reference"):
        raise ValueError(f"secured must be 'markers' or 'reference', got {secured!r}")
    leaves = {**LEAVES, **(REFERENCE_LEAVES if secured == "reference" else {})}
    dsl = DSL(name, Program, max_height=max_height, max_size=max_size)
    dsl.primitive("program", [YesNo, Choice], Program,
                  Syntax("lines", labels=("score", "column")), _pair)
    for s in SCOPES:
        num, cols, nums = NUM[s], COLS[s], NUMS[s]
        for op_name, symbol, op in BINOPS:
            dsl.primitive(f"{op_name}_{s}", [num, num], num, Syntax("binop", symbol),
                          functools.partial(_binop, op))
        dsl.primitive(f"sumc_{s}", [cols], num, Syntax("call", "sum"), _sum)
        dsl.primitive(f"sumn_{s}", [nums], num, Syntax("call", "sum"), _sum)
        dsl.primitive(f"map_{s}", [NUM[BIND_COLUMN[s]], cols], nums,
                      Syntax("map", var="c"), _map_columns)
        for value in constants:
            dsl.terminal(f"n{value}_{s}", num, Syntax("lit", str(value)), _const(value))
        for leaf, (kind, text, var, fn, scopes) in leaves.items():
            if s in scopes:
                dsl.terminal(f"{leaf}_{s}", num, Syntax(kind, text, var), _leaf(fn))
        dsl.terminal(f"neutrals_{s}", cols, Syntax("lit", "neutrals"),
                     _leaf(lambda st, c, a: st.neutral_cols))
        if s in HAS_ACTION:
            dsl.terminal(f"columns_{s}", cols, Syntax("callv", "columns", "a"),
                         _leaf(lambda st, c, a: a))
    top = NUM["T"]
    for op_name, symbol, op in BINOPS:
        dsl.primitive(f"score_{op_name}", [top, top], YesNo, Syntax("binop", symbol),
                      functools.partial(_binop, op))
    dsl.primitive("score_sumc", [COLS["T"]], YesNo, Syntax("call", "sum"), _sum)
    dsl.primitive("score_sumn", [NUMS["T"]], YesNo, Syntax("call", "sum"), _sum)
    dsl.primitive("score_if", [top, top, YesNo, YesNo], YesNo, Syntax("ite"), _ite)
    dsl.primitive("column_argmax", [NUM["A"]], Choice,
                  Syntax("argmax_map", "actions", "a"), _argmax_actions)
    dsl.primitive("column_if", [top, top, Choice, Choice], Choice, Syntax("ite"), _ite)
    dsl.min_heights()  # fail at import if some type cannot be completed
    DSLS[name] = dsl
    return dsl


CANTSTOP_DSL = build_dsl()


class SketchStrategy(ProgramPlayer):
    """The fixed sketch of the sketch-learning paper with a program in its two holes.

    Pickles as program text (closures do not pickle) and recompiles on arrival.
    """

    LANGUAGE = CANTSTOP_DSL
    lowerings = {"cantstop.numpy": "gp.languages.cantstop.arrays:array_program",
                 "cantstop.kernel": "gp.languages.cantstop.kernel:kernel_program"}

    def __init__(self, program, dsl: DSL | None = None, name: str | None = None) -> None:
        self.dsl = dsl or self.LANGUAGE
        dsl = self.dsl
        self.tree = dsl.parse(program) if isinstance(program, str) else program
        self.text = dsl.to_text(self.tree)
        self.name = name or "program"
        self._score, self._column = dsl.compile(self.tree)

    def __call__(self, state):
        if state.phase == PHASE_ROLL_OR_STOP:
            if state.stopping_wins():
                return STOP
            if can_place_new_neutral(state):
                return ROLL
            return STOP if self._score(state, None, None) >= THRESHOLD else ROLL
        return state.legal[self._column(state, None, None)]

    def __getstate__(self):
        return {"text": self.text, "name": self.name, "dsl": self.dsl.name}

    def __setstate__(self, data):
        self.__init__(data["text"], DSLS[data["dsl"]], data["name"])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


APPENDIX_CONSTANTS_DSL = build_dsl("cantstop-01", constants=(0, 1))
"""The same language with the appendix's constants, ``N -> 0 | 1`` (the sketch-learning paper's SA,
Sketch-SA and UCT runs; ours default to 0..7)."""


class AppendixConstantsSketch(SketchStrategy):
    """The sketch over ``APPENDIX_CONSTANTS_DSL``: ``--dsl sketch-01``."""

    LANGUAGE = APPENDIX_CONSTANTS_DSL
    lowerings = SketchStrategy.lowerings


REFERENCE_SECURED_DSL = build_dsl("cantstop-reference", constants=(0, 1), secured="reference")
"""The appendix's constants and the reference code's ``secured``."""


class ReferenceSecuredSketch(SketchStrategy):
    """The sketch over ``REFERENCE_SECURED_DSL``: ``--dsl sketch-reference``. Its
    programs play on the reference engine (the fast engine knows our ``secured``)."""

    LANGUAGE = REFERENCE_SECURED_DSL
    lowerings = {"cantstop.kernel": "gp.languages.cantstop.kernel:kernel_program"}
