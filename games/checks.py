"""The plug-in contract of a game, checked: what ``stratsynth check-game NAME`` runs.

Like OpenSpiel's ``random_sim_test`` or PettingZoo's ``api_test``, shipped with the
library so that a game written outside the repository can be checked before any
run depends on it. Each check returns ``Check`` records (one line each) instead of
raising, so one report shows every problem at once:

* the spec: every reference it holds resolves to what the tools expect;
* the rules: seeded random playouts keep the State API's invariants
  (``games.conformance``), actions and states survive JSON (match records);
* the players: every built-in player pickles (players travel to worker
  processes), picks legal actions from both seats and leaves the state it is
  shown unchanged;
* the languages: random programs read back from their text, build players with
  ``cls(tree, name=...)`` whose ``.text`` is that text, pickle by text and play;
* the engines: each fast engine gives the reference engine's results;
* the features: finite and within their declared range on final states.

Games whose engine plays whole matches (``EngineSpec(kind="jvm")``, no per-move
states) are checked through matches on that engine; the fast engines a game
declares (``EngineSpec.fast``) must give the reference engine's results.
"""

from __future__ import annotations

import inspect
import math
import pickle
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .api import GameBase, RandomStrategy, declared, reset_player
from .conformance import check_random_playouts
from .spec import GameSpec, resolve


@dataclass(frozen=True)
class Check:
    """One checked property: ``passed`` or not, and one line saying what was seen."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True, kw_only=True)
class CheckSettings:
    """How much ``check_game`` plays.

    Args:
        seed: seed of every random choice (playouts, programs, matches).
        playouts: random playouts of the rules check (and of the features check).
        programs: random programs per language.
        decisions: decisions each built-in player makes per seat at most (a long
            match is cut there).
        engine_matches: for games with their own engine, play whole matches (the
            microRTS JVM); False checks the spec and the languages only.
    """

    seed: int = 0
    playouts: int = 200
    programs: int = 20
    decisions: int = 200
    engine_matches: bool = True


def check_game(spec: GameSpec, game: Any, settings: CheckSettings | None = None
               ) -> Iterator[Check]:
    """Every check of ``game`` (built from ``spec``'s factory), in report order."""
    settings = settings or CheckSettings()
    yield from check_spec(spec, game)
    if spec.engines.kind == "python":
        yield from check_rules(game, settings)
    else:
        yield Check("rules", True, f"per move: not applicable (the '{spec.engines.kind}' "
                    "engine plays whole matches); checked through its matches")
    yield from check_players(spec, game, settings)
    yield from check_languages(spec, game, settings)
    if spec.engines.fast and spec.engines.kind == "python":
        yield from check_fast_engines(spec, game, settings)
    if spec.qd.features is not None:
        yield from check_features(spec, game, settings)


# ---- the spec ----------------------------------------------------------------------------
def _attempt(name: str, run: Callable[[], str]) -> Check:
    """A check from a function that returns what it saw, or raises what went wrong."""
    try:
        return Check(name, True, run())
    except Exception as err:  # noqa: BLE001 - every failure becomes a line of the report
        return Check(name, False, _one_line(err))


def _one_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    text = lines[0] if lines else ""
    if isinstance(err, AssertionError):
        return text or "assertion failed"
    return type(err).__name__ + (f": {text}" if text else "")


def _callable(reference: str) -> str:
    value = resolve(reference)
    if not callable(value):
        raise TypeError(f"{reference} is a {type(value).__name__}, not a function or class")
    return reference


def check_spec(spec: GameSpec, game: Any) -> Iterator[Check]:
    """Every reference of the spec resolves, and the game object speaks the Game API."""
    synthesis, qd, cli, engines = spec.synthesis, spec.qd, spec.cli, spec.engines
    yield _attempt("spec factory", lambda: _factory(spec, game))
    yield _attempt("spec players", lambda: _players_table(spec))
    yield _attempt("spec default target", lambda: _default_target(spec))
    for dsl, reference in synthesis.languages.items():
        yield _attempt(f"spec language {dsl}", lambda r=reference: _language_class(r))
    for letter, reference in synthesis.cloning.items():
        yield _attempt(f"spec cloning {letter}", lambda r=reference, x=letter: _cloning(x, r))
    if qd.features is not None:
        yield _attempt("spec features", lambda: _feature_table(spec))
    if qd.levels is not None:
        yield _attempt("spec levels", lambda: _levels(spec))
    if qd.space is not None:
        yield _attempt("spec qd space", lambda: _resolves(qd.space))
    for prefix, reference in cli.player_prefixes.items():
        yield _attempt(f"spec player prefix {prefix}:", lambda r=reference: _callable(r))
    for command, reference in cli.commands.items():
        yield _attempt(f"spec command {command}", lambda r=reference: _callable(r))
    if cli.recorder is not None:
        yield _attempt("spec recorder", lambda: _callable(cli.recorder))
    if cli.notes is not None:
        yield _attempt("spec notes", lambda: _notes(spec))
    if engines.reference is not None:
        yield _attempt("spec engine reference", lambda: _engine(engines.reference))
    for choice, reference in engines.fast.items():
        yield _attempt(f"spec engine {choice}", lambda r=reference: _engine(r))
    yield _attempt("spec settings", lambda: _settings(spec))


def _factory(spec: GameSpec, game: Any) -> str:
    factory = resolve(spec.factory)
    parameters = [p for p in inspect.signature(factory).parameters if p != "self"]
    move_cap = spec.cli.move_cap
    if move_cap is not None and move_cap not in parameters:
        raise ValueError(f"move_cap '{move_cap}' is not a parameter of {spec.factory} "
                         f"({', '.join(parameters) or 'none'})")
    if not isinstance(getattr(game, "name", None), str) or not game.name:
        raise TypeError("the game object has no 'name' (a str)")
    if (spec.engines.reference or spec.engines.fast) and game.name != spec.name:
        raise ValueError(f"the game object is named '{game.name}', not '{spec.name}': the "
                         "match runner finds the engines the spec declares by that name")
    if declared(game, "num_players", GameBase) != 2:
        raise ValueError(f"num_players is {game.num_players!r}; the tools play two-player "
                         "games")
    if spec.engines.kind == "python":
        missing = [m for m in ("new_initial_state", "state_from_dict", "action_from_json")
                   if not callable(getattr(game, m, None))]
        if missing:
            raise TypeError(f"the game object lacks {', '.join(missing)} (games.api.Game)")
    elif spec.engines.reference is None:
        raise TypeError(f"a '{spec.engines.kind}' game has no states: EngineSpec.reference "
                        "must name the engine that plays its matches")
    return f"{spec.factory} (parameters: {', '.join(parameters) or 'none'})"


def _players_table(spec: GameSpec) -> str:
    players = resolve(spec.players)
    if not isinstance(players, Mapping) or not players:
        raise TypeError(f"{spec.players} must be a non-empty dict: spec name -> factory()")
    bad = [name for name, factory in players.items()
           if not isinstance(name, str) or ":" in name or not callable(factory)]
    if bad:
        raise TypeError(f"{spec.players}: {', '.join(map(str, bad))} must map a name "
                        "without ':' to a factory taking no argument")
    return f"{len(players)} built-in players: {', '.join(players)}"


def _default_target(spec: GameSpec) -> str:
    players = resolve(spec.players)
    target = spec.synthesis.default_target
    prefix, sep, _ = target.partition(":")
    if target in players or (sep and prefix in spec.cli.player_prefixes):
        return target
    raise ValueError(f"default target '{target}' is not a built-in player "
                     f"({', '.join(players)})")


def _language_class(reference: str) -> str:
    cls = resolve(reference)
    for method in ("default_dsl", "parse_program"):
        if not callable(getattr(cls, method, None)):
            raise TypeError(f"{reference} has no {method}() (subclass gp.dsl.ProgramPlayer)")
    dsl = cls.default_dsl()
    for method in ("random_program", "to_text", "parse", "compile"):
        if not callable(getattr(dsl, method, None)):
            raise TypeError(f"{reference}'s language has no {method}() (a gp.dsl.DSL)")
    return f"{reference} (language {dsl.name})"


def _feature_table(spec: GameSpec) -> str:
    table = spec.feature_table()
    if not isinstance(table, Mapping) or not table:
        raise TypeError(f"{spec.qd.features} must be a non-empty dict: "
                        "name -> (function(state, seat) or None, (low, high))")
    for name, entry in table.items():
        try:
            function, (low, high) = entry
        except (TypeError, ValueError):
            raise TypeError(f"feature '{name}' must be (function, (low, high))") from None
        if function is not None and not callable(function):
            raise TypeError(f"feature '{name}': {function!r} is not a function")
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"feature '{name}': range ({low}, {high}) is not low < high")
    return f"{len(table)} features: {', '.join(table)}"


def _levels(spec: GameSpec) -> str:
    levels = spec.feature_levels()
    values = list(levels.values()) if isinstance(levels, Mapping) else [levels]
    for seq in values:
        numbers = list(seq)
        if not numbers or numbers != sorted(numbers):
            raise ValueError(f"{spec.qd.levels}: levels must be increasing numbers, "
                             f"got {numbers}")
    return spec.qd.levels


def _cloning(letter: str, reference: str) -> str:
    if letter not in ("A", "O"):
        raise ValueError(f"cloning score '{letter}' is neither A (actions) nor O (observations)")
    return _callable(reference)


def _resolves(reference: str) -> str:
    resolve(reference)
    return reference


def _notes(spec: GameSpec) -> str:
    text = resolve(spec.cli.notes)()
    if not isinstance(text, str) or not text.strip():
        raise TypeError(f"{spec.cli.notes}() must return the help text (a str)")
    return spec.cli.notes


def _engine(reference: str) -> str:
    from .engines import Engine

    engine = resolve(reference)()
    if not isinstance(engine, Engine):
        raise TypeError(f"{reference}() is not a games.engines.Engine")
    pickle.loads(pickle.dumps(engine))  # it travels to workers with the jobs
    return reference


def _settings(spec: GameSpec) -> str:
    from .engines import ENGINES

    kind, matches = spec.engines.kind, spec.synthesis.default_matches
    if kind not in ("python", "jvm"):
        raise ValueError(f"engine kind '{kind}' is neither python nor jvm")
    unknown = sorted(set(spec.engines.fast) - set(ENGINES))
    if unknown:
        raise ValueError(f"fast engine choice(s) {', '.join(unknown)} not among "
                         f"{', '.join(ENGINES)}")
    if not isinstance(matches, int) or matches < 1:
        raise ValueError(f"default_matches must be a positive whole number, got {matches!r}")
    languages = spec.synthesis.languages
    dsl = spec.synthesis.paper_settings.get("dsl")
    if dsl is not None and dsl not in languages:
        raise ValueError(f"paper_settings names language '{dsl}', which the game does not "
                         f"declare ({', '.join(languages) or 'none'})")
    return f"engine {kind}, {matches} matches per evaluation"


# ---- the rules ---------------------------------------------------------------------------
def check_rules(game: Any, settings: CheckSettings) -> Iterator[Check]:
    """Seeded random playouts with the State API's invariants at every step."""
    def run() -> str:
        stats = check_random_playouts(game, settings.playouts, settings.seed)
        wins = "/".join(map(str, stats["wins"]))
        return (f"{stats['playouts']} random playouts: wins by seat {wins}, draws "
                f"{stats['draws']}, capped {stats['capped']}, "
                f"{stats['moves'] / max(1, stats['playouts']):.1f} moves on average")
    yield _attempt("rules", run)


# ---- the players -------------------------------------------------------------------------
def _interactive(player: Any) -> bool:
    from .human import HumanPlayer

    return isinstance(player, HumanPlayer)


def check_players(spec: GameSpec, game: Any, settings: CheckSettings) -> Iterator[Check]:
    """Every built-in player plays from both seats (against random, or for a game with
    its own engine, against the default target)."""
    try:
        players = resolve(spec.players)
    except Exception:  # noqa: BLE001 - reported by check_spec
        return
    for name, factory in players.items():
        yield _attempt(f"player {name}", lambda f=factory: _player(spec, game, f, settings))


def _player(spec: GameSpec, game: Any, factory: Callable[[], Any], settings: CheckSettings
            ) -> str:
    player = factory()
    if _interactive(player):
        return "skipped: reads the terminal"
    try:
        pickle.loads(pickle.dumps(player))
    except Exception as err:  # noqa: BLE001
        raise AssertionError(f"the player does not pickle ({_one_line(err)}): players are "
                             "shipped to worker processes") from None
    if spec.engines.kind != "python":
        if not settings.engine_matches:
            return "built and pickled; matches skipped"
        return _engine_match(spec, game, player, settings)
    decisions = [_decisions(game, player, seat, settings) for seat in (0, 1)]
    return f"{decisions[0]} + {decisions[1]} legal decisions from seats 0 and 1"


def _decisions(game: Any, player: Any, seat: int, settings: CheckSettings) -> int:
    """Play ``player`` in ``seat`` against random; count its decisions (at most the cap)."""
    from .match import match_seeds

    chance, own, other = match_seeds(settings.seed, seat)
    opponent = RandomStrategy(other)
    reset_player(player, own)
    state = game.new_initial_state(random.Random(chance))
    made = 0
    while not state.is_terminal() and made < settings.decisions:
        if state.current_player() != seat:
            state.apply_action(opponent(state))
            continue
        legal = list(state.legal_actions())
        before = state.to_dict()
        action = player(state)
        if state.to_dict() != before:
            raise AssertionError(f"decision {made + 1} (seat {seat}, move "
                                 f"{state.move_number()}) changed the state it was shown")
        if action not in legal:
            raise AssertionError(f"decision {made + 1} (seat {seat}, move "
                                 f"{state.move_number()}): {action!r} is not a legal action")
        state.apply_action(action)
        made += 1
    return made


def _engine_match(spec: GameSpec, game: Any, player: Any, settings: CheckSettings,
                  behavior: dict | None = None):
    """One match of ``player`` against the default target on the game's own engine."""
    from .match import play_matches

    target = resolve(spec.players)[spec.synthesis.default_target]()
    summary = play_matches(game, [player, target], 1, settings.seed, behavior=behavior)
    if summary.matches != 1:
        raise AssertionError(f"the engine reported {summary.matches} matches for 1")
    if summary.forfeits[0]:
        raise AssertionError(f"forfeited against {spec.synthesis.default_target}: "
                             f"{summary.first_error[0]}")
    if behavior is not None:
        return summary
    return f"1 match against {spec.synthesis.default_target} on the game's engine, no forfeit"


# ---- the languages -----------------------------------------------------------------------
def check_languages(spec: GameSpec, game: Any, settings: CheckSettings) -> Iterator[Check]:
    """Random programs of every language: text, players, pickling, play."""
    for dsl in spec.synthesis.languages:
        yield _attempt(f"language {dsl}", lambda d=dsl: _language(spec, game, d, settings))


def _language(spec: GameSpec, game: Any, name: str, settings: CheckSettings) -> str:
    cls = spec.language(name)
    dsl = cls.default_dsl()
    rng = random.Random(f"{settings.seed}:{name}")
    players = []
    for index in range(settings.programs):
        tree = dsl.random_program(rng)
        players.append(_program_player(cls, dsl, tree, index))
    if not players:
        return "no program asked for"
    if spec.engines.kind != "python":
        if not settings.engine_matches:
            return f"{len(players)} random programs read back, build players and pickle"
        _engine_match(spec, game, players[0], settings)
        return (f"{len(players)} random programs read back, build players and pickle; "
                f"one plays a match on the game's engine")
    forfeits = _play_programs(game, players[:min(len(players), 5)], settings)
    note = f", {forfeits} of them forfeited (a broken program loses)" if forfeits else ""
    return (f"{len(players)} random programs read back, build players and pickle; "
            f"{min(len(players), 5)} played a match against random{note}")


def _program_player(cls: type, dsl: Any, tree: Sequence, index: int) -> Any:
    where = f"program {index}"
    text = dsl.to_text(tree)
    try:
        back = dsl.parse(text, source=where)
    except ValueError as err:
        raise AssertionError(f"{where} does not parse back ({_one_line(err)}): "
                             f"{_short(text)}") from None
    if dsl.to_text(back) != text:
        raise AssertionError(f"{where}: to_text(parse(text)) != text for {_short(text)}")
    canonical = getattr(dsl, "canonical", None)
    if back != tree and (canonical is None or canonical(tree) != back):
        raise AssertionError(f"{where}: parse(to_text(p)) != p for {_short(text)} (two "
                             "primitives print the same)")
    if cls.parse_program(text, source=where) != back:
        raise AssertionError(f"{where}: {cls.__name__}.parse_program differs from parse")
    try:
        player = cls(tree, name=f"check-{index}")
    except TypeError as err:
        raise AssertionError(f"{cls.__name__}(tree, name=...) refused: {err}") from None
    if getattr(player, "text", None) != text:
        raise AssertionError(f"{where}: player.text is not the program's text")
    if str(player) != text:
        raise AssertionError(f"{where}: str(player) is not the program's text")
    try:
        payload = pickle.dumps(player)
        copy = pickle.loads(payload)
    except Exception as err:  # noqa: BLE001
        raise AssertionError(f"{where}: the player does not pickle ({_one_line(err)}); "
                             "pickle it by its text (__getstate__/__setstate__)") from None
    if text.encode("utf-8") not in payload:
        raise AssertionError(f"{where}: the player pickles without its text; pickle it by "
                             "its text (__getstate__/__setstate__), which every version reads")
    if type(copy) is not type(player) or copy.text != text:
        raise AssertionError(f"{where}: the unpickled player is not the same program")
    return player


def _short(text: str) -> str:
    flat = " / ".join(line.strip() for line in text.splitlines())
    return repr(flat if len(flat) <= 100 else flat[:97] + "...")


def _play_programs(game: Any, players: Sequence[Any], settings: CheckSettings) -> int:
    from .match import play_match

    forfeits = 0
    for index, player in enumerate(players):
        result = play_match(game, (player, RandomStrategy()), settings.seed, index)
        forfeits += result.forfeit == 0
    return forfeits


# ---- the fast engines --------------------------------------------------------------------
def check_fast_engines(spec: GameSpec, game: Any, settings: CheckSettings) -> Iterator[Check]:
    """Every engine choice gives the reference engine's results on the same matches."""
    for choice in spec.engines.fast:
        yield _attempt(f"engine {choice}", lambda c=choice: _same_results(spec, game, c,
                                                                           settings))


def _same_results(spec: GameSpec, game: Any, choice: str, settings: CheckSettings) -> str:
    from .match import play_matches

    players = resolve(spec.players)
    target = spec.synthesis.default_target
    pairings = [(players[target](), RandomStrategy())]
    for name in spec.synthesis.languages:
        cls = spec.language(name)
        rng = random.Random(f"{settings.seed}:{name}:{choice}")
        pairings.append((cls(cls.default_dsl().random_program(rng), name=f"{name}-program"),
                         players[target]()))
    matches = 20
    for pair in pairings:
        reference = play_matches(game, pair, matches, settings.seed, engine="reference")
        fast = play_matches(game, pair, matches, settings.seed, engine=choice)
        seen = [(s.wins, s.draws, s.capped, s.forfeits, s.total_moves)
                for s in (reference, fast)]
        if seen[0] != seen[1]:
            raise AssertionError(f"{pair[0]!r} vs {pair[1]!r}: (wins, draws, capped, "
                                 f"forfeits, moves) {seen[0]} on the reference engine, "
                                 f"{seen[1]} with engine={choice}")
    return (f"{len(pairings)} pairings x {matches} matches: the reference engine's results "
            "(the default target, and a random program of each language)")


# ---- the features ------------------------------------------------------------------------
def check_features(spec: GameSpec, game: Any, settings: CheckSettings) -> Iterator[Check]:
    """Each feature is finite and within its declared range where matches end."""
    try:
        table = spec.feature_table()
    except Exception:  # noqa: BLE001 - reported by check_spec
        return
    yield _attempt("features", lambda: _features(spec, game, table, settings))


def _features(spec: GameSpec, game: Any, table: Mapping, settings: CheckSettings) -> str:
    if spec.engines.kind != "python":
        if not settings.engine_matches:
            return "skipped: engine matches not asked for"
        player = resolve(spec.players)[spec.synthesis.default_target]()
        summary = _engine_match(spec, game, player, settings, behavior=table)
        values = [(name, seat, summary.behavior(seat).get(name)) for name in table
                  for seat in (0, 1)]
        _in_ranges(table, values, "the engine's match")
        return f"{len(table)} features in range on one match of the game's engine"
    rng = random.Random(settings.seed)
    ends = max(1, min(settings.playouts, 50))
    for playout in range(ends):
        state = game.new_initial_state(random.Random(rng.getrandbits(64)))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        values = [(name, seat, function(state, seat)) for name, (function, _) in table.items()
                  for seat in (0, 1)]
        _in_ranges(table, values, f"the final state of playout {playout}")
    return f"{len(table)} features in range on the final states of {ends} random playouts"


def _in_ranges(table: Mapping, values: Sequence[tuple[str, int, Any]], where: str) -> None:
    for name, seat, value in values:
        low, high = table[name][1]
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise AssertionError(f"feature '{name}' of seat {seat} is {value!r} on {where}, "
                                 "not a number") from None
        if not (math.isfinite(number) and low <= number <= high):
            raise AssertionError(f"feature '{name}' of seat {seat} is {number} on {where}, "
                                 f"outside its range ({low}, {high})")


__all__ = ["Check", "CheckSettings", "check_fast_engines", "check_features", "check_game",
           "check_languages", "check_players", "check_rules", "check_spec"]
