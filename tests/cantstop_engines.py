"""The reference engine's matches, as the fast engines' tests compare them."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.match import MatchJob, match_seeds, seats_for


def reference_states(game, players, seed: int, start: int, stop: int,
                     watch: Callable[[int, Any], None] | None = None) -> list:
    """Final states of the reference engine, exactly as ``play_match`` plays them
    (``watch(index, state)`` sees every state after an action)."""
    out = []
    for index in range(start, stop):
        order = seats_for(index)
        seats = (players[order[0]], players[order[1]])
        chance, *player_seeds = match_seeds(seed, index)
        for player, player_seed in zip(seats, player_seeds):
            if hasattr(player, "reset"):
                player.reset(player_seed)
        state = game.new_initial_state(random.Random(chance))
        while state.current_player() >= 0:
            state.apply_action(seats[state.current_player()](state))
            if watch is not None:
                watch(index, state)
        out.append(state)
    return out


def snapshot(state, claims: bool = True) -> dict:
    """Everything a match leaves: board, neutral order, dice, phase, per-seat counters
    (``claims``: the columns' claim order, which the numpy engine does not keep)."""
    out = dict(state.to_dict(), turns=state.turns, busts=state.busts, stops=state.stops,
               banked=state.banked, advances=state.advances, outer=state.outer,
               last_player=state.last_player)
    if claims:
        out["claims"] = state.claims
    return out


def several_pairing_jobs(game, programs: list, ga, rnd, features) -> list:
    """``MatchJob``s of several pairings, seeds, match ranges and a features dict:
    the batch an engine's ``play_chunks`` must answer as ``play_job`` does."""
    jobs = [MatchJob(game, (p, ga), 100 + k, 0, 70, features) for k, p in enumerate(programs)]
    jobs += [MatchJob(game, (rnd, ga), 7, 0, 70, features),
             MatchJob(game, (programs[0], rnd), 8, 70, 140, features)]
    return jobs
