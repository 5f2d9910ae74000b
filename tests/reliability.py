"""Count the bad-input corpus (``tests/test_bad_input.py``) by category and outcome:
``python -m tests.reliability`` (``--show`` also prints every case that is not clear).

Each case is run as the test runs it, in-process, in a fresh directory; its outcome is
``clear`` (exit 2, one stderr line naming the culprit, no file created or changed),
``traceback``, ``hang`` (over ``TIME_LIMIT`` seconds), ``silent`` (exit 0),
``writes`` (rejected, but files created or changed) or ``unclear``. The table is the
one docs/reliability.md shows.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from .test_bad_input import CASES, make_runs, run_case

VERDICTS = ("clear", "traceback", "hang", "silent", "writes", "unclear")


def main(argv: list[str]) -> int:
    show = "--show" in argv
    counts: dict[str, Counter] = {}
    with tempfile.TemporaryDirectory() as base:
        runs = make_runs(Path(base))
        for i, case in enumerate(CASES):
            tmp = Path(base) / f"case{i}"
            tmp.mkdir()
            outcome = run_case(case, tmp, runs)
            verdict = outcome.verdict(case)
            counts.setdefault(case.category, Counter())[verdict] += 1
            if show and verdict != "clear":
                print(f"{verdict}: {case.name}\n    {outcome}", file=sys.stderr)
    total = sum(counts.values(), Counter())
    print("| category | cases | " + " | ".join(VERDICTS) + " |")
    print("|---" * (len(VERDICTS) + 2) + "|")
    for category, counter in [*counts.items(), ("**all**", total)]:
        print(f"| {category} | {sum(counter.values())} | "
              + " | ".join(str(counter[v]) for v in VERDICTS) + " |")
    return 0 if total["clear"] == sum(total.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
