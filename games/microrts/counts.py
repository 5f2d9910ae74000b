"""Ψ and C_O on microRTS (Medeiros, Aleixo and Lelis 2022), computed from the same matches.

Ψ is ``gp.fitness.WinRate`` on ``games.microrts.MicroRTS``: the program's score
over ``matches`` matches against the target, starts alternating (the default 2 is
one match from each start): win 1, draw or cap 0.5, loss 0. C_O compares, match
by match from the same start, the units the program produced per type and the
resources it gathered with those of the cloned player in a recorded data set:
the mean over the counts of 1 - |n - n'| / max(n, n') (1 when both are 0). Both
read one cached batch of matches per program text (``WinRate.play``), so Ψ with
C as tie-break costs no extra match.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..match import MatchSummary, play_matches
from .match import PRODUCED

COUNTS = tuple(f"produced_{t}" for t in PRODUCED) + ("resources",)
RECORD_FORMAT = "stratsynth-microrts-counts"
RECORD_VERSION = 1


def count_similarity(mine: dict[str, float], theirs: dict[str, float]) -> float:
    """The sketch-learning paper's C_O for one pair of matches."""
    total = 0.0
    for key in COUNTS:
        a, b = mine.get(key, 0.0), theirs.get(key, 0.0)
        top = max(abs(a), abs(b))
        total += 1.0 if top == 0 else 1.0 - abs(a - b) / top
    return total / len(COUNTS)


def check_counts_match_game(path: str | Path, header: dict, game) -> None:
    """Counts only compare on the same map and unit type table: say so if they differ."""
    for field, wanted in (("map", game.map_name), ("utt", game.utt)):
        if header[field] != wanted:
            raise ValueError(f"{path}: line 1: '{field}' is {header[field]!r} but the run plays "
                             f"{wanted!r}; record the data on the run's {field}")


class MicroRTSObservationCloning:
    """C_O against a recorded data set (``stratsynth record microrts``)."""

    name = "c"

    def __init__(self, records: list[dict], psi: Any) -> None:
        if not records:
            raise ValueError("the microRTS data set holds no match")
        self.by_start = {}
        for record in records:
            start = record["seats"].index(0)  # the seat the cloned player started in
            self.by_start.setdefault(start, record["stats"][0])
        self.psi = psi

    def __call__(self, program: Any) -> float:
        summary = self.psi.play(program)
        scores = []
        for detail in summary.per_match:
            start = detail["seats"].index(0)
            reference = self.by_start.get(start) or next(iter(self.by_start.values()))
            scores.append(count_similarity(detail["stats"][0], reference))
        return sum(scores) / len(scores)


def write_counts(path: str | Path, map_name: str, specs: list[str], summary: MatchSummary,
                 utt: str) -> int:
    """A data set of microRTS matches: a header line, then one line per match."""
    lines = [json.dumps({"format": RECORD_FORMAT, "version": RECORD_VERSION, "map": map_name,
                         "utt": utt, "players": specs})]
    lines += [json.dumps(detail) for detail in summary.per_match]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n")
    return len(summary.per_match)


def read_counts(path: str | Path) -> tuple[dict, list[dict]]:
    """Header and matches of a microRTS data set; errors name the file and line."""
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{path}: no such data file")
    lines = [line for line in file.read_text().splitlines() if line.strip()]
    try:
        rows = [json.loads(line) for line in lines]
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: line {err.doc and lines.index(err.doc) + 1}: not JSON") from None
    if not rows or rows[0].get("format") != RECORD_FORMAT:
        raise ValueError(f"{path}: line 1: not a microRTS data set (format {RECORD_FORMAT})")
    if rows[0].get("version") != RECORD_VERSION:
        raise ValueError(f"{path}: line 1: version {rows[0].get('version')} is not "
                         f"{RECORD_VERSION}")
    if "map" not in rows[0] or "utt" not in rows[0]:
        raise ValueError(f"{path}: line 1: the header needs 'map' and 'utt' (unit type table)")
    for lineno, row in enumerate(rows[1:], 2):
        if "stats" not in row or "seats" not in row:
            raise ValueError(f"{path}: line {lineno}: a match needs 'seats' and 'stats'")
    return rows[0], rows[1:]


def observation_cloning(data: str, game: Any, strategy_class: Any,
                        psi: Any) -> MicroRTSObservationCloning:
    """``SynthesisSpec.cloning`` factory: C_O against a data set of ``stratsynth record microrts``,
    read off Ψ's own matches (no extra match)."""
    header, matches = read_counts(data)
    check_counts_match_game(data, header, game)
    return MicroRTSObservationCloning(matches, psi)


def record_counts(game: Any, players: list, specs: list[str], matches: int, seed: int,
                  output: str, *, winner_only: bool = False, self_play: bool = False,
                  map: Any = None) -> int:
    """``CLISpec.recorder``: per-match unit and resource counts (the engine plays whole
    matches, so there are no (state, action) pairs to record)."""
    if winner_only:
        raise ValueError("microrts records counts of every match: --winner-only does not apply")
    summary = play_matches(game, players, matches, seed, map=map)
    return write_counts(output, game.map_name, specs, summary, game.utt)
