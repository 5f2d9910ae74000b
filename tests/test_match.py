"""Match runner: seats alternate, results per player, determinism, forfeits, backends."""

import math
from statistics import NormalDist

import pytest

from games import load_game
from games.api import RandomStrategy
from games.backends import PoolMap, SerialMap, make_map
from games.cantstop import glenn_aloi_player, rule_of_28_player
from games.match import (
    MatchJob,
    MatchSummary,
    check_paired,
    guided_bounds,
    match_seeds,
    opening_index,
    play_job,
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


# ---- seeds, single matches, summaries and the batch's bookkeeping -----------------------

class First:
    """The first legal action; never stops a turn early (a short, deterministic player)."""

    def __call__(self, state):
        return state.legal_actions()[0]


class Reseeded:
    """Records the seed each match gives it."""

    def __init__(self):
        self.seeds = []
        self.inner = RandomStrategy()

    def reset(self, seed):
        self.seeds.append(seed)
        self.inner = RandomStrategy(seed)

    def __call__(self, state):
        return self.inner(state)


def test_each_match_has_three_independent_seeds_and_pairs_share_theirs():
    seeds = match_seeds(5, 0)
    assert len(set(seeds)) == 3 and match_seeds(5, 0) == seeds
    assert match_seeds(5, 1) != seeds and match_seeds(6, 0) != seeds
    assert [opening_index(k) for k in range(4)] == [0, 1, 2, 3]
    assert [opening_index(k, paired=True) for k in range(4)] == [0, 0, 1, 1]
    check_paired(4, True)
    check_paired(3, False)
    with pytest.raises(ValueError, match="must be even, got 3"):
        check_paired(3, True)


def test_a_match_reseeds_each_seat_and_records_what_it_played():
    a, b = Reseeded(), Reseeded()
    result = play_match(GAME, (a, b), seed=5, index=3, record=True)
    _, seed0, seed1 = match_seeds(5, 3)
    assert a.seeds == [seed0] and b.seeds == [seed1]
    assert result.winner in (0, 1) and result.forfeit is None and result.error is None
    assert len(result.pairs) == result.moves and result.pairs[0][0] == 0
    assert result.final_state["winner"] == result.winner
    again = play_match(GAME, (Reseeded(), Reseeded()), seed=5, index=3)
    assert (again.winner, again.moves, again.pairs, again.final_state) == \
        (result.winner, result.moves, None, None)
    paired = [play_match(GAME, (First(), First()), seed=5, index=k, paired=True, record=True)
              for k in (2, 3)]
    assert paired[0].pairs[0][1]["dice"] == paired[1].pairs[0][1]["dice"]


def test_a_forfeit_names_the_seat_its_error_and_the_moves_played():
    result = play_match(GAME, (First(), Crasher()), seed=1, record=True)
    assert result.forfeit == 1 and result.winner == 0 and not result.capped
    assert result.error == "ZeroDivisionError: bad program" and result.moves > 10
    assert result.final_state["moves"] == result.moves and len(result.pairs) == result.moves
    result = play_match(GAME, (Cheater(), First()), seed=1)
    assert result.forfeit == 0 and result.winner == 1 and result.error.startswith("ValueError")


def test_behaviour_features_are_read_per_seat_off_the_final_state():
    features = {"moves": (lambda state, seat: state.move_number() + seat, (0, 1)),
                "turns": (lambda state, seat: state.turns[seat], (0, 1))}
    result = play_match(GAME, (First(), First()), seed=2, behavior=features)
    assert [b["moves"] for b in result.behavior] == [result.moves, result.moves + 1]
    assert play_match(GAME, (First(), First()), seed=2, behavior={}).behavior is None
    summary = play_matches(GAME, (First(), First()), 4, seed=2, behavior=features)
    means = summary.behavior(0)
    assert means["moves"] == pytest.approx(summary.mean_moves + 0.5)


def test_a_summary_counts_means_and_rates_per_player():
    empty = MatchSummary()
    assert empty.mean_moves == 0.0 and empty.win_rate(0) == 0.0 and empty.seconds == 0.0
    s = MatchSummary(matches=4, total_moves=10, feature_sums=[{"x": 2.0}, {}])
    s.record_win((1, 0), 0)  # player 1 won from seat 0
    s.record_win((0, 1), 1)  # player 1 won from seat 1
    s.record_win((0, 1), 0)
    assert s.wins == [1, 2] and s.wins_by_seat == [[1, 0], [1, 1]]
    assert s.mean_moves == 2.5 and s.win_rate(1) == 0.5 and s.behavior(0) == {"x": 0.5}
    other = MatchSummary(matches=2, wins=[1, 0], wins_by_seat=[[0, 1], [0, 0]], draws=1,
                         capped=1, forfeits=[0, 2], total_moves=6,
                         feature_sums=[{"x": 1.0, "y": 3.0}, {"x": 4.0}],
                         per_match=[{"k": 1}], first_error=["late", "b"])
    s.first_error = ["a", None]
    s.add(other)
    assert (s.matches, s.wins, s.wins_by_seat) == (6, [2, 2], [[1, 1], [1, 1]])
    assert (s.draws, s.capped, s.forfeits, s.total_moves) == (1, 1, [0, 2], 16)
    assert s.feature_sums == [{"x": 3.0, "y": 3.0}, {"x": 4.0}]
    assert s.per_match == [{"k": 1}] and s.first_error == ["a", "b"]


def test_a_job_counts_wins_caps_and_forfeits_for_the_players_not_the_seats():
    job = MatchJob(GAME, (First(), CrashesInSecondSeat()), seed=3, start=2, stop=6)
    assert job.size == 4
    with pytest.raises(AttributeError):  # frozen: a job shipped to a worker stays as sent
        job.start = 0
    s = play_job(job)
    # matches 2, 4: the crasher sits second and forfeits; 3, 5: it plays first
    assert s.matches == 4 and s.forfeits == [0, 2] and s.wins_by_seat[0][0] == 2
    assert s.first_error == [None, "match 2: RuntimeError: cannot play second"]
    capped = play_job(MatchJob(load_game("cantstop", max_moves=4), (First(), First()), 0, 0, 3))
    assert (capped.capped, capped.draws, capped.wins, capped.total_moves) == (3, 0, [0, 0], 12)


def test_one_seat_puts_the_first_player_there_in_every_match():
    for seat in (0, 1):
        (s,) = play_many(GAME, [(First(), CrashesInSecondSeat())], 6, [4], seat=seat)
        assert s.matches == 6
        assert s.forfeits == ([0, 6] if seat == 0 else [0, 0])
        assert s.wins_by_seat[0][1 - seat] == s.wins_by_seat[1][seat] == 0


def test_bad_batches_are_refused():
    pair = (First(), First())
    for kwargs, match in (({"n": -1}, "must be >= 0"),
                          ({"seat": 2}, "seat must be 0 or 1"),
                          ({"seat": 0, "paired": True}, "with paired matches"),
                          ({"seeds": [1, 2]}, "1 pairings but 2 seeds"),
                          ({"pairings": [(First(),)]}, "two players needed, got 1")):
        args = {"pairings": [pair], "n": 2, "seeds": [1], **kwargs}
        with pytest.raises(ValueError, match=match):
            play_many(GAME, args.pop("pairings"), args.pop("n"), args.pop("seeds"), **args)
    (s,) = play_many(GAME, [pair], 0, [1])
    assert s.matches == 0 and s.seconds >= 0.0


def test_guided_chunks_are_a_quarter_of_what_is_left_per_two_workers_down_to_the_smallest():
    # 20 matches, 2 workers: ceil(left / 4) each, but at least 20 // (4 * 4) = 1
    assert guided_bounds(20, 4, 2) == [0, 5, 9, 12, 14, 16, 17, 18, 19, 20]
    # at least 100 // (4 * 2) = 12 matches a chunk
    assert guided_bounds(100, 2, 4) == [0, 13, 25, 37, 49, 61, 73, 85, 97, 100]
    assert guided_bounds(0, 4, 2) == [0] and guided_bounds(3, 0, 1) == [0, 2, 3]
    # one chunk asked for: at least 40 // 4 = 10 matches a chunk, not a quarter of 40 / 2
    assert guided_bounds(40, 1, 4) == [0, 10, 20, 30, 40]


def test_the_wilson_interval_is_clipped_to_0_and_1_and_empty_without_matches():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and 0.2 < high < 0.35
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.65 < low < 0.8
    # the closed form rounds to -5.6e-17 at 0 of 2 and to 1 + 2.2e-16 at 9 of 9
    assert wilson_interval(0, 2)[0] == 0.0 and wilson_interval(9, 9)[1] == 1.0


# ---- draws, the log level of a forfeit, the batch's cutting into jobs, its clock -------

TICTACTOE = load_game("tictactoe")


class Prefers:
    """Plays the first square of ``order`` that is free."""

    def __init__(self, order):
        self.order = order

    def __call__(self, state):
        legal = state.legal_actions()
        return next(square for square in self.order if square in legal)


DRAWN = (0, 4, 8, 1, 7, 6, 2, 5, 3)
"""Both players preferring these squares fill the board with no line: X O X / X O O / O X X."""


def test_a_drawn_match_counts_as_a_draw_not_a_win_or_a_cap():
    result = play_match(TICTACTOE, (Prefers(DRAWN), Prefers(DRAWN)), seed=0)
    assert (result.winner, result.capped, result.moves) == (None, False, 9)
    s = play_job(MatchJob(TICTACTOE, (Prefers(DRAWN), Prefers(DRAWN)), 0, 0, 3))
    assert (s.draws, s.capped, s.wins, s.forfeits, s.total_moves) == (3, 0, [0, 0], [0, 0], 27)


class ScoresZeroAndCrashes:
    """A program whose language scores its failures 0: its forfeit is logged quietly."""

    failure_scores_zero = True

    def __call__(self, state):
        raise RuntimeError("broken program")


def test_a_forfeit_is_a_warning_unless_the_players_failures_score_zero(caplog):
    import logging

    caplog.set_level(logging.DEBUG, logger="stratsynth.match")
    play_match(GAME, (ScoresZeroAndCrashes(), First()), seed=1)
    play_match(GAME, (Crasher(), First()), seed=1)
    assert [(r.levelno, "forfeits" in r.getMessage()) for r in caplog.records] == \
        [(logging.DEBUG, True), (logging.WARNING, True)]


class RecordingMap:
    """A ``map`` backend that plays in process and records each batch's match spans."""

    def __init__(self, workers, chunks_per_worker):
        self.workers, self.chunks_per_worker, self.spans = workers, chunks_per_worker, []

    def __call__(self, func, jobs):
        self.spans.append([(job.start, job.stop) for job in jobs])
        return [func(job) for job in jobs]


def _spans(bounds):
    return list(zip(bounds, bounds[1:]))


@pytest.mark.parametrize("workers, pairings, n, chunks, spans", [
    # one pairing on several workers: guided chunks from 3 per worker, at least 100 // 24
    (2, 1, 100, None, _spans([0, 25, 44, 58, 69, 77, 83, 88, 92, 96, 100])),
    # one worker: 3 equal chunks
    (1, 1, 20, None, _spans([0, 6, 13, 20])),
    # two pairings share the 2 * 3 chunks: 3 each
    (2, 2, 20, None, 2 * _spans([0, 6, 13, 20])),
    # chunks given: that many equal chunks, even for one pairing on several workers
    (2, 1, 20, 4, _spans([0, 5, 10, 15, 20])),
    # 5 chunks for two pairings: ceil(5 / 2) = 3 each
    (1, 2, 20, 5, 2 * _spans([0, 6, 13, 20])),
    # more chunks than matches: no empty job
    (1, 1, 2, 5, [(0, 1), (1, 2)]),
    (1, 1, 0, None, []),
])
def test_a_batch_is_cut_into_the_jobs_its_backend_is_sent(workers, pairings, n, chunks, spans):
    recorder = RecordingMap(workers, chunks_per_worker=3)
    summaries = play_many(TICTACTOE, [(First(), First())] * pairings, n, [1] * pairings,
                          map=recorder, chunks=chunks)
    assert recorder.spans == [spans]
    assert [s.matches for s in summaries] == [n] * pairings


def test_one_seat_sends_one_job_per_match_of_that_seat():
    recorder = RecordingMap(workers=2, chunks_per_worker=3)
    (s,) = play_many(TICTACTOE, [(First(), First())], 3, [1], map=recorder, seat=1)
    assert recorder.spans == [[(1, 2), (3, 4), (5, 6)]] and s.matches == 3


def test_a_batchs_seconds_are_its_own_wall_time():
    import time

    before = time.perf_counter()
    summaries = play_many(GAME, [(First(), First())] * 2, 6, [1, 2])
    elapsed = time.perf_counter() - before
    assert all(0.0 < s.seconds <= elapsed for s in summaries)
    assert summaries[0].seconds == summaries[1].seconds
