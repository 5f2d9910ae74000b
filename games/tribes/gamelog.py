"""Play one Tribes game and log what seed 002 measures.

Per seat: final score, technologies (count and fraction of the 24), cities,
production, units; attacks, spawns per unit type, and per round the number of
technologies researched and tiles owned (for the research-progress and
tile-dominance slopes of MAP-Elites use case III); plus the winner and the round
it was won in. Table I of seed 002 reports win rate, score, technologies, cities
and production from such logs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from .constants import ARCHER, CATAPULT, DEFENDER, KNIGHT, NUM_TECHS, SWORDMAN, UNIT_NAMES
from .rules import STAT_ATTACKS, Tribes, TribesState


def play_logged(game: Tribes, seats: Sequence[Any], seed: int,
                level: int | str | None = None) -> dict[str, Any]:
    """Play one game (players reset with seeds derived from ``seed``) and return its log."""
    rng = random.Random(seed)
    if level is not None:
        game = Tribes(level=level, size=game.size, turn_limit=game.turn_limit,
                      rules=game.rules)
    state = game.new_initial_state(random.Random(rng.getrandbits(64)))
    for seat, player in enumerate(seats):
        if hasattr(player, "reset"):
            player.reset(rng.getrandbits(63) ^ seat)
    techs: list[list[int]] = [[], []]
    tiles: list[list[int]] = [[], []]
    round_seen = -1
    while not state.is_terminal():
        if state.turn != round_seen:
            round_seen = state.turn
            for p in (0, 1):
                techs[p].append(state.num_techs(p))
                tiles[p].append(state.num_tiles(p))
        state.apply_action(seats[state.current_player()](state))
    return log_of(state, techs, tiles)


def slope(series: Sequence[float]) -> float:
    """Least-squares slope of a per-round series (0 for fewer than two points)."""
    if len(series) < 2:
        return 0.0
    x = np.arange(len(series), dtype=float)
    return float(np.polyfit(x, np.asarray(series, dtype=float), 1)[0])


def log_of(state: TribesState, techs: Sequence[Sequence[int]],
           tiles: Sequence[Sequence[int]]) -> dict[str, Any]:
    seats = []
    for p in (0, 1):
        stats = state.stats[p]
        spawns = {UNIT_NAMES[u]: stats[u] for u in range(8)}
        seats.append({
            "score": state.score[p],
            "techs": state.num_techs(p),
            "techs_fraction": state.num_techs(p) / NUM_TECHS,
            "cities": len(state.cities_of(p)),
            "production": state.production(p),
            "units": len(state.units_of(p)),
            "attacks": stats[STAT_ATTACKS],
            "spawns": spawns,
            "defender_spawns": stats[DEFENDER],
            "support_ranged_minus_melee": stats[ARCHER] + stats[CATAPULT]
            - stats[SWORDMAN] - stats[KNIGHT],
            "research_slope": slope(techs[p]),
            "tile_slope": slope(tiles[p]),
        })
    return {"level": state.b.level.seed, "winner": state.winner(), "rounds": state.turn,
            "win_round": state.turn if state.winner() is not None else None,
            "moves": state.moves, "seats": seats}
