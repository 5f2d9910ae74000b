"""Ψ and its variants (``gp.fitness``), each against the matches computed another way:
``play_many`` on the seeds the fitness says it uses, scored by hand. Fast: noughts and
crosses (draws score 0, no margin) and short Expendibots matches (draws ½, a margin),
played by players whose program text names how they play."""

from __future__ import annotations

import hashlib
import logging
import random

import pytest

from games.api import RandomStrategy, StrategyBase
from games.expendibots.rules import Expendibots
from games.match import MatchSummary, play_many
from games.tictactoe import TicTacToe
from gp.fitness import (
    MARGIN,
    FreshWinRate,
    PoolWinRate,
    WinRate,
    WithTieBreak,
    check_margin_weight,
    program_seed,
    score_of,
    uncached,
)

NOUGHTS = TicTacToe()
BOTS = Expendibots(opening_plies=2, turn_limit=10)


class Scripted(StrategyBase):
    """Plays as its program text says: ``first`` / ``last`` legal action, ``random``
    (seeded per match), ``fail`` (raises), ``fail-late`` (the first legal action, then
    raises at its fourth move)."""

    def __init__(self, program: str) -> None:
        self.text = program
        self.rng = random.Random(0)
        self.moves = 0

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)
        self.moves = 0

    def __call__(self, state):
        legal = state.legal_actions()
        self.moves += 1
        if self.text == "fail" or (self.text == "fail-late" and self.moves >= 4):
            raise RuntimeError(f"{self.text} cannot move")
        if self.text in ("first", "fail-late"):
            return legal[0]
        if self.text == "last":
            return legal[-1]
        return legal[self.rng.randrange(len(legal))]


class Strict(Scripted):
    """A language that scores a program failing in any match 0."""

    failure_scores_zero = True


def _matches(game, program: str, target, n: int, seed: int, cls=Scripted, **kwargs):
    """The program's matches, played directly on one batch seed."""
    return play_many(game, [(cls(program), target)], n, [seed], **kwargs)[0]


def test_a_programs_seed_is_the_first_63_bits_of_a_hash_of_run_seed_and_text():
    digest = hashlib.sha256(b"7\nfirst").digest()
    assert program_seed(7, "first") == int.from_bytes(digest[:8], "little") // 2
    seeds = [program_seed(s, t) for s in range(20) for t in ("a", "b\nc")]
    assert all(0 <= s < 2 ** 63 for s in seeds) and len(set(seeds)) == len(seeds)
    assert max(seeds) >= 2 ** 60  # all 63 bits used


def test_uncached_keeps_the_first_player_of_each_new_text():
    players = [Scripted(t) for t in ("first", "last", "first", "random", "last")]
    fresh = uncached(players, {"random": 0.5})
    assert list(fresh) == ["first", "last"]
    assert fresh["first"] is players[0] and fresh["last"] is players[1]
    assert uncached(players, {"first": 1, "last": 1, "random": 1}) == {}


def test_psi_is_the_score_of_the_programs_matches_on_its_own_seed():
    target = RandomStrategy()
    psi = WinRate(NOUGHTS, target, Scripted, matches=30, seed=5)
    for text in ("first", "last", "random"):
        expected = score_of(NOUGHTS, _matches(NOUGHTS, text, target, 30,
                                              program_seed(5, text)))
        assert psi(text) == expected
    summary = psi.play("first")
    assert summary.matches == 30 and summary.wins[0] + summary.wins[1] + summary.draws == 30
    assert 0 < psi("first") < 1 and psi("first") != psi("last")


def test_psi_is_cached_by_text_and_counts_each_new_program_once():
    psi = WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=4, seed=1)
    assert psi.evaluations == 0 and psi.failures == 0 and psi.cache == {}
    first = psi.play("first")
    assert psi.play("first") is first and psi.evaluations == 1
    values = psi.many(["last", "first", "last", "random"])
    assert psi.evaluations == 3 and set(psi.cache) == {"first", "last", "random"}
    assert values == [psi("last"), psi("first"), psi("last"), psi("random")]
    assert psi.evaluations == 3
    alone = [WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=4, seed=1)(t)
             for t in ("last", "first", "last", "random")]
    assert values == alone  # a batch scores each program as it would alone


def test_common_openings_give_every_program_the_run_seeds_matches():
    target = RandomStrategy()
    common = WinRate(NOUGHTS, target, Scripted, matches=20, seed=9, common_openings=True)
    assert common.seed_of("first") == 9 == common.seed_of("last")
    assert common.play("random").wins == _matches(NOUGHTS, "random", target, 20, 9).wins
    own = WinRate(NOUGHTS, target, Scripted, matches=20, seed=9)
    assert own.seed_of("first") == program_seed(9, "first") != own.seed_of("last")


def test_the_defaults_are_1000_alternating_unpaired_matches_on_run_seed_0():
    psi = WinRate(NOUGHTS, RandomStrategy(), Scripted)
    assert (psi.matches, psi.seed, psi.paired, psi.common_openings, psi.seat) == \
        (1000, 0, False, False, None)
    assert (psi.margin_weight, psi.engine, psi.map, psi.failure_log) == \
        (0.0, "fast", None, None)
    assert psi.features() is None and psi.resolution == 1 / 1000
    assert psi.seed_of("first") == program_seed(0, "first")
    assert psi.name == "psi"


def test_a_number_of_matches_below_one_is_refused():
    assert WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=1).matches == 1
    for matches in (0, -1):
        with pytest.raises(ValueError, match=f"^matches must be >= 1, got {matches}$"):
            WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=matches)
    with pytest.raises(ValueError, match="must be even, got 3"):
        WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=3, paired=True)
    with pytest.raises(ValueError, match="engine must be one of"):
        WinRate(NOUGHTS, RandomStrategy(), Scripted, engine="gpu")


def test_the_step_of_psi_is_one_match_or_half_of_one_where_draws_score_half():
    assert WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=8).resolution == 1 / 8
    assert WinRate(BOTS, RandomStrategy(), Scripted, matches=8).resolution == 0.5 / 8
    pool = PoolWinRate(BOTS, [RandomStrategy(), Scripted("first")], Scripted, matches=8)
    assert pool.resolution == 0.5 / 8 / 2


def test_a_score_counts_wins_and_values_draws_and_capped_matches_as_the_game_says():
    summary = MatchSummary(matches=10, wins=[3, 5], draws=1, capped=1)
    assert score_of(NOUGHTS, summary) == pytest.approx(0.3)
    assert score_of(BOTS, summary) == pytest.approx((3 + 0.5 * 2) / 10)
    assert score_of(BOTS, MatchSummary(matches=4, wins=[4, 0])) == 1.0
    assert score_of(BOTS, MatchSummary(matches=4, wins=[0, 4])) == 0.0


def test_the_margin_breaks_ties_by_its_weight_times_the_mean_final_margin():
    target = RandomStrategy()
    tied = WinRate(BOTS, target, Scripted, matches=8, seed=3, margin_weight=0.02,
                   behavior={"moves": (lambda state, seat: 1.0, (0.0, 1.0))})
    features = tied.features()
    assert set(features) == {"moves", MARGIN} and features[MARGIN][1] == (-1.0, 1.0)
    summary = tied.play("random")
    margins = _matches(BOTS, "random", target, 8, program_seed(3, "random"),
                       behavior={MARGIN: (BOTS.margin, (-1.0, 1.0))})
    assert summary.behavior(0)[MARGIN] == pytest.approx(margins.behavior(0)[MARGIN]) != 0
    assert summary.behavior(0)["moves"] == 1.0
    assert tied("random") == pytest.approx(score_of(BOTS, margins)
                                           + 0.02 * margins.behavior(0)[MARGIN])
    plain = WinRate(BOTS, target, Scripted, matches=8, seed=3)
    assert plain.features() is None and plain("random") == score_of(BOTS, margins)


def test_a_margin_weight_must_stay_below_half_of_psis_step():
    step = 0.5 / 8  # Expendibots, 8 matches: half a match
    check_margin_weight(BOTS, step / 2 * 0.999, step)
    for weight in (step / 2, step, 0.0, -0.01):
        with pytest.raises(ValueError) as err:
            check_margin_weight(BOTS, weight, step)
        assert str(err.value) == (f"margin_weight must be in (0, {step / 2:g}) (half of "
                                  f"Ψ's step {step:g}), got {weight:g}")
    with pytest.raises(ValueError, match="^margin_weight: game 'tictactoe' has no "
                                         r"margin\(state, seat\) to break ties with$"):
        check_margin_weight(NOUGHTS, 0.01, 1.0)
    with pytest.raises(ValueError, match="half of Ψ's step"):
        WinRate(BOTS, RandomStrategy(), Scripted, matches=8, margin_weight=step / 2)
    assert WinRate(BOTS, RandomStrategy(), Scripted, matches=8,
                   margin_weight=step / 4).margin_weight == step / 4


def test_a_failing_program_scores_zero_and_is_logged_once_where_its_language_says_so(
        tmp_path, caplog):
    log = tmp_path / "failures.log"
    strict = WinRate(NOUGHTS, RandomStrategy(), Strict, matches=6, seed=2, failure_log=log)
    summary = _matches(NOUGHTS, "fail-late", RandomStrategy(), 6,
                       program_seed(2, "fail-late"), cls=Strict)
    assert 0 < summary.forfeits[0] < 6 and summary.wins[0] > 0  # won some, failed in some
    with caplog.at_level(logging.INFO, logger="stratsynth.fitness"):
        assert strict("fail-late") == 0.0
        assert strict("fail-late") == 0.0  # cached: logged once
    assert strict.failures == 1
    assert [r.getMessage() for r in caplog.records if r.name == "stratsynth.fitness"] == [
        f"psi = 0: the program fails ({summary.first_error[0]}): fail-late"]
    assert log.read_text() == (f"psi\t{summary.forfeits[0]} of 6 matches\t"
                               f"{summary.first_error[0]}\tfail-late\n")
    assert strict("first") > 0 and strict.failures == 1  # no forfeit, no failure
    lenient = WinRate(NOUGHTS, RandomStrategy(), Scripted, matches=6, seed=2,
                      failure_log=tmp_path / "none.log")
    assert lenient("fail-late") == score_of(NOUGHTS, summary) > 0
    assert lenient.failures == 0 and not (tmp_path / "none.log").exists()


def test_a_failure_is_logged_with_the_programs_lines_joined():
    strict = WinRate(NOUGHTS, Scripted("first"), Strict, matches=2, seed=2)
    summary = MatchSummary(matches=2, forfeits=[2, 0], first_error=[None, None])
    strict.note_failure("a\nb", summary, "psi")
    assert strict.failures == 1
    strict.note_failure("a", MatchSummary(matches=2, forfeits=[0, 2]), "psi")
    assert strict.failures == 1  # the target's forfeits are not the program's failure


def test_the_failure_log_names_an_unknown_error_and_joins_lines(tmp_path, caplog):
    log = tmp_path / "f.log"
    strict = WinRate(NOUGHTS, Scripted("first"), Strict, matches=2, failure_log=log)
    with caplog.at_level(logging.INFO, logger="stratsynth.fitness"):
        strict.note_failure("a\nb", MatchSummary(matches=2, forfeits=[1, 0]), "psi-fresh")
    assert log.read_text() == "psi-fresh\t1 of 2 matches\tunknown error\ta | b\n"
    assert caplog.records[-1].getMessage() == "psi-fresh = 0: the program fails (unknown " \
                                              "error): a | b"


def test_a_pool_scores_the_matches_against_every_target_added_up():
    targets = [RandomStrategy(), Scripted("last"), Scripted("first")]
    pool = PoolWinRate(NOUGHTS, targets, Scripted, matches=10, seed=4)
    texts = ["first", "random", "last"]
    summaries = pool.play_many(texts)
    for text, summary in zip(texts, summaries):
        parts = [_matches(NOUGHTS, text, t, 10, program_seed(4, text)) for t in targets]
        assert summary.matches == 30
        assert summary.wins == [sum(p.wins[i] for p in parts) for i in (0, 1)]
        assert summary.draws == sum(p.draws for p in parts)
        assert summary.seconds > 0  # the batch's time, not the sum of its parts' own
        assert pool(text) == pytest.approx(sum(score_of(NOUGHTS, p) for p in parts) / 3)
    with pytest.raises(ValueError, match="^a pool of targets needs at least one player$"):
        PoolWinRate(NOUGHTS, [], Scripted, matches=4)
    assert pool.targets == targets and pool.target is targets[0]


def test_fresh_psi_plays_the_k_th_new_batch_of_matches_at_the_k_th_call():
    target = RandomStrategy()
    psi = WinRate(NOUGHTS, target, Scripted, matches=12, seed=6)
    fresh = FreshWinRate(psi)
    assert fresh.name == "psi-fresh" and fresh.calls == {}
    seeds = [fresh.seed_for("random", k) for k in (1, 2, 3)]
    assert seeds[0] == program_seed(6, "random\n# fresh matches 1")
    assert len({*seeds, program_seed(6, "random")}) == 4
    values = [fresh("random") for _ in range(3)]
    assert values == [score_of(NOUGHTS, _matches(NOUGHTS, "random", target, 12, s))
                      for s in seeds]
    assert fresh.calls == {"random": 3} and psi.cache == {} and psi.evaluations == 0
    fresh.remember("random", values[0])
    fresh.remember("first", 0.5)
    assert fresh.calls == {"random": 4, "first": 1}
    assert fresh("first") == score_of(NOUGHTS, _matches(NOUGHTS, "first", target, 12,
                                                        fresh.seed_for("first", 2)))


def test_fresh_psi_scores_and_logs_a_failing_program_zero(tmp_path):
    log = tmp_path / "failures.log"
    psi = WinRate(NOUGHTS, Scripted("first"), Strict, matches=4, seed=1, failure_log=log)
    assert FreshWinRate(psi)("fail") == 0.0
    assert psi.failures == 1 and log.read_text().startswith("psi-fresh\t")


def test_the_tie_break_adds_the_cloning_score_scaled_below_psis_step():
    psi = WinRate(BOTS, RandomStrategy(), Scripted, matches=8, seed=2)
    step = psi.resolution
    cloning = {"first": 1.0, "last": 0.25, "random": 0.0}
    tie = WithTieBreak(psi, cloning.__getitem__)
    assert tie.name == "psi+c" and tie.resolution == step
    for text, c in cloning.items():
        assert tie(text) == pytest.approx(psi(text) + c * step / (1 + step))
    assert tie.many(["last", "first"]) == [tie("last"), tie("first")]
    assert 0 < tie("first") - psi("first") < step
