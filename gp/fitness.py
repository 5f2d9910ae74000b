"""Fitness functions for synthesized programs.

Ψ (``WinRate``) is the win rate of a program against a target strategy over n
matches with alternating seats (the sketch-learning paper: 1000 matches against GA). Each
evaluation's seed is derived from the run seed and the program text, never from
the worker, so results do not depend on the backend; values are cached by
program text.

Paired Ψ (``paired=True``) plays the matches in colour-swapped pairs on one
opening (``games.match.opening_index``): matches 2k and 2k+1 share the chance
seed (dice, random opening plies) with the seats swapped, so a program that plays
as its opponent does scores exactly the game's ½ on a deterministic game, and the
luck of the openings cancels within each pair. With one opening per match, a copy
of the target can score far from ½ (a deterministic agent scored 0.69 against
itself over 8 matches). ``margin_weight`` > 0 adds that times the program's mean
final margin, the game object's ``margin(state, seat)`` in [-1, 1] (e.g. a
material lead), as a tie-break among equal Ψ: the weight must stay below half of
Ψ's step (``resolution``), so that it never reorders programs whose Ψ differ.

A language whose programs may fail at run time and that scores such a program 0,
as the sketch-learning paper's reference code does (its strategy class sets
``failure_scores_zero``), gets Ψ = 0 from any evaluation in which the program
forfeited a match; each such evaluation is logged once (logger
``stratsynth.fitness`` and, in a run, ``failures.log``) with the program and error.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from games.api import draw_value, failure_scores_zero, margin_of
from games.engines import check_engine
from games.match import MatchSummary, check_paired, play_many

log = logging.getLogger("stratsynth.fitness")


def program_seed(run_seed: int, text: str) -> int:
    """A 63-bit seed from the run seed and the program text (stable across processes)."""
    digest = hashlib.sha256(f"{run_seed}\n{text}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def uncached(players: list, cache: dict[str, Any]) -> dict[str, Any]:
    """Program text -> the first of ``players`` with it, for texts ``cache`` lacks: a
    batch plays each distinct new program once."""
    fresh: dict[str, Any] = {}
    for player in players:
        if player.text not in cache:
            fresh.setdefault(player.text, player)
    return fresh


MARGIN = "_margin"
"""Behaviour-feature key under which Ψ averages the game's ``margin`` (tie-break)."""


class WinRate:
    """Ψ: wins of the program (seat-alternating) over ``matches`` against ``target``;
    ``paired``: in colour-swapped pairs on one opening each; ``margin_weight``: plus
    that times the mean final ``game.margin`` (a tie-break below Ψ's step); ``engine``:
    which of the game's engines plays (``games.engines.ENGINES``; same results on
    each, ``fast`` the fastest); ``seat``: the program in that seat (0 or 1) in every
    match, one start position (``games.match.play_many``), instead of alternating."""

    name = "psi"

    def __init__(self, game, target, strategy_class, matches: int = 1000, seed: int = 0,
                 map: Callable | None = None, behavior: dict | None = None,
                 engine: str = "fast", failure_log: Any = None, paired: bool = False,
                 margin_weight: float = 0.0, common_openings: bool = False,
                 seat: int | None = None) -> None:
        if matches < 1:
            raise ValueError(f"matches must be >= 1, got {matches}")
        check_paired(matches, paired)
        self.paired = paired
        self.seat = seat  # the program's seat in every match (one start position), or None
        self.common_openings = common_openings  # every program on the run seed's matches
        self.game = game
        self.target = target
        self.strategy_class = strategy_class
        self.matches = matches
        self.seed = seed
        self.map = map
        self.behavior = behavior  # features to average over the matches (``play_many``)
        self.engine = check_engine(engine)
        self.cache: dict[str, MatchSummary] = {}
        self.evaluations = 0
        self.failure_log = failure_log  # a file to append failing programs to, or None
        self.failures = 0
        self.margin_weight = float(margin_weight)
        if self.margin_weight:
            check_margin_weight(game, self.margin_weight, self.resolution)

    @property
    def resolution(self) -> float:
        """Smallest step of Ψ: 1/matches, half that where a draw scores ½."""
        return (0.5 if draw_value(self.game) else 1.0) / self.matches

    def features(self) -> dict | None:
        """Behaviour features the matches average: the caller's, and the game's margin
        when it breaks ties."""
        if not self.margin_weight:
            return self.behavior
        return {**(self.behavior or {}), MARGIN: (self.game.margin, (-1.0, 1.0))}

    def seed_of(self, text: str) -> int:
        """A program's batch seed: from the run seed and its text, or with
        ``common_openings`` the run seed itself (every program meets the same openings
        and dice: common random numbers)."""
        return self.seed if self.common_openings else program_seed(self.seed, text)

    def play_seeded(self, players: list, seeds: list[int]) -> list[MatchSummary]:
        """Each player's matches against the target on its own batch seed, through one
        ``map`` call, paired and with the margin as configured."""
        return play_many(self.game, [(p, self.target) for p in players], self.matches, seeds,
                         map=self.map, behavior=self.features(), engine=self.engine,
                         paired=self.paired, seat=self.seat)

    def play(self, program: Any) -> MatchSummary:
        """The program's matches, cached by program text (cloning scores and behaviour
        features read the same matches)."""
        return self.play_many([program])[0]

    def play_many(self, programs: list) -> list[MatchSummary]:
        """Several programs' matches through one ``map`` call (see ``play_many``);
        each result is the one ``play`` gives the program alone."""
        players = [self.strategy_class(program) for program in programs]
        fresh = uncached(players, self.cache)
        if fresh:
            summaries = self.play_seeded(list(fresh.values()), [self.seed_of(t) for t in fresh])
            self.cache.update(zip(fresh, summaries))
            self.evaluations += len(fresh)
            for text, summary in zip(fresh, summaries):
                self.note_failure(text, summary, self.name)
        return [self.cache[player.text] for player in players]

    @property
    def failure_scores_zero(self) -> bool:
        return failure_scores_zero(self.strategy_class)

    def forfeit_share(self, program: Any) -> float:
        """Share of the matches of the program's last evaluation that it forfeited by
        failing (what a cost per evaluation outcome reads)."""
        summary = self.cache[self.strategy_class(program).text]
        return summary.forfeits[0] / summary.matches

    def value(self, summary: MatchSummary) -> float:
        """Ψ of a program's matches: 0 if it failed in any (where its language says so)."""
        if summary.forfeits[0] and self.failure_scores_zero:
            return 0.0
        if self.margin_weight:
            return score_of(self.game, summary) + \
                self.margin_weight * summary.behavior(0)[MARGIN]
        return score_of(self.game, summary)

    def note_failure(self, text: str, summary: MatchSummary, metric: str) -> None:
        """Log a program that failed in an evaluation that scores failures 0."""
        if not (summary.forfeits[0] and self.failure_scores_zero):
            return
        self.failures += 1
        error = summary.first_error[0] or "unknown error"
        log.info("%s = 0: the program fails (%s): %s", metric, error, text.replace("\n", " | "))
        if self.failure_log is not None:
            with open(self.failure_log, "a") as file:
                file.write(f"{metric}\t{summary.forfeits[0]} of {summary.matches} matches\t"
                           f"{error}\t{text.replace(chr(10), ' | ')}\n")

    def __call__(self, program: Any) -> float:
        return self.value(self.play(program))

    def many(self, programs: list) -> list[float]:
        """Ψ of several programs at once: a population keeps every worker busy."""
        return [self.value(summary) for summary in self.play_many(programs)]


class PoolWinRate(WinRate):
    """Ψ against a pool: the mean of the program's scores against each target, each
    over ``matches`` matches (seats alternating) on the program's batch seed.

    Why: a best response to one bot is brittle; the sketch-learning paper and Aleixo (2023) answer
    a mixture of
    opponents (fictitious play's uniform mixture of past strategies). With the same
    number of matches per target, the mean of the per-target scores is the score of
    all the matches together, so the program's summary is the targets' summaries
    added up (one ``map`` call for all of them) and everything read off Ψ's matches
    (cloning scores, behaviour features, the failure rule) reads the whole pool."""

    def __init__(self, game, targets, strategy_class, **kwargs) -> None:
        targets = list(targets)
        if not targets:
            raise ValueError("a pool of targets needs at least one player")
        self.targets = targets  # before WinRate's checks, which read ``resolution``
        super().__init__(game, targets[0], strategy_class, **kwargs)

    @property
    def resolution(self) -> float:
        return super().resolution / len(self.targets)

    def play_seeded(self, players: list, seeds: list[int]) -> list[MatchSummary]:
        k = len(self.targets)
        parts = play_many(self.game, [(p, t) for p in players for t in self.targets],
                          self.matches, [s for s in seeds for _ in range(k)], map=self.map,
                          behavior=self.features(), engine=self.engine, paired=self.paired,
                          seat=self.seat)
        summaries = []
        for i in range(len(players)):
            total = MatchSummary()
            for part in parts[i * k:(i + 1) * k]:
                total.add(part)
            total.seconds = max(part.seconds for part in parts[i * k:(i + 1) * k])
            summaries.append(total)
        return summaries


def check_margin_weight(game, weight: float, resolution: float) -> None:
    """A margin tie-break needs the game's ``margin`` hook and a weight below half
    of Ψ's step (the margin is in [-1, 1]: two programs' tie-breaks differ by < step)."""
    if not callable(margin_of(game)):
        raise ValueError(f"margin_weight: game '{game.name}' has no "
                         "margin(state, seat) to break ties with")
    if not 0 < weight < resolution / 2:
        raise ValueError(f"margin_weight must be in (0, {resolution / 2:g}) (half of Ψ's step "
                         f"{resolution:g}), got {weight:g}")


def score_of(game, summary) -> float:
    """Player 0's score per match: wins, plus the game's value of a draw (the game
    object's ``draw_value``: ½ for draws and capped matches in the sketch-learning paper's Ψ of the
    real-time strategy game, 0 by default)."""
    even = summary.matches - summary.wins[0] - summary.wins[1]
    return (summary.wins[0] + draw_value(game) * even) / summary.matches


class FreshWinRate:
    """Ψ on matches never played before by the program: the k-th call for a program
    text plays the match seeds of (text, k).

    Why: a search that keeps the best of many noisy Ψ values keeps one that is
    biased upwards. The sketch-learning paper's reference SA re-measures the program it restarts
    from
    on fresh matches at every schedule; this metric is that re-measurement. On
    resume, replayed calls are counted (``remember``), so the k-th call stays the
    k-th.
    """

    name = "psi-fresh"

    def __init__(self, psi: WinRate) -> None:
        self.psi = psi
        self.calls: dict[str, int] = {}
        self.forfeits: dict[str, float] = {}

    def seed_for(self, text: str, call: int) -> int:
        return program_seed(self.psi.seed, f"{text}\n# fresh matches {call}")

    def __call__(self, program: Any) -> float:
        player = self.psi.strategy_class(program)
        call = self.calls.get(player.text, 0) + 1
        self.calls[player.text] = call
        summary = self.psi.play_seeded([player], [self.seed_for(player.text, call)])[0]
        self.psi.note_failure(player.text, summary, self.name)
        self.forfeits[player.text] = summary.forfeits[0] / summary.matches
        return self.psi.value(summary)

    def forfeit_share(self, program: Any) -> float:
        """Share of the matches of the program's last call that it forfeited."""
        return self.forfeits[self.psi.strategy_class(program).text]

    def remember(self, text: str, value: Any) -> None:
        self.calls[text] = self.calls.get(text, 0) + 1


class WithTieBreak:
    """Ψ with a cloning score breaking ties: Ψ + C·r / (1 + r).

    Ψ moves in steps of r (``psi.resolution``: 1/matches, or half that where draws
    score 0.5), so C (in [0, 1]) can only order programs of equal Ψ; the sketch-learning paper uses
    this where Ψ is 0 for most programs early on (against a strong target).
    """

    name = "psi+c"

    def __init__(self, psi: WinRate, cloning: Callable[[Any], float]) -> None:
        self.psi = psi
        self.cloning = cloning
        self.resolution = psi.resolution

    def __call__(self, program: Any) -> float:
        return self.many([program])[0]

    def forfeit_share(self, program: Any) -> float:
        return self.psi.forfeit_share(program)

    def many(self, programs: list) -> list[float]:
        return [psi + self.cloning(program) * self.resolution / (1 + self.resolution)
                for psi, program in zip(self.psi.many(programs), programs)]
