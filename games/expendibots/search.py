"""Fast alpha-beta for Expendibots: one mutable board with make/undo, incremental
counts and Zobrist hash, a transposition table, killer and history move ordering.

Why: the copy-per-node search (``players.CopyAlphaBeta``) rebuilt a 64-tuple and
rescanned it for every node, so a depth-3 decision took seconds. Here a node costs
a few list writes; the evaluation reads the running counts (tokens, stacks and
coordinate sums per side), so it is O(1).

Search rules are those of the Expendibots report (and of ``CopyAlphaBeta``, which gives the same
value and move): negamax to a fixed depth, BOOMs first then the report's ordering
(fewer tokens moved first, longer distance first), no BOOM that destroys only own
tokens, no move into a position already seen in the game (repeated-state
pruning). Two BOOMs of the same connected cluster give the same board, so only the
first is searched (``dedup_booms``). The transposition table only answers a probe
searched to exactly the same remaining depth, so results equal a plain
fixed-depth minimax with the same move order (``tests/test_expendibots_search.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .rules import NEIGHBOURS, RAYS

WIN = 1.0
EXACT, LOWER, UPPER = 0, 1, 2

_ZRNG = random.Random(20_030_003)
ZOBRIST = tuple(tuple(0 if v == 12 else _ZRNG.getrandbits(64) for v in range(25))
                for _ in range(64))  # ZOBRIST[sq][v + 12]; an empty square hashes to 0
ZOBRIST_BLACK = _ZRNG.getrandbits(64)  # black to move
X = tuple(sq & 7 for sq in range(64))
Y = tuple(sq >> 3 for sq in range(64))
# (m, d) in the report's order for a largest stack of n: fewer tokens first, then longer moves
ORDER = tuple(tuple((m, d) for m in range(1, n + 1) for d in range(n, 0, -1))
              for n in range(13))
# the report's late-game order (<= 5 stacks on the board): whole stack first, longest move
# first, and only every second distance (n, n-2, ..., and always 1)
ENDGAME_DISTANCES = tuple(tuple(sorted(set(range(n, 0, -2)) | {1}, reverse=True)) if n else ()
                          for n in range(13))


def _destinations() -> tuple:
    """DEST[sq][d]: the squares exactly d away from sq along the four rays, in ray order."""
    out = []
    for sq in range(64):
        by_d = [()]
        for d in range(1, 13):
            by_d.append(tuple(line[d - 1] for line in RAYS[sq] if len(line) >= d))
        out.append(tuple(by_d))
    return tuple(out)


DEST = _destinations()


def zobrist(board: Sequence[int], player: int) -> int:
    h = ZOBRIST_BLACK if player else 0
    for sq, v in enumerate(board):
        if v:
            h ^= ZOBRIST[sq][v + 12]
    return h


def counts_of(board: Sequence[int]) -> list[int]:
    """[white tokens, black tokens, white stacks, black stacks, wx, wy, bx, by]."""
    c = [0] * 8
    for sq, v in enumerate(board):
        if v > 0:
            c[0] += v
            c[2] += 1
            c[4] += sq & 7
            c[5] += sq >> 3
        elif v < 0:
            c[1] -= v
            c[3] += 1
            c[6] += sq & 7
            c[7] += sq >> 3
    return c


def view(counts: Sequence[int], player: int) -> tuple[int, ...]:
    """Counts seen by ``player``: (n_p, n_o, s_p, s_o, xp, yp, xo, yo)."""
    if player == 0:
        return tuple(counts)
    c = counts
    return (c[1], c[0], c[3], c[2], c[6], c[7], c[4], c[5])


@dataclass
class SearchOptions:
    """Which speed-ups are on (the benchmark turns them on one by one)."""

    tt: bool = True
    killers: bool = True
    history: bool = False
    dedup_booms: bool = True
    endgame_ordering: bool = False  # the report's ordering with <= 5 stacks (changes the tree)
    track_leaf: bool = True  # keep the principal leaf (TD-Leaf needs it; costs a copy per leaf)


class Position:
    """A mutable board with its running counts and hash; ``make`` returns an undo record."""

    __slots__ = ("board", "player", "counts", "hash")

    def __init__(self, board: Sequence[int], player: int) -> None:
        self.board = list(board)
        self.player = player
        self.counts = counts_of(board)
        self.hash = zobrist(board, player)

    def make_move(self, m: int, src: int, dst: int) -> tuple:
        b, c = self.board, self.counts
        sign = 1 if self.player == 0 else -1
        vs, vd = b[src], b[dst]
        undo = (src, vs, dst, vd, self.hash, c[:])
        ns, nd = vs - sign * m, vd + sign * m
        b[src], b[dst] = ns, nd
        zs, zd = ZOBRIST[src], ZOBRIST[dst]
        self.hash ^= zs[vs + 12] ^ zs[ns + 12] ^ zd[vd + 12] ^ zd[nd + 12] ^ ZOBRIST_BLACK
        k = 2 + self.player
        if ns == 0:
            c[k] -= 1
            c[4 + 2 * self.player] -= src & 7
            c[5 + 2 * self.player] -= src >> 3
        if vd == 0:
            c[k] += 1
            c[4 + 2 * self.player] += dst & 7
            c[5 + 2 * self.player] += dst >> 3
        self.player ^= 1
        return undo

    def undo_move(self, undo: tuple) -> None:
        src, vs, dst, vd, h, c = undo
        self.board[src], self.board[dst] = vs, vd
        self.hash, self.counts = h, c
        self.player ^= 1

    def make_boom(self, sq: int) -> tuple[list, int]:
        """Explode the stack at ``sq``; returns (undo, opponent tokens destroyed)."""
        b, c = self.board, self.counts
        undo = ([], self.hash, c[:])
        gone = undo[0]
        h = self.hash ^ ZOBRIST_BLACK
        pending = [sq]
        gone.append((sq, b[sq]))
        b[sq] = 0
        i = 0
        while i < len(pending):
            for nb in NEIGHBOURS[pending[i]]:
                if b[nb]:
                    gone.append((nb, b[nb]))
                    b[nb] = 0
                    pending.append(nb)
            i += 1
        theirs = 0
        mover_white = self.player == 0
        for s, v in gone:
            h ^= ZOBRIST[s][v + 12]
            if v > 0:
                c[0] -= v
                c[2] -= 1
                c[4] -= s & 7
                c[5] -= s >> 3
            else:
                c[1] += v
                c[3] -= 1
                c[6] -= s & 7
                c[7] -= s >> 3
            if (v < 0) == mover_white:
                theirs += v if v > 0 else -v
        self.hash = h
        self.player ^= 1
        return undo, theirs

    def undo_boom(self, undo: tuple) -> None:
        gone, h, c = undo
        b = self.board
        for s, v in gone:
            b[s] = v
        self.hash, self.counts = h, c
        self.player ^= 1

    def boom_roots(self, dedup: bool) -> list[int]:
        """Own stacks to explode, one per connected cluster when ``dedup``."""
        b = self.board
        sign = 1 if self.player == 0 else -1
        own = [sq for sq in range(64) if b[sq] * sign > 0]
        if not dedup:
            return own
        seen: set[int] = set()
        roots = []
        for sq in own:
            if sq in seen:
                continue
            roots.append(sq)
            seen.add(sq)
            stack = [sq]
            while stack:
                for nb in NEIGHBOURS[stack.pop()]:
                    if b[nb] and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
        return roots

    def moves(self, endgame: bool = False) -> list[tuple]:
        """MOVE actions in the report's order (``endgame``: the late-game order)."""
        return list(self.iter_moves(endgame))

    def iter_moves(self, endgame: bool = False):
        """``moves`` one at a time: a node cut off early never builds the rest. The
        board may change between steps if it is restored before the next one."""
        b = self.board
        sign = 1 if self.player == 0 else -1
        stacks = [(sq, b[sq] * sign) for sq in range(64) if b[sq] * sign > 0]
        if not stacks:
            return
        if endgame:
            for sq, n in stacks:
                for m in range(n, 0, -1):
                    for d in ENDGAME_DISTANCES[n]:
                        for line in RAYS[sq]:
                            if len(line) >= d and b[line[d - 1]] * sign >= 0:
                                yield ("MOVE", m, sq, line[d - 1])
            return
        # legal destinations per stack and distance, then the report's (m, d) order
        if sign > 0:
            legal = [(sq, n, [[t for t in dests[d] if b[t] >= 0] if d <= n else ()
                              for d in range(n + 1)])
                     for sq, n in stacks for dests in (DEST[sq],)]
        else:
            legal = [(sq, n, [[t for t in dests[d] if b[t] <= 0] if d <= n else ()
                              for d in range(n + 1)])
                     for sq, n in stacks for dests in (DEST[sq],)]
        top = max(n for _, n in stacks)
        for m, d in ORDER[top]:
            for sq, n, by_d in legal:
                if n >= m and n >= d:
                    for dst in by_d[d]:
                        yield ("MOVE", m, sq, dst)


def is_pseudo_legal(pos: Position, action: tuple) -> bool:
    """Whether a remembered (killer) MOVE is legal here."""
    _, m, src, dst = action
    sign = 1 if pos.player == 0 else -1
    n = pos.board[src] * sign
    if n < m or pos.board[dst] * sign < 0:
        return False
    dx, dy = abs(X[src] - X[dst]), abs(Y[src] - Y[dst])
    return (dx == 0 or dy == 0) and dx + dy <= n


class FastAlphaBeta:
    """Fixed-depth negamax with alpha-beta over a ``Position``.

    ``evaluate(board, player)`` or, if it has one, ``evaluate.from_counts(view)``
    (view = (n_p, n_o, s_p, s_o, xp, yp, xo, yo)) or
    ``evaluate.from_position(view, board, player)`` scores a leaf for the player to
    move; finished positions must score ±1 / 0 as in ``players.linear_evaluation``.
    ``choose`` returns (action, value, (leaf board, leaf player)), the principal
    leaf for TD-Leaf.
    """

    def __init__(self, evaluate: Callable, depth: int = 3,
                 options: SearchOptions | None = None) -> None:
        self.evaluate = evaluate
        self.from_counts = getattr(evaluate, "from_counts", None)
        self.from_position = getattr(evaluate, "from_position", None)
        self.depth = depth
        self.options = options or SearchOptions()
        self.nodes = 0

    # ---- leaves -------------------------------------------------------------------------
    def _leaf(self, pos: Position) -> tuple[float, tuple]:
        if self.from_counts is not None:
            value = self.from_counts(view(pos.counts, pos.player))
        elif self.from_position is not None:
            value = self.from_position(view(pos.counts, pos.player), pos.board, pos.player)
        else:
            value = self.evaluate(pos.board, pos.player)
        return value, ((tuple(pos.board), pos.player) if self.options.track_leaf else None)

    # ---- search -------------------------------------------------------------------------
    def _children(self, pos: Position, ply: int, tt_move):
        """BOOMs, then the TT and killer moves, then the rest, generated lazily."""
        opts = self.options
        for sq in pos.boom_roots(opts.dedup_booms):
            yield ("BOOM", sq)
        front = []
        if tt_move is not None and tt_move[0] == "MOVE":
            front.append(tt_move)
        if opts.killers:
            for k in self.killer_table[ply]:
                if k is not None and k not in front and is_pseudo_legal(pos, k):
                    front.append(k)
        yield from front
        endgame = opts.endgame_ordering and pos.counts[2] + pos.counts[3] <= 5
        if opts.history and self.history_table:
            table = self.history_table
            rest = sorted(pos.moves(endgame), key=lambda a: -table.get(a, 0))
        else:
            rest = pos.iter_moves(endgame)
        if front:
            for a in rest:
                if a not in front:
                    yield a
        else:
            yield from rest

    def _search(self, pos: Position, depth: int, alpha: float, beta: float, ply: int
                ) -> tuple[float, tuple | None, tuple]:
        self.nodes += 1
        if depth == 0:
            value, leaf = self._leaf(pos)
            return value, None, leaf
        c = pos.counts
        if not c[0] or not c[1]:
            mine, theirs = (c[0], c[1]) if pos.player == 0 else (c[1], c[0])
            value = 0.0 if mine == theirs else (WIN if mine else -WIN)
            return value, None, ((tuple(pos.board), pos.player) if self.options.track_leaf
                                 else None)
        key = None
        tt_move = None
        if self.tt is not None:
            key = (pos.hash, depth)
            entry = self.tt.get(key)
            if entry is not None:
                value, flag, tt_move, leaf = entry
                if flag == EXACT:
                    return value, tt_move, leaf
                if flag == LOWER and value >= beta:
                    return value, tt_move, leaf
                if flag == UPPER and value <= alpha:
                    return value, tt_move, leaf
        alpha0 = alpha
        best_value, best_action, best_leaf = -math.inf, None, None
        seen = self.seen
        # children at the horizon are scored here, without a call per leaf
        frontier = depth == 1 and self.from_counts is not None
        score, track = self.from_counts, self.options.track_leaf
        leaf = None
        for action in self._children(pos, ply, tt_move):
            if action[0] == "BOOM":
                undo, theirs = pos.make_boom(action[1])
                if not theirs or pos.hash in seen:  # only own tokens, or a repeated state
                    pos.undo_boom(undo)
                    continue
                if frontier:
                    self.nodes += 1
                    value = score(view(pos.counts, pos.player))
                    if track:
                        leaf = (tuple(pos.board), pos.player)
                else:
                    value, _, leaf = self._search(pos, depth - 1, -beta, -alpha, ply + 1)
                pos.undo_boom(undo)
            else:
                undo = pos.make_move(action[1], action[2], action[3])
                if pos.hash in seen:
                    pos.undo_move(undo)
                    continue
                if frontier:
                    self.nodes += 1
                    value = score(view(pos.counts, pos.player))
                    if track:
                        leaf = (tuple(pos.board), pos.player)
                else:
                    value, _, leaf = self._search(pos, depth - 1, -beta, -alpha, ply + 1)
                pos.undo_move(undo)
            value = -value
            if value > best_value:
                best_value, best_action, best_leaf = value, action, leaf
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if action[0] == "MOVE":
                            self._reward(action, ply, depth)
                        break
        if best_action is None:  # every move pruned
            value, leaf = self._leaf(pos)
            return value, None, leaf
        if key is not None:
            flag = UPPER if best_value <= alpha0 else (LOWER if best_value >= beta else EXACT)
            self.tt[key] = (best_value, flag, best_action, best_leaf)
        return best_value, best_action, best_leaf

    def _reward(self, action: tuple, ply: int, depth: int) -> None:
        if self.options.killers:
            slot = self.killer_table[ply]
            if slot[0] != action:
                slot[1] = slot[0]
                slot[0] = action
        if self.options.history:
            self.history_table[action] = self.history_table.get(action, 0) + depth * depth

    def search_position(self, board: Sequence[int], player: int,
                        seen: Iterable[int] = ()) -> tuple[float, tuple | None, tuple]:
        """(value, best action, principal leaf) of ``board`` with ``player`` to move;
        ``seen`` holds hashes (``zobrist``) of positions not to move into."""
        pos = Position(board, player)
        self.seen = set(seen)
        self.tt = {} if self.options.tt else None
        self.killer_table = [[None, None] for _ in range(self.depth + 1)]
        self.history_table: dict = {}
        return self._search(pos, self.depth, -math.inf, math.inf, 0)

    def choose(self, state) -> tuple[tuple, float, tuple]:
        seen = [zobrist(b, p) for (b, p) in state.history]
        value, action, leaf = self.search_position(state.board, state.player, seen)
        if action is None:  # every move pruned: fall back to the first legal one
            action = state.legal_actions()[0]
        return action, value, leaf
