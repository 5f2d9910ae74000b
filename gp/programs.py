"""Program files as players: ``program:FILE`` on the command line.

Each game with a DSL names the strategy class that runs its programs; a program
file is the program text (``str(program)``), ``#`` comments allowed.
"""

from __future__ import annotations

import importlib
from pathlib import Path

PROGRAM_STRATEGIES: dict[str, tuple[str, str]] = {
    "cantstop": ("gp.cantstop_dsl", "SketchStrategy"),
    "expendibots": ("gp.expendibots_dsl", "EvaluationProgramPlayer"),
    "microrts": ("gp.microrts_dsl", "MicroRTSProgramPlayer"),
}
"""Game name -> (module, strategy class taking program text or tree)."""


def strategy_class(game_name: str):
    if game_name not in PROGRAM_STRATEGIES:
        raise ValueError(f"game '{game_name}' has no DSL for program players yet")
    module, cls = PROGRAM_STRATEGIES[game_name]
    return getattr(importlib.import_module(module), cls)


def load_program_player(game_name: str, path: str, **options):
    """The strategy a program file describes; errors name the file and line.

    ``options`` go to the strategy class (e.g. ``depth`` of an evaluation program)."""
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{path}: no such program file")
    cls = strategy_class(game_name)
    text = file.read_text()
    tree = cls.parse_program(text, source=str(path))
    try:
        return cls(tree, name=f"program:{path}", **options)
    except TypeError:
        raise ValueError(f"program:{path}: unknown option(s) {sorted(options)}") from None
