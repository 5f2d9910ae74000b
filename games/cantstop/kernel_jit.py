"""Compiled code of the Can't Stop kernel (numba): whole matches, one after another.

Why compiled: the numpy engine (``fast.py``) still pays a fixed cost per array
operation and per match; here a match is a loop over plain integers, so a
decision costs tens of nanoseconds. Everything is a transcription of the
reference engine (``rules.py``, and ``reference_rules.py`` for ``rules=reference``),
the built-in players (``players.py``), the random player
(``games.api.RandomStrategy``) and the sketch of the sketch-learning paper
(``gp.languages.cantstop.SketchStrategy``):

* dice and the random players' numbers come from CPython's Mersenne Twister,
  re-implemented bit for bit (``random.Random(seed)`` seeding by
  ``init_by_array`` over the seed's 32-bit words, ``random()`` from two
  outputs), so match ``k`` sees exactly the numbers ``random.Random`` gives;
* legal moves are listed in ``CantStopState._column_moves`` order and every
  player takes the first maximum on ties; under the reference rules in the
  iteration order of the Python ``set`` that ``ReferenceCantStopState._column_moves``
  builds, which ``set_order`` reproduces (CPython's ``setobject.c`` insertion,
  probing and resizing over the ``hash()`` of each move tuple, taken at import
  from the running interpreter);
* programs run on a small interpreter over a flattened tree (``code`` rows,
  see ``gp.languages.cantstop_kernel``) with int64 values, which the flattener
  admits only when no value can pass 2**62.

This module imports numba; ``games.cantstop.kernel`` imports it lazily.
Opcodes and the state layout are defined here so that numba's on-disk cache
(``cache=True``, keyed by this file) is invalidated whenever they change. The
tables taken from ``rules.py`` and ``players.py`` (heights, pairings, GA's
constants) are frozen into the cached code too: after changing those, delete the
cache (``__pycache__/kernel_jit*.nbi``/``.nbc``) or touch this file. So is the
table of the move tuples' ``hash()`` (``_KEY_HASH``); numba keeps one cache per
Python version, and tuples of ints hash the same in every process of one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .players import GLENN_ALOI
from .rules import HEIGHTS, OUTER, PAIRINGS, ROLLS

# ---- the state of one match: one int64 vector ------------------------------------------
NE = 0          # neutral[c], 13
CL = 13         # claimed[c] (-1 none), 13
MK = 26         # markers[seat][c] at MK + 13 * seat + c, 26
NC = 52         # neutral columns in the order placed, 3
NN = 55         # number of neutral columns
CNT = 56        # per-seat counters at CNT + COUNTERS * seat + k, 14
P = 70          # player to act
MV = 71         # moves (decisions) made
ROLL = 72       # index of the dice in rules.ROLLS
PHASE = 73      # 0 column move, 1 roll or stop
WON = 74        # winner seat, -1 none
CAPPED = 75     # 1 if the move cap ended the match
LAST = 76       # last player (CantStopState.last_player)
LA0 = 77        # first column of each legal move slot, 6
LA1 = 83        # second column (0 for a move of one column), 6
NL = 89         # number of legal moves
# the reference rules' turn state (ReferenceCantStopState); stays 0 under the paper rules
NCOUNT = 90     # neutral_count (D2 can push it past the neutrals on the board, to 4)
NW = 91         # number of columns claimed this turn (won_now)
WL = 92         # won_now in order, 11
WF = 103        # won_now[c] as a flag per column, 13
STATE_SIZE = 116

PAPER, REFERENCE = 0, 1  # rule sets (``rules`` argument of ``play_matches``)

CLAIMS, TURNS, BUSTS, STOPS, BANKED, ADVANCES, OUTERS = range(7)
COUNTERS = 7
MAX_LEGAL = 6

# ---- strategies -------------------------------------------------------------------------
HEURISTIC, RANDOM, PROGRAM = 0, 1, 2
# heuristic parameters, one row per strategy: progress value, move value (by column
# number), then the scalar constants
PV_AT, MV_AT = 0, 13
ODDS, EVENS, HIGHS, LOWS, MARKER, THRESHOLD = 26, 27, 28, 29, 30, 31
PARAMS_SIZE = 32

# ---- the program machine -----------------------------------------------------------------
# A program is rows of ``code``: (opcode, argument). Values live on a stack; ``map``
# and ``argmax`` are loops whose state (index, sum or best, the shadowed variable)
# lives on a frame stack, and bind the column ``c`` or the action slot ``a``.
OP_CONST = 0              # push the argument
OP_ADD, OP_SUB, OP_MUL = 1, 2, 3   # pop y, pop x, push x op y
OP_JUMP_UNLESS_LESS = 4   # pop y, pop x; unless x < y go to the argument
OP_SUM_NEUTRALS = 5       # push the sum of the neutral columns' numbers
OP_SUM_COLUMNS = 6        # push the sum of the action's columns (a double counts twice)
OP_MAP_NEUTRALS = 7       # sum the body over the neutral columns c (argument: the row
OP_MAP_COLUMNS = 8        # after the loop's LOOP_NEXT) / over the action's columns c
OP_ADVANCED = 9           # leaves: push their value for c or a
OP_SECURED = 10
OP_OPPONENT_SECURED = 11
OP_IS_NEW_NEUTRAL = 12
OP_PROGRESS_VALUE = 13
OP_MOVE_VALUE = 14
OP_ADVANCE_OF = 15
OP_DIFFICULTY = 16
OP_ARGMAX = 17            # the first legal move slot a of largest body (argument: as MAP)
OP_LOOP_NEXT = 18         # pop the body's value into the sum; loop (argument: the body) or
OP_ARG_NEXT = 19          # push the sum / keep the first largest; loop or push the best slot
OP_JUMP = 20
OP_RETURN = 21            # the value on top of the stack is the program's
OP_IF = 22                # a node of the flattener's tree only (compiled to jumps)
OP_REFERENCE_SECURED = 23           # ``secured``/``opponent_secured`` as the reference
OP_REFERENCE_OPPONENT_SECURED = 24  # code reads them (reference_rules.positions_*)
CODE_WIDTH = 2
JUMPS = (OP_JUMP_UNLESS_LESS, OP_JUMP, OP_MAP_NEUTRALS, OP_MAP_COLUMNS, OP_ARGMAX, OP_LOOP_NEXT,
         OP_ARG_NEXT)
"""Opcodes whose argument is a row of the code."""
FRAME_WIDTH = 5           # loop kind (0 neutrals, 1 columns), index, sum or best slot,
                          # best value, the shadowed variable

SKETCH_THRESHOLD = GLENN_ALOI.threshold
_H = np.array(HEIGHTS, dtype=np.int64)
_OUTER = np.array(OUTER, dtype=np.int64)
_GA_PV = np.array((0, 0) + GLENN_ALOI.progress_value, dtype=np.int64)
_GA_MV = np.array((0, 0) + GLENN_ALOI.move_value, dtype=np.int64)
_GA_DIFFICULTY = np.array([GLENN_ALOI.odds, GLENN_ALOI.evens, GLENN_ALOI.highs,
                           GLENN_ALOI.lows], dtype=np.int64)
_PAIR_A = np.zeros((1296, 3), dtype=np.int64)
_PAIR_B = np.zeros((1296, 3), dtype=np.int64)
_PAIR_COUNT = np.zeros(1296, dtype=np.int64)
for _r, _pairs in enumerate(PAIRINGS):
    _PAIR_COUNT[_r] = len(_pairs)
    for _j, (_a, _b) in enumerate(_pairs):
        _PAIR_A[_r, _j], _PAIR_B[_r, _j] = _a, _b
# the reference rules' three pairings, unsorted, in its order: (d0+d1, d2+d3),
# (d0+d2, d1+d3), (d0+d3, d1+d2)
_RAW_A = np.zeros((1296, 3), dtype=np.int64)
_RAW_B = np.zeros((1296, 3), dtype=np.int64)
for _r, (_d0, _d1, _d2, _d3) in enumerate(ROLLS):
    for _j, (_a, _b) in enumerate(((_d0 + _d1, _d2 + _d3), (_d0 + _d2, _d1 + _d3),
                                   (_d0 + _d3, _d1 + _d2))):
        _RAW_A[_r, _j], _RAW_B[_r, _j] = _a, _b

# ---- CPython's set of move tuples (Objects/setobject.c) -------------------------------------
KEYS = 13 * 13
"""A move tuple as a key index: ``a * 13 + b`` for ``(a, b)`` (a <= b), ``a * 13`` for ``(a,)``."""


def key_tuple(key: int) -> tuple[int, ...]:
    """The move tuple of a key index."""
    a, b = divmod(key, 13)
    return (a, b) if b else (a,)


def _key_hashes() -> np.ndarray:
    """``hash()`` of every move tuple, by key index (0 for indexes that are no move).
    Tuples of ints hash the same in every process (no hash randomisation)."""
    out = np.zeros(KEYS, dtype=np.int64)
    for a in range(2, 13):
        out[a * 13] = hash((a,))
        for b in range(a, 13):
            out[a * 13 + b] = hash((a, b))
    return out


_KEY_HASH = _key_hashes()
LINEAR_PROBES = 9
PERTURB_SHIFT = 5
SET_MINSIZE = 8
SET_TABLE = 32   # table slots a set of at most 6 moves needs (one resize: 8 -> 32)
# scratch of the reference rules' legal moves (``play_matches`` allocates it once)
SET_KEYS, SET_SLOTS, SET_OLD, SET_OUT = 0, 8, 8 + SET_TABLE, 16 + SET_TABLE
SCRATCH_SIZE = 24 + SET_TABLE


@njit(cache=True)
def _set_slot(table, mask, h, entry):
    """``set_add_entry``'s search (no deleted entries): the slot holding ``entry`` or
    the first empty slot of the probe sequence of hash ``h`` (table entries are key
    index + 1, 0 empty; ``size_t`` arithmetic done in int64: ``h & mask`` is the
    same in two's complement, and the first shift of ``perturb`` is made logical)."""
    i = h & mask
    perturb = h
    while True:
        last = i + LINEAR_PROBES if i + LINEAR_PROBES <= mask else i
        for j in range(i, last + 1):
            e = table[j]
            if e == 0 or e == entry:
                return j
        perturb = (perturb >> PERTURB_SHIFT) & 0x07FFFFFFFFFFFFFF
        i = (i * 5 + 1 + perturb) & mask


@njit(cache=True)
def set_order(keys, n, table, old, out):
    """The iteration order of ``{key_tuple(k) for k in keys[:n]}`` in CPython: the
    distinct keys into ``out`` in that order; returns how many.

    ``setobject.c`` (3.11): an empty set has 8 slots (mask 7); ``set_add_entry``
    probes slot ``i = hash & mask`` and, when ``i + LINEAR_PROBES <= mask``, the
    next 9 slots, then ``perturb >>= 5; i = (i * 5 + 1 + perturb) & mask``; a new
    key with ``fill * 5 >= mask * 3`` resizes the table to the smallest power of two
    above ``used * 4`` and re-inserts the old slots in table order
    (``set_insert_clean``, the same probe sequence); iteration is in slot order.
    ``table`` needs the final table's size, ``old`` the entries at a resize."""
    mask = SET_MINSIZE - 1
    for s in range(SET_MINSIZE):
        table[s] = 0
    fill = 0
    for k in range(n):
        entry = keys[k] + 1
        slot = _set_slot(table, mask, _KEY_HASH[entry - 1], entry)
        if table[slot] != 0:
            continue  # already in the set
        table[slot] = entry
        fill += 1
        if fill * 5 >= mask * 3:
            size = SET_MINSIZE
            while size <= fill * 4:  # used * 4 (used * 2 only past 50,000 entries)
                size <<= 1
            m = 0
            for s in range(mask + 1):
                if table[s] != 0:
                    old[m] = table[s]
                    m += 1
            mask = size - 1
            for s in range(size):
                table[s] = 0
            for t in range(m):
                e = old[t]
                table[_set_slot(table, mask, _KEY_HASH[e - 1], e)] = e
    count = 0
    for s in range(mask + 1):
        if table[s] != 0:
            out[count] = table[s] - 1
            count += 1
    return count

# ---- CPython's Mersenne Twister (Modules/_randommodule.c) ---------------------------------
MT_N, MT_M = 624, 397
MT_STATE = MT_N + 1  # the last entry is the index of the next output
_MASK32 = 0xFFFFFFFF


def _genrand_init() -> np.ndarray:
    """``init_genrand(19650218)``, the first step of every seeding (the same for all seeds)."""
    mt = np.zeros(MT_N, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, MT_N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32
    return mt


_GENRAND_INIT = _genrand_init()
SEED_LANES = 8
"""Generators seeded side by side: seeding is a chain of dependent multiplications,
so several independent chains keep the processor busy (about 3x faster than one)."""


@njit(cache=True)
def mt_seed_lanes(lanes, lo, hi, count):
    """``random.Random(seed)`` for ``seed = lo[m] + hi[m] * 2**32``, m < ``count``, into
    ``lanes[:, m]`` (``init_by_array`` over the seed's 32-bit words, one word when
    ``hi`` is 0; ``lanes[MT_N, m]`` is the index of the next output)."""
    for m in range(count):
        for i in range(MT_N):
            lanes[i, m] = _GENRAND_INIT[i]
    i = 1
    for t in range(MT_N):  # max(MT_N, key length) steps over the key words
        for m in range(count):
            prev = lanes[i - 1, m]
            odd = (t & 1) if hi[m] else 0
            key = hi[m] if odd else lo[m]
            lanes[i, m] = ((lanes[i, m] ^ ((prev ^ (prev >> 30)) * 1664525)) + key + odd) \
                & _MASK32
        i += 1
        if i >= MT_N:
            for m in range(count):
                lanes[0, m] = lanes[MT_N - 1, m]
            i = 1
    for _ in range(MT_N - 1):
        for m in range(count):
            prev = lanes[i - 1, m]
            lanes[i, m] = ((lanes[i, m] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK32
        i += 1
        if i >= MT_N:
            for m in range(count):
                lanes[0, m] = lanes[MT_N - 1, m]
            i = 1
    for m in range(count):
        lanes[0, m] = 0x80000000
        lanes[MT_N, m] = MT_N


@njit(cache=True)
def mt_seed(mt, r, lo, hi):
    """``random.Random(lo + hi * 2**32)`` into generator row ``r`` of ``mt``."""
    lanes = np.empty((MT_STATE, 1), dtype=np.int64)
    mt_seed_lanes(lanes, np.array([lo]), np.array([hi]), 1)
    for i in range(MT_STATE):
        mt[r, i] = lanes[i, 0]


@njit(cache=True)
def _twist(mt, r):
    for k in range(MT_N - MT_M):
        y = (mt[r, k] & 0x80000000) | (mt[r, k + 1] & 0x7FFFFFFF)
        mt[r, k] = mt[r, k + MT_M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    for k in range(MT_N - MT_M, MT_N - 1):
        y = (mt[r, k] & 0x80000000) | (mt[r, k + 1] & 0x7FFFFFFF)
        mt[r, k] = mt[r, k + MT_M - MT_N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    y = (mt[r, MT_N - 1] & 0x80000000) | (mt[r, 0] & 0x7FFFFFFF)
    mt[r, MT_N - 1] = mt[r, MT_M - 1] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[r, MT_N] = 0


@njit(cache=True, inline="always")
def _mt_next(mt, r):
    """The next 32-bit output of generator row ``r``."""
    if mt[r, MT_N] >= MT_N:
        _twist(mt, r)
    y = mt[r, mt[r, MT_N]]
    mt[r, MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit(cache=True, inline="always")
def mt_random(mt, r):
    """``random.Random.random()`` of generator row ``r``: 53 bits from two outputs."""
    a = _mt_next(mt, r) >> 5
    b = _mt_next(mt, r) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


# ---- rules ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _legal_moves(st, r):
    """``CantStopState._column_moves`` for roll ``r``: slots in the reference's order."""
    free = 3 - st[NN]
    count = 0
    for j in range(_PAIR_COUNT[r]):
        a = _PAIR_A[r, j]
        b = _PAIR_B[r, j]
        na = st[NE + a]
        nb = st[NE + b]
        ok_a = st[CL + a] < 0 and na < _H[a] and (na > 0 or free > 0)
        ok_b = st[CL + b] < 0 and nb < _H[b] and (nb > 0 or free > 0)
        if ok_a and ok_b:
            need = (1 if na == 0 else 0) + (1 if nb == 0 and a != b else 0)
            if need <= free:
                count = _offer(st, count, a, b)
                continue
        if ok_a:
            count = _offer(st, count, a, 0)
        if ok_b:
            count = _offer(st, count, b, 0)
    st[NL] = count
    return count


@njit(cache=True, inline="always")
def _reference_legal_moves(st, r, scratch):
    """``ReferenceCantStopState._column_moves`` for roll ``r``: the reference's move
    tuples from its three pairings, in the iteration order of the set it builds (D3)."""
    n = st[NCOUNT]
    keys = scratch[SET_KEYS:SET_KEYS + 6]
    nk = 0
    for j in range(3):
        a = _RAW_A[r, j]
        b = _RAW_B[r, j]
        open_a = st[CL + a] < 0 and st[WF + a] == 0
        open_b = st[CL + b] < 0 and st[WF + b] == 0
        has_a = st[NE + a] > 0
        has_b = st[NE + b] > 0
        first = open_a and (n < 3 or has_a)
        second = open_b and (n < 3 or has_b)
        if open_a and open_b and (n < 2 or (n == 2 and (has_a or has_b or a == b))
                                  or (n > 2 and has_a and has_b)):
            keys[nk] = a * 13 + b if a <= b else b * 13 + a
            nk += 1
        elif first and second:
            keys[nk] = a * 13
            keys[nk + 1] = b * 13
            nk += 2
        if first and not second:
            keys[nk] = a * 13
            nk += 1
        if second and not first:
            keys[nk] = b * 13
            nk += 1
    out = scratch[SET_OUT:SET_OUT + 6]
    count = set_order(keys, nk, scratch[SET_SLOTS:SET_SLOTS + SET_TABLE],
                      scratch[SET_OLD:SET_OLD + 8], out)
    touched = False
    for k in range(count):
        a = out[k] // 13
        b = out[k] % 13
        st[LA0 + k] = a
        st[LA1 + k] = b
        if st[NE + a] > 0 or (b != 0 and st[NE + b] > 0):
            touched = True
    if n >= 3 and not touched:
        count = 0  # the reference's second bust test
    st[NL] = count
    return count


@njit(cache=True, inline="always")
def _offer(st, count, a, b):
    for k in range(count):
        if st[LA0 + k] == a and st[LA1 + k] == b:
            return count
    st[LA0 + count] = a
    st[LA1 + count] = b
    return count + 1


@njit(cache=True, inline="always")
def _clear_turn(st):
    for k in range(st[NN]):
        st[NE + st[NC + k]] = 0
        st[NC + k] = 0
    st[NN] = 0
    for k in range(st[NW]):  # the reference rules' turn state (0 under the paper's)
        st[WF + st[WL + k]] = 0
        st[WL + k] = 0
    st[NW] = 0
    st[NCOUNT] = 0


@njit(cache=True, inline="always")
def _end_turn(st):
    _clear_turn(st)
    p = 1 - st[P]
    st[P] = p
    st[CNT + COUNTERS * p + TURNS] += 1


@njit(cache=True, inline="always")
def _roll(st, streams, reference, scratch):
    """Roll until the player to act has a legal column move (busts pass the turn)."""
    while True:
        r = np.int64(mt_random(streams, 0) * 1296.0)
        st[ROLL] = r
        if reference:
            count = _reference_legal_moves(st, r, scratch)
        else:
            count = _legal_moves(st, r)
        if count:
            st[PHASE] = 0
            return
        st[CNT + COUNTERS * st[P] + BUSTS] += 1
        _end_turn(st)


@njit(cache=True, inline="always")
def _advance(st, slot):
    p = st[P]
    a = st[LA0 + slot]
    b = st[LA1 + slot]
    at = CNT + COUNTERS * p
    st[at + ADVANCES] += 2 if b else 1
    st[at + OUTERS] += _OUTER[a] + (_OUTER[b] if b else 0)
    for k in range(2 if b else 1):
        c = a if k == 0 else b
        h = st[NE + c]
        if h == 0:
            h = st[MK + 13 * p + c]
            st[NC + st[NN]] = c
            st[NN] += 1
        if h < _H[c]:
            st[NE + c] = h + 1
    st[PHASE] = 1


@njit(cache=True, inline="always")
def _claim_this_turn(st, c):
    """``won_now.append(c)`` unless it is there."""
    if st[WF + c] == 0:
        st[WF + c] = 1
        st[WL + st[NW]] = c
        st[NW] += 1


@njit(cache=True, inline="always")
def _reference_advance(st, slot):
    """``ReferenceCantStopState._advance``: D1 (a step past the top cell claims, the
    neutral stored at height + 1), D2 (own marker on the top cell: counted and
    claimed, no neutral), a neutral that moves goes last; no outer-column count."""
    p = st[P]
    a = st[LA0 + slot]
    b = st[LA1 + slot]
    st[CNT + COUNTERS * p + ADVANCES] += 2 if b else 1
    for k in range(2 if b else 1):
        c = a if k == 0 else b
        h = st[NE + c]
        top = _H[c]
        if h == 0:
            st[NCOUNT] += 1
            own = st[MK + 13 * p + c]
            if own == top:  # D2 (the reference's bug)
                _claim_this_turn(st, c)
            else:
                st[NE + c] = own + 1
                st[NC + st[NN]] = c
                st[NN] += 1
        elif h >= top:  # D1
            _claim_this_turn(st, c)
            st[NE + c] = top + 1
        else:
            st[NE + c] = h + 1
            nn = st[NN]
            moving = False
            for j in range(nn - 1):
                if st[NC + j] == c:
                    moving = True
                if moving:
                    st[NC + j] = st[NC + j + 1]
            st[NC + nn - 1] = c
    st[PHASE] = 1


@njit(cache=True, inline="always")
def _reference_stop(st):
    """``ReferenceCantStopState._stop``: bank the neutrals (a step past the top banks
    the top cell), claim the turn's columns; True if the player wins."""
    p = st[P]
    at = CNT + COUNTERS * p
    st[at + STOPS] += 1
    for k in range(st[NN]):
        c = st[NC + k]
        h = min(st[NE + c], _H[c])
        st[at + BANKED] += h - st[MK + 13 * p + c]
        st[MK + 13 * p + c] = h
    for k in range(st[NW]):
        _claim(st, p, st[WL + k])
    return _win_or_pass(st, p)


@njit(cache=True, inline="always")
def _claim(st, p, c):
    """Column ``c`` becomes player ``p``'s: both markers leave it."""
    st[CL + c] = p
    st[CNT + COUNTERS * p + CLAIMS] += 1
    st[MK + c] = 0
    st[MK + 13 + c] = 0


@njit(cache=True, inline="always")
def _win_or_pass(st, p):
    """After a stop: three claimed columns win (True), else the turn passes."""
    if st[CNT + COUNTERS * p + CLAIMS] >= 3:
        _clear_turn(st)
        st[WON] = p
        st[LAST] = p
        return True
    _end_turn(st)
    return False


@njit(cache=True, inline="always")
def _stop(st):
    """Bank the neutral markers; True if the player wins, else the turn passes."""
    p = st[P]
    at = CNT + COUNTERS * p
    st[at + STOPS] += 1
    for k in range(st[NN]):
        c = st[NC + k]
        h = st[NE + c]
        st[at + BANKED] += h - st[MK + 13 * p + c]
        if h == _H[c]:
            _claim(st, p, c)
        else:
            st[MK + 13 * p + c] = h
    return _win_or_pass(st, p)


# ---- what players read ------------------------------------------------------------------
@njit(cache=True, inline="always")
def _stopping_wins(st, reference):
    p = st[P]
    if reference:  # D4: exactly three claimed columns
        return st[CNT + COUNTERS * p + CLAIMS] + st[NW] == 3
    topped = 0
    for k in range(st[NN]):
        c = st[NC + k]
        if st[NE + c] == _H[c]:
            topped += 1
    return st[CNT + COUNTERS * p + CLAIMS] + topped >= 3


@njit(cache=True, inline="always")
def _can_place_new_neutral(st, reference):
    """Fewer than three neutrals (the reference rules: ``neutral_count != 3``) and an
    unclaimed column without one. Neutral markers stand only in unclaimed columns,
    so the latter is: fewer neutral columns than unclaimed columns (11 minus both
    players' claims)."""
    nn = st[NN]
    free = nn < 11 - st[CNT + CLAIMS] - st[CNT + COUNTERS + CLAIMS]
    if reference:
        return st[NCOUNT] != 3 and free
    return nn < 3 and free


@njit(cache=True, inline="always")
def _difficulty(st, odds, evens, highs, lows):
    """``players.difficulty_score``: bonuses for all odd / even / low / high neutrals."""
    all_odd = all_even = all_low = all_high = True
    for k in range(st[NN]):
        c = st[NC + k]
        if c & 1:
            all_even = False
        else:
            all_odd = False
        if c > 7:
            all_low = False
        if c < 7:
            all_high = False
    score = 0
    if all_odd:
        score += odds
    if all_even:
        score += evens
    if all_low:
        score += lows
    if all_high:
        score += highs
    return score


# ---- the built-in players ---------------------------------------------------------------
@njit(cache=True, inline="always")
def _heuristic_columns(st, params, row):
    """``HeuristicPlayer.choose_columns``: the first move of largest value."""
    n = st[NL]
    if n == 1:
        return 0
    best, best_value = 0, 0
    for k in range(n):
        a = st[LA0 + k]
        b = st[LA1 + k]
        advance = 2 if a == b else 1
        marker = params[row, MARKER]
        value = advance * params[row, MV_AT + a] - (marker if st[NE + a] == 0 else 0)
        if b:
            value += advance * params[row, MV_AT + b] - (marker if st[NE + b] == 0 else 0)
        if k == 0 or value > best_value:
            best, best_value = k, value
    return best


@njit(cache=True, inline="always")
def _heuristic_stops(st, params, row, reference):
    """``HeuristicPlayer.roll_or_stop`` (True = stop)."""
    if _stopping_wins(st, reference):
        return True
    if _can_place_new_neutral(st, reference):
        return False
    p = st[P]
    score = _difficulty(st, params[row, ODDS], params[row, EVENS], params[row, HIGHS],
                        params[row, LOWS])
    for k in range(st[NN]):
        c = st[NC + k]
        score += (st[NE + c] - st[MK + 13 * p + c] + 1) * params[row, PV_AT + c]
    return score >= params[row, THRESHOLD]


# ---- the program interpreter ------------------------------------------------------------
@njit(cache=True)
def run_program(code, pc, st, stack, frames):
    """The value of the code starting at row ``pc`` (a program's hole) in state ``st``."""
    sp = 0
    fp = 0
    c = 0
    a = 0
    while True:
        op = code[pc, 0]
        arg = code[pc, 1]
        pc += 1
        if op == OP_CONST:
            stack[sp] = arg
            sp += 1
        elif op == OP_ADD:
            sp -= 1
            stack[sp - 1] += stack[sp]
        elif op == OP_SUB:
            sp -= 1
            stack[sp - 1] -= stack[sp]
        elif op == OP_MUL:
            sp -= 1
            stack[sp - 1] *= stack[sp]
        elif op == OP_JUMP_UNLESS_LESS:
            sp -= 2
            if not stack[sp] < stack[sp + 1]:
                pc = arg
        elif op == OP_JUMP:
            pc = arg
        elif op == OP_ADVANCED:  # advanced_this_turn (WF: the reference rules' D2)
            h = st[NE + c]
            if h:
                stack[sp] = h - st[MK + 13 * st[P] + c]
            elif st[WF + c]:
                stack[sp] = _H[c] - st[MK + 13 * st[P] + c] + 1
            else:
                stack[sp] = 0
            sp += 1
        elif op == OP_SECURED:
            stack[sp] = st[MK + 13 * st[P] + c]
            sp += 1
        elif op == OP_OPPONENT_SECURED:
            stack[sp] = st[MK + 13 * (1 - st[P]) + c]
            sp += 1
        elif op == OP_REFERENCE_SECURED:
            owner = st[CL + c]
            if owner >= 0:
                stack[sp] = _H[c] + 1 if owner == st[P] else 0
            elif st[NE + c]:
                stack[sp] = st[NE + c]
            elif st[MK + 13 * st[P] + c] and st[WF + c]:  # D2: claimed this turn
                stack[sp] = _H[c] + 1
            else:
                stack[sp] = st[MK + 13 * st[P] + c]
            sp += 1
        elif op == OP_REFERENCE_OPPONENT_SECURED:
            owner = st[CL + c]
            if owner >= 0:
                stack[sp] = _H[c] + 1 if owner == 1 - st[P] else 0
            else:
                stack[sp] = st[MK + 13 * (1 - st[P]) + c]
            sp += 1
        elif op == OP_IS_NEW_NEUTRAL:
            stack[sp] = 1 if st[NE + c] == 0 else 0
            sp += 1
        elif op == OP_PROGRESS_VALUE:
            stack[sp] = _GA_PV[c]
            sp += 1
        elif op == OP_MOVE_VALUE:
            stack[sp] = _GA_MV[c]
            sp += 1
        elif op == OP_ADVANCE_OF:
            stack[sp] = 2 if st[LA0 + a] == st[LA1 + a] else 1
            sp += 1
        elif op == OP_DIFFICULTY:
            stack[sp] = _difficulty(st, _GA_DIFFICULTY[0], _GA_DIFFICULTY[1],
                                    _GA_DIFFICULTY[2], _GA_DIFFICULTY[3])
            sp += 1
        elif op == OP_SUM_NEUTRALS:
            total = 0
            for j in range(st[NN]):
                total += st[NC + j]
            stack[sp] = total
            sp += 1
        elif op == OP_SUM_COLUMNS:
            stack[sp] = st[LA0 + a] + st[LA1 + a]
            sp += 1
        elif op == OP_MAP_NEUTRALS:
            if st[NN] == 0:
                stack[sp] = 0
                sp += 1
                pc = arg
            else:
                frames[fp, 0] = 0
                frames[fp, 1] = 0
                frames[fp, 2] = 0
                frames[fp, 4] = c
                fp += 1
                c = st[NC]
        elif op == OP_MAP_COLUMNS:
            frames[fp, 0] = 1
            frames[fp, 1] = 0
            frames[fp, 2] = 0
            frames[fp, 4] = c
            fp += 1
            c = st[LA0 + a]
        elif op == OP_LOOP_NEXT:
            sp -= 1
            f = fp - 1
            frames[f, 2] += stack[sp]
            i = frames[f, 1] + 1
            if frames[f, 0] == 0:
                more = i < st[NN]
                if more:
                    c = st[NC + i]
            else:
                more = i == 1 and st[LA1 + a] != 0
                if more:
                    c = st[LA1 + a]
            if more:
                frames[f, 1] = i
                pc = arg
            else:
                c = frames[f, 4]
                stack[sp] = frames[f, 2]
                sp += 1
                fp -= 1
        elif op == OP_ARGMAX:
            if st[NL] == 1:
                stack[sp] = 0
                sp += 1
                pc = arg
            else:
                frames[fp, 1] = 0
                frames[fp, 2] = 0
                frames[fp, 4] = a
                fp += 1
                a = 0
        elif op == OP_ARG_NEXT:
            sp -= 1
            f = fp - 1
            value = stack[sp]
            i = frames[f, 1]
            if i == 0 or value > frames[f, 3]:
                frames[f, 2] = i
                frames[f, 3] = value
            i += 1
            if i < st[NL]:
                frames[f, 1] = i
                a = i
                pc = arg
            else:
                a = frames[f, 4]
                stack[sp] = frames[f, 2]
                sp += 1
                fp -= 1
        elif op == OP_RETURN:
            return stack[sp - 1]
        else:
            raise ValueError("unknown opcode")


@njit(cache=True, inline="always")
def _program_stops(st, code, score, stack, frames, reference):
    """``SketchStrategy`` at a roll-or-stop choice (True = stop)."""
    if _stopping_wins(st, reference):
        return True
    if _can_place_new_neutral(st, reference):
        return False
    return run_program(code, score, st, stack, frames) >= SKETCH_THRESHOLD


# ---- whole matches ----------------------------------------------------------------------
@njit(cache=True, inline="always")
def _decide(st, kind, k, streams, stream, params, roots, code, stack, frames, columns,
            reference):
    """The slot (``columns``) or 1 to stop / 0 to roll of strategy ``k``."""
    if kind == HEURISTIC:
        if columns:
            return _heuristic_columns(st, params, k)
        return 1 if _heuristic_stops(st, params, k, reference) else 0
    if kind == RANDOM:
        return np.int64(mt_random(streams, stream) * (st[NL] if columns else 2))
    if columns:
        return run_program(code, roots[k, 1], st, stack, frames)
    return 1 if _program_stops(st, code, roots[k, 0], stack, frames, reference) else 0


@njit(cache=True)
def play_match(st, streams, seat_strategy, kinds, params, roots, code, stack, frames, max_moves,
               own_streams, rules, scratch):
    """One match from the first roll to its end, as ``games.match.play_match``.

    ``streams[0]`` holds the dice, ``streams[1 + seat]`` a random seat's numbers
    (``own_streams`` False: both seats draw from ``streams[1]``); ``rules``
    ``PAPER`` (``CantStopState``) or ``REFERENCE`` (``ReferenceCantStopState``)."""
    reference = rules == REFERENCE
    st[:] = 0
    for c in range(13):
        st[CL + c] = -1
    st[WON] = -1
    st[CNT + TURNS] = 1
    _roll(st, streams, reference, scratch)
    while True:
        p = st[P]
        k = seat_strategy[p]
        stream = 1 + p if own_streams else 1
        slot = _decide(st, kinds[k], k, streams, stream, params, roots, code, stack, frames,
                       True, reference)
        if reference:
            _reference_advance(st, slot)
        else:
            _advance(st, slot)
        st[MV] += 1
        if st[MV] >= max_moves:
            st[LAST] = p
            st[CAPPED] = 1
            return
        stop = _decide(st, kinds[k], k, streams, stream, params, roots, code, stack, frames,
                       False, reference)
        st[MV] += 1
        if stop:
            if _reference_stop(st) if reference else _stop(st):
                return
        _roll(st, streams, reference, scratch)
        if st[MV] >= max_moves:
            st[LAST] = st[P]
            st[CAPPED] = 1
            return


@njit(cache=True)
def play_matches(seed_words, seat_strategy, kinds, params, roots, code, max_moves, rules, out):
    """Matches ``i`` of a batch into ``out[i]`` (their final state vectors), under
    ``rules`` (``PAPER`` or ``REFERENCE``).

    ``seed_words[i]``: (lo, hi) 32-bit words of the chance seed and the two seat
    seeds (``games.match.match_seeds``); ``seat_strategy[i]``: the strategy of each
    seat. A random strategy in both seats is one player object reseeded twice by
    ``play_match``: it draws from one stream seeded with seat 1's seed."""
    streams = np.zeros((3, MT_STATE), dtype=np.int64)
    stack = np.zeros(code.shape[0] + 1, dtype=np.int64)  # each row pushes at most one value
    frames = np.zeros((code.shape[0] + 1, FRAME_WIDTH), dtype=np.int64)
    lanes = np.zeros((3, MT_STATE, SEED_LANES), dtype=np.int64)  # dice, seat 0, seat 1
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    n = out.shape[0]
    for first in range(0, n, SEED_LANES):
        count = min(SEED_LANES, n - first)
        randoms = False
        for i in range(first, first + count):
            for seat in range(2):
                randoms = randoms or kinds[seat_strategy[i, seat]] == RANDOM
        for g in range(3 if randoms else 1):
            mt_seed_lanes(lanes[g], seed_words[first:first + count, g, 0].copy(),
                          seed_words[first:first + count, g, 1].copy(), count)
        for i in range(first, first + count):
            m = i - first
            s0 = seat_strategy[i, 0]
            s1 = seat_strategy[i, 1]
            own = not (s0 == s1 and kinds[s0] == RANDOM)
            for j in range(MT_STATE):
                streams[0, j] = lanes[0, j, m]
            if not own:  # one object reseeded twice: seat 1's seed
                for j in range(MT_STATE):
                    streams[1, j] = lanes[2, j, m]
            else:
                for seat in range(2):
                    if kinds[seat_strategy[i, seat]] == RANDOM:
                        for j in range(MT_STATE):
                            streams[1 + seat, j] = lanes[1 + seat, j, m]
            play_match(out[i], streams, seat_strategy[i], kinds, params, roots, code, stack,
                       frames, max_moves, own, rules, scratch)
