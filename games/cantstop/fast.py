"""A faster Can't Stop engine: many matches stepped at once as numpy arrays.

Why: a Ψ evaluation is 1,000 matches of ≈140 decisions each, and the scalar
engine (``rules.py``) pays Python's per-call cost on every decision. Here the
live matches of a batch are rows of arrays and every rule is one array
operation over all rows, so the per-decision cost is shared by the batch.

The results are the reference engine's, match by match: the same dice (each
match's ``random.Random`` stream is drawn into a buffer, ``int(random() * 1296)``
per roll, exactly as ``CantStopState._roll``), the same legal-move order, the
same decision of every player (first maximum on ties) and the same final state
and per-seat counters. ``tests/test_cantstop_fast.py`` checks this against the
reference engine. The scalar engine stays the reference; this one only plays
strategies it can run as arrays (``vectorize``) and otherwise hands the batch
back to the reference (``play_chunk`` falls back to ``games.match._play_chunk``).

Strategies as arrays: an object with ``columns(pos) -> slot index per row`` and
``stops(pos) -> bool per row`` (see ``Position``). Built in: the heuristic
players (GA, Rule of 28) and the uniform random player; programs register a
compiler in ``VECTORIZERS`` (``gp.cantstop_compile`` does so for the sketch
programs of seed 000).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..api import RandomStrategy
from ..match import MatchSummary, _play_chunk, seats_for
from .players import HeuristicParams, HeuristicPlayer
from .rules import (
    HEIGHTS,
    OUTER,
    PAIRINGS,
    PHASE_COLUMN,
    PHASE_ROLL_OR_STOP,
    ROLLS,
    CantStop,
    CantStopState,
)

H = np.array(HEIGHTS, dtype=np.int64)
OUTER_ARR = np.array(OUTER, dtype=np.int64)
COLUMN_IDS = np.arange(13)
BIG_NEGATIVE = np.iinfo(np.int64).min
MAX_LEGAL = 6
"""At most six column moves: three pairings, each a pair or up to two singles."""

# pairings of each roll as (1296, 3) tables; a missing third pairing has exists False
_PA = np.zeros((1296, 3), dtype=np.int64)
_PB = np.zeros((1296, 3), dtype=np.int64)
_PX = np.zeros((1296, 3), dtype=bool)
for _r, _pairs in enumerate(PAIRINGS):
    for _j, (_a, _b) in enumerate(_pairs):
        _PA[_r, _j], _PB[_r, _j], _PX[_r, _j] = _a, _b, True
_EARLIER = np.tril(np.ones((9, 9), dtype=bool), -1)
"""``_EARLIER[k, j]``: candidate slot j comes before slot k (dedup keeps the first)."""

# per-seat counters, in ``Batch.cnt[:, seat, k]``
CLAIMS, TURNS, BUSTS, STOPS, BANKED, ADVANCES, OUTERS = range(7)
COUNTERS = 7

ROLL_BUFFER = 128
"""Rolls drawn per match at a time (a match averages ≈70; more are drawn when needed)."""
UNIFORM_BUFFER = 96


# ---- seeds and random streams ---------------------------------------------------
_MASK32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _words(n: int) -> list[int]:
    out = []
    while True:
        out.append(n & _MASK32)
        n >>= 32
        if not n:
            return out


def match_seed_arrays(seed: int, start: int, stop: int) -> np.ndarray:
    """``games.match.match_seeds(seed, k)`` for k in [start, stop) as a (n, 3) uint64 array.

    Why: ``numpy.random.SeedSequence`` costs ≈12 µs per match, a fifth of a fast
    evaluation. Its hash depends on the match index only through the last entropy
    word, so the rest is mixed once and the last step runs as uint32 array
    arithmetic (same algorithm, same words; tested against ``match_seeds``).
    """
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    if stop > 1 << 32:
        raise ValueError("match index beyond 2**32")
    run = _words(seed)
    run += [0] * max(0, 4 - len(run))
    hc = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hc
        value ^= hc
        hc = (hc * _MULT_A) & _MASK32
        value = (value * hc) & _MASK32
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        r = (_MIX_L * x - _MIX_R * y) & _MASK32
        return r ^ (r >> 16)

    pool = [hashmix(run[i]) for i in range(4)]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
    for word in run[4:]:
        for i_dst in range(4):
            pool[i_dst] = mix(pool[i_dst], hashmix(word))
    k = np.arange(start, stop, dtype=np.uint64)
    out_pool = []
    for i_dst in range(4):  # the match index, the last entropy word
        value = k ^ np.uint64(hc)
        hc = (hc * _MULT_A) & _MASK32
        value = (value * np.uint64(hc)) & np.uint64(_MASK32)
        value ^= value >> np.uint64(16)
        r = (np.uint64(_MIX_L) * np.uint64(pool[i_dst]) + (np.uint64(1 << 32) - np.uint64(_MIX_R))
             * value) & np.uint64(_MASK32)
        out_pool.append(r ^ (r >> np.uint64(16)))
    hcb = _INIT_B
    words = []
    for i_dst in range(6):
        value = out_pool[i_dst % 4] ^ np.uint64(hcb)
        hcb = (hcb * _MULT_B) & _MASK32
        value = (value * np.uint64(hcb)) & np.uint64(_MASK32)
        words.append(value ^ (value >> np.uint64(16)))
    return np.stack([words[2 * i] | (words[2 * i + 1] << np.uint64(32)) for i in range(3)],
                    axis=1)


def _uniforms(rng: random.Random, count: int) -> np.ndarray:
    """The next ``count`` values of ``rng.random()``, drawn as one block of bits."""
    raw = np.frombuffer(rng.getrandbits(64 * count).to_bytes(8 * count, "little"), dtype="<u4")
    high = (raw[0::2] >> 5).astype(np.float64)
    low = (raw[1::2] >> 6).astype(np.float64)
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


def _rolls(rng: random.Random, count: int) -> np.ndarray:
    """Roll indices ``int(rng.random() * 1296)``, as ``CantStopState._roll`` draws them."""
    return (_uniforms(rng, count) * 1296.0).astype(np.int64)


# ---- positions as arrays --------------------------------------------------------------
class Position:
    """What strategies read, for every live row; derived arrays are built on first use."""

    def __init__(self, batch: Batch) -> None:
        self.b = batch
        self.n = batch.n
        self._cache: dict[Any, Any] = {}

    def _get(self, key, build):
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = build()
        return value

    @property
    def rows(self) -> np.ndarray:
        return self._get("rows", lambda: np.arange(self.n))

    def row_base(self, depth: int) -> np.ndarray:
        """Row offsets ``row * 13`` shaped ``(n, 1, ..., 1)`` with ``depth`` extra axes."""
        return self._get(("base", depth), lambda: (self.rows * 13).reshape(
            (self.n,) + (1,) * depth))

    @property
    def own(self) -> np.ndarray:
        return self._get("own", lambda: self.b.mk[self.rows, self.b.p])

    @property
    def opponent(self) -> np.ndarray:
        return self._get("opp", lambda: self.b.mk[self.rows, 1 - self.b.p])

    @property
    def advanced(self) -> np.ndarray:
        ne = self.b.ne
        return self._get("adv", lambda: np.where(ne > 0, ne - self.own, 0))

    @property
    def new_neutral(self) -> np.ndarray:
        return self._get("newn", lambda: (self.b.ne == 0).astype(np.int64))

    @property
    def neutral_mask(self) -> np.ndarray:
        return self._get("nmask", lambda: np.arange(3) < self.b.nn[:, None])

    def difficulty(self, params: HeuristicParams) -> np.ndarray:
        """``difficulty_score`` per row (all of the neutral columns odd / even / low / high)."""
        def build():
            nc = self.b.nc
            free = ~self.neutral_mask
            odd = (nc & 1) == 1
            return (params.odds * (odd | free).all(1) + params.evens * (~odd | free).all(1)
                    + params.lows * ((nc <= 7) | free).all(1)
                    + params.highs * ((nc >= 7) | free).all(1))
        return self._get(("difficulty", params), build)

    @property
    def stopping_wins(self) -> np.ndarray:
        def build():
            nc = self.b.nc
            ne_at = np.take(self.b.ne, self.row_base(1) + nc)
            topped = ((ne_at == H[nc]) & self.neutral_mask).sum(1)
            return self.b.cnt[:, :, CLAIMS][self.rows, self.b.p] + topped >= 3
        return self._get("sw", build)

    @property
    def can_place_new_neutral(self) -> np.ndarray:
        def build():
            open_free = (self.b.cl[:, 2:] < 0) & (self.b.ne[:, 2:] == 0)
            return (self.b.nn < 3) & open_free.any(1)
        return self._get("cpn", build)

    @property
    def action_mask(self) -> np.ndarray:
        return self._get("amask", lambda: np.arange(MAX_LEGAL) < self.b.nl[:, None])

    @property
    def action_columns(self) -> np.ndarray:
        """(n, 6, 2) columns of each legal action (second 0 for a single column)."""
        la = self.b.la
        return self._get("acols", lambda: np.stack([la >> 4, la & 15], axis=2))

    @property
    def advance_of(self) -> np.ndarray:
        """(n, 6): 2 for a double, else 1."""
        la = self.b.la
        return self._get("advof", lambda: 1 + (((la >> 4) == (la & 15)) & ((la & 15) > 0)))


class HeuristicArrays:
    """``HeuristicPlayer`` (GA, Rule of 28) on arrays: the same scores, first maximum."""

    def __init__(self, params: HeuristicParams) -> None:
        self.params = params
        self.mv = np.array((0, 0) + tuple(params.move_value), dtype=np.int64)
        self.pv = np.array((0, 0) + tuple(params.progress_value), dtype=np.int64)

    def columns(self, pos: Position) -> np.ndarray:
        cols = pos.action_columns
        a, b = cols[:, :, 0], cols[:, :, 1]
        ne = pos.b.ne
        base = pos.row_base(1)
        marker = self.params.marker
        advance = pos.advance_of
        value = advance * self.mv[a] - marker * (np.take(ne, base + a) == 0)
        value += np.where(b > 0, advance * self.mv[b] - marker * (np.take(ne, base + b) == 0), 0)
        return np.where(pos.action_mask, value, BIG_NEGATIVE).argmax(1)

    def stops(self, pos: Position) -> np.ndarray:
        nc = pos.b.nc
        base = pos.row_base(1)
        progress = (np.take(pos.b.ne, base + nc) - np.take(pos.own, base + nc) + 1) * self.pv[nc]
        score = np.where(pos.neutral_mask, progress, 0).sum(1) + pos.difficulty(self.params)
        return pos.stopping_wins | (~pos.can_place_new_neutral & (score >= self.params.threshold))


class RandomArrays:
    """``RandomStrategy``: ``legal[int(random() * len(legal))]`` from the seat's stream."""

    uses_stream = True


VECTORIZERS: dict[type, Callable[[Any], Any]] = {
    HeuristicPlayer: lambda player: HeuristicArrays(player.params),
    RandomStrategy: lambda player: RandomArrays(),
}
"""Player class (exact type) -> function(player) -> array strategy, or None if it
cannot run this player (the batch then runs on the reference engine)."""


def vectorize(player) -> Any:
    """The player as an array strategy, or None."""
    make = VECTORIZERS.get(type(player))
    return make(player) if make is not None else None


# ---- the batch of matches ------------------------------------------------------------
_ARRAYS = ("mk", "ne", "cl", "nc", "nn", "p", "mv", "roll", "cnt", "la", "nl", "id",
           "db", "dp", "rb", "rp")


class Batch:
    """Matches ``start..stop-1`` of a seed, seat-alternating, stepped together.

    Row arrays (first axis = live matches): ``mk`` markers (n, 2, 13), ``ne``
    neutral (n, 13), ``cl`` claimed (n, 13), ``nc``/``nn`` neutral columns in the
    order placed and their count, ``p`` player to act, ``mv`` moves, ``roll`` index
    of the dice in ``ROLLS``, ``cnt`` per-seat counters (n, 2, 7), ``la``/``nl`` legal
    column moves (``a*16 + b``, b = 0 for one column) and their count, ``id`` match
    offset in the batch, ``db``/``dp`` each match's drawn rolls and how many are used,
    ``rb``/``rp`` the random players' drawn numbers per seat.
    """

    def __init__(self, game: CantStop, strategies: Sequence, seed: int, start: int,
                 stop: int) -> None:
        n = stop - start
        self.n = n
        self.max_moves = game.max_moves
        self.strategies = list(strategies)
        self.start = start
        seeds = match_seed_arrays(seed, start, stop)
        self.mk = np.zeros((n, 2, 13), dtype=np.int64)
        self.ne = np.zeros((n, 13), dtype=np.int64)
        self.cl = np.full((n, 13), -1, dtype=np.int64)
        self.nc = np.zeros((n, 3), dtype=np.int64)
        self.nn = np.zeros(n, dtype=np.int64)
        self.p = np.zeros(n, dtype=np.int64)
        self.mv = np.zeros(n, dtype=np.int64)
        self.roll = np.zeros(n, dtype=np.int64)
        self.cnt = np.zeros((n, 2, COUNTERS), dtype=np.int64)
        self.la = np.zeros((n, MAX_LEGAL), dtype=np.int64)
        self.nl = np.zeros(n, dtype=np.int64)
        self.id = np.arange(n)
        # seat s of match i holds players[s ^ (i & 1)] (games.match.seats_for)
        self.flip = (np.arange(start, stop) & 1).astype(np.int64)
        self.chance = [random.Random(int(s)) for s in seeds[:, 0]]
        self.db = np.stack([_rolls(rng, ROLL_BUFFER) for rng in self.chance]) if n else \
            np.zeros((0, ROLL_BUFFER), dtype=np.int64)
        self.dp = np.zeros(n, dtype=np.int64)
        self.streams: list[list[random.Random | None]] = [[None, None] for _ in range(n)]
        random_players = [isinstance(s, RandomArrays) for s in self.strategies]
        self.rb = np.zeros((n, 2, UNIFORM_BUFFER if any(random_players) else 0))
        self.rp = np.zeros((n, 2), dtype=np.int64)
        if any(random_players):
            for i in range(n):
                for seat in (0, 1):
                    if random_players[seat ^ int(self.flip[i])]:
                        rng = random.Random(int(seeds[i, 1 + seat]))
                        self.streams[i][seat] = rng
                        self.rb[i, seat] = _uniforms(rng, UNIFORM_BUFFER)
        # results, by match offset
        self.winner = np.full(n, -1, dtype=np.int64)
        self.capped = np.zeros(n, dtype=bool)
        self.moves = np.zeros(n, dtype=np.int64)
        self.final: dict[str, np.ndarray] = {
            "mk": np.zeros((n, 2, 13), dtype=np.int64), "ne": np.zeros((n, 13), dtype=np.int64),
            "cl": np.zeros((n, 13), dtype=np.int64), "nc": np.zeros((n, 3), dtype=np.int64),
            "nn": np.zeros(n, dtype=np.int64), "p": np.zeros(n, dtype=np.int64),
            "roll": np.zeros(n, dtype=np.int64), "cnt": np.zeros((n, 2, COUNTERS), dtype=np.int64),
            "phase": np.zeros(n, dtype=np.int64)}

    # ---- driving ------------------------------------------------------------------
    def run(self) -> Batch:
        rows = np.arange(self.n)
        self.cnt[:, 0, TURNS] = 1
        self._roll(rows)
        while self.n:
            # a column move
            pos = Position(self)
            slot = self._decide(pos, "columns")
            act = self.la[pos.rows, slot]
            self._advance(act)
            self.mv += 1
            done = self.mv >= self.max_moves
            if done.any():
                self._finish(done, capped=True, phase=1)
                if not self.n:
                    break
            # roll again or stop
            pos = Position(self)
            stop = self._decide(pos, "stops").astype(bool)
            self.mv += 1
            won = np.zeros(self.n, dtype=bool)
            if stop.any():
                stopping = np.flatnonzero(stop)
                won[stopping] = self._stop(stopping)
                self._end_turn(stopping[~won[stopping]])
            rolling = np.flatnonzero(~won)
            self._roll(rolling)
            capped = ~won & (self.mv >= self.max_moves)
            if won.any():
                self._finish(won, capped=False, phase=1, capped_too=capped)
            elif capped.any():
                self._finish(capped, capped=True, phase=0)
        return self

    def _decide(self, pos: Position, kind: str) -> np.ndarray:
        """Each row's decision by the strategy of the seat to act."""
        who = self.p ^ self.flip[self.id]
        out = None
        for k, strategy in enumerate(self.strategies):
            acting = who == k
            if not acting.any():
                continue
            if isinstance(strategy, RandomArrays):
                choice = self._random(acting, kind)
            else:
                choice = getattr(strategy, kind)(pos)
            if out is None:
                if acting.all():
                    return choice
                out = np.zeros(self.n, dtype=np.int64)
            out = np.where(acting, choice, out)
        return out

    def _random(self, acting: np.ndarray, kind: str) -> np.ndarray:
        rows = np.flatnonzero(acting)
        seat = self.p[rows]
        used = self.rp[rows, seat]
        if used.max() >= self.rb.shape[2]:
            for r, s in zip(rows[used >= self.rb.shape[2]], seat[used >= self.rb.shape[2]]):
                self.rb[r, s] = _uniforms(self.streams[self.id[r]][s], self.rb.shape[2])
                self.rp[r, s] = 0
            used = self.rp[rows, seat]
        u = self.rb[rows, seat, used]
        self.rp[rows, seat] = used + 1
        count = self.nl[rows] if kind == "columns" else 2
        choice = np.zeros(self.n, dtype=np.int64)
        choice[rows] = (u * count).astype(np.int64)
        return choice

    # ---- rules ------------------------------------------------------------------------
    def _advance(self, act: np.ndarray) -> None:
        rows = np.arange(self.n)
        p = self.p
        a, b = act >> 4, act & 15
        two = b > 0
        cnt = self.cnt
        cnt[rows, p, ADVANCES] += 1 + two
        cnt[rows, p, OUTERS] += OUTER_ARR[a] + OUTER_ARR[b]
        self._step_column(rows, a)
        sub = np.flatnonzero(two)
        if sub.size:
            self._step_column(sub, b[sub])

    def _step_column(self, rows: np.ndarray, col: np.ndarray) -> None:
        h = self.ne[rows, col]
        new = h == 0
        if new.any():
            fresh = rows[new]
            h = h.copy()
            h[new] = self.mk[fresh, self.p[fresh], col[new]]
            self.nc[fresh, self.nn[fresh]] = col[new]
            self.nn[fresh] += 1
        self.ne[rows, col] = np.where(h < H[col], h + 1, h)

    def _stop(self, rows: np.ndarray) -> np.ndarray:
        """Bank the neutrals of ``rows``; True where the stop wins the match."""
        p = self.p[rows]
        cnt = self.cnt
        cnt[rows, p, STOPS] += 1
        nn = self.nn[rows]
        for slot in range(3):
            has = nn > slot
            if not has.any():
                break
            r, s = rows[has], p[has]
            c = self.nc[r, slot]
            h = self.ne[r, c]
            cnt[r, s, BANKED] += h - self.mk[r, s, c]
            top = h == H[c]
            if top.any():
                rt, st, ct = r[top], s[top], c[top]
                self.cl[rt, ct] = st
                cnt[rt, st, CLAIMS] += 1
                self.mk[rt, 0, ct] = 0
                self.mk[rt, 1, ct] = 0
            keep = ~top
            self.mk[r[keep], s[keep], c[keep]] = h[keep]
        won = cnt[rows, p, CLAIMS] >= 3
        if won.any():
            w = rows[won]
            self.ne[w] = 0
            self.nc[w] = 0
            self.nn[w] = 0
        return won

    def _end_turn(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        self.ne[rows] = 0
        self.nc[rows] = 0
        self.nn[rows] = 0
        p = 1 - self.p[rows]
        self.p[rows] = p
        self.cnt[rows, p, TURNS] += 1

    def _roll(self, rows: np.ndarray) -> None:
        """Roll for ``rows`` until each has a legal column move (busts pass the turn)."""
        while rows.size:
            used = self.dp[rows]
            if used.max() >= self.db.shape[1]:
                for r in rows[used >= self.db.shape[1]]:
                    self.db[r] = _rolls(self.chance[self.id[r]], self.db.shape[1])
                    self.dp[r] = 0
                used = self.dp[rows]
            roll = self.db[rows, used]
            self.dp[rows] = used + 1
            self.roll[rows] = roll
            la, nl = self._legal(rows, roll)
            self.la[rows] = la
            self.nl[rows] = nl
            bust = nl == 0
            if not bust.any():
                return
            rows = rows[bust]
            self.cnt[rows, self.p[rows], BUSTS] += 1
            self._end_turn(rows)

    def _legal(self, rows: np.ndarray, roll: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Legal column moves in ``CantStopState._column_moves`` order, padded to 6."""
        a, b, exists = _PA[roll], _PB[roll], _PX[roll]
        ne, cl = self.ne[rows], self.cl[rows]
        base = (np.arange(rows.size) * 13)[:, None]
        na, nb = np.take(ne, base + a), np.take(ne, base + b)
        free = (3 - self.nn[rows])[:, None]
        ok_a = exists & (np.take(cl, base + a) < 0) & (na < H[a]) & ((na > 0) | (free > 0))
        ok_b = exists & (np.take(cl, base + b) < 0) & (nb < H[b]) & ((nb > 0) | (free > 0))
        need = (na == 0).astype(np.int64) + ((nb == 0) & (a != b))
        pair = ok_a & ok_b & (need <= free)
        cand = np.stack([a * 16 + b, a * 16, b * 16], axis=2).reshape(-1, 9)
        valid = np.stack([pair, ok_a & ~pair, ok_b & ~pair], axis=2).reshape(-1, 9)
        dup = ((cand[:, :, None] == cand[:, None, :]) & valid[:, None, :] & _EARLIER).any(2)
        valid &= ~dup
        order = np.argsort(~valid, axis=1, kind="stable")[:, :MAX_LEGAL]
        la = np.take_along_axis(cand, order, 1) * np.take_along_axis(valid, order, 1)
        return la, valid.sum(1)

    # ---- finishing --------------------------------------------------------------------
    def _finish(self, done: np.ndarray, capped: bool, phase: int,
                capped_too: np.ndarray | None = None) -> None:
        """Record the final state of ``done`` rows (and ``capped_too``) and drop them."""
        groups = [(done, capped, phase)]
        if capped_too is not None and capped_too.any():
            groups.append((capped_too, True, 0))
        keep = np.ones(self.n, dtype=bool)
        for mask, was_capped, ph in groups:
            rows = np.flatnonzero(mask)
            ids = self.id[rows]
            self.capped[ids] = was_capped
            self.moves[ids] = self.mv[rows]
            if not was_capped:
                self.winner[ids] = self.p[rows]
            f = self.final
            for name in ("mk", "ne", "cl", "nc", "nn", "p", "roll", "cnt"):
                f[name][ids] = getattr(self, name)[rows]
            f["phase"][ids] = ph
            keep[rows] = False
        for name in _ARRAYS:
            setattr(self, name, getattr(self, name)[keep])
        self.n = int(keep.sum())

    # ---- results ----------------------------------------------------------------------
    def state(self, i: int) -> CantStopState:
        """The final state of match offset ``i`` as a reference-engine state."""
        f = self.final
        s = CantStopState.__new__(CantStopState)
        s.rng = None
        s.max_moves = self.max_moves
        s.player = -1
        s.markers = (f["mk"][i, 0].tolist(), f["mk"][i, 1].tolist())
        s.neutral = f["ne"][i].tolist()
        s.neutral_cols = f["nc"][i, :f["nn"][i]].tolist()
        s.claimed = f["cl"][i].tolist()
        cnt = f["cnt"][i]
        s.claims = cnt[:, CLAIMS].tolist()
        s.dice = ROLLS[int(f["roll"][i])]
        s.phase = PHASE_ROLL_OR_STOP if f["phase"][i] else PHASE_COLUMN
        s.legal = []
        s.moves = int(self.moves[i])
        s.won_by = int(self.winner[i]) if self.winner[i] >= 0 else None
        s.capped = bool(self.capped[i])
        s.turns = cnt[:, TURNS].tolist()
        s.busts = cnt[:, BUSTS].tolist()
        s.stops = cnt[:, STOPS].tolist()
        s.banked = cnt[:, BANKED].tolist()
        s.advances = cnt[:, ADVANCES].tolist()
        s.outer = cnt[:, OUTERS].tolist()
        s.last_player = int(f["p"][i])
        return s

    def summary(self, lo: int = 0, hi: int | None = None,
                behavior: dict | None = None) -> MatchSummary:
        """``games.match._play_chunk``'s summary of match offsets ``lo..hi-1``."""
        hi = len(self.winner) if hi is None else hi
        summary = MatchSummary()
        for i in range(lo, hi):
            order = seats_for(self.start + i)
            if behavior:
                state = self.state(i)
                for seat in (0, 1):
                    sums = summary.feature_sums[order[seat]]
                    for k, (fn, _) in behavior.items():
                        sums[k] = sums.get(k, 0.0) + float(fn(state, seat))
            summary.matches += 1
            summary.total_moves += int(self.moves[i])
            if self.winner[i] >= 0:
                summary.wins[order[int(self.winner[i])]] += 1
            elif self.capped[i]:
                summary.capped += 1
            else:
                summary.draws += 1
        return summary


def strategies_for(game, players: Sequence) -> list | None:
    """Array strategies for ``players`` on ``game``, or None if the batch must run on
    the reference engine (another game, a player with no array form, or one random
    player object in both seats, which the reference reseeds twice)."""
    if type(game) is not CantStop or len(players) != 2:
        return None
    if players[0] is players[1] and isinstance(players[0], RandomStrategy):
        return None
    out = [vectorize(p) for p in players]
    return None if any(s is None for s in out) else out


def play_batch(game, players: Sequence, seed: int, start: int, stop: int) -> Batch | None:
    """Matches ``start..stop-1`` (seat-alternating) on the array engine, or None if unsupported."""
    strategies = strategies_for(game, players)
    if strategies is None:
        return None
    return Batch(game, strategies, seed, start, stop).run()


def play_chunk(job: tuple) -> MatchSummary:
    """``games.match._play_chunk`` on the array engine (same job, same summary)."""
    return play_chunks([job])[0]


def play_chunks(jobs: Sequence[tuple]) -> list[MatchSummary]:
    """Summaries of ``_play_chunk`` jobs; consecutive jobs of one pairing and seed are
    played as one batch (more rows per array operation) and summed per job."""
    out: list[MatchSummary] = []
    i = 0
    while i < len(jobs):
        game, players, seed, start, stop, behavior = jobs[i]
        j = i + 1
        while (j < len(jobs) and jobs[j][0] is game and jobs[j][2] == seed
               and jobs[j][3] == jobs[j - 1][4] and jobs[j][5] is behavior
               and len(jobs[j][1]) == len(players)
               and all(x is y for x, y in zip(jobs[j][1], players))):
            j += 1
        batch = play_batch(game, players, seed, start, jobs[j - 1][4])
        for job in jobs[i:j]:
            if batch is None:
                out.append(_play_chunk(job))
            else:
                out.append(batch.summary(job[3] - start, job[4] - start, behavior))
        i = j
    return out
