"""Hand-made Can't Stop positions for rules and strategy tests."""

from __future__ import annotations

import random

from games.cantstop import COLUMNS, CantStopState
from games.cantstop.rules import PHASE_COLUMN, PHASE_ROLL_OR_STOP


def position(player: int = 0, mine: dict | None = None, theirs: dict | None = None,
             neutral: dict | None = None, claimed: dict | None = None, dice=None,
             order: list | None = None, seed: int = 0, state_class=CantStopState,
             **extra) -> CantStopState:
    """A position for ``player``: ``mine``/``theirs`` are {column: cells secured};
    ``extra`` snapshot fields go to ``state_class.from_dict`` (e.g. a rule variant's)."""
    markers = [[0] * 11, [0] * 11]
    for c, h in (mine or {}).items():
        markers[player][c - 2] = h
    for c, h in (theirs or {}).items():
        markers[1 - player][c - 2] = h
    neutral = neutral or {}
    return state_class.from_dict({
        "player": player,
        "phase": PHASE_COLUMN if dice is not None else PHASE_ROLL_OR_STOP,
        "dice": list(dice or ()),
        "markers": markers,
        "neutral": [neutral.get(c, 0) for c in COLUMNS],
        "neutral_order": order if order is not None else sorted(neutral),
        "claimed": [(claimed or {}).get(c, -1) for c in COLUMNS],
        **extra,
    }, rng=random.Random(seed))
