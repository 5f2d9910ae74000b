"""Programs as a person should read them: behaviour-preserving simplification.

Searches produce programs such as ``if 4 < 7 then p else q`` or ``x * 1``. Before
a program is shown or committed it is simplified, for any DSL, by rewrites that
cannot change what it does (programs are pure expressions over the state):

* a conditional ``if x < y then p else q`` whose test is constant becomes the
  branch it always takes, and one whose branches are equal becomes that branch;
* arithmetic (``+ - *``) on constants is folded; the result replaces the subtree
  when the language has that literal (else the value is still known above it);
* ``x + 0``, ``0 + x``, ``x - 0``, ``x * 1``, ``1 * x`` become ``x``, and ``x * 0``,
  ``0 * x`` become ``0``; so does ``sum(map(lambda x: 0, L))``;
* in statement languages (microRTS), ``pass`` in a sequence goes, an ``if`` or an
  inner loop whose body is ``pass`` goes, and an ``if``/``else`` with equal branches
  becomes the branch (``else: pass`` an ``if``).

A language whose values are untyped (``programs_may_fail``: a subtree may fail
at run time, and ``x + 0`` fails where ``x`` is a list) gets only the rewrites that
keep every subtree that runs: constant folding and constant tests.

Only syntax the DSL declares is read (``Syntax`` kinds ``lit``, ``binop``,
``ite``), so a language opts in by how it prints. Tests replay recorded
decisions with the program and its simplified form.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from deap import gp

from .dsl import DSL

_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def simplify(dsl: DSL, tree: Sequence) -> gp.PrimitiveTree:
    """The simplified program (a new tree; ``tree`` is left as it is)."""
    nodes, _, end = _simplify(dsl, list(tree), 0)
    if end != len(tree):
        raise ValueError("malformed program tree")
    return gp.PrimitiveTree(nodes)


def simplified_text(dsl: DSL, program: Any) -> str:
    """Text of the simplified program; ``program`` is a tree or its text."""
    tree = dsl.parse(program) if isinstance(program, str) else program
    return dsl.to_text(simplify(dsl, tree))


def _number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _literal(dsl: DSL, ret: type, value: int):
    """The language's literal of ``value`` and type ``ret``, if it has one."""
    for terminal in dsl.pset.terminals.get(ret, []):
        syntax = dsl.syntax.get(terminal.name)
        if syntax is not None and syntax.kind == "lit" and _number(syntax.text) == value:
            return terminal
    return None


def _is_pass(dsl: DSL, sub: list) -> bool:
    """``sub`` is the statement that does nothing (printed ``pass``)."""
    return len(sub) == 1 and sub[0].arity == 0 and \
        dsl.syntax[sub[0].name].kind == "lit" and dsl.syntax[sub[0].name].text == "pass"


def _statement(dsl: DSL, kind: str, children: list, end: int, root: bool):
    """Statement rewrites (conditions are pure tests): ``pass`` in a sequence goes, an
    ``if`` or a loop (not the program's own) whose body is ``pass`` is ``pass``, an
    ``if``/``else`` with equal branches is that branch and one whose ``else`` is
    ``pass`` an ``if``. None: no rewrite."""
    subs = [sub for sub, _ in children]
    if kind == "for" and len(subs) == 1 and _is_pass(dsl, subs[0]) and not root:
        return subs[0], None, end
    if kind == "seq" and len(subs) == 2:
        if _is_pass(dsl, subs[0]):
            return subs[1], None, end
        if _is_pass(dsl, subs[1]):
            return subs[0], None, end
    if kind == "if" and len(subs) == 2 and _is_pass(dsl, subs[1]):
        return subs[1], None, end
    if kind == "ifelse" and len(subs) == 3:
        test, then, other = subs
        if [n.name for n in then] == [n.name for n in other]:
            return then, None, end
        if _is_pass(dsl, other):
            plain = [p for p in dsl.pset.primitives.get(then[0].ret, [])
                     if dsl.syntax[p.name].kind == "if" and p.arity == 2]
            if plain:
                return [plain[0], *test, *then], None, end
    return None


def _simplify(dsl: DSL, nodes: list, i: int) -> tuple[list, int | None, int]:
    """(simplified subtree at ``i``, its constant value or None, end of the subtree)."""
    node = nodes[i]
    syntax = dsl.syntax[node.name]
    if node.arity == 0:
        value = _number(syntax.text) if syntax.kind == "lit" else None
        return [node], value, i + 1
    children = []
    j = i + 1
    for _ in range(node.arity):
        sub, value, j = _simplify(dsl, nodes, j)
        children.append((sub, value))
    strict = dsl.programs_may_fail
    statement = _statement(dsl, syntax.kind, children, j, root=i == 0)
    if statement is not None:
        return statement
    if syntax.kind == "ite":
        (_, x), (_, y), (p, pv), (q, qv) = children
        if x is not None and y is not None:
            return (p, pv, j) if x < y else (q, qv, j)
        if not strict and [n.name for n in p] == [n.name for n in q]:
            return p, pv, j
    if syntax.kind == "binop" and syntax.text in _ARITHMETIC and node.arity == 2:
        (a, av), (b, bv) = children
        if av is not None and bv is not None:
            value = _ARITHMETIC[syntax.text](av, bv)
            literal = _literal(dsl, node.ret, value)
            if literal is not None:
                return [literal], value, j
            return [node, *a, *b], value, j
        same_type = [c for c, _ in children if c[0].ret is node.ret]
        if len(same_type) == 2 and not strict:
            if syntax.text in "+-" and bv == 0:
                return a, None, j
            if syntax.text == "+" and av == 0:
                return b, None, j
            if syntax.text == "*" and (av == 1 or bv == 1):
                return (b if av == 1 else a), None, j
            if syntax.text == "*" and (av == 0 or bv == 0):
                zero = _literal(dsl, node.ret, 0)
                if zero is not None:
                    return [zero], 0, j
    if syntax.kind == "call" and syntax.text == "sum" and node.arity == 1 and not strict:
        sub = children[0][0]
        body = sub[1] if len(sub) > 1 and dsl.syntax[sub[0].name].kind == "map" else None
        if body is not None and body.arity == 0 and \
                _number(dsl.syntax[body.name].text or "") == 0:  # sum(map(lambda x: 0, L))
            zero = _literal(dsl, node.ret, 0)
            if zero is not None:
                return [zero], 0, j
    flat = [node]
    for sub, _ in children:
        flat += sub
    return flat, None, j
