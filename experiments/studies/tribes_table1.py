"""The play-styles paper's Table I in Tribes: Portfolio MCTS variants against MCTS and RHEA.

    python -m experiments.studies.tribes_table1 --levels 0-9 --games-per-level 10 \\
        --budget 2000 --max-seconds 780
    python -m experiments.studies.tribes_table1 --rules 4 --agents framework \\
        --levels 0-24 --games-per-level 4 --workers 2     # the framework's game and levels

Each pairing plays ``games-per-level`` games on every level, seats alternating; every
finished game is appended to ``games.jsonl`` (rerunning the command skips games
already there, so a killed run resumes), and ``table1.md`` / ``table1.json`` are
rewritten after each game: win rate of the first agent, its mean final score,
technologies (% of 24), cities and production, with standard errors in brackets.
``--workers N`` plays N games at a time (``games.backends.make_map``: 1 serial, 0 all
cores); a game's seeds depend only on its level and repetition, so the games are the
same in any process and with any number of workers, and the lines are written in
schedule order, a batch at a time. ``--max-seconds`` stops cleanly between batches.

Each game's line records the Tribes ``RULES_VERSION`` it was played under (a line
without one: version 1, the rules before the framework fixes). The default ``--out``
is named by budget and rules version, and the script refuses to add games to a
``games.jsonl`` that holds games of another rules version, so a table never mixes
two rule sets. ``--connected-term`` is how the agents' heuristic counts cities connected
to the capital (``games.tribes.players.CONNECTED_TERMS``): ``change``, the framework's
signed change (the default), or ``grew``, +1 when their number grew, the reading every
run before the option was played with (a line without ``connected_term``); a folder
never mixes the two either. ``--agent-details`` likewise: ``framework`` (the default)
plays the framework's agents down to its chance and tie-breaks and RHEA's plan
handling (the players' ``framework_details``), ``earlier`` as every run before the
option (a line without ``agent_details``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from games.backends import make_map
from games.tribes import MCTS, PLAYERS, RHEA, PortfolioMCTS, Tribes
from games.tribes.gamelog import play_logged
from games.tribes.players import CONNECTED_TERMS, Heuristic
from games.tribes.rules import RULES_VERSION

PAIRINGS = (("pmcts", "mcts"), ("pmcts-b", "mcts"), ("pmcts-pu", "mcts"), ("mcts", "rhea"),
            ("pmcts", "rhea"), ("pmcts-b", "rhea"), ("pmcts-pu", "rhea"))
SEED_TABLE_I = {  # the play-styles paper's Table I: mean (standard error) over 500 games a row
    ("pmcts", "mcts"): {"wins": (65.60, 2.93), "score": (7237.36, 323.66),
                        "techs": (93.02, 4.16), "cities": (3.01, 0.13),
                        "production": (18.25, 0.82)},
    ("pmcts-b", "mcts"): {"wins": (65.40, 2.92), "score": (7290.61, 326.05),
                          "techs": (92.94, 4.16), "cities": (3.03, 0.14),
                          "production": (18.92, 0.85)},
    ("pmcts-pu", "mcts"): {"wins": (68.60, 3.07), "score": (6330.35, 283.10),
                           "techs": (83.29, 3.72), "cities": (3.23, 0.14),
                           "production": (16.95, 0.76)},
    ("mcts", "rhea"): {"wins": (37.00, 2.16), "score": (4274.10, 191.14),
                       "techs": (84.17, 3.76), "cities": (1.69, 0.08),
                       "production": (13.13, 0.59)},
    ("pmcts", "rhea"): {"wins": (56.40, 2.52), "score": (6734.93, 301.20),
                        "techs": (89.38, 4.00), "cities": (2.73, 0.12),
                        "production": (15.62, 0.70)},
    ("pmcts-b", "rhea"): {"wins": (55.60, 2.49), "score": (6745.07, 301.65),
                          "techs": (90.11, 4.03), "cities": (2.66, 0.12),
                          "production": (15.19, 0.68)},
    ("pmcts-pu", "rhea"): {"wins": (67.80, 3.03), "score": (5916.11, 264.58),
                           "techs": (77.01, 3.44), "cities": (3.17, 0.14),
                           "production": (15.66, 0.70)},
}
PRINTED_PU_PAIRINGS = (("pmcts-pu-printed", "mcts"), ("pmcts-pu-printed", "rhea"))
"""Table I's two P-MCTS(PU) rows with the unpruning schedule as the paper prints it
(``--pairings pmcts-pu-printed:mcts,pmcts-pu-printed:rhea``); compared with the paper's
P-MCTS(PU) rows."""
for _first, _second in PRINTED_PU_PAIRINGS:
    SEED_TABLE_I[(_first, _second)] = SEED_TABLE_I[("pmcts-pu", _second)]
CODE_BIAS_PAIRINGS = (("pmcts-b-code", "mcts"), ("pmcts-pu-code", "mcts"),
                      ("pmcts-b-code", "rhea"), ("pmcts-pu-code", "rhea"))
"""Table I's P-MCTS(B) and P-MCTS(PU) rows with the progressive bias as the framework's
code divides it, h/(n + ε) (``PortfolioTreeNode.uct``), instead of the paper's
h/(1 + n); compared with the paper's rows."""
for _first, _second in CODE_BIAS_PAIRINGS:
    SEED_TABLE_I[(_first, _second)] = SEED_TABLE_I[(_first.removesuffix("-code"), _second)]
EXTRA_PAIRINGS = PRINTED_PU_PAIRINGS + CODE_BIAS_PAIRINGS
MEASURES = ("wins", "score", "techs", "cities", "production")
NAMES = {"pmcts": "P-MCTS", "pmcts-b": "P-MCTS(B)", "pmcts-pu": "P-MCTS(PU)", "mcts": "MCTS",
         "rhea": "RHEA", "pmcts-pu-printed": "P-MCTS(PU), printed schedule",
         "pmcts-b-code": "P-MCTS(B), code's bias", "pmcts-pu-code": "P-MCTS(PU), code's bias"}


AGENT_SETTINGS = ("ours", "framework-mcts", "framework")
"""Who plays Table I's agents. ``ours``: MCTS with rollouts over the whole root, P-MCTS
with Table III's scripts as we read them in our tree. ``framework-mcts``: MCTS as the
framework's tournament configures it (``tournament.json`` ``"Rollouts": false``,
``Run.getAgent``'s prioritised root, player ``mcts-fw``), P-MCTS as in ``ours``.
``framework``: every agent as the framework's code plays it: ``mcts-fw``, and P-MCTS as
``pmcts-fw``/``pmcts-b-fw``/``pmcts-pu-fw`` (its portfolio, its bias h/(n + ε), its tree
search with its bugs). RHEA is the framework's (population 1) in all three."""
FRAMEWORK_PMCTS = {"pmcts": "pmcts-fw", "pmcts-b": "pmcts-b-fw", "pmcts-pu": "pmcts-pu-fw"}
SAME_GAMES = {"framework": {"pmcts-b": "pmcts"}}
"""Rows whose games are another row's, move for move, by setting: the framework's tree
reads UCT values (and so P-MCTS(B)'s bias) only at a pruned node, so without pruning
``pmcts-b-fw`` plays ``pmcts-fw``'s games from the same seeds. Those games are copied into
the P-MCTS(B) rows, marked ``same_games_as``, when that pairing's P-MCTS games are in the
run; they are played when they are not."""
FOLDER_SUFFIX = {"ours": "", "framework-mcts": "_framework_mcts",
                 "framework": "_framework_agents"}
SETTING_TEXT = {"ours": "", "framework-mcts": ", MCTS as the framework configures it",
                "framework": ", every agent as the framework's code plays it"}


AGENT_DETAILS = ("framework", "earlier")
"""How closely the framework-derived agents (RHEA in every setting, MCTS in
``framework-mcts`` and ``framework``, P-MCTS in ``framework``) follow the framework's
code: ``framework``, down to fresh chance in every copy of the state, its tie-breaks and
RHEA's plan handling (the players' ``framework_details``); ``earlier``, without those
(every run before the option)."""


def make(spec: str, budget: int, agents: str = "ours", connected_term: str = "change",
         details: str = "framework"):
    """Table I's agent ``spec`` at ``budget`` calls, in the agent setting ``agents``, its
    heuristic counting connected cities by ``connected_term``, with the framework's
    details or not (``details``, one of ``AGENT_DETAILS``)."""
    agent = _make(spec, budget, agents, details == "framework")
    agent.heuristic = Heuristic(connected_term=connected_term)
    return agent


def connected_term(row: dict) -> str:
    """The heuristic's connected-cities reading a game was played with."""
    return row.get("connected_term", "grew")


def agent_details(row: dict) -> str:
    """The agents' details (``AGENT_DETAILS``) a game was played with."""
    return row.get("agent_details", "earlier")


def _make(spec: str, budget: int, agents: str, framework_details: bool):
    if agents == "framework" and spec in FRAMEWORK_PMCTS:
        return PLAYERS[FRAMEWORK_PMCTS[spec]](budget=budget,
                                              framework_details=framework_details)
    if spec == "mcts":
        if agents != "ours":
            return MCTS(budget=budget, rollouts=False, prioritise_root=True,
                        framework_details=framework_details)
        return MCTS(budget=budget)
    if spec == "rhea":
        return RHEA(budget=budget, framework_details=framework_details)
    if spec == "pmcts":
        return PortfolioMCTS(budget=budget)
    if spec == "pmcts-b":
        return PortfolioMCTS(budget=budget, bias=True)
    if spec == "pmcts-pu":
        return PortfolioMCTS(budget=budget, bias=True, pruning=True)
    if spec == "pmcts-pu-printed":
        return PortfolioMCTS(budget=budget, bias=True, pruning=True, unprune_schedule="printed")
    if spec == "pmcts-b-code":
        return PortfolioMCTS(budget=budget, bias=True, bias_denominator="code")
    if spec == "pmcts-pu-code":
        return PortfolioMCTS(budget=budget, bias=True, pruning=True, bias_denominator="code")
    raise ValueError(f"unknown agent '{spec}' (known: mcts, rhea, pmcts, pmcts-b, pmcts-pu, "
                     "pmcts-pu-printed, pmcts-b-code, pmcts-pu-code)")


def level_key(level: int, rules: int) -> int | str:
    """The level a table's level number N plays: under rules version 4 (the framework's
    game) the framework's tournament level ``java:N``, else our generator's level N."""
    return f"java:{level}" if rules >= 4 else level


def play_game(job: tuple) -> dict:
    """One scheduled game: ``(first, second, level, rep, budget, turn_limit, seed[, rules,
    agents[, connected_term[, details]]]])`` -> its row. Under rules 4 level N is the
    framework's level ``java:N``."""
    first, second, level, rep, budget, turn_limit, seed = job[:7]
    rules, agents, term, details = (job[7:] + (RULES_VERSION, "ours", "change",
                                               "framework")[len(job) - 7:])[:4]
    seat = rep % 2
    players = [make(second, budget, agents, term, details) for _ in range(2)]
    players[seat] = make(first, budget, agents, term, details)
    t0 = time.perf_counter()
    key = level_key(level, rules)
    log = play_logged(Tribes(turn_limit=turn_limit, rules=rules), players,
                      seed=seed * 1_000_003 + level * 1009 + rep, level=key)
    row = {"agents": [first, second], "level": level, "rep": rep, "seat": seat,
           "budget": budget, "rules_version": rules,
           "seconds": round(time.perf_counter() - t0, 1), "log": log}
    if agents != "ours":
        row["agent_setting"] = agents
    row["connected_term"] = term
    row["agent_details"] = details
    return row


def parse_levels(text: str) -> list[int]:
    levels: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            levels.extend(range(int(a), int(b) + 1))
        elif part.strip():
            levels.append(int(part))
    return levels


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def summarise(rows: list[dict], turn_limit: int = 50) -> list[dict]:
    """Per pairing: win rate and end-of-game measures of the first agent (mean and
    standard error), the median game length in rounds and the games ended before the
    turn limit (a capital captured)."""
    out = []
    for first, second in PAIRINGS + EXTRA_PAIRINGS:
        games = [r for r in rows if r["agents"] == [first, second]]
        if not games:
            continue
        mine = [r["log"]["seats"][r["seat"]] for r in games]
        wins = [100.0 if r["log"]["winner"] == r["seat"] else 0.0 for r in games]
        rounds = sorted(r["log"]["rounds"] for r in games)
        row = {"agent": first, "opponent": second, "games": len(games),
               "levels": len({r["level"] for r in games}),
               "draws": sum(1 for r in games if r["log"]["winner"] is None),
               "seed_win_rate": SEED_TABLE_I[(first, second)]["wins"][0],
               "seed": {k: list(v) for k, v in SEED_TABLE_I[(first, second)].items()},
               "median_rounds": statistics.median(rounds),
               "ended_early": sum(1 for r in games if r["log"]["rounds"] < turn_limit)}
        for name, values in (("wins", wins), ("score", [m["score"] for m in mine]),
                             ("techs", [100 * m["techs_fraction"] for m in mine]),
                             ("cities", [m["cities"] for m in mine]),
                             ("production", [m["production"] for m in mine])):
            row[name], row[name + "_se"] = _mean_se(values)
        out.append(row)
    return out


def rules_version(row: dict) -> int:
    """The rules a logged game was played under (no record: version 1)."""
    return int(row.get("rules_version", 1))


def default_out(budget: int, rules: int = RULES_VERSION, agents: str = "ours") -> Path:
    name = f"table1_budget{budget}_rules_v{rules}" + FOLDER_SUFFIX[agents]
    return Path("experiments/results/tribes") / name


def markdown(table: list[dict], budget: int, rules: int = RULES_VERSION,
             agents: str = "ours") -> str:
    where = " on the framework's 25 tournament levels" if rules >= 4 else ""
    setting = SETTING_TEXT[agents]
    lines = [f"Budget {budget} forward-model calls per decision, Tribes rules version "
             f"{rules}{where}{setting}; standard errors in brackets.",
             "", "| agent | vs | games (levels) | wins % | paper's wins % | score | techs % "
             "| cities | production | median rounds | ended by a capture |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in table:
        lines.append(
            f"| {r['agent']} | {r['opponent']} | {r['games']} ({r['levels']}) | "
            f"{r['wins']:.1f} ({r['wins_se']:.1f}) | {r['seed_win_rate']:.1f} | "
            f"{r['score']:.0f} ({r['score_se']:.0f}) | {r['techs']:.1f} ({r['techs_se']:.1f}) | "
            f"{r['cities']:.2f} ({r['cities_se']:.2f}) | "
            f"{r['production']:.1f} ({r['production_se']:.1f}) | "
            f"{r.get('median_rounds', float('nan')):g} | {r.get('ended_early', '')} |")
    return "\n".join(lines) + "\n"


def beside_seed(table: list[dict]) -> str:
    """Our Table I beside the play-styles paper's, measure by measure: ours (standard error) / the
    seed's (standard error); the seed's rows are 500 games on 25 levels."""
    fmt = {"wins": "{:.1f}", "score": "{:.0f}", "techs": "{:.1f}", "cities": "{:.2f}",
           "production": "{:.1f}"}
    head = ["agent", "vs", "games", "wins %", "score", "techs %", "cities", "production"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in table:
        seed = SEED_TABLE_I[(r["agent"], r["opponent"])]
        cells = []
        for m in MEASURES:
            f = fmt[m]
            ours = f"{f.format(r[m])} ({f.format(r[m + '_se'])})"
            theirs = f"{f.format(seed[m][0])} ({f.format(seed[m][1])})"
            cells.append(f"{ours} / {theirs}")
        lines.append(f"| {NAMES[r['agent']]} | {NAMES[r['opponent']]} | {r['games']} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def copied_game(source: dict, first: str) -> dict:
    """A row that is ``source``'s game with ``first`` as the first agent (``SAME_GAMES``)."""
    return {**source, "agents": [first, source["agents"][1]], "seconds": 0.0,
            "same_games_as": source["agents"][0]}


def write_tables(out: Path, rows: list[dict], budget: int, turn_limit: int,
                 rules: int = RULES_VERSION, agents: str = "ours") -> None:
    # under rules 4 the framework plays rounds 0..turn_limit
    table = summarise([r for r in rows if r["budget"] == budget],
                      turn_limit + (rules >= 4))
    (out / "table1.json").write_text(json.dumps(table, indent=1) + "\n")
    copies = sorted({(r["agents"][0], r["same_games_as"]) for r in rows
                     if "same_games_as" in r})
    note = "".join(f"\n{NAMES[a]}'s games are {NAMES[b]}'s, copied: without pruning the "
                   "framework's tree never reads the bias, so the two play alike.\n"
                   for a, b in copies)
    if any(connected_term(r) == "grew" for r in rows):
        note += ("\nThe agents' heuristic added 1 when the number of cities connected to the "
                 "capital grew (`--connected-term grew`); the framework's adds the signed "
                 "change in that number.\n")
    if any(agent_details(r) == "earlier" for r in rows):
        note += ("\nThe agents were played without the framework's fresh chance in each "
                 "copy of the state, its tie-breaks and its RHEA's plan handling "
                 "(`--agent-details earlier`).\n")
    (out / "table1.md").write_text(
        markdown(table, budget, rules, agents) + note
        + "\nOurs / the play-styles paper's (its 500 games a row on 25 levels), "
        "standard errors in brackets:\n\n" + beside_seed(table))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None,
                        help="run folder (default: experiments/results/tribes/"
                        "table1_budget<BUDGET>_rules_v<RULES_VERSION>)")
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b in PAIRINGS),
                        help="comma-separated AGENT:OPPONENT (default: the 7 rows of Table I; "
                        "also pmcts-pu-printed:mcts, pmcts-pu-printed:rhea, and the code's bias: "
                        "pmcts-b-code:mcts, pmcts-pu-code:mcts, pmcts-b-code:rhea, "
                        "pmcts-pu-code:rhea)")
    parser.add_argument("--levels", default="0-24")
    parser.add_argument("--games-per-level", type=int, default=20)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--turn-limit", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--workers", type=int, default=1,
                        help="games played at a time: 1 serial (default), 0 all cores")
    parser.add_argument("--rules", type=int, default=RULES_VERSION, choices=(3, 4),
                        help="Tribes rules version; 4 plays the framework's game on its "
                        "tournament levels (level N = java:N)")
    parser.add_argument("--agents", default="ours", choices=AGENT_SETTINGS,
                        help="'framework-mcts': MCTS without rollouts and with the "
                        "prioritised root, as the framework's tournament runs it; 'framework': "
                        "that MCTS and P-MCTS as the framework's code plays it")
    parser.add_argument("--connected-term", default="change", choices=CONNECTED_TERMS,
                        help="the heuristic's connected-cities term: 'change', the "
                        "framework's signed change; 'grew', +1 when the number grew (the "
                        "reading of every run before this option)")
    parser.add_argument("--agent-details", default="framework", choices=AGENT_DETAILS,
                        help="'framework': the framework's chance in copies, tie-breaks and "
                        "RHEA plan handling; 'earlier': without them (every run before "
                        "this option)")
    args = parser.parse_args(argv)
    try:
        pairings = [tuple(p.split(":")) for p in args.pairings.split(",") if p]
        levels = parse_levels(args.levels)
        if any(p not in PAIRINGS + EXTRA_PAIRINGS for p in pairings) or not levels:
            raise ValueError(args.pairings)
    except ValueError:
        print(f"--pairings / --levels: bad value (pairings known: "
              f"{', '.join(f'{a}:{b}' for a, b in PAIRINGS + EXTRA_PAIRINGS)})",
              file=sys.stderr)
        return 2
    out = Path(args.out) if args.out is not None else default_out(args.budget, args.rules,
                                                                    args.agents)
    path = out / "games.jsonl"
    rows = []
    if path.exists():
        text = path.read_text()
        rows = [json.loads(line) for line in text.splitlines(keepends=True)
                if line.endswith("\n")]  # a line cut by a kill is played again
        other = sorted({rules_version(r) for r in rows} - {args.rules})
        if other:
            print(f"{path}: holds games of Tribes rules version {other[0]}, not "
                  f"{args.rules}; give a fresh --out", file=sys.stderr)
            return 2
        settings = {r.get("agent_setting", "ours") for r in rows} - {args.agents}
        if settings:
            print(f"{path}: holds games of the agent setting '{settings.pop()}', not "
                  f"'{args.agents}'; give a fresh --out", file=sys.stderr)
            return 2
        terms = {connected_term(r) for r in rows} - {args.connected_term}
        if terms:
            print(f"{path}: holds games played with --connected-term {terms.pop()}, not "
                  f"{args.connected_term}; give that or a fresh --out", file=sys.stderr)
            return 2
        details = {agent_details(r) for r in rows} - {args.agent_details}
        if details:
            print(f"{path}: holds games played with --agent-details {details.pop()}, not "
                  f"{args.agent_details}; give that or a fresh --out", file=sys.stderr)
            return 2
        if text and not text.endswith("\n"):
            path.write_text(text[: text.rfind("\n") + 1] if "\n" in text else "")
    out.mkdir(parents=True, exist_ok=True)
    done = {(tuple(r["agents"]), r["level"], r["rep"], r["budget"]) for r in rows}
    schedule = [(rep, level, pairing)  # seat-balanced pairs of games, level by level
                for block in range(0, args.games_per_level, 2) for level in levels
                for pairing in pairings
                for rep in range(block, min(block + 2, args.games_per_level))]
    extra = (args.rules, args.agents, args.connected_term, args.agent_details)
    if args.rules >= 4 and any(not 0 <= level < 25 for level in levels):
        print("--levels: the framework's tournament levels are 0-24", file=sys.stderr)
        return 2
    jobs = [(first, second, level, rep, args.budget, args.turn_limit, args.seed, *extra)
            for rep, level, (first, second) in schedule
            if ((first, second), level, rep, args.budget) not in done]
    source_of = SAME_GAMES.get(args.agents, {})
    copies = [job for job in jobs if job[0] in source_of
              and (source_of[job[0]], job[1]) in pairings]
    jobs = [job for job in jobs if job not in copies]
    started = time.perf_counter()
    try:
        pool = make_map(args.workers)
    except ValueError as err:
        print(f"--workers: {err}", file=sys.stderr)
        return 2
    batch = 1 if args.workers == 1 else 4 * (args.workers or os.cpu_count() or 1)
    def write(row: dict, fh) -> None:
        fh.write(json.dumps(row) + "\n")
        fh.flush()
        rows.append(row)
        first, second = row["agents"]
        how = f"same game as {row['same_games_as']}" if "same_games_as" in row else \
            f"{row['seconds']} s"
        print(f"{first} vs {second} level {row['level']} rep {row['rep']}: winner "
              f"seat {row['log']['winner']} (agent seat {row['seat']}), {how}", flush=True)

    def write_copies(fh) -> None:
        played = {(tuple(r["agents"]), r["level"], r["rep"], r["budget"]): r for r in rows}
        for job in list(copies):
            first, second, level, rep, budget = job[:5]
            source = played.get(((source_of[first], second), level, rep, budget))
            if source is not None:
                write(copied_game(source, first), fh)
                copies.remove(job)

    with pool, path.open("a") as fh:
        write_copies(fh)
        for at in range(0, len(jobs), batch):
            if args.max_seconds is not None and \
                    time.perf_counter() - started > args.max_seconds:
                print("time limit reached; rerun the command to continue")
                return 0
            for row in pool(play_game, jobs[at:at + batch]):
                write(row, fh)
            write_copies(fh)
            write_tables(out, rows, args.budget, args.turn_limit, args.rules, args.agents)
    write_tables(out, rows, args.budget, args.turn_limit, args.rules, args.agents)
    return 0


if __name__ == "__main__":
    sys.exit(main())
