"""Meta-interpretive learning of game strategies, as MIGO (Hocquette and Muggleton).

``MetaInterpreter.learn`` is a Metagol-style learner: it proves the positive
examples of a target predicate one by one; an example the program cannot prove
deductively is proved by binding a metarule's head to the goal and proving its
body, either from the background knowledge (``move``, ``won``, ``drawn`` and the
predicates already learned, with their invented helpers) or by inventing a new
predicate proved the same way. The meta-substitutions make the program. Programs
are searched by iterative deepening on their number of clauses, so the first
program found is a smallest one; a program that proves a negative example is
rejected (Metagol checks negatives at the end; we check each extension, which
prunes the same programs earlier except where a recursive clause is not yet
complete).

``MILLearner`` is MIGO around it (Hocquette and Muggleton, Algorithm 1 and Sect. 4):

* credit assignment: in a game won against the optimal opponent every move of
  the learner is a positive example of ``win_k`` (Theorem 1), k its number of
  moves to the end; in a drawn game in which the win rules did not fire at the
  start, every move of either player is a positive example of ``draw_k``
  (Theorem 2). Mixed learning (the MIGO paper's better variant): draw examples are
  re-tested against the current win rules whenever those change.
* negative examples (``negatives="minimax"``, the default): the learner's moves
  that failed to win or draw under the minimax database the regret is measured
  with — a move A→B is a negative of ``win_k`` when B is not a forced win for the
  mover within k of its moves, and of ``draw_k`` when the opponent can force a
  win from B within k of its moves (the horizon of the rule, as for ``win_k``).
  ``negatives="none"`` is the MIGO paper's positives-only learning.
* dependent learning: ``win_1`` first, then ``win_2`` with ``win_1`` (and its
  helpers) in the background knowledge, …, then ``draw_1``, ``draw_2``, … with
  every win rule. Each predicate is relearned from scratch after every game that
  changes its examples or its background (a previous program that is still
  consistent is the first one the from-scratch search would return, and is kept).
* play: the first move proved by ``win_1``, ``win_2``, …, then by the draw rules
  (longest horizon first; ``draw_order="increasing"`` is the MIGO paper's draw_1 first),
  else a random legal move.
* ``win_k`` / ``draw_k`` are learned for every k that has examples (``max_k``
  caps it), as the MIGO paper iterates "until no further predicates can be learned".
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from games.solver import MinimaxSolver
from gp.languages.rules import Positions

from .metarules import (
    DYADIC_BK,
    METARULES,
    MONADIC,
    R_MONADIC,
    Clause,
    Interpreter,
    WorkExhausted,
    parse_program,
    program_text,
)

KINDS = ("win", "draw")
NEGATIVES = ("minimax", "none")
MODES = ("mixed", "separated")


class SearchExhausted(Exception):
    """The node budget of one learning call ran out."""


class MetaInterpreter:
    """Learns one target predicate from positive and negative (A, B) move pairs."""

    def __init__(self, interpreter: Interpreter, metarules: Sequence[str] = METARULES,
                 max_clauses: int = 3, max_nodes: int = 20000,
                 max_work: int | None = 200_000) -> None:
        unknown = [m for m in metarules if m not in METARULES]
        if unknown:
            raise ValueError(f"unknown metarules {unknown} (known: {', '.join(METARULES)})")
        self.interp = interpreter
        self.metarules = tuple(metarules)
        self.max_clauses = max_clauses
        self.max_nodes = max_nodes
        self.max_work = max_work
        self.nodes = 0

    def learn(self, target: str, positives: Sequence, negatives: Sequence = (),
              background: dict | None = None) -> dict[str, tuple[Clause, ...]] | None:
        """The first smallest program (target and invented helpers) that proves every
        positive and no negative, or None. ``background``: learned predicates usable
        in bodies (name -> clauses), in the order they are tried."""
        self._bk = dict(background or {})
        self._bk_names = [n for n in self._bk if not n.startswith(target + "_")]
        self._target, self._pos, self._neg = target, list(positives), list(negatives)
        self.nodes = 0
        meter = self.interp.meter
        meter[0], meter[1] = 0, self.max_work
        self.interp.fixed = {n: self.interp.key(n, self._bk) for n in self._bk}
        try:
            for budget in range(1, self.max_clauses + 1):
                for program in self._prove_examples(0, {}, budget):
                    return {name: tuple(cl) for name, cl in program.items()}
        except (SearchExhausted, WorkExhausted):
            return None
        finally:
            meter[1] = None
            self.interp.fixed = {}
        return None

    # ---- evaluation --------------------------------------------------------------------
    def _full(self, program: dict) -> dict:
        full = dict(self._bk)
        full.update(program)
        return full

    def _proves(self, program: dict, name: str, a, b) -> bool:
        return self.interp.holds(name, self._full(program), a, b)

    def _consistent(self, program: dict) -> bool:
        pred = self.interp.predicate(self._target, self._full(program))
        return not any(pred.holds(a, b) for a, b in self._neg)

    @staticmethod
    def _size(program: dict) -> int:
        return sum(len(c) for c in program.values())

    # ---- the meta-interpreter ----------------------------------------------------------
    def _prove_examples(self, i: int, program: dict, budget: int) -> Iterator[dict]:
        while i < len(self._pos) and self._target in program and self._proves(
                program, self._target, *self._pos[i]):
            i += 1
        if i == len(self._pos):
            yield program
            return
        a, b = self._pos[i]
        room = budget - self._size(program)
        for extended in self._add_clause(self._target, a, b, program, room):
            if self._consistent(extended):
                yield from self._prove_examples(i + 1, extended, budget)

    def _dyadic_pool(self, program: dict, head: str) -> list[str]:
        """Predicate symbols a body literal may use, in the order they are tried:
        move, learned predicates, then this program's invented ones (not the head)."""
        return list(DYADIC_BK) + self._bk_names + [n for n in program if n != head]

    def _invent(self, program: dict, pending: tuple) -> str:
        i = 1
        while any(f"{self._target}_{i}" in names for names in (program, self._bk, pending)):
            i += 1
        return f"{self._target}_{i}"

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchExhausted

    def _add_clause(self, head: str, a, b, program: dict, room: int,
                    pending: tuple = ()) -> Iterator[dict]:
        """Programs extending ``program`` by one clause for ``head`` (plus invented
        helpers) that prove head(a, b): one metarule's meta-substitution each."""
        if room < 1:
            return
        for metarule in self.metarules:
            for q, with_q in self._first_literals(metarule, head, a, b, program, room,
                                                  pending + (head,)):
                for r in self._second_symbols(metarule, head, q, with_q):
                    self._tick()
                    clause = Clause(metarule, head, q, r)
                    extended = dict(with_q)
                    extended[head] = tuple(extended.get(head, ())) + (clause,)
                    if self._proves(extended, head, a, b):
                        yield extended

    def _first_literals(self, metarule, head, a, b, program, room, pending):
        """(Q, program defining Q) pairs with Q(a, b) provable (any Q for chain/tailrec,
        whose first literal reaches an intermediate position)."""
        full = self._full(program)
        two_step = metarule in ("chain", "tailrec")
        if metarule == "tailrec" and head not in program:
            return  # needs a base clause of its own head first
        for q in self._dyadic_pool(program, head):
            if two_step or self.interp.holds(q, full, a, b):
                yield q, program
        if two_step or room < 2:
            return
        name = self._invent(program, pending)
        for defined in self._add_clause(name, a, b, program, room - 1, pending):
            yield name, defined

    def _second_symbols(self, metarule, head, q, program) -> list[str]:
        if metarule in R_MONADIC:
            return list(MONADIC)
        if metarule in ("tailrec", "negation_rec"):
            return [head]
        return self._dyadic_pool(program, head)


def split_label(label: str) -> tuple[str, int]:
    """'win_2' -> ('win', 2)."""
    kind, _, k = label.partition("_")
    if kind not in KINDS or not k.isdigit():
        raise ValueError(f"rule label '{label}' is not win_<k> or draw_<k>")
    return kind, int(k)


class MILLearner:
    """MIGO: win_k / draw_k strategies learned by meta-interpretive learning."""

    def __init__(self, game, seed: int = 0, max_k: int | None = None, negatives: str = "minimax",
                 mode: str = "mixed", draw_after: int = 10, max_clauses: int = 3,
                 max_nodes: int = 20000, max_work: int | None = 200_000,
                 metarules: Sequence[str] = METARULES, draw_negatives: str = "horizon",
                 draw_order: str = "decreasing",
                 transfer: str | None = None) -> None:
        if negatives not in NEGATIVES:
            raise ValueError(f"negatives must be one of {NEGATIVES}, got {negatives!r}")
        if draw_negatives not in ("horizon", "any"):
            raise ValueError(f"draw_negatives must be 'horizon' or 'any', got {draw_negatives!r}")
        if draw_order not in ("increasing", "decreasing"):
            raise ValueError(f"draw_order must be 'increasing' or 'decreasing', got {draw_order!r}")
        self.draw_negatives, self.draw_order = draw_negatives, draw_order
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.game = game
        self.name = "MIL" if negatives == "minimax" else "MIL (positives only)"
        self.rng = random.Random(seed)
        self.positions = Positions(game.rules)
        self.interp = Interpreter(self.positions)
        self.mil = MetaInterpreter(self.interp, metarules, max_clauses, max_nodes,
                                   max_work)
        # the MIGO paper learns win_k / draw_k "until no further predicates can be learned";
        # no game here lasts more moves of one player than its board has cells
        self.max_k = max_k or len(game.rules.initial_board())
        self.negatives, self.mode, self.draw_after = negatives, mode, draw_after
        self.solver = MinimaxSolver(game) if negatives == "minimax" else None
        self.games = 0
        self.win_pos: dict[int, list] = {}
        self.win_neg: dict[int, list] = {}
        self.draw_neg: dict[int, list] = {}
        self.draw_games: list[tuple] = []  # (start position, [(k, (A, B)), ...])
        self.program: dict[str, dict[str, tuple[Clause, ...]]] = {}  # label -> its clauses
        self._signature: dict[str, tuple] = {}
        self._found_with: dict[str, tuple | None] = {}  # label -> background it was searched on
        if transfer:
            self._install_transfer(transfer)

    def _install_transfer(self, text: str) -> None:
        clauses = parse_program(text)
        for name in clauses:
            if "_" not in name:
                raise ValueError(f"transferred predicate '{name}' is not win_<k>[_i] "
                                 "or draw_<k>[_i]")
        for name in clauses:
            label = "_".join(name.split("_")[:2])
            split_label(label)
            self.program.setdefault(label, {})[name] = clauses[name]
            self._found_with[label] = None  # transferred: kept while it stays consistent

    # ---- acting ------------------------------------------------------------------------
    def labels(self) -> list[str]:
        """Rules in the order they are tried: win_1, win_2, …, draw_1, …"""
        return sorted(self.program, key=lambda lab: (KINDS.index(split_label(lab)[0]),
                                                     split_label(lab)[1]))

    def play_order(self) -> list[str]:
        """win_1, win_2, … (fastest win first), then the draw rules, longest horizon
        first (``draw_order="decreasing"``) or as the MIGO paper, draw_1 first."""
        wins = [lab for lab in self.labels() if lab.startswith("win_")]
        draws = [lab for lab in self.labels() if lab.startswith("draw_")]
        return wins + (draws[::-1] if self.draw_order == "decreasing" else draws)

    def _library(self, labels: Sequence[str] | None = None) -> dict:
        full: dict = {}
        for label in (self.labels() if labels is None else labels):
            full.update(self.program[label])
        return full

    def chosen(self, key) -> tuple[str | None, object]:
        """(label of the rule that proved the move, child position) or (None, None)."""
        library = self._library()
        children = self.positions.successors(key)
        for label in self.play_order():
            pred = self.interp.predicate(label, library)
            for child in children:
                if pred.holds(key, child):
                    return label, child
        return None, None

    def __call__(self, state):
        board, player = state.key()
        moves = self.game.rules.moves(board, player)
        _, child = self.chosen((board, player))
        if child is not None:
            for move in moves:
                if self.game.rules.play(board, player, move) == child[0]:
                    return move
        return moves[self.rng.randrange(len(moves))]

    def rules_text(self) -> dict[str, str]:
        return {label: program_text(self.program[label]) for label in self.labels()}

    def program_text(self) -> str:
        return "\n".join(self.rules_text().values())

    # ---- credit assignment -------------------------------------------------------------
    def _moves_of_game(self, trajectory) -> tuple[list, list]:
        """The learner's (k, (A, B)) moves and the opponent's moves between them."""
        rules = self.game.rules
        mine, theirs = [], []
        n = len(trajectory)
        for i, ((board, player), action) in enumerate(trajectory):
            b = (rules.play(board, player, action), 1 - player)
            mine.append((n - i, ((board, player), b)))
            if i + 1 < n:
                theirs.append((n - i - 1, (b, trajectory[i + 1][0])))
        return mine, theirs

    def _win_strategy_fires(self, start) -> bool:
        label, _ = self.chosen_among(start, "win")
        return label is not None

    def chosen_among(self, key, kind: str):
        library = self._library()
        for label in self.labels():
            if split_label(label)[0] != kind:
                continue
            pred = self.interp.predicate(label, library)
            for child in self.positions.successors(key):
                if pred.holds(key, child):
                    return label, child
        return None, None

    def learn(self, trajectory, outcome: int) -> None:
        self.games += 1
        if not trajectory:
            return
        mine, theirs = self._moves_of_game(trajectory)
        if outcome == 1:  # Theorem 1
            for k, ex in mine:
                if k <= self.max_k and ex not in self.win_pos.setdefault(k, []):
                    self.win_pos[k].append(ex)
        elif outcome == 0:  # Theorem 2, tested against the win rules when relearning
            moves = [(k, ex) for k, ex in mine + theirs if k <= self.max_k]
            self.draw_games.append((trajectory[0][0], moves))
        if self.solver is not None:
            for _, (a, b) in mine:
                solved = self.solver.solve_board(*b)
                for j in range(1, self.max_k + 1):
                    if not (solved.value == -1 and solved.depth <= 2 * (j - 1)):
                        if (a, b) not in self.win_neg.setdefault(j, []):
                            self.win_neg[j].append((a, b))
                    lost = solved.value == 1 and (self.draw_negatives == "any"
                                                  or solved.depth <= 2 * j - 1)
                    if lost and (a, b) not in self.draw_neg.setdefault(j, []):
                        self.draw_neg[j].append((a, b))
        self.relearn()

    # ---- dependent learning ------------------------------------------------------------
    def relearn(self) -> None:
        for k in range(1, self.max_k + 1):
            if self.win_pos.get(k):
                self._learn(f"win_{k}", self.win_pos[k], self.win_neg.get(k, []))
        wins = [lab for lab in self.program if lab.startswith("win_")]
        if not wins or (self.mode == "separated" and self.games < self.draw_after):
            return
        draw_pos: dict[int, list] = {}
        for start, moves in self.draw_games:
            if self._win_strategy_fires(start):
                continue
            for k, ex in moves:
                bucket = draw_pos.setdefault(k, [])
                if ex not in bucket:
                    bucket.append(ex)
        for k in range(1, self.max_k + 1):
            if draw_pos.get(k):
                self._learn(f"draw_{k}", draw_pos[k], self.draw_neg.get(k, []))

    def _background(self, label: str) -> list[str]:
        kind, k = split_label(label)
        out = []
        for other in self.labels():
            other_kind, j = split_label(other)
            if (other_kind == kind and j < k) or (kind == "draw" and other_kind == "win"):
                out.append(other)
        return out

    def _learn(self, label: str, positives: list, negatives: list) -> None:
        background_labels = self._background(label)
        background = self._library(background_labels)
        bg_keys = tuple(self.interp.key(n, background) for n in background_labels)
        signature = (len(positives), len(negatives), bg_keys)
        if self._signature.get(label) == signature:
            return
        self._signature[label] = signature
        current = self.program.get(label)
        # A program still consistent with the grown example sets is the one the
        # from-scratch search would return first, if it was found on this background.
        if (current is not None and self._found_with.get(label, ()) in (None, bg_keys)
                and self._still_consistent(label, current, background, positives, negatives)):
            return
        learned = self.mil.learn(label, positives, negatives, background)
        self._found_with[label] = bg_keys
        if learned is None:
            self.program.pop(label, None)
        else:
            self.program[label] = learned

    def _still_consistent(self, label, clauses, background, positives, negatives) -> bool:
        full = dict(background)
        full.update(clauses)
        try:
            pred = self.interp.predicate(label, full)
        except KeyError:  # a helper it used is gone from the background
            return False
        return (all(pred.holds(a, b) for a, b in positives)
                and not any(pred.holds(a, b) for a, b in negatives))
