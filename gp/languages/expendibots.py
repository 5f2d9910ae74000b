"""A typed board-feature DSL for Expendibots evaluation functions (Hitchcock and Randell).

Here the program being synthesized is the evaluation function of alpha-beta:
``value: EXPR`` over board features seen by the player to evaluate for, squashed
with tanh. Features (all scaled to about [0, 1]): ``my_tokens``,
``their_tokens``, ``my_stacks``, ``their_stacks``, ``my_largest``,
``their_largest``, ``distance`` (Manhattan distance of the centres of mass / 14)
the report's five features ``f1`` … ``f5`` and ``seed003``, the report's own weighted
sum of them with the weights of the player's colour (``value: seed003`` is
the report's evaluation exactly; the feature keeps this name because saved programs
and the committed runs' logs print it); constants 0, 0.5, 1, 2, 4;
``+ - *``, ``min``, ``max``. The hand-set evaluation of the Expendibots report is
``experiments/programs/expendibots_hand.txt``.
"""

from __future__ import annotations

import functools
import math
import operator

from games.expendibots.players import (
    HAND_WEIGHTS_BLACK,
    HAND_WEIGHTS_WHITE,
    AlphaBeta,
    com_distance,
    features_of,
    scan,
)
from gp.dsl import DSL, ProgramPlayer
from gp.syntax import Syntax


class Evaluation:
    """Root type: an evaluation program."""


class Value:
    """A number computed from the board features."""


FEATURES = ("my_tokens", "their_tokens", "my_stacks", "their_stacks", "my_largest",
            "their_largest", "distance", "f1", "f2", "f3", "f4", "f5", "seed003")
HAND_WEIGHTS = (HAND_WEIGHTS_WHITE, HAND_WEIGHTS_BLACK)


def hand_weighted_sum(f: tuple, player: int) -> float:
    """The report's weighted sum w · f with the weights of the player's colour (before
    tanh): the DSL's ``seed003`` feature, so programs can refine the report's evaluation."""
    w = HAND_WEIGHTS[player]
    return w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3] + w[4] * f[4]


def board_features(board, player) -> tuple[float, ...]:
    counts = scan(board, player)
    n_p, n_o, s_p, s_o, _, _, _, _, big_p, big_o = counts
    f = features_of(counts)
    return (n_p / 12, n_o / 12, s_p / 12, s_o / 12, big_p / 12, big_o / 12,
            com_distance(counts) / 14, *f, hand_weighted_sum(f, player))


def _binop(op, x, y):
    return lambda s, c, a: op(x(s, c, a), y(s, c, a))


def _feature(index):
    return lambda: (lambda s, c, a: s[index])


def _const(value):
    return lambda: (lambda s, c, a: value)


def _root(x):
    return x


def build_dsl(name: str = "expendibots", max_height: int = 8, max_size: int = 40) -> DSL:
    dsl = DSL(name, Evaluation, max_height=max_height, max_size=max_size)
    dsl.primitive("value", [Value], Evaluation, Syntax("lines", labels=("value",)), _root)
    for op_name, symbol, op in (("add", "+", operator.add), ("sub", "-", operator.sub),
                                ("mul", "*", operator.mul)):
        dsl.primitive(op_name, [Value, Value], Value, Syntax("binop", symbol),
                      functools.partial(_binop, op))
    for fn_name, fn in (("min", min), ("max", max)):
        dsl.primitive(fn_name, [Value, Value], Value, Syntax("call", fn_name),
                      functools.partial(_binop, fn))
    for i, feature in enumerate(FEATURES):
        dsl.terminal(feature, Value, Syntax("lit", feature), _feature(i))
    for value in (0, 0.5, 1, 2, 4):
        text = f"{value:g}"
        dsl.terminal(f"c{text.replace('.', '_')}", Value, Syntax("lit", text), _const(value))
    dsl.min_heights()
    return dsl


EXPENDIBOTS_DSL = build_dsl()


class ProgramEvaluation:
    """tanh(program(board features)) for alpha-beta; finished positions score ±1 / 0.

    ``from_position`` reads the search's running counts; the largest stacks (a board
    scan) are computed only for programs that use them."""

    def __init__(self, body, uses_largest: bool = True) -> None:
        self.body = body
        self.uses_largest = uses_largest

    def __call__(self, board, player) -> float:
        counts = scan(board, player)
        return self.from_position(counts[:8], board, player)

    def from_position(self, v, board, player) -> float:
        n_p, n_o, s_p, s_o = v[0], v[1], v[2], v[3]
        if not n_p or not n_o:
            return 0.0 if n_p == n_o else (1.0 if n_p else -1.0)
        big_p = big_o = 0
        if self.uses_largest:
            high, low = max(board), -min(board)
            big_p, big_o = (high, low) if player == 0 else (low, high)
        f = features_of(v)
        features = (n_p / 12, n_o / 12, s_p / 12, s_o / 12, big_p / 12, big_o / 12,
                    com_distance(v) / 14, *f, hand_weighted_sum(f, player))
        try:
            value = math.tanh(self.body(features, None, None))
        except (OverflowError, ValueError, ZeroDivisionError):
            return 0.0
        return value if value == value else 0.0  # NaN (inf - inf) scores 0


class EvaluationProgramPlayer(ProgramPlayer):
    """Alpha-beta whose evaluation is tanh(program(board features)).

    Pickles as program text; ``depth`` is the search depth (1 by default, so
    synthesis can afford many games; tournaments use deeper searches). ``agent=1``
    plays the evaluation inside the report's agent (time budget with depth-1 fall-back,
    late-game ordering; ``book=1`` adds its opening books), so that only the
    evaluation differs from the report's.
    """

    LANGUAGE = EXPENDIBOTS_DSL

    def __init__(self, program, name: str | None = None, depth: int = 1,
                 dsl: DSL = EXPENDIBOTS_DSL, agent: int = 0, book: int = 0) -> None:
        self.dsl = dsl
        self.tree = dsl.parse(program) if isinstance(program, str) else program
        self.text = dsl.to_text(self.tree)
        self.name = name or "evaluation-program"
        self.depth, self.agent, self.book = depth, agent, book
        evaluation = ProgramEvaluation(dsl.compile(self.tree), "largest" in self.text)
        self.search = AlphaBeta(evaluation, depth)
        self.player = None
        if agent:  # the report's agent (time budget, late-game ordering, book if asked)
            from games.expendibots.timed_agent import TimedAlphaBetaPlayer

            self.player = TimedAlphaBetaPlayer(evaluations=(evaluation, evaluation), depth=depth,
                                        book=bool(book), name=self.name)

    def reset(self, seed=None) -> None:
        if self.player is not None:
            self.player.reset(seed)

    def __call__(self, state):
        if self.player is not None:
            return self.player(state)
        return self.search.choose(state)[0]

    def __getstate__(self):
        return {"text": self.text, "name": self.name, "depth": self.depth,
                "agent": self.agent, "book": self.book}

    def __setstate__(self, data):
        self.__init__(data["text"], data["name"], data["depth"], agent=data.get("agent", 0),
                      book=data.get("book", 0))

    def __repr__(self) -> str:
        return f"EvaluationProgramPlayer({self.name}, depth={self.depth})"

