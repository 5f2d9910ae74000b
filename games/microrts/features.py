"""microRTS behaviour features (Aleixo 2023): what a player produced and gathered.

Counted by the match runner from unit censuses (``games.microrts.match``), so a
program's features come from the matches that compute its fitness. ``FEATURES``
maps each name to (None — no per-state function —, (low, high)); ``LEVELS`` are
the reference values HSS snaps each feature to.
"""

from __future__ import annotations

from .match import PRODUCED

LEVELS = (0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 25, 35, 50)
FEATURES = {**{f"produced_{t}": (None, (0.0, 50.0)) for t in PRODUCED},
            "resources": (None, (0.0, 50.0))}
