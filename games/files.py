"""Writing result files so that a kill mid-write never leaves half a file."""

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
