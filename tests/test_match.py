"""Match runner: seats alternate, results per player, determinism, forfeits, backends."""

import math
from statistics import NormalDist

import pytest

from games import load_game
from games.api import RandomStrategy
from games.backends import PoolMap, SerialMap, make_map
from games.cantstop import glenn_aloi_player, rule_of_28_player
from games.match import (
    guided_bounds,
    play_many,
    play_match,
    play_matches,
    seats_for,
    wilson_interval,
)

GAME = load_game("cantstop")


def test_same_seed_same_matches_and_different_seed_differs():
    players = (RandomStrategy(), glenn_aloi_player())
    a = play_match(GAME, players, seed=4, index=9, record=True)
    b = play_match(GAME, players, seed=4, index=9, record=True)
    assert a.pairs == b.pairs and a.final_state == b.final_state
    c = play_match(GAME, players, seed=5, index=9, record=True)
    assert c.pairs != a.pairs


def test_summary_independent_of_chunking_and_backend():
    players = (rule_of_28_player(), RandomStrategy())
    serial = play_matches(GAME, players, 120, seed=3)
    chunked = play_matches(GAME, players, 120, seed=3, map=SerialMap(), chunks=7)
    with PoolMap(2) as pool:
        pooled = play_matches(GAME, players, 120, seed=3, map=pool)
    for other in (chunked, pooled):
        assert (other.wins, other.capped, other.total_moves) == (
            serial.wins, serial.capped, serial.total_moves)


@pytest.mark.parametrize("chunks", [None, 1, 5, 200])
def test_a_batch_of_pairings_gives_each_what_it_gets_alone(chunks):
    from games.cantstop.features import FEATURES

    pairings = [(rule_of_28_player(), RandomStrategy()), (RandomStrategy(), glenn_aloi_player()),
                (glenn_aloi_player(), rule_of_28_player())]
    seeds = [3, 8, 3]
    batch = play_many(GAME, pairings, 41, seeds, map=SerialMap(), chunks=chunks,
                      behavior=FEATURES)
    for players, seed, got in zip(pairings, seeds, batch):
        alone = play_matches(GAME, players, 41, seed, behavior=FEATURES)
        assert (got.matches, got.wins, got.capped, got.total_moves) == (
            alone.matches, alone.wins, alone.capped, alone.total_moves)
        for seat in (0, 1):  # sums in another order: equal up to rounding
            assert got.feature_sums[seat] == pytest.approx(alone.feature_sums[seat], rel=1e-12)
    assert batch[0].wins != batch[2].wins or batch[0].total_moves != batch[2].total_moves
    with pytest.raises(ValueError, match="2 seeds"):
        play_many(GAME, pairings, 4, seeds[:2])


@pytest.mark.parametrize("n, chunks, workers", [(1000, 16, 2), (1000, 64, 8), (60, 16, 2),
                                                (3, 16, 2), (0, 16, 2), (10_007, 16, 2)])
def test_guided_chunks_cover_the_matches_once_and_shrink_towards_the_end(n, chunks, workers):
    bounds = guided_bounds(n, chunks, workers)
    sizes = [b - a for a, b in zip(bounds, bounds[1:])]
    assert bounds[0] == 0 and bounds[-1] == n and all(size > 0 for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if n >= 1000:
        assert sizes[0] == -(-n // (2 * workers)) and sizes[-1] <= n // (4 * chunks)
        assert len(sizes) <= 2 * chunks


def test_seats_alternate_and_wins_are_per_player():
    assert [seats_for(k) for k in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    summary = play_matches(GAME, (glenn_aloi_player(), RandomStrategy()), 200, seed=1)
    assert summary.matches == 200 and sum(summary.wins) + summary.capped == 200
    assert summary.wins[0] > 180  # GA in seat 0 half the time, seat 1 the other half


def test_first_seat_is_really_swapped():
    seen = []

    class Spy:
        def __init__(self, tag):
            self.tag = tag
            self.inner = glenn_aloi_player()

        def __call__(self, state):
            if state.move_number() == 0:
                seen.append(self.tag)
            return self.inner(state)

    play_matches(GAME, (Spy("a"), Spy("b")), 4, seed=0)
    assert seen == ["a", "b", "a", "b"]


class CrashesInSecondSeat:
    """Plays its first legal action from the first seat and raises from the second."""

    def __call__(self, state):
        if state.current_player() == 1:
            raise RuntimeError("cannot play second")
        return state.legal_actions()[0]


def test_wins_are_also_counted_by_the_seat_they_came_from():
    summary = play_matches(GAME, (glenn_aloi_player(), CrashesInSecondSeat()), 40, seed=2,
                           map=SerialMap(), chunks=3)
    ga, other = summary.wins_by_seat
    assert ga[0] == 20  # every match where the other player sat second is a forfeit
    assert other[1] == 0 and other[0] + ga[1] <= 20
    assert [sum(ga), sum(other)] == summary.wins


class Crasher:
    def __call__(self, state):
        if state.move_number() > 10:
            raise ZeroDivisionError("bad program")
        return state.legal_actions()[0]


class Cheater:
    def __call__(self, state):
        return (13, 13)


@pytest.mark.parametrize("broken", [Crasher(), Cheater()])
def test_broken_strategy_forfeits_and_the_batch_goes_on(broken, caplog):
    summary = play_matches(GAME, (broken, glenn_aloi_player()), 20, seed=2)
    assert summary.matches == 20
    assert summary.forfeits[0] > 0 and summary.forfeits[1] == 0
    assert summary.wins[1] >= summary.forfeits[0]
    assert "forfeits" in caplog.text


def test_make_map_choices():
    assert isinstance(make_map(1), SerialMap)
    with pytest.raises(ValueError):
        make_map(-1)


def _wilson_by_formula(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The Wilson score interval from its closed form (Wilson 1927)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.mark.parametrize("k, n, confidence", [
    (30, 1000, 0.95), (0, 20, 0.95), (20, 20, 0.95), (1, 3, 0.95), (7, 50, 0.99),
    (500, 1000, 0.9),
])
def test_wilson_interval_matches_the_closed_form(k, n, confidence):
    lo, hi = wilson_interval(k, n, confidence)
    assert (lo, hi) == pytest.approx(_wilson_by_formula(k, n, confidence), abs=1e-9)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_interval_contains_the_rate():
    lo, hi = wilson_interval(30, 1000)
    assert lo < 0.03 < hi and 0.02 < lo and hi < 0.045
    assert wilson_interval(0, 0) == (0.0, 1.0)
    wide, narrow = wilson_interval(30, 1000, 0.99), wilson_interval(30, 1000, 0.9)
    assert wide[0] < lo < narrow[0] and narrow[1] < hi < wide[1]


def test_random_wins_rarely_against_ga():
    summary = play_matches(GAME, (RandomStrategy(), glenn_aloi_player()), 2000, seed=20)
    lo, hi = wilson_interval(summary.wins[0], summary.matches)
    # the whole 95% interval inside the band the 10,000-match slow test pins
    assert 0.005 < lo <= summary.win_rate(0) <= hi < 0.04, summary.wins


@pytest.mark.slow
def test_random_vs_ga_ten_thousand_matches():
    summary = play_matches(GAME, (RandomStrategy(), glenn_aloi_player()), 10_000, seed=2026)
    assert 0.005 < summary.win_rate(0) < 0.04


def test_wilson_interval_is_scipy_s_wilson_interval():
    from scipy.stats import binomtest

    from games.match import wilson_interval

    for n in (1, 2, 7, 100, 10_000):
        for k in sorted({0, 1, n // 3, n - 1, n}):
            for confidence in (0.9, 0.95, 0.99):
                ci = binomtest(k, n).proportion_ci(confidence_level=confidence,
                                                   method="wilson")
                low, high = wilson_interval(k, n, confidence)
                assert abs(low - ci.low) < 1e-12 and abs(high - ci.high) < 1e-12


def test_a_pool_left_by_an_exception_is_terminated_not_waited_for():
    import time

    from multiprocess.pool import CLOSE, TERMINATE

    from games.backends import PoolMap

    interrupted = PoolMap(2)
    interrupted._pool.apply_async(time.sleep, (2,))  # a batch still running
    with pytest.raises(KeyboardInterrupt):
        with interrupted:
            raise KeyboardInterrupt
    assert interrupted._pool._state == TERMINATE
    with PoolMap(2) as finished:
        pass
    assert finished._pool._state == CLOSE  # a batch that ended normally is joined
