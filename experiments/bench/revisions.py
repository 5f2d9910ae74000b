"""Old and new code side by side: a commit's tree extracted for a benchmark's child process."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def extract(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (``git archive``) in a fresh directory."""
    into.mkdir(parents=True, exist_ok=True)
    data = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into
