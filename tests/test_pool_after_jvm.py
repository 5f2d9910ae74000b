"""A worker pool made in a process that already runs a JVM (microRTS in-process) must
not fork it: a forked child inherits the JVM's held locks without its threads and can
wait forever."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from .extras import need_microrts

SCRIPT = textwrap.dedent("""
    import sys
    from games.backends import PoolMap, _start_method
    assert _start_method() == "fork", _start_method()
    from games.microrts.engine import start_jvm
    start_jvm()
    assert _start_method() == "spawn", _start_method()
    with PoolMap(1) as pool:
        print(pool(abs, [-3, 4, -5]))
""")


def test_a_pool_made_after_the_jvm_started_spawns_and_returns_its_jobs():
    need_microrts()
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3, 4, 5]"
