"""Tribes (Perez-Liebana et al. 2021): rules, level generator and players.

Player specs: ``random``, ``simple`` (rule-based), ``osla`` (one-step look-ahead),
``mcts`` and ``rhea`` at the play-styles paper's 2,000 forward-model calls per decision, and
Portfolio MCTS ``pmcts``, ``pmcts-b`` (progressive bias), ``pmcts-pu`` (progressive
unpruning; ``pmcts-pu-printed`` with the unpruning schedule as the paper prints it;
``pmcts-b-code`` and ``pmcts-pu-code`` with the framework code's bias h/(n + ε)),
``mcts-fw`` (MCTS as the framework's tournament configures it: no rollouts, prioritised
root), ``pmcts-fw``, ``pmcts-b-fw`` and ``pmcts-pu-fw`` (P-MCTS as the framework's code
plays it: its portfolio, ``portfolio="framework"``, its bias h/(n + ε) and its tree
search with its bugs, ``tree="framework"``), ``rhea-fw`` (RHEA line by line as the
framework's ``RHEAAgent``); the ``-fw`` players also draw fresh chance in every copy of
the state and break ties as the framework does (``framework_details=True``); and ``mcts200`` /
``rhea200`` / ``pmcts-pu200`` at 200 calls for quick runs.
"""

from functools import partial

from ..api import RandomStrategy
from ..spec import CLISpec, GameSpec, QDSpec, SynthesisSpec, register_game
from .levels import NUM_LEVELS, Level, generate_level
from .players import MCTS, RHEA, Heuristic, OneStepLookAhead, PortfolioMCTS, SimpleAgent, features
from .rules import Board, Tribes, TribesState, board_for, combat, tech_cost

PLAYERS = {
    "random": RandomStrategy,
    "simple": SimpleAgent,
    "osla": OneStepLookAhead,
    "mcts": MCTS,
    "rhea": RHEA,
    "pmcts": PortfolioMCTS,
    "pmcts-b": partial(PortfolioMCTS, bias=True),
    "pmcts-pu": partial(PortfolioMCTS, bias=True, pruning=True),
    "pmcts-pu-printed": partial(PortfolioMCTS, bias=True, pruning=True,
                                unprune_schedule="printed"),
    "pmcts-b-code": partial(PortfolioMCTS, bias=True, bias_denominator="code"),
    "pmcts-pu-code": partial(PortfolioMCTS, bias=True, pruning=True, bias_denominator="code"),
    "mcts-fw": partial(MCTS, rollouts=False, prioritise_root=True, framework_details=True),
    "pmcts-fw": partial(PortfolioMCTS, portfolio="framework", bias_denominator="code",
                        tree="framework", framework_details=True),
    "pmcts-b-fw": partial(PortfolioMCTS, bias=True, portfolio="framework",
                          bias_denominator="code", tree="framework", framework_details=True),
    "pmcts-pu-fw": partial(PortfolioMCTS, bias=True, pruning=True, portfolio="framework",
                           bias_denominator="code", tree="framework", framework_details=True),
    "rhea-fw": partial(RHEA, framework_details=True),
    "mcts200": partial(MCTS, budget=200),
    "rhea200": partial(RHEA, budget=200),
    "pmcts-pu200": partial(PortfolioMCTS, bias=True, pruning=True, budget=200),
}
"""Built-in player specs: name -> factory taking no arguments."""


def _budget_player(name: str, argument: str, **options):
    from .qd import budget_player

    return budget_player(name, argument, **options)


mcts_calls = partial(_budget_player, "mcts")
rhea_calls = partial(_budget_player, "rhea")
osla_calls = partial(_budget_player, "osla")
pmcts_calls = partial(_budget_player, "pmcts")
pmcts_b_calls = partial(_budget_player, "pmcts-b")
pmcts_pu_calls = partial(_budget_player, "pmcts-pu")
pmcts_pu_printed_calls = partial(_budget_player, "pmcts-pu-printed")
mcts_fw_calls = partial(_budget_player, "mcts-fw")
pmcts_b_code_calls = partial(_budget_player, "pmcts-b-code")
pmcts_pu_code_calls = partial(_budget_player, "pmcts-pu-code")
pmcts_fw_calls = partial(_budget_player, "pmcts-fw")
pmcts_b_fw_calls = partial(_budget_player, "pmcts-b-fw")
pmcts_pu_fw_calls = partial(_budget_player, "pmcts-pu-fw")
rhea_fw_calls = partial(_budget_player, "rhea-fw")
BUDGET_PREFIXES = {"mcts": "mcts_calls", "mcts-fw": "mcts_fw_calls", "rhea": "rhea_calls",
                   "osla": "osla_calls",
                   "pmcts": "pmcts_calls", "pmcts-b": "pmcts_b_calls", "pmcts-pu": "pmcts_pu_calls",
                   "pmcts-pu-printed": "pmcts_pu_printed_calls",
                   "pmcts-b-code": "pmcts_b_code_calls", "pmcts-pu-code": "pmcts_pu_code_calls",
                   "pmcts-fw": "pmcts_fw_calls", "pmcts-b-fw": "pmcts_b_fw_calls",
                   "pmcts-pu-fw": "pmcts_pu_fw_calls", "rhea-fw": "rhea_fw_calls"}
"""``NAME:CALLS`` player specs: a search player at CALLS forward-model calls per decision."""

register_game(GameSpec(
    name="tribes",
    summary="Tribes (Perez-Liebana et al. 2021): a two-player 4X strategy game on an 11×11 board; "
            "MCTS, RHEA and Portfolio MCTS built in (game parameters level, turn_limit)",
    factory="games.tribes.rules:Tribes",
    players="games.tribes:PLAYERS",
    synthesis=SynthesisSpec(default_target="simple"),
    qd=QDSpec(space="games.tribes.qd:SPACE"),
    cli=CLISpec(player_prefixes={name: f"games.tribes:{attr}"
                                 for name, attr in BUDGET_PREFIXES.items()},
                move_cap="turn_limit"),
))

__all__ = ["PortfolioMCTS", "MCTS", "NUM_LEVELS", "PLAYERS", "RHEA", "Board", "Heuristic", "Level",
           "OneStepLookAhead", "RandomStrategy", "SimpleAgent", "Tribes", "TribesState",
           "board_for", "combat", "features", "generate_level", "tech_cost"]
