"""``stratsynth qd tribes --subject``: the player whose weights are searched reaches the
games, the default plays the games it played before the choice existed, a subject is
logged, checked and part of the run's identity, and re-checks use the run's subject."""

from __future__ import annotations

import json

import pytest

from experiments.cli import main
from experiments.config import QDConfig
from experiments.loader import load, to_dict
from games.tribes import qd as tribes_qd
from games.tribes.gamelog import play_logged
from games.tribes.players import PortfolioMCTS
from games.tribes.portfolio import weights_with
from games.tribes.qd import GAMES_LOG, SPACE, SUBJECTS, WeightsScore, play_match
from games.tribes.rules import Tribes
from qd.vectors import parse_vector, vector_text
from tests.test_run_config import one_line_error
from tests.test_tribes_qd_cli import TINY

PARAMS, NAMES = {"turn_limit": 1, "levels": [0]}, ["attacks", "tile_slope"]
TEXT = vector_text([1.0, 0.0, 0.25, 0.0, 0.5, 0.0, 0.75, 0.0, 1.0, 0.0, 0.5])


def _spy_players(monkeypatch) -> list:
    """Record the evolved player of every game ``play_match`` plays (the games still run)."""
    built: list = []

    def spy(game, seats, seed, level=None):
        built.extend(p for p in seats if isinstance(p, PortfolioMCTS))
        return play_logged(game, seats, seed, level)

    monkeypatch.setattr(tribes_qd, "play_logged", spy)
    return built


def test_the_space_offers_both_players_our_pmcts_pu_first():
    assert SPACE.subjects == SUBJECTS == ("pmcts-pu", "pmcts-pu-fw")
    assert SPACE.chosen(None) == "pmcts-pu"


@pytest.mark.parametrize("subject", [None, "pmcts-pu", "pmcts-pu-fw"])
def test_the_subject_reaches_the_evolved_player(monkeypatch, tmp_path, subject):
    built = _spy_players(monkeypatch)
    score = SPACE.metric(PARAMS, "mcts:4", NAMES, 2, 1, None, tmp_path, subject=subject)
    assert score.subject == (subject or "pmcts-pu")
    score(TEXT)
    assert len(built) == 2
    framework = subject == "pmcts-pu-fw"
    for me in built:
        assert me.params.bias and me.params.pruning and me.params.budget == 4
        assert me.weights == weights_with(parse_vector(TEXT, 11))
        assert (me.portfolio == "framework") == framework
        assert me.params.framework_tree == framework
        assert (me.params.bias_denominator == "code") == framework
    lines = [json.loads(x) for x in (tmp_path / GAMES_LOG).read_text().splitlines()]
    assert [row.get("subject") for row in lines] == ["pmcts-pu-fw" if framework else None] * 2


def test_the_default_plays_the_games_it_played_before_the_choice(tmp_path):
    """Today's games against the pre-``subject`` construction of the evolved player, and
    the same log lines whether the default is named or not."""
    seed = 3
    for i in range(2):
        game = Tribes(**PARAMS)
        opponent = tribes_qd.player("mcts:4")
        me = PortfolioMCTS(budget=4, bias=True, pruning=True,
                           weights=weights_with(parse_vector(TEXT, 11)))
        seats = [opponent, opponent]
        seats[i % 2] = me
        before = play_logged(game, seats, seed=seed * 7919 + i, level=0)
        for subject in (None, "pmcts-pu"):
            row = play_match(PARAMS, "mcts:4", seed, (TEXT, i), subject=subject)
            assert row["log"] == before and "subject" not in row
    named, unnamed = tmp_path / "named", tmp_path / "unnamed"
    named.mkdir()
    unnamed.mkdir()
    WeightsScore(PARAMS, "mcts:4", NAMES, 2, seed, out=unnamed)(TEXT)
    WeightsScore(PARAMS, "mcts:4", NAMES, 2, seed, out=named, subject="pmcts-pu")(TEXT)
    assert (named / GAMES_LOG).read_bytes() == (unnamed / GAMES_LOG).read_bytes()


def test_a_logged_game_of_another_subject_is_not_this_game(tmp_path):
    WeightsScore(PARAMS, "mcts:4", NAMES, 2, 1, out=tmp_path)(TEXT)
    default_rows = [json.loads(x) for x in (tmp_path / GAMES_LOG).read_text().splitlines()]
    framework = WeightsScore(PARAMS, "mcts:4", NAMES, 2, 1, out=tmp_path, subject="pmcts-pu-fw")
    assert not any(framework._same_game(r) for r in default_rows)  # no key: the default's
    framework(TEXT)  # played, not read back from the default's games
    rows = [json.loads(x) for x in (tmp_path / GAMES_LOG).read_text().splitlines()]
    assert [r.get("subject") for r in rows] == [None, None, "pmcts-pu-fw", "pmcts-pu-fw"]
    again = WeightsScore(PARAMS, "mcts:4", NAMES, 2, 1, out=tmp_path)
    assert all(again._same_game(r) for r in default_rows)
    assert not any(again._same_game(r) for r in rows[2:])


def test_an_unknown_subject_is_refused_in_one_line_naming_the_setting(tmp_path, capsys):
    out = tmp_path / "run"
    one_line_error(capsys, [*TINY, "--evaluations", "1", "--out", str(out),
                            "--subject", "mcts"], "subject 'mcts'", "pmcts-pu, pmcts-pu-fw")
    one_line_error(capsys, ["qd", "cantstop", "--evaluations", "1", "--out", str(out),
                            "--subject", "pmcts-pu"], "subject:", "programs")
    assert not out.exists()
    with pytest.raises(ValueError, match="subject 'pmcts'"):
        WeightsScore(PARAMS, "mcts:4", NAMES, 2, 1, subject="pmcts")
    with pytest.raises(ValueError, match="where: subject 'x'"):
        load(QDConfig, {"game": "tribes", "evaluations": 1, "subject": "x"}, "where")


def test_config_json_records_the_subject_only_when_given():
    plain = load(QDConfig, {"game": "tribes", "evaluations": 1})
    assert plain.subject is None and "subject" not in to_dict(plain)
    chosen = load(QDConfig, {"game": "tribes", "evaluations": 1, "subject": "pmcts-pu-fw"})
    assert to_dict(chosen)["subject"] == "pmcts-pu-fw"


def test_a_run_keeps_its_subject_and_a_resume_refuses_another(tmp_path, capsys):
    run = tmp_path / "run"
    assert main([*TINY, "--evaluations", "1", "--out", str(run),
                 "--subject", "pmcts-pu-fw"]) == 0
    config = json.loads((run / "config.json").read_text())
    assert config["subject"] == "pmcts-pu-fw" and "subject" in config["identity"]
    games = [json.loads(x) for x in (run / GAMES_LOG).read_text().splitlines()]
    assert games and {g["subject"] for g in games} == {"pmcts-pu-fw"}
    for edited in ({**config, "subject": "pmcts-pu"},
                   {k: v for k, v in config.items() if k != "subject"}):
        (run / "config.json").write_text(json.dumps(edited))
        one_line_error(capsys, ["resume", str(run), "--evaluations", "2", "--quiet"],
                       "subject changed")
    plain = tmp_path / "plain"
    assert main([*TINY, "--evaluations", "1", "--out", str(plain)]) == 0
    config = json.loads((plain / "config.json").read_text())
    assert "subject" not in config and "subject" not in config["identity"]
    (plain / "config.json").write_text(json.dumps({**config, "subject": "pmcts-pu-fw"}))
    one_line_error(capsys, ["resume", str(plain), "--evaluations", "2", "--quiet"],
                   "subject changed")


def test_qd_check_and_table2_replay_the_runs_subject(tmp_path, monkeypatch):
    from experiments.studies import tribes_table2

    run = tmp_path / "run"
    assert main([*TINY, "--evaluations", "2", "--out", str(run),
                 "--subject", "pmcts-pu-fw"]) == 0
    built = _spy_players(monkeypatch)
    out = tmp_path / "table2"
    assert tribes_table2.main(["--cases", "I", "--run", f"I={run}", "--matches", "2",
                               "--levels", "2-2", "--out", str(out)]) == 0
    assert built and all(p.portfolio == "framework" and p.params.framework_tree
                         for p in built)
    games = [json.loads(x) for x in (run / "corners-levels-2-2.games.jsonl").read_text()
             .splitlines()]
    assert games and {g["subject"] for g in games} == {"pmcts-pu-fw"}
    rows = json.loads((out / "table2.json").read_text())
    assert {r["subject"] for r in rows} == {"pmcts-pu-fw"}
    assert all(r["fresh"]["games"] == 2 for r in rows)
    assert "of `pmcts-pu-fw`" in (out / "table2.md").read_text()
    assert "Subject: `pmcts-pu-fw`" in (run / "corners-levels-2-2.md").read_text()
