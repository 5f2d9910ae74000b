"""play, tournament, pool, select and qd-check play on the fast engine by default, with
the reference engine's results (``--engine reference`` gives the same counts)."""

from __future__ import annotations

import json

import pytest

from experiments.api import play, pool, tournament
from experiments.cli import main
from games.cantstop import kernel

GA = "program:experiments/programs/cantstop_ga.txt"


def _played(capsys, *extra) -> dict:
    assert main(["play", "cantstop", "--p0", GA, "--p1", "ga", "-n", "200", "--workers", "1",
                 "--json", *extra]) == 0
    out = json.loads(capsys.readouterr().out)
    out.pop("seconds")
    return out


@pytest.fixture
def kernel_calls(monkeypatch) -> list[int]:
    """The sizes of the job lists the kernel engine is given (serial play only)."""
    calls: list[int] = []
    original = kernel.KernelEngine.play

    def counting(self, jobs):
        calls.append(len(jobs))
        return original(self, jobs)

    monkeypatch.setattr(kernel.KernelEngine, "play", counting)
    return calls


def test_play_defaults_to_the_kernel_with_the_reference_counts(capsys, kernel_calls):
    fast = _played(capsys)
    assert kernel_calls
    kernel_calls.clear()
    reference = _played(capsys, "--engine", "reference")
    assert not kernel_calls
    assert fast == reference
    assert _played(capsys, "--engine", "numpy") == reference
    assert main(["play", "cantstop", "--p0", "ga", "--p1", "ga", "--engine", "jit"]) == 2


def test_the_api_play_takes_an_engine():
    fast = play("cantstop", GA, "rule28", matches=100, seed=4)
    reference = play("cantstop", GA, "rule28", matches=100, seed=4, engine="reference")
    assert (fast.wins, fast.wins_by_seat, fast.total_moves) == \
        (reference.wins, reference.wins_by_seat, reference.total_moves)
    with pytest.raises(ValueError, match="engine must be one of"):
        play("cantstop", "ga", "ga", matches=2, engine="jit")


def test_a_tournament_gives_the_same_table_on_every_engine(kernel_calls):
    specs = [GA, "ga", "rule28"]
    fast = tournament("cantstop", specs, matches=40, seed=2, workers=1)
    assert len(kernel_calls) == 3  # one call per pairing
    reference = tournament("cantstop", specs, matches=40, seed=2, workers=1,
                           engine="reference")
    assert fast.markdown() == reference.markdown() and len(kernel_calls) == 3
    assert fast.wins.sum() > 0


def test_a_pool_cell_is_the_same_on_every_engine(tmp_path, kernel_calls):
    def cells(engine: str) -> dict:
        matrix = pool("cantstop", [GA], ["ga", "random"], out=tmp_path / engine, matches=60,
                      seed=1, workers=1, engine=engine)
        return {opponent: {k: v for k, v in cell.items() if k != "seconds"}
                for opponent, cell in matrix["rows"]["cantstop_ga"].items()}

    assert cells("fast") == cells("reference")
    assert len(kernel_calls) == 2  # the fast engine's two cells


def test_qd_check_on_the_reference_engine_gives_the_same_report(tmp_path, capsys):
    out = tmp_path / "qd"
    assert main(["qd", "cantstop", "--features", "markers_per_stop,bust_rate", "--dims",
                 "4,4", "--matches", "20", "--evaluations", "16", "--batch", "4",
                 "--seed", "2", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    reports = []
    for engine in ("fast", "reference"):
        report = tmp_path / f"{engine}.md"
        assert main(["qd-check", str(out), "--matches", "60", "--workers", "1",
                     "--engine", engine, "--out", str(report)]) == 0
        reports.append([line for line in report.read_text().splitlines()
                        if line.startswith("| low") or line.startswith("| high")])
    assert reports[0] == reports[1] and len(reports[0]) == 2
