"""A human player in the terminal, for any game with the State API.

Shows the position (``str(state)``), numbers the legal actions, and asks again on
bad input; it never crashes a match. End of input (Ctrl-D) or ``q`` raises
``HumanQuit``, which is not an error of the match but the player leaving.
"""

from __future__ import annotations

from collections.abc import Callable

from .api import Action, State


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
        for i, action in enumerate(legal, 1):
            self._write(f"  {i}) {state.action_to_string(action)}")
        while True:
            try:
                answer = self._read(f"your move [1-{len(legal)}, q to quit]: ").strip()
            except EOFError:
                raise HumanQuit("end of input") from None
            if answer.lower() in ("q", "quit", "exit"):
                raise HumanQuit("quit")
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self._write(f"'{answer}' is not a move: type a number from 1 to {len(legal)}")

    def __repr__(self) -> str:
        return "HumanPlayer()"
