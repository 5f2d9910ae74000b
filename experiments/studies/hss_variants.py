"""HSS as published in Aleixo (2023) (``variant="published"``) against the earlier implementation
(``"legacy"``), same budget and seeds, on Can't Stop against Glenn & Aloi's player.

Can't Stop is used because its matches are cheap: a microRTS comparison at a budget
where one local search cools (112 evaluations, 224 matches each) costs hours here.
Each run's best program is re-scored on fresh matches (another seed, more matches),
so the search's own noisy maximum does not decide the comparison.

    python -m experiments.studies.hss_variants [EVALUATIONS] [SEEDS] [MATCHES] [RESCORE]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from games import load_game
from games.cantstop import glenn_aloi_player
from games.cantstop.features import FEATURES
from gp.evaluator import Budget
from gp.fitness import WinRate
from gp.languages.cantstop import CANTSTOP_DSL, SketchStrategy
from qd.hss import HSS, feature_levels
from qd.map_elites import BehaviourWinRate

NAMES = ["markers_per_stop", "bust_rate"]
OUT_DIR = Path(__file__).resolve().parents[1] / "results" / "hss"
"""``experiments/results/hss``, where the committed comparisons are."""


def run(evaluations: int = 224, seeds: int = 3, matches: int = 50, rescore: int = 400) -> dict:
    game = load_game("cantstop")
    target = glenn_aloi_player()
    levels = feature_levels([FEATURES[n][1] for n in NAMES], 5)
    rows = []
    for variant in ("published", "legacy"):
        for seed in range(1, seeds + 1):
            started = time.perf_counter()
            evaluate = BehaviourWinRate(game, target, SketchStrategy, FEATURES, NAMES, matches,
                                        seed)
            # level 2 as in the committed results: plain SA (Sketch-SA is the default now)
            hss = HSS(CANTSTOP_DSL, evaluate, levels, seed=seed, variant=variant,
                      local_search="sa")
            utility, program = hss.run(Budget(evaluations=evaluations))
            fresh = WinRate(game, target, SketchStrategy, matches=rescore, seed=10_000 + seed)
            rows.append({"variant": variant, "seed": seed, "search_best": utility,
                         "rescored": fresh(program), "local_searches": len(hss.iterations),
                         "phases": sorted({it["phase"] for it in hss.iterations}),
                         "seconds": round(time.perf_counter() - started, 1),
                         "program": program})
            print(json.dumps({k: v for k, v in rows[-1].items() if k != "program"}), flush=True)
    summary = {}
    for variant in ("published", "legacy"):
        scores = [r["rescored"] for r in rows if r["variant"] == variant]
        summary[variant] = {"mean_rescored": sum(scores) / len(scores), "rescored": scores}
    result = {"command": "python -m experiments.studies.hss_variants "
                         f"{evaluations} {seeds} {matches} {rescore}",
              "game": "cantstop", "target": "glenn_aloi", "features": NAMES,
              "evaluations": evaluations, "matches_per_evaluation": matches,
              "rescore_matches": rescore, "summary": summary, "runs": rows}
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / f"variants-cantstop-{evaluations}-evaluations.json").write_text(
        json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    print(json.dumps(run(*args)["summary"], indent=1))
