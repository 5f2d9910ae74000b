"""The bad-input corpus: every kind of bad input, over every subcommand (arguments,
TOML configs, run directories' ``config.json`` and logs, program and data files,
plug-ins), each answered with exit code 2, one stderr line naming the culprit, and
not one file created or changed (so the corrected command just runs).

Each case runs in-process (``experiments.cli.main``) in a directory holding the input
files below (and copies of a finished synthesis run ``sa`` and qd run ``qd``); the
table gives its category, the command line, and a fragment of the line it must
print. ``python -m tests.reliability`` counts the cases by category and outcome
(docs/reliability.md).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from experiments.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = str(ROOT / "experiments" / "data" / "cantstop_random.jsonl")
TIME_LIMIT = 60
"""Seconds a case may take before it counts as a hang (each takes well under one)."""

INPUTS = {"binary.txt": b"\x00\xff\xfe\x80", "garbage.jsonl": b"garbage\n",
          "list.json": b"[1]\n", "program.txt": b"if if if\n", "empty.txt": b"",
          "deep.txt": b"score: " + b"(" * 5000 + b"sum(neutrals)" + b")" * 5000 + b"\n",
          "long.txt": b"score: " + b" + ".join([b"sum(neutrals)"] * 20000) + b"\n",
          "chain.txt": b"score: " + b" + ".join([b"sum(neutrals)"] * 12000) + b"\n"
          + b"column: argmax(map(lambda a: 1, actions))\n",
          "hexapawn.txt": b"move: argmax(map(lambda a: 1, actions))\n",
          "table.json": b'{"a": 1}\n', "notes.toml": b"[experiment\n",
          "adir/keep.txt": b"kept\n"}


@dataclass(frozen=True)
class Case:
    """One bad input: its category, command line, and a fragment of the one line it
    must print; ``prepare(tmp)`` adds or edits files first (a run's config, a TOML)."""

    category: str
    argv: tuple[str, ...]
    fragment: str
    prepare: Callable[[Path], None] | None = None
    needs: str | None = None
    """A module the command needs before it reaches the bad input (an extra's)."""

    @property
    def name(self) -> str:
        return f"{self.category}: {' '.join(self.argv)}"[:90]


CASES: list[Case] = []


def case(category: str, argv: list[str], fragment: str,
         prepare: Callable[[Path], None] | None = None, needs: str | None = None) -> None:
    CASES.append(Case(category, tuple(argv), fragment, prepare, needs))


def write(name: str, text: str | bytes) -> Callable[[Path], None]:
    """``prepare``: a file of the case's own (a TOML config, a run's config.json ...)."""
    def prepare(tmp: Path) -> None:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode() if isinstance(text, str) else text)
    return prepare


def edit_config(run: str, *, refingerprint: bool = False, **changes) -> Callable[[Path], None]:
    """``prepare``: the run's ``config.json`` with settings changed (``None``: removed);
    ``refingerprint``: as a sender would forge it, its identity rewritten to match."""
    def prepare(tmp: Path) -> None:
        path = tmp / run / "config.json"
        saved = json.loads(path.read_text())
        saved.update(changes)
        saved = {k: v for k, v in saved.items() if v is not None}
        if refingerprint:
            from experiments.loader import _fingerprint

            skip = {"workers", "backend", "scheduler", "label", "engine"}
            saved["identity"] = {k: _fingerprint(v) for k, v in saved.items()
                                 if k not in skip and k != "identity"}
        path.write_text(json.dumps(saved))
    return prepare


def edit_log(run: str, edit: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    def prepare(tmp: Path) -> None:
        path = tmp / run / "log.csv"
        (tmp / run / "done").unlink(missing_ok=True)
        path.write_text("\n".join(edit(path.read_text().splitlines())) + "\n")
    return prepare


def hold_lock(tmp: Path) -> None:
    """``prepare``: the case runs while another holder has the lock of run ``sa``."""


def toml(text: str) -> Callable[[Path], None]:
    return write("c.toml", text)


# -- arguments -----------------------------------------------------------------------------

SYNTH = ["synth", "cantstop", "--evaluations", "2", "--matches", "2", "--workers", "1",
         "--quiet", "--out", "run"]
SKETCH = [*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", DATA]
QD = ["qd", "cantstop", "--evaluations", "2", "--matches", "2", "--workers", "1", "--quiet",
      "--out", "run"]
SELFPLAY = ["selfplay", "cantstop", "--iterations", "1", "--evaluations", "2", "--matches",
            "2", "--workers", "1", "--out", "run"]
PLAY = ["play", "cantstop", "--p0", "random", "--p1", "random", "-n", "2", "--workers", "1"]
TOURNAMENT = ["tournament", "cantstop", "--players", "random,ga", "-n", "2", "--workers", "1",
              "--out", "run"]
POOL = ["pool", "cantstop", "--players", "random", "--pool", "ga", "-n", "2", "--workers", "1",
        "--out", "run"]
RECORD = ["record", "cantstop", "--player", "random", "--matches", "2", "--workers", "1",
          "-o", "out.jsonl"]
REGRET = ["regret", "tictactoe", "--runs", "1", "--games", "2", "--learners", "q",
          "--workers", "1", "--out", "run"]
TDLEAF = ["tdleaf", "--games", "1", "--out", "w.json"]

for argv, fragment in [
    (["--budget", "soon"], "budget 'soon' is not a duration"),
    (["--budget", "0"], "budget '0' is not a duration"),
    (["--budget", "-5m"], "--budget"),
    (["--evaluations", "0"], "evaluations"),
    (["--evaluations", "-3"], "evaluations"),
    (["--evaluations", "many"], "evaluations"),
    (["--matches", "0"], "matches must be at least 1"),
    (["--matches", "two"], "matches"),
    (["--paired", "--matches", "3"], "matches must be even"),
    (["--workers", "-1"], "workers"),
    (["--workers", "99"], "workers"),
    (["--seed", "-1"], "seed"),
    (["--seed", "x"], "seed"),
    (["--stop-at", "-1"], "stop_at must be a number > 0"),
    (["--stop-at", "nan"], "stop_at"),
    (["--margin-weight", "-1"], "margin_weight"),
    (["--game-param", "max_moves=abc"], "with parameters"),
    (["--game-param", "noequals"], "noequals"),
    (["--game-param", "nosuch=1"], "nosuch"),
    (["--dsl", "klingon"], "klingon"),
    (["--target", "nobody"], "unknown player 'nobody'"),
    (["--target", "random,,ga"], "empty player spec"),
    (["--target", "ga,ga"], "ga named twice"),
    (["--target", "weights:x.json"], "unknown player spec prefix 'weights:'"),
    (["--target", "program:missing.txt"], "missing.txt"),
    (["--method", "annealing"], "method 'annealing' unknown"),
    (["--method", "gp", "--population", "1"], "population must be >= 2"),
    (["--method", "gp", "--population", "0"], "population"),
    (["--fitness", "c"], "needs data"),
    (["--score", "Z"], "score"),
    (["--clock", "cpu", "--workers", "2"], "clock cpu"),
    (["--clock", "moon"], "clock"),
    (["--engine", "warp"], "engine"),
    (["--backend", "quantum"], "backend"),
    (["--fitness-time-limit", "-1"], "fitness_time_limit"),
    (["--fitness-on-failure", "panic"], "fitness-on-failure"),
    (["--neighbourhood", "nosuch"], "neighbourhood"),
    (["--semantic-epsilon", "-1"], "semantic_epsilon"),
    (["--nosuch"], "unrecognized arguments: --nosuch"),
]:
    case("arguments", SYNTH + argv, fragment)
for value, fragment in [("nan", "sketch_share must be a finite number"),
                        ("5", "sketch_share must be <= 1"), ("-1", "sketch_share must be >=")]:
    case("arguments", SKETCH + ["--sketch-share", value], fragment)
case("arguments", ["synth", "nosuchgame", "--evaluations", "2", "--out", "run"], "nosuchgame")
case("arguments", ["synth", "cantstop", "--out", "run"], "give a budget")
case("arguments", ["synth", "cantstop", "--evaluations", "2"], "--out")
case("arguments", SYNTH[:-1] + ["binary.txt"], "binary.txt")
case("arguments", SYNTH[:-1] + ["adir"], "adir")
case("arguments", SYNTH[:-1] + ["binary.txt/run"], "binary.txt")

for argv, fragment in [
    (["--features", "nosuch"], "unknown feature(s) ['nosuch']"),
    (["--features", "bust_rate,turns", "--dims", "100000,100000"], "cells (at most"),
    (["--features", "bust_rate", "--dims", "3,3"], "needs 1 numbers"),
    (["--dims", "abc"], "dims"),
    (["--dims", "0,5"], "dims"),
    (["--budget", "0"], "budget '0' is not a duration"),
    (["--evaluations", "0"], "evaluations"),
    (["--batch", "0"], "batch"),
    (["--cells", "0"], "cells"),
    (["--matches", "0"], "matches"),
    (["--target", "nobody"], "unknown player 'nobody'"),
    (["--resample", "bogus"], "resample"),
    (["--max-samples", "0"], "max_samples"),
    (["--seed", "-1"], "seed"),
    (["--workers", "99"], "workers"),
    (["--engine", "warp"], "engine"),
    (["--game-param", "max_moves=abc"], "with parameters"),
]:
    case("arguments", QD + argv, fragment)
case("arguments", ["qd", "nosuchgame", "--evaluations", "2", "--out", "run"], "nosuchgame")
case("arguments", QD[:-1] + ["binary.txt"], "binary.txt")

for argv, fragment in [
    (["--oracle", "hss", "--features", "nosuch"], "unknown feature(s)"),
    (["--opponents", "random"], "opponents: fixed opponents"),
    (["--driver", "nosuch"], "nosuch"),
    (["--oracle", "bogus"], "oracle"),
    (["--iterations", "0"], "iterations"),
    (["--evaluations", "0"], "evaluations"),
    (["--matches", "0"], "matches"),
    (["--neighbours", "0"], "neighbours"),
    (["--mixture", "bogus"], "mixture"),
    (["--weighting", "bogus"], "weighting"),
    (["--cpu-budget", "soon"], "cpu_budget"),
    (["--max-matches", "0"], "max_matches"),
    (["--levels", "0"], "levels"),
    (["--seed", "-1"], "seed"),
    (["--workers", "99"], "workers"),
    (["--game-param", "max_moves=abc"], "with parameters"),
]:
    case("arguments", SELFPLAY + argv, fragment)
case("arguments", SELFPLAY[:-1] + ["binary.txt"], "binary.txt")

for argv, fragment in [
    (["--players", "random"], "at least two"),
    (["--players", "random,nobody"], "unknown player 'nobody'"),
    (["--players", "random,,ga"], "empty player spec"),
    (["--players", "random,ga", "--names", "a,b,c"], "names"),
    (["-n", "0"], "matches"),
    (["--engine", "warp"], "engine"),
    (["--seed", "x"], "seed"),
    (["--game-param", "max_moves=abc"], "with parameters"),
]:
    case("arguments", TOURNAMENT + argv, fragment)
case("arguments", TOURNAMENT[:-1] + ["binary.txt"], "binary.txt")
case("arguments", ["tournament", "nosuchgame", "--players", "a,b"], "nosuchgame")

for argv, fragment in [
    (["--pool", "random,,ga"], "empty player spec"),
    (["--pool", "nobody"], "unknown player 'nobody'"),
    (["--players", "nobody"], "unknown player 'nobody'"),
    (["-n", "0"], "matches"),
    (["--workers", "99"], "workers"),
]:
    case("arguments", POOL + argv, fragment)
case("arguments", POOL[:-1] + ["binary.txt"], "binary.txt")
case("arguments", ["pool", "cantstop", "--players", "random", "--pool", "ga"], "--out")

for argv, fragment in [
    (["--p0", "nobody"], "unknown player 'nobody'"),
    (["--p1", "program:missing.txt"], "missing.txt"),
    (["-n", "0"], "matches"),
    (["-n", "abc"], "abc"),
    (["--workers", "-1"], "workers"),
    (["--seed", "x"], "seed"),
    (["--engine", "warp"], "engine"),
    (["--max-moves", "-1"], "max"),
    (["--game-param", "max_moves=abc"], "with parameters"),
    (["--dsl", "klingon"], "klingon"),
]:
    case("arguments", PLAY + argv, fragment)
case("arguments", ["play", "hexapawn", "--p0", "random", "--p1", "random", "--game-param",
                   "size=big"], "with parameters")
case("arguments", ["play", "hexapawn", "--p0", "random", "--p1", "random", "--game-param",
                   "size=-3"], "size")
case("arguments", ["play", "nosuchgame", "--p0", "random", "--p1", "random"], "nosuchgame")

for argv, fragment in [
    (["--player", "nobody"], "unknown player"),
    (["--opponent", "nobody"], "unknown player"),
    (["--matches", "0"], "matches"),
    (["-o", "adir"], "--output adir: a directory"),
    (["-o", "binary.txt/x.jsonl"], "binary.txt is a file"),
    (["-o", "binary.txt/deeper/x.jsonl"], "binary.txt is a file"),
]:
    case("arguments", RECORD + argv, fragment)

for argv, fragment in [
    (["--learners", "nosuch"], "nosuch"),
    (["--runs", "0"], "runs"),
    (["--games", "0"], "games"),
    (["--draw-after", "-1"], "draw_after"),
    (["--transfer-from", "nosuchgame"], "nosuchgame"),
    (["--transfer-from", "cantstop", "--learners", "rule+transfer"], "cantstop"),
    (["--game-param", "size=big"], "size"),
]:
    case("arguments", REGRET + argv, fragment)
case("arguments", ["regret", "cantstop", "--out", "run"], "regret needs a board game")
case("arguments", REGRET[:-1] + ["binary.txt"], "binary.txt")

for argv, fragment in [
    (["--alpha", "nan"], "--alpha: must be a finite number > 0"),
    (["--alpha", "0"], "--alpha"),
    (["--lam", "5"], "--lam: must be between 0 and 1"),
    (["--lam", "-1"], "--lam"),
    (["--games", "0"], "--games"),
    (["--depth", "0"], "--depth"),
    (["--opponents", "nobody"], "nobody"),
]:
    case("arguments", TDLEAF + argv, fragment)
case("arguments", ["tdleaf", "--out", "adir"], "--out adir: a directory")
case("arguments", ["tdleaf", "--out", "binary.txt/w.json"], "binary.txt is a file")

for argv, fragment in [
    (["check-game", "nosuchgame"], "nosuchgame"),
    (["check-game", "cantstop", "--playouts", "0"], "playouts"),
    (["check-game", "cantstop", "--programs", "-1"], "programs"),
    (["benchmark", "--games", "nosuchgame", "--out", "run"], "nosuchgame"),
    (["benchmark", "--methods", "nosuch", "--out", "run"], "nosuch"),
    (["benchmark", "--evaluations", "0", "--out", "run"], "evaluations"),
    (["benchmark", "--seeds", "0", "--out", "run"], "seeds"),
    (["demo", "--budget", "soon"], "soon"),
    (["demo", "--matches", "0"], "matches"),
    (["demo", "--workers", "-1"], "workers"),
    (["warmup", "nosuchgame"], "nosuchgame"),
    (["bench", "--matches", "0"], "matches"),
    (["bench", "--rounds", "0"], "rounds"),
    (["bench", "--workers", "-1"], "workers"),
    (["report", "missing-dir"], "missing-dir"),
    (["report", "adir"], "no finished runs"),
    (["report", "binary.txt"], "binary.txt"),
    (["report", "adir", "--matches", "0"], "matches"),
    (["select", "missing-run"], "not a run directory"),
    (["select", "sa", "--top", "0"], "top"),
    (["select", "sa", "--matches", "0"], "matches"),
    (["select", "sa", "--out", "adir"], "--out adir"),
    (["select", "sa", "--out", "missing/best.txt"], "--out missing/best.txt"),
    (["qd-check", "missing-run"], "not a run directory"),
    (["qd-check", "qd", "--matches", "0"], "matches"),
    (["qd-check", "qd", "--out", "report.txt"], "--out report.txt"),
    (["qd-check", "qd", "--corrected", "-1"], "corrected"),
    (["qd-check", "qd", "--game-param", "max_moves=abc"], "with parameters"),
    (["qd-check", "sa"], "sa"),
    (["resume", "missing-run"], "not a run directory"),
    (["resume", "."], "not a run directory"),
    (["resume", "sa", "--evaluations", "0"], "evaluations"),
    (["resume", "sa", "--budget", "soon"], "--budget"),
    (["resume", "sa", "--budget", "10m"], "--budget/--evaluations extend qd runs only"),
    (["resume", "sa", "--fitness", "tests.fitness_plugin:brevity"], "is not the run's fitness"),
    (["resume", "sa", "--target", "ga"], "--target ga is not the run's target"),
    (["resume", "sa", "--data", DATA], "--data given, but the run has no data"),
    (["resume", "qd", "--scheduler", "tcp://127.0.0.1:9"], "names a setting of synthesis runs"),
    (["resume", "qd", "--evaluations", "1"], "fewer than the"),
    (["resume", "qd", "--budget", "soon"], "soon"),
    (["run", "missing.toml"], "missing.toml: no such config file"),
    (["run", "adir"], "adir"),
    (["synth"], "the following arguments are required"),
    (["run"], "give a config file or --example NAME"),
    (["run", "--example", "nosuch"], "nosuch"),
    (["run", "c.toml", "--example", "demo"], "give a config file or --example NAME"),
    (["demo", "--out", "binary.txt"], "binary.txt"),
    (["demo", "--out", "sa"], "sa"),
    (["report", "sa"], "no finished runs"),
    (["report", "adir", "--threshold", "x"], "threshold"),
    (["select", "sa", "--engine", "warp"], "engine"),
    (["select", "sa", "--workers", "99"], "workers"),
    (["qd-check", "qd", "--engine", "warp"], "engine"),
    (["qd-check", "qd", "--seed", "x"], "seed"),
    (["benchmark", "--matches", "0", "--out", "run"], "matches"),
    (["benchmark", "--rematches", "0", "--out", "run"], "rematches"),
    (["benchmark", "--out", "sa"], "sa"),
    (["tdleaf", "--opening-plies", "-1", "--out", "w.json"], "opening"),
    (["tdleaf", "--seed", "x", "--out", "w.json"], "seed"),
    (["check-game", "cantstop", "--decisions", "0"], "decisions"),
    (["check-game", "cantstop", "--seed", "x"], "seed"),
    (["bench", "--seed", "x"], "seed"),
    (["warmup", "cantstop", "nosuchgame"], "nosuchgame"),
    (["record", "cantstop", "--player", "random", "-o", "out.jsonl", "--self-play",
      "--opponent", "ga"], "self-play"),
    (["tournament", "cantstop", "--players", "random,ga", "--names", "a"], "names"),
    (["tournament", "cantstop", "--players", "random,ga", "--names", "a,a"], "names"),
    (["nosuchcommand"], "nosuchcommand"),
    ([], "the following arguments are required"),
]:
    case("arguments", argv, fragment)
# checked once benchmark's default games, OpenSpiel's, are loaded
for argv, fragment in [
    (["benchmark", "--out", "binary.txt"], "binary.txt"),
    (["benchmark", "--target", "nobody", "--out", "run"], "nobody"),
    (["benchmark", "--opponents", "nobody", "--out", "run"], "nobody"),
]:
    case("arguments", argv, fragment, needs="pyspiel")

# -- TOML configs (stratsynth run) -------------------------------------------------------------

EXPERIMENT = {"out": '"out"', "game": '"cantstop"', "evaluations": "2", "matches": "2",
              "workers": "1"}


def comparison(methods: str = 'method = "sa"', **experiment: str) -> str:
    """A comparison TOML: the base settings with some replaced (``None``: left out)."""
    settings = {**EXPERIMENT, **experiment}
    lines = ["[experiment]"] + [f"{k} = {v}" for k, v in settings.items() if v is not None]
    return "\n".join(lines) + "\n" + "".join(f"[[methods]]\n{m}\n" for m in methods.split("|"))


for text, fragment in [
    (comparison(out="5"), "out"),
    (comparison(out="[1]"), "out"),
    (comparison(out='"binary.txt"'), "binary.txt"),
    (comparison(out=None), "out"),
    (comparison(workers='"all"'), "workers"),
    (comparison(workers="99"), "workers"),
    (comparison(workers="-1"), "workers"),
    (comparison(workers="1.5"), "workers"),
    (comparison(game_params='"x"'), "game_params"),
    (comparison(game_params="{max_moves = 'abc'}"), "with parameters"),
    (comparison(seeds="[-1]"), "seeds"),
    (comparison(seeds='"x"'), "seeds"),
    (comparison(seeds="[1, 1]"), "seeds"),
    (comparison(seeds="[1.5]"), "seeds"),
    (comparison(evaluations="0"), "evaluations"),
    (comparison(evaluations='"two"'), "evaluations"),
    (comparison(evaluations=None), "give a budget"),
    (comparison(budget='"soon"'), "budget"),
    (comparison(budget="30"), "budget"),
    (comparison(matches="0"), "matches"),
    (comparison(matches="true"), "matches"),
    (comparison(game='"nosuchgame"'), "nosuchgame"),
    (comparison(game="5"), "game"),
    (comparison(game=None), "game"),
    (comparison(target='"nobody"'), "unknown player 'nobody'"),
    (comparison(target='"program:missing.txt"'), "missing.txt"),
    (comparison(target='"program:binary.txt"'), "binary.txt"),
    (comparison(paired="true", matches="3"), "matches must be even"),
    (comparison(stop_at="-1"), "stop_at"),
    (comparison(clock='"moon"'), "clock"),
    (comparison(engine='"warp"'), "engine"),
    (comparison(backend='"quantum"'), "backend"),
    (comparison(nosuch="1"), "unknown field 'nosuch'"),
    (comparison(fitness='"nosuch.module:fit"'), "cannot import nosuch.module"),
    (comparison(fitness='"c"'), "needs data"),
    (comparison(data='"missing.jsonl"', fitness='"c"', score='"A"'), "missing.jsonl"),
    (comparison(initial='"binary.txt"'), "binary.txt"),
    (comparison(initial='"program.txt"'), "program.txt"),
    (comparison(initial='"deep.txt"'), "deep.txt"),
    (comparison(fitness_time_limit="-1"), "fitness_time_limit"),
    (comparison(methods='method = "annealing"'), "annealing"),
    (comparison(methods='method = "sa"\nnosuch = 1'), "unknown field 'nosuch'"),
    (comparison(methods='method = "gp"\npopulation = 1'), "population"),
    (comparison(methods='method = "sa"|method = "sa"'), "method labels must differ"),
    (comparison(methods='label = "a/b"|label = "a b"'), "method labels must differ"),
    (comparison(methods='method = 5'), "method"),
    (comparison(methods='method = "sa"\nmatches = 0'), "matches"),
    (comparison(methods='method = "sketch-sa"\nsketch_share = 5\nscore = "A"\n'
                f'data = "{DATA}"'), "sketch_share"),
    ("[experiment]\nout = 'out'\ngame = 'cantstop'\nevaluations = 2\n", "[[methods]]"),
    ("[[methods]]\nmethod = 'sa'\n", "missing [experiment] section"),
    ("experiment = 5\n[[methods]]\nmethod = 'sa'\n", "missing [experiment] section"),
    (comparison() + "methods = 5\n", "c.toml"),
    (comparison() + "[extra]\n", "unknown section(s)"),
    ("[experiment\n", "c.toml: not TOML"),
    ("", "missing [experiment] section"),
]:
    case("toml", ["run", "c.toml", "--quiet"], fragment, toml(text))
case("toml", ["run", "binary.txt"], "binary.txt: not text (UTF-8)")
case("toml", ["run", "garbage.jsonl"], "garbage.jsonl: not TOML")
case("toml", ["run", "notes.toml"], "notes.toml: not TOML")
case("toml", ["run", "c.toml", "--jobs", "0"], "jobs", toml(comparison()))
case("toml", ["run", "c.toml", "--jobs", "x"], "jobs", toml(comparison()))

# -- run directories: config.json, log.csv, what a run directory holds ------------------------

SA_CONFIG = "sa/config.json"
for prepare, fragment in [
    (write(SA_CONFIG, "[1]\n"), "expected a table of settings, got list"),
    (write(SA_CONFIG, "{garbage\n"), "config.json: not JSON"),
    (write(SA_CONFIG, b"\x00\xff\xfe"), "config.json: not text (UTF-8)"),
    (write(SA_CONFIG, ""), "config.json: not JSON"),
    (write(SA_CONFIG, '"a string"\n'), "expected a table of settings, got str"),
    (edit_config("sa", kind="alien"), "kind"),
    (edit_config("sa", kind="selfplay"), "selfplay"),
    (edit_config("sa", game="nosuchgame", refingerprint=True), "nosuchgame"),
    (edit_config("sa", game=None), "game"),
    (edit_config("sa", seed=7), "setting(s) seed changed"),
    (edit_config("sa", matches=3), "setting(s) matches changed"),
    (edit_config("sa", target="ga"), "setting(s) target changed"),
    (edit_config("sa", method="gp"), "method"),
    (edit_config("sa", evaluations=99), "setting(s) evaluations changed"),
    (edit_config("sa", game_params={"max_moves": 5}), "game_params"),
    (edit_config("sa", identity="forged"), "identity must be a table"),
    (edit_config("sa", nosuch=1), "has no setting nosuch"),
    (edit_config("sa", evaluations="x", refingerprint=True), "evaluations"),
    (edit_config("sa", evaluations=0, refingerprint=True), "evaluations"),
    (edit_config("sa", matches=-1, refingerprint=True), "matches"),
    (edit_config("sa", seed=-1, refingerprint=True), "seed"),
    (edit_config("sa", workers="all"), "workers"),
    (edit_config("sa", workers=99), "workers"),
    (edit_config("sa", game_params="x", refingerprint=True), "game_params"),
    (edit_config("sa", game_params={"max_moves": "abc"}, refingerprint=True), "with parameters"),
    (edit_config("sa", budget="soon", refingerprint=True), "budget"),
    (edit_config("sa", engine="warp"), "engine"),
    (edit_config("sa", backend="quantum"), "backend"),
    (edit_config("sa", target="nobody", refingerprint=True), "unknown player 'nobody'"),
    (edit_config("sa", target="program:missing.txt", refingerprint=True), "missing.txt"),
    (edit_config("sa", fitness="hostile:fit", refingerprint=True),
     "fitness 'hostile:fit' would import and run module hostile"),
    (edit_config("sa", backend="dask", scheduler="tcp://127.0.0.1:9"),
     "pass --scheduler tcp://127.0.0.1:9"),
    (edit_config("sa", initial="../binary.txt", refingerprint=True),
     "initial '../binary.txt' is not a file in the run directory"),
    (edit_config("sa", initial="missing.txt", refingerprint=True), "initial 'missing.txt'"),
    (edit_config("sa", target="program:../hexapawn.txt", refingerprint=True),
     "reads ../hexapawn.txt, outside the run directory"),
    (edit_config("sa", method="annealing", refingerprint=True), "annealing"),
]:
    case("config.json", ["resume", "sa", "--quiet"], fragment, prepare)

for prepare, fragment in [
    (write(SA_CONFIG, "[1]\n"), "expected a table of settings"),
    (write(SA_CONFIG, b"\x00\xff"), "not text (UTF-8)"),
    (edit_config("sa", game="nosuchgame"), "nosuchgame"),
    (edit_config("sa", target="nobody"), "nobody"),
    (edit_config("sa", target="program:../hexapawn.txt"), "outside the run directory"),
]:
    case("config.json", ["select", "sa", "--top", "1", "--matches", "2"], fragment, prepare)

QD_CONFIG = "qd/config.json"
for prepare, fragment in [
    (write(QD_CONFIG, "[1]\n"), "expected a table of settings"),
    (write(QD_CONFIG, "{garbage"), "not JSON"),
    (edit_config("qd", features="nosuch", refingerprint=True), "unknown feature(s)"),
    (edit_config("qd", dims="3,3,3", refingerprint=True), "dims"),
    (edit_config("qd", dims="100000,100000", refingerprint=True), "cells (at most"),
    (edit_config("qd", seed=5), "setting(s) seed changed"),
    (edit_config("qd", matches=7), "setting(s) matches changed"),
    (edit_config("qd", target="nobody", refingerprint=True), "nobody"),
    (edit_config("qd", target="program:../hexapawn.txt", refingerprint=True),
     "outside the run directory"),
    (edit_config("qd", evaluations=0, refingerprint=True), "evaluations"),
    (edit_config("qd", resample="bogus", refingerprint=True), "resample"),
]:
    case("config.json", ["resume", "qd", "--quiet"], fragment, prepare)
    case("config.json", ["qd-check", "qd", "--matches", "2", "--workers", "1"], fragment,
         prepare)

for edit, fragment in [
    (lambda rows: rows + ["garbage,row"], "log.csv: line 5: not a row of this log"),
    (lambda rows: rows[:2] + ["1,2,3"] + rows[3:], "log.csv: line 3: not a row of this log"),
    (lambda rows: [rows[0], "x" + rows[1]] + rows[2:], "log.csv: line 2: seconds 'x"),
    (lambda rows: ["nonsense,header"] + rows[1:], "log.csv"),
]:
    case("run directory", ["resume", "sa", "--quiet"], fragment, edit_log("sa", edit))
    case("run directory", ["select", "sa", "--top", "1", "--matches", "2"], fragment,
         edit_log("sa", edit))
case("run directory", ["resume", "sa", "--quiet"], "log.csv: not a run log (not text",
     write("sa/log.csv", b"\xff\xfe\x00"))
case("run directory", ["select", "sa"], "no Ψ evaluations to select from",
     edit_log("sa", lambda rows: rows[:1]))
case("run directory", ["select", "adir"], "not a run directory")
case("run directory", ["resume", "adir"], "not a run directory")
case("run directory", ["resume", "binary.txt"], "not a run directory")
case("run directory", ["qd-check", "adir"], "not a run directory")
case("run directory", ["qd-check", "qd"], "archive.json",
     lambda tmp: (tmp / "qd" / "archive.json").unlink())
case("run directory", ["qd-check", "qd"], "archive.json", write("qd/archive.json", "[1]"))
case("run directory", ["resume", "sa", "--quiet"], "another process is working in this run",
     hold_lock)
case("run directory", ["select", "qd"], "qd")
case("run directory", ["report", "cmp"], "no finished runs",
     lambda tmp: (tmp / "cmp" / "runs" / "sa").mkdir(parents=True))
case("run directory", SYNTH[:-1] + ["sa"], "sa")
case("run directory", QD[:-1] + ["sa"], "sa")
case("run directory", TOURNAMENT[:-1] + ["sa"], "sa")
case("run directory", POOL[:-1] + ["sa"], "sa")
case("run directory", SELFPLAY[:-1] + ["sa"], "sa")
case("run directory", REGRET[:-1] + ["sa"], "sa")
case("run directory", ["run", "c.toml"], "sa",
     toml(comparison(out='"sa"')))
for name, text, fragment in [
    ("pairs.jsonl", '{"format": "stratsynth-tournament-pairs", "names": ["random", "ga"], '
     '"matches": 99, "seed": 0}\n', "matches 99 there, 2 here"),
    ("pairs.jsonl", "[1]\n", "run/pairs.jsonl: not a tournament pairings file"),
    ("pairs.jsonl", "{garbage\n", "run/pairs.jsonl: not a tournament pairings file"),
]:
    case("run directory", TOURNAMENT, fragment, write(f"run/{name}", text))
for text, fragment in [
    ('{"game": "cantstop", "game_params": {}, "matches": 99, "seed": 0, "pool": ["ga"]}\n',
     "a run with another setting (matches 99 there, 2 here"),
    ("[1]\n", "run/matrix.json: not a pool matrix"),
    ("{garbage", "run/matrix.json: not JSON"),
    (b"\xff\xfe", "run/matrix.json: not text (UTF-8)"),
]:
    case("run directory", POOL, fragment, write("run/matrix.json", text))
for text, fragment in [
    ('{"setting": {"game": "tictactoe", "runs": 5}, "learners": {}}\n',
     "run/curves.json: a run with another setting"),
    ("[1]\n", "run/curves.json: not the curves of a regret run"),
    ("{garbage", "run/curves.json: not JSON"),
]:
    case("run directory", REGRET, fragment, write("run/curves.json", text))
for text, fragment in [
    ('{"kind": "selfplay", "game": "cantstop", "matches": 99}\n',
     "run/config.json: a run with another setting"),
    ("[1]\n", "run/config.json"),
    ("{garbage", "run/config.json: not JSON"),
]:
    case("run directory", SELFPLAY, fragment, write("run/config.json", text))

# -- program files -------------------------------------------------------------------------

PROGRAMS = [("binary.txt", "binary.txt: not text (UTF-8)"), ("program.txt", "program.txt"),
            ("deep.txt", "deep.txt: brackets nested 5001 deep"),
            ("long.txt", "long.txt: 320,005 characters, too long"),
            ("chain.txt", "chain.txt: nested too deeply to read"),
            ("empty.txt", "empty.txt"), ("missing.txt", "missing.txt"), ("adir", "adir"),
            ("table.json", "table.json"), ("hexapawn.txt", "hexapawn.txt")]
for name, fragment in PROGRAMS:
    case("program file", ["play", "cantstop", "--p0", f"program:{name}", "--p1", "random"],
         fragment)
    case("program file", SYNTH + ["--initial", name], fragment)
    case("program file", SYNTH + ["--target", f"program:{name}"], fragment)
for name, fragment in PROGRAMS[:5]:
    case("program file", TOURNAMENT + ["--players", f"random,program:{name}"], fragment)
    case("program file", POOL + ["--pool", f"program:{name}"], fragment)
    case("program file", QD + ["--target", f"program:{name}"], fragment)
    case("program file", RECORD + ["--player", f"program:{name}"], fragment)
for name, fragment in [("binary.txt", "binary.txt: not a program"),
                       ("list.json", "list.json: not a program"),
                       ("garbage.jsonl", "garbage.jsonl"), ("missing.json", "is not a file"),
                       ("table.json", "table.json")]:
    case("program file", SELFPLAY + ["--oracle", "hss", "--library", name], fragment)

# -- data files ----------------------------------------------------------------------------

for name, fragment in [("binary.txt", "binary.txt: not text (UTF-8)"),
                       ("garbage.jsonl", "garbage.jsonl:1: not JSON"),
                       ("missing.jsonl", "data 'missing.jsonl' is not a file"),
                       ("list.json", "list.json"), ("table.json", "table.json"),
                       ("empty.txt", "empty.txt"), ("adir", "adir")]:
    sketch = [*SYNTH, "--method", "sketch-sa", "--score", "A", "--data", name]
    case("data file", sketch, fragment)
    case("data file", [*SYNTH, "--fitness", "psi+c", "--score", "O", "--data", name], fragment)
    case("data file", ["run", "c.toml"], fragment, toml(comparison(
        methods=f'method = "sketch-sa"\nscore = "A"\ndata = "{name}"')))

# -- plug-ins ------------------------------------------------------------------------------

for spec, fragment in [("nosuch.module:fit", "cannot import nosuch.module"),
                       ("tests.fitness_plugin:nosuch", "has no function nosuch"),
                       ("no-colon", "must look like package.module:function"),
                       ("tests.fitness_plugin:", "must look like package.module:function"),
                       (":fit", "must look like package.module:function"),
                       ("tests.fitness_broken_import:fit",
                        "importing tests.fitness_broken_import raised RuntimeError: needs a GPU"),
                       ("tests.fitness_plugin:NOT_A_FUNCTION", "has no function"),
                       ("tests.fitness_plugin:c", "is a built-in metric's")]:
    case("plug-in", SYNTH + ["--fitness", spec], fragment)
    case("plug-in", ["run", "c.toml"], fragment, toml(comparison(fitness=f'"{spec}"')))
case("plug-in", ["resume", "sa", "--quiet", "--fitness", "nosuch.module:fit"],
     "not the run's fitness")
case("plug-in", SYNTH + ["--method", "nosuch-plugin"], "method 'nosuch-plugin' unknown")
case("plug-in", SELFPLAY + ["--driver", "nosuch-plugin"], "nosuch-plugin")
case("plug-in", ["check-game", "nosuch-plugin"], "nosuch-plugin")


# -- running a case ------------------------------------------------------------------------

class CaseHung(BaseException):
    """A case ran past ``TIME_LIMIT`` (not an ``Exception``: the CLI must not catch it)."""


@dataclass(frozen=True)
class Outcome:
    """What a case did: its exit code (None: an exception escaped), its stderr, the
    exception that escaped, whether it hung, and the files it created or changed."""

    code: int | None
    err: str
    raised: str | None
    hung: bool
    changed: tuple[str, ...]

    def verdict(self, case: Case) -> str:
        """``clear`` (exit 2, one line naming the culprit, nothing written), or what
        went wrong first: ``hang``, ``traceback``, ``silent`` (exit 0), ``writes``,
        ``unclear`` (another code, more lines, or the culprit not named)."""
        if self.hung:
            return "hang"
        if self.raised:
            return "traceback"
        if self.code == 0:
            return "silent"
        if self.changed:
            return "writes"
        if self.code == 2 and self.err.count("\n") == 1 \
                and self.err.startswith("stratsynth: error:") and case.fragment in self.err:
            return "clear"
        return "unclear"


def make_runs(base: Path) -> Path:
    """A finished synthesis run ``sa`` and a qd run ``qd``, copied into each case."""
    import contextlib
    import io
    import os

    here = os.getcwd()
    os.chdir(base)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["synth", "cantstop", "--evaluations", "3", "--matches", "2",
                         "--workers", "1", "--quiet", "--out", "sa"]) == 0
            assert main(["qd", "cantstop", "--evaluations", "2", "--matches", "2",
                         "--workers", "1", "--quiet", "--out", "qd"]) == 0
    finally:
        os.chdir(here)
    return base


def snapshot(path: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(path.rglob("*"))}


def run_case(case: Case, tmp: Path, runs: Path) -> Outcome:
    """Run ``case`` in the empty directory ``tmp`` (``runs``: from ``make_runs``)."""
    import contextlib
    import io
    import os

    from experiments.lock import claim

    for name, content in INPUTS.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_bytes(content)
    for run in ("sa", "qd"):
        shutil.copytree(runs / run, tmp / run)
    if case.prepare is not None:
        case.prepare(tmp)
    here = os.getcwd()
    os.chdir(tmp)
    err = io.StringIO()
    code = raised = None
    hung = False

    def expire(signum, frame):
        raise CaseHung()

    previous = signal.signal(signal.SIGALRM, expire)
    with contextlib.ExitStack() as stack:
        if case.prepare is hold_lock:
            assert stack.enter_context(claim(tmp / "sa"))
        before = snapshot(tmp)
        signal.alarm(TIME_LIMIT)
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(list(case.argv))
        except CaseHung:
            hung = True
        except BaseException as error:  # a traceback the user would have seen
            raised = f"{type(error).__name__}: {error}"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            os.chdir(here)
        after = snapshot(tmp)
    changed = tuple(sorted(k for k in set(before) | set(after) if before.get(k, 0)
                           != after.get(k, 0)))
    return Outcome(code, err.getvalue(), raised, hung, changed)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.mark.parametrize("case", CASES, ids=[f"{i} {c.name}" for i, c in enumerate(CASES)])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, runs, case):
    if case.needs:
        pytest.importorskip(case.needs, reason=f"needs the extra that provides {case.needs}")
    outcome = run_case(case, tmp_path, runs)
    assert outcome.verdict(case) == "clear", outcome


def test_a_reader_that_leaves_early_is_no_error(tmp_path):
    """``stratsynth play ... | head -1``: the closed pipe ends the command quietly."""
    command = [sys.executable, "-m", "experiments.cli", "play", "cantstop", "--p0", "random",
               "--p1", "random", "-n", "20", "--workers", "1"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=ROOT)
    child.stdout.close()  # the reader is gone before the first line
    assert child.wait() == 0
    assert child.stderr.read() == b""


def test_a_plugin_method_that_raises_is_one_line_naming_it(tmp_path, capsys, monkeypatch):
    """A synthesizer from outside the project that fails mid-run: one line naming it,
    exit 2, and the evaluations it logged kept for a resume."""
    from gp import synthesis
    from gp.synthesis import Synthesizer, SynthesizerSettings

    class Crashing(Synthesizer):
        name = "test-crashing"
        summary = "raises after one evaluation"
        Settings = SynthesizerSettings

        def run(self):
            self.evaluator.score(self.language.random_program(self.rng))
            raise KeyError("lost its way")

    monkeypatch.setitem(synthesis._REGISTRY, "test-crashing", Crashing)
    run = tmp_path / "run"
    code = main(["synth", "cantstop", "--method", "test-crashing", "--evaluations", "3",
                 "--matches", "2", "--workers", "1", "--quiet", "--out", str(run)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"{run}: method test-crashing (tests.test_bad_input) raised KeyError" in err, err
    assert len((run / "log.csv").read_text().splitlines()) == 2  # header and one row
