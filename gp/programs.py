"""Program files as players: ``program:FILE`` on the command line.

A game names the strategy classes that run its programs in its ``GameSpec``
(``languages``); a program file is the program text (``str(program)``), ``#``
comments allowed.
"""

from __future__ import annotations

from pathlib import Path

from games import game_spec


def strategy_class(game_name: str, dsl: str | None = None):
    """The program strategy class of a game's language (default: its first)."""
    return game_spec(game_name).language(dsl)


def read_program(game_name: str, path: str, dsl: str | None = None):
    """The program tree in a file, in a game's language; errors name the file and line."""
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{path}: no such program file")
    try:
        text = file.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not text (UTF-8)") from None
    if not any(line.split("#", 1)[0].strip() for line in text.splitlines()):
        raise ValueError(f"{path}: empty program (the file holds no program)")
    return strategy_class(game_name, dsl).parse_program(text, source=str(path))


def load_program_player(game_name: str, path: str, dsl: str | None = None, **options):
    """The strategy a program file describes; errors name the file and line.

    ``options`` go to the strategy class (e.g. ``depth`` of an evaluation program)."""
    cls = strategy_class(game_name, dsl)
    tree = read_program(game_name, path, dsl)
    try:
        return cls(tree, name=f"program:{path}", **options)
    except TypeError:
        raise ValueError(f"program:{path}: unknown option(s) {sorted(options)}") from None
