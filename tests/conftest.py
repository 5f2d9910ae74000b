"""Session-wide test settings: the skip count, and no skips where every extra is installed.

``make test`` installs every extra and a JDK is on the machine, so a skipped test there
means a guard or an install step is wrong: with ``STRATSYNTH_NO_SKIPS=1`` (set by
``make test``) any skip fails the run.
"""

from __future__ import annotations

import os

NO_SKIPS = "STRATSYNTH_NO_SKIPS"


def _skipped(config) -> int:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return 0 if reporter is None else len(reporter.stats.get("skipped", []))


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get(NO_SKIPS) == "1" and _skipped(session.config) and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = _skipped(config)
    terminalreporter.write_line(f"skipped tests: {skipped}")
    if os.environ.get(NO_SKIPS) == "1" and skipped:
        terminalreporter.write_line(f"{NO_SKIPS}=1: every extra is installed here, so no test "
                                    "may skip (see the skip reasons above)", red=True)
