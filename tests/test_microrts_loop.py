"""The Java match loop (``stratsynth.MatchRunner``) plays the same matches as the
Python loop, with fewer JVM calls."""

from pathlib import Path

import pytest

from games.backends import PoolMap
from games.microrts import BotSpec
from gp.languages.microrts import MicroRTSProgramPlayer

from .extras import need_microrts

PROGRAMS = Path(__file__).resolve().parents[1] / "experiments" / "programs"


def _both_loops(_) -> list:
    from games.microrts.match import play_microrts_match

    program = MicroRTSProgramPlayer((PROGRAMS / "microrts_coac_16x16.txt").read_text())
    rush = MicroRTSProgramPlayer((PROGRAMS / "microrts_workerrush.txt").read_text())
    out = []
    for seats in ((program, BotSpec("workerrush")), (BotSpec("randombiased"), rush),
                  (program, rush)):
        pair = []
        for loop in ("python", "java"):
            r = play_microrts_match("16x16", seats, max_cycles=600, stats=True, loop=loop,
                                    seeds=(3, 4, 5))
            pair.append((r["winner"], r["cycles"], r["seat_stats"], r["forfeit"]))
        out.append(pair)
    return out


def test_java_and_python_loops_play_identical_matches():
    need_microrts()
    with PoolMap(1) as pool:
        results = pool(_both_loops, [None])[0]
    for python, java in results:
        assert python == java
    assert any(sum(s["produced_Worker"] for s in pair[0][2]) > 0 for pair in results)


class _Broken:
    """A program player whose program raises on its first decision."""

    name = "broken"

    def build(self, utt):
        bot = MicroRTSProgramPlayer("pass", evaluator="python").build(utt)

        def decide(player, rows):
            raise ZeroDivisionError("the program divided by zero")

        bot.decide = decide
        return bot


def _broken_and_timed_out(_) -> tuple[dict, dict]:
    from games.microrts.match import play_microrts_match

    broken = play_microrts_match("16x16", (BotSpec("workerrush"), _Broken()), loop="java")
    slow = play_microrts_match("16x16", (BotSpec("coac"), BotSpec("coac")), loop="java",
                               max_seconds=0.0)
    return broken, slow


def test_a_failing_program_forfeits_and_the_clock_is_checked_in_the_java_loop():
    need_microrts()
    with PoolMap(1) as pool:
        broken, slow = pool(_broken_and_timed_out, [None])[0]
    assert broken["forfeit"] == 1 and broken["winner"] == 0
    assert "ZeroDivisionError" in broken["error"]
    assert slow["timed_out"] and slow["winner"] is None


def test_unknown_loop_is_refused_before_any_jvm_starts():
    from games.microrts.match import play_microrts_match

    with pytest.raises(ValueError, match="match loop must be one of"):
        play_microrts_match("16x16", (BotSpec("coac"), BotSpec("coac")), loop="nope")


def _with_and_without_loop_skipping(_) -> list:
    import gp.languages.microrts as dsl
    from games.microrts.match import play_microrts_match

    nested = ("for u in s:\n    for u in s:\n        for u in s:\n            u.idle()\n"
              "    u.harvest(2)\n    for u in s:\n        u.train(Worker, EnemyDir, 6)\n"
              "        u.attack(Closest)\n    u.build(Barracks, Up, 1)\n"
              "    for u in s:\n        u.moveToUnit(Enemy, Random)\n")
    out = []
    for skip in (True, False):
        dsl.SKIP_REPEATED_LOOPS = skip
        try:
            players = [MicroRTSProgramPlayer(text) for text in (
                nested, (PROGRAMS / "microrts_coac_16x16.txt").read_text())]
            runs = [play_microrts_match("16x16", (p, BotSpec("lightrush")), max_cycles=800,
                                        stats=True, seeds=(1, 2, 3)) for p in players]
        finally:
            dsl.SKIP_REPEATED_LOOPS = True
        out.append([(r["winner"], r["cycles"], r["seat_stats"]) for r in runs])
    return out


def test_skipping_repeated_command_loops_changes_no_match():
    need_microrts()
    with PoolMap(1) as pool:
        skipped, plain = pool(_with_and_without_loop_skipping, [None])[0]
    assert skipped == plain
