"""Rules version 4 (the framework's game) by hand, beside the replayed framework games."""

from __future__ import annotations

import random

import pytest

from games.tribes import Tribes, tech_cost
from games.tribes.constants import (
    DECLARE_WAR,
    END_TURN,
    FARMING,
    ORGANIZATION,
    PHILOSOPHY,
    RESEARCH,
    SEND_STARS,
)


def _start(rules: int):
    return Tribes(level="java:0", rules=rules).new_initial_state(random.Random(0))


def test_the_framework_score_starts_at_390_and_research_scores_by_tier():
    v3, v4 = _start(3), _start(4)
    assert v3.score == [125, 125]  # 25 explored tiles
    assert v4.score == [390, 390]  # technology 100, capital 100, warrior 10, 9 tiles x 20
    p = v4.current_player()
    assert v4.techs[p] >> ORGANIZATION & 1  # java:0: Imperius first
    v4.stars[p] = 20
    v4._legal = v4._legal_set = None
    v4.apply_action((RESEARCH, FARMING))
    assert v4.score[p] == 390 + 200 and v4.stars[p] == 20 - (2 * 1 + 4)


def test_philosophy_charges_a_fifth_in_the_framework():
    techs = 1 << PHILOSOPHY
    assert tech_cost(3, 2, techs) == 8  # ours: 10, 20 % off rounded up
    assert tech_cost(3, 2, techs, framework=True) == 2  # the framework: 20 % of 10


def test_the_framework_plays_rounds_0_to_the_limit_and_offers_diplomacy():
    for rules, rounds in ((3, 2), (4, 3)):
        state = Tribes(level="java:1", rules=rules, turn_limit=2).new_initial_state()
        kinds = set()
        while not state.is_terminal():
            kinds.update(a[0] for a in state.legal_actions())
            state.apply_action((END_TURN,))
        assert state.turn == rounds
        assert (DECLARE_WAR in kinds and SEND_STARS in kinds) == (rules == 4)


def test_declaring_war_and_sending_stars():
    state = _start(4)
    p = state.current_player()
    assert (DECLARE_WAR,) in state.legal_actions()
    assert [a for a in state.legal_actions() if a[0] == SEND_STARS] == [
        (SEND_STARS, n) for n in range(1, 5)]  # 5 stars: 1..4
    state.apply_action((DECLARE_WAR,))
    assert (DECLARE_WAR,) not in state.legal_actions()  # once a turn, and now at war
    state.apply_action((SEND_STARS, 3))
    assert state.stars == [2, 8] if p == 0 else state.stars == [8, 2]
    assert state.score[p] == 393
    again = Tribes(level="java:0", rules=4).state_from_dict(state.to_dict())
    assert again == state and again.diplo == state.diplo


def test_rules_must_be_a_known_version():
    with pytest.raises(ValueError, match="rules"):
        Tribes(rules=5)
