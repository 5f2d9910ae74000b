"""The fast Can't Stop engine gives the reference engine's matches, match by match.

Each match is compared on its winner, move count and whole final state (board,
neutral order, dice, phase, per-seat counters), with seats alternating as in
``play_matches``. ``tail_rows=0`` keeps every step on the array engine (by
default the last few matches of a batch finish on the reference engine).
"""

from __future__ import annotations

import glob
import random

import pytest

from games import load_game
from games.api import RandomStrategy
from games.cantstop import fast, glenn_aloi_player, rule_of_28_player
from games.cantstop.features import FEATURES
from games.match import match_seeds, play_job, play_many, seats_for
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from gp.languages.cantstop_compile import array_program

from .cantstop_engines import reference_states, several_pairing_jobs, snapshot

GAME = load_game("cantstop")
GA_TEXT = open("experiments/programs/cantstop_ga.txt").read()
BEST = sorted(glob.glob("experiments/results/cantstop-30min/runs/*/seed*/best.txt"))


def assert_same_matches(players, seed: int, n: int, tail_rows: int = 0, start: int = 0) -> None:
    batch = fast.play_batch(GAME, players, seed, start, start + n, tail_rows=tail_rows)
    assert batch is not None, "players should run on the array engine"
    for i, expected in enumerate(reference_states(GAME, players, seed, start, start + n)):
        got = batch.state(i)
        assert (got.won_by, got.moves) == (expected.won_by, expected.moves), (players, i)
        assert snapshot(got, claims=False) == snapshot(expected, claims=False), (players, i)


def random_programs(count: int, seed: int) -> list[SketchStrategy]:
    rng = random.Random(seed)
    return [SketchStrategy(CANTSTOP_DSL.random_program(rng)) for _ in range(count)]


def test_match_seeds_as_arrays():
    for seed in (0, 1, 7, 2**32 + 5, 2**63 - 1):
        arrays = fast.match_seed_arrays(seed, 3, 40)
        for k in range(3, 40):
            assert tuple(int(x) for x in arrays[k - 3]) == match_seeds(seed, k)


def test_builtin_players_match_reference():
    ga = glenn_aloi_player()
    assert_same_matches((rule_of_28_player(), ga), seed=11, n=120)
    assert_same_matches((RandomStrategy(), ga), seed=12, n=120)
    assert_same_matches((RandomStrategy(), RandomStrategy()), seed=13, n=80, start=5)
    assert_same_matches((ga, glenn_aloi_player()), seed=14, n=60)


def test_programs_match_reference():
    ga = glenn_aloi_player()
    assert_same_matches((SketchStrategy(GA_TEXT), ga), seed=21, n=100)
    assert_same_matches((SketchStrategy(open(BEST[0]).read()), ga), seed=22, n=60,
                        tail_rows=fast.TAIL_ROWS)
    for k, program in enumerate(random_programs(6, seed=3)):
        assert_same_matches((program, ga), seed=30 + k, n=30)


def test_short_cap_matches_reference():
    game = load_game("cantstop", max_moves=25)
    players = (SketchStrategy(GA_TEXT), glenn_aloi_player())
    batch = fast.play_batch(game, players, 5, 0, 40, tail_rows=0)
    for i in range(40):
        order = seats_for(i)
        chance, *_ = match_seeds(5, i)
        state = game.new_initial_state(random.Random(chance))
        while state.current_player() >= 0:
            state.apply_action(players[order[state.current_player()]](state))
        assert snapshot(batch.state(i), claims=False) == snapshot(state, claims=False)
        assert batch.state(i).capped == state.capped


def test_summaries_with_features_and_several_pairings():
    """``play_chunks`` gives ``play_job``'s summaries, behaviour sums included,
    for several pairings stepped as one batch."""
    ga, rnd = glenn_aloi_player(), RandomStrategy()
    programs = random_programs(3, seed=9) + [SketchStrategy(GA_TEXT)]
    jobs = several_pairing_jobs(GAME, programs, ga, rnd, FEATURES)
    for expected, got in zip([play_job(job) for job in jobs], fast.play_chunks(jobs)):
        assert got == expected


def test_winrate_fast_equals_reference():
    programs = [GA_TEXT] + [p.text for p in random_programs(2, seed=4)]
    values = {}
    for engine in ("reference", "numpy"):
        psi = WinRate(GAME, glenn_aloi_player(), SketchStrategy, matches=60, seed=3,
                      engine=engine)
        values[engine] = psi.many(programs)
    assert values["numpy"] == values["reference"]


def test_play_many_falls_back_for_other_players():
    """A player with no array form runs on the reference engine, with the same summary."""
    class Stubborn:
        def __call__(self, state):
            return state.legal_actions()[-1]

    pairings = [(Stubborn(), glenn_aloi_player())]
    ref = play_many(GAME, pairings, 30, [2], engine="reference")[0]
    got = play_many(GAME, pairings, 30, [2], engine="numpy")[0]
    ref.seconds = got.seconds = 0.0
    assert got == ref


def test_huge_values_are_not_compiled():
    """Values that could leave int64 keep the program on the reference engine."""
    big = " * ".join(["(7 * 7)"] * 12)
    text = (f"score: sum(map(lambda c: advanced(c) * {big}, neutrals))\n"
            "column: argmax(map(lambda a: advance_of(a), actions))")
    player = SketchStrategy(text)
    assert array_program(player) is None
    assert fast.strategies_for(GAME, (player, glenn_aloi_player())) is None
    small = SketchStrategy(GA_TEXT)
    assert array_program(small) is not None


@pytest.mark.slow
def test_equivalence_on_many_matches():
    """≥5,000 matches: built-in players, the committed and best programs, 50 random
    programs, all against GA with seats alternating."""
    ga = glenn_aloi_player()
    total = 0
    for k, first in enumerate((glenn_aloi_player(), rule_of_28_player(), RandomStrategy())):
        assert_same_matches((first, ga), seed=1000 + k, n=400)
        total += 400
    texts = [GA_TEXT] + [open(path).read() for path in BEST]
    assert len(texts) >= 31
    for k, text in enumerate(texts):
        assert_same_matches((SketchStrategy(text), ga), seed=2000 + k, n=80,
                            tail_rows=fast.TAIL_ROWS if k % 2 else 0)
        total += 80
    for k, program in enumerate(random_programs(50, seed=2026)):
        assert_same_matches((program, ga), seed=3000 + k, n=50)
        total += 50
    assert total >= 5000


def test_the_numpy_engine_refuses_the_reference_rules_and_fast_play_stays_exact():
    # the numpy engine knows only the paper rules; engine="fast" plays the reference rules
    # on the compiled kernel (tests/test_cantstop_kernel_reference.py), match by match
    reference = load_game("cantstop", rules="reference")
    assert fast.strategies_for(reference, [glenn_aloi_player(), RandomStrategy()]) is None
    slow = play_many(reference, [[RandomStrategy(), glenn_aloi_player()]], 300, [4])[0]
    quick = play_many(reference, [[RandomStrategy(), glenn_aloi_player()]], 300, [4],
                      engine="fast")[0]
    assert (slow.wins, slow.capped, slow.total_moves) == \
        (quick.wins, quick.capped, quick.total_moves)
