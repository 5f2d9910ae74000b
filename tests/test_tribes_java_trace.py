"""Games recorded from the Java framework replay exactly under rules version 4.

Every framework action must be legal in our engine, our legal list as large as the
framework's for every action type at every decision, and every per-turn summary (stars,
score, technologies, production, each city's level, population and production, each
unit's position, type and hp) equal, to the end of each game and its result
(``tests/fixtures/tribes_java_traces/README.md`` says how they were recorded).
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from games.tribes.framework_trace import load_trace, replay

TRACES = sorted((Path(__file__).parent / "fixtures" / "tribes_java_traces").glob("*.jsonl.gz"))


def test_at_least_twenty_framework_games_are_recorded():
    assert len(TRACES) >= 20
    ends = [load_trace(path)[-1] for path in TRACES]
    assert all("end" in line for line in ends)
    assert any(line["end"]["tick"] < 50 for line in ends)  # some end by a capital capture
    kinds = {line["action"]["type"] for path in TRACES for line in load_trace(path)
             if "action" in line}
    assert {"EXAMINE", "CAPTURE", "ATTACK", "BUILD", "BUILD_ROAD", "UPGRADE_BOAT", "DESTROY",
            "MAKE_VETERAN", "LEVEL_UP", "GROW_FOREST", "RECOVER", "DISBAND", "CONVERT",
            "DECLARE_WAR", "SEND_STARS", "UPGRADE_SHIP"} <= kinds
    assert sum(path.name.startswith("simple_") for path in TRACES) >= 10  # SimpleAgent pairs
    assert sum(path.name.startswith(("agents_", "rhea_")) for path in TRACES) >= 7  # its search
    played = Counter(line["action"]["type"] for path in TRACES for line in load_trace(path)
                     if "action" in line)
    # the rarely chosen actions, many times over (the rare_* games seek them out)
    assert min(played["CONVERT"], played["HEAL_OTHERS"]) >= 200 and played["EXAMINE"] >= 90


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name.split(".")[0])
def test_framework_game_replays_to_the_end(path):
    lines = load_trace(path)
    divergence, state = replay(lines)
    assert divergence is None, divergence
    assert state.is_terminal()
    assert sum("action" in line for line in lines) > 20


def test_every_recorded_decision_offers_as_many_actions_of_each_type():
    lines = [line for path in TRACES for line in load_trace(path) if "action" in line]
    assert len(lines) > 60_000 and all("kinds" in line for line in lines)
    assert all(sum(line["kinds"].values()) == line["n"] for line in lines)


def test_replay_reports_a_changed_summary_and_an_illegal_action():
    lines = load_trace(TRACES[0])
    changed = copy.deepcopy(lines)
    turns = [i for i, line in enumerate(changed) if "turn" in line]
    changed[turns[10]]["turn"]["tribes"][0]["score"] += 5
    divergence, _ = replay(changed)
    assert divergence is not None and divergence.event == turns[10]
    assert "score" in divergence.what
    moves = [i for i, line in enumerate(lines) if "action" in line
             and line["action"]["type"] == "MOVE"]
    bad = copy.deepcopy(lines)
    bad[moves[3]]["action"]["target"] = [-5, -5]
    divergence, _ = replay(bad)
    assert divergence is not None and divergence.event == moves[3]
    fewer = copy.deepcopy(lines)
    fewer[moves[5]]["kinds"]["MOVE"] -= 1
    divergence, _ = replay(fewer)
    assert divergence is not None and divergence.event == moves[5]
    assert "by type" in divergence.what


def test_replay_steers_a_capture_and_counts_its_draws():
    lines = load_trace(TRACES[0].parent / "simple_05.jsonl.gz")
    capture = next(i for i, line in enumerate(lines) if "action" in line
                   and line["action"]["type"] == "CAPTURE" and "draw" in lines[i + 1])
    assert replay(lines)[0] is None
    extra = copy.deepcopy(lines)
    extra.insert(capture + 1, {"draw": [2, 0]})  # one more draw than our engine makes
    divergence, _ = replay(extra)
    assert divergence is not None and divergence.event == capture
    assert "capture" in divergence.what


def test_replay_takes_an_unlisted_action_only_where_the_framework_could_play_it():
    lines = load_trace(TRACES[0].parent / "rhea_02.jsonl.gz")
    unlisted = [i for i, line in enumerate(lines) if line.get("listed") is False]
    assert unlisted and replay(lines)[0] is None  # the framework's RHEA played them
    moves = [i for i, line in enumerate(lines) if "action" in line
             and line["action"]["type"] == "MOVE"]
    skipped = copy.deepcopy(lines)  # one the framework could not execute changes nothing
    skipped.insert(moves[3], dict(skipped[moves[3]], listed=False, feasible=False,
                                  action={"type": "BUILD_ROAD", "target": [0, 0]}))
    assert replay(skipped)[0] is None
    wrong = copy.deepcopy(lines)  # a move our rules forbid even with level-ups waived
    wrong[moves[3]]["action"]["target"] = [-5, -5]
    wrong[moves[3]]["listed"] = False
    divergence, _ = replay(wrong)
    assert divergence is not None and divergence.event == moves[3]


def test_unoffered_actions_allowed_are_those_a_pending_level_up_bars():
    from games.tribes import Tribes
    from games.tribes.constants import BORDER_GROWTH, END_TURN, LEVEL_UP, MOVE, WORKSHOP

    state = Tribes(level="java:MovementPlayground", rules=4).new_initial_state()
    state.c_pop[0] = 2  # tribe 0's capital (level 1) is due
    state._legal = state._legal_set = None
    assert {a[0] for a in state.legal_actions()} == {LEVEL_UP}
    for action in ((END_TURN,), (MOVE, 0, 22), (LEVEL_UP, 0, WORKSHOP)):
        assert state.is_feasible(action), action
    for action in ((MOVE, 0, 40), (LEVEL_UP, 0, BORDER_GROWTH), (LEVEL_UP, 1, WORKSHOP)):
        assert not state.is_feasible(action), action  # too far; level 1's; not due
    assert state.c_pop[0] == 2 and state.legal_actions()[0][0] == LEVEL_UP  # untouched
