"""MAP-Elites over vectors of discrete values instead of programs (Perez-Liebana et al. 2021,
Algorithm 1).

A game whose QD search is over a parameter vector (Tribes: the 11 Research and
Spawn script weights of P-MCTS(PU)) declares a ``games.vectors.VectorSpace`` in its
``QDSpec.space``; ``stratsynth qd GAME`` then searches that space with the
same archive, evaluator log, resume and files as a program archive. A solution
travels as text (``"0,0.25,1,..."``), so ``qd.archive.ProgramArchive``,
``gp.evaluator.Evaluator`` (``log.csv``, replay after a kill) and ``qd-check``
handle it unchanged.

``AlgorithmOneEmitter`` is the play-styles paper's Algorithm 1 as a pyribs emitter: the N_W
one-hot vectors first, then R_M uniformly random vectors, then a stochastic hill
climber (a uniformly chosen elite with one uniformly chosen coordinate set to
another allowed value). It draws from its own ``random.Random(seed)`` and the
archive's contents only, so a run replayed from its log asks the same vectors.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from ribs.emitters import EmitterBase

from games.vectors import VectorSpace, parse_vector, vector_text


def emitter(space: VectorSpace, archive, seed: int, batch_size: int = 1
            ) -> AlgorithmOneEmitter:
    """Algorithm 1 over a game's vector space (any object with ``names``, ``values``
    and ``random_init``, as ``games.vectors.VectorSpace`` declares them)."""
    return AlgorithmOneEmitter(archive, len(space.names), space.values, space.random_init,
                               seed, batch_size)


class AlgorithmOneEmitter(EmitterBase):
    """The play-styles paper's Algorithm 1; ``ask`` returns ``batch_size`` solution texts, each
    from the phase its position in the run falls in (one-hot, random, hill climb)."""

    def __init__(self, archive, n: int, values: Sequence[float], random_init: int = 40,
                 seed: int = 0, batch_size: int = 1) -> None:
        super().__init__(archive, solution_dim=(), bounds=None, lower_bounds=None,
                         upper_bounds=None)
        if 1.0 not in values or 0.0 not in values:
            raise ValueError("Algorithm 1's one-hot vectors need the values 0 and 1")
        self.n, self.values = n, tuple(float(v) for v in values)
        self.random_init, self.batch_size = random_init, batch_size
        self.rng = random.Random(seed)
        self.asked = 0

    def phase(self) -> str:
        if self.asked < self.n:
            return "one-hot"
        if self.asked < self.n + self.random_init:
            return "random"
        return "hill-climb"

    def next_vector(self) -> tuple[float, ...]:
        phase = self.phase()
        if phase == "one-hot":
            w = [0.0] * self.n
            w[self.asked] = 1.0
        elif phase == "random" or self.archive.empty:
            w = [self.rng.choice(self.values) for _ in range(self.n)]
        else:
            elites = self.archive.data("solution")
            w = list(parse_vector(elites[self.rng.randrange(len(elites))], self.n))
            i = self.rng.randrange(self.n)
            w[i] = self.rng.choice([v for v in self.values if v != w[i]])
        self.asked += 1
        return tuple(w)

    def ask(self) -> np.ndarray:
        out = np.empty(self.batch_size, dtype=object)
        for i in range(self.batch_size):
            out[i] = vector_text(self.next_vector())
        return out

    def tell(self, solution, objective, measures, add_info, **fields) -> None:
        """Algorithm 1 learns nothing from the results beyond the archive itself."""


__all__ = ["AlgorithmOneEmitter", "VectorSpace", "emitter", "parse_vector", "vector_text"]
