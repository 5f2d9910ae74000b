"""``stratsynth select RUN``: the strongest program of a run, chosen on fresh matches.

Why: a search keeps the best of thousands of noisy Ψ values, so its best program's
value is biased upwards (the winner's curse), and the program with the highest
in-search Ψ is often not the strongest one it met. This takes the run's ``top``
distinct programs by in-search Ψ, re-measures each on ``matches`` matches never
played in the search (stage 1), keeps the best, and measures that one again on a
second set of ``matches`` fresh matches (stage 2): stage 2 is an unbiased estimate
of the chosen program's win rate, with a Wilson interval, and is exactly what
``stratsynth play GAME --p0 program:FILE --p1 TARGET -n MATCHES --seed SEED`` prints.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from games.backends import make_map
from games.engines import check_engine, prepare_engines
from games.match import play_matches, wilson_interval
from gp.evaluator import read_log
from gp.programs import strategy_class

from .config import kind_of
from .loader import read_run_config
from .options import UsageError, add_engine, add_workers, positive
from .report import admitted_target, run_setting
from .trust import Consent, add_trust_flags, consent_of

STAGE1_SEED = 20_011
"""Stage 1 plays seeds ``STAGE1_SEED + run seed``; stage 2 ``STAGE2_SEED + run seed``.
A search's matches are seeded by a hash of (run seed, program text) (``program_seed``),
so neither set was played in the search."""
STAGE2_SEED = 30_011

_NOT_FLAGS = {"kind", "game", "game_params", "label", "backend", "scheduler", "out", "identity"}


def command_of(config: dict, out: str = "RUN") -> str:
    """The ``stratsynth synth`` command that a run's ``config.json`` records."""
    parts = ["stratsynth synth", config["game"], *game_param_flags(config)]
    for key, value in config.items():
        if key in _NOT_FLAGS or value is None or value is False:
            continue
        if key == "sketch_schedule" and value == "text" or key == "clock" and value == "wall":
            continue  # the defaults
        flag = "--" + key.replace("_", "-")
        parts.append(flag if value is True else f"{flag} {value}")
    parts.append(f"--out {out}")
    return " ".join(parts)


def game_param_flags(config: dict) -> list[str]:
    """``--game-param KEY=VALUE`` for each game parameter a run's config records."""
    flags = []
    for key, value in (config.get("game_params") or {}).items():
        shown = value if isinstance(value, str) else json.dumps(value)
        flags.append(f"--game-param {key}={shown}")
    return flags


def run_length(run_dir: Path) -> tuple[int, float]:
    """Evaluations and seconds the run's log reached (a stopped run's, too)."""
    rows = read_log(run_dir / "log.csv")
    return (int(rows[-1]["evaluations"]), float(rows[-1]["seconds"])) if rows else (0, 0.0)


def candidates(run_dir: Path, top: int) -> list[dict]:
    """The run's ``top`` distinct programs by their highest in-search Ψ, with the
    evaluation and time at which each was first scored that high."""
    best: dict[str, dict] = {}
    for row in read_log(run_dir / "log.csv"):
        if not row.get("psi"):
            continue
        psi, text = float(row["psi"]), row["program"]
        if text not in best or psi > best[text]["psi"]:
            best[text] = {"program": text, "psi": psi, "evaluation": int(row["evaluations"]),
                          "seconds": float(row["seconds"])}
    if not best:
        raise UsageError(f"{run_dir / 'log.csv'}: no Ψ evaluations to select from")
    return sorted(best.values(), key=lambda c: -c["psi"])[:top]


def select(run_dir: Path, top: int = 20, matches: int = 10_000, workers: int = 1,
           engine: str | None = None, consent: Consent | None = None) -> dict:
    """Stage 1 on every candidate, stage 2 on the winner; kept in ``select.json``.
    ``engine``: the match engine (default: the run's, else ``fast``); every engine
    gives the same results. ``consent``: what the user named for the run
    (``experiments.trust``): a target reading files outside it is refused otherwise."""
    config_path = run_dir / "config.json"
    if not config_path.exists():
        raise UsageError(f"{run_dir}: not a run directory (no config.json)")
    config = read_run_config(run_dir)
    if kind_of(config) != "synth":
        raise UsageError(f"{run_dir}: a {kind_of(config)} run; select re-measures the "
                         "programs of a synthesis run (a qd run's: stratsynth qd-check)")
    game, cls, target_spec, target = run_setting(
        config, admitted_target(config, run_dir, consent))
    seed = int(config["seed"])
    engine = check_engine(engine or config.get("engine") or "fast")
    pool = candidates(run_dir, top)
    prepare_engines(game, engine)
    with make_map(workers) as backend:
        for cand in pool:
            summary = play_matches(game, (cls(cand["program"]), target), matches,
                                   STAGE1_SEED + seed, map=backend, engine=engine)
            cand["stage1_wins"] = summary.wins[0]
        chosen = max(pool, key=lambda c: (c["stage1_wins"], c["psi"]))
        summary = play_matches(game, (cls(chosen["program"]), target), matches,
                               STAGE2_SEED + seed, map=backend, engine=engine)
    low, high = wilson_interval(summary.wins[0], matches)
    evaluations, seconds = run_length(run_dir)
    result = {"run": str(run_dir), "game": config["game"], "target": target_spec,
              "matches": matches, "stage1_seed": STAGE1_SEED + seed,
              "stage2_seed": STAGE2_SEED + seed, "candidates": pool, "chosen": chosen,
              "stage2_wins": summary.wins[0], "stage2_rate": summary.wins[0] / matches,
              "stage2_interval": [low, high], "command": command_of(config, str(run_dir)),
              "run_evaluations": evaluations, "run_seconds": seconds,
              "recheck": " ".join([f"stratsynth play {config['game']}", *game_param_flags(config),
                                   *(["--dsl", config["dsl"]] if config.get("dsl") else []),
                                   f"--p0 program:THIS --p1 {target_spec} -n {matches} "
                                   f"--seed {STAGE2_SEED + seed}"])}
    (run_dir / "select.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


def program_file(result: dict, config: dict, dsl_present) -> str:
    """The chosen program with a header saying how it was found and how to re-check it."""
    chosen = result["chosen"]
    budget = config.get("budget") or f"{config.get('evaluations')} evaluations"
    lines = [
        f"# {result['game']}: {result['stage2_rate']:.4f} against {result['target']} on "
        f"{result['matches']:,} fresh matches (95% Wilson "
        f"[{result['stage2_interval'][0]:.4f}, {result['stage2_interval'][1]:.4f}]).",
        f"# Found by {config['method']} (seed {config['seed']}, budget {budget}, clock "
        f"{config.get('clock') or 'wall'}, workers {config.get('workers')}) at evaluation "
        f"{chosen['evaluation']:,}, {chosen['seconds'] / 60:.1f} minutes in; in-search Ψ "
        f"{chosen['psi']:.4f} on {config.get('matches')} matches. The run's log ends at "
        f"evaluation {result['run_evaluations']:,}, {result['run_seconds'] / 60:.1f} minutes.",
        f"# Chosen among the run's {len(result['candidates'])} best programs by "
        f"{result['matches']:,} fresh matches each (stage 1, seed {result['stage1_seed']}: "
        f"{chosen['stage1_wins'] / result['matches']:.4f}), then measured on the matches "
        "above (stage 2).",
        "# Search: " + result["command"],
        f"# Selection: stratsynth select {result['run']} --top {len(result['candidates'])} "
        f"--matches {result['matches']}",
        "# Re-check: " + result["recheck"],
    ]
    return "\n".join(lines) + "\n" + dsl_present(chosen["program"]).rstrip("\n") + "\n"


def cmd_select(args) -> int:
    from gp.simplify import simplified_text

    run_dir = Path(args.run)
    if args.out and (Path(args.out).is_dir() or not Path(args.out).parent.is_dir()):
        raise UsageError(f"--out {args.out}: give a file in an existing directory "
                         "(the chosen program is written there)")
    result = select(run_dir, args.top, args.matches, args.workers, args.engine,
                    consent_of(args))
    chosen = result["chosen"]
    print(f"{len(result['candidates'])} candidates; stage 1 ({args.matches} matches each):")
    for cand in result["candidates"]:
        mark = "*" if cand is chosen else " "
        print(f" {mark} in-search {cand['psi']:.4f}  fresh {cand['stage1_wins'] / args.matches:.4f}"
              f"  (evaluation {cand['evaluation']})")
    low, high = result["stage2_interval"]
    print(f"chosen: {result['stage2_rate']:.4f} [{low:.4f}, {high:.4f}] on "
          f"{args.matches} further fresh matches (seed {result['stage2_seed']})")
    if args.out:
        config = json.loads((run_dir / "config.json").read_text())
        dsl = strategy_class(config["game"], config.get("dsl")).default_dsl()
        text = program_file(result, config, lambda p: simplified_text(dsl, p))
        Path(args.out).write_text(text)
        print(f"program written to {args.out}")
    return 0 if math.isfinite(result["stage2_rate"]) else 1


def add_parsers(sub) -> None:
    parser = sub.add_parser(
        "select", help="re-measure a run's best programs on fresh matches; keep the strongest")
    parser.add_argument("run", help="run directory (stratsynth synth --out)")
    parser.add_argument("--top", type=positive, default=20,
                        help="distinct programs with the highest in-search Ψ to re-measure")
    parser.add_argument("--matches", type=positive, default=10_000,
                        help="fresh matches per stage")
    parser.add_argument("--out", default=None,
                        help="write the chosen program here, with a header saying how it "
                        "was found and the command that re-checks it")
    add_workers(parser)
    add_engine(parser, default=None, shown="the run's, else fast")
    add_trust_flags(parser)
    parser.set_defaults(handler=cmd_select)
