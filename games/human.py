"""A human player in the terminal, for any game with the State API.

Shows the position (``str(state)``), numbers the legal actions, and asks again on
bad input; it never crashes a match. End of input (Ctrl-D) or ``q`` raises
``HumanQuit``, which is not an error of the match but the player leaving.
Actions that are board cells (whole numbers) keep their number all game (cell
``k`` is always ``k+1``); other actions are numbered in the order listed.
``play_with_human`` runs matches in which a person sees every move of the
opponent, what chance did (a state may describe it with ``describe_transition``),
their own seat and the final position.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .api import Action, Game, State, Strategy, describe_transition, reset_player
from .match import MatchSummary, match_seeds, seats_for


class HumanQuit(BaseException):
    """The human left the game (``q`` or end of input); not a forfeit by a program."""


class HumanPlayer:
    name = "human"

    def __init__(self, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self._read = read
        self._write = write

    def __call__(self, state: State) -> Action:
        legal = list(state.legal_actions())
        self._write("")
        self._write(str(state))
        if len(legal) == 1:
            self._write(f"only move: {state.action_to_string(legal[0])}")
            return legal[0]
        keys = _keys(legal)
        for key, action in zip(keys, legal):
            self._write(f"  {key}) {state.action_to_string(action)}")
        choices = dict(zip(map(str, keys), legal))
        while True:
            try:
                answer = self._read(f"your move [{_span(keys)}, q to quit]: ").strip()
            except EOFError:
                raise HumanQuit("end of input") from None
            if answer.lower() in ("q", "quit", "exit"):
                raise HumanQuit("quit")
            if answer in choices:
                return choices[answer]
            self._write(f"'{answer}' is not a move: type one of {_span(keys)}")

    def __repr__(self) -> str:
        return "HumanPlayer()"


def _keys(legal: Sequence[Action]) -> list[int]:
    """Stable numbers for cell actions (k -> k+1), else 1..n in the listed order."""
    if all(isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in legal):
        return [a + 1 for a in legal]
    return list(range(1, len(legal) + 1))


def _span(keys: list[int]) -> str:
    return f"{keys[0]}-{keys[-1]}" if keys == list(range(keys[0], keys[-1] + 1)) else \
        ", ".join(map(str, keys))


def play_with_human(game: Game, players: Sequence[Strategy], specs: Sequence[str], n: int,
                    seed: int, write: Callable[[str], None] = print) -> MatchSummary:
    """``n`` matches, seats alternating and seeded as ``games.match.play_matches`` does,
    narrated for the person at the terminal: their seat, each opponent move, chance
    events, the final position and the result."""
    summary = MatchSummary()
    for index in range(n):
        order = seats_for(index)  # order[s] = which player sits in seat s
        seated = [players[order[0]], players[order[1]]]
        names = [specs[order[0]], specs[order[1]]]
        chance, *player_seeds = match_seeds(seed, index)
        for player, player_seed in zip(seated, player_seeds):
            reset_player(player, player_seed)
        state = game.new_initial_state(random.Random(chance))
        write(f"\n=== match {index + 1} of {n}: seat 0 {names[0]}, seat 1 {names[1]} ===")
        for seat, player in enumerate(seated):
            if isinstance(player, HumanPlayer):
                write(f"you are seat {seat} ({names[seat]})")
        forfeit = None
        while not state.is_terminal():
            seat = state.current_player()
            before = state.clone()
            if isinstance(seated[seat], HumanPlayer):
                state.apply_action(seated[seat](state))
            else:
                try:  # a program that fails forfeits, as in games.match
                    action = seated[seat](state)
                    text = state.action_to_string(action)
                    state.apply_action(action)
                except Exception as err:  # noqa: BLE001
                    write(f"seat {seat} ({names[seat]}) forfeits: {err}")
                    forfeit = seat
                    break
                write(f"seat {seat} ({names[seat]}) plays {text}")
            for line in describe_transition(state, before):
                write(line)
        write("\nfinal position:")
        write(str(state))
        winner = state.winner() if forfeit is None else 1 - forfeit
        capped = forfeit is None and state.is_capped()
        write("result: " + ("capped, no winner" if capped else "draw"
                            if winner is None else f"seat {winner} ({names[winner]}) wins"))
        summary.matches += 1
        summary.total_moves += state.move_number()
        if forfeit is not None:
            summary.forfeits[order[forfeit]] += 1
        if winner is not None:
            summary.record_win(order, winner)
        elif capped:
            summary.capped += 1
        else:
            summary.draws += 1
    return summary
