"""Tribes forward-model speed on one core: clone + apply_action calls per second.

Mid-game states: levels 0..9 played by two ``simple`` rule-based players (or random
ones with ``--random``) up to round 20. Figures per run:
  * clone+apply: what a search pays per child when the parent's legal actions are
    known (the legal list is shared by clones, so apply checks legality for free);
  * deepcopy+apply: the same with ``copy.deepcopy`` as the clone (the object-graph
    copy the flat-list state avoids), for comparison;
  * clone+legal+apply: a rollout step, where each new state generates its actions;
  * legal_actions alone on a fresh copy (its cached city/road actions still valid),
    and cold (that cache emptied too).
Rates are given per second of this process's CPU time (``time.process_time``), which
a busy shared machine disturbs less, and per wall-clock second.
Run ``python -m experiments.bench.tribes`` (``make bench`` runs it too); ``--rules 4``
times the framework's rules on its levels ``java:0..9``.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import time

from games.tribes import PLAYERS, Tribes


def mid_game_states(levels: range = range(10), rounds: int = 20, player: str = "simple",
                    seed: int = 0, rules: int = 3, java: bool | None = None) -> list:
    """One state per level at the start of ``rounds`` (fewer if a game ends first), on
    the framework's tournament levels (``java:N``) if ``java`` (default: under rules 4)."""
    states = []
    java = rules >= 4 if java is None else java
    for level in levels:
        key = f"java:{level}" if java else level
        state = Tribes(level=key, rules=rules).new_initial_state(random.Random(seed + level))
        agents = [PLAYERS[player](), PLAYERS[player]()]
        for seat, agent in enumerate(agents):
            if hasattr(agent, "reset"):
                agent.reset(seed * 100 + level * 2 + seat)
        while not state.is_terminal() and state.turn < rounds:
            state.apply_action(agents[state.current_player()](state))
        if not state.is_terminal():
            states.append(state)
    return states


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _rate(done: int, started: tuple[float, float]) -> tuple[float, float]:
    cpu, wall = _clock()
    return done / (cpu - started[0]), done / (wall - started[1])


def bench(states: list, calls: int, seed: int = 0) -> dict[str, tuple[float, float]]:
    rng = random.Random(seed)
    picks = []
    for state in states:
        legal = state.legal_actions()
        picks.append([legal[rng.randrange(len(legal))] for _ in range(64)])
    # clone + apply with the parent's legal actions known
    done = 0
    started = _clock()
    while done < calls:
        for state, actions in zip(states, picks):
            for action in actions:
                child = state.clone()
                child.apply_action(action)
            done += len(actions)
    clone_apply = _rate(done, started)
    # the same with a generic deep copy instead of the flat-list, copy-on-write clone
    done = 0
    started = _clock()
    while done < calls // 20:
        for state, actions in zip(states, picks):
            for action in actions[:8]:
                child = copy.deepcopy(state, {id(state.b): state.b})  # board shared
                child.apply_action(action)
            done += 8
    deep_apply = _rate(done, started)
    # a rollout step: clone, generate legal actions, apply one
    done = 0
    started = _clock()
    while done < calls // 4:
        for state in states:
            child = state.clone()
            for _ in range(20):
                if child.is_terminal():
                    break
                legal = child.legal_actions()
                child = child.clone()
                child.apply_action(legal[rng.randrange(len(legal))])
                done += 1
    rollout = _rate(done, started)
    done = 0
    started = _clock()
    while done < calls // 4:
        for state in states:
            fresh = state.clone()
            fresh._legal = fresh._legal_set = None
            fresh.legal_actions()
            done += 1
    legal_rate = _rate(done, started)
    done = 0
    started = _clock()
    while done < calls // 8:
        for state in states:
            fresh = state.clone()
            fresh._legal = fresh._legal_set = None
            fresh._tile_cache = [None, None]
            fresh.legal_actions()
            done += 1
    cold_rate = _rate(done, started)
    return {"clone+apply/s": clone_apply, "deepcopy+apply/s": deep_apply,
            "clone+legal+apply/s": rollout,
            "legal_actions/s": legal_rate, "legal_actions cold/s": cold_rate}


def decision_ms(states: list, specs: tuple[str, ...]) -> dict[str, float]:
    """CPU milliseconds per decision of each player spec on the same states."""
    out = {}
    for spec in specs:
        player = PLAYERS[spec]()
        player.reset(0)
        started = time.process_time()
        for state in states:
            player(state)
        out[spec] = (time.process_time() - started) / len(states) * 1000
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--random", action="store_true", help="mid-game states by random play")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--rules", type=int, default=3, choices=(3, 4),
                        help="rules version (4: on the framework's levels java:0..9)")
    parser.add_argument("--java-levels", action="store_true",
                        help="the framework's levels java:0..9 under any rules version")
    parser.add_argument("--decisions", action="store_true",
                        help="also time one decision of each player (2,000-call searches)")
    args = parser.parse_args(argv)
    player = "random" if args.random else "simple"
    states = mid_game_states(rounds=args.rounds, player=player, rules=args.rules,
                             java=args.java_levels or args.rules >= 4)
    units = sum(len(s.units_of(0)) + len(s.units_of(1)) for s in states) / len(states)
    legal = sum(len(s.legal_actions()) for s in states) / len(states)
    print(f"tribes forward model, rules {args.rules}: {len(states)} mid-game states (round "
          f"{args.rounds}, {player} play), mean {units:.1f} units, {legal:.1f} legal actions")
    print(f"  {'':<22} {'per CPU s':>10} {'per wall s':>11}")
    for name, (cpu, wall) in bench(states, args.calls).items():
        print(f"  {name:<22} {cpu:>10,.0f} {wall:>11,.0f}")
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.decisions:
        specs = ("mcts", "rhea", "pmcts", "pmcts-b", "pmcts-pu", "osla", "simple")
        for spec, ms in decision_ms(states, specs).items():
            print(f"  {spec:<10} {ms:8.1f} ms CPU per decision")


if __name__ == "__main__":
    main()
