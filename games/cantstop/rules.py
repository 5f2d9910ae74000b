"""Can't Stop, two players, as played in the sketch-learning paper.

Columns 2–12 have 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3 cells. A turn rolls four dice;
the player pairs them into two sums and advances a neutral marker one cell in the
column of each sum (or of one, if both cannot move), with at most three neutrals on
the board; after each move it rolls again or stops. Stopping turns the neutrals into
its own markers; a roll with no legal move (a bust) loses the turn's progress.
Stopping with a marker on a column's top cell claims the column, which no one may
enter again; the first to claim three columns wins.

The state is built for speed because program synthesis plays millions of
matches: plain lists indexed by column number, legal actions computed once per
roll from a precomputed table of the 1296 dice outcomes, no copies per decision.

Actions
    * column moves are tuples of one or two column numbers, sorted: ``(6, 8)``,
      ``(7, 7)`` (a double), ``(5,)``;
    * after a column move the player chooses ``ROLL`` (``"y"``) or ``STOP`` (``"n"``).

The turn starts with the dice already rolled; a roll with no legal column move is
a bust, resolved inside the state (neutrals removed, turn passes, next roll), so
the acting player always has at least one legal action.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from ..api import GameBase, two_player_returns

COLUMNS = tuple(range(2, 13))
HEIGHTS = (0, 0, 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)
"""Cells per column, indexed by column number (indices 0 and 1 unused)."""
MAX_NEUTRALS = 3
COLUMNS_TO_WIN = 3
DEFAULT_MAX_MOVES = 300
"""The reference evaluator stops a match after 300 decisions; no one wins it."""

ROLL = "y"
STOP = "n"
ROLL_OR_STOP = (ROLL, STOP)

PHASE_COLUMN = "column"
PHASE_ROLL_OR_STOP = "roll_or_stop"

_ACTION = {}


def _action(cols: tuple[int, ...]) -> tuple[int, ...]:
    """Interned, sorted action tuple (so identity and equality agree)."""
    key = tuple(sorted(cols))
    return _ACTION.setdefault(key, key)


def _pairings(dice: tuple[int, int, int, int]) -> tuple[tuple[int, int], ...]:
    d0, d1, d2, d3 = dice
    raw = ((d0 + d1, d2 + d3), (d0 + d2, d1 + d3), (d0 + d3, d1 + d2))
    out: list[tuple[int, int]] = []
    for a, b in raw:
        pair = (a, b) if a <= b else (b, a)
        if pair not in out:
            out.append(pair)
    return tuple(out)


OUTER = tuple(1 if c in (2, 3, 4, 10, 11, 12) else 0 for c in range(13))
"""Columns 2–4 and 10–12: short, rarely rolled (a behaviour feature counts their use)."""

ROLLS = tuple(product(range(1, 7), repeat=4))
"""All 1296 ordered outcomes of four dice; a roll is an index into this table."""
PAIRINGS = tuple(_pairings(d) for d in ROLLS)
ROLL_INDEX = {d: i for i, d in enumerate(ROLLS)}


def _single(c: int) -> tuple[int, ...]:
    return _action((c,))


SINGLE = [None, None] + [_single(c) for c in COLUMNS]
PAIR = {(a, b): _action((a, b)) for a in COLUMNS for b in COLUMNS if a <= b}


class CantStopState:
    """A Can't Stop position; attributes are public for fast reading, never write them.

    Attributes (all indexed by column number 0..12, entries 0 and 1 unused):
        player    seat to act (0 or 1), -1 when the game is over
        markers   ``markers[p][c]`` = cells of column c secured by seat p (0 = none)
        neutral   ``neutral[c]`` = cell of the current player's neutral marker (0 = none)
        neutral_cols  columns holding a neutral marker, in the order placed
        claimed   ``claimed[c]`` = seat that claimed column c, or -1
        claims    ``claims[p]`` = number of columns seat p has claimed
        dice      the four dice of the current roll
        phase     ``PHASE_COLUMN`` or ``PHASE_ROLL_OR_STOP``
    """

    __slots__ = (
        "rng", "max_moves", "player", "markers", "neutral", "neutral_cols",
        "claimed", "claims", "dice", "phase", "legal", "moves", "won_by",
        "capped", "turns", "busts", "last_player", "stops", "banked", "advances", "outer",
    )

    def __init__(self, rng: random.Random | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 first_player: int = 0, roll: bool = True) -> None:
        self.rng = rng if rng is not None else random.Random(0)
        self.max_moves = max_moves
        self.player = first_player
        self.markers = ([0] * 13, [0] * 13)
        self.neutral = [0] * 13
        self.neutral_cols: list[int] = []
        self.claimed = [-1] * 13
        self.claims = [0, 0]
        self.dice: tuple[int, ...] = ()
        self.phase = PHASE_COLUMN
        self.legal: list = []
        self.moves = 0
        self.won_by: int | None = None
        self.capped = False
        self.turns = [0, 0]
        self.busts = [0, 0]
        self.stops = [0, 0]  # behaviour counters per seat (see games.cantstop.features)
        self.banked = [0, 0]
        self.advances = [0, 0]
        self.outer = [0, 0]
        self.last_player = first_player
        if roll:
            self.turns[first_player] = 1
            self._roll()

    # ---- OpenSpiel-like API -------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list:
        return self.legal

    def is_terminal(self) -> bool:
        return self.player < 0

    def winner(self) -> int | None:
        return self.won_by

    def is_capped(self) -> bool:
        return self.capped

    def move_number(self) -> int:
        return self.moves

    def returns(self) -> list[float]:
        return two_player_returns(self.won_by)

    def apply_action(self, action) -> None:
        if action not in self.legal:
            raise ValueError(
                f"illegal action {action!r} for player {self.player} "
                f"(legal: {self.legal})")
        self.moves += 1
        if action == ROLL:
            self._roll()
        elif action == STOP:
            self._stop()
        else:
            self._advance(action)
        if self.moves >= self.max_moves and self.player >= 0:
            self.last_player = self.player
            self.player = -1
            self.capped = True
            self.legal = []

    def clone(self) -> CantStopState:
        other = CantStopState.__new__(CantStopState)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        other.rng = rng
        other.max_moves = self.max_moves
        other.player = self.player
        other.markers = (self.markers[0][:], self.markers[1][:])
        other.neutral = self.neutral[:]
        other.neutral_cols = self.neutral_cols[:]
        other.claimed = self.claimed[:]
        other.claims = self.claims[:]
        other.dice = self.dice
        other.phase = self.phase
        other.legal = self.legal[:]
        other.moves = self.moves
        other.won_by = self.won_by
        other.capped = self.capped
        other.turns = self.turns[:]
        other.busts = self.busts[:]
        other.stops = self.stops[:]
        other.banked = self.banked[:]
        other.advances = self.advances[:]
        other.outer = self.outer[:]
        other.last_player = self.last_player
        return other

    # ---- rules ----------------------------------------------------------------
    def _roll(self) -> None:
        """Roll until the current player has a legal column move (busts pass the turn)."""
        rng = self.rng
        while True:
            r = int(rng.random() * 1296)
            self.dice = ROLLS[r]
            legal = self._column_moves(PAIRINGS[r])
            if legal:
                self.legal = legal
                self.phase = PHASE_COLUMN
                return
            self.busts[self.player] += 1
            self._end_turn()

    def _column_moves(self, pairings) -> list:
        """Legal column moves for the given dice pairings: a sum's column can take a
        step if it is unclaimed, its marker is below the top cell and a neutral is
        there or free; a pairing whose two columns can both step (with enough free
        neutrals) gives one two-column move, else each steppable column its own move."""
        neutral = self.neutral
        claimed = self.claimed
        free = MAX_NEUTRALS - len(self.neutral_cols)
        out: list = []
        for a, b in pairings:
            na = neutral[a]
            nb = neutral[b]
            ok_a = claimed[a] < 0 and na < HEIGHTS[a] and (na > 0 or free > 0)
            ok_b = claimed[b] < 0 and nb < HEIGHTS[b] and (nb > 0 or free > 0)
            if ok_a and ok_b:
                need = (na == 0) + (nb == 0 and a != b)
                if need <= free:
                    act = PAIR[a, b]
                    if act not in out:
                        out.append(act)
                    continue
            if ok_a:
                act = SINGLE[a]
                if act not in out:
                    out.append(act)
            if ok_b:
                act = SINGLE[b]
                if act not in out:
                    out.append(act)
        return out

    def _advance(self, action) -> None:
        neutral = self.neutral
        p = self.player
        own = self.markers[p]
        self.advances[p] += len(action)
        self.outer[p] += OUTER[action[0]] + (OUTER[action[1]] if len(action) == 2 else 0)
        for c in action:
            h = neutral[c]
            if h == 0:
                h = own[c]
                self.neutral_cols.append(c)
            if h < HEIGHTS[c]:
                neutral[c] = h + 1
        self.phase = PHASE_ROLL_OR_STOP
        self.legal = ROLL_OR_STOP_LIST

    def _stop(self) -> None:
        p = self.player
        own = self.markers[p]
        neutral = self.neutral
        self.stops[p] += 1
        for c in self.neutral_cols:
            h = neutral[c]
            self.banked[p] += h - own[c]
            if h == HEIGHTS[c]:
                self.claimed[c] = p
                self.claims[p] += 1
                self.markers[0][c] = 0
                self.markers[1][c] = 0
            else:
                own[c] = h
        self._win_or_pass(p)

    def _win_or_pass(self, p: int) -> None:
        """After ``p`` stops: ``p`` wins with enough columns, else the turn passes."""
        if self.claims[p] >= COLUMNS_TO_WIN:
            self._clear_turn()
            self.won_by = p
            self.last_player = p
            self.player = -1
            self.legal = []
            return
        self._end_turn()
        self._roll()

    def _clear_turn(self) -> None:
        """Take the turn's neutral markers off the board."""
        neutral = self.neutral
        for c in self.neutral_cols:
            neutral[c] = 0
        self.neutral_cols = []

    def _end_turn(self) -> None:
        self._clear_turn()
        self.player = 1 - self.player
        self.turns[self.player] += 1

    # ---- helpers used by strategies and features --------------------------------
    def advanced_this_turn(self, column: int) -> int:
        """Cells the current player's neutral marker is above their own marker."""
        h = self.neutral[column]
        return h - self.markers[self.player][column] if h else 0

    def topped_columns(self) -> int:
        """Neutral markers that reached the top: columns claimed if the player stops now."""
        neutral = self.neutral
        return sum(1 for c in self.neutral_cols if neutral[c] == HEIGHTS[c])

    def stopping_wins(self) -> bool:
        """True if ``STOP`` now gives the current player their third column."""
        return self.claims[self.player] + self.topped_columns() >= COLUMNS_TO_WIN

    def can_place_new_neutral(self) -> bool:
        """Fewer than three neutrals are down and some column is still free for one."""
        if len(self.neutral_cols) >= MAX_NEUTRALS:
            return False
        claimed = self.claimed
        neutral = self.neutral
        return any(claimed[c] < 0 and not neutral[c] for c in COLUMNS)

    def action_to_string(self, action) -> str:
        if action == ROLL:
            return "roll again"
        if action == STOP:
            return "stop"
        if len(action) == 2 and action[0] == action[1]:
            return f"advance {action[0]} twice"
        return "advance " + " and ".join(str(c) for c in action)

    # ---- snapshots ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON snapshot; lists run over columns 2..12."""
        return {
            "player": self.player,
            "phase": self.phase,
            "dice": list(self.dice),
            "markers": [self.markers[0][2:], self.markers[1][2:]],
            "neutral": self.neutral[2:],
            "neutral_order": list(self.neutral_cols),
            "claimed": self.claimed[2:],
            "moves": self.moves,
            "winner": self.won_by,
            "capped": self.capped,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rng: random.Random | None = None,
                  max_moves: int = DEFAULT_MAX_MOVES) -> CantStopState:
        """Restore a snapshot (also used to set up hand-worked positions in tests)."""
        try:
            state = cls(rng, max_moves=max_moves, roll=False)
            state.markers = ([0, 0] + list(data["markers"][0]), [0, 0] + list(data["markers"][1]))
            state.neutral = [0, 0] + list(data.get("neutral", [0] * 11))
            state.claimed = [-1, -1] + list(data.get("claimed", [-1] * 11))
            order = data.get("neutral_order")
            state.neutral_cols = (list(order) if order is not None
                                  else [c for c in COLUMNS if state.neutral[c]])
            state.claims = [state.claimed.count(0), state.claimed.count(1)]
            state.moves = int(data.get("moves", 0))
            state.phase = data.get("phase", PHASE_COLUMN)
            state.won_by = data.get("winner")
            state.capped = bool(data.get("capped", False))
            state.player = int(data["player"])
            state.dice = tuple(data.get("dice", ()))
            state._restore_more(data)
        except (KeyError, TypeError, IndexError, ValueError) as err:
            raise ValueError(f"bad Can't Stop state snapshot: {err!r}") from err
        state._validate_snapshot()
        if state.player < 0:
            state.legal = []
        elif state.phase == PHASE_ROLL_OR_STOP:
            state.legal = ROLL_OR_STOP_LIST
        else:
            if state.dice not in ROLL_INDEX:
                raise ValueError(f"bad Can't Stop state snapshot: dice {state.dice!r}")
            state.legal = state._snapshot_moves()
            if not state.legal:
                raise ValueError(f"bad Can't Stop state snapshot: dice {list(state.dice)} "
                                 "leave no legal move (a bust is never a position to act in)")
        state.last_player = max(state.player, 0)
        return state

    def set_dice(self, dice) -> None:
        """Replace the current roll (tests, replays); a roll with no move is a bust."""
        if self.phase != PHASE_COLUMN or self.player < 0:
            raise ValueError("dice can only be set when a column move is due")
        dice = tuple(int(d) for d in dice)
        if dice not in ROLL_INDEX:
            raise ValueError(f"dice must be four values 1..6, got {dice!r}")
        self.dice = dice
        legal = self._column_moves(PAIRINGS[ROLL_INDEX[dice]])
        if legal:
            self.legal = legal
        else:
            self.busts[self.player] += 1
            self._end_turn()
            self._roll()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CantStopState) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable

    # ---- what a rule variant restores and checks beyond these rules (from_dict) ---------
    def _restore_more(self, data: dict[str, Any]) -> None:
        """Fields of a snapshot that only a rule variant has."""

    def _validate_snapshot(self) -> None:
        _validate(self)

    def _snapshot_moves(self) -> list:
        return self._column_moves(PAIRINGS[ROLL_INDEX[self.dice]])

    def __str__(self) -> str:
        return render(self)

    def describe_transition(self, before: CantStopState) -> list[str]:
        """What chance did since ``before``, for a person watching: busts and new dice."""
        lines = [f"seat {seat} busts: no column move for its dice, the turn's progress is lost"
                 for seat in (0, 1) if self.busts[seat] > before.busts[seat]]
        if self.player >= 0 and self.phase == PHASE_COLUMN and (
                self.dice != before.dice or self.player != before.player):
            lines.append(f"seat {self.player} rolls {' '.join(map(str, self.dice))}")
        return lines

    def __repr__(self) -> str:
        return f"CantStopState({self.to_dict()!r})"


ROLL_OR_STOP_LIST = [ROLL, STOP]


def _validate(state: CantStopState, bad: str = "bad Can't Stop state snapshot: ",
              neutral_above: int = 0) -> None:
    """Reject snapshots that no legal play can reach, naming the field at fault
    (``neutral_above``: cells a neutral may stand above the top, for a rule variant)."""
    if state.player not in (-1, 0, 1):
        raise ValueError(f"{bad}player {state.player}")
    if state.phase not in (PHASE_COLUMN, PHASE_ROLL_OR_STOP):
        raise ValueError(f"{bad}phase {state.phase!r}")
    if len(state.markers[0]) != 13 or len(state.markers[1]) != 13 or len(state.neutral) != 13:
        raise ValueError(f"{bad}markers/neutral need 11 columns")
    if len(state.claimed) != 13:
        raise ValueError(f"{bad}claimed needs 11 columns")
    for c in COLUMNS:
        for name, h, top in (("markers[0]", state.markers[0][c], HEIGHTS[c]),
                             ("markers[1]", state.markers[1][c], HEIGHTS[c]),
                             ("neutral", state.neutral[c], HEIGHTS[c] + neutral_above)):
            if not 0 <= h <= top:
                raise ValueError(f"{bad}{name} column {c} = {h}")
        if state.claimed[c] not in (-1, 0, 1):
            raise ValueError(f"{bad}claimed column {c}")
    if len(state.neutral_cols) > MAX_NEUTRALS or sorted(state.neutral_cols) != [
            c for c in COLUMNS if state.neutral[c]]:
        raise ValueError(f"{bad}neutral_order does not match neutral")


def render(state: CantStopState) -> str:
    """The board as text: one line per column, ``0``/``1`` permanent markers, ``^`` neutral."""
    acting = state.player if state.player >= 0 else state.last_player
    lines = []
    if state.player < 0:
        if state.won_by is not None:
            head = f"game over: player {state.won_by} wins"
        else:
            head = "game over: move cap reached, no winner"
    else:
        head = f"player {state.player} to act"
        if state.phase == PHASE_COLUMN:
            head += f", dice {' '.join(map(str, state.dice))}: choose columns"
        else:
            head += ": roll again or stop"
    lines.append(f"Can't Stop, move {state.moves}, {head}")
    lines.append(f"claimed: player 0 = {state.claims[0]}, player 1 = {state.claims[1]}")
    for c in COLUMNS:
        if state.claimed[c] >= 0:
            body = f"claimed by player {state.claimed[c]}"
        else:
            cells = []
            for h in range(1, HEIGHTS[c] + 1):
                mark = ""
                if state.markers[0][c] == h:
                    mark += "0"
                if state.markers[1][c] == h:
                    mark += "1"
                if state.neutral[c] == h and state.player >= 0:
                    mark += "^"
                cells.append(f"{mark:<3}" if mark else ".  ")
            body = "".join(cells).rstrip()
        lines.append(f"{c:>2} |{body}")
    if state.player >= 0 and state.neutral_cols:
        lines.append(f"neutral markers (^) of player {acting} in columns "
                     f"{', '.join(map(str, state.neutral_cols))}")
    return "\n".join(lines)


class CantStop(GameBase):
    """The game object: makes initial states and restores snapshots."""

    name = "cantstop"
    num_players = 2

    def __init__(self, max_moves: int = DEFAULT_MAX_MOVES, rules: str = "paper") -> None:
        """``rules``: "paper" (the paper's text, default) or "reference" (the sketch-learning
        paper's
        reference code, bug included: games.cantstop.reference_rules)."""
        if max_moves < 1:
            raise ValueError(f"max_moves must be >= 1, got {max_moves}")
        self.max_moves = max_moves
        self.rules = rules
        if rules == "paper":
            self.state_class = CantStopState
        elif rules == "reference":
            from .reference_rules import ReferenceCantStopState
            self.state_class = ReferenceCantStopState
        else:
            raise ValueError(f"rules must be 'paper' or 'reference', got {rules!r}")

    def new_initial_state(self, rng: random.Random | None = None) -> CantStopState:
        return self.state_class(rng, max_moves=self.max_moves)

    def state_from_dict(self, data: dict[str, Any],
                        rng: random.Random | None = None) -> CantStopState:
        return self.state_class.from_dict(data, rng, max_moves=self.max_moves)

    def action_from_json(self, value: Any):
        if value in ROLL_OR_STOP:
            return value
        if isinstance(value, (list, tuple)) and 1 <= len(value) <= 2 and all(
                isinstance(c, int) and 2 <= c <= 12 for c in value):
            return _action(tuple(value))
        raise ValueError(f"not a Can't Stop action: {value!r}")

    def __repr__(self) -> str:
        rules = "" if self.rules == "paper" else f", rules={self.rules!r}"
        return f"CantStop(max_moves={self.max_moves}{rules})"
