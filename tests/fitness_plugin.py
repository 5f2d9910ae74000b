"""A user fitness function, plugged in by name in tests (``tests.fitness_plugin:brevity``)."""

CALLS = []


def brevity(strategy, *, game, seed):
    """Prefers short programs: a fitness a user could write without touching our code."""
    CALLS.append(seed)
    return 1.0 / len(strategy.text)


def fails_on_long(strategy, *, game, seed):
    """Fails (four ways) on some programs: raises, None, NaN, a text."""
    n = len(strategy.text)
    if n % 5 == 0:
        raise ZeroDivisionError("no good")
    return (None, None, float("nan"), "long", 1.0 / n)[n % 5]


def with_weight(strategy, *, game, seed, weight):
    """A fitness with a parameter, given as ``functools.partial(with_weight, weight=...)``."""
    return weight / len(strategy.text)


def slow(strategy, *, game, seed):
    """Never returns within a short time limit on long programs."""
    import time

    if len(strategy.text) % 2:
        time.sleep(30)
    return 1.0


def exits(strategy, *, game, seed):
    """Calls ``sys.exit`` on some programs (a script's habit, inside a fitness)."""
    import sys

    if len(strategy.text) % 2:
        sys.exit(0)
    return 1.0 / len(strategy.text)


def announces_then_sleeps(strategy, *, game, seed):
    """Touches the file named by ``$FITNESS_MARK``, then sleeps: a run seen working."""
    import os
    import time
    from pathlib import Path

    Path(os.environ["FITNESS_MARK"]).touch()
    time.sleep(60)
    return 1.0


NOT_A_FUNCTION = 5
"""A name that is not a function (``tests.fitness_plugin:NOT_A_FUNCTION`` is refused)."""


def c(strategy, *, game, seed):
    """A fitness named like the cloning score C: its values would be logged under a
    built-in metric's name, so it is refused."""
    return 1.0


def always_nan(strategy, *, game, seed):
    """Fails on every program: a run with no best program."""
    return float("nan")
