"""The microRTS scripting language (``--dsl scripts``, formerly ``seed001``; Aleixo 2023,
appendix A.2) as a DEAP typed primitive set: per-unit scripts of loops, conditions and
commands.

    S -> S S | for S | if(B) then S | if(B) then S else S | C | λ

with the 14 Boolean functions B and 7 commands C over the parameter sets T
(unit types), N (numbers), D (directions), O_p (target criteria) and T_p
(players). Programs print like Fig. 4 of the sketch-learning paper and parse back::

    for u in s:
        if u.isBuilder():
            u.harvest(4)
        else:
            u.attack(Closest)
        u.train(Ranged, EnemyDir, 6)
    u.build(Barracks, Up, 1)

``pass`` is λ. A sequence of statements is a right-nested chain of ``S S``, so
text -> tree -> text is exact and tree -> text -> tree gives the tree with its
sequences re-associated to the right (``canonical``). What each function means
is in ``games.microrts.interpreter``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import partial

from deap import gp

from games.microrts import interpreter as rt
from games.microrts.program_bot import ProgramBot, java_program_ai
from gp.dsl import DSL, ProgramPlayer, ProgramSyntaxError, Syntax, node_depth, subtree_end


class S:
    """A statement."""


class C:
    """A command."""


class B:
    """A Boolean function."""


class T:
    """A unit type."""


class N:
    """A number."""


class D:
    """A direction."""


class Op:
    """A target criterion."""


class Tp:
    """A player (Ally or Enemy)."""


# name: (argument types, printed name, player-level?)
BOOLEANS: dict[str, tuple[tuple[type, ...], str, Callable, bool]] = {
    "HasNumberOfUnits": ((T, N), "hasNumberOfUnits", rt.has_number_of_units, True),
    "OpponentHasNumberOfUnits": ((T, N), "opponentHasNumberOfUnits",
                                 rt.opponent_has_number_of_units, True),
    "HasLessNumberOfUnits": ((T, N), "hasLessNumberOfUnits", rt.has_less_number_of_units, True),
    "HaveQtdUnitsAttacking": ((N,), "haveQtdUnitsAttacking", rt.have_units_attacking, True),
    "HasUnitWithinDistanceFromOpponent": ((N,), "u.hasUnitWithinDistanceFromOpponent",
                                          rt.unit_within_distance_of_opponent, False),
    "HasNumberOfWorkersHarvesting": ((N,), "hasNumberOfWorkersHarvesting",
                                     rt.has_workers_harvesting, True),
    "is_Type": ((T,), "u.isType", rt.is_type, False),
    "IsBuilder": ((), "u.isBuilder", rt.is_builder, False),
    "CanAttack": ((), "u.canAttack", rt.can_attack, False),
    "HasUnitThatKillsInOneAttack": ((), "u.hasUnitThatKillsInOneAttack",
                                    rt.kills_in_one_attack, False),
    "OpponentHasUnitThatKillsUnitInOneAttack": ((), "u.opponentHasUnitThatKillsUnitInOneAttack",
                                                rt.opponent_kills_in_one_attack, False),
    "HasUnitInOpponentRange": ((), "u.hasUnitInOpponentRange", rt.in_opponent_range, False),
    "OpponentHasUnitInPlayerRange": ((), "u.opponentHasUnitInPlayerRange", rt.opponent_in_range,
                                     False),
    "CanHarvest": ((), "u.canHarvest", rt.can_harvest, False),
}

COMMANDS: dict[str, tuple[tuple[type, ...], str, Callable]] = {
    "Build": ((T, D, N), "u.build", rt.build),
    "Train": ((T, D, N), "u.train", rt.train),
    "moveToUnit": ((Tp, Op), "u.moveToUnit", rt.move_to_unit),
    "Attack": ((Op,), "u.attack", rt.attack),
    "Harvest": ((N,), "u.harvest", rt.harvest),
    "Idle": ((), "u.idle", rt.idle),
    "MoveAway": ((), "u.moveAway", rt.move_away),
}

TERMINALS: tuple[tuple[type, Sequence], ...] = (
    (T, rt.UNIT_TYPES), (N, rt.NUMBERS), (D, rt.DIRECTIONS), (Op, rt.CRITERIA),
    (Tp, rt.PLAYERS))


# ---- builders: children's closures/values -> this node's closure (cycle, unit) -> ... ----
# Statements that cannot do anything compile to ``_noop`` and are dropped: λ, a ``for``
# or ``if`` whose body is λ, an if-else with two λ branches (Boolean functions only
# read the snapshot, so skipping their evaluation changes nothing). Synthesized
# programs are full of these, e.g. ``for u in s: pass`` nested in a loop over units.
#
# A loop whose body holds only commands (no condition) does nothing the second time
# it runs in one program run: a unit it assigned stays assigned, and a command that
# failed for a unit fails again, because within a run resources only fall and
# counts, assignments and occupied cells only grow (a command with the Random
# criterion is left out: a failed moveToUnit may have drawn from the generator).
# Such a loop runs once per program run: synthesized programs nest them
# (``for: for: u.idle()`` inside the loop over units runs n³ commands otherwise).
# ``SKIP_REPEATED_LOOPS`` turns this off (the tests compare both).
SKIP_REPEATED_LOOPS = True


def _noop(cycle, u):
    return None


def _stable(closure):
    """Mark a closure as giving commands only (see above)."""
    closure.stable = True
    return closure


def _is_stable(closure) -> bool:
    return getattr(closure, "stable", False)


def _seq(first, second):
    if first is _noop:
        return second
    if second is _noop:
        return first
    # One closure runs the whole flattened sequence (programs nest ``seq`` to the right,
    # one level per statement: calling through the nesting cost more than the statements).
    parts = getattr(first, "parts", (first,)) + getattr(second, "parts", (second,))

    def run(cycle, u):
        for part in parts:
            part(cycle, u)
    run.parts = parts
    return _stable(run) if _is_stable(first) and _is_stable(second) else run


def _for(body):
    if body is _noop:
        return _noop
    if _is_stable(body) and SKIP_REPEATED_LOOPS:
        def once(cycle, u):
            if once in cycle.loops_done:
                return
            cycle.loops_done.add(once)
            for unit in cycle.own:
                body(cycle, unit)
        return _stable(once)

    def run(cycle, u):
        for unit in cycle.own:
            body(cycle, unit)
    return run


def _if(cond, body):
    if body is _noop:
        return _noop

    def run(cycle, u):
        if cond(cycle, u):
            body(cycle, u)
    return run


def _ifelse(cond, yes, no):
    if yes is _noop and no is _noop:
        return _noop
    if no is _noop:
        return _if(cond, yes)

    def run(cycle, u):
        if cond(cycle, u):
            yes(cycle, u)
        else:
            no(cycle, u)
    return run


def _skip():
    return _noop


def _identity(child):
    return child


def _player_test(fn, *args):
    def test(cycle, u):
        return fn(cycle, *args)
    return test


def _unit_test(fn, *args):
    def test(cycle, u):
        if u is not None:
            return fn(cycle, u, *args)
        return any(fn(cycle, unit, *args) for unit in cycle.own)
    return test


def _command(fn, *args):
    # Every command gives nothing to a unit that already has an action this run (its
    # first test), so that test is made here, before the call.
    def command(cycle, u):
        if u is not None:
            if u.id not in cycle.assigned:
                fn(cycle, u, *args)
            return
        for unit in cycle.own:  # outside a for: the first unit that takes it
            if unit.id not in cycle.assigned and fn(cycle, unit, *args):
                return
    return command if "Random" in args else _stable(command)


def _constant(value):
    return value


def _boolean_builder(fn, player_level):
    return partial(_player_test, fn) if player_level else partial(_unit_test, fn)


class MicroRTSLanguage(DSL):
    """The statement language: indentation-structured printer and parser."""

    def __init__(self) -> None:
        super().__init__("microrts", S, max_height=10, max_size=60)
        self.primitive("seq", (S, S), S, Syntax("seq"), _seq)
        self.primitive("for", (S,), S, Syntax("for"), _for)
        self.primitive("if", (B, S), S, Syntax("if"), _if)
        self.primitive("ifelse", (B, S, S), S, Syntax("ifelse"), _ifelse)
        self.primitive("command", (C,), S, Syntax("command"), _identity)
        self.terminal("skip", S, Syntax("lit", "pass"), _skip)
        self.calls: dict[tuple[type, str], str] = {}
        for name, (args, text, fn, player_level) in BOOLEANS.items():
            self.primitive(name, args, B, Syntax("call", text),
                           _boolean_builder(fn, player_level))
            self.calls[(B, text.removeprefix("u."))] = name
        for name, (args, text, fn) in COMMANDS.items():  # build and train read the
            # unit types from cycle.kinds_by_name
            self.primitive(name, args, C, Syntax("call", text), partial(_command, fn))
            self.calls[(C, text.removeprefix("u."))] = name
        self.literals: dict[tuple[type, str], str] = {}
        for type_, values in TERMINALS:
            for value in values:
                name = f"{type_.__name__}_{value}"
                self.terminal(name, type_, Syntax("lit", str(value)), partial(_constant, value))
                self.literals[(type_, str(value))] = name

    STATEMENTS = {"seq": 2, "for": 1, "if": 2, "ifelse": 3, "command": 1}
    """Statement syntax kinds -> operands; they print as indented lines (``_statement``)."""

    def syntax_problem(self, syntax: Syntax, arity: int, ret: type) -> str | None:
        """What ``parse`` reads: statements by kind, conditions and commands as
        ``name(literal, ...)``, literals as single words."""
        kind = syntax.kind
        if kind in self.STATEMENTS:
            wanted = self.STATEMENTS[kind]
            return None if arity == wanted else \
                f"statement '{kind}' has {wanted} operand(s), the primitive {arity}"
        if kind == "call":
            return None if re.fullmatch(r"(?:u\.)?[A-Za-z_]\w*", syntax.text) else \
                f"'{syntax.text}(...)' is not a call the line parser reads"
        if kind == "lit":
            return None if re.fullmatch(r"[^\s,()#:]+", syntax.text) else \
                f"literal '{syntax.text}' is not one word"
        return f"syntax kind '{kind}' is not part of the microRTS language"

    # ---- neighbours -----------------------------------------------------------------------
    INSERT_SHARE = 0.5
    """Share of neighbours made by the reference's insertion move instead of a regrow."""

    def neighbour(self, tree: Sequence, rng: random.Random, max_height: int | None = None,
                  tries: int = 100):
        """The sketch-learning paper's move (regrow a uniformly chosen subtree) or, half of the
        time, the
        reference microRTS SA's insertion: a uniformly chosen statement ``x`` becomes
        ``new x`` or ``x new`` with ``new`` a fresh random statement, so programs can
        grow one instruction at a time."""
        if rng.random() >= self.INSERT_SHARE:
            return super().neighbour(tree, rng, max_height, tries)
        limit = self.max_height if max_height is None else max_height
        nodes = list(tree)
        statements = [i for i, node in enumerate(nodes) if node.ret is S]
        if not statements:  # a condition, a command or a parameter (UCT's hole fills)
            return super().neighbour(tree, rng, max_height, tries)
        seq = self.pset.mapping["seq"]
        for _ in range(tries):
            index = rng.choice(statements)
            stop = subtree_end(nodes, index)
            room = limit - node_depth(nodes, index) - 1
            if room < 2 or gp.PrimitiveTree(nodes[index:stop]).height > room:
                continue  # no room for a command beside it
            new = self.generate(rng, S, rng.randint(2, min(room, 4)))
            old = nodes[index:stop]
            pair = new + old if rng.random() < 0.5 else old + new
            candidate = nodes[:index] + [seq] + pair + nodes[stop:]
            if len(candidate) <= self.max_size:
                return type(tree)(candidate)
        return super().neighbour(tree, rng, max_height, tries)

    # ---- print ----------------------------------------------------------------------------
    def to_text(self, tree: Sequence) -> str:
        lines, end = self._statement(tree, 0, 0)
        if end != len(tree):
            raise ValueError("malformed program tree")
        return "\n".join(lines)

    def _statement(self, tree: Sequence, i: int, depth: int) -> tuple[list[str], int]:
        pad = "    " * depth
        name = tree[i].name
        if name == "seq":
            first, j = self._statement(tree, i + 1, depth)
            second, k = self._statement(tree, j, depth)
            return first + second, k
        if name == "for":
            body, j = self._statement(tree, i + 1, depth + 1)
            return [pad + "for u in s:"] + body, j
        if name in ("if", "ifelse"):
            cond, j = self._call(tree, i + 1)
            yes, k = self._statement(tree, j, depth + 1)
            lines = [pad + f"if {cond}:"] + yes
            if name == "ifelse":
                no, k = self._statement(tree, k, depth + 1)
                lines += [pad + "else:"] + no
            return lines, k
        if name == "command":
            text, j = self._call(tree, i + 1)
            return [pad + text], j
        if name == "skip":
            return [pad + "pass"], i + 1
        raise ValueError(f"node {name} is not a statement")

    def _call(self, tree: Sequence, i: int) -> tuple[str, int]:
        node = tree[i]
        args = [self.syntax[tree[i + 1 + k].name].text for k in range(node.arity)]
        return f"{self.syntax[node.name].text}({', '.join(args)})", i + 1 + node.arity

    # ---- parse ----------------------------------------------------------------------------
    def parse(self, text: str, source: str = "<program>") -> gp.PrimitiveTree:
        lines = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].rstrip()
            if not body.strip():
                continue
            if "\t" in body[: len(body) - len(body.lstrip())]:
                raise ProgramSyntaxError(f"{source}: line {lineno}: indent with spaces, not tabs")
            lines.append((lineno, len(body) - len(body.lstrip()), body.strip()))
        if not lines:
            return gp.PrimitiveTree([self.pset.mapping["skip"]])
        try:
            nodes, end = self._block(lines, 0, lines[0][1])
            if end != len(lines):
                lineno = lines[end][0]
                raise ProgramSyntaxError(f"line {lineno}: unexpected indentation")
        except ProgramSyntaxError as err:
            raise ProgramSyntaxError(f"{source}: {err}") from None
        return gp.PrimitiveTree(nodes)

    def _block(self, lines, i: int, indent: int) -> tuple[list, int]:
        """Statements at ``indent`` from line ``i``, folded into a right-nested sequence."""
        statements = []
        while i < len(lines) and lines[i][1] == indent:
            statement, i = self._line(lines, i, indent)
            statements.append(statement)
        if i < len(lines) and lines[i][1] > indent:
            raise ProgramSyntaxError(f"line {lines[i][0]}: unexpected indentation")
        nodes: list = []
        for statement in statements[:-1]:
            nodes += [self.pset.mapping["seq"]] + statement
        return nodes + statements[-1], i

    def _body(self, lines, i: int, indent: int, header: str) -> tuple[list, int]:
        if i >= len(lines) or lines[i][1] <= indent:
            where = f"line {lines[i - 1][0]}"
            raise ProgramSyntaxError(f"{where}: '{header}' needs an indented block (or 'pass')")
        return self._block(lines, i, lines[i][1])

    def _line(self, lines, i: int, indent: int) -> tuple[list, int]:
        lineno, _, text = lines[i]
        mapping = self.pset.mapping
        if text == "pass":
            return [mapping["skip"]], i + 1
        if re.fullmatch(r"for\s+u\s+in\s+s\s*:", text):
            body, j = self._body(lines, i + 1, indent, "for")
            return [mapping["for"]] + body, j
        found = re.fullmatch(r"if\s+(.+?)\s*:", text)
        if found:
            cond = self._parse_call(found.group(1), B, lineno)
            yes, j = self._body(lines, i + 1, indent, "if")
            if j < len(lines) and lines[j][1] == indent and re.fullmatch(r"else\s*:", lines[j][2]):
                no, k = self._body(lines, j + 1, indent, "else")
                return [mapping["ifelse"]] + cond + yes + no, k
            return [mapping["if"]] + cond + yes, j
        if re.fullmatch(r"else\s*:", text):
            raise ProgramSyntaxError(f"line {lineno}: 'else' without 'if'")
        return [mapping["command"]] + self._parse_call(text, C, lineno), i + 1

    def _parse_call(self, text: str, type_: type, lineno: int) -> list:
        kind = "condition" if type_ is B else "command"
        found = re.fullmatch(r"(?:u\.)?([A-Za-z_]\w*)\s*\((.*)\)", text)
        if not found or (type_, found.group(1)) not in self.calls:
            known = sorted(n for t, n in self.calls if t is type_)
            raise ProgramSyntaxError(f"line {lineno}: '{text}' is not a {kind} "
                                     f"(known: {', '.join(known)})")
        prim = self.pset.mapping[self.calls[(type_, found.group(1))]]
        args = [a.strip() for a in found.group(2).split(",")] if found.group(2).strip() else []
        if len(args) != prim.arity:
            raise ProgramSyntaxError(f"line {lineno}: {found.group(1)} takes {prim.arity} "
                                     f"argument(s), got {len(args)}")
        out = [prim]
        for arg, arg_type in zip(args, prim.args):
            name = self.literals.get((arg_type, arg))
            if name is None:
                allowed = [v for t, v in self.literals if t is arg_type]
                raise ProgramSyntaxError(f"line {lineno}: '{arg}' is not a {arg_type.__name__} "
                                         f"({', '.join(allowed)})")
            out.append(self.pset.mapping[name])
        return out

    def canonical(self, tree: Sequence) -> gp.PrimitiveTree:
        """The tree with sequences nested to the right (what parsing its text gives)."""
        return self.parse(self.to_text(tree))


MICRORTS_DSL = MicroRTSLanguage()


class MicroRTSProgramPlayer(ProgramPlayer):
    """A microRTS player running a DSL program (``program:FILE`` on the command line).

    Picklable: it carries the program text and builds its AI inside the worker
    process that plays the match (``build(utt)``), like ``BotSpec``.
    """

    LANGUAGE = MICRORTS_DSL
    EVALUATORS = ("java", "python")
    """Where the program runs: ``java`` (``stratsynth.ProgramInterpreter``, the default:
    no Python call in a match; programs with the ``Random`` criterion run in Python, whose
    generator draws their choices) or ``python`` (``games.microrts.interpreter``). Both
    give the same orders (``tests/test_microrts_speed.py``)."""

    def __init__(self, program, name: str | None = None, seed: int = 0,
                 evaluator: str = "java") -> None:
        if isinstance(program, str):
            program = self.LANGUAGE.parse(program)
        if evaluator not in self.EVALUATORS:
            raise ValueError(f"evaluator must be one of {self.EVALUATORS}, got '{evaluator}'")
        self.tree = gp.PrimitiveTree(program)
        self.text = self.LANGUAGE.to_text(self.tree)
        self.name = name or "program"
        self.seed = seed
        self.evaluator = evaluator

    @classmethod
    def parse_program(cls, text: str, source: str = "<program>") -> gp.PrimitiveTree:
        """A program file's tree; a file with no statement (empty or only comments) is
        refused: as a player it would idle every unit, which is never what was meant
        (write ``pass`` for the empty program)."""
        if not any(line.split("#", 1)[0].strip() for line in text.splitlines()):
            raise ProgramSyntaxError(f"{source}: empty program (no statement; write 'pass' "
                                     "for a program that does nothing)")
        return cls.LANGUAGE.parse(text, source)

    def __getstate__(self):
        return {"text": self.text, "name": self.name, "seed": self.seed,
                "evaluator": self.evaluator}

    def __setstate__(self, state) -> None:
        self.__init__(state["text"], state["name"], state["seed"],
                      state.get("evaluator", "java"))

    def reset(self, seed: int) -> None:
        """Seed of the ``Random`` criterion for the next match."""
        self.seed = seed

    def runs_in_java(self) -> bool:
        """Whether ``build`` gives the Java interpreter (see ``EVALUATORS``)."""
        return (self.evaluator == "java" and self.LANGUAGE is MICRORTS_DSL
                and not any(node.name == "Op_Random" for node in self.tree))

    def build(self, utt, interpreter: str = "ours"):
        """The match's AI: a Java ``stratsynth.ProgramAI`` running the program, or a
        Python ``ProgramBot`` (see ``EVALUATORS``); ``interpreter`` is the game's
        (``games.microrts.interpreter.INTERPRETERS``)."""
        if self.runs_in_java():
            return java_program_ai([node.name for node in self.tree], utt, interpreter)
        return ProgramBot(self.LANGUAGE.compile(self.tree), utt, self.seed, interpreter)
