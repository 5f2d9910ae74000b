"""A programmatic rule learner in the manner of MIGO (Hocquette and Muggleton), with our SA.

Rules ``win_k`` and ``draw_k`` (``gp.languages.rules``) are learned, by our SA or by
DEAP GP (``search="gp"``), from positive
examples only, with the MIGO paper's credit assignment: in a game the learner won
against the optimal opponent every move it made is a positive example of
``win_k``, k being the number of its moves to the end (Theorem 1); in a drawn
game its moves are examples of ``draw_k`` (Theorem 2), once ``draw_after`` games
have been played (Hocquette and Muggleton wait 10 games on noughts-and-crosses, 5 on
Hexapawn; draw rules are never learned before a win rule). The strategy plays
the first rule that fires (win_1, win_2, …, then draw_1, …), else a random move.

Learning from positives alone needs a bias against rules that fire on every
move; MIGO gets it from its metarules. Ours is the score maximised by SA:
coverage of the positive examples − ½ · coverage of the other moves available in
the same positions − 0.002 · size. Each rule is relearned after every game that
brings it new examples, starting from its current version, and may use the
rules of smaller k (dependent learning).
"""

from __future__ import annotations

import random

from gp.evaluator import Budget, Evaluator
from gp.evolution import GPSettings, run_gp
from gp.languages.rules import Positions, build_rules_dsl
from gp.sa import SimulatedAnnealing

KINDS = ("win", "draw")


def split_label(label: str) -> tuple[str, int]:
    """'win2' -> ('win', 2)."""
    kind = label.rstrip("0123456789")
    if kind not in KINDS or kind == label:
        raise ValueError(f"rule label '{label}' is not win<k> or draw<k>")
    return kind, int(label[len(kind):])


class RuleLearner:
    name = "rule learner"

    def __init__(self, game, seed: int = 0, max_k: int = 3, evaluations: int = 120,
                 draw_after: int = 10, transfer: dict[str, str] | None = None,
                 search: str = "sa") -> None:
        if search not in ("sa", "gp"):
            raise ValueError(f"rule search must be 'sa' or 'gp', got {search!r}")
        self.search = search
        self.game = game
        self.rng = random.Random(seed)
        self.positions = Positions(game.rules)
        self.max_k = max_k
        self.evaluations = evaluations
        self.draw_after = draw_after
        self.games = 0
        self.examples: dict[str, dict[int, set]] = {k: {} for k in KINDS}
        self.trees: dict[str, object] = {}
        self.functions: dict[str, object] = {}
        for label, text in (transfer or {}).items():
            split_label(label)
            self._install(label, self._dsl_for(label).parse(f"rule: {text}",
                                                             source=f"transferred {label}"))

    # ---- acting ------------------------------------------------------------------------
    def __call__(self, state):
        key = state.key()
        board, player = key
        moves = self.game.rules.moves(board, player)
        children = [(m, (self.game.rules.play(board, player, m), 1 - player)) for m in moves]
        for label in self.labels():
            fn = self.functions[label]
            for move, child in children:
                if fn(self.positions, child, None):
                    return move
        return moves[self.rng.randrange(len(moves))]

    def labels(self) -> list[str]:
        """Rules in the order they are tried: win1, win2, …, draw1, draw2, …"""
        return sorted(self.functions, key=lambda lab: (KINDS.index(split_label(lab)[0]),
                                                       split_label(lab)[1]))

    def rules_text(self) -> dict[str, str]:
        return {label: self._dsl_for(label).to_text(self.trees[label]).removeprefix("rule: ")
                for label in self.labels()}

    # ---- learning ----------------------------------------------------------------------
    def _dsl_for(self, label: str):
        """The rule language for ``label``: wins of smaller k; for draws all wins and
        draws of smaller k (dependent learning)."""
        kind, k = split_label(label)
        learned = []
        for other in self.labels():
            other_kind, j = split_label(other)
            if (other_kind == kind and j < k) or (kind == "draw" and other_kind == "win"):
                learned.append((other, self.functions[other]))
        return build_rules_dsl(learned, name=f"rules-{label}")

    def _install(self, label: str, tree) -> None:
        self.trees[label] = tree
        self.functions[label] = self._dsl_for(label).compile(tree)

    def learn(self, trajectory, outcome: int) -> None:
        self.games += 1
        kind = "win" if outcome == 1 else "draw" if outcome == 0 else None
        if kind == "draw" and (self.games < self.draw_after or not any(
                lab.startswith("win") for lab in self.functions)):
            kind = None
        if kind is None:
            return
        changed = set()
        n = len(trajectory)
        for i, (a_key, action) in enumerate(trajectory):
            k = n - i
            if k > self.max_k:
                continue
            b_key = (self.game.rules.play(a_key[0], a_key[1], action), 1 - a_key[1])
            bucket = self.examples[kind].setdefault(k, set())
            if (a_key, b_key) not in bucket:
                bucket.add((a_key, b_key))
                changed.add(k)
        for k in sorted(changed):
            self._relearn(f"{kind}{k}")

    def score(self, fn, positives, alternatives) -> float:
        p = self.positions
        hit = sum(1 for _, b in positives if fn(p, b, None)) / len(positives)
        if not alternatives:
            return hit
        false = sum(1 for b in alternatives if fn(p, b, None)) / len(alternatives)
        return hit - 0.5 * false

    def _relearn(self, label: str) -> None:
        kind, k = split_label(label)
        positives = sorted(self.examples[kind][k])
        alternatives = []
        for a_key, b_key in positives:
            alternatives += [c for c in self.positions.successors(a_key) if c != b_key]
        dsl = self._dsl_for(label)

        def fitness(tree):
            return self.score(dsl.compile(tree), positives, alternatives) - 0.002 * len(tree)

        evaluator = Evaluator({"psi": fitness}, dsl.to_text, Budget(evaluations=self.evaluations))
        start = self.trees.get(label)
        if start is not None:
            start = dsl.parse(dsl.to_text(start))  # rebuild on the current library
        else:
            start = dsl.random_program(self.rng)
        if self.search == "sa":
            SimulatedAnnealing(evaluator, self.rng).run(start, dsl.neighbour)
        else:  # DEAP's eaMuPlusLambda, the current rule in the first population
            run_gp(dsl, evaluator, self.rng.randrange(2**31),
                   GPSettings(mu=12, lambda_=12, mutation_height=3), start)
        self._install(label, dsl.parse(evaluator.best_psi_program))
