"""Replay games recorded from the Java framework in our engine, under rules version 4.

A trace (``tests/fixtures/tribes_java_traces/*.jsonl.gz``) is one framework game: a
header line (level-generator seed, game and agent seeds), then in playing order a
``turn`` line at the start of each tribe's turn (a summary of both tribes), an ``action``
line per action (its actors named by board position: ids differ between engines) and an
``end`` line with the final summary and the result. An action line may also give how
many legal actions of each type the framework offered, which must equal ours. Traces
that let agents examine ruins also log the framework's random draws (``draw`` lines),
which the replay steers our generator to (examining ruins, and the units a capture
hands over). ``replay`` plays the actions here and
reports the first action our rules do not allow, the first legal list that differs in
size by type, or the first summary that differs.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .constants import (
    ACTION_NAMES,
    ALL_TECHS,
    BUILDING_NAMES,
    END_TURN,
    LEVEL_UP_NAMES,
    TECH_NAMES,
    UNIT_NAMES,
)
from .levels import JAVA_LEVELS_DIR
from .rules import Tribes, TribesState, researchable

_JAVA_KIND = {
    "END_TURN": "end_turn", "RESEARCH_TECH": "research", "BUILD_ROAD": "build_road",
    "BUILD": "build", "SPAWN": "spawn", "LEVEL_UP": "level_up",
    "RESOURCE_GATHERING": "resource", "BURN_FOREST": "burn_forest",
    "CLEAR_FOREST": "clear_forest", "GROW_FOREST": "grow_forest", "DESTROY": "destroy",
    "MOVE": "move", "ATTACK": "attack", "CAPTURE": "capture", "RECOVER": "recover",
    "EXAMINE": "examine", "HEAL_OTHERS": "heal_others", "UPGRADE_BOAT": "upgrade",
    "UPGRADE_SHIP": "upgrade", "MAKE_VETERAN": "make_veteran", "CONVERT": "convert",
    "DISBAND": "disband", "DECLARE_WAR": "declare_war", "SEND_STARS": "send_stars",
}
_JAVA_NAME = {"CUSTOMS_HOUSE": "custom_house", "SUPERUNIT": "superunit"}


def _name(java: str) -> str:
    return _JAVA_NAME.get(java, java.lower())


@dataclass(frozen=True)
class Divergence:
    """Where a replay first left the framework's game."""

    event: int
    tick: int
    what: str


def _offered(kinds: dict[str, int]) -> Counter:
    """The framework's legal actions by type, under our type names."""
    offered: Counter = Counter()
    for kind, count in kinds.items():
        offered[_JAVA_KIND[kind]] += count
    return offered


def load_trace(path: Path) -> list[dict]:
    """The lines of a trace file (plain or gzip-compressed JSON lines)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def java_level_key(level_seed: int) -> str:
    """``java:N`` of a tournament level-generator seed."""
    for path in JAVA_LEVELS_DIR.glob("tournament_*.csv"):
        _, index, seed = path.stem.split("_")
        if int(seed) == level_seed:
            return f"java:{int(index)}"
    raise ValueError(f"level seed {level_seed} is not one of the framework's tournament levels")


def to_action(state: TribesState, java: dict) -> tuple:
    """Our action for a framework action (actors found by position)."""
    size = state.b.size

    def tile(xy):
        return xy[0] * size + xy[1]

    kind = ACTION_NAMES.index(_JAVA_KIND[java["type"]])
    if kind == END_TURN:
        return (kind,)
    name = ACTION_NAMES[kind]
    other = 1 - state.player
    # a war declared on, or stars sent to, the tribe to move are the other tribe's (the
    # framework's RHEA can return an action it planned for its opponent's turn): the
    # replay applies them with apply_feasible
    if name == "declare_war":
        return (kind,) if java.get("to", other) == other else (kind, other)
    if name == "send_stars":
        return (kind, java["stars"]) if java.get("to", other) == other \
            else (kind, java["stars"], other)
    if name == "research":
        return (kind, TECH_NAMES.index(_name(java["tech"])))
    if name == "build_road":
        return (kind, tile(java["target"]))
    if "city" in java:
        city = state.b.city_at[tile(java["city"])]
        if name == "spawn":
            return (kind, city, UNIT_NAMES.index(_name(java["unit"])))
        if name == "level_up":
            return (kind, city, LEVEL_UP_NAMES.index(_name(java["bonus"])))
        if name == "build":
            return (kind, city, tile(java["target"]), BUILDING_NAMES.index(_name(java["building"])))
        return (kind, city, tile(java["target"]))
    unit = state.unit_at[tile(java["unit"])]
    if name == "move":
        return (kind, unit, tile(java["target"]))
    if name in ("attack", "convert"):
        return (kind, unit, state.unit_at[tile(java["target"])])
    return (kind, unit)


def summary(state: TribesState) -> list[dict]:
    """Both tribes as a framework trace summarises them (lists sorted)."""
    size = state.b.size
    out = []
    for p in (0, 1):
        cities = sorted([state.b.city_pos[c] // size, state.b.city_pos[c] % size,
                         state.c_level[c], state.c_pop[c], state.city_production(c)]
                        for c in state.cities_of(p))
        units = sorted([state.u_pos[u] // size, state.u_pos[u] % size,
                        _name_of_unit(state.u_type[u]), state.u_hp[u]]
                       for u in state.units_of(p))
        out.append({"stars": state.stars[p], "score": state.score[p],
                    "techs": state.num_techs(p), "production": state.production(p),
                    "cities": cities, "units": units})
    return out


def _name_of_unit(unit_type: int) -> str:
    name = UNIT_NAMES[unit_type].upper()
    return "SUPERUNIT" if name == "SUPERUNIT" else name


def java_summary(line: dict) -> list[dict]:
    """A trace's summary with its lists sorted as ``summary`` sorts ours."""
    return [dict(tribe, cities=sorted(tribe["cities"]), units=sorted(tribe["units"]))
            for tribe in line["tribes"]]


def _difference(ours: list[dict], theirs: list[dict]) -> str | None:
    for p in (0, 1):
        for key in ("stars", "score", "techs", "production", "cities", "units"):
            if ours[p][key] != theirs[p][key]:
                return f"tribe {p} {key}: ours {ours[p][key]}, framework {theirs[p][key]}"
    return None


_LCG_MUL, _LCG_ADD, _MASK64 = 6364136223846793005, 1442695040888963407, (1 << 64) - 1


def _draws(state_rng: int, bounds: list[int]) -> list[int]:
    values = []
    for bound in bounds:
        state_rng = (state_rng * _LCG_MUL + _LCG_ADD) & _MASK64
        values.append((state_rng >> 33) % bound)
    return values


def _steer_examine(state: TribesState, lines: list[dict], i: int) -> str | None:
    """Set our state's random generator so that examining draws what the framework drew.

    A trace recorded with the framework's random generator logged has ``draw`` lines
    ([bound, value]) after the action: the bonus (of 5), and for a free technology the
    index among the researchable ones (the same list, in the same order, as ours); a
    tribe with every technology draws the bonus again after a free technology. Our
    engine draws from its own generator, so the replay picks a generator state that
    gives those values; the rules are what is checked, not the generator."""
    draws = []
    for line in lines[i + 1:]:
        if "draw" not in line:
            break
        draws.append(line["draw"])
    p = state.current_player()
    everything = state.techs[p] == ALL_TECHS
    wanted: list[int] = []
    while True:  # with every technology researched, a free technology is drawn again
        if len(wanted) >= len(draws) or draws[len(wanted)][0] != 5:
            return "examine: the trace has no bonus draw (record it with the game's draws)"
        wanted.append(draws[len(wanted)][1])
        if not (everything and wanted[-1] == 1):
            break
    bounds = [5] * len(wanted)
    if wanted[-1] == 1:  # a free technology: the next draw picks it
        options = sum(1 for t in range(len(TECH_NAMES)) if researchable(state.techs[p], t))
        k = len(wanted)
        if len(draws) <= k or draws[k][0] != options:
            return f"examine: {options} researchable technologies here, the framework drew " \
                   f"among {draws[k][0] if len(draws) > k else '?'}"
        wanted.append(draws[k][1])
        bounds.append(options)
    for seed in range(1 << 20):
        if _draws(seed, bounds) == wanted:
            state.rng = seed
            return None
    return "examine: no generator state gives the framework's draws"  # pragma: no cover


def _steer_capture(state: TribesState, lines: list[dict], i: int) -> int | None:
    """Set our state's random generator so that a capture hands units over as the
    framework did: its ``draw`` lines after the action are the shuffles of the tribes'
    cities (``Board.moveAllFromCity``, ``moveOneToNewCity``), which our engine makes with
    the same bounds in the same order. The generator state that must follow, or None
    when the framework drew nothing."""
    draws = []
    for line in lines[i + 1:]:
        if "draw" not in line:
            break
        draws.append(line["draw"])
    if not draws:
        return None
    bounds, wanted = [d[0] for d in draws], [d[1] for d in draws]
    for seed in range(1 << 20):
        if _draws(seed, bounds) == wanted:
            state.rng = seed
            after = seed
            for _ in draws:
                after = (after * _LCG_MUL + _LCG_ADD) & _MASK64
            return after
    raise ValueError("capture: no generator state gives the framework's draws")  # pragma: no cover


def replay(lines: list[dict]) -> tuple[Divergence | None, TribesState]:
    """Play a trace in our engine under rules version 4; the first divergence, if any."""
    header = lines[0]
    game = Tribes(level=java_level_key(header["level_seed"]), rules=4)
    state = game.new_initial_state()
    for i, line in enumerate(lines[1:], start=1):
        if "turn" in line:
            turn = line["turn"]
            if state.player != turn["active"] and not state.is_terminal() \
                    and state.is_legal((END_TURN,)):
                state.apply_action((END_TURN,))  # the framework ends a turn left no action
            if (state.turn, state.player) != (turn["tick"], turn["active"]):
                return Divergence(i, turn["tick"], f"turn of tribe {turn['active']} at tick "
                                  f"{turn['tick']}; ours: tribe {state.player} at round "
                                  f"{state.turn}"), state
            diff = _difference(summary(state), java_summary(turn))
            if diff:
                return Divergence(i, turn["tick"], diff), state
        elif "action" in line:
            if state.is_terminal():
                return Divergence(i, state.turn, "our game is over"), state
            if "kinds" in line:
                offered = _offered(line["kinds"])
                ours = Counter(ACTION_NAMES[a[0]] for a in state.legal_actions())
                if ours != offered:
                    return Divergence(i, state.turn, f"legal actions by type: ours "
                                      f"{dict(ours)}, framework {dict(offered)}"), state
            try:
                action = to_action(state, line["action"])
            except (ValueError, IndexError, KeyError) as err:
                return Divergence(i, state.turn, f"{line['action']}: {err!r}"), state
            listed = line.get("listed", True)
            if not listed and not line.get("feasible", True):
                continue  # the framework's game could not execute it: nothing happened
            if not (state.is_legal(action) if listed else state.is_feasible(action)):
                return Divergence(i, state.turn, f"not legal here: {line['action']} "
                                  f"(ours {action})"), state
            if line["action"]["type"] == "EXAMINE":
                problem = _steer_examine(state, lines, i)
                if problem:
                    return Divergence(i, state.turn, problem), state
            after = _steer_capture(state, lines, i) if line["action"]["type"] == "CAPTURE" \
                else None
            if listed:
                state.apply_action(action)
            else:
                state.apply_feasible(action)
            if after is not None and state.rng != after:
                return Divergence(i, state.turn, "capture: our engine drew otherwise than the "
                                  "framework's " + str([d for d in lines[i + 1:i + 9]
                                                        if "draw" in d])), state
        elif "end" in line:
            diff = _difference(summary(state), java_summary(line["end"]))
            if diff:
                return Divergence(i, state.turn, "at the end: " + diff), state
            if not state.is_terminal():
                return Divergence(i, state.turn, "the framework's game is over, ours is not"), state
            winner = line["results"].strip("[]").split(", ").index("WIN")
            if state.winner() != winner:
                return Divergence(i, state.turn,
                                  f"winner ours {state.winner()}, framework {winner}"), state
    return None, state
