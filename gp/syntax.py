"""How programs read: printing trees as code a user can paste back, and parsing it.

A language declares, for each primitive, how it prints (``Syntax``); ``ProgramText``
(a part of ``gp.dsl.DSL``) prints trees with it and parses text back to the same
tree, typed, with errors that name the source and line. The grammar, generation
and compilation live in ``gp.dsl``; this module knows nothing of them but the
primitive set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deap import gp


@dataclass(frozen=True)
class Syntax:
    """How a primitive reads as text.

    kind: ``lit`` (a word or number), ``binop`` (``x OP y``), ``call`` (``f(x, ...)``),
    ``callv`` (``f(var)`` with the bound variable), ``index`` (``table[var]``),
    ``map`` (``map(lambda var: body, list)``), ``argmax_map``
    (``argmax(map(lambda var: body, list_text))``), ``ite``
    (``if x < y then p else q``), ``lines`` (one ``label: child`` line per child).
    """

    kind: str
    text: str = ""
    var: str = ""
    labels: tuple[str, ...] = ()


class ProgramSyntaxError(ValueError):
    """Program text that does not parse or does not type-check; says where."""


MAX_PROGRAM_CHARS = 200_000
"""Longest program text read (synthesized programs are a few thousand characters)."""

MAX_NESTING = 100
"""Deepest nesting of brackets read (synthesized programs nest a dozen deep)."""


def check_size(text: str, source: str) -> None:
    """Program text too long or nested too deeply to be a program is refused at once,
    naming its source (reading it would take long and exhaust the recursion limit)."""
    if len(text) > MAX_PROGRAM_CHARS:
        raise ProgramSyntaxError(f"{source}: {len(text):,} characters, too long for a "
                                 f"program (at most {MAX_PROGRAM_CHARS:,})")
    depth = deepest = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    if deepest > MAX_NESTING:
        raise ProgramSyntaxError(f"{source}: brackets nested {deepest} deep, too deep for a "
                                 f"program (at most {MAX_NESTING})")


@dataclass
class _Node:
    """Generic syntax tree produced by the tokenizer/parser before typing."""

    kind: str  # num, ident, call, index, binop, lambda, ite, lines
    text: str = ""
    children: tuple = ()
    pos: int = 0


class ProgramText:
    """Printing and parsing for a DSL (needs ``name``, ``pset``, ``root_type``, ``syntax``)."""

    name: str
    pset: Any
    root_type: type
    syntax: dict[str, Syntax]

    # ---- print -----------------------------------------------------------------------
    def to_text(self, tree: Sequence) -> str:
        text, end = self._text(tree, 0)
        if end != len(tree):
            raise ValueError("malformed program tree")
        return text

    def _text(self, tree: Sequence, i: int) -> tuple[str, int]:
        node = tree[i]
        syn = self.syntax[node.name]
        parts = []
        j = i + 1
        for _ in range(node.arity):
            child_root = tree[j]
            part, j = self._text(tree, j)
            parts.append((part, child_root))
        wrap = syn.kind in ("binop", "ite")  # operators and conditionals as operands
        return _render(syn, [self._wrap(p, n) if wrap else p for p, n in parts]), j

    def _wrap(self, text: str, node) -> str:
        """Parenthesize operators and conditionals used as operands."""
        return f"({text})" if self.syntax[node.name].kind in ("binop", "ite") else text

    # ---- declaration check ---------------------------------------------------------------
    def syntax_problem(self, syntax: Syntax, arity: int, ret: type) -> str | None:
        """Why a primitive declared with ``syntax`` would print text that ``parse`` cannot
        read back to it (None if it reads back).

        Checked when the primitive is declared, on its text with a placeholder per
        operand: a language whose printer writes something its parser does not know
        (``Syntax("binop", ">=")``) would otherwise save programs nobody can load.
        """
        kind = syntax.kind
        if kind not in _OPERANDS:
            return f"unknown syntax kind '{kind}' (known: {', '.join(_OPERANDS)})"
        wanted = len(syntax.labels) if kind == "lines" else _OPERANDS[kind]
        if kind == "call" and arity == 0:
            return (f"'{syntax.text}()' has no operand, which the parser cannot read "
                    f"(declare it as Syntax('lit', '{syntax.text}'))")
        if wanted is not None and arity != wanted:
            return f"syntax '{kind}' prints {wanted} operand(s) but the primitive takes {arity}"
        if kind == "lines" and ret is not self.root_type:
            return "'lines' (one 'label: ...' line per operand) is read only as the whole program"
        if kind == "lines" and any(s.kind == "lines" for s in self.syntax.values()):
            return ("the language already has a 'lines' form, and programs are read as that "
                    "one: programs of a second would not load")
        holes = [f"_{i}" for i in range(arity)]
        text = _render(syntax, holes)
        try:
            if kind == "lines":
                node = self._parse_lines(text, syntax.labels)
            else:
                node = _Parser(_strip_comments(text)).parse_all()
        except ProgramSyntaxError as err:
            hint = (f" (the parser reads the binary operators {', '.join(BINARY_OPERATORS)})"
                    if kind == "binop" else "")
            return f"prints as '{text}', which does not parse back: {err}{hint}"
        subs = _match(syntax, node)
        if subs is None or [(s.kind, s.text) for s in subs] != [("ident", h) for h in holes]:
            return f"prints as '{text}', which parses back as something else"
        return None

    # ---- parse -----------------------------------------------------------------------
    def parse(self, text: str, source: str = "<program>") -> gp.PrimitiveTree:
        """Parse program text back to a tree of the root type; errors name source and line."""
        check_size(text, source)
        try:
            return self._parse(text, source)
        except RecursionError:
            raise ProgramSyntaxError(f"{source}: nested too deeply to read (a chain of "
                                     "operators or calls too long)") from None

    def _parse(self, text: str, source: str) -> gp.PrimitiveTree:
        root_syn = [s for n, s in self.syntax.items() if s.kind == "lines"
                    and self._prim(n).ret is self.root_type]
        try:
            if root_syn:
                node = self._parse_lines(text, root_syn[0].labels)
            else:
                node = _Parser(_strip_comments(text)).parse_all()
            nodes = self._resolve(node, self.root_type)
        except ProgramSyntaxError as err:
            raise ProgramSyntaxError(f"{source}: {err}") from None
        if nodes is None:
            raise ProgramSyntaxError(f"{source}: {self._type_error(node)}")
        return gp.PrimitiveTree(nodes)

    def _parse_lines(self, text: str, labels: tuple[str, ...]) -> _Node:
        found: dict[str, _Node] = {}
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = _strip_comments(raw).strip()
            if not line:
                continue
            head, sep, body = line.partition(":")
            label = head.strip()
            body = " " * (len(head) + 1) + body  # keep columns counted from the line start
            if not sep or label not in labels:
                raise ProgramSyntaxError(
                    f"line {lineno}: expected one of {', '.join(x + ':' for x in labels)}")
            if label in found:
                raise ProgramSyntaxError(f"line {lineno}: '{label}' given twice")
            try:
                found[label] = _Parser(body).parse_all()
            except ProgramSyntaxError as err:
                raise ProgramSyntaxError(f"line {lineno}: {err}") from None
            found[label].pos = lineno
        missing = [lab for lab in labels if lab not in found]
        if missing:
            raise ProgramSyntaxError(f"missing line(s): {', '.join(m + ':' for m in missing)}")
        return _Node("lines", children=tuple(found[lab] for lab in labels))

    def _type_error(self, node: _Node) -> str:
        """Point at the line that does not type-check (a multi-line root) or the whole."""
        if node.kind == "lines":
            root = next(p for p in self.pset.primitives[self.root_type]
                        if self.syntax[p.name].kind == "lines")
            labels = self.syntax[root.name].labels
            for label, child, arg in zip(labels, node.children, root.args):
                if self._resolve(child, arg) is None:
                    return (f"line {child.pos}: '{label}' is not a valid {self.name} expression "
                            "(a name used outside the lambda that binds it, or a value of "
                            "the wrong kind)")
        return f"not a {self.name} program (types do not fit)"

    def _prim(self, name: str):
        return self.pset.mapping[name]

    def _resolve(self, node: _Node, type_: type) -> list | None:
        """Typed match of a syntax node: the first primitive of ``type_`` that fits."""
        candidates = list(self.pset.primitives.get(type_, [])) + list(
            self.pset.terminals.get(type_, []))
        for prim in candidates:
            syn = self.syntax[prim.name]
            subs = _match(syn, node)
            args = getattr(prim, "args", [])
            if subs is None or len(subs) != len(args):  # a call with operands too few or many
                continue
            out = [prim]
            for sub, arg_type in zip(subs, args):
                resolved = self._resolve(sub, arg_type)
                if resolved is None:
                    break
                out += resolved
            else:
                return out
        return None


_OPERANDS: dict[str, int | None] = {"lit": 0, "binop": 2, "call": None, "callv": 0,
                                    "index": 0, "map": 2, "argmax_map": 1, "ite": 4,
                                    "lines": None}
"""Syntax kind -> operands it prints (None: any number; ``lines``: one per label)."""

BINARY_OPERATORS = ("+", "-", "*", "and", "or")
"""The binary operators the parser reads, tightest first: ``*``, then ``+`` and ``-``
(left to right), ``and``, ``or``. Comparisons are not operators: write ``less(x, y)``
(a ``call``) or use the ``ite`` kind (``if x < y then p else q``)."""


def _render(syn: Syntax, texts: Sequence[str]) -> str:
    """The text of a node whose operands read ``texts`` (already parenthesized)."""
    k = syn.kind
    if k == "lit":
        return syn.text
    if k == "binop":
        return f"{texts[0]} {syn.text} {texts[1]}"
    if k == "call":
        return f"{syn.text}({', '.join(texts)})"
    if k == "callv":
        return f"{syn.text}({syn.var})"
    if k == "index":
        return f"{syn.text}[{syn.var}]"
    if k == "map":
        return f"map(lambda {syn.var}: {texts[0]}, {texts[1]})"
    if k == "argmax_map":
        return f"argmax(map(lambda {syn.var}: {texts[0]}, {syn.text}))"
    if k == "ite":
        return f"if {texts[0]} < {texts[1]} then {texts[2]} else {texts[3]}"
    if k == "lines":
        return "\n".join(f"{label}: {t}" for label, t in zip(syn.labels, texts))
    raise ValueError(f"unknown syntax kind {k!r}")


def _match(syn: Syntax, node: _Node) -> list[_Node] | None:
    """Children to resolve if ``node`` has the shape of ``syn``, else None."""
    k = syn.kind
    if k == "lit":
        return [] if node.kind in ("ident", "num") and node.text == syn.text else None
    if k == "binop":
        return list(node.children) if node.kind == "binop" and node.text == syn.text else None
    if k == "call":
        return list(node.children) if node.kind == "call" and node.text == syn.text else None
    if k == "callv":
        ok = (node.kind == "call" and node.text == syn.text and len(node.children) == 1
              and node.children[0].kind == "ident" and node.children[0].text == syn.var)
        return [] if ok else None
    if k == "index":
        ok = (node.kind == "index" and node.text == syn.text
              and node.children[0].kind == "ident" and node.children[0].text == syn.var)
        return [] if ok else None
    if k == "map":
        if node.kind == "call" and node.text == "map" and len(node.children) == 2:
            lam, lst = node.children
            if lam.kind == "lambda" and lam.text == syn.var:
                return [lam.children[0], lst]
        return None
    if k == "argmax_map":
        if node.kind == "call" and node.text == "argmax" and len(node.children) == 1:
            inner = node.children[0]
            if inner.kind == "call" and inner.text == "map" and len(inner.children) == 2:
                lam, lst = inner.children
                if (lam.kind == "lambda" and lam.text == syn.var and lst.kind == "ident"
                        and lst.text == syn.text):
                    return [lam.children[0]]
        return None
    if k == "ite":
        return list(node.children) if node.kind == "ite" else None
    if k == "lines":
        return list(node.children) if node.kind == "lines" else None
    return None


def _strip_comments(text: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


class _Parser:
    """Recursive descent; binding from loosest: ``or``, ``and``, ``+``/``-``, ``*``."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str, int]] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.tokens.append(("num", m.group(1), m.start(1)))
            elif m.group(2):
                self.tokens.append(("ident", m.group(2), m.start(2)))
            elif m.group(3) and not m.group(3).isspace():
                self.tokens.append(("op", m.group(3), m.start(3)))
        self.i = 0

    def peek(self, value: str | None = None):
        if self.i >= len(self.tokens):
            return None
        tok = self.tokens[self.i]
        return tok if value is None or tok[1] == value else None

    def expect(self, value: str):
        tok = self.peek()
        if tok is None or tok[1] != value:
            where = f"'{tok[1]}' at column {tok[2] + 1}" if tok else "end of text"
            raise ProgramSyntaxError(f"expected '{value}', found {where}")
        self.i += 1
        return tok

    def parse_all(self) -> _Node:
        node = self.expr()
        if self.peek() is not None:
            tok = self.peek()
            raise ProgramSyntaxError(f"unexpected '{tok[1]}' at column {tok[2] + 1}")
        return node

    def expr(self) -> _Node:
        if self.peek("if"):
            return self.ite()
        if self.peek("lambda"):
            return self.lam()
        node = self.conjunction()
        while self.peek("or"):
            self.i += 1
            node = _Node("binop", "or", (node, self.conjunction()))
        return node

    def conjunction(self) -> _Node:
        node = self.arith()
        while self.peek("and"):
            self.i += 1
            node = _Node("binop", "and", (node, self.arith()))
        return node

    def arith(self) -> _Node:
        node = self.term()
        while self.peek("+") or self.peek("-"):
            op = self.tokens[self.i][1]
            self.i += 1
            node = _Node("binop", op, (node, self.term()))
        return node

    def term(self) -> _Node:
        node = self.atom()
        while self.peek("*"):
            self.i += 1
            node = _Node("binop", "*", (node, self.atom()))
        return node

    def ite(self) -> _Node:
        self.expect("if")
        left = self.expr()
        self.expect("<")
        right = self.expr()
        self.expect("then")
        yes = self.expr()
        self.expect("else")
        no = self.expr()
        return _Node("ite", children=(left, right, yes, no))

    def lam(self) -> _Node:
        self.expect("lambda")
        tok = self.peek()
        if tok is None or tok[0] != "ident":
            raise ProgramSyntaxError("expected a variable after 'lambda'")
        self.i += 1
        self.expect(":")
        return _Node("lambda", tok[1], (self.expr(),))

    def atom(self) -> _Node:
        tok = self.peek()
        if tok is None:
            raise ProgramSyntaxError("unexpected end of text")
        kind, value, pos = tok
        if value == "(":
            self.i += 1
            node = self.expr()
            self.expect(")")
            return node
        if kind == "num":
            self.i += 1
            return _Node("num", value, pos=pos)
        if kind == "ident" and value not in ("if", "then", "else", "lambda", "and", "or"):
            self.i += 1
            if self.peek("("):
                self.i += 1
                args = [self.expr()]
                while self.peek(","):
                    self.i += 1
                    args.append(self.expr())
                self.expect(")")
                return _Node("call", value, tuple(args), pos)
            if self.peek("["):
                self.i += 1
                index = self.expr()
                self.expect("]")
                return _Node("index", value, (index,), pos)
            return _Node("ident", value, pos=pos)
        raise ProgramSyntaxError(f"unexpected '{value}' at column {pos + 1}")
