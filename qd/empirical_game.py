"""The empirical game of the programs found so far, its maximin strategy, and the outer
loop that Double Oracle and 2L share.

* ``EmpiricalGame``: the programs and the payoff matrix ``M[i][j] = u(i, j)``, the
  utility of program i against program j (``qd.reference.utility`` over ``matches``
  matches, seats alternating), with ``M[j][i] = 1 - M[i][j]`` and ``M[i][i] = ½``: a
  symmetric constant-sum game, so one population serves both seats.
* ``maximin``: the row player's maximin mixed strategy of a matrix game and its value,
  by linear programming (scipy's HiGHS, deterministic).
* ``PopulationDriver``: the outer loop. Each oracle call searches from the strongest
  program (the largest row sum of ``M``, ties to the later one), scored against the
  driver's reference opponents; the response enters the population only if it scores
  more than its start against them (both measured on the call's matches); then the
  driver updates its reference opponents (``update``). The run's answer is the
  strongest program. Its checkpoint, ``state.json``, is rewritten after every call,
  with ``calls.csv`` (one row per call) beside it.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.files import write_atomically

from .drivers import SelfPlayBudget, SelfPlayDriver, read_cpu_seconds, write_cpu_seconds

LP_SOLVER = "highs"
"""scipy's linprog method for the restricted game (deterministic: the same matrix gives
the same equilibrium, also where several exist)."""


def maximin(payoffs: Sequence[Sequence[float]]) -> tuple[list[float], float]:
    """The row player's maximin mixed strategy x of the matrix game ``payoffs`` (row
    player's payoff) and the game's value v: maximise v subject to
    ``Σ_i x_i M[i][j] >= v`` for every column j, ``Σ x = 1``, ``x >= 0``."""
    import numpy as np
    from scipy.optimize import linprog

    m = np.asarray(payoffs, dtype=float)
    if m.ndim != 2 or 0 in m.shape:
        raise ValueError(f"a payoff matrix needs rows and columns, got shape {m.shape}")
    rows, columns = m.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-m.T, np.ones((columns, 1))])  # v - Σ_i x_i M[i][j] <= 0
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(columns), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * rows + [(None, None)], method=LP_SOLVER)
    if not result.success:
        raise RuntimeError(f"the restricted game's linear program failed: {result.message}")
    x = np.clip(result.x[:rows], 0.0, None)
    x = x / x.sum()
    return [float(v) for v in x], float(result.x[-1])


@dataclass
class EmpiricalGame:
    """Programs (texts) and their payoff matrix (see the module docstring)."""

    programs: list[str] = field(default_factory=list)
    payoffs: list[list[float]] = field(default_factory=list)

    @classmethod
    def of(cls, initial: str) -> EmpiricalGame:
        return cls([initial], [[0.5]])

    def add(self, text: str, context) -> int:
        """Play ``text`` against every program so far and add it; the matches played.
        Pair (new, q) plays on a seed from the run seed and both texts."""
        from games.match import play_many
        from gp.fitness import program_seed

        from .reference import utility

        new = context.strategy_class(text)
        pairs = [(new, context.strategy_class(q)) for q in self.programs]
        seeds = [program_seed(context.seed, f"{text}\n# payoff against\n{q}")
                 for q in self.programs]
        summaries = play_many(context.game, pairs, context.matches, seeds, map=context.map,
                              engine=context.engine)
        row = [utility(s) for s in summaries]
        for i, u in enumerate(row):
            self.payoffs[i].append(1.0 - u)
        self.payoffs.append(row + [0.5])
        self.programs.append(text)
        return context.matches * len(pairs)

    def row_sums(self) -> list[float]:
        return [sum(row) for row in self.payoffs]

    def strongest(self) -> int:
        """Index of the largest row sum, ties to the later program."""
        sums = self.row_sums()
        best = max(sums)
        return max(i for i, s in enumerate(sums) if s == best)


@dataclass
class PopulationState:
    """A population driver's checkpoint (``state.json``)."""

    driver: str
    game: EmpiricalGame
    reference: list[int]
    weights: list[float]
    calls: int = 0
    search_matches: int = 0
    all_matches: int = 0
    data: list[list[Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"driver": self.driver, "programs": self.game.programs,
                           "payoffs": self.game.payoffs, "reference": self.reference,
                           "weights": self.weights, "calls": self.calls,
                           "search_matches": self.search_matches,
                           "all_matches": self.all_matches, "data": self.data,
                           "history": self.history}, indent=1) + "\n"

    @classmethod
    def read(cls, path: Path, driver: str, initial: str) -> PopulationState:
        try:
            saved = json.loads(path.read_text())
            state = cls(saved["driver"], EmpiricalGame(list(saved["programs"]),
                                                       [list(r) for r in saved["payoffs"]]),
                        list(saved["reference"]), list(saved["weights"]), int(saved["calls"]),
                        int(saved["search_matches"]), int(saved["all_matches"]),
                        list(saved["data"]), list(saved["history"]))
        except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: not a self-play state ({err})") from None
        if state.driver != driver or not state.game.programs or \
                state.game.programs[0] != initial:
            raise ValueError(f"{path}: a {state.driver} run from another start; "
                             f"use a new --out to run {driver} from this one")
        return state


STATE_FILE = "state.json"

CALL_COLUMNS = ("call", "start", "accepted", "response_value", "start_value", "population",
                "reference", "weights", "search_matches", "all_matches")


class PopulationDriver(SelfPlayDriver):
    """The outer loop of Double Oracle and 2L (module docstring); a subclass says how
    the reference opponents change (``update``) and may read every scored candidate's
    utilities (``observe``)."""

    def fresh(self, initial: str) -> PopulationState:
        return PopulationState(self.name, EmpiricalGame.of(initial), [0], [1.0])

    def observe(self, state: PopulationState, text: str, utilities: list[float]) -> None:
        """Called with a candidate's utilities against the reference opponents each time
        the search (or the acceptance test) scores it."""

    @abc.abstractmethod
    def update(self, state: PopulationState, new: int) -> dict[str, Any]:
        """Program ``new`` (its row of the payoff matrix filled) joined the population:
        set ``state.reference`` and ``state.weights``; what to record of the update."""

    _state: PopulationState | None = None

    def answer(self, programs: list[str]) -> str:
        """The strongest program of the run's empirical game (``programs``' last if the
        driver has not run)."""
        state = self._state
        if state is None or state.game.programs != list(programs):
            return programs[-1]
        return programs[state.game.strongest()]

    @staticmethod
    def calls_done(out: Path) -> int:
        path = out / STATE_FILE
        return int(json.loads(path.read_text())["calls"]) if path.is_file() else 0

    def run(self, initial: str, budget: SelfPlayBudget, out: Path | None = None,
            after_step: Callable[[list[str]], None] | None = None) -> list[str]:
        if out is not None and (out / STATE_FILE).is_file():
            state = PopulationState.read(out / STATE_FILE, self.name, initial)
        else:
            state = self.fresh(initial)
        self._state = state
        cpu_before = read_cpu_seconds(out)
        while budget.left(state.calls, state.search_matches, cpu_before):
            self.call(state)
            if after_step is not None:  # before the checkpoint: see DriverBase.run
                after_step(list(state.game.programs))
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                write_atomically(out / STATE_FILE, state.to_json())
                write_atomically(out / "calls.csv", calls_table(state.history))
                write_cpu_seconds(out, budget.cpu_used(cpu_before))
        return list(state.game.programs)

    def call(self, state: PopulationState) -> None:
        """One oracle call from the strongest program, and the update if it is better."""
        from .reference import ReferenceOpponents, target_win_rate

        c, game = self.context, state.game
        start_index = game.strongest()
        start = game.programs[start_index]
        reference = ReferenceOpponents(
            [c.strategy_class(game.programs[i]) for i in state.reference], list(state.weights),
            observe=lambda text, utilities: self.observe(state, text, utilities))
        seed = c.seed * 1000 + state.calls
        response = self.oracle(reference, seed, start=start)
        used = getattr(self.oracle, "used", None)
        if not isinstance(used, int):
            raise ValueError(f"driver {self.name} needs an oracle that says how many "
                             "evaluations its last call made (oracle.used)")
        check = target_win_rate(c.game, reference, c.strategy_class, matches=c.matches,
                                seed=seed, map=c.map, engine=c.engine)
        response_value, start_value = check.many([response, start])
        searched = (used + 2) * c.matches * len(state.reference)
        state.search_matches += searched
        state.all_matches += searched
        record: dict[str, Any] = {"call": state.calls, "start": start_index,
                                  "accepted": response_value > start_value,
                                  "response_value": response_value,
                                  "start_value": start_value}
        if response_value > start_value:
            state.all_matches += game.add(response, c)
            record.update(self.update(state, len(game.programs) - 1))
        state.calls += 1
        record.update({"population": len(game.programs), "reference": list(state.reference),
                       "weights": list(state.weights), "search_matches": state.search_matches,
                       "all_matches": state.all_matches})
        state.history.append(record)


def calls_table(history: list[dict[str, Any]]) -> str:
    """``calls.csv``: one row per oracle call; after the common columns, what the
    driver's updates recorded (e.g. Double Oracle's equilibrium and value)."""
    columns = list(CALL_COLUMNS)
    for record in history:
        columns += [key for key in record if key not in columns]
    lines = [",".join(columns)]
    for record in history:
        cells = []
        for column in columns:
            value = record.get(column, "")
            if isinstance(value, list):
                value = " ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in value)
            elif isinstance(value, float):
                value = repr(value)
            cells.append(str(value))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"
