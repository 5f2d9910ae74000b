"""A game's parameter-vector space: what ``stratsynth qd GAME`` searches when it
searches a vector of discrete values instead of programs (Tribes: the 11 Research
and Spawn script weights of P-MCTS(PU)).

A game declares one ``VectorSpace`` in its ``QDSpec.space``; the QD layer
(``qd.vectors``) reads its fields and builds the emitter. A solution travels as
text (``"0,0.25,1,..."``), so archives, the evaluator log and resume handle it as
they handle a program.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .spec import resolve


def vector_text(vector: Sequence[float]) -> str:
    """A vector as its solution text: ``0,0.25,1`` (``repr``-exact for grid values)."""
    return ",".join(f"{float(v):g}" for v in vector)


def parse_vector(text: str, length: int | None = None) -> tuple[float, ...]:
    try:
        vector = tuple(float(v) for v in str(text).split(","))
    except ValueError:
        raise ValueError(f"'{text}' is not a comma-separated vector of numbers") from None
    if length is not None and len(vector) != length:
        raise ValueError(f"'{text}' has {len(vector)} values, {length} expected")
    return vector


@dataclass(frozen=True, kw_only=True)
class VectorSpace:
    """What ``stratsynth qd`` needs to search a game's parameter vectors (the QD
    layer builds the search from these fields: ``qd.vectors.emitter``).

    Args:
        names: one name per coordinate (shown with the elites).
        values: the values every coordinate may take.
        features: behaviour feature name -> (low, high) range of the archive.
        scorer: reference to ``build(game_params, target, names, matches, seed, map,
            out) -> metric`` (with ``subject=NAME`` too where the space has
            ``subjects``); the metric maps a solution text to ``(objective, [feature
            values])`` and may have ``many(texts)`` and ``remember(text, result)``
            (``gp.evaluator.Evaluator`` uses both).
        random_init: R_M, random vectors after the one-hot ones.
        target: default opponent spec of the search (None: the game's default).
        matches: default games per evaluation.
        objective: what the objective is, for the heatmap's colour bar.
        subject: what a solution parametrises, for the heatmap's title (text; the
            player is chosen from ``subjects``).
        subjects: the players whose vector may be searched (``stratsynth qd
            --subject``), the first the default; empty: the scorer builds one player
            and takes no ``subject``.
    """

    names: tuple[str, ...]
    values: tuple[float, ...]
    features: Mapping[str, tuple[float, float]]
    scorer: str
    random_init: int = 40
    target: str | None = None
    matches: int = 20
    objective: str = "win rate"
    subject: str = "weights"
    subjects: tuple[str, ...] = ()

    def metric(self, game_params: dict, target: str, names: Sequence[str], matches: int,
               seed: int, map, out, subject: str | None = None) -> Callable:
        """The scorer built for these settings; ``subject``: the player whose vector is
        searched (None: the space's default, ``subjects[0]``)."""
        build = resolve(self.scorer)
        chosen = self.chosen(subject)
        if chosen is None:
            return build(game_params, target, list(names), matches, seed, map, out)
        return build(game_params, target, list(names), matches, seed, map, out,
                     subject=chosen)

    def chosen(self, subject: str | None) -> str | None:
        """``subject``, or for None the default (``subjects[0]``; None for a space
        without subjects); a name that is not one of ``subjects`` is a ``ValueError``
        naming the setting and the subjects."""
        if subject is None:
            return self.subjects[0] if self.subjects else None
        if subject not in self.subjects:
            known = (f"one of {', '.join(self.subjects)}" if self.subjects
                     else "this search has one player")
            raise ValueError(f"subject '{subject}' is not a player whose vector is searched "
                             f"({known})")
        return subject

    def present(self, text: str) -> str:
        """A solution with its coordinate names, for ``best.txt``."""
        return "\n".join(f"{n} = {v:g}" for n, v in zip(self.names, parse_vector(text)))
