"""Timed alpha-beta, the Expendibots report's full agent (Hitchcock and Randell): opening
books per colour, depth-3 alpha-beta with a per-game time budget and a depth-1
fall-back, separate weights per colour. Player specs ``timed-alphabeta``,
``timed-alphabeta-nobook`` and ``timed-alphabeta-depth2`` (formerly ``seed003``,
``seed003-nobook``, ``seed003-depth2``, still accepted).

What the report specifies and what we chose (its text gives no move list):
  * White's book: "3 - 4 fixed opening moves ... at least guaranteed to not be
    detrimental". Ours: stack the centre block into a 4-stack on (4,1) in three
    moves, then advance it two squares to (4,3).
  * Black's book is "conditional on the opponent: if our opponent has advanced
    quickly, or formed a stack of 4, black determines on which side of the board
    (Left or Right) this has occurred (within reason), and creates a defensive stack
    of 4 in the opposite direction". Ours: a threat is a White stack of >= 4 tokens
    or one on row y >= 3; its side is the token-weighted mean x of the threatening
    stacks (< 3.5 left, > 3.5 right, exactly 3.5 no side). Against a threat on the
    left Black stacks its right block into a 4-stack on (6,6); on the right, its left
    block on (1,6). Without a threat Black plays White's book mirrored (4-stack on
    (4,6), then to (4,4)), switching to the defensive book as soon as a threat shows.
  * "Not detrimental": a book move is played only if it is legal, no token has been
    taken yet, and after it no opponent BOOM destroys more of our tokens than of its
    own; otherwise the book ends for the game and search takes over.
  * Search: depth 3 "until the time resource budget is almost exhausted, when it
    reverts to a Minimax search of depth one". Budget: ``budget`` seconds of process
    CPU time per game (60 s by default, the report's tournament limit), fall-back when
    less than ``reserve`` seconds remain. BOOM-first ordering, the late-game ordering
    with <= 5 stacks, no own-only BOOM, repeated-state pruning (``search``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .players import HAND_WEIGHTS_BLACK, HAND_WEIGHTS_WHITE, linear_evaluation
from .rules import NEIGHBOURS, ExpendibotsState, _is_legal, apply_move, tokens
from .search import FastAlphaBeta, SearchOptions


def sq(x: int, y: int) -> int:
    return y * 8 + x


def _mirror(action: tuple) -> tuple:
    _, m, src, dst = action
    return ("MOVE", m, sq(src % 8, 7 - src // 8), sq(dst % 8, 7 - dst // 8))


WHITE_BOOK = (("MOVE", 1, sq(3, 0), sq(3, 1)),
              ("MOVE", 1, sq(4, 0), sq(4, 1)),
              ("MOVE", 2, sq(3, 1), sq(4, 1)),
              ("MOVE", 4, sq(4, 1), sq(4, 3)))
BLACK_BOOK = tuple(_mirror(a) for a in WHITE_BOOK)
BLACK_DEFEND_RIGHT = (("MOVE", 1, sq(6, 7), sq(6, 6)),  # threat on the left
                      ("MOVE", 1, sq(7, 7), sq(7, 6)),
                      ("MOVE", 2, sq(7, 6), sq(6, 6)))
BLACK_DEFEND_LEFT = (("MOVE", 1, sq(1, 7), sq(1, 6)),  # threat on the right
                     ("MOVE", 1, sq(0, 7), sq(0, 6)),
                     ("MOVE", 2, sq(0, 6), sq(1, 6)))


def threat_side(board: Sequence[int]) -> str | None:
    """Where White has advanced (a stack on y >= 3) or stacked four: 'left', 'right',
    or None (no threat, or one in the exact centre)."""
    weight = total = 0
    for s, v in enumerate(board):
        if v > 0 and (v >= 4 or s // 8 >= 3):
            weight += v * (s % 8)
            total += v
    if not total:
        return None
    mean = weight / total
    return "left" if mean < 3.5 else ("right" if mean > 3.5 else None)


def is_safe(board: Sequence[int], player: int, action: tuple) -> bool:
    """After ``action``, no opponent BOOM destroys more of our tokens than of its own."""
    child = apply_move(board, player, action)
    sign = 1 if player == 0 else -1
    done: set[int] = set()
    for start, v in enumerate(child):
        if v * sign >= 0 or start in done:
            continue
        cluster, pending = {start}, [start]
        while pending:
            for nb in NEIGHBOURS[pending.pop()]:
                if child[nb] and nb not in cluster:
                    cluster.add(nb)
                    pending.append(nb)
        done |= cluster
        ours = sum(child[s] * sign for s in cluster if child[s] * sign > 0)
        theirs = sum(-child[s] * sign for s in cluster if child[s] * sign < 0)
        if ours > theirs:
            return False
    return True


class OpeningBook:
    """One game's book for one colour; ``next(state)`` is a book move or None."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.line: Sequence[tuple] | None = WHITE_BOOK if player == 0 else BLACK_BOOK
        self.index = 0
        self.defending: str | None = None

    def next(self, state: ExpendibotsState) -> tuple | None:
        if self.line is None:
            return None
        if tokens(state.board) != (12, 12):
            self.line = None
            return None
        if self.player == 1 and self.defending is None:
            side = threat_side(state.board)
            if side is not None:
                self.defending = side
                self.line = BLACK_DEFEND_RIGHT if side == "left" else BLACK_DEFEND_LEFT
                self.index = 0
        if self.index >= len(self.line):
            self.line = None
            return None
        action = self.line[self.index]
        self.index += 1
        if not (_is_legal(state.board, state.player, action)
                and is_safe(state.board, state.player, action)):
            self.line = None
            return None
        return action


class TimedAlphaBetaPlayer:
    """The report's agent. ``weights`` are (White's, Black's), or ``evaluations`` any
    two evaluation functions (an evolved program in the report's agent); ``book=False``
    plays without the opening book; ``clock`` measures the budget (process CPU seconds)."""

    def __init__(self, weights_white: Sequence[float] = HAND_WEIGHTS_WHITE,
                 weights_black: Sequence[float] = HAND_WEIGHTS_BLACK, depth: int = 3,
                 budget: float = 60.0, reserve: float = 6.0, book: bool = True,
                 fallback_depth: int = 1, clock: Callable[[], float] = time.process_time,
                 name: str = "timed-alphabeta",
                 evaluations: Sequence[Callable] | None = None) -> None:
        if budget <= 0 or reserve < 0 or depth < 1 or fallback_depth < 1:
            raise ValueError("timed alpha-beta needs budget > 0, reserve >= 0, depths >= 1")
        options = SearchOptions(endgame_ordering=True, track_leaf=False)
        self.evaluations = (tuple(evaluations) if evaluations is not None else
                            (linear_evaluation(weights_white), linear_evaluation(weights_black)))
        self.searches = {(p, d): FastAlphaBeta(self.evaluations[p], d, options)
                         for p in (0, 1) for d in {depth, fallback_depth}}
        self.depth, self.fallback_depth = depth, fallback_depth
        self.budget, self.reserve, self.use_book = budget, reserve, book
        self.clock = clock
        self.name = name
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """A new game: fresh books and budgets (the match runner calls this)."""
        self.books = [OpeningBook(0), OpeningBook(1)]
        self.spent = [0.0, 0.0]
        self.last_turns = [-1, -1]
        self.last_depth: int | None = None
        self.last_source: str | None = None

    def remaining(self, player: int) -> float:
        return self.budget - self.spent[player]

    def __call__(self, state: ExpendibotsState):
        p = state.player
        if state.turns < self.last_turns[p]:  # a new game without reset()
            self.reset()
        self.last_turns[p] = state.turns
        if self.use_book:
            action = self.books[p].next(state)
            if action is not None:
                self.last_depth, self.last_source = 0, "book"
                return action
        depth = self.depth if self.remaining(p) > self.reserve else self.fallback_depth
        start = self.clock()
        action = self.searches[(p, depth)].choose(state)[0]
        self.spent[p] += self.clock() - start
        self.last_depth, self.last_source = depth, "search"
        return action

    def __repr__(self) -> str:
        return f"TimedAlphaBetaPlayer({self.name}, depth={self.depth}, book={self.use_book})"


def timed_alphabeta_player(depth: int = 3, book: bool = True) -> TimedAlphaBetaPlayer:
    return TimedAlphaBetaPlayer(depth=depth, book=book,
                                name="timed-alphabeta" if book else "timed-alphabeta-nobook")
