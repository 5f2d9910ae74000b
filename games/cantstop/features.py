"""Behaviour features of a Can't Stop player, read off the end of each match.

They come from the matches that measure a program's win rate, at no extra cost
(the state keeps per-seat counters). Each game declares its features next to its
rules as ``FEATURES``: name -> (function(state, seat) -> float, (low, high)).
"""

from __future__ import annotations

from .rules import CantStopState


def markers_per_stop(state: CantStopState, seat: int) -> float:
    """Mean cells banked per stop: how far the player pushes before stopping."""
    return state.banked[seat] / state.stops[seat] if state.stops[seat] else 0.0


def bust_rate(state: CantStopState, seat: int) -> float:
    """Share of the player's turns that ended in a bust."""
    return state.busts[seat] / state.turns[seat] if state.turns[seat] else 0.0


def turns(state: CantStopState, seat: int) -> float:
    """Turns the player took in the match."""
    return float(state.turns[seat])


def outer_preference(state: CantStopState, seat: int) -> float:
    """Share of the player's advances made in the outer columns 2–4 and 10–12."""
    return state.outer[seat] / state.advances[seat] if state.advances[seat] else 0.0


FEATURES = {
    "markers_per_stop": (markers_per_stop, (0.0, 12.0)),
    "bust_rate": (bust_rate, (0.0, 1.0)),
    "turns": (turns, (0.0, 80.0)),
    "outer_preference": (outer_preference, (0.0, 1.0)),
}
