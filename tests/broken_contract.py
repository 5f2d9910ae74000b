"""A tic-tac-toe plug-in that breaks its contract on purpose, for ``check-game``'s tests.

Each part breaks one promise: a player answers an illegal action, another plays on
the state it is shown, a language has two terminals that print the same (so one of
them never reads back), a feature leaves its declared range, a reference names
nothing.
"""

from __future__ import annotations

from deap import gp

from games.api import RandomStrategy
from gp.dsl import DSL, ProgramPlayer, Syntax


class Illegal:
    def __call__(self, state):
        return 99


class Meddler:
    def __call__(self, state):
        legal = state.legal_actions()
        state.apply_action(legal[0])
        return state.legal_actions()[0]


PLAYERS = {"random": RandomStrategy, "illegal": Illegal, "meddler": Meddler}


class Cell:
    pass


def _cell(index):
    return lambda: (lambda state: index)


def _first_free(a, b):
    def choose(state):
        legal = state.legal_actions()
        return a(state) if a(state) in legal else b(state) if b(state) in legal else legal[0]
    return choose


AMBIGUOUS = DSL("ambiguous", Cell, max_height=3, max_size=15)
AMBIGUOUS.terminal("corner", Cell, Syntax("lit", "corner"), _cell(0))
AMBIGUOUS.terminal("corner_too", Cell, Syntax("lit", "corner"), _cell(8))
AMBIGUOUS.primitive("first_free", [Cell, Cell], Cell, Syntax("call", "first_free"), _first_free)


class AmbiguousPlayer(ProgramPlayer):
    LANGUAGE = AMBIGUOUS

    def __init__(self, program, name: str | None = None) -> None:
        self.tree = gp.PrimitiveTree(program)
        self.text = self.LANGUAGE.to_text(self.tree)
        self.name = name or "program"
        self._choose = self.LANGUAGE.compile(self.tree)

    def __call__(self, state):
        return self._choose(state)

    def __getstate__(self):
        return {"text": self.text, "name": self.name}

    def __setstate__(self, data):
        self.__init__(AMBIGUOUS.parse(data["text"]), data["name"])


def _moves(state, seat):
    return state.move_number()


FEATURES = {"moves": (_moves, (0.0, 4.0))}


class NodeNamesPlayer(AmbiguousPlayer):
    """Pickles its tree as node names instead of its text."""

    def __getstate__(self):
        return {"nodes": [node.name for node in self.tree], "name": self.name}

    def __setstate__(self, data):
        mapping = AMBIGUOUS.pset.mapping
        self.__init__([mapping[n] for n in data["nodes"]], data["name"])


class ForgetfulTicTacToe:
    """Tic-tac-toe whose restored states forget how many moves were played."""

    def __init__(self) -> None:
        from games.tictactoe import TicTacToe

        self._game = TicTacToe()
        self.name, self.num_players = "forgetful", 2

    def new_initial_state(self, rng=None):
        return self._game.new_initial_state(rng)

    def state_from_dict(self, data, rng=None):
        state = self._game.state_from_dict(data, rng)
        state.moves = 0
        return state

    def action_from_json(self, value):
        return self._game.action_from_json(value)
