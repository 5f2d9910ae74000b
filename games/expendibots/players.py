"""Alpha-beta players for Expendibots with the Expendibots report's evaluation.

eval(s) = tanh(Σ w_i f_i(s)), from the viewpoint of the player to evaluate for:
  f1 = sgn(n_p − n_o)(n_p − n_o)² / 144   (token lead, squared)
  f2 = n_p / d / 12,  f3 = −n_o / d / 12  (d = Manhattan distance of the two centres
                                          of mass of stack positions, at least 1)
  f4 = s_p / 12,  f5 = s_o / 12           (numbers of stacks)
n are tokens, s stacks. The text of the Expendibots report gives f3 = n_o/d but explains f2 and
f3 as "equal but opposite" counterparts with positive weights; we take the sign
into the feature. Features are scaled to about [−1, 1] (the Expendibots report: "normalised").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .rules import ExpendibotsState, apply_move, generate_moves, tokens
from .search import FastAlphaBeta

HAND_WEIGHTS_WHITE = (4.48799476, 4.0206573, 3.77726706, -0.03250787, 0.06310117)
HAND_WEIGHTS_BLACK = (4.48799476, 4.0206573, 3.77726706, -0.07250787, 0.06310117)
WIN = 1.0


def scan(board: Sequence[int], player: int) -> tuple:
    """One pass over the board: tokens, stacks, coordinate sums, largest stack, per side."""
    sign = 1 if player == 0 else -1
    n_p = n_o = s_p = s_o = big_p = big_o = 0
    xp = yp = xo = yo = 0
    for sq, v in enumerate(board):
        if not v:
            continue
        v *= sign
        if v > 0:
            n_p += v
            s_p += 1
            xp += sq & 7
            yp += sq >> 3
            if v > big_p:
                big_p = v
        else:
            n_o -= v
            s_o += 1
            xo += sq & 7
            yo += sq >> 3
            if -v > big_o:
                big_o = -v
    return n_p, n_o, s_p, s_o, xp, yp, xo, yo, big_p, big_o


def com_distance(counts: tuple) -> float:
    """Manhattan distance of the two sides' centres of mass (0 if a side has no stack)."""
    s_p, s_o, xp, yp, xo, yo = counts[2:8]
    if not (s_p and s_o):
        return 0.0
    return abs(xp / s_p - xo / s_o) + abs(yp / s_p - yo / s_o)


def features_of(counts: tuple) -> tuple[float, float, float, float, float]:
    n_p, n_o, s_p, s_o = counts[:4]
    d = max(1.0, com_distance(counts))
    lead = n_p - n_o
    return (math.copysign(lead * lead, lead) / 144.0, n_p / d / 12.0, -n_o / d / 12.0,
            s_p / 12.0, s_o / 12.0)


def features(board: Sequence[int], player: int) -> tuple[float, float, float, float, float]:
    return features_of(scan(board, player))


class LinearEvaluation:
    """tanh(w · f); a finished position scores its outcome (±1, 0).

    ``from_counts`` scores the running counts of ``search.Position`` without a board
    scan (same arithmetic as ``features_of``, so the same floats)."""

    def __init__(self, weights: Sequence[float]) -> None:
        if len(weights) != 5:
            raise ValueError(f"the report's evaluation takes 5 weights, got {len(weights)}")
        self.weights = tuple(float(w) for w in weights)

    def __call__(self, board: Sequence[int], player: int) -> float:
        return self.from_counts(scan(board, player))

    def from_counts(self, counts: Sequence[int]) -> float:
        n_p, n_o, s_p, s_o, xp, yp, xo, yo = counts[:8]
        if not n_p or not n_o:
            return 0.0 if n_p == n_o else (WIN if n_p else -WIN)
        # features_of inlined (the same operations, so the same floats): it runs per leaf
        d = max(1.0, abs(xp / s_p - xo / s_o) + abs(yp / s_p - yo / s_o))
        lead = n_p - n_o
        w1, w2, w3, w4, w5 = self.weights
        return math.tanh(w1 * (math.copysign(lead * lead, lead) / 144.0)
                         + w2 * (n_p / d / 12.0) + w3 * (-n_o / d / 12.0)
                         + w4 * (s_p / 12.0) + w5 * (s_o / 12.0))

    def __repr__(self) -> str:
        return f"LinearEvaluation({list(self.weights)})"


def linear_evaluation(weights: Sequence[float]) -> LinearEvaluation:
    return LinearEvaluation(weights)


def terminal_value(board: Sequence[int], player: int) -> float | None:
    white, black = tokens(board)
    if white and black:
        return None
    if not white and not black:
        return 0.0
    mine = white if player == 0 else black
    return WIN if mine else -WIN


class CopyAlphaBeta:
    """The first, copy-per-node alpha-beta (kept as the benchmark's baseline and as a
    reference): depth-limited negamax with BOOM-first ordering and the report's pruning:
    no BOOM that destroys only own tokens, and no move back to a position already seen
    in the game (repeated-state pruning). ``AlphaBeta`` (search.FastAlphaBeta) gives
    the same value and move, faster."""

    def __init__(self, evaluate: Callable[[Sequence[int], int], float], depth: int = 3) -> None:
        self.evaluate = evaluate
        self.depth = depth
        self.nodes = 0

    def moves(self, board, player, seen) -> list:
        out = []
        sign = 1 if player == 0 else -1
        theirs = sum(1 for v in board if v * sign < 0)
        for action in generate_moves(board, player):
            child = apply_move(board, player, action)
            if action[0] == "BOOM" and sum(1 for v in child if v * sign < 0) == theirs:
                continue  # explodes only own tokens
            if (child, 1 - player) in seen:
                continue
            out.append((action, child))
        return out

    def search(self, board, player, depth, alpha, beta, seen) -> tuple[float, tuple | None, tuple]:
        """(value for ``player``, best action, principal leaf board and its player)."""
        self.nodes += 1
        if depth == 0:  # evaluations score finished positions by their outcome
            return self.evaluate(board, player), None, (board, player)
        final = terminal_value(board, player)
        if final is not None:
            return final, None, (board, player)
        children = self.moves(board, player, seen)
        if not children:
            return self.evaluate(board, player), None, (board, player)
        best_value, best_action, best_leaf = -math.inf, None, (board, player)
        for action, child in children:
            value, _, leaf = self.search(child, 1 - player, depth - 1, -beta, -alpha, seen)
            value = -value
            if value > best_value:
                best_value, best_action, best_leaf = value, action, leaf
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best_value, best_action, best_leaf

    def choose(self, state: ExpendibotsState) -> tuple[tuple, float, tuple]:
        seen = set(state.history)
        value, action, leaf = self.search(state.board, state.player, self.depth, -math.inf,
                                          math.inf, seen)
        if action is None:  # every move pruned: fall back to the first legal one
            action = state.legal_actions()[0]
        return action, value, leaf


class AlphaBeta(FastAlphaBeta):
    """The alpha-beta used by every Expendibots player (see ``search``)."""


class AlphaBetaPlayer:
    """An alpha-beta player; ``weights`` per colour or one evaluation for both."""

    def __init__(self, evaluate_white, evaluate_black=None, depth: int = 3,
                 name: str = "alphabeta") -> None:
        self.searches = (AlphaBeta(evaluate_white, depth),
                         AlphaBeta(evaluate_black or evaluate_white, depth))
        self.name = name

    def __call__(self, state: ExpendibotsState):
        return self.searches[state.player].choose(state)[0]

    def __repr__(self) -> str:
        return f"AlphaBetaPlayer({self.name})"


def hand_weights_player(depth: int = 3) -> AlphaBetaPlayer:
    return AlphaBetaPlayer(linear_evaluation(HAND_WEIGHTS_WHITE),
                           linear_evaluation(HAND_WEIGHTS_BLACK), depth, name="hand-weights")
