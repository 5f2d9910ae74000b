"""A faster Can't Stop engine: many matches stepped at once as numpy arrays.

Why: a Ψ evaluation is 1,000 matches of ≈140 decisions each, and the scalar
engine (``rules.py``) pays Python's per-call cost on every decision. Here the
live matches of a batch are the columns of arrays and every rule is one array
operation over all of them, so that cost is shared by the batch
(docs/fast-evaluation.md has the measured speed-up and where the time goes).

The results are the reference engine's, match by match: the same dice (each
match's ``random.Random`` stream is drawn into a buffer, ``int(random() * 1296)``
per roll, exactly as ``CantStopState._roll``), the same legal-move order, the
same decision of every player (first maximum on ties) and the same final state
and per-seat counters. ``tests/test_cantstop_fast.py`` checks this against the
reference engine. The scalar engine stays the reference; this one only plays
strategies it can run as arrays (``vectorize``) and otherwise hands the batch
back to the reference (``ArrayEngine`` declines the job; ``play_chunks`` then plays it
with ``games.match.play_job``).

Strategies as arrays: an object with ``columns(pos) -> slot index per row`` and
``stops(pos) -> bool per row`` (see ``Position``). Built in: the heuristic
players (GA, Rule of 28) and the uniform random player; a program player gives its
own array form as its lowering for ``LOWERING`` (``games.engines.lowering``; the
sketch languages of ``gp.languages.cantstop`` declare theirs).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..api import RandomStrategy
from ..engines import Engine, StateEngine, lowering, play_in_process
from ..match import MatchJob, MatchSummary, seats_for
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
_PAB = np.concatenate([_PA.T, _PB.T])  # (6, 1296); a missing pairing is column 0
_CODE_WEIGHTS = 1 << np.arange(9)
_LEGAL_TABLE: list[np.ndarray] = []


def legal_table() -> tuple[np.ndarray, np.ndarray]:
    """Legal column moves of every roll for every pattern of what its pairings allow.

    ``CantStopState._column_moves`` walks the roll's (up to 3) pairings; pairing j
    offers its pair if ``pair[j]`` holds, else column a if ``ok_a[j]`` and column b
    if ``ok_b[j]``, skipping moves already offered. So the list depends only on the
    roll and these 9 booleans: ``code = Σ ok_a[j]·2^j + ok_b[j]·2^(3+j) + pair[j]·2^(6+j)``.
    Returns ``(columns, count)`` indexed by ``roll * 512 + code``: columns
    (1296·512, 12) int8, the first column of each of 6 slots then the second (0 for
    a move of one column, and for unused slots), built once on first use.
    """
    if not _LEGAL_TABLE:
        code = np.arange(512)
        bits = (code[:, None] >> np.arange(9)) & 1 == 1  # (512, 9)
        ok_a, ok_b, pair = bits[:, 0:3], bits[:, 3:6], bits[:, 6:9]
        exists = _PX[:, None, :]  # (1296, 1, 3)
        valid = np.stack(np.broadcast_arrays(pair & exists, ok_a & ~pair & exists,
                                             ok_b & ~pair & exists), axis=3)
        valid = valid.reshape(1296, 512, 9)
        cand = np.stack([_PA * 16 + _PB, _PA * 16, _PB * 16], axis=2).reshape(1296, 1, 9)
        cand = np.broadcast_to(cand, valid.shape)
        keep = valid.copy()
        singles = (1, 2, 4, 5, 7, 8)  # a pair never repeats; a single column may
        for k in singles:
            for j in singles:
                if j < k:
                    keep[:, :, k] &= ~(valid[:, :, j] & (cand[:, :, j] == cand[:, :, k]))
        ids = np.zeros((1296, 512, MAX_LEGAL + 1), dtype=np.int64)  # last slot: discarded
        count = np.zeros((1296, 512), dtype=np.int64)
        for k in range(9):
            slot = np.where(keep[:, :, k], count, MAX_LEGAL)[:, :, None]
            np.put_along_axis(ids, slot, np.ascontiguousarray(cand[:, :, k])[:, :, None], 2)
            count += keep[:, :, k]
        ids = ids[:, :, :MAX_LEGAL]
        ids = ids.reshape(-1, MAX_LEGAL)
        _LEGAL_TABLE[:] = [np.concatenate([ids >> 4, ids & 15], axis=1).astype(np.int8),
                           count.reshape(-1)]
    return _LEGAL_TABLE[0], _LEGAL_TABLE[1]

# per-seat counters, in ``Batch.cnt[:, seat, k]``
CLAIMS, TURNS, BUSTS, STOPS, BANKED, ADVANCES, OUTERS = range(7)
COUNTERS = 7

ROLL_BUFFER = 128
"""Rolls drawn per match at a time (a match averages ≈70; more are drawn when needed)."""
UNIFORM_BUFFER = 96
TAIL_ROWS = 48
"""When this few matches are left, they finish on the reference engine: a step of
the array engine costs about the same for 40 rows as for 1,000."""


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


def group_seed_arrays(seed: int, start: int, stop: int, paired: bool = False) -> np.ndarray:
    """``match_seed_arrays`` of matches ``start..stop-1``; ``paired``: match k plays on
    the seeds of ``k // 2`` (``games.match.opening_index``)."""
    if not paired:
        return match_seed_arrays(seed, start, stop)
    first = start // 2
    deals = match_seed_arrays(seed, first, (stop + 1) // 2)
    return deals[np.arange(start, stop) // 2 - first]


def _uniforms(rng: random.Random, count: int) -> np.ndarray:
    """The next ``count`` values of ``rng.random()``, drawn as one block of bits."""
    raw = np.frombuffer(rng.getrandbits(64 * count).to_bytes(8 * count, "little"), dtype="<u4")
    high = (raw[0::2] >> 5).astype(np.float64)
    low = (raw[1::2] >> 6).astype(np.float64)
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


def _rolls(rng: random.Random, count: int) -> np.ndarray:
    """Roll indices ``int(rng.random() * 1296)``, as ``CantStopState._roll`` draws them."""
    return (_uniforms(rng, count) * 1296.0).astype(np.int64)


def _uniforms_of(rngs: Sequence[random.Random], count: int) -> np.ndarray:
    """``_uniforms`` of each generator, as rows of one array (one conversion for all)."""
    data = b"".join([rng.getrandbits(64 * count).to_bytes(8 * count, "little") for rng in rngs])
    raw = np.frombuffer(data, dtype="<u4").reshape(len(rngs), 2 * count)
    high = (raw[:, 0::2] >> 5).astype(np.float64)
    low = (raw[:, 1::2] >> 6).astype(np.float64)
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


def _skipped(seed: int, draws: int) -> random.Random:
    """``random.Random(seed)`` after ``draws`` calls of ``random()`` (two words each)."""
    rng = random.Random(seed)
    if draws:
        rng.getrandbits(64 * draws)
    return rng


# ---- positions as arrays --------------------------------------------------------------
def _set_counters(s: CantStopState, cnt: np.ndarray) -> None:
    """A reference-engine state's per-seat counters from a (2, COUNTERS) array."""
    s.claims = cnt[:, CLAIMS].tolist()
    s.turns = cnt[:, TURNS].tolist()
    s.busts = cnt[:, BUSTS].tolist()
    s.stops = cnt[:, STOPS].tolist()
    s.banked = cnt[:, BANKED].tolist()
    s.advances = cnt[:, ADVANCES].tolist()
    s.outer = cnt[:, OUTERS].tolist()


class Position:
    """What strategies read, for every live row, at a column move (``kind`` "columns")
    or a roll-or-stop choice ("stops").

    Arrays put the match axis last (``(3, n)``, ``(6, n)``), so a neutral slot or an
    action slot is one contiguous row and sums over slots add whole rows. Sets of
    columns are bitmasks (bit c for column c): neutral columns, claimed columns,
    neutrals on the top cell. What every strategy of the kind reads is computed
    once here; the rest on demand.
    """

    def __init__(self, batch: StateView, kind: str) -> None:
        b = self.b = batch
        n = self.n = batch.n
        rows = self.rows = batch.rows
        p = b.p
        self.own_offset = p * (13 * n) + rows
        self._difficulty: dict[HeuristicParams, np.ndarray] = {}
        self._opponent_offset = None
        self.neutral_mask = _SLOTS3 < b.nn
        if kind == "columns":
            cols = self.action_columns = b.la.reshape(2, MAX_LEGAL, n)
            self.action_mask = _SLOTS6 < b.nl
            self.advance_of = 1 + ((cols[0] == cols[1]) & (cols[1] > 0))
        else:
            claims = b.cnt.take((p * COUNTERS + CLAIMS) * n + rows)
            self.stopping_wins = claims + _POPCOUNT.take(b.tb) >= 3
            self.can_place_new_neutral = (b.nn < 3) & ((_ALL_COLUMNS & ~(b.cb | b.nb)) != 0)

    # ---- per-column values, for column numbers of any shape (..., n) --------------------
    def neutral_at(self, columns: np.ndarray) -> np.ndarray:
        """Cell of the neutral marker in each column (0 = none)."""
        return self.b.S.take((NE + columns) * self.n + self.rows)

    def own_at(self, columns: np.ndarray) -> np.ndarray:
        """The acting player's secured cells in each column."""
        return self.b.S.take((MK + columns) * self.n + self.own_offset)

    def opponent_at(self, columns: np.ndarray) -> np.ndarray:
        if self._opponent_offset is None:
            self._opponent_offset = (1 - self.b.p) * (13 * self.n) + self.rows
        return self.b.S.take((MK + columns) * self.n + self._opponent_offset)

    def advanced_at(self, columns: np.ndarray) -> np.ndarray:
        """Cells the neutral marker is above the player's own (0 without a neutral)."""
        h = self.neutral_at(columns)
        return (h - self.own_at(columns)) * (h > 0)

    def new_neutral_at(self, columns: np.ndarray) -> np.ndarray:
        """1 where the column holds no neutral marker."""
        return ((self.b.nb >> columns) & 1) ^ 1

    def difficulty(self, params: HeuristicParams) -> np.ndarray:
        """``difficulty_score`` per row, looked up by the set of neutral columns."""
        value = self._difficulty.get(params)
        if value is None:
            value = self._difficulty[params] = difficulty_table(params).take(self.b.nb)
        return value


_SLOTS3 = np.arange(3)[:, None]
_SLOTS6 = np.arange(MAX_LEGAL)[:, None]
_ALL_COLUMNS = sum(1 << c for c in range(2, 13))
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
_DIFFICULTY: dict[HeuristicParams, np.ndarray] = {}


def difficulty_table(params: HeuristicParams) -> np.ndarray:
    """``difficulty_score`` of every set of neutral columns (a 13-bit mask)."""
    table = _DIFFICULTY.get(params)
    if table is None:
        table = np.zeros(1 << 13, dtype=np.int64)
        for mask in range(1 << 13):
            if mask & 3:
                continue
            cols = [c for c in range(2, 13) if mask >> c & 1]
            table[mask] = (params.odds * all(c & 1 for c in cols)
                           + params.evens * all(not c & 1 for c in cols)
                           + params.lows * all(c <= 7 for c in cols)
                           + params.highs * all(c >= 7 for c in cols))
        _DIFFICULTY[params] = table
    return table


class HeuristicArrays:
    """``HeuristicPlayer`` (GA, Rule of 28) on arrays: the same scores, first maximum."""

    def __init__(self, params: HeuristicParams) -> None:
        self.params = params
        self.mv = np.array((0, 0) + tuple(params.move_value), dtype=np.int64)
        self.pv = np.array((0, 0) + tuple(params.progress_value), dtype=np.int64)

    def columns(self, pos: Position) -> np.ndarray:
        cols = pos.action_columns  # (2, 6, n)
        value = pos.advance_of * self.mv[cols] - self.params.marker * pos.new_neutral_at(cols)
        total = value[0] + value[1] * (cols[1] > 0)
        return np.where(pos.action_mask, total, BIG_NEGATIVE).argmax(0)

    def stops(self, pos: Position) -> np.ndarray:
        nc = pos.b.nc
        progress = (pos.advanced_at(nc) + 1) * self.pv[nc] * pos.neutral_mask
        score = progress[0] + progress[1] + progress[2] + pos.difficulty(self.params)
        return pos.stopping_wins | (~pos.can_place_new_neutral & (score >= self.params.threshold))


class RandomArrays:
    """``RandomStrategy``: ``legal[int(random() * len(legal))]`` from the seat's stream."""


LOWERING = "cantstop.numpy"
"""The key under which a program player declares its array form
(``function(player) -> array strategy or None``). Declare it only for players whose
decisions depend on the state alone (the last few matches of a batch finish on the
reference engine with the player object itself)."""


def vectorize(player) -> Any:
    """The player as an array strategy, or None (built-in players of exactly these
    classes; programs by their lowering)."""
    if type(player) is HeuristicPlayer:
        return HeuristicArrays(player.params)
    if type(player) is RandomStrategy:  # the one player whose decisions use a stream
        return RandomArrays()
    return lowering(player, LOWERING)


# ---- the batch of matches ------------------------------------------------------------
# rows of the packed state ``Batch.S`` (one int64 row per quantity, one column per match)
NE, CL, MK, NC, LA, CNT, RP = 0, 13, 26, 52, 55, 67, 81
NN, P, MV, ROLL, NL, ID, DP, FL, NB, CB, TB, ST = range(83, 95)
STATE_ROWS = 96  # ST, ST + 1: the strategies of the pairing's two players


class StateView:
    """Named views of the rows of a packed state ``S`` (see ``Batch``)."""

    def __init__(self, S: np.ndarray) -> None:
        self.S = S
        self._views()

    def _views(self) -> None:
        S = self.S
        n = S.shape[1]
        self.n = n
        self.rows = np.arange(n)
        self.ne, self.cl = S[NE:NE + 13], S[CL:CL + 13]
        self.mk = S[MK:MK + 26].reshape(2, 13, n)
        self.nc, self.la = S[NC:NC + 3], S[LA:LA + 2 * MAX_LEGAL]
        self.cnt = S[CNT:CNT + 2 * COUNTERS].reshape(2, COUNTERS, n)
        self.rp = S[RP:RP + 2]
        self.nn, self.p, self.mv, self.roll = S[NN], S[P], S[MV], S[ROLL]
        self.nl, self.id, self.dp, self.fl = S[NL], S[ID], S[DP], S[FL]
        self.nb, self.cb, self.tb = S[NB], S[CB], S[TB]
        self.st = S[ST:ST + 2]


class Batch(StateView):
    """Matches of one or more pairings, seat-alternating, stepped together.

    ``groups`` lists ``(pair, seed, start, stop[, paired])``: matches ``start..stop-1``
    of ``seed`` between ``strategies[pair[0]]`` and ``strategies[pair[1]]`` (the
    players of ``play_matches``; ``paired``: on the seeds of ``k // 2``,
    ``games.match.opening_index``); rows follow the groups in order. Several
    pairings in one batch (a GP population against GA) share every array
    operation of the rules and of the common opponent.

    The state is one int64 array ``S`` (96, n), a column per live match, so that
    dropping finished matches is one copy; the names below are views of its rows.
    Arrays have the live matches on the last axis (n): ``mk`` markers (2, 13, n),
    ``ne`` neutral (13, n), ``cl`` claimed (13, n), ``nc``/``nn`` neutral columns in
    the order placed (3, n) and their count, ``p`` player to act, ``mv`` moves,
    ``roll`` index of the dice in ``ROLLS``, ``cnt`` per-seat counters (2, 7, n),
    ``la``/``nl`` legal column moves (12, n), the first column of each of the 6 slots
    then the second (0 for a move of one column), and their count, ``id`` match
    offset in the batch, ``fl`` 1 where seats are swapped, ``dp`` rolls used from
    the match's buffer ``db[id]``, ``rp`` (2, n)
    numbers used per seat from the random players' buffers ``rb[id]`` (buffers are
    indexed by match offset, so dropping finished rows does not copy them).
    """

    def __init__(self, game: CantStop, players: Sequence, strategies: Sequence,
                 groups: Sequence[tuple[tuple[int, int], int, int, int]],
                 tail_rows: int = TAIL_ROWS) -> None:
        index = np.concatenate([np.arange(g[2], g[3]) for g in groups])
        n = len(index)
        self.players = list(players)
        self.tail_rows = tail_rows
        self.max_moves = game.max_moves
        self.strategies = list(strategies)
        self.index = index  # match index within its pairing's batch (seats_for)
        seeds = np.concatenate([group_seed_arrays(*g[1:5]) for g in groups])
        self.S = np.zeros((STATE_ROWS, n), dtype=np.int64)
        self._views()
        self.cl[:] = -1
        self.id[:] = np.arange(n)
        # seat s of match i holds players[s ^ (i & 1)] (games.match.seats_for)
        self.fl[:] = index & 1
        self.st[:] = np.concatenate([np.repeat(np.array(g[0])[:, None], g[3] - g[2], 1)
                                     for g in groups], axis=1)
        seat_strategy = np.stack([self.st[0] * (1 - self.fl) + self.st[1] * self.fl,
                                  self.st[1] * (1 - self.fl) + self.st[0] * self.fl], 1)
        self.seat_strategy = seat_strategy  # (n, 2) by match offset
        self.seeds = seeds
        self.chance = [random.Random(int(s)) for s in seeds[:, 0]]
        self.db = (_uniforms_of(self.chance, ROLL_BUFFER) * 1296.0).astype(np.int64)
        self.fills = np.ones(n, dtype=np.int64)  # buffers drawn per match (chance)
        self.streams: list[list[random.Random | None]] = [[None, None] for _ in range(n)]
        random_players = [isinstance(s, RandomArrays) for s in self.strategies]
        self.rb = np.zeros((n, 2, UNIFORM_BUFFER if any(random_players) else 0))
        self.rfills = np.ones((n, 2), dtype=np.int64)
        if any(random_players):
            for i in range(n):
                for seat in (0, 1):
                    if random_players[seat_strategy[i, seat]]:
                        rng = random.Random(int(seeds[i, 1 + seat]))
                        self.streams[i][seat] = rng
                        self.rb[i, seat] = _uniforms(rng, UNIFORM_BUFFER)
        self.tail: dict[int, CantStopState] = {}
        # results, by match offset
        self.winner = np.full(n, -1, dtype=np.int64)
        self.capped = np.zeros(n, dtype=bool)
        self.moves = np.zeros(n, dtype=np.int64)
        self.final = np.zeros((STATE_ROWS, n), dtype=np.int64)  # S of each finished match
        self.phase = np.zeros(n, dtype=np.int64)  # 1 if it ended at a roll-or-stop choice

    # ---- driving ------------------------------------------------------------------
    def run(self) -> Batch:
        self.cnt[0, TURNS] = 1
        self._roll(self.rows)
        while self.n:
            if self.n <= self.tail_rows:
                self._play_tail()
                break
            # a column move
            slot = self._decide("columns")
            at = (LA + slot) * self.n + self.rows
            self._advance(self.S.take(at), self.S.take(at + MAX_LEGAL * self.n))
            self.mv += 1
            done = self.mv >= self.max_moves
            if done.any():
                self._finish(done, capped=True, phase=1)
                if not self.n:
                    break
            # roll again or stop
            stop = self._decide("stops").astype(bool)
            self.mv += 1
            won = self._stop(stop) if stop.any() else None
            if won is not None and won.any():
                self._roll((~won).nonzero()[0])
            else:
                won = None
                self._roll(self.rows)
            capped = self.mv >= self.max_moves
            if won is not None:
                self._finish(won, capped=False, phase=1, capped_too=capped & ~won)
            elif capped.any():
                self._finish(capped, capped=True, phase=0)
        return self

    def _decide(self, kind: str) -> np.ndarray:
        """Each row's decision by the strategy of the seat to act. With two strategies
        both decide on every row and the acting one's choice is kept (cheaper than
        copying rows); with more (several pairings), each decides on a copy of the
        rows where it acts."""
        who = self.p ^ self.fl
        if len(self.strategies) > 2:
            who = np.where(who == 0, self.st[0], self.st[1])
        split = len(self.strategies) > 2  # two: both on all rows is cheaper than copying
        out = np.zeros(self.n, dtype=np.int64)
        pos = None
        for k, strategy in enumerate(self.strategies):
            acting = who == k
            if isinstance(strategy, RandomArrays):
                if acting.any():
                    out += self._random(acting, kind)
                continue
            if not split:
                pos = pos or Position(self, kind)
                if acting.all():
                    return getattr(strategy, kind)(pos)
                out = np.where(acting, getattr(strategy, kind)(pos), out)
                continue
            rows = acting.nonzero()[0]
            if rows.size == self.n:
                return getattr(strategy, kind)(Position(self, kind))
            if rows.size:
                sub = StateView(self.S.take(rows, axis=1))
                out[rows] = getattr(strategy, kind)(Position(sub, kind))
        return out

    def _random(self, acting: np.ndarray, kind: str) -> np.ndarray:
        rows = acting.nonzero()[0]
        seat = self.p[rows]
        flat = seat * self.n + rows
        used = self.rp.take(flat)
        size = self.rb.shape[2]
        if used.max() >= size:
            for r, s in zip(rows[used >= size], seat[used >= size]):
                i = self.id[r]
                self.rb[i, s] = _uniforms(self.streams[i][s], size)
                self.rfills[i, s] += 1
                self.rp[s, r] = 0
            used = self.rp.take(flat)
        u = self.rb[self.id[rows], seat, used]
        self.rp.reshape(-1)[flat] = used + 1
        count = self.nl[rows] if kind == "columns" else 2
        choice = np.zeros(self.n, dtype=np.int64)
        choice[rows] = (u * count).astype(np.int64)
        return choice

    # ---- rules ------------------------------------------------------------------------
    def _advance(self, a: np.ndarray, b: np.ndarray) -> None:
        n, rows = self.n, self.rows
        two = b > 0
        cnt = self.cnt.reshape(-1)
        at = self.p * (COUNTERS * n) + rows
        cnt[at + ADVANCES * n] += 1 + two
        cnt[at + OUTERS * n] += OUTER_ARR[a] + OUTER_ARR[b]
        self._step_column(rows, a)
        sub = two.nonzero()[0]
        if sub.size:
            self._step_column(sub, b[sub])

    def _step_column(self, rows: np.ndarray, col: np.ndarray) -> None:
        n = self.n
        ne = self.ne.reshape(-1)
        at = col * n + rows
        h = ne[at]
        new = h == 0
        bit = 1 << col
        if new.any():
            fresh, fcol = rows[new], col[new]
            h[new] = self.mk.take(self.p[fresh] * (13 * n) + fcol * n + fresh)
            self.nc.reshape(-1)[self.nn[fresh] * n + fresh] = fcol
            self.nn[fresh] += 1
            self.nb[fresh] |= bit[new]
        top = H[col]
        h = h + (h < top)
        ne[at] = h
        self.tb[rows] |= bit * (h == top)

    def _stop(self, stop: np.ndarray) -> np.ndarray:
        """Bank the neutrals where ``stop``; end those turns; True where the stop wins.

        All rows at once: a slot with nothing to bank points at column 0 (unused by
        the rules), where the writes put back what they read.
        """
        n, rows, p = self.n, self.rows, self.p
        S = self.S.reshape(-1)
        cnt = self.cnt.reshape(-1)
        at = p * (COUNTERS * n) + rows
        cnt[at + STOPS * n] += stop
        valid = (_SLOTS3 < self.nn) & stop
        c = self.nc * valid
        h = S[(NE + c) * n + rows]
        own_at = (MK + 13 * p + c) * n + rows
        other_at = (MK + 13 * (1 - p) + c) * n + rows
        own = S[own_at]
        banked = (h - own) * valid
        cnt[at + BANKED * n] += banked[0] + banked[1] + banked[2]
        top = (h == H[c]) & valid
        cl_at = (CL + c) * n + rows
        S[cl_at] = np.where(top, p, S[cl_at])
        S[own_at] = np.where(top, 0, np.where(valid, h, own))
        S[other_at] = np.where(top, 0, S[other_at])
        topbits = top << c
        self.cb |= topbits[0] | topbits[1] | topbits[2]
        claims = cnt[at + CLAIMS * n] + top[0] + top[1] + top[2]
        cnt[at + CLAIMS * n] = claims
        won = stop & (claims >= 3)
        S[(NE + c) * n + rows] = h * ~valid  # the neutrals come off (column 0 keeps its value)
        keep = ~stop
        self.nc *= keep
        self.nn *= keep
        self.nb *= keep
        self.tb *= keep
        ended = stop & ~won
        p ^= ended
        cnt[p * (COUNTERS * n) + TURNS * n + rows] += ended
        return won

    def _end_turn(self, rows: np.ndarray) -> None:
        if not rows.size:
            return
        self.ne[:, rows] = 0
        self.nc[:, rows] = 0
        self.nn[rows] = 0
        self.nb[rows] = 0
        self.tb[rows] = 0
        p = 1 - self.p[rows]
        self.p[rows] = p
        self.cnt.reshape(-1)[(p * COUNTERS + TURNS) * self.n + rows] += 1

    def _roll(self, rows: np.ndarray) -> None:
        """Roll for ``rows`` until each has a legal column move (busts pass the turn)."""
        size = self.db.shape[1]
        while rows.size:
            sel = slice(None) if rows.size == self.n else rows  # a slice reads in place
            used = self.dp[sel]
            if used.max() >= size:
                for r in rows[used >= size]:
                    self.db[self.id[r]] = _rolls(self.chance[self.id[r]], size)
                    self.fills[self.id[r]] += 1
                    self.dp[r] = 0
                used = self.dp[sel]
            roll = self.db.take(self.id[sel] * size + used)
            self.dp[sel] = used + 1
            self.roll[sel] = roll
            # legal column moves, in CantStopState._column_moves order
            ab = _PAB.take(roll, axis=1)  # (6, m): a of each pairing, then b; 0 if none
            nn, nb = self.nn[sel], self.nb[sel]
            # movable: not claimed, neutral not on top, and a neutral there or one left
            movable = ~(self.cb[sel] | self.tb[sel]) & (nb | (_ALL_COLUMNS * (nn < 3)))
            ok = ((movable >> ab) & 1).astype(bool)
            new = ((nb >> ab) & 1) ^ 1
            need = new[:3] + (new[3:] & (ab[:3] != ab[3:]))
            pair = ok[:3] & ok[3:] & (need <= 3 - nn)
            code = roll * 512 + (_CODE_WEIGHTS[:6] @ ok) + (_CODE_WEIGHTS[6:] @ pair)
            ids, count = legal_table()
            nl = count.take(code)
            self.la[:, sel] = ids.take(code, axis=0).T
            self.nl[sel] = nl
            bust = nl == 0
            if not bust.any():
                return
            rows = rows[bust]
            p = self.p[rows]
            self.cnt.reshape(-1)[(p * COUNTERS + BUSTS) * self.n + rows] += 1
            self._end_turn(rows)

    # ---- finishing --------------------------------------------------------------------
    def _finish(self, done: np.ndarray, capped: bool, phase: int,
                capped_too: np.ndarray | None = None) -> None:
        """Record the final state of ``done`` rows (and ``capped_too``) and drop them."""
        groups = [(done, capped, phase)]
        if capped_too is not None and capped_too.any():
            groups.append((capped_too, True, 0))
        keep = np.ones(self.n, dtype=bool)
        for mask, was_capped, ph in groups:
            rows = mask.nonzero()[0]
            ids = self.id[rows]
            self.capped[ids] = was_capped
            self.moves[ids] = self.mv[rows]
            if not was_capped:
                self.winner[ids] = self.p[rows]
            self.final[:, ids] = self.S[:, rows]
            self.phase[ids] = ph
            keep[rows] = False
        self.S = self.S.compress(keep, axis=1)
        self._views()

    def _play_tail(self) -> None:
        """Finish the live matches on the reference engine, from their exact positions
        (dice and random players' streams skipped to the numbers already used)."""
        for r in range(self.n):
            i = int(self.id[r])
            state = self._live_state(r)
            seats = [self._scalar_player(r, seat) for seat in (0, 1)]
            while state.player >= 0:
                state.apply_action(seats[state.player](state))
            self.tail[i] = state
            self.winner[i] = -1 if state.won_by is None else state.won_by
            self.capped[i] = state.capped
            self.moves[i] = state.moves
        self.n = 0

    def _live_state(self, r: int) -> CantStopState:
        """Row ``r`` (at a column move) as a reference-engine state."""
        i = int(self.id[r])
        s = CantStopState.__new__(CantStopState)
        used = int(self.fills[i] - 1) * self.db.shape[1] + int(self.dp[r])
        s.rng = _skipped(int(self.seeds[i, 0]), used)
        s.max_moves = self.max_moves
        s.player = int(self.p[r])
        s.markers = (self.mk[0, :, r].tolist(), self.mk[1, :, r].tolist())
        s.neutral = self.ne[:, r].tolist()
        s.neutral_cols = self.nc[:self.nn[r], r].tolist()
        s.claimed = self.cl[:, r].tolist()
        _set_counters(s, self.cnt[:, :, r])
        s.dice = ROLLS[int(self.roll[r])]
        s.phase = PHASE_COLUMN
        s.legal = s._column_moves(PAIRINGS[int(self.roll[r])])
        s.moves = int(self.mv[r])
        s.won_by = None
        s.capped = False
        s.last_player = s.player
        return s

    def _scalar_player(self, r: int, seat: int):
        """The player in ``seat`` of row ``r``; a random player gets its own stream,
        skipped to the numbers it has used."""
        i = int(self.id[r])
        k = self.seat_strategy[i, seat]
        player = self.players[k]
        if not isinstance(self.strategies[k], RandomArrays):
            return player
        fresh = RandomStrategy()
        used = int(self.rfills[i, seat] - 1) * self.rb.shape[2] + int(self.rp[seat, r])
        fresh._rng = _skipped(int(self.seeds[i, 1 + seat]), used)
        return fresh

    # ---- results ----------------------------------------------------------------------
    def state(self, i: int) -> CantStopState:
        """The final state of match offset ``i`` as a reference-engine state."""
        if i in self.tail:
            return self.tail[i]
        f = self.final[:, i]
        s = CantStopState.__new__(CantStopState)
        s.rng = None
        s.max_moves = self.max_moves
        s.player = -1
        s.markers = (f[MK:MK + 13].tolist(), f[MK + 13:MK + 26].tolist())
        s.neutral = f[NE:NE + 13].tolist()
        s.neutral_cols = f[NC:NC + f[NN]].tolist()
        s.claimed = f[CL:CL + 13].tolist()
        _set_counters(s, f[CNT:CNT + 2 * COUNTERS].reshape(2, COUNTERS))
        s.dice = ROLLS[int(f[ROLL])]
        s.phase = PHASE_ROLL_OR_STOP if self.phase[i] else PHASE_COLUMN
        s.legal = []
        s.moves = int(self.moves[i])
        s.won_by = int(self.winner[i]) if self.winner[i] >= 0 else None
        s.capped = bool(self.capped[i])
        s.last_player = int(f[P])
        return s

    def summary(self, lo: int = 0, hi: int | None = None,
                behavior: dict | None = None) -> MatchSummary:
        """``games.match.play_job``'s summary of match offsets ``lo..hi-1``."""
        hi = len(self.winner) if hi is None else hi
        summary = MatchSummary()
        for i in range(lo, hi):
            order = seats_for(int(self.index[i]))
            if behavior:
                state = self.state(i)
                for seat in (0, 1):
                    sums = summary.feature_sums[order[seat]]
                    for k, (fn, _) in behavior.items():
                        sums[k] = sums.get(k, 0.0) + float(fn(state, seat))
            summary.matches += 1
            summary.total_moves += int(self.moves[i])
            if self.winner[i] >= 0:
                summary.record_win(order, int(self.winner[i]))
            elif self.capped[i]:
                summary.capped += 1
            else:
                summary.draws += 1
        return summary


MAX_BATCH_ROWS = 16384
"""Matches stepped together at most (memory: ≈2 kB per match)."""


def strategies_for(game, players: Sequence) -> list | None:
    """Array strategies for ``players`` on ``game``, or None if the batch must run on
    the reference engine (another game, another rule set than the paper's, a player
    with no array form, or one random player object in both seats, which the
    reference reseeds twice)."""
    if type(game) is not CantStop or game.state_class is not CantStopState or len(players) != 2:
        return None
    if players[0] is players[1] and isinstance(players[0], RandomStrategy):
        return None
    out = [vectorize(p) for p in players]
    return None if any(s is None for s in out) else out


def play_batch(game, players: Sequence, seed: int, start: int, stop: int,
               tail_rows: int = TAIL_ROWS) -> Batch | None:
    """Matches ``start..stop-1`` (seat-alternating) on the array engine, or None if unsupported."""
    strategies = strategies_for(game, players)
    if strategies is None:
        return None
    return Batch(game, players, strategies, [((0, 1), seed, start, stop)], tail_rows).run()


def _same_game_and_features(first: MatchJob, job: MatchJob) -> bool:
    return job.game is first.game and job.behavior is first.behavior


def next_batch(jobs: Sequence[MatchJob], pending: list[int],
               fits: Callable[[MatchJob, MatchJob], bool]
               ) -> tuple[list[int], list[int], list, list]:
    """The jobs of ``pending`` played in one batch with the first of them: those that
    ``fits(first, job)``, up to ``MAX_BATCH_ROWS`` matches. Returns (taken, still
    pending, the distinct players, one group per taken job: (player indexes, seed,
    start, stop, paired))."""
    first = jobs[pending[0]]
    take, rows, rest = [], 0, []
    for k in pending:
        size = jobs[k].size
        if fits(first, jobs[k]) and (not take or rows + size <= MAX_BATCH_ROWS):
            take.append(k)
            rows += size
        else:
            rest.append(k)
    players: list = []
    where: dict[int, int] = {}
    groups = []
    for k in take:
        pair = []
        for player in jobs[k].players:
            if id(player) not in where:
                where[id(player)] = len(players)
                players.append(player)
            pair.append(where[id(player)])
        job = jobs[k]
        groups.append((tuple(pair), job.seed, job.start, job.stop, job.paired))
    return take, rest, players, groups


class ArrayEngine(Engine):
    """Can't Stop's numpy engine: the jobs whose players all have an array form, in
    batches of one game and behaviour features of up to ``MAX_BATCH_ROWS`` matches
    (every pairing of a GP population at once); it declines the others."""

    name = "numpy"

    def play(self, jobs: Sequence[MatchJob]) -> list[MatchSummary | None]:
        out: list[MatchSummary | None] = [None] * len(jobs)
        pending = [k for k, job in enumerate(jobs)
                   if strategies_for(job.game, job.players) is not None]
        while pending:
            first = jobs[pending[0]]
            take, pending, players, groups = next_batch(jobs, pending, _same_game_and_features)
            batch = Batch(first.game, players, [vectorize(p) for p in players], groups).run()
            offset = 0
            for k in take:
                out[k] = batch.summary(offset, offset + jobs[k].size, first.behavior)
                offset += jobs[k].size
        return out


def play_chunks(jobs: Sequence[MatchJob]) -> list[MatchSummary]:
    """Each job's summary, what ``games.match.play_job`` gives it: on the array engine
    where it can, else on the reference engine."""
    return play_in_process(jobs, (ArrayEngine(), StateEngine()))
