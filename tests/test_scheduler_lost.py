"""A dask scheduler unreachable or killed mid-run: the run says so in one line (exit 2);
killed mid-run, the run keeps every evaluation it logged and resumes on another
scheduler to the result it would have had."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from experiments.cli import main

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SETTINGS = ["cantstop", "--evaluations", "40", "--matches", "20", "--seed", "3", "--quiet"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_cluster(tmp_path: Path) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and one worker, each its own process (as on a real cluster)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path,
             "env": ENV}
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host",
                                  "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nthreads",
                               "1", "--nworkers", "1", "--no-dashboard"], **quiet)
    return address, [scheduler, worker]


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()


def rows(run: Path) -> list[str]:
    """The log without its seconds column (the rest replays byte for byte)."""
    return [row.split(",", 1)[1] for row in (run / "log.csv").read_text().splitlines()]


@pytest.mark.slow
def test_a_killed_scheduler_is_one_line_and_the_run_resumes(tmp_path):
    run = tmp_path / "run"
    address, cluster = start_cluster(tmp_path)
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "experiments.cli", "synth", *SETTINGS, "--backend", "dask",
             "--scheduler", address, "--out", str(run)],
            cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 240
        while not ((run / "log.csv").is_file() and len(rows(run)) > 3):
            assert child.poll() is None and time.monotonic() < deadline, child.stderr.read()
            time.sleep(0.05)
        cluster[0].send_signal(signal.SIGKILL)  # the scheduler, mid-run
        err = child.communicate(timeout=120)[1]
    finally:
        stop(cluster)
    assert child.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("stratsynth: error:"), err
    assert f"dask scheduler {address}: the connection was lost" in err
    assert f"stratsynth resume {run} --scheduler ADDRESS" in err
    logged = rows(run)
    assert 3 <= len(logged) - 1 < 40 and not (run / "done").exists()

    address, cluster = start_cluster(tmp_path)
    try:
        assert main(["resume", str(run), "--quiet", "--scheduler", address]) == 0
    finally:
        stop(cluster)
    serial = tmp_path / "serial"
    assert main(["synth", *SETTINGS, "--workers", "1", "--out", str(serial)]) == 0
    assert rows(run) == rows(serial) and rows(run)[:len(logged)] == logged


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path, capsys):
    """dask tries to connect for its connect timeout (30 s by default) first."""
    address = f"tcp://127.0.0.1:{free_port()}"
    code = main(["synth", *SETTINGS, "--backend", "dask", "--scheduler", address,
                 "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"dask scheduler {address}" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_clients_tracebacks_are_silenced_while_it_runs_and_restored_after():
    """Both loggers that print a traceback when the scheduler dies (the client's and its
    batched sender's) stay quiet while a run uses dask, and get their levels back."""
    import logging

    from games.backends import CLIENT_LOGS, DaskMap

    logs = [logging.getLogger(name) for name in CLIENT_LOGS]
    assert "distributed.batched" in CLIENT_LOGS
    before = [log.level for log in logs]
    with DaskMap(workers=1) as pool:
        assert all(log.level == logging.CRITICAL for log in logs)
        assert pool(abs, [-1, 2]) == [1, 2]
    assert [log.level for log in logs] == before
