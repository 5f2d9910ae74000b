"""Playing matches: one match, many matches with alternating seats, and their summary.

Seeds: match ``k`` of a batch seeded ``seed`` draws its dice and its players'
randomness from ``SeedSequence(seed, spawn_key=(k,))``, so a batch gives the same
results whatever the backend, worker count or chunking. Paired matches
(``paired=True``) come in colour-swapped pairs: matches 2k and 2k+1 both draw
from ``SeedSequence(seed, spawn_key=(k,))`` (``opening_index``), so they share
the chance seed (the dice, a random opening) and each seat's seed, and only the
players swap seats; a deterministic program against an identical copy then wins
exactly one match of each pair.

A strategy that raises or returns an illegal action forfeits the match (it is
logged, counted as a loss for that player, and the batch goes on): synthesized
programs are allowed to be broken.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .api import Game, Strategy, failure_scores_zero, reset_player

log = logging.getLogger("stratsynth.match")


def match_seeds(seed: int, index: int) -> tuple[int, int, int]:
    """Independent seeds for (chance, seat 0, seat 1) of match ``index``."""
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(3, dtype=np.uint64)
    return int(words[0]), int(words[1]), int(words[2])


def opening_index(index: int, paired: bool = False) -> int:
    """The index whose seeds match ``index`` plays: itself, or its pair's (``index // 2``)."""
    return index // 2 if paired else index


def check_paired(n: int, paired: bool) -> None:
    """Paired matches need whole pairs: refuse an odd number of matches."""
    if paired and n % 2:
        raise ValueError(f"paired matches come in colour-swapped pairs: the number of matches "
                         f"must be even, got {n}")


@dataclass
class MatchResult:
    """Outcome of one match, by seat."""

    winner: int | None
    capped: bool
    moves: int
    forfeit: int | None = None
    error: str | None = None
    pairs: list[tuple[int, Any, Any]] | None = None
    final_state: Any = None
    behavior: list[dict[str, float]] | None = None


def play_match(game: Game, seats: Sequence[Strategy], seed: int, index: int = 0,
               record: bool = False, behavior: dict | None = None,
               paired: bool = False) -> MatchResult:
    """Play one match; ``seats[i]`` plays seat i. ``record`` keeps (seat, state, action);
    ``behavior`` (name -> function(state, seat)) reads features off the final state;
    ``paired``: match ``index`` plays on the seeds of ``index // 2``."""
    chance_seed, seed0, seed1 = match_seeds(seed, opening_index(index, paired))
    reset_player(seats[0], seed0)
    reset_player(seats[1], seed1)
    state = game.new_initial_state(random.Random(chance_seed))
    pairs: list[tuple[int, Any, Any]] | None = [] if record else None
    while True:
        player = state.current_player()
        if player < 0:
            break
        try:
            action = seats[player](state)
            if record:
                snapshot = state.to_dict()
            state.apply_action(action)
        except Exception as err:  # a broken strategy loses, the run goes on
            message = f"{type(err).__name__}: {err}"
            level = logging.DEBUG if failure_scores_zero(seats[player]) \
                else logging.WARNING  # such a failure is reported once per evaluation
            log.log(level, "seat %d (%r) forfeits match %d: %s", player, seats[player], index,
                    message)
            return MatchResult(winner=1 - player, capped=False, moves=state.move_number(),
                               forfeit=player, error=message, pairs=pairs,
                               final_state=state.to_dict() if record else None,
                               behavior=_behavior(behavior, state))
        if record:
            pairs.append((player, snapshot, action))
    return MatchResult(winner=state.winner(), capped=state.is_capped(), moves=state.move_number(),
                       pairs=pairs, final_state=state.to_dict() if record else None,
                       behavior=_behavior(behavior, state))


def _behavior(features: dict | None, state) -> list[dict[str, float]] | None:
    if not features:
        return None
    return [{name: float(fn(state, seat)) for name, (fn, _) in features.items()}
            for seat in (0, 1)]


@dataclass
class MatchSummary:
    """Counts over a batch, reported per player (not per seat)."""

    matches: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    wins_by_seat: list[list[int]] = field(default_factory=lambda: [[0, 0], [0, 0]])
    """Per player, its wins from seat 0 and from seat 1 (a program can win every match
    from one start and lose every one from the other)."""
    draws: int = 0
    capped: int = 0
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    total_moves: int = 0
    seconds: float = 0.0
    feature_sums: list[dict[str, float]] = field(default_factory=lambda: [{}, {}])
    per_match: list[dict] = field(default_factory=list)
    """Per-match details, in match order, where a game reports them (microRTS)."""
    first_error: list[str | None] = field(default_factory=lambda: [None, None])
    """Per player, the error of the first match (in match order) it forfeited."""

    @property
    def mean_moves(self) -> float:
        return self.total_moves / self.matches if self.matches else 0.0

    def behavior(self, player: int) -> dict[str, float]:
        """Mean of each behaviour feature of ``player`` over the matches."""
        return {k: v / self.matches for k, v in self.feature_sums[player].items()}

    def win_rate(self, player: int) -> float:
        return self.wins[player] / self.matches if self.matches else 0.0

    def record_win(self, order: Sequence[int], seat: int) -> None:
        """The player in ``seat`` (players by seat: ``order``) won a match."""
        self.wins[order[seat]] += 1
        self.wins_by_seat[order[seat]][seat] += 1

    def add(self, other: MatchSummary) -> None:
        self.matches += other.matches
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.wins_by_seat = [[a + b for a, b in zip(mine, theirs)]
                             for mine, theirs in zip(self.wins_by_seat, other.wins_by_seat)]
        self.draws += other.draws
        self.capped += other.capped
        self.forfeits = [a + b for a, b in zip(self.forfeits, other.forfeits)]
        self.total_moves += other.total_moves
        for mine, theirs in zip(self.feature_sums, other.feature_sums):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0.0) + v
        self.per_match += other.per_match
        self.first_error = [mine if mine is not None else theirs
                            for mine, theirs in zip(self.first_error, other.first_error)]


def seats_for(index: int) -> tuple[int, int]:
    """Players in (seat 0, seat 1) for match ``index``: odd matches swap seats."""
    return (1, 0) if index % 2 else (0, 1)


@dataclass(frozen=True)
class MatchJob:
    """Matches ``start..stop-1`` of the batch seeded ``seed`` between ``players[0]`` and
    ``players[1]``, seats alternating (``seats_for``); ``behavior`` (a game's
    ``FEATURES``) averages features per player; ``paired``: colour-swapped pairs on
    shared seeds (``opening_index``). The unit of work an engine plays."""

    game: Game
    players: tuple[Strategy, Strategy]
    seed: int
    start: int
    stop: int
    behavior: dict | None = None
    paired: bool = False

    @property
    def size(self) -> int:
        return self.stop - self.start


def play_job(job: MatchJob) -> MatchSummary:
    """A job's matches played on the game's states (the reference engine), summarised
    per player."""
    game, players, seed, behavior, paired = job.game, job.players, job.seed, job.behavior, \
        job.paired
    summary = MatchSummary()
    for index in range(job.start, job.stop):
        order = seats_for(index)
        result = play_match(game, (players[order[0]], players[order[1]]), seed, index,
                            behavior=behavior, paired=paired)
        if result.behavior is not None:
            for seat in (0, 1):
                sums = summary.feature_sums[order[seat]]
                for k, v in result.behavior[seat].items():
                    sums[k] = sums.get(k, 0.0) + v
        summary.matches += 1
        summary.total_moves += result.moves
        if result.winner is not None:
            summary.record_win(order, result.winner)
        elif result.capped:
            summary.capped += 1
        else:
            summary.draws += 1
        if result.forfeit is not None:
            summary.forfeits[order[result.forfeit]] += 1
            if summary.first_error[order[result.forfeit]] is None:
                summary.first_error[order[result.forfeit]] = f"match {index}: {result.error}"
    return summary


def play_matches(game: Game, players: Sequence[Strategy], n: int, seed: int,
                 map: Callable[[Callable, list], list] | None = None,
                 chunks: int | None = None, behavior: dict | None = None,
                 engine: str = "reference", paired: bool = False) -> MatchSummary:
    """Play ``n`` matches between ``players[0]`` and ``players[1]``, alternating seats.

    ``map`` is any ``map(func, jobs)`` (see ``games.backends``); the matches are cut
    into ``chunks`` equal contiguous jobs, or by default into about the backend's
    ``chunks_per_worker`` (else 8) per worker, shrinking towards the end
    (``guided_bounds``), so that players are shipped to a worker once per chunk,
    not once per match. ``behavior`` (a game's ``FEATURES``) averages behaviour
    features per player over the same matches. ``engine`` (``games.engines.ENGINES``:
    ``fast``, ``numpy``, ``reference``) picks among the engines the game declares
    (``EngineSpec``); every engine gives the same results. ``paired`` plays
    colour-swapped pairs on shared seeds (``opening_index``); ``n`` must then be even.
    """
    return play_many(game, [players], n, [seed], map, chunks, behavior, engine, paired)[0]


def play_many(game: Game, pairings: Sequence[Sequence[Strategy]], n: int,
              seeds: Sequence[int], map: Callable[[Callable, list], list] | None = None,
              chunks: int | None = None, behavior: dict | None = None,
              engine: str = "reference", paired: bool = False,
              seat: int | None = None) -> list[MatchSummary]:
    """``play_matches`` for several pairings at once, through one ``map`` call.

    ``seat`` (0 or 1) puts each pairing's first player in that seat in every match
    (matches ``seat``, ``seat + 2``, … of the batch: one start position, as a run
    that synthesizes for one side needs); None alternates seats.

    Why: one call per pairing ends in a barrier where workers wait for the last
    chunk; a whole batch (a GP population) in one call keeps every worker busy
    until the batch's last chunk. Each pairing's result is what ``play_matches``
    gives it alone (match seeds do not depend on chunking). ``chunks`` is the
    total for the batch; each pairing gets at least one.
    """
    from .backends import chunks_per_worker, workers_of
    from .engines import engines_for, play_jobs

    if n < 0:
        raise ValueError(f"number of matches must be >= 0, got {n}")
    check_paired(n, paired)
    if seat is not None and (seat not in (0, 1) or paired):
        raise ValueError(f"seat must be 0 or 1 and matches unpaired, got seat {seat!r}"
                         f"{' with paired matches' if paired else ''}")
    if len(pairings) != len(seeds):
        raise ValueError(f"{len(pairings)} pairings but {len(seeds)} seeds")
    for players in pairings:
        if len(players) != 2:
            raise ValueError(f"two players needed, got {len(players)}")
    engines = engines_for(game, engine)
    if paired and not all(e.plays_paired for e in engines):
        raise ValueError(f"game '{game.name}' plays whole matches on its "
                         "own engine, which has no paired (colour-swapped) matches")
    started = time.perf_counter()
    workers = workers_of(map)
    total = chunks or chunks_per_worker(map) * workers
    if chunks is None and len(pairings) == 1 and workers > 1:
        bounds = guided_bounds(n, total, workers)
    else:
        per_pairing = max(1, min(n, -(-total // max(1, len(pairings))))) if n else 1
        bounds = [n * i // per_pairing for i in range(per_pairing + 1)]
    spans = list(zip(bounds, bounds[1:]))
    if seat is not None:  # one job per match: the indices of one seat are not contiguous
        spans = [(seat + 2 * i, seat + 2 * i + 1) for i in range(n)]
    jobs, owners = [], []
    for k, (players, seed) in enumerate(zip(pairings, seeds)):
        for start, stop in spans:
            if start < stop:
                jobs.append(MatchJob(game, (players[0], players[1]), seed, start, stop,
                                     behavior, paired))
                owners.append(k)
    parts = play_jobs(jobs, engines, map)
    summaries = [MatchSummary() for _ in pairings]
    for owner, part in zip(owners, parts):
        summaries[owner].add(part)
    seconds = time.perf_counter() - started
    for summary in summaries:
        summary.seconds = seconds
    return summaries


def guided_bounds(n: int, chunks: int, workers: int) -> list[int]:
    """Chunk bounds for one pairing's ``n`` matches: large chunks first, small last.

    Why: one evaluation ends in a barrier, where the workers that finished wait for
    the last chunk. Each chunk takes ``1/(2·workers)`` of the matches still left
    (guided self-scheduling), down to ``n/(4·chunks)``, so the last chunks, and the
    wait, are small while the number of chunks stays near ``chunks``.
    """
    smallest = max(1, n // (4 * max(1, chunks)))
    bounds = [0]
    while bounds[-1] < n:
        left = n - bounds[-1]
        bounds.append(bounds[-1] + min(left, max(smallest, -(-left // (2 * workers)))))
    return bounds


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (good near 0 and 1, unlike Wald); the closed
    form, as ``scipy.stats.binomtest(...).proportion_ci(method="wilson")`` gives it,
    without importing scipy (a second of a short command's start)."""
    if n == 0:
        return (0.0, 1.0)
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p, z2 = successes / n, z * z
    center = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, center - half), min(1.0, center + half))
