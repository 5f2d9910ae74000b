"""A user fitness function, plugged in by name in tests (``tests.fitness_plugin:brevity``)."""

CALLS = []


def brevity(strategy, *, game, seed):
    """Prefers short programs: a fitness a user could write without touching our code."""
    CALLS.append(seed)
    return 1.0 / len(strategy.text)
