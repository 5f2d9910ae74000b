from games.cantstop import COLUMNS, HEIGHTS, CantStop, CantStopState
from games.cantstop.rules import MAX_NEUTRALS, PHASE_COLUMN
from games.conformance import check_random_playouts


def cantstop_invariants(state: CantStopState) -> None:
    p = state.player
    assert len(state.neutral_cols) <= MAX_NEUTRALS
    assert sorted(state.neutral_cols) == [c for c in COLUMNS if state.neutral[c]]
    for c in COLUMNS:
        assert 0 <= state.markers[0][c] < HEIGHTS[c] or state.markers[0][c] == 0
        assert 0 <= state.markers[1][c] < HEIGHTS[c] or state.markers[1][c] == 0
        if state.claimed[c] >= 0:
            assert state.markers[0][c] == state.markers[1][c] == state.neutral[c] == 0
        if state.neutral[c]:
            assert state.markers[p][c] < state.neutral[c] <= HEIGHTS[c]
    assert state.claims == [state.claimed.count(0), state.claimed.count(1)]
    assert max(state.claims) < 3
    if state.phase == PHASE_COLUMN:
        for action in state.legal:
            assert action == tuple(sorted(action)) and 1 <= len(action) <= 2
            sums = {a + b for a in state.dice for b in state.dice}
            assert all(c in sums for c in action)
            new = {c for c in action if state.neutral[c] == 0}
            assert len(new) <= MAX_NEUTRALS - len(state.neutral_cols)
            assert all(state.claimed[c] < 0 and state.neutral[c] < HEIGHTS[c] for c in action)


def test_random_playouts_keep_the_api_contract():
    stats = check_random_playouts(CantStop(), playouts=2000, seed=11,
                                  state_invariants=cantstop_invariants)
    assert stats["playouts"] == 2000
    assert stats["draws"] == 0  # Can't Stop has no draws, only the move cap
    assert stats["wins"][0] > 700 and stats["wins"][1] > 700
    assert stats["max_moves"] <= 300


def test_move_cap_ends_matches_without_winner():
    stats = check_random_playouts(CantStop(max_moves=40), playouts=300, seed=3)
    assert stats["capped"] > 250
    assert stats["max_moves"] == 40
