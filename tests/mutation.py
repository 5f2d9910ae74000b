"""Mutation testing of the core modules with cosmic-ray (``make mutation``).

Each module is mutated in a copy of the working tree (never in place), one mutant at a
time, and each mutant is judged by the module's *own* tests (``TARGETS``), so a mutant
that only a distant equivalence or replay test notices counts as surviving. Results go
to ``runs/mutation/<module>.json`` (every mutant's outcome and the survivors' diffs)
and one line per module is printed: killed / non-equivalent mutants.

    python -m tests.mutation                      # every module in TARGETS
    python -m tests.mutation gp/sa.py gp/uct.py   # some
    python -m tests.mutation --scores             # score the saved results again
    python -m tests.mutation --survivors gp/sa.py # only the survivors, with new tests

Survivors known to be equivalent (no behaviour differs) are listed, with the reason,
in ``EQUIVALENT`` below and in ``docs/testing.md``; they do not count against the
score. The run is CPU-heavy (a pytest process per mutant): hours for every module.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "runs" / "mutation"

TARGETS: dict[str, list[str]] = {
    # game rules and players
    "games/cantstop/players.py": ["tests/test_cantstop_players.py"],
    "games/cantstop/rules.py": ["tests/test_cantstop_rules.py"],
    "games/match.py": ["tests/test_match.py"],
    "games/tribes/rules.py": ["tests/test_tribes.py", "tests/test_tribes_rules_v4.py",
                              "tests/test_tribes_framework_rules.py"],
    # the report's statistics
    "experiments/report.py": ["tests/test_report_statistics.py"],
    # the searches
    "gp/sa.py": ["tests/test_sa.py", "tests/test_sa_restarts.py",
                 "tests/test_search_behaviour.py::test_sa_acceptance_is_what_climbs",
                 "tests/test_search_behaviour.py::"
                 "test_every_method_beats_random_search_at_the_same_budget[sa]"],
    "gp/uct.py": ["tests/test_uct.py",
                  "tests/test_search_behaviour.py::"
                  "test_uct_selects_by_mean_plus_exploration_and_tries_unvisited_children_first",
                  "tests/test_search_behaviour.py::"
                  "test_uct_backs_up_every_simulation_and_visits_the_promising_branch_most",
                  "tests/test_synthesis.py::"
                  "test_uct_expands_the_leftmost_hole_and_starts_from_an_inserted_branch",
                  "tests/test_search_behaviour.py::"
                  "test_every_method_beats_random_search_at_the_same_budget[uct]",
                  "tests/test_search_behaviour.py::"
                  "test_every_method_beats_random_search_at_the_same_budget[sketch-uct]"],
    "gp/evolution.py": ["tests/test_search_behaviour.py::test_gp_selection_pressure_is_what_climbs",
                        "tests/test_search_behaviour.py::"
                        "test_each_gp_method_runs_its_deap_algorithm_one_generation_at_a_time",
                        "tests/test_search_behaviour.py::test_gp_starts_from_the_initial_program",
                        "tests/test_search_behaviour.py::"
                        "test_gp_offspring_stay_within_the_languages_limits",
                        "tests/test_search_behaviour.py::"
                        "test_the_library_gp_defaults_are_the_gp_methods_and_it_runs_quietly",
                        "tests/test_search_behaviour.py::"
                        "test_a_fitness_that_draws_from_random_does_not_shift_gps_stream",
                        "tests/test_search_behaviour.py::"
                        "test_every_method_beats_random_search_at_the_same_budget[gp]",
                        "tests/test_search_behaviour.py::"
                        "test_every_method_beats_random_search_at_the_same_budget[gp-simple]"],
    "gp/variation.py": ["tests/test_variation.py"],
    "gp/dsl.py": ["tests/test_dsl.py", "tests/test_dsl_declaration.py",
                  "tests/test_search_behaviour.py"],
    "gp/syntax.py": ["tests/test_syntax.py", "tests/test_dsl_declaration.py",
                     "tests/test_cantstop_dsl.py::test_malformed_programs_say_where"],
    "gp/evaluator.py": ["tests/test_evaluator.py", "tests/test_evaluator_names.py",
                        "tests/test_sa.py"],
    "gp/fitness.py": ["tests/test_fitness.py",
                      "tests/test_paired.py::test_a_copy_of_the_target_scores_one_half_paired_only",
                      "tests/test_paired.py::test_margin_breaks_ties_below_the_step",
                      "tests/test_paired.py::test_odd_match_counts_are_refused",
                      "tests/test_psi_one_start.py",
                      "tests/test_sa.py::test_fitness_cache_and_seed_from_program",
                      "tests/test_sa_remeasure.py::"
                      "test_each_re_measurement_plays_matches_not_played_before"],
    # quality diversity and self-play
    "qd/archive.py": ["tests/test_qd_cells.py",
                      "tests/test_qd.py::test_archive_round_trip_keeps_programs",
                      "tests/test_qd.py::test_bad_archive_files_are_named"],
    "qd/map_elites.py": ["tests/test_qd_emitter.py", "tests/test_map_elites_run.py",
                         "tests/test_qd_cells.py", "tests/test_qd.py"],
    "qd/naive_sampling.py": ["tests/test_naive_sampling.py", "tests/test_hss.py",
                             "tests/test_hss_parts.py"],
    "qd/hss.py": ["tests/test_hss.py", "tests/test_hss_parts.py"],
    "qd/selfplay.py": ["tests/test_selfplay_parts.py", "tests/test_hss.py",
                       "tests/test_search_behaviour.py::"
                       "test_ibr_answers_the_latest_program_and_cycles_on_rock_paper_scissors",
                       "tests/test_search_behaviour.py::test_fictitious_play_answers_everything_"
                       "so_far_and_its_mixture_nears_the_equilibrium",
                       "tests/test_psi_one_start.py"],
}
"""Module -> the test files that are its own."""

KEPT_REPLACEMENTS = {
    "Add": ("Sub", "Mul"), "Sub": ("Add",), "Mul": ("Div", "Add"), "Div": ("Mul", "FloorDiv"),
    "FloorDiv": ("Div", "Mul"), "Mod": ("FloorDiv",), "BitAnd": ("BitOr",),
    "BitOr": ("BitAnd",), "RShift": ("LShift",), "LShift": ("RShift",),
    "Lt": ("LtE", "GtE"), "LtE": ("Lt", "Gt"), "Gt": ("GtE", "LtE"), "GtE": ("Gt", "Lt"),
    "Eq": ("NotEq",), "NotEq": ("Eq",), "USub": ("UAdd",), "UAdd": ("USub",),
    "Delete": ("Not", "USub"),  # a `not` or a minus sign removed
}
"""Operator replacements mutated: each comparison to its boundary neighbour and its
negation, each arithmetic operator to its inverse (and a near miss). Replacing every
operator by every other (cosmic-ray's default) adds mutants that crash or give absurd
values, which any test catches: they inflate the score and multiply the run time."""

DROPPED_OPERATORS = ("core/RemoveDecorator", "core/VariableInserter", "core/VariableReplacer")
"""Operator classes left out: removing ``@dataclass`` or swapping variables breaks
every test at import or first call."""


def excluded_operators() -> list[str]:
    """Regular expressions of the cosmic-ray operators not run (see ``KEPT_REPLACEMENTS``)."""
    from cosmic_ray.plugins import operator_names

    excluded = list(DROPPED_OPERATORS)
    for name in operator_names():
        kind, _, pair = name.partition("_")
        if kind not in ("core/ReplaceBinaryOperator", "core/ReplaceComparisonOperator",
                        "core/ReplaceUnaryOperator"):
            continue
        source, _, target = pair.partition("_")
        if target not in KEPT_REPLACEMENTS.get(source, ()):
            excluded.append(name)
    return [f"^{name}$" for name in excluded]


_HINT = "a type hint: never evaluated (from __future__ import annotations)"
_SHORTCUT = ("a program of one node has no cut point below its root, so no common type: "
             "without the early return nothing is swapped and nothing drawn either")
_GRID_CELLS = ("the default number of cells is read only for a file without 'cells', "
               "which a grid archive (cells None) is; a grid ignores it")
_PICTURE = "the picture's size or resolution"
_UNREACHABLE = ("the CVT heatmap is never drawn: a heatmap needs two features, and two "
                "features make a grid archive")
_BATCHED = ("DEAP's per-program evaluate is never called: the toolbox's map scores the "
            "whole population in one batch")
_CORNER = ("the corners are the least and greatest sum of normalised measures; another "
           "offset shifts every sum by the same amount and picks the same elites")
_PADDING = "the two entries before column 2 are never read: columns run 2..12"
_LAST_PLAYER = ("a restored snapshot's last_player is read only to name the seat whose "
                "neutrals are drawn, which happens only while a seat is to act (then the "
                "seat to act is named)")
_HOLE_ARITY = ("a hole's arity is never read: a partial program becomes a prefix list "
               "only once its holes are filled")
_ONE_ELEMENT = "the first and the last of a one-element list are the same element"
_EPSILON_DRAW = ("random() <= ε and random() < ε differ only when the draw equals ε "
                 "exactly: the same exploring probability")
_DOUBLE = "a double's two columns are the same: action[1] and action[-1] are action[0]"
_CARRY_LESS = ("carrying a parent's legal actions over is a shortcut: carrying fewer makes "
               "the next state work them out afresh, the same list")
EQUIVALENT: dict[str, dict[str, str]] = {
    "games/tribes/rules.py": {
        "2633:core/ReplaceBinaryOperator_BitOr_BitAnd:23": _HINT,
        "809:core/NumberReplacer:383": "a dead unit's tribe is -1: a unit of tribe p is "
        "alive, whatever its type is compared with",
        "2414:core/NumberReplacer:1229": "a reach left marked as kept once the tribe holds "
        "no city but its capital is never acted on: a road then changes no network, and "
        "the tribe's next city comes by a capture, which recomputes the reach in full (an "
        "enemy city) or drops every kept reach (a village's new tiles)",
        "1297:core/ReplaceOrWithAnd:25": _CARRY_LESS,
        "1322:core/AddNot:150": _CARRY_LESS + " (with no parent segments the only action "
        "is a level-up, which carries nothing either way)",
        "1363:core/ReplaceContinueWithBreak:6": _CARRY_LESS,
        "2355:core/ReplaceBinaryOperator_LShift_RShift:24": "a tribe whose trade-network "
        "reach is never marked as kept has it recomputed in full: the same network",
        "1571:core/ReplaceComparisonOperator_Gt_GtE:7": "sign is +1 or -1, never 0",
        "1930:core/NumberReplacer:961": "the two tribes' allegiance entries are always equal "
        "(every update writes both), so d[1] and d[2] read the same",
        "1702:core/ReplaceComparisonOperator_Lt_LtE:36": "expanding a tile again with the "
        "same movement left reaches nothing new",
        "1811:core/ReplaceComparisonOperator_Lt_LtE:41": "lowering a cost to the value it "
        "has changes nothing",
        "2324:core/NumberReplacer:1191": "an unowned tile taken as the tribe's own matters "
        "only for a port (the reach is then recomputed in full: the same) or a city tile "
        "(never unowned); a road on it is followed either way",
        "1116:core/NumberReplacer:530": "the technologies take fewer than 32 bits: a shift "
        "by 33 keeps the cache key unique",
        "580:core/NumberReplacer:278": "econ only versions the tile caches, which start "
        "empty: any starting count works",
        "425:core/NumberReplacer:168": "with no candidate tile actions nothing is "
        "affordable, whatever the dearest cost is taken to be",
        "425:core/NumberReplacer:169": "with no candidate tile actions nothing is "
        "affordable, whatever the dearest cost is taken to be",
        "332:core/NumberReplacer:84": "only a needed neighbour building >= 0 is read: -1 "
        "and -2 both mean none",
        "367:core/ReplaceUnaryOperator_Delete_Not:3": "deep water never holds a port, so "
        "'barred' and 'only onto a port' bar it alike",
        "1226:core/NumberReplacer:595": "the one-step shortcut gives what the general search "
        "gives a one-move land unit off roads (each step costs its whole movement): the "
        "same tiles in tile order and radius 1",
    },
    "games/match.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((103, 1), (219, 4), (220, 5), (241, 10))},
        "234:core/NumberReplacer:91": _ONE_ELEMENT,
        "308:core/NumberReplacer:125": "a chunk takes at least ceil(left / (2 * workers)) "
        "matches, which is 1 or more while any are left: a smallest chunk of 0 or 1 is "
        "the same",
    },
    "games/cantstop/rules.py": {
        **{f"34:core/NumberReplacer:{i}": _PADDING for i in (4, 5, 6, 7)},
        **{f"356:core/NumberReplacer:{i}": _PADDING
           for i in (202, 203, 204, 205, 208, 209, 210, 211)},
        "68:core/NumberReplacer:52": "an OUTER entry for column 13, which no roll makes: "
        "never read",
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((105, 0), (142, 1), (351, 2), (523, 3), (527, 4))},
        "62:core/ReplaceComparisonOperator_LtE_Lt:0": "a pairing of two equal sums is the "
        "same pair either way round",
        "331:core/NumberReplacer:188": _DOUBLE,
        "331:core/NumberReplacer:189": _DOUBLE,
        "384:core/NumberReplacer:238": _LAST_PLAYER,
        "384:core/NumberReplacer:239": _LAST_PLAYER,
        "358:core/NumberReplacer:222": _PADDING,
        "358:core/NumberReplacer:224": _PADDING,
        "464:core/NumberReplacer:283": "the board text names the acting seat only while a "
        "seat is to act; a finished game's -1 is never shown",
    },
    "games/cantstop/players.py": {
        "109:core/NumberReplacer:147": "len(legal) == 0 instead of == 1 only drops a "
        "shortcut: with one action the loop over legal[1:] is empty and the same action "
        "is returned",
        "112:core/NumberReplacer:149": "legal[0:] re-scores the first action; the strict > "
        "keeps it, so the choice is the same",
        "83:core/NumberReplacer:126": _PADDING,
        "83:core/NumberReplacer:127": _PADDING,
        "83:core/NumberReplacer:128": _PADDING,
        "83:core/NumberReplacer:129": _PADDING,
    },
    "gp/uct.py": {
        "29:core/ReplaceTrueWithFalse:0": "holes are compared, never hashed or changed: "
        "frozen or not, they behave alike",
        "35:core/NumberReplacer:0": _HOLE_ARITY,
        "35:core/NumberReplacer:1": _HOLE_ARITY,
        "53:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "53:core/ReplaceBinaryOperator_BitOr_BitAnd:1": _HINT,
        "141:core/NumberReplacer:29": "the hole to regrow is still drawn with probability "
        "proportional to its fill's size: the same uniform draw, counted from the last "
        "hole first (another but equally distributed choice for a given seed)",
    },
    "gp/evaluator.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT for i, line in
           enumerate((105, 105, 120, 132, 136, 211, 212, 213, 214, 237, 269, 286, 293, 298,
                      353, 353, 420, 434, 445, 448))},
        "167:core/ReplaceAndWithOr:3": "a text that is empty or ends in a newline is cut "
        "to itself: the same rows, the same file",
        "296:core/NumberReplacer:23": _ONE_ELEMENT,
        "446:core/NumberReplacer:37": _ONE_ELEMENT,
    },
    "qd/naive_sampling.py": {
        "84:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "107:core/ReplaceBinaryOperator_BitOr_BitAnd:2": _HINT,
        "128:core/ReplaceComparisonOperator_Lt_LtE:5": _EPSILON_DRAW,
        "140:core/ReplaceComparisonOperator_Lt_LtE:6": _EPSILON_DRAW,
    },
    "experiments/report.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((151, 0), (207, 4), (236, 5))},
        "211:core/NumberReplacer:43": "a shortcut for seeds of equal rates: the bootstrap "
        "of equal values gives the same interval, the mean at both ends",
        **{f"250:core/NumberReplacer:{i}": "the adjusted p-values' initial entries: the "
           "loop over every p-value assigns each one" for i in (52, 53)},
        **{f"324:core/NumberReplacer:{i}": "the picture's time grid: its curves drawn at "
           "199, 200 or 201 times" for i in (72, 73)},
        "250:core/NumberReplacer:55": "Holm's running maximum starts below every adjusted "
        "p-value (each is at least 0), from 0 or from -1",
        "369:core/NumberReplacer:110": _PICTURE,
        "303:core/NumberReplacer:68": "the default backend (0: a pool on every core) or 1 "
        "(serial) plays the same matches from the same seeds: the same wins",
        "325:core/NumberReplacer:75": _PICTURE,
        "325:core/NumberReplacer:76": _PICTURE,
        "359:core/NumberReplacer:100": "the width of the threshold's line in the picture",
        "337:core/NumberReplacer:91": "the width of each seed's thin curve in the picture",
    },
    "qd/selfplay.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((76, 0), (77, 1), (79, 3), (176, 4), (200, 6), (211, 7), (229, 10),
                           (236, 12), (249, 13), (288, 18))},
        "124:core/NumberReplacer:12": "sequence.json's indentation: it loads the same",
    },
    "qd/hss.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((61, 0), (79, 1), (79, 2), (87, 4), (211, 6), (214, 10))},
    },
    "qd/map_elites.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((66, 0), (66, 1), (68, 2), (69, 3))},
        "56:core/ReplaceComparisonOperator_Lt_LtE:0": "random() <= rate and random() < rate "
        "differ only when the draw equals the crossover rate exactly: the same crossover "
        "probability",
        "118:core/ReplaceTrueWithFalse:3": "a policy's re-evaluation raises BudgetSpent only "
        "once the budget is spent; not cut there, the next pass asks a batch and stops "
        "before evaluating any of it (nothing is left): the same log, stats and archive",
    },
    "gp/sa.py": {
        "101:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "101:core/ReplaceBinaryOperator_BitOr_BitAnd:1": _HINT,
        "102:core/ReplaceBinaryOperator_BitOr_BitAnd:2": _HINT,
        "115:core/ReplaceBinaryOperator_BitOr_BitAnd:4": _HINT,
        "104:core/ReplaceBinaryOperator_BitOr_BitAnd:3": _HINT,
        "117:core/ReplaceBinaryOperator_BitOr_BitAnd:5": _HINT,
        "144:core/ReplaceComparisonOperator_Lt_LtE:0": "random() < p and random() <= p "
        "differ only when the draw equals exp(delta) exactly: the same acceptance "
        "probability",
    },
    "qd/archive.py": {
        "22:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "60:core/ReplaceBinaryOperator_BitOr_BitAnd:1": _HINT,
        "67:core/ReplaceBinaryOperator_BitOr_BitAnd:2": _HINT,
        "96:core/ReplaceBinaryOperator_BitOr_BitAnd:3": _HINT,
        "64:core/NumberReplacer:14": "the JSON file's indentation: it loads the same",
        "90:core/ReplaceBinaryOperator_Sub_Add:1": _CORNER,
        "76:core/NumberReplacer:16": _GRID_CELLS,
        "76:core/NumberReplacer:17": _GRID_CELLS,
        "86:core/NumberReplacer:20": _CORNER,
        "86:core/NumberReplacer:21": _CORNER,
        "64:core/NumberReplacer:15": "the JSON file's indentation: it loads the same",
        "105:core/NumberReplacer:28": _PICTURE,
        "105:core/NumberReplacer:29": _PICTURE,
        "105:core/NumberReplacer:30": _PICTURE,
        "105:core/NumberReplacer:31": _PICTURE,
        "116:core/NumberReplacer:44": _PICTURE,
        "116:core/NumberReplacer:45": _PICTURE,
        "110:core/NumberReplacer:36": _UNREACHABLE,
        "110:core/NumberReplacer:37": _UNREACHABLE,
        "110:core/NumberReplacer:38": _UNREACHABLE,
        "110:core/NumberReplacer:39": _UNREACHABLE,
    },
    "gp/evolution.py": {
        "26:core/NumberReplacer:0": "a positive weight scales every fitness alike: "
        "selection and the hall of fame compare the same way",
        "100:core/NumberReplacer:18": "a hall of fame of 2 still holds the best program "
        "first, the only one read",
        "43:core/NumberReplacer:14": _BATCHED,
        "43:core/NumberReplacer:15": _BATCHED,
    },
    "gp/dsl.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((108, 1), (109, 2), (130, 3), (140, 4))},
        "79:core/ReplaceBinaryOperator_BitOr_BitAnd:0": "DEAP's typed primitive set "
        "enters every type it sees (a return or an operand type) in both its primitive "
        "and its terminal tables, so the two key sets are the same",
        "173:core/NumberReplacer:17": _ONE_ELEMENT,
    },
    "gp/fitness.py": {
        "72:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "72:core/ReplaceBinaryOperator_BitOr_BitAnd:1": _HINT,
        "75:core/ReplaceBinaryOperator_BitOr_BitAnd:2": _HINT,
        "103:core/ReplaceBinaryOperator_BitOr_BitAnd:3": _HINT,
        "126:core/NumberReplacer:25": _ONE_ELEMENT,
        "208:core/NumberReplacer:46": "every part of a pool's batch comes from one "
        "play_many call, which gives each the batch's time: the max over any non-empty "
        "run of them is the same",
        "257:core/NumberReplacer:65": _ONE_ELEMENT,
        "281:core/NumberReplacer:71": _ONE_ELEMENT,
    },
    "gp/syntax.py": {
        **{f"{line}:core/ReplaceBinaryOperator_BitOr_BitAnd:{i}": _HINT
           for line, i in ((108, 0), (211, 1), (232, 2), (267, 3), (327, 4))},
        "161:core/NumberReplacer:19": "a language has at most one 'lines' form (a second "
        "is refused at declaration): the first is the last",
        "259:core/NumberReplacer:47": "an argmax_map prints one operand: the first is the "
        "last",
        **{f"{line}:core/NumberReplacer:{i}": "a callv or index node has one child (the "
           "parser's index holds one expression; callv checks one): the first is the last"
           for line, i in ((278, 59), (278, 61), (282, 63), (282, 65))},
        **{f"{line}:core/NumberReplacer:{i}": "a lambda node has one child, its body: the "
           "first is the last" for line, i in ((288, 69), (297, 77))},
        "292:core/NumberReplacer:73": "argmax's operands are checked to be one: the first "
        "is the last",
        "307:core/NumberReplacer:78": "the text before the first '#' is the same however "
        "many times the rest is split",
        **{f"73:core/NumberReplacer:{i}": "a node's position is read only for a line of a "
           "multi-line program, which always sets it (to its line number)" for i in (10, 11)},
    },
    "gp/variation.py": {
        "19:core/ReplaceBinaryOperator_BitOr_BitAnd:0": _HINT,
        "26:core/NumberReplacer:1": _SHORTCUT,
        "26:core/NumberReplacer:3": _SHORTCUT,
        "26:core/ReplaceOrWithAnd:1": _SHORTCUT,
    },
}
"""Module -> "line:operator:occurrence" -> why the mutant behaves as the original."""

TIMEOUT_FACTOR = 5.0
"""A mutant's tests may take this many times the unmutated tests' time (at least
``MIN_TIMEOUT`` seconds) before it counts as killed by a hang: room for a loaded
machine, while a mutant that loops forever is still cut off."""

MIN_TIMEOUT = 60.0


def _copy_tree(destination: Path) -> None:
    """The working tree without its caches, and without the top-level ``runs`` and
    ``data`` (results, downloads); a package's own data (``experiments/data``) is kept."""
    caches = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache",
                                    ".ruff_cache", "*.egg-info", "build")

    def ignore(directory: str, names: list[str]) -> set[str]:
        ignored = caches(directory, names)
        if Path(directory) == ROOT:
            ignored |= {"runs", "data"} & set(names)
        return ignored

    shutil.copytree(ROOT, destination, ignore=ignore, dirs_exist_ok=True)


def _test_command(tests: list[str]) -> list[str]:
    """The module's own tests, stopping at the first failure; no cache written."""
    return [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
            "-m", "not slow", *tests]


def _baseline(work: Path, tests: list[str]) -> float:
    """The timeout for each mutant: the unmutated tests must pass, and their time scaled."""
    started = time.monotonic()
    run = subprocess.run(_test_command(tests), cwd=work, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"mutation: the unmutated tests fail ({' '.join(tests)}):\n"
                         f"{run.stdout[-2000:]}")
    return round(max(MIN_TIMEOUT, TIMEOUT_FACTOR * (time.monotonic() - started)))


def _config(module: str, tests: list[str], timeout: float) -> str:
    command = shlex.join(_test_command(tests))
    excluded = ", ".join(json.dumps(pattern) for pattern in excluded_operators())
    return (f'[cosmic-ray]\nmodule-path = "{module}"\ntimeout = {timeout}\n'
            f'excluded-modules = []\ntest-command = {json.dumps(command)}\n\n'
            f'[cosmic-ray.distributor]\nname = "local"\n\n'
            f'[cosmic-ray.filters.operators-filter]\nexclude-operators = [{excluded}]\n')


def _cosmic(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL)


def mutate(module: str, sample: int | None = None) -> dict:
    """Run every mutant of ``module`` against its own tests; the outcome of each.

    Args:
        module: the module's path, a key of ``TARGETS``.
        sample: run only this many mutants, drawn at random (seeded by the module's
            name), for a module whose tests are too slow for all of its mutants; the
            others are recorded as ``not sampled`` and the score is the sample's.
    """
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    tests = TARGETS[module]
    with tempfile.TemporaryDirectory(prefix="stratsynth-mutation-") as tmp:
        work = Path(tmp)
        _copy_tree(work)
        timeout = _baseline(work, tests)
        (work / "cosmic-ray.toml").write_text(_config(module, tests, timeout))
        session = "session.sqlite"
        _cosmic("init", "cosmic-ray.toml", session, cwd=work)
        subprocess.run([sys.executable, "-m", "cosmic_ray.tools.filters.operators_filter",
                        session, "cosmic-ray.toml"], cwd=work, check=True)
        unsampled: set[str] = set()
        with use_db(str(work / session), WorkDB.Mode.open) as db:
            pending = sorted(item.job_id for item in db.pending_work_items)
            if sample is not None and sample < len(pending):
                kept = set(random.Random(module).sample(pending, sample))
                unsampled = set(pending) - kept
                db.set_multiple_results(sorted(unsampled), WorkResult(
                    output="not sampled", worker_outcome=WorkerOutcome.SKIPPED))
        started = time.monotonic()
        _cosmic("exec", "cosmic-ray.toml", session, cwd=work)
        seconds = time.monotonic() - started
        mutants = []
        with use_db(str(work / session), WorkDB.Mode.open) as db:
            for item, result in db.completed_work_items:
                spec = item.mutations[0]
                key = f"{spec.start_pos[0]}:{spec.operator_name}:{spec.occurrence}"
                outcome = result.test_outcome.value if result.test_outcome else \
                    result.worker_outcome.value
                if item.job_id in unsampled:
                    outcome = "not sampled"
                mutants.append({"key": key, "outcome": outcome,
                                "diff": None if result.is_killed else result.diff})
    report = {"module": module, "tests": tests, "seconds": round(seconds),
              "timeout": timeout, "source": source_hash(module),
              "mutants": sorted(mutants, key=lambda m: m["key"])}
    if unsampled:
        report["sampled"] = [len(pending) - len(unsampled), len(pending)]
    return report


def source_hash(module: str) -> str:
    """The module's text as mutated: a mutant's key (line, operator, occurrence) names
    a mutation of this text only."""
    return hashlib.sha256((ROOT / module).read_bytes()).hexdigest()


def retest_survivors(report: dict) -> dict:
    """Run each mutant that survived ``report``'s run, and is not known equivalent,
    against the current tests again (after new tests were written): the same mutation,
    applied by cosmic-ray."""
    module = report["module"]
    if report.get("source") != source_hash(module):
        raise SystemExit(f"mutation: {module} changed since its run (or the run predates "
                         "the check): its mutants' keys name other mutations; run it again")
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    tests = TARGETS[module]
    command = _test_command(tests)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="stratsynth-mutation-") as tmp:
        work = Path(tmp)
        _copy_tree(work)
        timeout = _baseline(work, tests)
        original = (work / module).read_text()
        equivalent = EQUIVALENT.get(module, {})
        for mutant in report["mutants"]:
            if mutant["outcome"] != "survived" or mutant["key"] in equivalent:
                continue
            _, operator, occurrence = mutant["key"].split(":")
            mutated = mutate_code(original, get_operator(operator)(), int(occurrence))
            if mutated is None:
                raise SystemExit(f"mutation: {module}: no mutant {mutant['key']}")
            (work / module).write_text(mutated)
            for stale in (work / module).parent.glob(f"__pycache__/{Path(module).stem}.*.pyc"):
                stale.unlink()  # written within the same second, its check could miss
            try:
                run = subprocess.run(command, cwd=work, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, timeout=timeout)
                killed = run.returncode != 0
            except subprocess.TimeoutExpired:
                killed = True
            if killed:
                mutant.update(outcome="killed", diff=None)
    report["seconds"] += round(time.monotonic() - started)
    return report


def score(report: dict) -> dict:
    """Killed, surviving (not known equivalent) and equivalent counts, and the score."""
    equivalent = EQUIVALENT.get(report["module"], {})
    killed = sum(m["outcome"] == "killed" for m in report["mutants"])
    survivors = [m for m in report["mutants"] if m["outcome"] == "survived"]
    same = [m for m in survivors if m["key"] in equivalent]
    live = len(survivors) - len(same)
    return {"killed": killed, "survived": live, "equivalent": len(same),
            "score": killed / (killed + live) if killed + live else 1.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all)")
    parser.add_argument("--scores", action="store_true",
                        help="only score the results in runs/mutation again (after "
                             "EQUIVALENT changed)")
    parser.add_argument("--survivors", action="store_true",
                        help="run only the saved survivors of MODULES again, against "
                             "the current tests")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="run only N mutants of each module, drawn at random (a "
                             "partial score, labelled as such)")
    args = parser.parse_args(argv)
    if args.survivors:
        for module in args.modules:
            path = OUT / f"{module.replace('/', '.').removesuffix('.py')}.json"
            report = retest_survivors(json.loads(path.read_text()))
            report["score"] = score(report)
            path.write_text(json.dumps(report, indent=1) + "\n")
            _print_score(module, report["score"], report["seconds"], report.get("sampled"))
        return 0
    if args.scores:
        for path in sorted(OUT.glob("*.json")):
            report = json.loads(path.read_text())
            _print_score(report["module"], score(report), report["seconds"],
                         report.get("sampled"))
            equivalent = EQUIVALENT.get(report["module"], {})
            for mutant in report["mutants"]:
                if mutant["outcome"] == "survived" and mutant["key"] not in equivalent:
                    changed = [line for line in mutant["diff"].splitlines()
                               if line[:1] in "+-" and line[:3] not in ("+++", "---")]
                    print(f"  survives {mutant['key']}: {' / '.join(changed)}")
        return 0
    modules = args.modules or list(TARGETS)
    unknown = [m for m in modules if m not in TARGETS]
    if unknown:
        print(f"mutation: no tests listed for {', '.join(unknown)} (known: "
              f"{', '.join(TARGETS)})", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for module in modules:
        report = mutate(module, args.sample)
        report["score"] = score(report)
        name = module.replace("/", ".").removesuffix(".py")
        (OUT / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")
        _print_score(module, report["score"], report["seconds"], report.get("sampled"))
    return 0


def _print_score(module: str, s: dict, seconds: int, sampled: list | None = None) -> None:
    sample = f", a sample of {sampled[0]} of {sampled[1]} mutants" if sampled else ""
    print(f"{module}: {s['killed']}/{s['killed'] + s['survived']} killed "
          f"({100 * s['score']:.0f}%), {s['equivalent']} equivalent{sample}, {seconds} s",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
