"""``hold-rule``: a small typed language of when to hold, and the player that runs it.

A program is a condition; its player holds when the condition is true (and there
is something to hold), else rolls::

    at_least(turn_total, 20) or at_least(my_score + turn_total, 100)

Two types keep programs meaningful: ``Num`` (points) and ``Cond``. ``at_least`` is
a call, not ``>=``: the program parser reads the binary operators ``+ - * and or``
only, and a language declaring any other operator is refused when it is built.
"""

from __future__ import annotations

from deap import gp

from gp.dsl import DSL, ProgramPlayer, Syntax

from .rules import HOLD, ROLL


class Num:
    """Points: scores, turn totals, constants."""


class Cond:
    """A condition on the position."""


# Builders turn the children's closures into the node's closure; a closure takes
# (state, seat), the seat being the program's own.
def _constant(value: int):
    return lambda: (lambda state, seat: value)


def _turn_total():
    return lambda state, seat: state.turn_total


def _my_score():
    return lambda state, seat: state.scores[seat]


def _their_score():
    return lambda state, seat: state.scores[1 - seat]


def _goal():
    return lambda state, seat: state.goal


def _add(a, b):
    return lambda state, seat: a(state, seat) + b(state, seat)


def _subtract(a, b):
    return lambda state, seat: a(state, seat) - b(state, seat)


def _at_least(a, b):
    return lambda state, seat: a(state, seat) >= b(state, seat)


def _both(p, q):
    return lambda state, seat: p(state, seat) and q(state, seat)


def _either(p, q):
    return lambda state, seat: p(state, seat) or q(state, seat)


def _negate(p):
    return lambda state, seat: not p(state, seat)


def build_language() -> DSL:
    dsl = DSL("hold-rule", Cond, max_height=5, max_size=25)
    dsl.terminal("turn_total", Num, Syntax("lit", "turn_total"), _turn_total)
    dsl.terminal("my_score", Num, Syntax("lit", "my_score"), _my_score)
    dsl.terminal("their_score", Num, Syntax("lit", "their_score"), _their_score)
    dsl.terminal("goal", Num, Syntax("lit", "goal"), _goal)
    for value in (0, 5, 10, 15, 20, 25, 30):
        dsl.terminal(f"n{value}", Num, Syntax("lit", str(value)), _constant(value))
    dsl.primitive("add", [Num, Num], Num, Syntax("binop", "+"), _add)
    dsl.primitive("subtract", [Num, Num], Num, Syntax("binop", "-"), _subtract)
    dsl.primitive("at_least", [Num, Num], Cond, Syntax("call", "at_least"), _at_least)
    dsl.primitive("both", [Cond, Cond], Cond, Syntax("binop", "and"), _both)
    dsl.primitive("either", [Cond, Cond], Cond, Syntax("binop", "or"), _either)
    dsl.primitive("negate", [Cond], Cond, Syntax("call", "not"), _negate)
    dsl.min_heights()  # fails now if some type had no finite program
    return dsl


HOLD_RULE = build_language()


class HoldRulePlayer(ProgramPlayer):
    """Holds when its program is true; pickles as its program text.

    Args:
        program: a tree of ``HOLD_RULE`` or its text.
        name: how reports call the player.
    """

    LANGUAGE = HOLD_RULE

    def __init__(self, program, name: str | None = None) -> None:
        self.tree = (self.LANGUAGE.parse(program) if isinstance(program, str)
                     else gp.PrimitiveTree(program))
        self.text = self.LANGUAGE.to_text(self.tree)
        self.name = name or "program"
        self._hold = self.LANGUAGE.compile(self.tree)

    def __call__(self, state):
        if state.turn_total and self._hold(state, state.player):
            return HOLD
        return ROLL

    def __getstate__(self):  # closures do not pickle: a player travels as its text
        return {"text": self.text, "name": self.name}

    def __setstate__(self, data) -> None:
        self.__init__(data["text"], data["name"])

    def __repr__(self) -> str:
        return f"HoldRulePlayer({self.name})"
