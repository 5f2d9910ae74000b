"""Match records: (state, action) pairs per player, the data that sketch learning clones.

File format ``stratsynth.match-record`` version 1, JSON Lines:

* line 1, the header: ``{"format": "stratsynth.match-record", "version": 1,
  "game": NAME, "players": [SPEC, SPEC], "seed": S, "self_play": bool,
  "winner_only": bool}``
* then one line per match: ``{"match": k, "seats": [SPEC, SPEC], "winner": seat|null,
  "capped": bool, "moves": n, "final_state": STATE, "pairs": [{"seat": i,
  "player": SPEC, "state": STATE, "action": ACTION}, ...]}``

``STATE`` is the game's ``to_dict()`` snapshot taken before the action; ``ACTION`` is
the action as JSON (Can't Stop: a list of columns, or ``"y"``/``"n"``).
With ``winner_only`` the pairs are the winner's only and matches without a winner
are not written (more are played until the requested number is reached).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .api import Game, Strategy
from .match import play_match, seats_for

FORMAT = "stratsynth.match-record"
VERSION = 1


def _json_action(action: Any) -> Any:
    return list(action) if isinstance(action, tuple) else action


def record_matches(game: Game, players: Sequence[Strategy], specs: Sequence[str], n: int,
                   seed: int, winner_only: bool = False, max_attempts: int | None = None
                   ) -> Iterator[dict[str, Any]]:
    """Yield ``n`` match records (dicts of the per-match line) of players[0] vs players[1]."""
    written = 0
    index = 0
    limit = max_attempts if max_attempts is not None else 20 * max(n, 1)
    while written < n:
        if index >= limit:
            raise RuntimeError(f"only {written} of {n} matches had a winner after {index} tries")
        order = seats_for(index)
        seat_specs = [specs[order[0]], specs[order[1]]]
        result = play_match(game, (players[order[0]], players[order[1]]), seed, index, record=True)
        index += 1
        if winner_only and result.winner is None:
            continue
        pairs = [
            {"seat": seat, "player": seat_specs[seat], "state": state,
             "action": _json_action(action)}
            for seat, state, action in result.pairs
            if not winner_only or seat == result.winner
        ]
        written += 1
        yield {"match": index - 1, "seats": seat_specs, "winner": result.winner,
               "capped": result.capped, "moves": result.moves,
               "final_state": result.final_state, "pairs": pairs, "forfeit": result.forfeit}


def write_records(path: str | Path, game_name: str, specs: Sequence[str], seed: int,
                  records, self_play: bool, winner_only: bool) -> int:
    """Write the header and the records; returns the number of matches written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w") as fh:
        header = {"format": FORMAT, "version": VERSION, "game": game_name,
                  "players": list(specs), "seed": seed, "self_play": self_play,
                  "winner_only": winner_only}
        fh.write(json.dumps(header) + "\n")
        for record in records:
            fh.write(json.dumps(record) + "\n")
            count += 1
    return count


@dataclass
class MatchRecord:
    """One recorded match with states restored as game states."""

    match: int
    seats: list[str]
    winner: int | None
    final_state: Any
    pairs: list[tuple[int, Any, Any]]


def load_records(path: str | Path, game: Game) -> tuple[dict[str, Any], list[MatchRecord]]:
    """Read a record file; errors name the file and line at fault."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such record file")
    header: dict[str, Any] | None = None
    matches: list[MatchRecord] = []
    with path.open() as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{lineno}: not JSON ({err.msg})") from None
            if header is None:
                if not isinstance(data, dict) or data.get("format") != FORMAT:
                    raise ValueError(f"{path}:{lineno}: not a {FORMAT} file")
                if data.get("version") != VERSION:
                    raise ValueError(f"{path}:{lineno}: version {data.get('version')} "
                                     f"unsupported (expected {VERSION})")
                if data.get("game") != game.name:
                    raise ValueError(f"{path}:{lineno}: records game '{data.get('game')}', "
                                     f"not '{game.name}'")
                header = data
                continue
            try:
                pairs = [(int(p["seat"]), game.state_from_dict(p["state"]),
                          game.action_from_json(p["action"])) for p in data["pairs"]]
                matches.append(MatchRecord(
                    match=int(data["match"]), seats=list(data["seats"]), winner=data["winner"],
                    final_state=game.state_from_dict(data["final_state"]), pairs=pairs))
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
                raise ValueError(f"{path}:{lineno}: bad match record ({err})") from None
    if header is None:
        raise ValueError(f"{path}: empty record file")
    return header, matches
