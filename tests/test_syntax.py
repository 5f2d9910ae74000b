"""Program text (``gp.syntax``): every syntax kind prints as code that parses back to
the same typed tree, operators bind as documented, bad text is refused with one line
naming the source, line and column, and declarations that would not read back are
refused with the reason. Fast: small made-up languages, no games played."""

from __future__ import annotations

import random

import pytest

from gp.dsl import DSL
from gp.syntax import (
    BINARY_OPERATORS,
    MAX_NESTING,
    MAX_PROGRAM_CHARS,
    ProgramSyntaxError,
    Syntax,
    check_size,
)


class Num:
    """A number."""


class Flag:
    """A truth value."""


class Cols:
    """A list of columns."""


class Action:
    """A chosen action."""


class Turn:
    """A whole two-line program."""


def _const(value):
    return lambda *children: (lambda: value)


def _declare(dsl: DSL) -> DSL:
    dsl.terminal("one", Num, Syntax("lit", "1"), _const(1))
    dsl.terminal("half", Num, Syntax("lit", "0.5"), _const(0.5))
    dsl.terminal("turn", Num, Syntax("lit", "turn"), _const(3))
    dsl.terminal("height", Num, Syntax("index", "height", var="c"), _const(4))
    dsl.terminal("value", Num, Syntax("callv", "value", var="c"), _const(5))
    dsl.terminal("gain", Num, Syntax("callv", "gain", var="a"), _const(6))
    dsl.terminal("columns", Cols, Syntax("lit", "columns"), _const([]))
    dsl.primitive("plus", [Num, Num], Num, Syntax("binop", "+"), _const(0))
    dsl.primitive("minus", [Num, Num], Num, Syntax("binop", "-"), _const(0))
    dsl.primitive("times", [Num, Num], Num, Syntax("binop", "*"), _const(0))
    dsl.primitive("neg", [Num], Num, Syntax("call", "neg"), _const(0))
    dsl.primitive("clamp", [Num, Num, Num], Num, Syntax("call", "clamp"), _const(0))
    dsl.primitive("pick", [Num, Num, Num, Num], Num, Syntax("ite"), _const(0))
    dsl.primitive("total", [Cols], Num, Syntax("call", "total"), _const(0))
    dsl.primitive("scaled", [Num, Cols], Cols, Syntax("map", var="c"), _const([]))
    dsl.primitive("at_least", [Num, Num], Flag, Syntax("call", "at_least"), _const(True))
    dsl.primitive("both", [Flag, Flag], Flag, Syntax("binop", "and"), _const(True))
    dsl.primitive("either", [Flag, Flag], Flag, Syntax("binop", "or"), _const(True))
    dsl.primitive("truth", [Flag], Num, Syntax("call", "truth"), _const(1))
    # one text, two typings: the parser takes the first whose operands type-check
    dsl.primitive("big_num", [Num], Num, Syntax("call", "big"), _const(0))
    dsl.primitive("big_flag", [Flag], Num, Syntax("call", "big"), _const(0))
    return dsl


def _calc() -> DSL:
    """A language of numbers, read as one expression."""
    return _declare(DSL("calc", Num, max_height=5, max_size=40))


def _turns() -> DSL:
    """A language whose program is two labelled lines."""
    dsl = _declare(DSL("turns", Turn, max_height=5, max_size=40))
    dsl.primitive("best", [Num], Action, Syntax("argmax_map", "actions", var="a"),
                  _const(None))
    dsl.primitive("turn_rule", [Num, Action], Turn,
                  Syntax("lines", labels=("score", "column")), _const(None))
    return dsl


CALC = _calc()
TURNS = _turns()
BEST = "argmax(map(lambda a: gain(a), actions))"


def _names(tree) -> list[str]:
    return [node.name for node in tree]


@pytest.mark.parametrize("dsl", [CALC, TURNS], ids=["expression", "lines"])
def test_random_programs_print_as_text_that_parses_back_to_them(dsl):
    rng = random.Random(5)
    kinds = set()
    for _ in range(300):
        tree = dsl.random_program(rng)
        text = dsl.to_text(tree)
        assert dsl.parse(text) == tree
        assert dsl.to_text(dsl.parse(text)) == text
        kinds |= {dsl.syntax[node.name].kind for node in tree}
    assert kinds >= {"lit", "binop", "call", "callv", "index", "map", "ite"}


@pytest.mark.parametrize("text, names, printed", [
    ("1 + 0.5 * turn", ["plus", "one", "times", "half", "turn"], "1 + (0.5 * turn)"),
    ("(1 + 0.5) * turn", ["times", "plus", "one", "half", "turn"], "(1 + 0.5) * turn"),
    ("1 - 1 - turn", ["minus", "minus", "one", "one", "turn"], "(1 - 1) - turn"),
    ("1 - (1 - turn)", ["minus", "one", "minus", "one", "turn"], "1 - (1 - turn)"),
    ("1 * turn * 0.5", ["times", "times", "one", "turn", "half"], "(1 * turn) * 0.5"),
    ("1 + turn - 0.5", ["minus", "plus", "one", "turn", "half"], "(1 + turn) - 0.5"),
    ("truth(at_least(1, 1) or at_least(turn, 1) and at_least(1, turn))",
     ["truth", "either", "at_least", "one", "one", "both", "at_least", "turn", "one",
      "at_least", "one", "turn"],
     "truth(at_least(1, 1) or (at_least(turn, 1) and at_least(1, turn)))"),
    ("truth(at_least(1, 1) and at_least(turn, 1) or at_least(1, turn))",
     ["truth", "either", "both", "at_least", "one", "one", "at_least", "turn", "one",
      "at_least", "one", "turn"],
     "truth((at_least(1, 1) and at_least(turn, 1)) or at_least(1, turn))"),
    ("if 1 + 1 < turn then 0.5 else neg(1)",
     ["pick", "plus", "one", "one", "turn", "half", "neg", "one"],
     "if (1 + 1) < turn then 0.5 else neg(1)"),
    ("turn * (if 1 < 1 then 1 else 0.5)", ["times", "turn", "pick", "one", "one", "one", "half"],
     "turn * (if 1 < 1 then 1 else 0.5)"),
    ("neg(1 + 1)", ["neg", "plus", "one", "one"], "neg(1 + 1)"),
    ("clamp(1, turn * 1, 0.5)", ["clamp", "one", "times", "turn", "one", "half"],
     "clamp(1, turn * 1, 0.5)"),
    ("total(map(lambda c: height[c] + value(c), columns))",
     ["total", "scaled", "plus", "height", "value", "columns"],
     "total(map(lambda c: height[c] + value(c), columns))"),
    ("big(1)", ["big_num", "one"], "big(1)"),
    ("big(at_least(1, turn))", ["big_flag", "at_least", "one", "turn"], "big(at_least(1, turn))"),
    ("  1+turn   # a comment\n", ["plus", "one", "turn"], "1 + turn"),
    ("# a comment line\n1\n", ["one"], "1"),
])
def test_operators_bind_as_documented_and_print_with_the_brackets_they_need(
        text, names, printed):
    tree = CALC.parse(text)
    assert _names(tree) == names
    assert CALC.to_text(tree) == printed
    assert CALC.parse(printed) == tree


def test_the_binary_operators_are_the_documented_ones():
    assert BINARY_OPERATORS == ("+", "-", "*", "and", "or")


def test_a_program_of_lines_reads_its_labels_in_any_order_with_comments_and_blanks():
    text = f"score: 1 + turn\ncolumn: {BEST}"
    tree = TURNS.parse(text)
    assert _names(tree) == ["turn_rule", "plus", "one", "turn", "best", "gain"]
    assert TURNS.to_text(tree) == text
    shuffled = f"# a rule\n\ncolumn: {BEST}  # the best action\n   \nscore: 1 + turn  # why\n"
    assert TURNS.parse(shuffled) == tree


def test_a_tree_with_nodes_left_over_is_not_printed():
    tree = list(CALC.parse("1 + turn"))
    with pytest.raises(ValueError, match="malformed program tree"):
        CALC.to_text(tree + tree[1:2])


@pytest.mark.parametrize("text, message", [
    ("1 +", "unexpected end of text"),
    ("", "unexpected end of text"),
    ("1 ? 1", "unexpected '?' at column 3"),
    ("1 1", "unexpected '1' at column 3"),
    ("neg(1))", "unexpected ')' at column 7"),
    ("neg(1", "expected ')', found end of text"),
    ("neg(1 turn)", "expected ')', found 'turn' at column 7"),
    ("if 1 then 1 else 1", "expected '<', found 'then' at column 6"),
    ("if 1 < 1 then 1 1", "expected 'else', found '1' at column 17"),
    ("height[c", "expected ']', found end of text"),
    ("total(map(lambda 1: 1, columns))", "expected a variable after 'lambda'"),
    ("total(map(lambda", "expected a variable after 'lambda'"),
    ("total(map(lambda c 1, columns))", "expected ':', found '1' at column 20"),
    ("then", "unexpected 'then' at column 1"),
    ("1 + else", "unexpected 'else' at column 5"),
    ("truth(and)", "unexpected 'and' at column 7"),
    ("at_least(1, 1)", "not a calc program (types do not fit)"),
    ("neg(at_least(1, 1))", "not a calc program (types do not fit)"),
    ("height[d]", "not a calc program"),
    ("height(c)", "not a calc program"),
    ("value(d)", "not a calc program"),
    ("value[c]", "not a calc program"),
    ("value(c, c)", "not a calc program"),
    ("value(c + 1)", "not a calc program"),
    ("total(map(lambda d: 1, columns))", "not a calc program"),
    ("total(map(1, columns))", "not a calc program"),
    ("total(map(lambda c: 1, columns, columns))", "not a calc program"),
    ("total(columns(lambda c: 1, columns))", "not a calc program"),
    ("neg(1, 1)", "not a calc program"),  # an operand too many is not dropped
    ("truth(at_least(1, 1, 1))", "not a calc program"),
    ("clamp(1, 1)", "not a calc program"),  # nor one too few left as a broken tree
    ("neg", "not a calc program"),
    ("2", "not a calc program"),
    ("1 / 1", "unexpected '/' at column 3"),
])
def test_bad_expressions_are_refused_in_one_line_naming_the_source(text, message):
    with pytest.raises(ProgramSyntaxError) as err:
        CALC.parse(text, source="prog.txt")
    said = str(err.value)
    assert said.startswith("prog.txt: ") and message in said and "\n" not in said
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("text, message", [
    (f"score: 1 ?\ncolumn: {BEST}", "line 1: unexpected '?' at column 10"),
    ("score: 1\n\n   column: neg(1\n", "line 3: expected ')', found end of text"),
    (f"score: 1 + \ncolumn: {BEST}", "line 1: unexpected end of text"),
    (f"scor: 1\ncolumn: {BEST}", "line 1: expected one of score:, column:"),
    (f"score 1\ncolumn: {BEST}", "line 1: expected one of score:, column:"),
    (f"score: 1\nscore: 1\ncolumn: {BEST}", "line 2: 'score' given twice"),
    ("score: 1", "missing line(s): column:"),
    ("# nothing", "missing line(s): score:, column:"),
    (f"\n\nscore: at_least(1, 1)\ncolumn: {BEST}", "line 3: 'score' is not a valid turns "
     "expression"),
    ("score: 1\ncolumn: gain(a)", "line 2: 'column' is not a valid turns expression"),
    ("score: 1\ncolumn: argmax(map(lambda a: gain(a), columns))", "line 2: 'column' is not"),
    ("score: 1\ncolumn: argmax(map(lambda c: gain(a), actions))", "line 2: 'column' is not"),
    ("score: 1\ncolumn: argmax(map(lambda a: gain(a), actions), 1)", "line 2: 'column' is"),
    ("score: 1\ncolumn: argmax(total(lambda a: gain(a), actions))", "line 2: 'column' is"),
    ("score: 1\ncolumn: argmax(map(lambda a: gain(a), actions, 1))", "line 2: 'column' is"),
    ("score: 1\ncolumn: argmax(map(1, actions))", "line 2: 'column' is"),
    ("score: 1\ncolumn: argmax(map(lambda a: gain(a), 1))", "line 2: 'column' is"),
])
def test_bad_lines_are_refused_naming_the_source_and_the_line(text, message):
    with pytest.raises(ProgramSyntaxError) as err:
        TURNS.parse(text, source="rule.txt")
    said = str(err.value)
    assert said.startswith("rule.txt: ") and message in said and "\n" not in said


def test_a_program_too_long_or_too_deep_is_refused_at_its_bounds():
    check_size("1" * MAX_PROGRAM_CHARS, "p")
    with pytest.raises(ProgramSyntaxError,
                       match=r"^p: 200,001 characters, too long for a program \(at most "
                             r"200,000\)$"):
        check_size("1" * (MAX_PROGRAM_CHARS + 1), "p")
    for opening, closing in ("()", "[]", "{}"):
        check_size(opening * MAX_NESTING + closing * MAX_NESTING, "p")
        with pytest.raises(ProgramSyntaxError,
                           match=r"^p: brackets nested 101 deep, too deep for a program "
                                 r"\(at most 100\)$"):
            check_size(opening * (MAX_NESTING + 1), "p")
    check_size("(" * MAX_NESTING + ")" + "(", "p")  # closing one and opening one: still 100
    with pytest.raises(ProgramSyntaxError, match="nested 101 deep"):
        check_size("(" * MAX_NESTING + ")" + "((", "p")  # a bracket closed counts once
    check_size("()" * (MAX_NESTING + 5), "p")
    assert (MAX_PROGRAM_CHARS, MAX_NESTING) == (200_000, 100)


def test_parse_checks_the_size_first_and_names_the_source():
    with pytest.raises(ProgramSyntaxError, match=r"^big\.txt: 200,001 characters"):
        CALC.parse("1" + " " * MAX_PROGRAM_CHARS, source="big.txt")
    deep = "neg(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1)
    with pytest.raises(ProgramSyntaxError, match=r"^deep\.txt: brackets nested 101 deep"):
        CALC.parse(deep, source="deep.txt")
    fits = "neg(" * MAX_NESTING + "1" + ")" * MAX_NESTING
    assert _names(CALC.parse(fits)) == ["neg"] * MAX_NESTING + ["one"]


def test_a_chain_too_long_to_read_is_refused_naming_the_source():
    text = "if 1 < 1 then 1 else " * 3000 + "1"  # nested without brackets
    with pytest.raises(ProgramSyntaxError) as err:
        CALC.parse(text, source="chain.txt")
    assert str(err.value) == ("chain.txt: nested too deeply to read (a chain of operators "
                              "or calls too long)")


def _probe() -> DSL:
    dsl = DSL("probe", Turn, max_height=4, max_size=20)
    dsl.terminal("one", Num, Syntax("lit", "1"), _const(1))
    return dsl


@pytest.mark.parametrize("syntax, arity, ret", [
    (Syntax("lit", "1.5"), 0, Num),
    (Syntax("lit", "x_2"), 0, Num),
    (Syntax("binop", "-"), 2, Num),
    (Syntax("binop", "or"), 2, Flag),
    (Syntax("call", "f"), 1, Num),
    (Syntax("call", "f"), 3, Num),
    (Syntax("callv", "f", var="x"), 0, Num),
    (Syntax("index", "t", var="x"), 0, Num),
    (Syntax("map", var="x"), 2, Cols),
    (Syntax("argmax_map", "xs", var="x"), 1, Action),
    (Syntax("ite"), 4, Num),
    (Syntax("lines", labels=("a",)), 1, Turn),
    (Syntax("lines", labels=("a", "b", "c")), 3, Turn),
])
def test_every_kind_of_syntax_declares_at_its_arity(syntax, arity, ret):
    assert _probe().syntax_problem(syntax, arity, ret) is None


@pytest.mark.parametrize("syntax, wanted", [
    (Syntax("lit", "1"), 0), (Syntax("binop", "+"), 2), (Syntax("callv", "f", var="x"), 0),
    (Syntax("index", "t", var="x"), 0), (Syntax("map", var="x"), 2),
    (Syntax("argmax_map", "xs", var="x"), 1), (Syntax("ite"), 4),
    (Syntax("lines", labels=("a", "b")), 2),
])
def test_a_syntax_printing_another_number_of_operands_is_refused(syntax, wanted):
    probe = _probe()
    for arity in (wanted - 1, wanted + 1):
        if arity < 0:
            continue
        assert probe.syntax_problem(syntax, arity, Turn) == (
            f"syntax '{syntax.kind}' prints {wanted} operand(s) but the primitive takes {arity}")


def test_declarations_that_would_not_read_back_say_why():
    probe = _probe()
    assert probe.syntax_problem(Syntax("compare", "<"), 2, Num) == (
        "unknown syntax kind 'compare' (known: lit, binop, call, callv, index, map, "
        "argmax_map, ite, lines)")
    assert probe.syntax_problem(Syntax("call", "f"), 0, Num) == (
        "'f()' has no operand, which the parser cannot read (declare it as "
        "Syntax('lit', 'f'))")
    assert probe.syntax_problem(Syntax("lines", labels=("a",)), 1, Num) == (
        "'lines' (one 'label: ...' line per operand) is read only as the whole program")
    assert probe.syntax_problem(Syntax("binop", "/"), 2, Num) == (
        "prints as '_0 / _1', which does not parse back: unexpected '/' at column 4 "
        "(the parser reads the binary operators +, -, *, and, or)")
    assert probe.syntax_problem(Syntax("call", "at least"), 1, Num) == (
        "prints as 'at least(_0)', which does not parse back: unexpected 'least' at column 4")
    assert probe.syntax_problem(Syntax("lit", "(x)"), 0, Num) == (
        "prints as '(x)', which parses back as something else")
    assert probe.syntax_problem(Syntax("callv", "f", var="1"), 0, Num) == (
        "prints as 'f(1)', which parses back as something else")
    assert probe.syntax_problem(Syntax("call", "g"), 2, Num) is None
    assert probe.syntax_problem(Syntax("lines", labels=("a:b",)), 1, Turn) == (
        "prints as 'a:b: _0', which does not parse back: line 1: expected one of a:b:")
    assert probe.syntax_problem(Syntax("lines", labels=("a", "a")), 2, Turn) == (
        "prints as 'a: _0\na: _1', which does not parse back: line 2: 'a' given twice")


def test_a_language_has_at_most_one_form_of_lines():
    dsl = _turns()
    with pytest.raises(ValueError, match="^DSL turns: primitive 'other_rule': the language "
                                         "already has a 'lines' form, and programs are read "
                                         "as that one: programs of a second would not load$"):
        dsl.primitive("other_rule", [Num], Turn, Syntax("lines", labels=("value",)),
                      _const(None))
    assert "other_rule" not in dsl.syntax
    assert dsl.parse(f"score: 1\ncolumn: {BEST}") == TURNS.parse(f"score: 1\ncolumn: {BEST}")
