"""Round-robin tournaments among any players (built-in, programs, weights).

Every pair meets ``matches`` times with seats alternating; the table gives each
player's wins, draws and losses, win rate and score (win 1, draw ½), and a
pairwise score matrix; ``plot_matrix`` draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

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

    def markdown(self) -> str:
        lines = ["| rank | player | games | wins | draws | losses | score % |",
                 "|---|---|---|---|---|---|---|"]
        for rank, i in enumerate(self.ranking(), 1):
            games = int(self.games[i].sum())
            wins, draws = int(self.wins[i].sum()), int(self.draws[i].sum())
            pct = 100 * self.score[i].sum() / max(games, 1)
            lines.append(f"| {rank} | {self.names[i]} | {games} | {wins} | {draws} | "
                         f"{games - wins - draws} | {pct:.1f} |")
        lines += ["", "Score of the row player against the column player (win 1, draw ½):", "",
                  "| | " + " | ".join(self.names) + " |",
                  "|---" * (len(self.names) + 1) + "|"]
        for i, name in enumerate(self.names):
            cells = ["—" if i == j else f"{self.score[i, j]:g}/{int(self.games[i, j])}"
                     for j in range(len(self.names))]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def round_robin(game, players: Sequence[Callable], names: Sequence[str], matches: int,
                seed: int, map: Callable | None = None) -> TournamentResult:
    k = len(players)
    score = np.zeros((k, k))
    wins = np.zeros((k, k), dtype=int)
    draws = np.zeros((k, k), dtype=int)
    games = np.zeros((k, k), dtype=int)
    for pair, (i, j) in enumerate(combinations(range(k), 2)):
        summary = play_matches(game, (players[i], players[j]), matches, seed + 7919 * pair,
                               map=map)
        even = summary.draws + summary.capped
        wins[i, j], wins[j, i] = summary.wins
        draws[i, j] = draws[j, i] = even
        games[i, j] = games[j, i] = summary.matches
        score[i, j] = summary.wins[0] + even / 2
        score[j, i] = summary.wins[1] + even / 2
    return TournamentResult(list(names), score, wins, draws, games)


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
