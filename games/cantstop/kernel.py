"""The fastest exact Can't Stop engine: whole matches in compiled code (numba).

Why: the numpy engine (``fast.py``) steps 1,000 matches at once but still pays a
fixed cost per array operation, per step and per match (docs/fast-evaluation.md).
Here each match is played from its first roll to its end in compiled code
(``kernel_jit``), one match after another, so a decision costs tens of
nanoseconds. The results are the reference engine's, match by match: the same
dice (CPython's Mersenne Twister re-implemented bit for bit, seeded per match as
``games.match.play_match`` seeds it), the same legal-move order, the same
decision of every player and the same final state and per-seat counters
(``tests/test_cantstop_kernel.py``; ``tests/test_cantstop_kernel_reference.py``
for the reference rules).

What the kernel runs: both rule sets of ``CantStop``, the paper's
(``CantStopState``) and the sketch-learning paper's reference code's (``rules=reference``,
``ReferenceCantStopState``, its D1-D4 included), the heuristic players (GA, Rule
of 28, any ``HeuristicParams``), the uniform random player, and program players
that give a lowering for ``LOWERING`` (the sketch languages of
``gp.languages.cantstop`` do). ``KernelEngine`` declines anything else (another
state class, another player, a program with too large values, numba not
installed); with ``engine="fast"`` that goes to the numpy engine, which itself
declines what it cannot run (the reference rules among them) to the reference
engine (``games.engines``). ``engine="numpy"`` skips the kernel.
"""

from __future__ import annotations

import logging
import random
import sys
from collections.abc import Callable, Sequence

import numpy as np

from ..api import RandomStrategy
from ..engines import Engine, StateEngine, lowering, play_in_process
from ..match import MatchJob, MatchSummary
from . import fast
from .features import bust_rate, markers_per_stop, outer_preference, turns
from .players import HeuristicPlayer, glenn_aloi_player
from .reference_rules import ReferenceCantStopState
from .rules import PHASE_COLUMN, PHASE_ROLL_OR_STOP, ROLLS, CantStop, CantStopState

log = logging.getLogger("stratsynth.cantstop.kernel")

LOWERING = "cantstop.kernel"
"""The key under which a program player declares its kernel form: function(player)
-> ``(code, score_root, column_root)`` (``code`` int64 rows of ``kernel_jit``'s
program machine), or None if the kernel cannot run this program (then its jobs go
to the next engine)."""

PARAMETER_LIMIT = 1 << 40
"""Heuristic players' constants must stay below this for int64 scores to be exact
(a score adds up to 3 x 14 progress terms and 4 bonuses)."""

COMPILING = "compiling the Can't Stop kernel (once, about a minute)…"
"""Said on stderr when numba compiles the kernel (an empty or stale cache)."""

_JIT: list = []
_READY: list[bool] = []


def jit():
    """The compiled module, or None if numba is not installed or cannot keep its cache
    (warned once)."""
    if not _JIT:
        try:
            from . import kernel_jit
        except ImportError as err:
            log.warning("numba is not available (%s): Can't Stop matches run on the numpy "
                        "engine (pip install numba for the compiled kernel)", err)
            kernel_jit = None
        except RuntimeError as err:  # numba found no writable cache directory
            log.warning("numba cannot cache the Can't Stop kernel (%s): its matches run on "
                        "the numpy engine (set NUMBA_CACHE_DIR to a writable directory)", err)
            kernel_jit = None
        _JIT.append(kernel_jit)
    return _JIT[0]


def _compile_notice():
    """A numba event listener that says once on stderr that the kernel is compiling
    (``.compiled`` tells whether it did)."""
    from numba.core import event

    class CompileNotice(event.Listener):
        compiled = False

        def on_start(self, event) -> None:
            if not self.compiled:
                self.compiled = True
                print(COMPILING, file=sys.stderr, flush=True)

        def on_end(self, event) -> None:
            pass

    return CompileNotice()


def warm_up() -> bool:
    """Compile the kernel, or load it from numba's disk cache, once per process; False
    if numba is missing. Every entry point is called once on the argument types the
    engine gives it, so no later call compiles. numba keeps the cache beside the
    module, or in the user's cache directory when the package directory is not
    writable (``NUMBA_CACHE_DIR`` overrides both)."""
    K = jit()
    if K is None:
        return False
    if not _READY:
        from numba.core import event

        notice = _compile_notice()
        with event.install_listener("numba:compile", notice):
            players = [glenn_aloi_player(), RandomStrategy()]
            KernelBatch(CantStop(), players, encode(players), [((0, 1), 0, 0, 2)])
            table = np.zeros(K.SET_TABLE, dtype=np.int64)
            K.set_order(np.array([26, 39], dtype=np.int64), 2, table, table.copy(),
                        table.copy())
        _READY.append(notice.compiled)
    return True


class Strategies:
    """Players encoded for the kernel: a kind per player, heuristic parameters,
    program roots and the programs' code rows concatenated."""

    def __init__(self, kinds, params, roots, code) -> None:
        self.kinds, self.params, self.roots, self.code = kinds, params, roots, code


def encode(players: Sequence) -> Strategies | None:
    """The players as kernel strategies, or None if one of them has no kernel form."""
    K = jit()
    if K is None:
        return None
    n = len(players)
    kinds = np.zeros(n, dtype=np.int64)
    params = np.zeros((n, K.PARAMS_SIZE), dtype=np.int64)
    roots = np.zeros((n, 2), dtype=np.int64)
    codes, offset = [], 0
    for k, player in enumerate(players):
        kind = type(player)
        if kind is HeuristicPlayer:
            kinds[k] = K.HEURISTIC
            p = player.params
            values = (*p.progress_value, *p.move_value, p.odds, p.evens, p.highs, p.lows,
                      p.marker, p.threshold)
            if len(p.progress_value) != 11 or len(p.move_value) != 11 or any(
                    abs(v) >= PARAMETER_LIMIT for v in values):
                return None  # scores could leave int64: the exact engines play it
            params[k, K.PV_AT + 2:K.PV_AT + 13] = p.progress_value
            params[k, K.MV_AT + 2:K.MV_AT + 13] = p.move_value
            params[k, [K.ODDS, K.EVENS, K.HIGHS, K.LOWS, K.MARKER, K.THRESHOLD]] = (
                p.odds, p.evens, p.highs, p.lows, p.marker, p.threshold)
        elif kind is RandomStrategy:
            kinds[k] = K.RANDOM
        else:
            program = lowering(player, LOWERING)
            if program is None:
                return None
            code, score, column = program
            kinds[k] = K.PROGRAM
            roots[k] = (score + offset, column + offset)
            shifted = code.copy()
            shifted[np.isin(code[:, 0], K.JUMPS), 1] += offset  # arguments that are rows
            codes.append(shifted)
            offset += len(code)
    code = (np.concatenate(codes) if codes
            else np.zeros((1, K.CODE_WIDTH), dtype=np.int64))
    return Strategies(kinds, params, roots, code)


RULES = {CantStopState: "PAPER", ReferenceCantStopState: "REFERENCE"}
"""State classes the kernel plays (exact types), with their ``kernel_jit`` rules."""

_SET_ORDER_OK: list[bool] = []


def set_order_ok() -> bool:
    """True if the kernel's replay of CPython's ``set`` gives this interpreter's ``set``
    iteration order (the reference rules' legal-move order, D3) on 500 random move
    lists; checked once per process. If not (another interpreter's ``set`` or tuple
    hash), the reference rules stay on the scalar engine and a warning says so."""
    if not _SET_ORDER_OK:
        K = jit()
        if K is None:
            return False
        keys = [a * 13 for a in range(2, 13)] + [a * 13 + b for a in range(2, 13)
                                                 for b in range(a, 13)]
        rng = random.Random(0)
        table, old, out = (np.zeros(K.SET_TABLE, dtype=np.int64),
                           np.zeros(K.SET_TABLE, dtype=np.int64),
                           np.zeros(K.SET_TABLE, dtype=np.int64))
        ok = True
        for _ in range(500):
            moves = [rng.choice(keys) for _ in range(rng.randint(1, 6))]
            count = K.set_order(np.array(moves, dtype=np.int64), len(moves), table, old, out)
            ok = ok and [K.key_tuple(int(k)) for k in out[:count]] == \
                list({K.key_tuple(k) for k in moves})
        if not ok:
            log.warning("this interpreter's set order differs from the kernel's replay of "
                        "CPython's: Can't Stop matches under rules=reference run on the "
                        "scalar engine")
        _SET_ORDER_OK.append(ok)
    return _SET_ORDER_OK[0]


def runs(game) -> bool:
    """True if the kernel plays this game's rules: ``CantStop`` on ``CantStopState``
    (the paper's) or ``ReferenceCantStopState`` (``rules=reference``; if
    ``set_order_ok``), not a subclass."""
    if type(game) is not CantStop or game.state_class not in RULES:
        return False
    return game.state_class is CantStopState or set_order_ok()


class KernelBatch:
    """Matches of one or more pairings, seat-alternating, played by the kernel.

    ``groups`` lists ``(pair, seed, start, stop[, paired])`` as ``fast.Batch``: matches
    ``start..stop-1`` of ``seed`` between ``players[pair[0]]`` and
    ``players[pair[1]]``. ``final[i]`` is match ``i``'s final state vector
    (``kernel_jit`` layout); ``winner``, ``capped``, ``moves`` by match offset.
    """

    def __init__(self, game: CantStop, players: Sequence, strategies: Strategies,
                 groups: Sequence[tuple[tuple[int, int], int, int, int]]) -> None:
        K = jit()
        self.max_moves = game.max_moves
        self.state_class = game.state_class
        self.index = np.concatenate([np.arange(g[2], g[3], dtype=np.int64) for g in groups])
        n = len(self.index)
        seeds = _seed_arrays(groups)
        words = np.stack([seeds & np.uint64(0xFFFFFFFF), seeds >> np.uint64(32)], axis=2)
        pairs = np.concatenate([np.repeat(np.array(g[0], dtype=np.int64)[None], g[3] - g[2], 0)
                                for g in groups]) if n else \
            np.zeros((0, 2), dtype=np.int64)
        flip = self.index & 1  # odd matches swap seats (games.match.seats_for)
        seat_strategy = np.where(flip[:, None] == 1, pairs[:, ::-1], pairs)
        self.final = np.zeros((n, K.STATE_SIZE), dtype=np.int64)
        K.play_matches(words.astype(np.int64), np.ascontiguousarray(seat_strategy),
                       strategies.kinds, strategies.params, strategies.roots, strategies.code,
                       game.max_moves, getattr(K, RULES[game.state_class]), self.final)
        self.winner = self.final[:, K.WON]
        self.capped = self.final[:, K.CAPPED].astype(bool)
        self.moves = self.final[:, K.MV]

    def state(self, i: int) -> CantStopState:
        """The final state of match offset ``i`` as a reference-engine state (of the
        game's state class)."""
        K = jit()
        f = self.final[i]
        counters = f[K.CNT:K.CNT + 2 * K.COUNTERS].reshape(2, K.COUNTERS)
        s = self.state_class.__new__(self.state_class)
        s.rng = None
        s.max_moves = self.max_moves
        s.player = -1
        s.markers = (f[K.MK:K.MK + 13].tolist(), f[K.MK + 13:K.MK + 26].tolist())
        s.neutral = f[K.NE:K.NE + 13].tolist()
        s.neutral_cols = f[K.NC:K.NC + f[K.NN]].tolist()
        s.claimed = f[K.CL:K.CL + 13].tolist()
        s.claims = counters[:, K.CLAIMS].tolist()
        s.dice = ROLLS[int(f[K.ROLL])]
        s.phase = PHASE_ROLL_OR_STOP if f[K.PHASE] else PHASE_COLUMN
        s.legal = []
        s.moves = int(f[K.MV])
        s.won_by = int(f[K.WON]) if f[K.WON] >= 0 else None
        s.capped = bool(f[K.CAPPED])
        s.turns = counters[:, K.TURNS].tolist()
        s.busts = counters[:, K.BUSTS].tolist()
        s.stops = counters[:, K.STOPS].tolist()
        s.banked = counters[:, K.BANKED].tolist()
        s.advances = counters[:, K.ADVANCES].tolist()
        s.outer = counters[:, K.OUTERS].tolist()
        s.last_player = int(f[K.LAST])
        if isinstance(s, ReferenceCantStopState):
            s.neutral_count = int(f[K.NCOUNT])
            s.won_now = f[K.WL:K.WL + f[K.NW]].tolist()
        return s

    def summary(self, lo: int = 0, hi: int | None = None,
                behavior: dict | None = None) -> MatchSummary:
        """``games.match.play_job``'s summary of match offsets ``lo..hi-1``."""
        hi = len(self.index) if hi is None else hi
        winner, capped = self.winner[lo:hi], self.capped[lo:hi]
        won = winner >= 0
        player = winner ^ (self.index[lo:hi] & 1)  # seat -> player (seats_for)
        summary = MatchSummary()
        summary.matches = hi - lo
        summary.wins = [int(np.count_nonzero(won & (player == 0))),
                        int(np.count_nonzero(won & (player == 1)))]
        summary.wins_by_seat = [[int(np.count_nonzero(won & (player == p) & (winner == seat)))
                                 for seat in (0, 1)] for p in (0, 1)]
        summary.capped = int(np.count_nonzero(~won & capped))
        summary.draws = int(np.count_nonzero(~won & ~capped))
        summary.total_moves = int(self.moves[lo:hi].sum())
        if behavior:
            summary.feature_sums = self._feature_sums(lo, hi, behavior)
        return summary

    def _feature_sums(self, lo: int, hi: int, behavior: dict) -> list[dict[str, float]]:
        """Per player, each feature summed over the matches in match order, as
        ``play_job`` adds them (features of ``games.cantstop.features`` from the
        counters as arrays, others from each final state)."""
        K = jit()
        sums: list[dict[str, float]] = [{}, {}]
        if hi <= lo:
            return sums
        flip = self.index[lo:hi] & 1
        counters = self.final[lo:hi, K.CNT:K.CNT + 2 * K.COUNTERS].reshape(-1, 2, K.COUNTERS)
        states = None
        for name, (fn, _) in behavior.items():
            make = _FEATURE_ARRAYS.get(fn)
            if make is None:
                if states is None:
                    states = [self.state(i) for i in range(lo, hi)]
                values = np.array([[float(fn(s, seat)) for seat in (0, 1)] for s in states])
            else:
                values = make(counters, K)
            for player in (0, 1):
                seat = player ^ flip  # the seat the player held in each match
                series = values[np.arange(hi - lo), seat]
                # one addition after another from 0.0, as play_job adds them
                sums[player][name] = float(np.add.accumulate(series)[-1]) + 0.0
        return sums


def _seed_arrays(groups) -> np.ndarray:
    """``match_seeds`` of every match of the groups, (n, 3) uint64; one call for each run
    of groups with one seed, adjacent matches and one pairing mode (the chunks of one
    pairing); ``paired`` groups play on the seeds of ``k // 2`` (``fast.group_seed_arrays``)."""
    parts, run = [], None
    for group in groups:
        seed, start, stop = group[1:4]
        paired = len(group) > 4 and bool(group[4])
        if run is not None and run[0] == seed and run[2] == start and run[3] == paired:
            run[2] = stop
            continue
        if run is not None:
            parts.append(fast.group_seed_arrays(*run))
        run = [seed, start, stop, paired]
    if run is not None:
        parts.append(fast.group_seed_arrays(*run))
    return np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.uint64)


def _ratio(counters, top: int, bottom: int) -> np.ndarray:
    num, den = counters[:, :, top], counters[:, :, bottom]
    return np.where(den > 0, num / np.maximum(den, 1), 0.0)


_FEATURE_ARRAYS: dict[Callable, Callable] = {
    markers_per_stop: lambda cnt, K: _ratio(cnt, K.BANKED, K.STOPS),
    bust_rate: lambda cnt, K: _ratio(cnt, K.BUSTS, K.TURNS),
    turns: lambda cnt, K: cnt[:, :, K.TURNS].astype(np.float64),
    outer_preference: lambda cnt, K: _ratio(cnt, K.OUTERS, K.ADVANCES),
}
"""Behaviour features of ``games.cantstop.features`` as arrays over the matches'
per-seat counters (n, 2, counters) -> (n, 2) values, the same floats as the
functions give."""


def play_batch(game, players: Sequence, seed: int, start: int, stop: int) -> KernelBatch | None:
    """Matches ``start..stop-1`` (seat-alternating) on the kernel, or None if unsupported."""
    if not warm_up() or not runs(game) or len(players) != 2:
        return None
    unique = list(players) if players[0] is not players[1] else [players[0]]
    strategies = encode(unique)
    if strategies is None:
        return None
    pair = (0, 1) if len(unique) == 2 else (0, 0)  # one object in both seats: one strategy
    return KernelBatch(game, unique, strategies, [(pair, seed, start, stop)])


def _same_game(first: MatchJob, job: MatchJob) -> bool:
    return job.game is first.game


class KernelEngine(Engine):
    """Can't Stop's compiled kernel: the jobs of the rules it plays (``runs``) whose
    players all have a kernel form, one kernel call per game of up to
    ``fast.MAX_BATCH_ROWS`` matches (every pairing of a GP population at once); it
    declines the others, and everything if numba is missing."""

    name = "kernel"

    def prepare(self, game) -> None:
        """Compile or load the kernel if it plays ``game``'s rules."""
        if type(game) is CantStop and game.state_class in RULES:
            warm_up()

    def play(self, jobs: Sequence[MatchJob]) -> list[MatchSummary | None]:
        out: list[MatchSummary | None] = [None] * len(jobs)
        if not warm_up():
            return out
        pending = []
        encoded: dict[int, bool] = {}
        for k, job in enumerate(jobs):
            ok = runs(job.game) and len(job.players) == 2
            for player in job.players if ok else ():
                if id(player) not in encoded:
                    encoded[id(player)] = encode([player]) is not None
                ok = ok and encoded[id(player)]
            if ok:
                pending.append(k)
        while pending:
            game = jobs[pending[0]].game
            take, pending, players, groups = fast.next_batch(jobs, pending, _same_game)
            batch = KernelBatch(game, players, encode(players), groups)
            offset = 0
            for k in take:
                out[k] = batch.summary(offset, offset + jobs[k].size, jobs[k].behavior)
                offset += jobs[k].size
        return out


def play_chunks(jobs: Sequence[MatchJob]) -> list[MatchSummary]:
    """Each job's summary, what ``games.match.play_job`` gives it: on the kernel where
    it can, else on the numpy engine, else on the reference engine."""
    return play_in_process(jobs, (KernelEngine(), fast.ArrayEngine(), StateEngine()))
