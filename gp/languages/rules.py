"""A game-independent rule language over move / won / drawn (Hocquette and Muggleton), as typed GP.

A rule judges a move of the player to act, from position A to position B (the
opponent to act at B). Two types keep the quantifiers honest:

* ``After``  – a condition on B (after my move, the opponent to act):
  ``won`` (I have won at B), ``drawn``, ``not``, ``and``, ``or``,
  ``every_reply(C: …)`` (every opponent move B→C satisfies …; true when B is
  over), ``some_reply(C: …)``, and the rules already learned (``win1``, ``win2``, …,
  dependent learning);
* ``Reply`` – a condition on C (after the opponent's reply, me to act):
  ``lost`` (the opponent has won at C), ``drawn``, ``not``, ``and``, ``or``,
  ``some_move(B: …)`` (I have a move C→B satisfying …).

The MIGO paper's rules read, for example::

    win1: won
    win2: not(some_reply(lost)) and every_reply(some_move(win1))

Only the game's move generator, its won and drawn classifiers are used: the
learner knows the rules of the game and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gp.dsl import DSL
from gp.syntax import Syntax


class Rule:
    """Root type: a rule about a move A -> B."""


class After:
    """A condition on the position after my move."""


class Reply:
    """A condition on the position after the opponent's reply."""


class Positions:
    """Move / won / drawn for one game, on (board, player-to-move) keys, memoised."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self._moves: dict = {}
        self._outcome: dict = {}

    def successors(self, key: tuple) -> list[tuple]:
        hit = self._moves.get(key)
        if hit is None:
            board, player = key
            if self.outcome(key) is not None:
                hit = []
            else:
                hit = [(self.rules.play(board, player, m), 1 - player)
                       for m in self.rules.moves(board, player)]
            self._moves[key] = hit
        return hit

    def outcome(self, key: tuple):
        if key not in self._outcome:
            self._outcome[key] = self.rules.outcome(*key)
        return self._outcome[key]

    def won_by_mover(self, key: tuple) -> bool:
        """The player who just moved (not the one to act) has won."""
        return self.outcome(key) == 1 - key[1]

    def drawn(self, key: tuple) -> bool:
        return self.outcome(key) == "draw"


# Closures take (positions, key, unused) -> bool: the DSL's (state, column, action) slots.
def _won(p, k, _):
    return p.won_by_mover(k)


def _drawn(p, k, _):
    return p.drawn(k)


def _leaf(fn):
    return lambda: fn


def _not(x):
    return lambda p, k, a: not x(p, k, a)


def _and(x, y):
    return lambda p, k, a: x(p, k, a) and y(p, k, a)


def _or(x, y):
    return lambda p, k, a: x(p, k, a) or y(p, k, a)


def _every(x):
    return lambda p, k, a: all(x(p, c, a) for c in p.successors(k))


def _some(x):
    return lambda p, k, a: any(x(p, c, a) for c in p.successors(k))


def _root(x):
    return x


def build_rules_dsl(learned: Sequence[tuple[str, Callable]] = (), name: str = "rules",
                    max_height: int = 6, max_size: int = 24) -> DSL:
    """The rule language with the already learned rules as ``After`` predicates."""
    dsl = DSL(name, Rule, max_height=max_height, max_size=max_size)
    dsl.primitive("rule", [After], Rule, Syntax("lines", labels=("rule",)), _root)
    for t, prefix in ((After, "b"), (Reply, "c")):
        dsl.primitive(f"not_{prefix}", [t], t, Syntax("call", "not"), _not)
        dsl.primitive(f"and_{prefix}", [t, t], t, Syntax("binop", "and"), _and)
        dsl.primitive(f"or_{prefix}", [t, t], t, Syntax("binop", "or"), _or)
        dsl.terminal(f"drawn_{prefix}", t, Syntax("lit", "drawn"), _leaf(_drawn))
    dsl.terminal("won_b", After, Syntax("lit", "won"), _leaf(_won))
    dsl.terminal("lost_c", Reply, Syntax("lit", "lost"), _leaf(_won))  # the replier won
    dsl.primitive("every_reply", [Reply], After, Syntax("call", "every_reply"), _every)
    dsl.primitive("some_reply", [Reply], After, Syntax("call", "some_reply"), _some)
    dsl.primitive("some_move", [After], Reply, Syntax("call", "some_move"), _some)
    for label, fn in learned:
        dsl.terminal(label, After, Syntax("lit", label), _leaf(fn))
    dsl.min_heights()
    return dsl
