"""Metarules, clauses and their evaluation over game positions (MIGO, Hocquette and Muggleton).

Programs are dyadic Datalog in H²₂ with negation as failure, over the background
knowledge ``move/2`` (a legal move A→B), ``won/1`` (the player who just moved has
won at B) and ``drawn/1``. A position is a ``(board, player-to-move)`` key, so one
definition describes moves of either player: ``win_1(B,C)`` is "the opponent can
win at once from B".

Every clause is an instance of a metarule (P, Q, R are the predicate symbols a
meta-substitution binds)::

    postcon      P(A,B) :- Q(A,B), R(B).
    postcon_not  P(A,B) :- Q(A,B), not R(B).
    negation     P(A,B) :- Q(A,B), not R(B,_).
    negation_rec P(A,B) :- Q(A,B), not P(B,_).
    precon       P(A,B) :- R(A), Q(A,B).
    chain        P(A,B) :- Q(A,C), R(C,B).
    tailrec      P(A,B) :- Q(A,C), P(C,B).

The MIGO paper names two (postcon and negation, ``MIGO_METARULES``); the others are
the usual MIL forms (precondition, chain, tail recursion) and the recursive form
of negation. Game graphs are finite and acyclic, so every definition is evaluated bottom-up
without loops. Definitions are memoised by their structure, so a predicate
learned again with the same clauses reuses all it has computed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gp.languages.rules import Positions

MONADIC = ("won", "drawn")
DYADIC_BK = ("move",)
METARULES = ("postcon", "negation", "postcon_not", "precon", "negation_rec", "chain", "tailrec")
MIGO_METARULES = ("postcon", "negation")  # the MIGO paper, Table 1
_FORMS = {
    "postcon": "{p}(A,B) :- {q}(A,B), {r}(B).",
    "postcon_not": "{p}(A,B) :- {q}(A,B), not {r}(B).",
    "negation": "{p}(A,B) :- {q}(A,B), not {r}(B,_).",
    "negation_rec": "{p}(A,B) :- {q}(A,B), not {p}(B,_).",
    "precon": "{p}(A,B) :- {r}(A), {q}(A,B).",
    "chain": "{p}(A,B) :- {q}(A,C), {r}(C,B).",
    "tailrec": "{p}(A,B) :- {q}(A,C), {p}(C,B).",
}
# second-literal arity of each metarule (monadic R or dyadic R)
R_MONADIC = frozenset({"postcon", "postcon_not", "precon"})


@dataclass(frozen=True)
class Clause:
    """One meta-substitution: ``metarule`` with P=head, Q=q, R=r."""

    metarule: str
    head: str
    q: str
    r: str

    def __post_init__(self) -> None:
        if self.metarule not in _FORMS:
            raise ValueError(f"unknown metarule '{self.metarule}' (known: {', '.join(METARULES)})")
        if self.q == self.head:
            raise ValueError(f"left-recursive clause: {self.text()}")
        if (self.metarule in ("negation_rec", "tailrec")) != (self.r == self.head):
            raise ValueError(f"metarule {self.metarule} does not fit {self.text()}")

    def text(self) -> str:
        return _FORMS[self.metarule].format(p=self.head, q=self.q, r=self.r)


Program = Mapping[str, Sequence[Clause]]  # predicate name -> its clauses, in order


def program_text(program: Program, names: Sequence[str] | None = None) -> str:
    """The clauses as Prolog-like text, one per line."""
    return "\n".join(c.text() for name in (names or list(program)) for c in program[name])


_CLAUSE = {  # on the text with spaces removed and ``not `` written ``~``
    "postcon": r"(\w+)\(A,B\):-(\w+)\(A,B\),(\w+)\(B\)\.",
    "postcon_not": r"(\w+)\(A,B\):-(\w+)\(A,B\),~(\w+)\(B\)\.",
    "negation": r"(\w+)\(A,B\):-(\w+)\(A,B\),~(\w+)\(B,_\)\.",
    "precon": r"(\w+)\(A,B\):-(?P<r>\w+)\(A\),(?P<q>\w+)\(A,B\)\.",
    "chain": r"(\w+)\(A,B\):-(\w+)\(A,C\),(\w+)\(C,B\)\.",
}


def parse_clause(line: str) -> Clause:
    """Inverse of ``Clause.text`` (spacing is free)."""
    text = re.sub(r"\s+", "", re.sub(r"\bnot\s+", "~", line.strip()))
    for metarule, pattern in _CLAUSE.items():
        m = re.fullmatch(pattern, text)
        if not m:
            continue
        if metarule == "precon":
            return Clause(metarule, m.group(1), m.group("q"), m.group("r"))
        head, q, r = m.groups()
        if r == head:
            metarule = {"chain": "tailrec", "negation": "negation_rec"}[metarule]
        if metarule in R_MONADIC and r not in MONADIC:
            raise ValueError(f"'{r}' is not a monadic predicate ({', '.join(MONADIC)}): {line!r}")
        return Clause(metarule, head, q, r)
    raise ValueError(f"not a clause of any metarule: {line!r}")


def parse_program(text: str) -> dict[str, tuple[Clause, ...]]:
    """Clauses, one per line (blank lines and %-comments ignored), grouped by head."""
    program: dict[str, list[Clause]] = {}
    for line in text.splitlines():
        line = line.split("%", 1)[0].strip()
        if line:
            clause = parse_clause(line)
            program.setdefault(clause.head, []).append(clause)
    return {name: tuple(clauses) for name, clauses in program.items()}


class WorkExhausted(Exception):
    """More positions evaluated than the interpreter's current work limit allows."""


class Dyadic:
    """A compiled dyadic predicate: ``image(a)`` = every B with P(a, B), memoised."""

    def __init__(self, key, compute, meter: list | None = None) -> None:
        self.key = key
        self._compute = compute
        self.memo: dict = {}
        self.meter = meter  # [positions evaluated, limit or None], shared per interpreter

    def image(self, a) -> tuple:
        hit = self.memo.get(a)
        if hit is None:
            meter = self.meter
            if meter is not None:
                meter[0] += 1
                if meter[1] is not None and meter[0] > meter[1]:
                    raise WorkExhausted
            hit = self.memo[a] = self._compute(a)
        return hit

    def holds(self, a, b) -> bool:
        return b in self.image(a)


class Interpreter:
    """Evaluates programs over one game's positions; compiled predicates are shared
    between programs by structure (so relearning the same definition is free)."""

    def __init__(self, positions: Positions) -> None:
        self.positions = positions
        self._compiled: dict = {}
        self.meter: list = [0, None]
        self.fixed: dict[str, tuple] = {}  # keys of predicates fixed during one search
        move = Dyadic(("bk", "move"), lambda a: tuple(positions.successors(a)))
        self._compiled[("bk", "move")] = move
        self.monadic = {"won": positions.won_by_mover, "drawn": positions.drawn}

    # ---- structure ----------------------------------------------------------------------
    def key(self, name: str, program: Program, _stack: tuple = ()) -> tuple:
        """A hashable structure of ``name``'s definition (names of invented predicates
        do not matter, so equal definitions share one memo)."""
        if name in DYADIC_BK:
            return ("bk", name)
        hit = self.fixed.get(name)
        if hit is not None and name not in _stack:
            return hit
        if name in _stack:
            return ("self", len(_stack) - 1 - _stack.index(name))
        if name not in program:
            raise KeyError(f"predicate '{name}' is not defined")
        stack = _stack + (name,)
        parts = []
        for c in program[name]:
            q = self.key(c.q, program, stack)
            r = c.r if c.metarule in R_MONADIC else self.key(c.r, program, stack)
            parts.append((c.metarule, q, r))
        return ("def", tuple(parts))

    def predicate(self, name: str, program: Program) -> Dyadic:
        key = self.key(name, program)
        hit = self._compiled.get(key)
        if hit is None:
            hit = self._build(name, program, key)
        return hit

    def _build(self, name: str, program: Program, key: tuple) -> Dyadic:
        pred = Dyadic(key, None, self.meter)
        self._compiled[key] = pred  # before the body, so recursive calls find it
        images = []
        for c in program[name]:
            q = pred if c.q == name else self.predicate(c.q, program)
            if c.metarule in R_MONADIC:
                images.append(_clause_image(c.metarule, q, self.monadic[c.r]))
            else:
                r = pred if c.r == name else self.predicate(c.r, program)
                images.append(_clause_image(c.metarule, q, r))

        def compute(a):
            out: list = []
            for image in images:
                for b in image(a):
                    if b not in out:
                        out.append(b)
            return tuple(out)

        pred._compute = compute
        return pred

    def holds(self, name: str, program: Program, a, b) -> bool:
        return self.predicate(name, program).holds(a, b)


def _clause_image(metarule: str, q: Dyadic, r):
    if metarule == "postcon":
        return lambda a: [b for b in q.image(a) if r(b)]
    if metarule == "postcon_not":
        return lambda a: [b for b in q.image(a) if not r(b)]
    if metarule in ("negation", "negation_rec"):
        return lambda a: [b for b in q.image(a) if not r.image(b)]
    if metarule == "precon":
        return lambda a: list(q.image(a)) if r(a) else []
    # chain and tailrec: r is the second dyadic predicate (P itself for tailrec)
    return lambda a: [b for c in q.image(a) for b in r.image(c)]
