"""One schema for every run, synthesis and QD: its keys and their defaults, in one place.

A run's ``config.json``, a ``[[methods]]`` entry of a TOML comparison, the
command line and the Python API (``experiments.api``) all say the same keys;
``run_config`` fills what they leave out from ``DEFAULTS`` and rejects keys the
run's kind does not have, naming where they came from. ``None`` means "the
game's own" for ``target`` and ``matches`` (``SynthesisSpec.target``,
``SynthesisSpec.matches``) and "not set" elsewhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

COMMON: dict[str, Any] = {
    "kind": "synth",
    "game": None,
    "game_params": None,
    "dsl": None,
    "target": None,
    "matches": None,
    "seed": 0,
    "workers": 0,
    "backend": None,
    "scheduler": None,
    "budget": None,
    "evaluations": None,
    "label": None,
}
"""Keys every run has (``label``: the name a comparison gives its method)."""

DEFAULTS: dict[str, dict[str, Any]] = {
    "synth": {**COMMON, "kind": "synth", "method": "sa", "fitness": "psi", "score": None,
              "data": None, "initial": None, "sketch_share": None,
              "rollout_evaluations": None, "population": None, "remeasure_restarts": False,
              "sketch_schedule": "text", "paper": False, "clock": "wall",
              "restart_random": False, "paired": False, "margin_weight": None,
              "stop_at": None},
    "qd": {**COMMON, "kind": "qd", "matches": 200, "features": None, "dims": None,
           "cells": 100, "batch": 8},
}
"""Run kind -> every key of its config and its default."""


def run_config(settings: dict[str, Any], where: str = "command line") -> dict[str, Any]:
    """A complete config from the settings given (kind ``synth`` unless said)."""
    kind = settings.get("kind") or "synth"
    if kind not in DEFAULTS:
        raise ValueError(f"{where}: kind '{kind}' unknown (known: {', '.join(DEFAULTS)})")
    unknown = sorted(set(settings) - set(DEFAULTS[kind]))
    if unknown:
        raise ValueError(f"{where}: unknown setting(s) {', '.join(unknown)} for a {kind} run "
                         f"(known: {', '.join(DEFAULTS[kind])})")
    settings = apply_paper(settings, where)
    config = dict(DEFAULTS[kind])
    config.update({key: value for key, value in settings.items() if value is not None})
    config["kind"] = kind
    return config


def _sa_on_psi(settings: dict[str, Any]) -> bool:
    return (settings.get("method") or "sa") in ("sa", "sketch-sa") and \
        settings.get("fitness") in (None, "psi")


PAPER_APPLIES = {
    "remeasure_restarts": _sa_on_psi,
    "restart_random": lambda settings: (settings.get("method") or "sa") == "sa",
    "sketch_schedule": lambda settings: settings.get("method") == "sketch-sa",
}
"""Paper settings that only some methods have: key -> does it apply to these settings."""


def apply_paper(settings: dict[str, Any], where: str = "command line") -> dict[str, Any]:
    """Settings with what ``paper = true`` stands for filled in (the game's
    ``SynthesisSpec.paper_settings``), where not given explicitly and where they apply
    to the method; unchanged without ``paper``."""
    if not settings.get("paper"):
        return settings
    from games import game_spec

    if not settings.get("game"):
        raise ValueError(f"{where}: paper needs a game")
    spec = game_spec(settings["game"])
    if not spec.synthesis.paper_settings:
        raise ValueError(f"{where}: game '{spec.name}' has no paper mode "
                         "(its SynthesisSpec declares no paper_settings)")
    out = dict(settings)
    for key, value in spec.synthesis.paper_settings.items():
        if out.get(key) is None and PAPER_APPLIES.get(key, bool)(out):
            out[key] = value
    return out


def kind_of(config: dict[str, Any]) -> str:
    """The kind a run's config says (configs written before the field: by their command)."""
    return config.get("kind") or ("qd" if config.get("command") == "qd" else "synth")


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(text: str) -> float:
    """'90', '90s', '30m', '2h' -> seconds."""
    match = _DURATION.match(str(text))
    if not match:
        raise ValueError(f"budget '{text}' is not a duration like 90s, 30m or 2h")
    return float(match.group(1)) * {"s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]


def read_run_config(run_dir: Path) -> dict[str, Any]:
    """A run directory's ``config.json``; errors name the file."""
    path = run_dir / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: not a run directory (no config.json)")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None
