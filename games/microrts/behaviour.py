"""What a microRTS program does: the orders it gives on unit snapshots from the engine.

The Java engine holds the game states, so a recorded state here is what a program
reads when it decides: the snapshot ``stratsynth.ProgramAI.units`` hands over (both
players' resources, every unit's id, owner, type, place, hit points, carried
resources and whether it is busy) with the map's size and walls. ``OrderRecorder``
plays a few matches of the program (run by the Python interpreter, whose ``decide``
sees each snapshot) against a deterministic bot and keeps snapshots spread over the
matches; a program's signature is the orders it gives on each of them, computed in
Python without the engine. Two programs with the same signature give the same
orders on every recorded snapshot.

The recording opponent must be a bot that a seed fixes (not COAC or Mayari): the
recorded snapshots, and so the search's neighbours, are then the same in every run
with the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from .interpreter import Cycle, UnitKind


@dataclass(frozen=True)
class Snapshot:
    """One decision of a program during a recorded match (what ``Cycle`` reads)."""

    me: int
    rows: tuple[int, ...]
    width: int
    height: int
    walls: Any
    kinds: dict[int, UnitKind]


def _recording_spec(player, sink: list[Snapshot]):
    """A seat spec (``build(utt)``) running ``player``'s program in Python and keeping
    every snapshot it decides on."""
    from .program_bot import ProgramBot

    class RecordingBot(ProgramBot):
        def decide(self, me: int, rows: list[int]):
            sink.append(Snapshot(me, tuple(rows), self.width, self.height, self.walls,
                                 self.kinds))
            return super().decide(me, rows)

    class Spec:
        def build(self, utt):
            return RecordingBot(player.LANGUAGE.compile(player.tree), utt, player.seed)

        def __str__(self) -> str:
            return f"recording {player.name}"

    return Spec()


@dataclass(frozen=True, kw_only=True)
class OrderRecorder:
    """Record a program's decision snapshots, then compare programs by their orders.

    Args:
        opponent: the built-in bot the program plays while snapshots are recorded (one
            a seed fixes: not ``coac`` or ``mayari``).
        matches: matches played per recording (seats alternate).
        states: at most this many snapshots are kept, evenly spread over all the
            distinct ones recorded (a match's first decisions alone would show only
            its opening).
        max_cycles: cycle cap of a recording match (None: the map's).
    """

    opponent: str = "workerrush"
    matches: int = 2
    states: int = 200
    max_cycles: int | None = 1500

    def record(self, game, player, opponent, rng: random.Random) -> list[Snapshot]:
        """Snapshots of ``player``'s decisions in matches against ``opponent`` on
        ``game``'s map (engine and bot seeds drawn from ``rng``)."""
        from .match import play_microrts_match

        seed = rng.getrandbits(31)
        seen: list[Snapshot] = []
        for index in range(self.matches):
            player.reset(seed + index)
            recording = _recording_spec(player, seen)
            seats = (recording, opponent) if index % 2 == 0 else (opponent, recording)
            play_microrts_match(game.map_name, seats, max_cycles=self.max_cycles,
                                max_seconds=game.max_seconds, utt_name=game.utt,
                                seeds=(seed + index,) * 3)
        distinct = list({(s.me, s.rows): s for s in seen}.values())
        if len(distinct) <= self.states:
            return distinct
        step = len(distinct) / self.states
        return [distinct[int(i * step)] for i in range(self.states)]

    def key(self, action: Any) -> Hashable:
        return action

    def signature(self, player, states: Sequence[Snapshot]) -> tuple:
        """The orders ``player``'s program gives on each snapshot (None where it fails);
        its ``Random`` criterion draws from a generator seeded per snapshot."""
        program = player.LANGUAGE.compile(player.tree)
        signature: list[tuple[int, ...] | None] = []
        for index, state in enumerate(states):
            cycle = Cycle(state.me, list(state.rows[2:]), state.kinds, state.width,
                          state.height, state.walls, state.rows[state.me],
                          random.Random(index))
            cycle.kinds_by_name = {kind.name: kind for kind in state.kinds.values()}
            try:
                program(cycle, None)
            except Exception:  # a broken program fails here as in a match
                signature.append(None)
            else:
                signature.append(tuple(cycle.orders))
        return tuple(signature)


BEHAVIOUR = OrderRecorder()
"""What ``SynthesisSpec.behaviour`` of microRTS refers to."""
