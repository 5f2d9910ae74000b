"""A language refuses, at declaration, a primitive whose text would not parse back."""

from __future__ import annotations

import random

import pytest

from gp.dsl import DSL, Syntax
from gp.languages.rules import build_rules_dsl


class Num:
    pass


class Flag:
    pass


def _const(value):
    return lambda: (lambda state: value)


def _language() -> DSL:
    dsl = DSL("probe", Flag, max_height=4, max_size=20)
    dsl.terminal("one", Num, Syntax("lit", "1"), _const(1))
    dsl.terminal("turn", Num, Syntax("lit", "turn"), _const(2))
    return dsl


@pytest.mark.parametrize("syntax, arity, says", [
    (Syntax("binop", ">="), 2, "binary operators"),
    (Syntax("binop", "/"), 2, "binary operators"),
    (Syntax("call", "at least"), 2, "does not parse back"),
    (Syntax("call", "if"), 2, "does not parse back"),
    (Syntax("binop", "+"), 3, "takes 3"),
    (Syntax("lit", "x"), 1, "takes 1"),
    (Syntax("call", "f"), 0, "no operand"),
    (Syntax("lines", labels=("hold",)), 1, "whole program"),
    (Syntax("compare", "<"), 2, "unknown syntax kind"),
])
def test_unreadable_primitive_is_refused_naming_it(syntax, arity, says):
    dsl = _language()
    ret = Num if syntax.kind == "lines" else Flag
    with pytest.raises(ValueError) as err:
        dsl.primitive("bad_one", [Num] * arity, ret, syntax, _const(0))
    message = str(err.value)
    assert "\n" not in message
    assert "DSL probe: primitive 'bad_one'" in message and says in message
    assert "bad_one" not in dsl.syntax  # nothing half-declared


@pytest.mark.parametrize("text", ["-1", "two words", "then", "f(x)"])
def test_unreadable_literal_is_refused(text):
    with pytest.raises(ValueError, match="primitive .bad_lit.: prints as"):
        _language().terminal("bad_lit", Num, Syntax("lit", text), _const(0))


def test_readable_primitives_round_trip():
    dsl = _language()
    dsl.primitive("plus", [Num, Num], Num, Syntax("binop", "+"), _const(0))
    dsl.primitive("at_least", [Num, Num], Flag, Syntax("call", "at_least"), _const(True))
    dsl.primitive("both", [Flag, Flag], Flag, Syntax("binop", "and"), _const(True))
    rng = random.Random(3)
    for _ in range(50):
        tree = dsl.random_program(rng)
        assert dsl.parse(dsl.to_text(tree)) == tree


def test_built_in_languages_still_declare():
    import gp.languages.cantstop  # noqa: F401
    import gp.languages.cantstop_paper  # noqa: F401
    import gp.languages.expendibots  # noqa: F401
    import gp.languages.microrts  # noqa: F401

    assert build_rules_dsl().syntax
