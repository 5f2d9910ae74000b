"""``self_play``'s bookkeeping on rock-paper-scissors with an exact best response: the
seeds each oracle call gets, what it answers, the match budget, the saved sequence and
its resumption, and the sampled mixture."""

from __future__ import annotations

import json

import pytest

from qd.drivers import SelfPlayBudget
from qd.selfplay import MixtureStrategy, read_sequence, self_play, sequence_calls

BEATS = {"R": "S", "P": "R", "S": "P"}  # key beats value


class Hand:
    """A player that always shows ``text``; ``reset`` records the match seeds it got."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.resets: list[int] = []

    def reset(self, seed: int) -> None:
        self.resets.append(seed)


class Oracle:
    """The exact best response to the members of a target; records every call."""

    def __init__(self, used: int = 3) -> None:
        self.calls: list[tuple[list[str], int]] = []
        self.used = used

    def __call__(self, target, seed: int) -> str:
        if isinstance(target, MixtureStrategy):
            members = target.players
        elif isinstance(target, list):
            members = target
        else:
            members = [target]
        texts = [m.text for m in members]
        self.calls.append((texts, seed))
        assert len(self.calls) <= 100, "self-play did not stop"

        def payoff(move):
            return sum(BEATS[move] == t for t in texts) - sum(BEATS[t] == move for t in texts)
        return max("RPS", key=payoff)


def test_oracle_call_i_gets_seed_1000s_plus_i_and_answers_the_latest_program():
    oracle = Oracle()
    assert self_play(oracle, Hand, "R", iterations=3, seed=7) == list("RPSR")
    assert oracle.calls == [(["R"], 7000), (["P"], 7001), (["S"], 7002)]


def test_fictitious_play_with_opponents_answers_them_and_its_own_responses(tmp_path):
    oracle = Oracle()
    sequence = self_play(oracle, Hand, "R", iterations=3, seed=1, fictitious=True,
                         opponents=[Hand("S"), Hand("S")], mixture="stratified")
    # the initial program is not a member once there is a pool: the pool starts FP
    assert [texts for texts, _ in oracle.calls] == [["S", "S"], ["S", "S", "R"],
                                                    ["S", "S", "R", "R"]]
    assert sequence == ["R", "R", "R", "R"]
    with pytest.raises(ValueError, match="fictitious"):
        self_play(oracle, Hand, "R", iterations=1, seed=1, opponents=[Hand("S")])
    with pytest.raises(ValueError, match="mixture"):
        self_play(oracle, Hand, "R", iterations=1, seed=1, fictitious=True, mixture="all")


def test_a_match_budget_counts_evaluations_times_matches_times_opponents(tmp_path):
    oracle = Oracle(used=3)
    budget = SelfPlayBudget(10, matches=60)
    out = tmp_path / "fp"
    sequence = self_play(oracle, Hand, "R", iterations=10, seed=1, fictitious=True,
                         mixture="stratified", budget=budget, matches=5, out=out)
    # calls against 1, 2, 3 members: 15, 30, 45 matches; after 45 there is room, after 90 none
    assert len(oracle.calls) == 3 and len(sequence) == 4
    saved = json.loads((out / "sequence.json").read_text())
    assert saved == {"driver": "fp", "programs": sequence, "search_matches": 90}
    # a sampled mixture is one opponent a match
    oracle = Oracle(used=3)
    self_play(oracle, Hand, "R", iterations=10, seed=1, fictitious=True,
              budget=SelfPlayBudget(10, matches=60), matches=5, out=tmp_path / "sampled")
    assert json.loads((tmp_path / "sampled" / "sequence.json").read_text())[
        "search_matches"] == 60
    with pytest.raises(ValueError, match="matches per evaluation"):
        self_play(Oracle(), Hand, "R", iterations=2, seed=1, budget=SelfPlayBudget(2, 60))


def test_a_saved_sequence_is_continued_and_extended_as_one_run(tmp_path):
    whole = self_play(Oracle(), Hand, "R", iterations=5, seed=2, fictitious=True,
                      out=tmp_path / "whole")
    out = tmp_path / "cut"
    assert self_play(Oracle(), Hand, "R", iterations=2, seed=2, fictitious=True, out=out) \
        == whole[:3]
    assert sequence_calls(out) == 2 and sequence_calls(tmp_path / "none") == 0
    oracle = Oracle()
    assert self_play(oracle, Hand, "R", iterations=5, seed=2, fictitious=True, out=out) == whole
    assert [seed for _, seed in oracle.calls] == [2002, 2003, 2004]
    # a shorter run over a longer saved sequence returns only its own iterations
    assert self_play(Oracle(), Hand, "R", iterations=1, seed=2, fictitious=True,
                     out=out) == whole[:2]
    with pytest.raises(ValueError, match="another start"):
        self_play(Oracle(), Hand, "P", iterations=5, seed=2, fictitious=True, out=out)
    with pytest.raises(ValueError, match="another start"):
        self_play(Oracle(), Hand, "R", iterations=5, seed=2, out=out)


def test_a_run_without_a_match_budget_cannot_be_continued_with_one(tmp_path):
    out = tmp_path / "run"
    self_play(Oracle(), Hand, "R", iterations=1, seed=2, out=out)
    with pytest.raises(ValueError, match="does not know its matches"):
        read_sequence(out / "sequence.json", "ibr", "R", counted=True)
    assert read_sequence(out / "sequence.json", "ibr", "R") == (["R", "P"], 0)
    # nothing answered yet: no matches played, so a match budget may start it
    (out / "sequence.json").write_text('{"driver": "ibr", "programs": ["R"]}')
    assert read_sequence(out / "sequence.json", "ibr", "R", counted=True) == (["R"], 0)
    (out / "sequence.json").write_text("[]")
    with pytest.raises(ValueError, match="not a self-play sequence"):
        read_sequence(out / "sequence.json", "ibr", "R")


def test_a_mixture_plays_the_member_its_match_seed_draws_and_reseeds_it():
    members = [Hand("R"), Hand("P"), Hand("S")]
    mixture = MixtureStrategy(members)
    assert mixture.current is members[0]
    drawn = []
    for seed in range(300):
        mixture.reset(seed)
        drawn.append(mixture.text)  # anything else is the drawn member's
        assert mixture.current.resets[-1] == seed
    again = MixtureStrategy(members)
    again.reset(17)
    assert again.text == drawn[17]
    shares = [drawn.count(move) / 300 for move in "RPS"]
    assert all(0.25 < share < 0.42 for share in shares)
    with pytest.raises(AttributeError):
        MixtureStrategy.__getattr__(mixture, "current")


@pytest.mark.parametrize("name, fictitious", [("ibr", False), ("fp", True)])
def test_the_registered_drivers_run_self_play_and_answer_with_the_latest_program(
        tmp_path, name, fictitious):
    from qd.drivers import SelfPlayContext, driver_class

    context = SelfPlayContext(game=None, strategy_class=Hand, matches=5, seed=3,
                              mixture="stratified")
    cls = driver_class(name)
    cls.check_context(context)
    oracle = Oracle(used=2)
    driver = cls(oracle=oracle, context=context)
    programs = driver.run("R", SelfPlayBudget(4, matches=1000), out=tmp_path)
    assert programs == self_play(Oracle(), Hand, "R", iterations=4, seed=3,
                                 fictitious=fictitious, mixture="stratified")
    assert [seed for _, seed in oracle.calls] == [3000, 3001, 3002, 3003]
    assert driver.answer(programs) == programs[-1]
    assert driver.answer(["R", "P", "S"]) == "S"
    assert driver.calls_done(tmp_path) == 4
    matches = json.loads((tmp_path / "sequence.json").read_text())["search_matches"]
    assert matches == (2 * 5 * (1 + 2 + 3 + 4) if fictitious else 2 * 5 * 4)
    pooled = SelfPlayContext(game=None, strategy_class=Hand, matches=5, seed=3,
                             opponents=[Hand("S")])
    if fictitious:
        cls.check_context(pooled)
    else:
        with pytest.raises(ValueError, match="opponents"):
            cls.check_context(pooled)


def test_an_oracle_reports_the_evaluations_of_its_last_call():
    import random

    from games import load_game
    from games.cantstop import glenn_aloi_player
    from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
    from qd.selfplay import hc_oracle, sa_oracle

    game = load_game("cantstop")
    start = CANTSTOP_DSL.to_text(CANTSTOP_DSL.random_program(random.Random(1)))
    for make in (sa_oracle, hc_oracle):
        oracle = make(game, SketchStrategy, matches=2, evaluations=3)
        assert oracle.used == 0  # no call yet
        oracle(glenn_aloi_player(), 5, start=start)
        assert oracle.used == 3
    from games.cantstop.features import FEATURES
    from qd.hss import feature_levels
    from qd.selfplay import hss_oracle

    names = ["markers_per_stop", "bust_rate"]
    oracle = hss_oracle(game, SketchStrategy, FEATURES, names,
                        feature_levels([FEATURES[n][1] for n in names], 3), 2, 3,
                        local_evaluations=2)
    assert oracle.used == 0
    oracle(glenn_aloi_player(), 5)
    assert oracle.used == 3
    with pytest.raises(ValueError, match="oracle.used"):
        self_play(lambda target, seed: "R", Hand, "R", iterations=2, seed=1,
                  budget=SelfPlayBudget(2, matches=10), matches=5)


def test_hill_climbing_samples_1000_neighbours_a_step_by_default(monkeypatch):
    import qd.selfplay
    from games import load_game
    from games.cantstop import glenn_aloi_player
    from gp.languages.cantstop import SketchStrategy

    seen = []

    def climb(ev, initial, moves, rng, neighbours, good_enough, on_move):
        seen.append(neighbours)
        ev.score(initial)

    monkeypatch.setattr(qd.selfplay, "sampled_hill_climbing", climb)
    qd.selfplay.hc_oracle(load_game("cantstop"), SketchStrategy, matches=2,
                          evaluations=3)(glenn_aloi_player(), 5)
    qd.selfplay.hc_oracle(load_game("cantstop"), SketchStrategy, matches=2, evaluations=3,
                          neighbours=7)(glenn_aloi_player(), 5)
    assert seen == [1000, 7]
