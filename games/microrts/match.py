"""microRTS matches: two players, seats alternating, a cycle cap and a wall-clock guard.

A player here is a *factory* (``spec.build(utt) -> AI``) so that each match gets
fresh AI objects in the worker process that plays it: a ``BotSpec`` builds a Java
bot, a program player (``gp.languages.microrts``) a Python AI driving the abstraction
layer. COAC is not fully deterministic (an unseeded ``Random``), so results are
counts over matches.

Each match also reports, per player, the units it produced by type and the
resources it gathered: the counts behind the observation score C_O and the
behaviour features. An AI that raises forfeits the match (logged); a worker whose
JVM dies is replaced and its batch played again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..api import reset_player
from ..backends import WorkerDied, workers_of
from ..engines import Engine
from ..match import MatchJob, MatchSummary, match_seeds, seats_for
from .engine import (
    DEFAULT_UNIT_TYPE_TABLE,
    EngineError,
    check_unit_type_table,
    cycle_cap,
    make_bot,
    map_path,
    start_jvm,
    unit_type_table,
)
from .mapfiles import MapError

log = logging.getLogger("stratsynth.microrts")

PRODUCED = ("Worker", "Light", "Heavy", "Ranged", "Base", "Barracks")
"""Unit types counted per player (the sketch-learning paper's C_O; the behaviour features)."""
STATS_EVERY = 10
"""Cycles between unit censuses (no unit is produced and killed faster than this)."""
RETRIES = 3


@dataclass(frozen=True)
class BotSpec:
    """A built-in Java bot, by name (picklable: built inside the worker)."""

    name: str

    def build(self, utt):
        return make_bot(self.name, utt)


class _Census:
    """Units ever seen per player (id -> type) and resources at the start."""

    def __init__(self, gs, kinds: dict[int, str]) -> None:
        import jpype

        self.read = jpype.JClass("stratsynth.ProgramAI").units
        self.kinds = kinds
        rows = np.asarray(self.read(gs)).tolist()
        self.start_resources = rows[:2]
        self.initial: set[int] = set()
        self.seen: list[dict[int, str]] = [{}, {}]
        self._take(rows)
        for player in (0, 1):
            self.initial |= set(self.seen[player])

    def _take(self, rows: list[int]) -> None:
        for i in range(2, len(rows), 8):
            player = rows[i + 1]
            if player in (0, 1):
                self.seen[player][rows[i]] = self.kinds[rows[i + 2]]
        self.last = rows

    def update(self, gs) -> None:
        self._take(np.asarray(self.read(gs)).tolist())

    def take_seen(self, rows: list[int]) -> None:
        """Units censused on the Java side (``MatchRunner.seenRows``: id, player, type)."""
        for i in range(0, len(rows), 3):
            if rows[i + 1] in (0, 1):
                self.seen[rows[i + 1]][rows[i]] = self.kinds[rows[i + 2]]

    def stats(self, costs: dict[str, int]) -> list[dict[str, float]]:
        """Per player: units produced by type, and resources gathered (final stock minus
        starting stock plus what the produced units cost)."""
        out = []
        for player in (0, 1):
            produced = {t: 0 for t in PRODUCED}
            spent = 0
            for unit_id, type_name in self.seen[player].items():
                if unit_id not in self.initial and type_name in produced:
                    produced[type_name] += 1
                    spent += costs[type_name]
            gathered = self.last[player] - self.start_resources[player] + spent
            out.append({**{f"produced_{t}": float(n) for t, n in produced.items()},
                        "resources": float(gathered)})
        return out


NONDETERMINISTIC_BOTS = {
    "coac": "CoacAttack.execute draws a move from a fresh, unseeded java.util.Random",
    "mayari": "Collections.shuffle without a Random, and System.currentTimeMillis budgets",
}
"""Java bots whose play no seed can fix (read from their bytecode). The other bots are
deterministic once ``seed_java_ai`` has seeded their ``java.util.Random`` fields."""


def seed_java_ai(ai, seed: int) -> int:
    """Replace every ``java.util.Random`` instance field of a Java AI (its class and
    superclasses) with ``new Random(seed)``; returns how many were replaced (the rushes
    hold one they never use)."""
    replaced = 0
    for field in _random_fields(ai.getClass(), static=False):
        field.set(ai, _java_random(seed))
        replaced += 1
    return replaced


ENGINE_RANDOMS = ("rts.GameState", "rts.UnitAction", "rts.PlayerActionGenerator",
                  "util.Sampler")
"""microRTS classes holding a static ``java.util.Random`` (move conflicts, damage rolls,
random actions, RandomBiasedAI's weighted choice): seeded per match by
``seed_engine``."""


_FIELDS: dict[tuple[str, bool], list] = {}


def _random_fields(klass, static: bool) -> list:
    """The non-final ``java.util.Random`` fields of a class and its superclasses, made
    accessible; looked up once per class and process (reflection through JPype is slow)."""
    key = (str(klass.getName()), static)
    if key in _FIELDS:
        return _FIELDS[key]
    import jpype

    random_class = jpype.JClass("java.util.Random").class_
    modifier = jpype.JClass("java.lang.reflect.Modifier")
    fields = []
    while klass is not None:
        for field in klass.getDeclaredFields():
            mods = field.getModifiers()
            if random_class.isAssignableFrom(field.getType()) and \
                    bool(modifier.isStatic(mods)) == static and not modifier.isFinal(mods):
                field.setAccessible(True)
                fields.append(field)
        klass = klass.getSuperclass()
    _FIELDS[key] = fields
    return fields


def _java_random(seed: int):
    import jpype

    return jpype.JClass("java.util.Random")(jpype.JLong(seed & 0x7FFFFFFFFFFFFFFF))


def seed_engine(seed: int) -> None:
    """Seed the engine's static ``Random`` fields (``ENGINE_RANDOMS``) for one match."""
    import jpype

    for offset, name in enumerate(ENGINE_RANDOMS):
        for field in _random_fields(jpype.JClass(name).class_, static=True):
            field.set(None, _java_random(seed + offset))


def _fresh_unit_ids(pgs) -> None:
    """Number new units from the map's largest ID + 1, as in a fresh JVM: microRTS
    takes new IDs from a static counter and hashes units by ID, so without this the
    AIs' hash maps iterate differently depending on earlier matches in the process."""
    import jpype

    unit_class = jpype.JClass("rts.units.Unit")
    unit_class.next_ID = jpype.JLong(max((int(u.getID()) for u in pgs.getUnits()), default=0)
                                     + 1)


def play_microrts_match(map_name: str, seats, max_cycles: int | None = None,
                        max_seconds: float = 600.0, stats: bool = False,
                        utt_name: str = DEFAULT_UNIT_TYPE_TABLE,
                        seeds: tuple[int, int, int] = (0, 0, 0), loop: str = "java",
                        interpreter: str = "ours") -> dict:
    """One match on unit type table ``utt_name``. Returns winner (seat or None), cycles,
    timed_out, forfeit (seat or None), error, and with ``stats`` the per-seat counts
    (``seat_stats``). ``seeds`` = (engine, seat 0, seat 1): the engine's static
    ``Random`` fields get the first, Java bots' own ``Random`` fields their seat's;
    program players take theirs from ``reset``. ``loop``: see ``LOOPS``. ``interpreter``:
    how program players read two commands (``games.microrts.interpreter.INTERPRETERS``)."""
    if loop not in LOOPS:
        raise ValueError(f"match loop must be one of {LOOPS}, got '{loop}'")
    start_jvm()
    from rts import GameState, PhysicalGameState

    utt = unit_type_table(utt_name)
    path = map_path(map_name)
    try:
        pgs = PhysicalGameState.load(str(path), utt)
    except Exception as err:  # a Java exception: one line, not its stack trace
        raise MapError(f"{path}: the engine could not load it "
                       f"({type(err).__name__}: {err})") from None
    _fresh_unit_ids(pgs)
    gs = GameState(pgs, utt)
    ais = [spec.build(utt) if interpreter == "ours" or not hasattr(spec, "LANGUAGE")
           else spec.build(utt, interpreter) for spec in seats]
    seed_engine(seeds[0])
    for ai, seed in zip(ais, seeds[1:]):
        if hasattr(ai, "getClass"):  # a Java object, not our Python ProgramBot
            seed_java_ai(ai, seed)
    cap = max_cycles or cycle_cap(map_name)
    kinds = {int(t.ID): str(t.name) for t in utt.getUnitTypes()}
    costs = {str(t.name): int(t.cost) for t in utt.getUnitTypes()}
    result = {"winner": None, "cycles": 0, "timed_out": False, "forfeit": None, "error": None}
    use_java = loop == "java" and all(hasattr(ai, "getClass") or hasattr(ai, "decide")
                                      for ai in ais)
    play = _java_loop if use_java else _python_loop
    census = _Census(gs, kinds) if stats else None
    play(gs, ais, seats, cap, max_seconds, census, result)
    if census is not None:
        census.update(gs)
    if result["forfeit"] is None and not result["timed_out"]:
        winner = int(gs.winner())
        result["winner"] = winner if winner in (0, 1) else None
    if census is not None:
        result["seat_stats"] = census.stats(costs)
    return result


LOOPS = ("java", "python")
"""Match loops: ``java`` (``stratsynth.MatchRunner``: one JVM call per cycle in which a
DSL program acts, none otherwise; the default; the result also gives each seat's
``decision_seconds``: its program or getAction, and its orders' translation) and
``python`` (five or six JVM calls every cycle; any Python AI with ``getAction``).
Both play the same cycles."""
DECISION_CLOCK = time.perf_counter
"""Clock of the ``java`` loop's ``decision_seconds`` on the Python side; see
``use_cpu_clocks``."""
PAUSE_CYCLES = 200
"""Java-only cycles between wall-clock checks of the ``java`` loop."""


def use_cpu_clocks(on: bool = True) -> None:
    """Time ``decision_seconds`` by this thread's CPU clock (Python and Java sides) instead
    of the wall clock: the benchmark's choice on a loaded machine."""
    global DECISION_CLOCK
    import jpype

    start_jvm()
    DECISION_CLOCK = time.thread_time if on else time.perf_counter
    jpype.JClass("stratsynth.MatchRunner").threadCpuClock = on


def _forfeit(result: dict, seat: int, seats, err) -> None:
    log.warning("seat %d (%s) forfeits: %s", seat, seats[seat], err)
    result.update(forfeit=seat, winner=1 - seat, error=f"{type(err).__name__}: {err}")


def _python_loop(gs, ais, seats, cap, max_seconds, census, result) -> None:
    started = time.perf_counter()
    cycles = 0
    while not gs.gameover() and cycles < cap:
        if time.perf_counter() - started > max_seconds:
            result["timed_out"] = True
            break
        actions = []
        for seat in (0, 1):
            try:
                actions.append(ais[seat].getAction(seat, gs))
            except Exception as err:  # a broken AI loses the match, the batch goes on
                _forfeit(result, seat, seats, err)
                break
        if result["forfeit"] is not None:
            break
        gs.issueSafe(actions[0])
        gs.issueSafe(actions[1])
        gs.cycle()
        cycles += 1
        if census is not None and cycles % STATS_EVERY == 0:
            census.update(gs)
    result["cycles"] = cycles


class _JavaError(Exception):
    """What a Java AI threw inside ``MatchRunner`` (its message)."""


def _java_loop(gs, ais, seats, cap, max_seconds, census, result) -> None:
    import jpype

    runner_class = jpype.JClass("stratsynth.MatchRunner")
    python = [None if hasattr(ai, "getClass") else ai for ai in ais]
    runner = runner_class(gs, None if python[0] else ais[0], None if python[1] else ais[1],
                          cap, STATS_EVERY if census is not None else 0)
    for bot in python:
        if bot is not None:
            bot.read_walls(gs)
    started = time.perf_counter()
    python_seconds = [0.0, 0.0]
    reply = np.asarray(runner.advanceWithUnits(PAUSE_CYCLES)).tolist()
    while True:
        code = reply[0]
        if code == runner_class.OVER:
            break
        if code == runner_class.FORFEIT:
            seat = int(runner.forfeit())
            _forfeit(result, seat, seats, _JavaError(str(runner.error())))
            break
        if time.perf_counter() - started > max_seconds:
            result["timed_out"] = True
            break
        if code == runner_class.PAUSE:
            reply = np.asarray(runner.advanceWithUnits(PAUSE_CYCLES)).tolist()
            continue
        acting = [seat for seat in (0, 1) if code & (1 << seat)]
        rows = reply[1:]
        orders = {}
        for seat in acting:
            decided = DECISION_CLOCK()
            try:
                orders[seat] = python[seat].decide(seat, rows)
            except Exception as err:  # a broken program loses the match
                _forfeit(result, seat, seats, err)
                break
            python_seconds[seat] += DECISION_CLOCK() - decided
        if result["forfeit"] is not None:
            break
        for seat in acting[:-1]:  # both programs act: the first hands its action over
            runner.submit(seat, python[seat].ai.step(gs, seat, orders[seat]))
        last = acting[-1]
        reply = np.asarray(runner.stepAndAdvance(last, python[last].ai, orders[last],
                                                 PAUSE_CYCLES)).tolist()
    result["cycles"] = int(runner.cycles())
    java_nanos = np.asarray(runner.seatNanos()).tolist()
    result["decision_seconds"] = [python_seconds[s] + java_nanos[s] / 1e9 for s in (0, 1)]
    if census is not None:
        census.take_seen(np.asarray(runner.seenRows()).tolist())


def _play_chunk(job) -> MatchSummary:
    map_name, players, start, stop, max_cycles, max_seconds, stats, seed, utt_name = job[:9]
    interpreter = job[9] if len(job) > 9 else "ours"
    summary = MatchSummary()
    for index in range(start, stop):
        order = seats_for(index)
        chance_seed, *player_seeds = match_seeds(seed, index)
        for player, player_seed in zip(players, player_seeds):
            reset_player(player, player_seed)  # program players' and mixtures' seeds
        result = play_microrts_match(map_name, (players[order[0]], players[order[1]]),
                                     max_cycles, max_seconds, stats, utt_name,
                                     seeds=(chance_seed, player_seeds[order[0]],
                                            player_seeds[order[1]]),
                                     interpreter=interpreter)
        summary.matches += 1
        summary.total_moves += result["cycles"]
        winner = result["winner"]
        if result["forfeit"] is not None:
            summary.forfeits[order[result["forfeit"]]] += 1
        if winner is not None:
            summary.record_win(order, winner)
        elif result["timed_out"] or result["cycles"] >= (max_cycles or cycle_cap(map_name)):
            summary.capped += 1
        else:
            summary.draws += 1
        detail = {"index": index, "seats": list(order), "winner": None if winner is None
                  else order[winner], "cycles": result["cycles"], "error": result["error"]}
        if stats:
            by_player = [None, None]
            for seat, player in enumerate(order):
                by_player[player] = result["seat_stats"][seat]
                for k, v in result["seat_stats"][seat].items():
                    feats = summary.feature_sums[player]
                    feats[k] = feats.get(k, 0.0) + v
            detail["stats"] = by_player
        summary.per_match.append(detail)
    return summary


def play_microrts_matches(map_name: str, players, n: int, map=None,
                          max_cycles: int | None = None, max_seconds: float = 600.0,
                          stats: bool = False, seed: int = 0,
                          utt_name: str = DEFAULT_UNIT_TYPE_TABLE) -> MatchSummary:
    """``n`` matches, odd ones with seats swapped; results per player (``moves`` = cycles).

    Match ``k`` starts player 0 in seat ``k % 2``, so two matches are one from each
    start. Players with ``reset(seed)`` get a seed per match derived from ``seed``
    (``games.match.match_seeds``). A batch whose worker dies (a crashed JVM) is played again, up to
    ``RETRIES`` times, then an ``EngineError`` says so.
    """
    map_path(map_name)  # unknown maps and tables fail here, before any worker starts
    check_unit_type_table(utt_name)
    started = time.perf_counter()
    workers = workers_of(map)
    chunks = max(1, min(n, workers))
    bounds = [n * i // chunks for i in range(chunks + 1)]
    jobs = [(map_name, tuple(players), bounds[i], bounds[i + 1], max_cycles, max_seconds, stats,
             seed, utt_name)
            for i in range(chunks) if bounds[i] < bounds[i + 1]]
    run = map or (lambda f, js: [f(j) for j in js])
    for attempt in range(RETRIES + 1):
        try:
            parts = run(_play_chunk, jobs)
            break
        except WorkerDied as err:
            log.warning("microRTS batch lost a worker (attempt %d): %s", attempt + 1, err)
    else:
        raise EngineError(f"microRTS workers kept dying ({RETRIES + 1} attempts): "
                          "is the JVM out of memory?")
    summary = MatchSummary()
    for part in parts:
        summary.add(part)
    summary.seconds = time.perf_counter() - started
    return summary


class JVMEngine(Engine):
    """microRTS's reference engine: whole matches in the Java engine, on the game
    object's map, caps and unit type table, behaviour counts always kept
    (``FEATURES`` read them). It has no colour-swapped pairs; a batch whose worker's
    JVM died is played again up to ``RETRIES`` times."""

    name = "jvm"
    plays_paired = False
    retries = RETRIES

    def play(self, jobs: Sequence[MatchJob]) -> list[MatchSummary | None]:
        return [_play_chunk((job.game.map_name, job.players, job.start, job.stop,
                             job.game.max_cycles, job.game.max_seconds, True, job.seed,
                             job.game.utt, getattr(job.game, "interpreter", "ours")))
                for job in jobs]
