"""A small noisy QD problem whose true fitness and behaviour are known.

A solution is four values in {0, 0.1, ..., 1} (text ``"0.1,0.5,1,0"``). Its true
behaviour is (mean of the first two, mean of the last two), its true fitness
1 - (|x0 - x1| + |x2 - x3|) / 2: every cell of a grid over the behaviour space
holds solutions of every fitness, and the best of each cell has fitness near 1.
An evaluation adds Gaussian noise to both (fitness σ ``noise``, each behaviour σ
``measure_noise``), drawn from the run seed, the solution and the sample number,
so a run is deterministic and sample k of a solution is the same in any process.
"""

from __future__ import annotations

import hashlib
import random

from games.vectors import parse_vector, vector_text

VALUES = tuple(round(0.1 * i, 1) for i in range(11))
FEATURES = ["left", "right"]
RANGES = [(0.0, 1.0), (0.0, 1.0)]


def truth(text: str) -> tuple[float, list[float]]:
    x = parse_vector(text, 4)
    return 1.0 - (abs(x[0] - x[1]) + abs(x[2] - x[3])) / 2, [(x[0] + x[1]) / 2,
                                                           (x[2] + x[3]) / 2]


class NoisyProblem:
    """``truth`` plus noise; ``many`` (sample 0, cached by text like the game metrics)
    and ``sample_many`` (sample k of each text) as ``qd.resampling`` needs them.

    Args:
        seed: the run seed the noise is drawn from.
        noise: σ of the fitness noise.
        measure_noise: σ of each behaviour's noise.
    """

    def __init__(self, *, seed: int, noise: float = 0.25, measure_noise: float = 0.05) -> None:
        self.seed, self.noise, self.measure_noise = seed, noise, measure_noise
        self.cache: dict[str, tuple[float, list[float]]] = {}
        self.samples = 0

    def draw(self, text: str, k: int) -> tuple[float, list[float]]:
        digest = hashlib.sha256(f"{self.seed}\n{text}\n{k}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "little"))
        fitness, measures = truth(text)
        self.samples += 1
        return (fitness + rng.gauss(0, self.noise),
                [m + rng.gauss(0, self.measure_noise) for m in measures])

    def __call__(self, text: str) -> tuple[float, list[float]]:
        return self.many([text])[0]

    def many(self, texts):
        for text in texts:
            if text not in self.cache:
                self.cache[text] = self.draw(text, 0)
        return [self.cache[t] for t in texts]

    def sample_many(self, requests):
        return [self.many([t])[0] if k == 0 else self.draw(t, k) for t, k in requests]


def random_solution(rng: random.Random) -> str:
    return vector_text([rng.choice(VALUES) for _ in range(4)])
