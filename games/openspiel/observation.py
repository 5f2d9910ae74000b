"""What the observation tensor of an OpenSpiel game holds, derived from play.

The observation language (``gp.languages.openspiel``) reads a state through
``state.observation_tensor(seat)`` laid out as planes × rows × columns. Which
planes are *mine* and which *theirs* is not written in OpenSpiel's metadata, so it
is derived once per game from seeded random playouts: a plane whose total grows
only on the viewer's own moves is the viewer's (a stone placed), one whose total
grows only on the opponent's moves is the opponent's; planes whose totals never
grow (pieces that move) are judged by the cells that turn on instead. The k-th
plane of the viewer pairs with the k-th of the opponent. *Forward* is the row
direction from the viewer's pieces towards the opponent's at the start (down
the rows when the start shows none). Every derivation is by seed 0: the same
layout in any process.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from .game import OpenSpielGame, sample_chance

PLAYOUTS = 12
MOVES_PER_PLAYOUT = 150


@dataclass(frozen=True)
class Layout:
    """The tensor's shape and, per viewing seat, its own, the opponent's and other planes.

    Args:
        shape: (planes, rows, columns) the tensor is read as.
        mine: per seat, the planes that seat owns, in order.
        theirs: per seat, the planes the opponent owns, paired with ``mine``.
        other: per seat, the planes neither owns (empty cells, for instance).
        forward: per seat, +1 if the seat's pieces advance down the rows, -1 if up.
    """

    shape: tuple[int, int, int]
    mine: tuple[tuple[int, ...], tuple[int, ...]]
    theirs: tuple[tuple[int, ...], tuple[int, ...]]
    other: tuple[tuple[int, ...], tuple[int, ...]]
    forward: tuple[int, int]


def tensor_shape(shape) -> tuple[int, int, int]:
    """OpenSpiel's tensor shape as (planes, rows, columns): a vector is one row."""
    dims = [int(d) for d in shape]
    if len(dims) == 1:
        return (1, 1, dims[0])
    if len(dims) == 2:
        return (dims[0], 1, dims[1])
    return (int(np.prod(dims[:-2])), dims[-2], dims[-1])


def observation(inner, seat: int, shape: tuple[int, int, int]) -> np.ndarray:
    return np.asarray(inner.observation_tensor(seat), dtype=float).reshape(shape)


_LAYOUTS: dict[tuple, Layout] = {}


def layout_of(game: OpenSpielGame) -> Layout:
    """The game's layout (derived on first use, then cached per game and parameters)."""
    key = (game.short_name, tuple(sorted(game.params.items())))
    if key not in _LAYOUTS:
        _LAYOUTS[key] = derive_layout(game)
    return _LAYOUTS[key]


def derive_layout(game: OpenSpielGame, playouts: int = PLAYOUTS, seed: int = 0) -> Layout:
    if not game.type.provides_observation_tensor:
        raise ValueError(f"{game.name} has no observation tensor: the observation "
                         "language cannot read it")
    shape = tensor_shape(game.pyspiel_game.observation_tensor_shape())
    planes = shape[0]
    # grew[viewer][plane][own move?], lit[viewer][plane][own move?]
    grew = np.zeros((2, planes, 2), dtype=int)
    lit = np.zeros((2, planes, 2), dtype=int)
    rng = random.Random(seed)
    for _ in range(playouts):
        inner = game.pyspiel_game.new_initial_state()
        for _move in range(MOVES_PER_PLAYOUT):
            while inner.is_chance_node():
                inner.apply_action(sample_chance(inner, rng))
            if inner.is_terminal():
                break
            mover = inner.current_player()
            before = [observation(inner, v, shape) for v in (0, 1)]
            inner.apply_action(rng.choice(inner.legal_actions()))
            while inner.is_chance_node():
                inner.apply_action(sample_chance(inner, rng))
            for viewer in (0, 1):
                after = observation(inner, viewer, shape)
                own = 0 if mover == viewer else 1
                grew[viewer, :, own] += after.sum(axis=(1, 2)) > before[viewer].sum(axis=(1, 2)) \
                    + 1e-9
                lit[viewer, :, own] += ((after > 0) & (before[viewer] <= 0)).any(axis=(1, 2))
    mine, theirs, other, forward = [], [], [], []
    start = game.pyspiel_game.new_initial_state()
    while start.is_chance_node():
        start.apply_action(sample_chance(start, random.Random(seed)))
    for viewer in (0, 1):
        owner = []
        for plane in range(planes):
            evidence = grew[viewer, plane] if grew[viewer, plane].any() else lit[viewer, plane]
            owner.append(0 if evidence[0] and not evidence[1] else
                         1 if evidence[1] and not evidence[0] else None)
        own = tuple(p for p in range(planes) if owner[p] == 0)
        opp = tuple(p for p in range(planes) if owner[p] == 1)
        pairs = min(len(own), len(opp))
        mine.append(own[:pairs])
        theirs.append(opp[:pairs])
        other.append(tuple(p for p in range(planes)
                           if p not in own[:pairs] and p not in opp[:pairs]))
        forward.append(_forward(observation(start, viewer, shape), own, opp))
    return Layout(shape=shape, mine=(mine[0], mine[1]), theirs=(theirs[0], theirs[1]),
                  other=(other[0], other[1]), forward=(forward[0], forward[1]))


def _forward(tensor: np.ndarray, own: tuple[int, ...], opp: tuple[int, ...]) -> int:
    rows = np.arange(tensor.shape[1], dtype=float)

    def mean_row(planes):
        weights = tensor[list(planes)].sum(axis=(0, 2)) if planes else np.zeros_like(rows)
        return (weights * rows).sum() / weights.sum() if weights.sum() > 0 else None

    mine, theirs = mean_row(own), mean_row(opp)
    return -1 if mine is not None and theirs is not None and mine > theirs else 1
