"""The quickstart notebook (docs/notebooks/quickstart.ipynb) runs top to bottom."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).parent.parent
NOTEBOOK = ROOT / "docs" / "notebooks" / "quickstart.ipynb"


def _text(cell) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", ()))


def _images(cell) -> int:
    return sum("image/png" in out.get("data", {}) for out in cell.get("outputs", ()))


def test_the_quickstart_notebook_runs_and_shows_what_it_says(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert "random's win rate" in _text(code[1])
    assert "SA: best Ψ" in _text(code[2]) and "GP: best Ψ" in _text(code[2])
    assert _images(code[3]) == 1 and "SA's program against GP's" in _text(code[3])
    assert any("| method | seeds |" in out.get("data", {}).get("text/markdown", "")
               for out in code[3].outputs)
    assert "'elites'" in _text(code[4]) and _images(code[4]) == 1
    assert "best strong_and_short " in _text(code[5])
