"""Match records: format, winner-only filtering, replay fidelity, clear errors."""

import json

import pytest

from games import load_game
from games.cantstop import ROLL, STOP, glenn_aloi_player
from games.records import FORMAT, load_records, record_matches, write_records

GAME = load_game("cantstop")


def _record(tmp_path, winner_only=True, n=3, seed=7):
    ga = glenn_aloi_player()
    path = tmp_path / "ga.jsonl"
    records = record_matches(GAME, (ga, ga), ("ga", "ga"), n, seed, winner_only=winner_only)
    count = write_records(path, "cantstop", ("ga", "ga"), seed, records, True, winner_only)
    return path, count


def test_winner_only_self_play_keeps_the_winners_pairs(tmp_path):
    path, count = _record(tmp_path)
    assert count == 3
    header, matches = load_records(path, GAME)
    assert header["format"] == FORMAT and header["version"] == 1 and header["winner_only"]
    assert len(matches) == 3
    for m in matches:
        assert m.winner in (0, 1)
        assert m.pairs and all(seat == m.winner for seat, _, _ in m.pairs)
        assert m.final_state.winner() == m.winner and m.final_state.claims[m.winner] >= 3


def test_recorded_pairs_replay_the_recorded_player(tmp_path):
    path, _ = _record(tmp_path, winner_only=False, n=2)
    _, matches = load_records(path, GAME)
    ga = glenn_aloi_player()
    seats = set()
    for m in matches:
        for seat, state, action in m.pairs:
            seats.add(seat)
            assert state.current_player() == seat
            assert action in state.legal_actions()
            assert ga(state) == action  # GA is deterministic: same decision on the snapshot
    assert seats == {0, 1}
    kinds = {type(a) for m in matches for _, _, a in m.pairs}
    assert kinds == {tuple, str}
    assert any(a in (ROLL, STOP) for m in matches for _, _, a in m.pairs)


def test_bad_record_files_name_file_and_line(tmp_path):
    path, _ = _record(tmp_path, n=1)
    lines = path.read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{not json\n")
    with pytest.raises(ValueError, match=r"broken.jsonl:2: not JSON"):
        load_records(broken, GAME)
    bad_action = json.loads(lines[1])
    bad_action["pairs"][0]["action"] = [99]
    broken.write_text(lines[0] + "\n" + json.dumps(bad_action) + "\n")
    with pytest.raises(ValueError, match=r"broken.jsonl:2: bad match record"):
        load_records(broken, GAME)
    header = json.loads(lines[0])
    header["version"] = 99
    broken.write_text(json.dumps(header) + "\n")
    with pytest.raises(ValueError, match="version 99 unsupported"):
        load_records(broken, GAME)
    with pytest.raises(FileNotFoundError, match="missing.jsonl"):
        load_records(tmp_path / "missing.jsonl", GAME)
