"""``stratsynth regret``: cumulative-regret curves of learners (Hocquette and Muggleton, Fig. 3 /
Fig. 5).

Runs are independent (run r uses seed + r) and go through the pluggable map.
Writes ``regret.png`` (mean cumulative regret ± std over runs), ``regret.md``
(the table, the command, and the rules the rule learner ended with in run 0) and
``curves.json`` (every finished learner's curves: a killed run goes on from it).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from experiments.config import REGRET_LEARNERS, RegretConfig, open_game
from experiments.loader import read_json, to_dict
from experiments.lock import check_not_a_run, hold
from games import load_game
from games.backends import make_map
from games.files import check_same_setting, write_atomically
from games.solver import MinimaxSolver

from .harness import regret_run
from .learners import BeadBoxes, QLearner
from .metarules import METARULES, MIGO_METARULES
from .mil import MILLearner
from .rule_learner import RuleLearner

LEARNERS = REGRET_LEARNERS
TRANSFER = {"rule+transfer": "rule", "mil+transfer": "mil",
            "mil-pos+transfer": "mil-pos"}  # learner -> its teacher


def make_mil(kind: str, game, seed: int, transfer=None) -> MILLearner:
    """mil: our metarule library, minimax-backed negatives; mil-norec: the same without
    the recursive negation; mil-migo: the MIGO paper's two metarules with the same negatives;
    mil-pos: the MIGO paper's metarules, positives only; ``+transfer``: the same learner
    started from a transferred program."""
    if kind in ("mil", "mil+transfer"):
        return MILLearner(game, seed, transfer=transfer)
    if kind == "mil-norec":
        return MILLearner(game, seed, metarules=tuple(m for m in METARULES if m != "negation_rec"))
    if kind == "mil-migo":
        return MILLearner(game, seed, metarules=MIGO_METARULES)
    if kind in ("mil-pos", "mil-pos+transfer"):
        return MILLearner(game, seed, metarules=MIGO_METARULES, negatives="none",
                          transfer=transfer)
    raise ValueError(f"unknown MIL learner '{kind}'")


def make_learner(kind: str, game_name: str, params: dict, seed: int, transfer: dict | None,
                 draw_after: int):
    game = load_game(game_name, **params)
    if kind == "rule":
        return RuleLearner(game, seed, draw_after=draw_after)
    if kind == "rule-gp":
        return RuleLearner(game, seed, draw_after=draw_after, search="gp")
    if kind == "rule+transfer":
        return RuleLearner(game, seed, draw_after=draw_after, transfer=transfer or {})
    if kind.startswith("mil"):
        return make_mil(kind, game, seed, transfer)
    if kind == "menace":
        return BeadBoxes(game, seed, menace=True)
    if kind == "her":
        return BeadBoxes(game, seed, menace=False)
    if kind == "q":
        return QLearner(game, seed)
    if kind == "dqn":
        from .dqn import DQNLearner

        return DQNLearner(game, seed)
    raise ValueError(f"unknown learner '{kind}' (known: {', '.join(LEARNERS)})")


def _one_run(job):
    kind, game_name, params, games, seed, source, draw_after = job
    transfer = None
    if kind in TRANSFER:
        src_name, src_params, src_games = source
        src_game = load_game(src_name, **src_params)
        if kind.startswith("mil"):
            teacher = make_mil(TRANSFER[kind], src_game, seed)
        else:
            teacher = RuleLearner(src_game, seed, draw_after=draw_after)
        regret_run(src_game, lambda s: teacher, src_games, seed)
        transfer = teacher.rules_text()
        if kind.startswith("mil"):
            transfer = "\n".join(transfer.values())
    game = load_game(game_name, **params)
    holder = {}

    def factory(s):
        holder["learner"] = make_learner(kind, game_name, params, s, transfer, draw_after)
        return holder["learner"]

    regret = regret_run(game, factory, games, seed, MinimaxSolver(game))
    learner = holder["learner"]
    rules = learner.rules_text() if hasattr(learner, "rules_text") else None
    return np.cumsum(regret), rules, transfer


def run_regret(game_name: str, params: dict, learners: list[str], runs: int, games: int,
               seed: int, workers: int, source: tuple | None, draw_after: int,
               done: dict | None = None, after_learner=None):
    """Every learner's curves (runs x games), its run-0 rules and what it was taught;
    learners in ``done`` are kept, ``after_learner(results)`` runs after each other one."""
    results = dict(done or {})
    with make_map(workers) as backend:
        for kind in learners:
            if kind in results:
                continue
            if kind not in LEARNERS:
                raise ValueError(f"unknown learner '{kind}' (known: {', '.join(LEARNERS)})")
            if kind in TRANSFER and source is None:
                raise ValueError(f"{kind} needs --transfer-from GAME")
            jobs = [(kind, game_name, params, games, seed + r, source, draw_after)
                    for r in range(runs)]
            outs = backend(_one_run, jobs)
            results[kind] = (np.array([o[0] for o in outs]), outs[0][1], outs[0][2])
            if after_learner is not None:
                after_learner(results)
    return {kind: results[kind] for kind in learners}


def _rule_line(label: str, text: str) -> str:
    """MIL rules print as clauses; the DSL rules as ``label: rule``."""
    return text if ":-" in text else f"{label}: {text}"


def transfer_tests(results: dict) -> list[str]:
    """Welch's t-test on the final cumulative regret of each ``X+transfer`` against ``X``
    (the MIGO paper's transfer question: does the transferred program lower the regret?)."""
    from scipy.stats import ttest_ind

    lines = []
    for kind, (curves, _, _) in results.items():
        base = kind.removesuffix("+transfer")
        if base == kind or base not in results:
            continue
        p = ttest_ind(curves[:, -1], results[base][0][:, -1], equal_var=False).pvalue
        lines.append(f"- `{kind}` against `{base}`, final cumulative regret: Welch's "
                     f"t-test two-sided p = {p:.2g}")
    return ["", *lines] if lines else []


def write_report(out: Path, title: str, command: str, results: dict) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    lines = [f"# {title}", "", f"`{command}`", "",
             "| learner | runs | cumulative regret at the end (mean ± std) | "
             "mean regret per game, last 20% |", "|---|---|---|---|"]
    for kind, (curves, _, _) in results.items():
        mean, std = curves.mean(axis=0), curves.std(axis=0)
        x = np.arange(1, curves.shape[1] + 1)
        ax.plot(x, mean, label=kind)
        ax.fill_between(x, mean - std, mean + std, alpha=0.2)
        tail = max(1, curves.shape[1] // 5)
        per_game = (curves[:, -1] - curves[:, -tail - 1]) / tail if curves.shape[1] > tail \
            else curves[:, -1] / curves.shape[1]
        lines.append(f"| {kind} | {curves.shape[0]} | {mean[-1]:.2f} ± {std[-1]:.2f} | "
                     f"{per_game.mean():.3f} |")
    ax.set_xlabel("games")
    ax.set_ylabel("cumulative minimax regret")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "regret.png", dpi=120)
    plt.close(fig)
    lines += transfer_tests(results)
    lines += ["", "![cumulative regret](regret.png)"]
    for kind, (_, rules, transfer) in results.items():
        if transfer:
            lines += ["", f"Rules transferred into `{kind}` (run 0):", "", "```"]
            lines += [transfer] if isinstance(transfer, str) else [
                f"{label}: {text}" for label, text in transfer.items()]
            lines += ["```"]
        if rules:
            lines += ["", f"Rules learned by `{kind}` (run 0):", "", "```"]
            lines += [_rule_line(label, text) for label, text in rules.items()] + ["```"]
    text = "\n".join(lines) + "\n"
    (out / "regret.md").write_text(text)
    return text


class RegretRun:
    """Cumulative-regret curves of some learners on one game; checked (game, learners,
    transfer source) before any game is played. ``run()`` returns the curves per
    learner and writes ``OUT/regret.md`` and ``regret.png``; it never prints."""

    def __init__(self, config: RegretConfig, where: str = "command line") -> None:
        c = self.config = config
        try:
            games = [(c.game, open_game(c.game, c.game_params))]
            if c.transfer_from:
                games.append((c.transfer_from,
                              open_game(c.transfer_from, c.transfer_params)))
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        for name, game in games:
            if not (hasattr(game, "rules") and hasattr(game, "canonical")):
                raise ValueError(f"{where}: regret needs a board game the minimax solver "
                                 f"solves (e.g. tictactoe, hexapawn), not {name}")
        check_not_a_run(c.out)
        self.source = None
        if c.transfer_from:
            self.source = (c.transfer_from, c.transfer_params or {}, c.transfer_games)

    def _kept(self) -> dict:
        """Learners a killed run of the same setting finished (``OUT/curves.json``)."""
        path = Path(self.config.out) / "curves.json"
        if not path.is_file():
            return {}
        kept = read_json(path)
        if not isinstance(kept, dict) or not isinstance(kept.get("learners"), dict):
            raise ValueError(f"{path}: not the curves of a regret run")
        check_same_setting(path, kept.get("setting") or {}, self.setting())
        return {kind: (np.array(entry["curves"]), entry["rules"], entry["transfer"])
                for kind, entry in kept["learners"].items()}

    def setting(self) -> dict:
        """What a continued run must share with the run it continues."""
        values = to_dict(self.config)
        return {k: v for k, v in values.items() if k not in ("workers", "out", "learners")}

    def _save(self, results: dict) -> None:
        learners = {kind: {"curves": curves.tolist(), "rules": rules, "transfer": transfer}
                    for kind, (curves, rules, transfer) in results.items()}
        write_atomically(Path(self.config.out) / "curves.json",
                         json.dumps({"setting": self.setting(), "learners": learners}) + "\n")

    def run(self, command: str = "") -> dict:
        """The curves per learner; a run killed part-way goes on from the learners it
        finished (same settings; more learners may be asked for)."""
        c = self.config
        params = c.game_params or {}
        self._kept()  # another setting's curves fail before the lock
        with hold(Path(c.out)):
            results = run_regret(c.game, params, c.learner_names(), c.runs, c.games, c.seed,
                                 c.workers, self.source, c.draw_after, done=self._kept(),
                                 after_learner=self._save)
            title = f"Minimax regret: {c.game} {params or ''}".strip()
            self.report = write_report(Path(c.out), title, command, results)
        return results


def cmd_regret(args) -> int:
    from experiments.options import config_from, parse_game_params

    config = config_from(RegretConfig, args, transfer_params=parse_game_params(
        args.transfer_param, "--transfer-param") or None)
    run = RegretRun(config)
    run.run("stratsynth regret " + " ".join(args.argv))
    print(run.report)
    return 0


def add_parsers(sub) -> None:
    from experiments.options import add_config

    r = sub.add_parser("regret", help="cumulative minimax regret of learners")
    r.add_argument("game", help="a game a minimax solver can solve (tictactoe, hexapawn)")
    r.add_argument("--game-param", dest="game_param", action="append", default=None,
                   metavar="KEY=VALUE")
    r.add_argument("--transfer-param", dest="transfer_param", action="append", default=None,
                   metavar="KEY=VALUE", help="a parameter of the --transfer-from game")
    add_config(r, RegretConfig)
    r.set_defaults(handler=cmd_regret)
