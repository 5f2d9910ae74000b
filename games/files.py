"""Result files of resumable runs: written so that a kill never leaves half a file,
and continued only by the run that made them."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: after a kill
    the file holds the old text or the new, never part of one (resumable runs read
    these files back)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def check_same_setting(path: str | Path, saved: dict, wanted: dict) -> None:
    """Refuse to continue the run kept in ``path`` (its setting ``saved``) with another
    setting (``wanted``): one line naming the file and each key that differs."""
    differ = sorted(k for k in set(saved) | set(wanted) if saved.get(k) != wanted.get(k))
    if differ:
        shown = ", ".join(f"{k} {saved.get(k)!r} there, {wanted.get(k)!r} here" for k in differ)
        raise ValueError(f"{path}: a run with another setting ({shown}); use a new --out")
