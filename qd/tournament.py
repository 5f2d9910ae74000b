"""Round-robin tournaments among any players (built-in, programs, weights).

Every pair meets ``matches`` times with seats alternating; the table gives each
player's wins, draws and losses, score (win 1, draw ½) with a 95% interval, and a
pairwise score matrix; ``plot_matrix`` draws it. With a ``pairs_file`` each finished
pairing is appended to it as it ends and a rerun skips the pairings found there, so a
long tournament survives a kill.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from games.files import check_same_setting
from games.match import play_matches


@dataclass
class TournamentResult:
    names: list[str]
    score: np.ndarray  # score[i, j]: points of i against j (win 1, draw ½)
    wins: np.ndarray
    draws: np.ndarray
    games: np.ndarray

    def ranking(self) -> list[int]:
        totals = self.score.sum(axis=1) / np.maximum(self.games.sum(axis=1), 1)
        return sorted(range(len(self.names)), key=lambda i: -totals[i])

    def interval(self, i: int) -> tuple[float, float]:
        """95% normal interval of player ``i``'s mean score per game, from the spread
        of its games' scores (1, ½, 0). Matches between deterministic players repeat,
        so this is the uncertainty over match seeds only, not over how the players
        were made."""
        return score_interval(int(self.wins[i].sum()), int(self.draws[i].sum()),
                              int(self.games[i].sum()))

    def markdown(self) -> str:
        lines = ["| rank | player | games | wins | draws | losses | score % | 95% interval |",
                 "|---|---|---|---|---|---|---|---|"]
        for rank, i in enumerate(self.ranking(), 1):
            games = int(self.games[i].sum())
            wins, draws = int(self.wins[i].sum()), int(self.draws[i].sum())
            pct = 100 * self.score[i].sum() / max(games, 1)
            low, high = self.interval(i)
            lines.append(f"| {rank} | {self.names[i]} | {games} | {wins} | {draws} | "
                         f"{games - wins - draws} | {pct:.1f} | {100 * low:.1f}–{100 * high:.1f} |")
        lines += ["", "Score of the row player against the column player (win 1, draw ½):", "",
                  "| | " + " | ".join(self.names) + " |",
                  "|---" * (len(self.names) + 1) + "|"]
        for i, name in enumerate(self.names):
            cells = ["—" if i == j else f"{self.score[i, j]:g}/{int(self.games[i, j])}"
                     for j in range(len(self.names))]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def score_interval(wins: int, draws: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Mean score per game (win 1, draw ½) ± z standard errors, within [0, 1]."""
    if games == 0:
        return 0.0, 1.0
    mean = (wins + draws / 2) / games
    variance = max((wins + draws / 4) / games - mean * mean, 0.0)
    half = z * (variance / games) ** 0.5
    return max(mean - half, 0.0), min(mean + half, 1.0)


def round_robin(game, players: Sequence[Callable], names: Sequence[str], matches: int,
                seed: int, map: Callable | None = None, pairs_file: Path | None = None,
                setting: dict | None = None, engine: str = "fast") -> TournamentResult:
    """Every pair of players, ``matches`` matches each, seats alternating; pairing
    ``p`` (in ``combinations`` order) plays on seed ``seed + 7919 * p``. ``setting``
    (e.g. the game, its parameters, the player specs) goes into the pairings file's
    header, so that a file is only continued by the same tournament. ``engine``
    (``games.engines.ENGINES``) changes the speed only."""
    k = len(players)
    score = np.zeros((k, k))
    wins = np.zeros((k, k), dtype=int)
    draws = np.zeros((k, k), dtype=int)
    games = np.zeros((k, k), dtype=int)
    done = (read_pairs(pairs_file, names, matches, seed, setting or {})
            if pairs_file is not None else {})
    for pair, (i, j) in enumerate(combinations(range(k), 2)):
        if (names[i], names[j]) in done:
            row = done[names[i], names[j]]
        else:
            summary = play_matches(game, (players[i], players[j]), matches, seed + 7919 * pair,
                                   map=map, engine=engine)
            row = {"pair": [names[i], names[j]], "wins": list(summary.wins),
                   "even": summary.draws + summary.capped, "matches": summary.matches}
            if pairs_file is not None:
                with open(pairs_file, "a") as f:
                    f.write(json.dumps(row) + "\n")
        wins[i, j], wins[j, i] = row["wins"]
        draws[i, j] = draws[j, i] = row["even"]
        games[i, j] = games[j, i] = row["matches"]
        score[i, j] = row["wins"][0] + row["even"] / 2
        score[j, i] = row["wins"][1] + row["even"] / 2
    return TournamentResult(list(names), score, wins, draws, games)


def read_pairs(path: Path, names: Sequence[str], matches: int, seed: int,
               setting: dict) -> dict:
    """Finished pairings of a tournament file (created with its header if absent);
    a file from another tournament is refused, naming the file."""
    header = {"format": "stratsynth-tournament-pairs", "names": list(names),
              "matches": matches, "seed": seed, **setting}
    path = Path(path)
    if not path.is_file() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n")
        return {}
    lines = path.read_text().splitlines()
    try:
        saved = json.loads(lines[0])
    except json.JSONDecodeError:
        raise ValueError(f"{path}: not a tournament pairings file") from None
    if not isinstance(saved, dict):
        raise ValueError(f"{path}: not a tournament pairings file")
    rows = []
    for line in lines[1:]:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:  # a kill during an append cuts the last line
            path.write_text("\n".join([lines[0]] + [json.dumps(r) for r in rows]) + "\n")
            break
    check_same_setting(path, saved, header)
    return {tuple(r["pair"]): r for r in rows}


def plot_matrix(result: TournamentResult, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rate = result.score / np.maximum(result.games, 1)
    np.fill_diagonal(rate, np.nan)
    fig, ax = plt.subplots(figsize=(1.2 * len(result.names) + 2, 1.0 * len(result.names) + 1.5))
    image = ax.imshow(rate, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(result.names)), result.names, rotation=30, ha="right")
    ax.set_yticks(range(len(result.names)), result.names)
    for i in range(len(result.names)):
        for j in range(len(result.names)):
            if i != j:
                ax.text(j, i, f"{rate[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="score of row vs column")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
