"""microRTS matches: two players, seats alternating, a cycle cap and a wall-clock guard.

A player here is a *factory* (``spec -> Java AI``) so that each match gets fresh
AI objects in the worker process that plays it. COAC is not fully deterministic
(an unseeded ``Random``), so results are counts over matches.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..match import MatchSummary, seats_for
from .engine import cycle_cap, make_bot, map_path, start_jvm, unit_type_table


@dataclass(frozen=True)
class BotSpec:
    """A built-in Java bot, by name (picklable: built inside the worker)."""

    name: str

    def build(self, utt):
        return make_bot(self.name, utt)


def play_microrts_match(map_name: str, seats, max_cycles: int | None = None,
                        max_seconds: float = 600.0) -> tuple[int | None, int, bool]:
    """(winner seat or None, cycles, timed_out) of one match."""
    start_jvm()
    from rts import GameState, PhysicalGameState

    utt = unit_type_table()
    pgs = PhysicalGameState.load(str(map_path(map_name)), utt)
    gs = GameState(pgs, utt)
    ais = [spec.build(utt) for spec in seats]
    cap = max_cycles or cycle_cap(map_name)
    started = time.perf_counter()
    cycles = 0
    while not gs.gameover() and cycles < cap:
        if time.perf_counter() - started > max_seconds:
            return None, cycles, True
        actions = [ais[0].getAction(0, gs), ais[1].getAction(1, gs)]
        gs.issueSafe(actions[0])
        gs.issueSafe(actions[1])
        gs.cycle()
        cycles += 1
    winner = int(gs.winner())
    return (winner if winner in (0, 1) else None), cycles, False


def _play_chunk(job) -> MatchSummary:
    map_name, players, start, stop, max_cycles, max_seconds = job
    summary = MatchSummary()
    for index in range(start, stop):
        order = seats_for(index)
        winner, cycles, timed_out = play_microrts_match(
            map_name, (players[order[0]], players[order[1]]), max_cycles, max_seconds)
        summary.matches += 1
        summary.total_moves += cycles
        if winner is not None:
            summary.wins[order[winner]] += 1
        elif timed_out or cycles >= (max_cycles or 0):
            summary.capped += 1
        else:
            summary.draws += 1
    return summary


def play_microrts_matches(map_name: str, players, n: int, map=None,
                          max_cycles: int | None = None,
                          max_seconds: float = 600.0) -> MatchSummary:
    """``n`` matches, odd ones with seats swapped; results per player (``moves`` = cycles)."""
    started = time.perf_counter()
    workers = getattr(map, "workers", 1) if map is not None else 1
    chunks = max(1, min(n, workers))
    bounds = [n * i // chunks for i in range(chunks + 1)]
    jobs = [(map_name, tuple(players), bounds[i], bounds[i + 1], max_cycles, max_seconds)
            for i in range(chunks) if bounds[i] < bounds[i + 1]]
    parts = (map or (lambda f, js: [f(j) for j in js]))(_play_chunk, jobs)
    summary = MatchSummary()
    for part in parts:
        summary.add(part)
    summary.seconds = time.perf_counter() - started
    return summary
