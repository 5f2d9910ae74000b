"""Scoring a best response against chosen reference opponents, one score per opponent.

Double Oracle and 2L score each candidate against a set of earlier programs (the
*reference opponents*, the support of a meta-strategy): the objective is a weighted
sum of the candidate's utility against each, and 2L also reads the per-opponent
utilities of every candidate the search scores. ``ReferenceOpponents`` is such a
target; ``ReferenceWinRate`` (for SA and hill climbing) and
``ReferenceBehaviourWinRate`` (for HSS) score it, and ``target_win_rate`` chooses the
fitness of any target an oracle may be given.

The utility of a candidate against one opponent is its score per match over
``matches`` matches, seats alternating: a win 1, a draw or capped match ½, a loss 0
(the restricted game is constant-sum; a language whose failing programs score 0
scores the opponent's matches 0 where the candidate forfeited one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.match import MatchSummary, play_many
from gp.fitness import PoolWinRate, WinRate

from .behaviour import BehaviourWinRate


def utility(summary: MatchSummary) -> float:
    """Player 0's score per match: win 1, draw or capped ½, loss 0."""
    even = summary.matches - summary.wins[0] - summary.wins[1]
    return (summary.wins[0] + 0.5 * even) / summary.matches


@dataclass(frozen=True)
class ReferenceOpponents:
    """The opponents a best response answers, their weights, and who reads the scores.

    Args:
        players: the opponents (players).
        weights: one per opponent, >= 0, not all 0; the objective is
            ``Σ w_i u(p, σ_i) / Σ w_i`` (equal weights: the mean, i.e. the unweighted sum
            divided by the number of opponents).
        observe: called as ``observe(text, utilities)`` each time a program is scored
            (cached repeats too), ``utilities`` in the order of ``players``.
    """

    players: Sequence
    weights: Sequence[float]
    observe: Callable[[str, list[float]], None] | None = None

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("reference opponents: at least one player is needed")
        if len(self.weights) != len(self.players):
            raise ValueError(f"reference opponents: {len(self.players)} players but "
                             f"{len(self.weights)} weights")
        if min(self.weights) < 0 or sum(self.weights) <= 0:
            raise ValueError(f"reference opponents: weights must be >= 0 and not all 0, "
                             f"got {list(self.weights)}")

    def __len__(self) -> int:
        return len(self.players)


class ReferenceWinRate(PoolWinRate):
    """The weighted mean of a program's utilities against reference opponents, each
    over ``matches`` matches on the program's batch seed (as ``PoolWinRate``: one ``map``
    call for all opponents); ``utilities[text]`` keeps them per opponent."""

    name = "psi"

    def __init__(self, game, reference: ReferenceOpponents, strategy_class, **kwargs) -> None:
        super().__init__(game, list(reference.players), strategy_class, **kwargs)
        total = float(sum(reference.weights))
        self.weights = [w / total for w in reference.weights]
        self.observe = reference.observe
        self.utilities: dict[str, list[float]] = {}

    def play_seeded(self, players: list, seeds: list[int]) -> list[MatchSummary]:
        k = len(self.targets)
        parts = play_many(self.game, [(p, t) for p in players for t in self.targets],
                          self.matches, [s for s in seeds for _ in range(k)], map=self.map,
                          behavior=self.features(), engine=self.engine, paired=self.paired,
                          seat=self.seat)
        summaries = []
        for i, player in enumerate(players):
            own = parts[i * k:(i + 1) * k]
            zero = self.failure_scores_zero
            self.utilities[player.text] = [0.0 if zero and part.forfeits[0] else utility(part)
                                           for part in own]
            total = MatchSummary()
            for part in own:
                total.add(part)
            total.seconds = max(part.seconds for part in own)
            summaries.append(total)
        return summaries

    def many(self, programs: list) -> list[float]:
        players = [self.strategy_class(program) for program in programs]
        self.play_many(programs)
        values = []
        for player in players:
            scores = self.utilities[player.text]
            if self.observe is not None:
                self.observe(player.text, list(scores))
            values.append(sum(w * u for w, u in zip(self.weights, scores)))
        return values

    def __call__(self, program) -> float:
        return self.many([program])[0]


class ReferenceBehaviourWinRate(BehaviourWinRate):
    """HSS's (value, behaviour features) against reference opponents: the value
    ``ReferenceWinRate``'s, the features averaged over the same matches."""

    def __init__(self, game, reference: ReferenceOpponents, strategy_class, features: dict,
                 names, matches: int, seed: int, map=None, engine: str = "fast",
                 seat: int | None = None) -> None:
        super().__init__(game, list(reference.players), strategy_class, features, names,
                         matches, seed, map, engine=engine, seat=seat)
        self.psi = ReferenceWinRate(game, reference, strategy_class, matches=matches,
                                    seed=seed, map=map, engine=engine, seat=seat,
                                    behavior={n: features[n] for n in self.names})

    def many(self, texts: list[str]) -> list[tuple[float, list[float]]]:
        values = self.psi.many(texts)
        results = []
        for value, summary in zip(values, self.psi.play_many(texts)):  # cached: no matches
            means = summary.behavior(0)
            results.append((value, [means[n] for n in self.names]))
        return results


def target_win_rate(game, target, strategy_class, **kwargs) -> WinRate:
    """The fitness of a best response to ``target``: reference opponents
    (``ReferenceWinRate``), a list of players (``PoolWinRate``, the mean) or one player."""
    if isinstance(target, ReferenceOpponents):
        return ReferenceWinRate(game, target, strategy_class, **kwargs)
    if isinstance(target, list):
        return PoolWinRate(game, target, strategy_class, **kwargs)
    return WinRate(game, target, strategy_class, **kwargs)


def target_behaviour_win_rate(game, target, strategy_class, features: dict, names, matches: int,
                              seed: int, map=None, engine: str = "fast",
                              seat: int | None = None) -> BehaviourWinRate:
    """HSS's fitness of a best response to ``target`` (as ``target_win_rate``)."""
    cls = ReferenceBehaviourWinRate if isinstance(target, ReferenceOpponents) \
        else BehaviourWinRate
    return cls(game, target, strategy_class, features, names, matches, seed, map, engine=engine,
               seat=seat)


def target_size(target) -> int:
    """How many opponents a target's value sums over (a sampled mixture: one per match)."""
    return len(target) if isinstance(target, (list, ReferenceOpponents)) else 1
