"""The compiled kernel under ``rules=reference`` gives the scalar engine's matches.

``ReferenceCantStopState`` (the sketch-learning paper's reference code's rules, D1-D4) on the
kernel: the set order of its legal moves (D3) against CPython's own ``set``, the
legal moves and the state's stop tests at every decision of scalar matches, then
whole matches compared on winner, move count and final state (board, neutral
order, ``neutral_count``, ``won_now``, dice, per-seat counters) for the built-in
players and the sketch programs, summaries and Ψ. Matches in which D2 pushes the
neutral count to 4 are counted and must occur.
"""

from __future__ import annotations

import random

import numpy as np

from games import load_game
from games.api import RandomStrategy
from games.cantstop import glenn_aloi_player, kernel, rule_of_28_player
from games.cantstop import kernel_jit as K
from games.cantstop.features import FEATURES
from games.cantstop.players import HeuristicParams, HeuristicPlayer
from games.cantstop.reference_rules import ReferenceCantStopState
from games.cantstop.rules import PHASE_COLUMN, ROLL_INDEX, ROLLS
from games.match import MatchJob, play_job
from gp.fitness import WinRate
from gp.languages.cantstop import (
    APPENDIX_CONSTANTS_DSL,
    CANTSTOP_DSL,
    REFERENCE_SECURED_DSL,
    AppendixConstantsSketch,
    ReferenceSecuredSketch,
    SketchStrategy,
)
from gp.languages.cantstop_kernel import kernel_program

from .cantstop_engines import reference_states, several_pairing_jobs, snapshot

REFERENCE = load_game("cantstop", rules="reference")
GA01_TEXT = open("experiments/programs/cantstop_ga_constants01.txt").read()
MOVE_KEYS = [a * 13 for a in range(2, 13)] + [a * 13 + b for a in range(2, 13)
                                               for b in range(a, 13)]


def scalar_matches(game, players, seed: int, start: int, stop: int) -> tuple[list, int]:
    """Final states of the scalar engine, played as ``play_match`` plays them, and the
    number of matches in which the neutral count reached 4 (D2)."""
    fours: set[int] = set()

    def watch(index, state) -> None:
        if state.neutral_count >= 4:
            fours.add(index)

    return reference_states(game, players, seed, start, stop, watch), len(fours)


def assert_same_matches(players, seed: int, n: int, game=REFERENCE) -> int:
    """The kernel's matches equal the scalar engine's; returns the matches with count 4."""
    batch = kernel.play_batch(game, players, seed, 0, n)
    assert batch is not None, "players should run on the kernel under rules=reference"
    expected, fours = scalar_matches(game, players, seed, 0, n)
    for i, want in enumerate(expected):
        got = batch.state(i)
        assert type(got) is ReferenceCantStopState
        assert (got.won_by, got.moves, got.capped) == (want.won_by, want.moves, want.capped), \
            (players, i)
        assert snapshot(got) == snapshot(want), (players, i)
    return fours


def kernel_programs(count: int, seed: int, dsl, cls) -> list:
    """``count`` random programs of ``dsl`` that the kernel runs."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        player = cls(dsl.random_program(rng))
        if kernel_program(player) is not None:
            out.append(player)
    return out


def state_vector(state: ReferenceCantStopState) -> np.ndarray:
    """A scalar state as the kernel's state vector (the fields its rules read)."""
    st = np.zeros(K.STATE_SIZE, dtype=np.int64)
    st[K.NE:K.NE + 13] = state.neutral
    st[K.CL:K.CL + 13] = state.claimed
    st[K.MK:K.MK + 13] = state.markers[0]
    st[K.MK + 13:K.MK + 26] = state.markers[1]
    st[K.NC:K.NC + len(state.neutral_cols)] = state.neutral_cols
    st[K.NN] = len(state.neutral_cols)
    for seat in (0, 1):
        st[K.CNT + K.COUNTERS * seat + K.CLAIMS] = state.claims[seat]
    st[K.P] = state.player
    st[K.NCOUNT] = state.neutral_count
    for k, c in enumerate(state.won_now):
        st[K.WL + k] = c
        st[K.WF + c] = 1
    st[K.NW] = len(state.won_now)
    return st


def kernel_moves(st: np.ndarray, roll: int, scratch: np.ndarray) -> list[tuple[int, ...]]:
    count = K._reference_legal_moves(st, roll, scratch)
    return [(int(a),) if b == 0 else (int(a), int(b))
            for a, b in zip(st[K.LA0:K.LA0 + count], st[K.LA1:K.LA1 + count])]


def test_move_tuples_hash_as_this_interpreter_does():
    for key in MOVE_KEYS:
        assert K._KEY_HASH[key] == hash(K.key_tuple(key))
    assert K.key_tuple(7 * 13) == (7,) and K.key_tuple(6 * 13 + 8) == (6, 8)


def test_set_order_is_cpythons_set_iteration_order():
    """``set_order`` against ``list({...})`` of this interpreter on random insertion
    sequences with repeats: up to 6 moves (what a roll gives, one resize 8 -> 32) and
    up to 40 (a second resize, 32 -> 128)."""
    rng = random.Random(2024)
    table = np.zeros(128, dtype=np.int64)
    old = np.zeros(128, dtype=np.int64)
    out = np.zeros(128, dtype=np.int64)
    resized = 0
    for trial in range(6000):
        pool = rng.sample(MOVE_KEYS, rng.randint(1, len(MOVE_KEYS)))
        n = rng.randint(0, 40 if trial % 5 == 0 else 6)
        keys = [rng.choice(pool) for _ in range(n)]
        expected = list({K.key_tuple(key) for key in keys})
        count = K.set_order(np.array(keys + [0], dtype=np.int64), n, table, old, out)
        assert [K.key_tuple(int(key)) for key in out[:count]] == expected, keys
        resized += len(expected) >= 5
    assert resized > 1000


def test_legal_moves_and_stop_tests_at_every_decision():
    """At every decision of scalar matches: the kernel's legal moves (order included)
    for the state's dice and three other rolls (busts too), ``stopping_wins`` and
    ``can_place_new_neutral``; states with a neutral count of 4 among them."""
    players = (RandomStrategy(), glenn_aloi_player())
    rng = random.Random(5)
    scratch = np.zeros(K.SCRATCH_SIZE, dtype=np.int64)
    checked = {"moves": 0, "busts": 0, "stops": 0, "count 4": 0, "D2": 0}
    for index in range(120):
        seats = (players[index % 2], players[1 - index % 2])
        players[0].reset(index)
        state = REFERENCE.new_initial_state(random.Random(index))
        while state.current_player() >= 0:
            st = state_vector(state)
            checked["count 4"] += state.neutral_count == 4
            checked["D2"] += any(not state.neutral[c] for c in state.won_now)
            if state.phase == PHASE_COLUMN:
                assert kernel_moves(st, ROLL_INDEX[state.dice], scratch) == state.legal
                probe = state.clone()
                for roll in (rng.randrange(1296) for _ in range(3)):
                    probe.dice = ROLLS[roll]
                    expected = probe._column_moves(None)
                    assert kernel_moves(st, roll, scratch) == expected, (state, roll)
                    checked["busts"] += not expected
                checked["moves"] += 1
            else:
                assert K._stopping_wins(st, True) == state.stopping_wins()
                assert K._can_place_new_neutral(st, True) == state.can_place_new_neutral()
                checked["stops"] += 1
            state.apply_action(seats[state.current_player()](state))
    assert min(checked.values()) > 0, checked


def test_builtin_players_match_scalar_engine():
    ga = glenn_aloi_player()
    fours = assert_same_matches((ga, RandomStrategy()), seed=101, n=400)
    assert fours > 0
    fours = assert_same_matches((rule_of_28_player(), ga), seed=102, n=300)
    assert fours > 0
    fours = assert_same_matches((RandomStrategy(), RandomStrategy()), seed=103, n=300)
    assert fours > 0
    rnd = RandomStrategy()  # one object in both seats: reseeded twice, as the scalar path
    assert_same_matches((rnd, rnd), seed=104, n=60)
    odd = HeuristicPlayer(HeuristicParams(progress_value=(1,) * 11, move_value=(3,) * 11,
                                          odds=-4, evens=9, highs=0, lows=2, marker=1,
                                          threshold=12), "odd")
    assert_same_matches((odd, rule_of_28_player()), seed=105, n=100)


def test_sketch_reference_programs_match_scalar_engine():
    """``--dsl sketch-reference`` (``secured`` the reference code's way): GA written in
    its constants, and random programs, against GA."""
    ga = glenn_aloi_player()
    fours = assert_same_matches((ReferenceSecuredSketch(GA01_TEXT), ga), seed=201, n=300)
    for k, program in enumerate(kernel_programs(6, 7, REFERENCE_SECURED_DSL,
                                                ReferenceSecuredSketch)):
        fours += assert_same_matches((program, ga), seed=210 + k, n=200)
    assert fours > 0


def test_sketch_programs_match_scalar_engine():
    """``--dsl sketch`` and ``sketch-01`` programs under the reference rules."""
    ga = glenn_aloi_player()
    fours = 0
    for k, program in enumerate(kernel_programs(6, 8, CANTSTOP_DSL, SketchStrategy)):
        fours += assert_same_matches((program, ga), seed=301 + k, n=200)
    for k, program in enumerate(kernel_programs(2, 9, APPENDIX_CONSTANTS_DSL,
                                                AppendixConstantsSketch)):
        fours += assert_same_matches((program, RandomStrategy()), seed=320 + k, n=100)
    assert fours > 0


def test_short_cap_matches_scalar_engine():
    """A capped match ends mid-turn: ``neutral_count`` and ``won_now`` are compared."""
    for cap in (1, 2, 25, 61, 140):
        game = load_game("cantstop", rules="reference", max_moves=cap)
        assert_same_matches((ReferenceSecuredSketch(GA01_TEXT), glenn_aloi_player()),
                            seed=cap, n=40, game=game)
        assert_same_matches((RandomStrategy(), rule_of_28_player()), seed=cap, n=40, game=game)


def test_summaries_with_features_and_paired_matches():
    """``play_chunks`` gives ``play_job``'s summaries under the reference rules,
    behaviour sums and paired (colour-swapped) jobs included, one kernel call."""
    ga, rnd = glenn_aloi_player(), RandomStrategy()
    programs = kernel_programs(2, 11, REFERENCE_SECURED_DSL, ReferenceSecuredSketch)
    programs.append(ReferenceSecuredSketch(GA01_TEXT))
    jobs = several_pairing_jobs(REFERENCE, programs, ga, rnd, FEATURES)
    jobs += [MatchJob(REFERENCE, (programs[0], ga), 12, 0, 60, FEATURES, True),
             MatchJob(REFERENCE, (rnd, rule_of_28_player()), 13, 10, 50, None)]
    assert all(kernel.runs(job.game) for job in jobs)
    for expected, got in zip([play_job(job) for job in jobs], kernel.play_chunks(jobs)):
        assert got == expected


def test_winrate_on_the_kernel_equals_the_scalar_engine(monkeypatch):
    """Ψ under the reference rules: the default engine plays on the kernel (nothing
    falls back) and gives the scalar engine's values; ``engine="reference"`` plays on
    the scalar engine (the kernel is never called)."""
    texts = [GA01_TEXT] + [p.text for p in kernel_programs(3, 12, REFERENCE_SECURED_DSL,
                                                           ReferenceSecuredSketch)]
    values = {}
    for engine in ("fast", "reference"):
        with monkeypatch.context() as patch:
            def refuse(*args, engine=engine, **kwargs):
                raise AssertionError(f"{engine}: the wrong engine was called")
            patch.setattr(kernel.fast.ArrayEngine, "play", refuse)  # the kernel's fallback
            if engine == "reference":
                patch.setattr(kernel.KernelEngine, "play", refuse)
            psi = WinRate(REFERENCE, glenn_aloi_player(), ReferenceSecuredSketch, matches=200,
                          seed=5, paired=True, engine=engine)
            values[engine] = psi.many(texts)
    assert values["fast"] == values["reference"]


def test_reference_rules_need_the_interpreters_set_order(monkeypatch):
    """The kernel checks its set replay against this interpreter once per process;
    were it to differ, the reference rules would play on the scalar engine, with the
    same summaries."""
    assert kernel.set_order_ok()
    monkeypatch.setattr(kernel, "_SET_ORDER_OK", [False])
    ga = glenn_aloi_player()
    assert not kernel.runs(REFERENCE) and kernel.runs(load_game("cantstop"))
    assert kernel.play_batch(REFERENCE, (RandomStrategy(), ga), 4, 0, 10) is None
    job = MatchJob(REFERENCE, (ReferenceSecuredSketch(GA01_TEXT), ga), 4, 0, 30, FEATURES)
    assert kernel.play_chunks([job]) == [play_job(job)]
