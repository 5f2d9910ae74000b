"""The example comparisons shipped with the package (``experiments/configs/*.toml``).

An example names its record files as the repository lays them out
(``experiments/data/...``); run as an example (``stratsynth run --example NAME``,
``stratsynth demo``), those paths are read from the installed package, so the
examples work from any directory, in a clone or after ``pip install .``. Where its
runs go (``out``) stays relative to the working directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
"""The directory holding the ``experiments`` package: the repository in a clone,
``site-packages`` after an install. Example paths are relative to it."""

CONFIGS = PACKAGE_ROOT / "experiments" / "configs"

FILE_SETTINGS = ("data", "initial")
"""Run settings that name a file (``SynthesisConfig``)."""


def example_names() -> list[str]:
    """Names of the shipped example configs (file names without ``.toml``)."""
    return sorted(path.stem for path in CONFIGS.glob("*.toml"))


def example_path(name: str) -> Path:
    """The shipped config ``name``; an unknown name lists the known ones."""
    path = CONFIGS / f"{name.removesuffix('.toml')}.toml"
    if not path.is_file():
        raise ValueError(f"no example '{name}' (examples: {', '.join(example_names())})")
    return path


def from_package(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with its relative file paths read from the package root."""
    out = dict(settings)
    for key in FILE_SETTINGS:
        value = out.get(key)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            out[key] = str(PACKAGE_ROOT / value)
    return out
