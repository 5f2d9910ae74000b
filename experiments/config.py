"""Typed run configurations: one frozen dataclass per run kind.

Every run kind (synthesis, QD, self-play, a TOML comparison, tournament, pool,
regret) is a frozen keyword-only dataclass whose fields carry their default,
type, range and help in one place (``experiments.loader.setting``). The command
line, a TOML file, a run's ``config.json`` and the Python API all go through
``experiments.loader.load``, so the same
value is refused the same way whatever its source: one line naming the source
and the field (``where: field ...``), raised as ``ValueError`` before anything
is written. ``None`` means "not set": the field's default (for ``target`` and
``matches``, the game's own: ``default_target``, ``default_matches``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from gp.neighbourhoods import NeighbourhoodSettings
from gp.synthesis import SynthesizerSettings
from qd.drivers import DriverSettings

from .loader import setting

# -- checks shared by several fields ---------------------------------------------------------

def cores() -> int:
    return os.cpu_count() or 1


def workers_check(value: int) -> str | None:
    if value > cores():
        return (f"{value} on a machine with {cores()} cores would only slow every one down; "
                f"use at most {cores()} (0 = all cores)")
    return None


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(text: str) -> float:
    """'90', '90s', '30m', '2h' -> seconds."""
    match = _DURATION.match(str(text))
    if not match:
        raise ValueError(f"budget '{text}' is not a duration like 90s, 30m or 2h")
    seconds = float(match.group(1)) * {"s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]
    if seconds <= 0:
        raise ValueError(f"budget '{text}' is no time at all")
    return seconds


def _duration_check(value: str) -> str | None:
    try:
        parse_duration(value)
    except ValueError:
        return f"'{value}' is not a duration like 90s, 30m or 2h"
    return None


def _reference_cost_check(value: dict) -> str | None:
    from .charging import check_reference_cost

    return check_reference_cost(value)


def _reference_budget_check(value: float) -> str | None:
    from .charging import check_reference_budget

    return check_reference_budget(value)


def _specs_check(value: str) -> str | None:
    items = [item.strip() for item in value.split(",")]
    return (f"'{value}' has an empty player spec (two commas, or one at an end)"
            if "" in items else None)


MAX_CELLS = 1_000_000
"""Most cells a QD grid may have (a larger one would not fit in memory)."""


def _dims_check(value: str) -> str | None:
    try:
        dims = [int(d) for d in value.split(",")]
    except ValueError:
        return f"'{value}' must be whole numbers separated by commas"
    if min(dims) < 1:
        return f"'{value}' needs numbers >= 1, one per feature"
    if math.prod(dims) > MAX_CELLS:
        return f"'{value}' makes {math.prod(dims):,} cells (at most {MAX_CELLS:,})"
    return None


# -- the fields every game run has -------------------------------------------------------------

def _game() -> Any:
    return setting(None, "game name", cli=False)


def _game_params() -> Any:
    return setting(None, "game parameters (a table)", cli=False)


def _neighbourhood_setting(name: str) -> Any:
    """A neighbourhood setting as the synthesizers declare it (same default, help, range)."""
    declared = {f.name: f for f in fields(NeighbourhoodSettings)}[name]
    return setting(declared.default, declared.metadata["help"],
                   minimum=declared.metadata.get("minimum"),
                   maximum=declared.metadata.get("maximum"))


def _dsl() -> Any:
    return setting(None, "the game's language for programs (default: its first)")


def _seed(default: int = 0) -> Any:
    return setting(default, "seed of everything random in the run",
                   minimum=0)


def _workers() -> Any:
    return setting(0, "0 = all cores, 1 = serial, n processes (at most the cores)",
                   minimum=0, check=workers_check)


def _engine() -> Any:
    return setting("fast", "match engine: fast, numpy or reference (every engine gives "
                   "the same results)")


DEFAULT_FITNESS_TIME_LIMIT = 120.0
"""Seconds one evaluation of a user fitness may take unless the run says otherwise
(``fitness_time_limit``): a fitness that hangs costs a logged failed evaluation, not
the run."""

NOT_IDENTITY = frozenset({"workers", "backend", "scheduler", "label", "engine"})
"""Settings a run may change when it is resumed: where and how fast it evaluates (every
engine and backend gives the same results) and its name in a comparison."""


@dataclass(frozen=True, kw_only=True)
class SynthesisConfig:
    """One synthesis run (``stratsynth synth``; a ``[[methods]]`` entry of a comparison)."""

    NOT_IDENTITY: ClassVar[frozenset[str]] = NOT_IDENTITY

    kind: Literal["synth"] = setting("synth", "run kind", cli=False)
    game: str = _game()
    game_params: dict | None = _game_params()
    dsl: str | None = _dsl()
    target: str | None = setting(None, "opponent spec of the win rate Ψ, or a comma-separated "
                                 "pool (Ψ = mean score against them; default: the game's own)",
                                 check=_specs_check)
    matches: int | None = setting(None, "matches per Ψ (default: the game's)", minimum=1)
    seed: int = _seed()
    workers: int = _workers()
    backend: Literal["serial", "pool", "dask"] | None = setting(
        None, "evaluation backend (default: serial if --workers 1, else pool)")
    scheduler: str | None = setting(None, "dask scheduler address (default: a LocalCluster)")
    budget: str | None = setting(None, "time budget: 90s, 30m, 2h", check=_duration_check)
    evaluations: int | None = setting(None, "evaluation budget", minimum=1)
    reference_cost: dict | None = setting(
        None, "cost of an evaluation by its outcome, e.g. {ran = 41.6, failed = 1.9, c = 0} "
        "(reference CPU-seconds: a Ψ whose program ran or failed, a C); with "
        "reference_budget, a budget charged per evaluation", check=_reference_cost_check,
        cli=False)
    reference_budget: float | None = setting(
        None, "budget in reference_cost's units (e.g. 172800: 48 reference CPU-hours); the "
        "run stops once its evaluations' charges reach it", check=_reference_budget_check,
        cli=False)
    label: str | None = setting(None, "the name a comparison gives the method", cli=False)
    method: str = setting("sa", "synthesizer: any registered method (see the option groups below)")
    fitness: str = setting("psi", "psi, psi+c, c, or package.module:function")
    score: Literal["A", "O"] | None = setting(
        None, "cloning score for sketch learning: A actions, O observations")
    data: str | None = setting(None, "record file to clone (stratsynth record)")
    initial: str | None = setting(None, "program file to start from")
    clock: Literal["wall", "cpu"] = setting(
        "wall", "what --budget counts: wall time or this process's CPU time "
        "(with --workers 1; fair on a shared machine)")
    stop_at: float | None = setting(
        None, "also stop once a program's Ψ reaches this value (1: it won every match)",
        check=lambda v: None if v > 0 else f"must be a number > 0 (a Ψ, e.g. 1), got {v!r}")
    paired: bool = setting(False, "Ψ's matches in colour-swapped pairs on one opening/dice "
                           "seed each (an even --matches): a copy of the target scores ½")
    margin_weight: float | None = setting(
        None, "tie-break: Ψ plus this times the mean final margin of the game; below half "
        "of Ψ's step", minimum=0)
    paper: bool = setting(False, "the game's paper mode where it has one (GameSpec."
                          "paper_settings), unless given explicitly")
    engine: Literal["fast", "numpy", "reference"] = setting(
        "fast", "match engine for Ψ")
    fitness_on_failure: Literal["score", "stop"] = setting(
        "score", "a user fitness that fails (raises, returns no number, times out): score "
        "the program as a logged failure, or stop the run")
    fitness_time_limit: float | None = setting(
        None, "seconds one evaluation of a user fitness may take: a slower one is a logged "
        f"failed evaluation (default {DEFAULT_FITNESS_TIME_LIMIT:g}; 0: no limit; built-in "
        "fitnesses have none)", minimum=0)
    settings: SynthesizerSettings | None = setting(
        None, "the method's own settings (flat keys beside the run's; gp.synthesis)",
        cli=False)

    def check(self, where: str) -> None:
        """Checks across fields (each field alone is checked by ``load``)."""
        from gp.neighbourhoods import check_neighbourhood

        from .metrics import check_metric_needs

        self._check_reference_budget(where)
        if self.budget is None and self.evaluations is None and self.reference_budget is None:
            raise ValueError(f"{where}: give a budget (e.g. 30m) or a number of evaluations")
        if self.clock == "cpu" and not (self.workers == 1 or self.backend == "serial"):
            raise ValueError(f"{where}: clock cpu counts this process's CPU time only: "
                             "it needs workers 1 (serial evaluation)")
        check_metric_needs(method=self.method, fitness=self.fitness,
                           extra_metrics=self.synthesizer().metrics(self.settings),
                           data=self.data, score=self.score, where=where)
        check_neighbourhood(game=self.game, settings=self.settings, where=where)

    def _check_reference_budget(self, where: str) -> None:
        """A charged budget needs its costs and a fitness whose outcome can be charged,
        and must be one that evaluations spend."""
        from gp.metrics import BUILTIN_FITNESSES

        if (self.reference_cost is None) != (self.reference_budget is None):
            given = "reference_cost" if self.reference_budget is None else "reference_budget"
            other = "reference_budget" if given == "reference_cost" else "reference_cost"
            raise ValueError(f"{where}: {given} needs {other} (a budget charged per "
                             "evaluation takes both)")
        if self.reference_cost is None:
            return
        if self.fitness not in BUILTIN_FITNESSES:
            raise ValueError(f"{where}: reference_cost charges the built-in fitnesses "
                             f"({', '.join(BUILTIN_FITNESSES)}), not {self.fitness}")
        on_c_alone = self.fitness == "c" or self.method == "sketch-uct" or (
            self.method == "sketch-sa"
            and getattr(self.settings, "sketch_schedule", "reference") != "reference")
        if on_c_alone and not self.reference_cost.get("c") and self.evaluations is None \
                and self.budget is None:
            raise ValueError(f"{where}: reference_cost gives C evaluations no cost, so "
                             f"method {self.method} (fitness {self.fitness}) would search C "
                             "without end: give c > 0 or a number of evaluations too")

    def synthesizer(self) -> type:
        """The method's class (``gp.synthesis.Synthesizer``)."""
        from gp.synthesis import synthesizer_class

        return synthesizer_class(self.method)

    @staticmethod
    def resolve_defaults(values: dict[str, Any], saved: bool) -> dict[str, Any]:
        """A user fitness's time limit when none is given: ``DEFAULT_FITNESS_TIME_LIMIT``
        for a new run, none for a saved run that recorded none (it started before the
        default, and resumes as it ran); the new run's ``config.json`` records it."""
        from gp.metrics import BUILTIN_FITNESSES

        fitness = values.get("fitness")
        if values.get("fitness_time_limit") is None and isinstance(fitness, str) \
                and fitness not in BUILTIN_FITNESSES:
            values = {**values,
                      "fitness_time_limit": 0.0 if saved else DEFAULT_FITNESS_TIME_LIMIT}
        return values

    @staticmethod
    def prepare(values: dict[str, Any], where: str) -> dict[str, Any]:
        """What ``paper = true`` stands for filled in, and the keys that are not the run's
        read as the method's settings (``gp.synthesis.settings_from``), before the run's
        fields are checked."""
        from gp.synthesis import settings_from, synthesizer_class

        values = apply_paper(values, where)
        if isinstance(values.get("settings"), SynthesizerSettings):
            return values
        method = values.get("method") or "sa"
        if not isinstance(method, str):
            raise ValueError(f"{where}: method must be text, got {method!r}")
        try:
            cls = synthesizer_class(method)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        run_keys = {f.name for f in fields(SynthesisConfig)} - {"settings"}
        own = {k: v for k, v in values.items() if k not in run_keys}
        values = {k: v for k, v in values.items() if k in run_keys}
        values["settings"] = settings_from(cls, own, where=where)
        return values


def _resampling_check(value: str) -> str | None:
    from qd.resampling import resampling_names

    names = resampling_names()
    return None if value in names else f"'{value}' is not one of {', '.join(names)}"


@dataclass(frozen=True, kw_only=True)
class QDConfig:
    """A MAP-Elites archive of programs (``stratsynth qd``)."""

    NOT_IDENTITY: ClassVar[frozenset[str]] = NOT_IDENTITY | {"budget", "evaluations"}
    """MAP-Elites does not depend on its budget: a run may go on past it."""

    kind: Literal["qd"] = setting("qd", "run kind", cli=False)
    game: str = _game()
    game_params: dict | None = _game_params()
    dsl: str | None = _dsl()
    features: str | None = setting(None, "comma-separated feature names (default: all)",
                                   check=_specs_check)
    dims: str | None = setting(None, "cells per feature, e.g. 10,10", check=_dims_check)
    cells: int = setting(100, "CVT cells (more than 2 features)", minimum=1,
                         maximum=MAX_CELLS)
    target: str | None = setting(None, "opponent spec of the win rate (default: the game's)")
    subject: str | None = setting(
        None, "vector searches: the player whose weights are searched (Tribes: pmcts-pu, or "
        "pmcts-pu-fw, P-MCTS(PU) as the framework's code plays it)", saved_if_set=True)
    matches: int | None = setting(None, "matches per evaluation (default 200, or the "
                                  "game's vector search's)", minimum=1)
    batch: int | None = setting(None, "programs per emitter per ask (default 8)", minimum=1)
    budget: str | None = setting(None, "time budget: 90s, 30m, 2h", check=_duration_check)
    evaluations: int | None = setting(None, "evaluation budget", minimum=1)
    seed: int = _seed()
    workers: int = _workers()
    backend: Literal["serial", "pool", "dask"] | None = setting(None, "unused", cli=False)
    scheduler: str | None = setting(None, "unused", cli=False)
    label: str | None = setting(None, "unused", cli=False)
    engine: Literal["fast", "numpy", "reference"] = setting(
        "fast", "match engine")
    resample: str = setting("plain", "resampling policy: plain (one evaluation per "
                            "solution) or adaptive (re-evaluates contested cells; "
                            "docs/quality-diversity.md)", check=_resampling_check)
    max_samples: int | None = setting(None, "adaptive: most samples of one solution "
                                      "(default: no cap)", minimum=1)

    def check(self, where: str) -> None:
        if self.budget is None and self.evaluations is None:
            raise ValueError(f"{where}: give a budget (e.g. 30m) or a number of evaluations")
        if self.max_samples is not None and self.resample == "plain":
            raise ValueError(f"{where}: max_samples is a setting of --resample adaptive")
        if self.subject is not None:
            self._check_subject(where)

    def _check_subject(self, where: str) -> None:
        """A subject is one of the game's vector space's (``VectorSpace.subjects``)."""
        from games import game_spec, resolve

        try:
            reference = game_spec(self.game).qd.space
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        if reference is None:
            raise ValueError(f"{where}: subject: {self.game}'s qd searches programs of its "
                             "language; only a search over a vector has a subject")
        try:
            resolve(reference).chosen(self.subject)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None


@dataclass(frozen=True, kw_only=True)
class SelfPlayConfig:
    """Self-play with a best-response oracle (``stratsynth selfplay``): iterated best
    response, fictitious play, Double Oracle, 2L or a plug-in driver (``qd.drivers``)."""

    game: str = _game()
    game_params: dict | None = _game_params()
    dsl: str | None = _dsl()
    driver: str = setting("ibr", "self-play driver: ibr, fp, do, 2l or a plug-in (see the "
                          "option groups below)")
    oracle: Literal["sa", "hss", "hc"] = setting(
        "sa", "best-response oracle: simulated annealing, HSS, or hill climbing over a "
        "sampled neighbourhood")
    iterations: int = setting(5, "oracle calls at most", minimum=1)
    max_matches: int | None = setting(
        None, "also stop once the best-response searches have played this many matches "
        "against their targets (checked before each oracle call)", minimum=1)
    cpu_budget: str | None = setting(
        None, "also stop once the run has used this much CPU time of this process, "
        "e.g. 30m (checked before each oracle call; needs --workers 1)",
        check=_duration_check)
    evaluations: int = setting(100, "evaluations per oracle call", minimum=1)
    neighbours: int | None = setting(
        None, "hill-climbing oracle: neighbours scored per step (default 1000)", minimum=1)
    neighbourhood: str = _neighbourhood_setting("neighbourhood")
    semantic_epsilon: float = _neighbourhood_setting("semantic_epsilon")
    matches: int = setting(200, "matches per evaluation", minimum=1)
    features: str | None = setting(None, "HSS features, comma-separated (default: all of the "
                                   "game's)", check=_specs_check)
    levels: int = setting(5, "HSS values per feature (games with reference levels use those)",
                          minimum=1)
    library: str | None = setting(None, "HSS library to start from (JSON)")
    library_programs: str | None = setting(
        None, "HSS: program files, comma-separated, added to the library and measured "
        "against the first target (one evaluation each)", check=_specs_check)
    hss_variant: Literal["published", "legacy"] = setting(
        "published", "HSS: Algorithm 1 as published or the earlier "
        "implementation (docs/quality-diversity.md)")
    local_evaluations: int | None = setting(
        None, "HSS: evaluations per local search (default: one SA cooling, 112, per phase)",
        minimum=1)
    hss_local_search: Literal["sketch-sa", "sa"] | None = setting(
        None, "HSS level 2: sketch-sa (SA on the similarity to the chosen features, then SA "
        "on Ψ from its best program; the default of a new run) or sa (SA on Ψ alone; a "
        "config.json without this key ran sa)")
    side: int | None = setting(
        None, "Ψ from one start position: every match of an evaluation puts the program in "
        "this seat (0 or 1), a separate run per side; with --matches 1 it is Aleixo "
        "(2023)'s microRTS Ψ (default: seats alternate, the sketch-learning paper's "
        "two-match Ψ with --matches 2)", minimum=0, maximum=1)
    opponents: str | None = setting(
        None, "FP: player specs, comma-separated, in every mixture (e.g. a pool of bots)",
        check=_specs_check)
    mixture: Literal["sampled", "stratified"] = setting(
        "sampled", "FP: one member drawn per match, or --matches against every "
        "member, averaged")
    seed: int = _seed()
    workers: int = _workers()
    engine: Literal["fast", "numpy", "reference"] = setting(
        "fast", "match engine (every engine gives the same results)")
    out: str = setting(None, "run directory (a run there is continued)")
    settings: DriverSettings | None = setting(
        None, "the driver's own settings (flat keys beside the run's; qd.drivers)", cli=False)

    @staticmethod
    def prepare(values: dict[str, Any], where: str) -> dict[str, Any]:
        """A former HSS variant name (``dissertation``, in committed runs' configs) read as
        its current one, and the keys that are not the run's read as the driver's settings
        (``qd.drivers.driver_settings_from``)."""
        from qd.drivers import driver_class, driver_settings_from
        from qd.hss import variant_name

        if isinstance(values.get("hss_variant"), str):
            values = {**values, "hss_variant": variant_name(values["hss_variant"])}
        if isinstance(values.get("settings"), DriverSettings):
            return values
        driver = values.get("driver") or "ibr"
        if not isinstance(driver, str):
            raise ValueError(f"{where}: driver must be text, got {driver!r}")
        try:
            cls = driver_class(driver)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        run_keys = {f.name for f in fields(SelfPlayConfig)} - {"settings"}
        own = {k: v for k, v in values.items() if k not in run_keys}
        values = {k: v for k, v in values.items() if k in run_keys}
        values["settings"] = driver_settings_from(cls, own, where=where)
        return values

    def driver_class(self) -> type:
        """The driver's class (``qd.drivers.SelfPlayDriver``)."""
        from qd.drivers import driver_class

        return driver_class(self.driver)

    def check(self, where: str) -> None:
        from gp.neighbourhoods import check_neighbourhood

        if self.library_programs and self.oracle != "hss":
            raise ValueError(f"{where}: library_programs: only the HSS oracle has a library")
        if self.hss_local_search is not None and self.oracle != "hss":
            raise ValueError(f"{where}: hss_local_search: only the HSS oracle has a level 2")
        if self.neighbours is not None and self.oracle != "hc":
            raise ValueError(f"{where}: neighbours: only the hill-climbing oracle (hc) "
                             "samples neighbours per step")
        if self.oracle == "hss" and self.neighbourhood != "syntactic":
            raise ValueError(f"{where}: neighbourhood: only the SA and hill-climbing oracles "
                             "(sa, hc) take one")
        try:
            settings = self.neighbourhood_settings()
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        check_neighbourhood(game=self.game, settings=settings, where=where)
        if self.cpu_budget is not None and self.workers != 1:
            raise ValueError(f"{where}: cpu_budget counts this process's CPU time only: "
                             "it needs workers 1 (serial evaluation)")
        if self.opponents and self.driver != "fp":
            raise ValueError(f"{where}: opponents: fixed opponents are members of fictitious "
                             "play's mixture (driver fp); other drivers choose their own")
        if self.opponents:
            specs = [spec.strip() for spec in self.opponents.split(",")]
            if len(set(specs)) != len(specs):
                raise ValueError(f"{where}: opponents '{self.opponents}' repeats a spec")

    def identity(self) -> dict[str, Any]:
        """What a continued self-play run must share with the run it continues
        (its ``config.json``)."""
        return {"command": "selfplay", "game": self.game, "game_params": self.game_params or {},
                "dsl": self.dsl, "driver": self.driver, "oracle": self.oracle,
                "evaluations": self.evaluations, "matches": self.matches,
                "features": self.features, "levels": self.levels, "library": self.library,
                "hss_variant": self.hss_variant, "local_evaluations": self.local_evaluations,
                **({"hss_local_search": self.hss_local_search}
                   if self.hss_local_search is not None else {}),
                **({"side": self.side} if self.side is not None else {}),
                "opponents": self.opponents, "mixture": self.mixture,
                "library_programs": self.library_programs, "seed": self.seed,
                **({"neighbours": self.neighbours} if self.oracle == "hc" else {}),
                **({"neighbourhood": self.neighbourhood,
                    "semantic_epsilon": self.semantic_epsilon}
                   if self.neighbourhood != "syntactic" else {}),
                **self.driver_settings()}

    def neighbourhood_settings(self) -> NeighbourhoodSettings:
        """The SA or hill-climbing oracle's neighbourhood (``gp.neighbourhoods``)."""
        return NeighbourhoodSettings(neighbourhood=self.neighbourhood,
                                     semantic_epsilon=self.semantic_epsilon)

    def local_search(self) -> str:
        """HSS's level-2 search: ``hss_local_search``, or ``sa`` where it is None (what
        every run did before the setting existed; a new run writes ``sketch-sa``)."""
        return self.hss_local_search or "sa"

    def driver_settings(self) -> dict[str, Any]:
        """The driver's settings as flat keys (none for IBR and FP)."""
        from gp.synthesis import setting_fields

        if self.settings is None:
            return {}
        return {f.name: getattr(self.settings, f.name) for f in setting_fields(
            type(self.settings))}


@dataclass(frozen=True, kw_only=True)
class ComparisonConfig:
    """The ``[experiment]`` part of a ``stratsynth run`` TOML (its other keys are synthesis
    settings shared by every ``[[methods]]`` entry)."""

    out: str = setting(None, "runs go to OUT/runs/LABEL/seedN", cli=False)
    seeds: list[int] | None = setting(None, "seeds of every method (default [0])", minimum=0,
                                      cli=False)
    name: str | None = setting(None, "a name for the comparison", cli=False)

    def check(self, where: str) -> None:
        if self.out is None:
            raise ValueError(f"{where}: [experiment] needs field 'out'")
        if self.seeds is not None and len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"{where}: seeds {self.seeds} name a seed twice (each seed is "
                             "one run of each method)")


@dataclass(frozen=True, kw_only=True)
class TournamentConfig:
    """A round robin among player specs (``stratsynth tournament``)."""

    game: str = _game()
    game_params: dict | None = _game_params()
    dsl: str | None = _dsl()
    players: str = setting(None, "comma-separated player specs", check=_specs_check)
    names: str | None = setting(None, "comma-separated display names")
    matches: int = setting(20, "matches per pairing", minimum=1, flags=("-n", "--matches"))
    seed: int = _seed()
    workers: int = _workers()
    engine: Literal["fast", "numpy", "reference"] = _engine()
    out: str | None = setting(None, "directory for tournament.md and .png, and pairs.jsonl "
                              "of finished pairings (a rerun continues from it)")

    def check(self, where: str) -> None:
        specs = self.specs()
        if len(specs) < 2:
            raise ValueError(f"{where}: a tournament needs at least two players "
                             "(--players a,b,...)")
        if self.names and len(self.names.split(",")) != len(specs):
            raise ValueError(f"{where}: names gives {len(self.names.split(','))} names for "
                             f"{len(specs)} players")
        names = [n.strip() for n in (self.names or "").split(",")]
        if self.names and len(set(names)) != len(names):
            raise ValueError(f"{where}: names '{self.names}' gives two players one name (the "
                             "table and its pairings are kept by name)")

    def specs(self) -> list[str]:
        return [s.strip() for s in self.players.split(",") if s.strip()]


@dataclass(frozen=True, kw_only=True)
class PoolConfig:
    """Each of some players against each opponent of a pool (``stratsynth pool``)."""

    game: str = _game()
    game_params: dict | None = _game_params()
    dsl: str | None = _dsl()
    players: str = setting(None, "comma-separated row player specs")
    pool: str = setting(None, "comma-separated opponent specs")
    matches: int = setting(10, "matches per cell", minimum=1, flags=("-n", "--matches"))
    seed: int = _seed()
    workers: int = _workers()
    engine: Literal["fast", "numpy", "reference"] = _engine()
    out: str = setting(None, "directory for matrix.json and matrix.md")


REGRET_LEARNERS = ("rule", "rule-gp", "rule+transfer", "mil", "mil-norec", "mil-migo",
                   "mil-pos", "mil+transfer", "mil-pos+transfer", "menace", "her", "q", "dqn")

REGRET_LEARNER_ALIASES = {"mil-seed": "mil-migo"}
"""Former learner names (committed commands use them), read as the current ones."""


def _learners_check(value: str) -> str | None:
    names = [s.strip() for s in value.split(",") if s.strip()]
    unknown = [n for n in names if REGRET_LEARNER_ALIASES.get(n, n) not in REGRET_LEARNERS]
    if unknown or not names:
        return f"'{value}': unknown learner(s) {unknown} (known: {', '.join(REGRET_LEARNERS)})"
    return None


@dataclass(frozen=True, kw_only=True)
class RegretConfig:
    """Cumulative minimax regret of learners (``stratsynth regret``)."""

    game: str = _game()
    game_params: dict | None = _game_params()
    learners: str = setting("rule,menace,q", "comma-separated: " + ", ".join(REGRET_LEARNERS),
                            check=_learners_check)
    runs: int = setting(20, "independent runs per learner", minimum=1)
    games: int = setting(200, "games per run", minimum=1)
    seed: int = _seed()
    workers: int = _workers()
    draw_after: int = setting(10, "games before draw rules are learned", minimum=0)
    transfer_from: str | None = setting(None, "source game for the +transfer learners")
    transfer_params: dict | None = setting(None, "the source game's parameters", cli=False)
    transfer_games: int = setting(100, "games on the source game", minimum=1)
    out: str = setting(None, "directory for regret.png and regret.md")

    def check(self, where: str) -> None:
        needs = [n for n in self.learner_names() if n.endswith("+transfer")]
        if needs and not self.transfer_from:
            raise ValueError(f"{where}: {needs[0]} needs transfer_from (a source game)")

    def learner_names(self) -> list[str]:
        """The learners, former names read as current ones."""
        names = [s.strip() for s in self.learners.split(",") if s.strip()]
        return [REGRET_LEARNER_ALIASES.get(name, name) for name in names]


def method_setting_names() -> set[str]:
    """Names (and old names) of every loadable synthesizer's settings: keys a run config
    may carry beside the run's own."""
    from gp.synthesis import LEGACY_UNSET, setting_fields, synthesizer_class, synthesizer_names

    names = set(LEGACY_UNSET)
    for name in synthesizer_names():
        try:
            method = synthesizer_class(name)
        except ValueError:
            continue  # a broken plug-in: running it says why
        names.update(key for f in setting_fields(method.Settings)
                     for key in (f.name, *f.metadata.get("legacy", ())))
    return names


KINDS: dict[str, type] = {"synth": SynthesisConfig, "qd": QDConfig}
"""Run kinds a run directory's ``config.json`` names (``kind``), resumed by ``resume``."""

# -- the game's defaults, in one place ---------------------------------------------------------

def default_target(game: str, given: str | None = None) -> str:
    """The opponent Ψ is measured against: ``given``, else the game's."""
    from games import game_spec

    return game_spec(game).synthesis.target(given)


def default_matches(game: str, given: int | None = None) -> int:
    """Matches per Ψ evaluation: ``given``, else the game's."""
    from games import game_spec

    return game_spec(game).synthesis.matches(given)


def open_game(name: str, params: Mapping[str, Any] | None = None) -> Any:
    """The game ``name`` with ``params``; an unknown game or a parameter the game refuses
    (a wrong type too) is a one-line ``ValueError`` naming the parameters."""
    import json

    from games import game_spec, load_game

    game_spec(name)  # an unknown game names the known ones
    try:
        return load_game(name, **(params or {}))
    except (TypeError, ValueError, KeyError) as err:
        raise ValueError(f"game {name} with parameters {json.dumps(params or {})}: "
                         f"{str(err).strip() or type(err).__name__}") from None


# -- paper mode ---------------------------------------------------------------------------------

def apply_paper(settings: dict[str, Any], where: str = "command line") -> dict[str, Any]:
    """Settings with what ``paper = true`` stands for filled in (the game's
    ``GameSpec.paper_settings``), where not given explicitly and where they are the
    run's or its method's settings; unchanged without ``paper``."""
    if not settings.get("paper"):
        return settings
    from games import game_spec

    if not isinstance(settings.get("game"), str):
        raise ValueError(f"{where}: paper needs a game")
    try:
        spec = game_spec(settings["game"])
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    if not spec.synthesis.paper_settings:
        raise ValueError(f"{where}: game '{spec.name}' has no paper mode "
                         "(its SynthesisSpec declares no paper_settings)")
    from gp.synthesis import setting_fields, synthesizer_class

    try:
        method = synthesizer_class(settings.get("method") or "sa")
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from None
    applies = {f.name for f in fields(SynthesisConfig)} | {
        name for f in setting_fields(method.Settings)
        for name in (f.name, *f.metadata.get("legacy", ()))}
    if settings.get("fitness") not in (None, "psi"):
        applies.discard("remeasure_restarts")  # it re-measures Ψ, the objective
    out = dict(settings)
    for key, value in spec.synthesis.paper_settings.items():
        if out.get(key) is None and key in applies:
            out[key] = value
    return out


# -- run directories ------------------------------------------------------------------------------

def kind_of(config: Mapping[str, Any]) -> str:
    """The kind a run's config says (configs written before the field: by their command)."""
    if config.get("kind"):
        return config["kind"]
    return {"qd": "qd", "selfplay": "selfplay"}.get(config.get("command"), "synth")
