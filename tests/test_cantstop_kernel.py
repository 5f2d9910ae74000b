"""The compiled Can't Stop kernel gives the reference engine's matches, match by match.

Each match is compared on its winner, move count and whole final state (board,
neutral order, dice, phase, per-seat counters), with seats alternating as in
``play_matches``; summaries (behaviour features included) against
``play_job``; Ψ against the reference and the numpy engine.
"""

from __future__ import annotations

import glob
import random

import numpy as np
import pytest

from games import load_game
from games.api import RandomStrategy
from games.cantstop import fast, glenn_aloi_player, kernel, rule_of_28_player
from games.cantstop.features import FEATURES
from games.cantstop.players import HeuristicParams, HeuristicPlayer
from games.cantstop.reference_rules import ReferenceCantStopState
from games.engines import StateEngine, engines_for
from games.match import MatchJob, play_job, play_many
from gp.fitness import WinRate
from gp.languages.cantstop import (
    APPENDIX_CONSTANTS_DSL,
    CANTSTOP_DSL,
    REFERENCE_SECURED_DSL,
    AppendixConstantsSketch,
    ReferenceSecuredSketch,
    SketchStrategy,
    build_dsl,
)
from gp.languages.cantstop_kernel import kernel_program

from .cantstop_engines import reference_states, several_pairing_jobs, snapshot

GAME = load_game("cantstop")
GA_TEXT = open("experiments/programs/cantstop_ga.txt").read()
BEST = sorted(glob.glob("experiments/results/cantstop-30min/runs/*/seed*/best.txt"))


def assert_same_matches(players, seed: int, n: int, start: int = 0, game=GAME) -> None:
    batch = kernel.play_batch(game, players, seed, start, start + n)
    assert batch is not None, "players should run on the kernel"
    for i, expected in enumerate(reference_states(game, players, seed, start, start + n)):
        got = batch.state(i)
        assert (got.won_by, got.moves, got.capped) == \
            (expected.won_by, expected.moves, expected.capped), (players, i)
        assert snapshot(got) == snapshot(expected), (players, i)


def random_programs(count: int, seed: int, dsl=CANTSTOP_DSL, cls=SketchStrategy) -> list:
    rng = random.Random(seed)
    return [cls(dsl.random_program(rng)) for _ in range(count)]


def test_mersenne_twister_is_cpythons():
    """Seeding and ``random()`` give ``random.Random``'s numbers, for one- and
    two-word seeds and across the 624-output refills."""
    from games.cantstop import kernel_jit as K

    mt = np.zeros((2, K.MT_STATE), dtype=np.int64)
    rng = random.Random(1)
    for bits in (1, 31, 32, 33, 64):
        seed = rng.getrandbits(bits)
        K.mt_seed(mt, 1, seed & 0xFFFFFFFF, seed >> 32)
        ref = random.Random(seed)
        assert [K.mt_random(mt, 1) for _ in range(1300)] == [ref.random() for _ in range(1300)]
    K.mt_seed(mt, 0, 0, 0)
    assert K.mt_random(mt, 0) == random.Random(0).random()
    seeds = [rng.getrandbits(64) for _ in range(K.SEED_LANES)]
    lanes = np.zeros((K.MT_STATE, K.SEED_LANES), dtype=np.int64)
    K.mt_seed_lanes(lanes, np.array([s & 0xFFFFFFFF for s in seeds]),
                    np.array([s >> 32 for s in seeds]), K.SEED_LANES)
    for m, seed in enumerate(seeds):
        mt[1] = lanes[:, m]
        assert K.mt_random(mt, 1) == random.Random(seed).random()


def test_builtin_players_match_reference():
    ga = glenn_aloi_player()
    assert_same_matches((rule_of_28_player(), ga), seed=11, n=120)
    assert_same_matches((RandomStrategy(), ga), seed=12, n=120)
    assert_same_matches((RandomStrategy(), RandomStrategy()), seed=13, n=80, start=5)
    assert_same_matches((ga, glenn_aloi_player()), seed=14, n=60)
    odd = HeuristicPlayer(HeuristicParams(progress_value=(1,) * 11, move_value=(3,) * 11,
                                          odds=-4, evens=9, highs=0, lows=2, marker=1,
                                          threshold=12), "odd")
    assert_same_matches((odd, rule_of_28_player()), seed=15, n=60)


def test_one_random_player_in_both_seats():
    """The reference reseeds the one object twice; both seats then share seat 1's stream."""
    rnd = RandomStrategy()
    assert_same_matches((rnd, rnd), seed=16, n=40)


def test_programs_match_reference():
    ga = glenn_aloi_player()
    assert_same_matches((SketchStrategy(GA_TEXT), ga), seed=21, n=100)
    assert_same_matches((SketchStrategy(open(BEST[0]).read()), ga), seed=22, n=60)
    for k, program in enumerate(random_programs(8, seed=3)):
        assert_same_matches((program, ga), seed=30 + k, n=30)
    for k, program in enumerate(random_programs(3, 5, APPENDIX_CONSTANTS_DSL,
                                                AppendixConstantsSketch)):
        assert_same_matches((program, RandomStrategy()), seed=40 + k, n=30)


def test_reference_secured_programs_match_reference():
    """``secured`` read the reference code's way (``--dsl sketch-reference``)."""
    ga = glenn_aloi_player()
    text = ("score: sum(map(lambda c: secured(c) - opponent_secured(c), neutrals)) * (1 + 1)\n"
            "column: argmax(map(lambda a: sum(map(lambda c: secured(c) + opponent_secured(c)"
            " - advance_of(a), columns(a))), actions))")
    assert_same_matches((ReferenceSecuredSketch(text), ga), seed=60, n=40)
    for k, program in enumerate(random_programs(4, 7, REFERENCE_SECURED_DSL,
                                                ReferenceSecuredSketch)):
        assert_same_matches((program, ga), seed=61 + k, n=30)


def test_hand_written_programs_match_reference():
    """Every leaf, list and branch kind, nested maps and column ifs."""
    ga = glenn_aloi_player()
    texts = [
        "score: sum(map(lambda c: secured(c) * opponent_secured(c) - advanced(c), neutrals))"
        " + sum(neutrals)\n"
        "column: argmax(map(lambda a: sum(columns(a)) - advance_of(a), actions))",
        "score: (if 5 < difficulty then 6 * 7 else sum(map(lambda c: is_new_neutral(c)"
        " + move_value[c], neutrals)))\n"
        "column: if difficulty < (6 + 6) then argmax(map(lambda a: sum(map(lambda c:"
        " sum(map(lambda c: progress_value[c], neutrals)) * is_new_neutral(c), columns(a))),"
        " actions)) else argmax(map(lambda a: 3, actions))",
    ]
    for k, text in enumerate(texts):
        player = SketchStrategy(text)
        assert kernel_program(player) is not None
        assert_same_matches((player, ga), seed=50 + k, n=40)


def test_short_cap_matches_reference():
    for cap in (1, 2, 25, 61):
        game = load_game("cantstop", max_moves=cap)
        assert_same_matches((SketchStrategy(GA_TEXT), glenn_aloi_player()), seed=cap, n=30,
                            game=game)
        assert_same_matches((RandomStrategy(), rule_of_28_player()), seed=cap, n=30, game=game)


def test_summaries_with_features_and_several_pairings():
    """``play_chunks`` gives ``play_job``'s summaries, behaviour sums included,
    for several pairings in one kernel call."""
    ga, rnd = glenn_aloi_player(), RandomStrategy()
    programs = random_programs(3, seed=9) + [SketchStrategy(GA_TEXT)]
    jobs = several_pairing_jobs(GAME, programs, ga, rnd, FEATURES)
    odd_feature = {"moves": (lambda state, seat: state.moves / (seat + 2), (0, 1))}
    jobs += [MatchJob(GAME, (programs[1], ga), 9, 3, 50, odd_feature),
             MatchJob(GAME, (ga, rnd), 10, 0, 31, None)]
    for expected, got in zip([play_job(job) for job in jobs], kernel.play_chunks(jobs)):
        assert got == expected


def test_winrate_kernel_equals_numpy_and_reference():
    programs = [GA_TEXT] + [p.text for p in random_programs(2, seed=4)]
    values = {}
    chains = {"reference": [StateEngine], "numpy": [fast.ArrayEngine, StateEngine],
              "fast": [kernel.KernelEngine, fast.ArrayEngine, StateEngine]}
    for engine, chain in chains.items():
        assert [type(e) for e in engines_for(GAME, engine)] == chain
        psi = WinRate(GAME, glenn_aloi_player(), SketchStrategy, matches=60, seed=3, engine=engine)
        values[engine] = psi.many(programs)
    assert values["fast"] == values["numpy"] == values["reference"]


def test_what_the_kernel_does_not_run_falls_back():
    """Other players, another DSL's programs, too large values and another rule
    variant (a subclass of the reference rules' state) go to the numpy or the
    reference engine, with the same summaries."""
    class Stubborn:
        def __call__(self, state):
            return state.legal_actions()[-1]

    big = " * ".join(["(7 * 7)"] * 12)
    huge = SketchStrategy(f"score: sum(map(lambda c: advanced(c) * {big}, neutrals))\n"
                          "column: argmax(map(lambda a: advance_of(a), actions))")
    assert kernel_program(huge) is None
    giant = HeuristicPlayer(HeuristicParams((2**50,) * 11, (1,) * 11, 0, 0, 0, 0, 6, 29), "giant")
    assert kernel.encode([giant]) is None
    other_dsl = SketchStrategy(GA_TEXT, dsl=build_dsl("cantstop-kernel-test", constants=(1, 6)))
    assert kernel.encode([other_dsl]) is None
    ga = glenn_aloi_player()
    for pairing in ((Stubborn(), ga), (huge, ga), (other_dsl, ga), (giant, ga)):
        assert kernel.play_batch(GAME, pairing, 2, 0, 10) is None
        ref = play_many(GAME, [pairing], 30, [2], engine="reference")[0]
        got = play_many(GAME, [pairing], 30, [2], engine="fast")[0]
        ref.seconds = got.seconds = 0.0
        assert got == ref
    variant = load_game("cantstop", rules="reference")  # a rule variant the kernel lacks
    variant.state_class = type("Variant", (ReferenceCantStopState,), {"__slots__": ()})
    assert not kernel.runs(variant)
    assert kernel.play_batch(variant, (RandomStrategy(), ga), 4, 0, 10) is None
    slow = play_many(variant, [[RandomStrategy(), ga]], 40, [4])[0]
    quick = play_many(variant, [[RandomStrategy(), ga]], 40, [4], engine="fast")[0]
    slow.seconds = quick.seconds = 0.0
    assert quick == slow


def test_unknown_engine_is_an_error():
    with pytest.raises(ValueError, match="engine must be one of fast, numpy, reference"):
        WinRate(GAME, glenn_aloi_player(), SketchStrategy, engine="numba")
    with pytest.raises(ValueError, match="engine must be one of"):
        play_many(GAME, [(glenn_aloi_player(), RandomStrategy())], 2, [0], engine="numba")


def test_numpy_engine_on_request():
    """``engine="numpy"`` never calls the kernel; the numpy engine gives the same
    summaries as the kernel and the reference engine."""
    job = MatchJob(GAME, (SketchStrategy(GA_TEXT), glenn_aloi_player()), 3, 0, 20, None)
    assert kernel.KernelEngine not in [type(e) for e in engines_for(GAME, "numpy")]
    assert kernel.KernelEngine().play([job]) != [None]
    assert kernel.play_chunks([job]) == fast.play_chunks([job]) == [play_job(job)]


def test_without_numba_the_numpy_engine_plays(monkeypatch):
    monkeypatch.setattr(kernel, "_JIT", [None])  # as if numba failed to import
    assert kernel.encode([glenn_aloi_player()]) is None
    job = MatchJob(GAME, (SketchStrategy(GA_TEXT), RandomStrategy()), 5, 0, 20, FEATURES)
    assert kernel.KernelEngine().play([job]) == [None]
    assert kernel.play_chunks([job]) == [play_job(job)]


@pytest.mark.slow
def test_equivalence_on_many_matches():
    """≥5,000 matches: built-in players, the committed and best programs, 50 random
    programs and 20 of the reference-``secured`` DSL, all against GA with seats
    alternating."""
    ga = glenn_aloi_player()
    total = 0
    for k, first in enumerate((glenn_aloi_player(), rule_of_28_player(), RandomStrategy())):
        assert_same_matches((first, ga), seed=1000 + k, n=400)
        total += 400
    texts = [GA_TEXT] + [open(path).read() for path in BEST]
    assert len(texts) >= 31
    for k, text in enumerate(texts):
        assert_same_matches((SketchStrategy(text), ga), seed=2000 + k, n=80)
        total += 80
    for k, program in enumerate(random_programs(50, seed=2026)):
        assert_same_matches((program, ga), seed=3000 + k, n=50)
        total += 50
    for k, program in enumerate(random_programs(20, 2027, REFERENCE_SECURED_DSL,
                                                ReferenceSecuredSketch)):
        assert_same_matches((program, ga), seed=4000 + k, n=30)
        total += 30
    assert total >= 5000
