"""Generic API conformance over random playouts, reusable by every game's tests.

The OpenSpiel ``random_sim_test`` habit: play thousands of random matches and
check, at every step, the invariants that all search code relies on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games.api import Game, State


def json_action(action: Any) -> Any:
    """An action as match records store it: tuples as lists, anything else as is."""
    return list(action) if isinstance(action, tuple) else action


def check_random_playouts(game: Game, playouts: int, seed: int,
                          state_invariants: Callable[[State], None] | None = None,
                          deep_check_every: int = 7) -> dict[str, Any]:
    """Play ``playouts`` uniformly random matches, asserting the State API contract.

    Every step: seat and legal actions agree with terminality, legal actions are
    unique, the move counter advances by one, ``str`` works and ``state_invariants``
    holds. Every ``deep_check_every`` steps: an illegal action is refused without
    changing the state, ``clone`` is equal and independent and replays the same
    future (chance included), ``to_dict`` round-trips through the game and through
    JSON, and every legal action through its JSON form (``action_from_json``), as
    match records store them.
    Returns counts for the caller to assert on (winners, capped, moves).
    """
    rng = random.Random(seed)
    stats = {"playouts": 0, "wins": [0] * game.num_players, "capped": 0, "draws": 0,
             "moves": 0, "max_moves": 0}
    for playout in range(playouts):
        state = game.new_initial_state(random.Random(rng.getrandbits(64)))
        try:
            _playout(game, state, rng, state_invariants, deep_check_every, stats)
        except Exception as err:  # says where, for a report of one line
            kind = "" if isinstance(err, AssertionError) else f"{type(err).__name__}: "
            raise AssertionError(f"playout {playout}, move {state.move_number()}: "
                                 f"{kind}{err}") from err
    return stats


def _playout(game: Game, state: State, rng: random.Random,
             state_invariants: Callable[[State], None] | None, deep_check_every: int,
             stats: dict[str, Any]) -> None:
    step = 0
    while not state.is_terminal():
        player = state.current_player()
        assert 0 <= player < game.num_players, f"current_player() is {player} before the end"
        legal = list(state.legal_actions())
        assert legal, "a non-terminal state must offer an action"
        assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
        assert str(state), "str(state) is empty"
        if state_invariants is not None:
            state_invariants(state)
        if step % deep_check_every == 0:
            _deep_check(game, state, legal, rng)
        before = state.move_number()
        state.apply_action(legal[rng.randrange(len(legal))])
        assert state.move_number() == before + 1, "an action must add one to move_number()"
        step += 1
    assert state.current_player() < 0, "current_player() must be -1 once the game is over"
    assert list(state.legal_actions()) == [], "a finished game offers no action"
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9, f"returns {returns}: two-player games here are zero-sum"
    winner = state.winner()
    if winner is None:
        assert all(r == 0 for r in returns), f"returns {returns} without a winner"
        stats["capped" if state.is_capped() else "draws"] += 1
    else:
        assert not state.is_capped(), f"seat {winner} won a capped match"
        assert returns[winner] == 1, f"returns {returns} for a win of seat {winner}"
        stats["wins"][winner] += 1
    stats["playouts"] += 1
    stats["moves"] += state.move_number()
    stats["max_moves"] = max(stats["max_moves"], state.move_number())


def _deep_check(game: Game, state: State, legal: list, rng: random.Random) -> None:
    snapshot = state.to_dict()
    try:
        state.apply_action(("not", "an", "action"))
    except ValueError:
        pass
    else:  # pragma: no cover - the assertion below reports it
        raise AssertionError("an illegal action was accepted")
    assert state.to_dict() == snapshot, "a refused action changed the state"

    restored = game.state_from_dict(snapshot)
    assert restored.to_dict() == snapshot, "state_from_dict(to_dict()) is another state"
    assert list(restored.legal_actions()) == legal, "a restored state offers other actions"
    from_json = game.state_from_dict(json.loads(json.dumps(snapshot)))
    assert from_json.to_dict() == snapshot, "to_dict() does not survive JSON"
    for action in legal:
        encoded = json.loads(json.dumps(json_action(action)))
        assert game.action_from_json(encoded) == action, \
            f"action_from_json({encoded!r}) is not {action!r}"

    twin = state.clone()
    assert twin.to_dict() == snapshot, "clone().to_dict() differs from the original's"
    script = [legal[rng.randrange(len(legal))]]
    twin.apply_action(script[0])
    assert state.to_dict() == snapshot, "playing on a clone changed the original"
    probe = state.clone()
    probe.apply_action(script[0])
    assert probe.to_dict() == twin.to_dict(), "clones must replay the same chance outcomes"
