"""Tribes' QD search space for ``stratsynth qd tribes`` (Perez-Liebana et al. 2021, §IV).

A solution is the 11 Research and Spawn weights of P-MCTS(PU) (σ15..σ19,
σ36..σ41; the other 46 stay 0.5), each in {0, 0.25, 0.5, 0.75, 1}, searched by
Algorithm 1 (``qd.vectors``). The evolved player is a subject (``SUBJECTS``,
``stratsynth qd --subject``): ``pmcts-pu``, our P-MCTS(PU), by default, or
``pmcts-pu-fw``, P-MCTS(PU) as the framework's code plays it. One evaluation plays
``matches`` games of the subject with those weights against the target (the
play-styles paper: MCTS), both at the target's
forward-model budget (the evolved player at 2,000 calls if the target has none):
game i on level ``levels[(i // 2) % |levels|]`` with the evolved player in seat
i mod 2 and the same game seed for every solution, so each level is played by both
seats in turn (the play-styles paper: |L| = 5 levels × R_L = 4 games,
``--game-param levels=[0,1,2,3,4] --matches 20``). Objective: win rate + mean score
× 10⁻⁶ (score as the tie-break; a Tribes score stays far below 10⁶). Features are
the means over the same games of what ``gamelog`` logs per game; every game's log
goes to ``games.jsonl`` in the run directory (one line per game, written once; a game
of a subject other than the default names it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..vectors import VectorSpace, parse_vector
from .gamelog import play_logged
from .portfolio import EVOLVED_SCRIPTS, script_name, weights_with
from .rules import RULES_VERSION, Tribes

WEIGHT_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
WEIGHT_NAMES = tuple(script_name(s) for s in EVOLVED_SCRIPTS)

USE_CASES: dict[str, dict[str, tuple[float, float]]] = {
    # I: attacks per game and ranged-minus-melee support spawns (archers + catapults
    # − swordsmen − knights)
    "I": {"attacks": (0, 20), "support_ranged_minus_melee": (-5, 5)},
    # II: defender spawns and the mean round of the evolved player's wins
    "II": {"defender_spawns": (0, 10), "win_round": (0, 50)},
    # III: research-progress and tile-dominance slopes (per round)
    "III": {"research_slope": (0, 2), "tile_slope": (0, 2)},
}
"""The play-styles paper's three pairs of features (``--features`` takes any two of them), with
the archive ranges of its figures."""

FEATURE_RANGES: dict[str, tuple[float, float]] = {
    name: rng for features in USE_CASES.values() for name, rng in features.items()}

SEAT_MEANS = ("score", "techs", "techs_fraction", "cities", "production", "attacks",
              "defender_spawns", "support_ranged_minus_melee", "research_slope", "tile_slope")


def aggregate(logs: Sequence[dict], seats: Sequence[int]) -> dict[str, float]:
    """Mean features of the evolved player over its games (its seat in each); a player
    that never wins gets the latest round (the game's length) as its win round."""
    wins = [log for log, seat in zip(logs, seats) if log["winner"] == seat]
    mine = [log["seats"][seat] for log, seat in zip(logs, seats)]
    out = {key: float(np.mean([m[key] for m in mine])) for key in SEAT_MEANS}
    out["win_rate"] = len(wins) / len(logs)
    out["win_round"] = (float(np.mean([log["win_round"] for log in wins])) if wins
                        else float(max(log["rounds"] for log in logs)))
    return out

DEFAULT_BUDGET = 2000
"""Forward-model calls of the evolved player when the target has no budget."""

SUBJECTS = ("pmcts-pu", "pmcts-pu-fw")
"""The players (``PLAYERS`` names) whose weights a search may evolve, the first the
default: our P-MCTS(PU), and P-MCTS(PU) as the framework's code plays it (its portfolio,
bias and tree search; the seed's MAP-Elites evolved that player's weights)."""

GAMES_LOG = "games.jsonl"


def player(spec: str):
    """A built-in Tribes player, or ``NAME:CALLS`` for a search player at CALLS
    forward-model calls per decision (``mcts:500``)."""
    from . import PLAYERS

    name, _, calls = spec.partition(":")
    if name not in PLAYERS:
        raise ValueError(f"unknown Tribes player '{name}' (known: {', '.join(sorted(PLAYERS))})")
    made = PLAYERS[name]()
    if calls:
        return with_budget(made, calls, spec)
    return made


def with_budget(made, calls: str, spec: str):
    """``made`` with ``calls`` forward-model calls per decision."""
    if not hasattr(made, "budget"):
        raise ValueError(f"{spec}: '{spec.partition(':')[0]}' has no forward-model budget")
    try:
        budget = int(calls)
    except ValueError:
        raise ValueError(f"{spec}: '{calls}' is not a number of forward-model calls") from None
    if budget < 1:
        raise ValueError(f"{spec}: the budget must be at least 1 call")
    if hasattr(made, "params"):  # the tree searches keep it in their SearchParams
        made.params.budget = budget
    else:
        made.budget = budget
    return made


def budget_player(name: str, argument: str, **options):
    """``CLISpec.player_prefixes`` factory: ``mcts:500`` is MCTS at 500 calls."""
    if options:
        raise TypeError(f"unknown options {sorted(options)}")
    return player(f"{name}:{argument}")


def subject_name(subject: str | None) -> str:
    """``subject``, or the default for None; another name is a ``ValueError``."""
    if subject is None:
        return SUBJECTS[0]
    if subject not in SUBJECTS:
        raise ValueError(f"subject '{subject}' is not a Tribes player whose weights are "
                         f"searched (one of {', '.join(SUBJECTS)})")
    return subject


def evolved_player(subject: str | None, budget: int, text: str):
    """The subject at ``budget`` forward-model calls with solution ``text``'s weights."""
    from . import PLAYERS

    return PLAYERS[subject_name(subject)](
        budget=budget, weights=weights_with(parse_vector(text, len(EVOLVED_SCRIPTS))))


def play_match(game_params: dict, target: str, seed: int, job: tuple[str, int],
               subject: str | None = None) -> dict:
    """Game ``i`` of solution ``text`` played by ``subject`` (None: the default), a
    top-level function, so pools can run it."""
    text, i = job
    subject = subject_name(subject)
    game = Tribes(**game_params)
    levels = (game.level,) if game.level is not None else game.levels
    level, seat = levels[(i // 2) % len(levels)], i % 2
    opponent = player(target)
    budget = getattr(opponent, "budget", DEFAULT_BUDGET)
    seats = [opponent, opponent]
    seats[seat] = evolved_player(subject, budget, text)
    log = play_logged(game, seats, seed=seed * 7919 + i, level=level)
    return {"solution": text, "match": i, "level": level, "seat": seat,
            "rules_version": game.rules, "seed": seed, "game_params": game_params,
            **({"subject": subject} if subject != SUBJECTS[0] else {}), "log": log}


class WeightsScore:
    """solution text -> (win rate + score tie-break, [features]) over ``matches`` games."""

    def __init__(self, game_params: dict, target: str, names: Sequence[str], matches: int,
                 seed: int, map=None, out: str | Path | None = None,
                 subject: str | None = None) -> None:
        Tribes(**game_params)  # bad parameters fail here, before any game
        player(target)
        self.subject = subject_name(subject)
        unknown = [n for n in names if n not in FEATURE_RANGES]
        if unknown:
            raise ValueError(f"unknown Tribes feature(s) {unknown} "
                             f"(known: {', '.join(FEATURE_RANGES)})")
        self.names, self.matches = list(names), matches
        self.play = partial(play_match, dict(game_params), target, seed,
                            subject=self.subject)
        self.map = map or (lambda f, jobs: [f(j) for j in jobs])
        self.cache: dict[str, tuple[float, list[float]]] = {}
        self.log_path = games_log_path(out)
        self.logged = self._logged_games()

    def _logged_games(self) -> dict[tuple[str, int], dict]:
        """Games already in the games log, by (solution, match): a game of these rules
        is taken from there instead of played again (its seed fixes it), so a killed
        evaluation or check goes on where it stopped. A line cut by a kill is dropped."""
        if self.log_path is None or not self.log_path.exists():
            return {}
        text = self.log_path.read_text()
        if text and not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1] if "\n" in text else ""
            self.log_path.write_text(text)
        return {(row["solution"], row["match"]): row for row in map(json.loads, text.splitlines())}

    def _same_game(self, row: dict | None) -> bool:
        """A logged game is this one only if its rules, seed, game parameters and
        subject are (the log is keyed by solution and match alone; a line without a
        subject is the default's)."""
        rules = self.play.args[0].get("rules", RULES_VERSION)
        return (row is not None and row.get("rules_version") == rules
                and row.get("seed") == self.play.args[2]
                and row.get("game_params") == self.play.args[0]
                and row.get("subject", SUBJECTS[0]) == self.subject)

    def __call__(self, text: str) -> tuple[float, list[float]]:
        return self.many([text])[0]

    def remember(self, text: str, result: tuple[float, list[float]]) -> None:
        self.cache[text] = (float(result[0]), list(result[1]))

    def many(self, texts: Sequence[str]) -> list[tuple[float, list[float]]]:
        fresh = [t for t in dict.fromkeys(texts) if t not in self.cache]
        self.cache.update(zip(fresh, self._measure([(t, 0) for t in fresh])))
        return [self.cache[t] for t in texts]

    def sample_many(self, requests: Sequence[tuple[str, int]]
                    ) -> list[tuple[float, list[float]]]:
        """Sample ``k`` of each ``(text, k)``: games ``k * matches`` to ``(k + 1) * matches
        - 1`` of the solution (k = 0: its evaluation, ``many``), logged like them."""
        first = iter(self.many([t for t, k in requests if k == 0]))
        later = iter(self._measure([(t, k) for t, k in requests if k > 0]))
        return [next(first) if k == 0 else next(later) for _, k in requests]

    def _measure(self, samples: Sequence[tuple[str, int]]) -> list[tuple[float, list[float]]]:
        """Each ``(text, k)``'s games k * matches .. (k + 1) * matches - 1, played or read
        from the games log, through one ``map`` call."""
        n = self.matches
        jobs = [(t, k * n + i) for t, k in samples for i in range(n)]
        known = {job: self.logged[job] for job in jobs if self._same_game(self.logged.get(job))}
        played = iter(self.map(self.play, [job for job in jobs if job not in known]))
        games = [known[job] if job in known else next(played) for job in jobs]
        out = []
        for j in range(len(samples)):
            mine = games[j * n:(j + 1) * n]
            self._log(mine)
            stats = aggregate([g["log"] for g in mine], [g["seat"] for g in mine])
            out.append((stats["win_rate"] + stats["score"] * 1e-6, [stats[m] for m in self.names]))
        return out

    def _log(self, games: list[dict[str, Any]]) -> None:
        if self.log_path is None:
            return
        with self.log_path.open("a") as fh:
            for g in games:
                if not self._same_game(self.logged.get((g["solution"], g["match"]))):
                    fh.write(json.dumps(g) + "\n")
                    self.logged[g["solution"], g["match"]] = g


def games_log_path(out: str | Path | None) -> Path | None:
    """Where games are logged: ``out/games.jsonl`` for a run directory, ``out`` itself
    when it names a ``.jsonl`` file (``qd-check`` keeps its fresh games apart)."""
    if out is None:
        return None
    out = Path(out)
    return out if out.suffix == ".jsonl" else out / GAMES_LOG


def scorer(game_params: dict, target: str, names: Sequence[str], matches: int, seed: int,
           map=None, out: str | Path | None = None, subject: str | None = None
           ) -> WeightsScore:
    return WeightsScore(game_params, target, names, matches, seed, map, out, subject)


SPACE = VectorSpace(
    names=WEIGHT_NAMES,
    values=WEIGHT_VALUES,
    features=FEATURE_RANGES,
    scorer="games.tribes.qd:scorer",
    random_init=40,
    target="mcts",
    matches=20,
    objective="win rate vs target (+ score × 1e-6)",
    subject="P-MCTS(PU) Research and Spawn weights",
    subjects=SUBJECTS,
)
"""``QDSpec.space`` of Tribes."""
