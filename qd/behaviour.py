"""Ψ with behaviour features from the same matches: what MAP-Elites and HSS score a
program by. Apart from ``qd.map_elites`` so that a module that only scores programs
does not import pyribs."""

from __future__ import annotations

from gp.fitness import PoolWinRate, WinRate, program_seed, score_of


class BehaviourWinRate:
    """Ψ with behaviour: (win rate against ``target``, behaviour features) from the same matches
    (``WinRate``'s, with the features averaged over them). A list of targets is a
    pool: ``matches`` against each, the score their mean (``PoolWinRate``). ``seat``: the
    program's seat in every match (``WinRate``), or None to alternate."""

    def __init__(self, game, target, strategy_class, features: dict, names, matches: int,
                 seed: int, map=None, engine: str = "fast", seat: int | None = None) -> None:
        self.names = list(names)
        rate = PoolWinRate if isinstance(target, list) else WinRate
        self.psi = rate(game, target, strategy_class, matches=matches, seed=seed, map=map,
                        behavior={n: features[n] for n in names}, engine=engine, seat=seat)
        self.cache: dict[str, tuple[float, list[float]]] = {}

    def __call__(self, text: str) -> tuple[float, list[float]]:
        return self.many([text])[0]

    def remember(self, text: str, result: tuple[float, list[float]]) -> None:
        """A logged result, replayed on resume: a later repeat of the program is then
        answered from the cache, as in the run that logged it (recomputing it in
        another batch could sum the features in another order)."""
        self.cache[text] = (result[0], list(result[1]))

    def many(self, texts: list[str]) -> list[tuple[float, list[float]]]:
        """A batch's matches through one ``map`` call (``WinRate.play_many``), so
        every worker stays busy across the batch's programs."""
        fresh = [t for t in dict.fromkeys(texts) if t not in self.cache]
        for text, summary in zip(fresh, self.psi.play_many(fresh)):
            means = summary.behavior(0)
            self.cache[text] = (score_of(self.psi.game, summary), [means[n] for n in self.names])
        return [self.cache[t] for t in texts]

    def sample_seed(self, text: str, k: int) -> int:
        """The batch seed of sample ``k`` >= 1 of a program: fresh matches, the same in
        every process."""
        return program_seed(self.psi.seed, f"{text}\n# sample {k}")

    def sample_many(self, requests: list[tuple[str, int]]) -> list[tuple[float, list[float]]]:
        """Sample ``k`` of each ``(text, k)``: k = 0 is the program's evaluation (``many``),
        k >= 1 the same number of matches on the seed ``sample_seed(text, k)`` (not
        cached). All of them through one ``map`` call."""
        first = self.many([t for t, k in requests if k == 0])
        later = [(t, k) for t, k in requests if k > 0]
        summaries = self.psi.play_seeded([self.psi.strategy_class(t) for t, _ in later],
                                         [self.sample_seed(t, k) for t, k in later]) \
            if later else []
        firsts, others = iter(first), iter(summaries)
        out = []
        for _, k in requests:
            if k == 0:
                out.append(next(firsts))
            else:
                summary = next(others)
                means = summary.behavior(0)
                out.append((score_of(self.psi.game, summary), [means[n] for n in self.names]))
        return out
