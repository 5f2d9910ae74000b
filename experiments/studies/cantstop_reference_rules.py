"""Which of the reference code's rule differences (D1–D4, listed in
``games.cantstop.reference_rules``) moves which win rate.

Two rate pairs are measured with the CLI under both rule sets (``run.sh`` beside the
results): random vs GA and Rule of 28 vs GA. This study adds the steps between
the two rule sets, one difference at a time, on the same seeds:

    paper            the paper's rules (``rules=paper``)
    paper+D3         the paper's rules, legal moves in the reference's set order
    paper+D3+D4      ... and "stop if stopping wins" only at exactly 3 columns
    reference-D2     the reference rules with the D2 bug fixed (D1, D3, D4 kept): a step
                     from one's own marker on the top cell places a neutral past it
                     and counts it once
    reference        ``rules=reference`` (D1–D4)

The middle three are study variants, not game parameters. ``--report`` writes
``table.md`` from every result file: Wilson 95% intervals (scipy), the CLI runs,
these variants and the reference code's own runs (``reference-code-*.jsonl``,
chunks of 500 matches written by the recording harness described in
docs/cantstop-reference-rules.md).

    python -m experiments.studies.cantstop_reference_rules --measure -n 10000
    python -m experiments.studies.cantstop_reference_rules --report
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scipy.stats import binomtest

from games import game_players, load_game
from games.cantstop.reference_rules import ReferenceCantStopState
from games.cantstop.rules import COLUMNS_TO_WIN, HEIGHTS, CantStopState
from games.match import play_matches

OUT = Path("experiments/results/cantstop-reference-rules")
PAIRINGS = ("random", "rule28")


class PaperSetOrder(CantStopState):
    """Paper rules, legal moves in the order of a Python set of them (D3)."""

    __slots__ = ()

    def _column_moves(self, pairings) -> list:
        return list(set(super()._column_moves(pairings)))


class PaperSetOrderExactThree(PaperSetOrder):
    """... and the players' "stopping wins" test only at exactly three columns (D4)."""

    __slots__ = ()

    def stopping_wins(self) -> bool:
        return self.claims[self.player] + self.topped_columns() == COLUMNS_TO_WIN


class ReferenceWithoutD2(ReferenceCantStopState):
    """The reference rules with the D2 bug fixed: a step from one's own marker on the top
    cell places a neutral past the top (listed, counted once, claimed at STOP)."""

    __slots__ = ()

    def _advance(self, action) -> None:
        own = self.markers[self.player]
        for c in action:
            if not self.neutral[c] and own[c] == HEIGHTS[c]:
                self.neutral[c] = HEIGHTS[c]  # sits on the top cell; the step below claims
                self.neutral_cols.append(c)
                self.neutral_count += 1
            super()._advance((c,))


VARIANTS = {
    "paper": CantStopState,
    "paper+D3": PaperSetOrder,
    "paper+D3+D4": PaperSetOrderExactThree,
    "reference-D2": ReferenceWithoutD2,
    "reference": ReferenceCantStopState,
}


def measure(matches: int, seed: int) -> None:
    players = game_players("cantstop")
    for name in ("paper+D3", "paper+D3+D4", "reference-D2"):
        game = load_game("cantstop")
        game.state_class = VARIANTS[name]
        for p0 in PAIRINGS:
            path = OUT / f"{p0}-vs-ga-variant-{name}.json"
            if path.exists():
                continue
            summary = play_matches(game, (players[p0](), players["ga"]()), matches, seed)
            path.write_text(json.dumps({
                "variant": name, "players": [p0, "ga"], "matches": summary.matches,
                "wins": summary.wins, "capped": summary.capped, "seed": seed,
                "mean_moves": round(summary.mean_moves, 3),
                "seconds": round(summary.seconds, 3)}) + "\n")
            print(path, summary.wins)


def _wilson(k: int, n: int) -> str:
    ci = binomtest(k, n).proportion_ci(method="wilson")
    return f"{100 * k / n:.2f}% [{100 * ci.low:.2f}, {100 * ci.high:.2f}]"


def report() -> str:
    rows = []
    for p0 in PAIRINGS:
        for rules in ("paper", "reference"):
            path = OUT / f"{p0}-vs-ga-rules-{rules}.json"
            if path.exists():
                d = json.loads(path.read_text())
                rows.append((p0, f"ours, rules={rules} (CLI)", d["wins"][0], d["matches"],
                             d["capped"]))
        for name in ("paper+D3", "paper+D3+D4", "reference-D2"):
            path = OUT / f"{p0}-vs-ga-variant-{name}.json"
            if path.exists():
                d = json.loads(path.read_text())
                rows.append((p0, f"ours, study variant {name}", d["wins"][0], d["matches"],
                             d["capped"]))
        path = OUT / f"reference-code-{p0}-vs-ga.jsonl"
        if path.exists():
            chunks = [json.loads(line) for line in path.read_text().splitlines()]
            n = max(c["end"] for c in chunks)
            rows.append((p0, "reference code (a93feef)", sum(c["a"] for c in chunks), n,
                         sum(c["none"] for c in chunks)))
    lines = ["| pairing | engine | matches | wins of the first player, 95% Wilson | capped |",
             "|---|---|---:|---|---:|"]
    for p0, engine, k, n, capped in rows:
        lines.append(f"| {p0} vs GA | {engine} | {n} | {_wilson(k, n)} | {capped} |")
    table = "\n".join(lines) + "\n"
    (OUT / "table.md").write_text(table)
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("-n", "--matches", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.measure:
        measure(args.matches, args.seed)
    if args.report or not args.measure:
        print(report(), end="")


if __name__ == "__main__":
    main()
