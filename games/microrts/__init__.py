"""microRTS through the real Java engine (JPype): maps, built-in bots, matches.

Importing this package starts no JVM; the first match (in whichever process
plays it) does.
"""

from functools import partial

from ..spec import CLISpec, EngineSpec, GameSpec, QDSpec, SynthesisSpec, register_game
from .engine import (
    BOTS,
    CLASSPATH_ENV,
    CYCLE_CAP,
    MAPS,
    PAPER_MAPS,
    EngineError,
    map_path,
    start_jvm,
)
from .game import MicroRTS
from .match import BotSpec, play_microrts_match, play_microrts_matches

PLAYERS = {name: partial(BotSpec, name) for name in BOTS}

register_game(GameSpec(
    name="microrts",
    summary=("microRTS through its Java engine (the sketch-learning paper, Aleixo 2023; "
             "game parameters map, utt, interpreter)"),
    factory="games.microrts.game:MicroRTS",
    players="games.microrts:PLAYERS",
    synthesis=SynthesisSpec(
        languages={"scripts": "gp.languages.microrts:MicroRTSProgramPlayer"},
        language_aliases={"seed001": "scripts"},
        default_target="coac",
        default_matches=2,
        cloning={"O": "games.microrts.counts:observation_cloning"},
        behaviour="games.microrts.behaviour:BEHAVIOUR",
    ),
    qd=QDSpec(features="games.microrts.features:FEATURES",
              levels="games.microrts.features:LEVELS"),
    cli=CLISpec(notes="games.microrts:help_notes",
                recorder="games.microrts.counts:record_counts",
                move_cap="max_cycles",
                player_prefixes={"java": "games.microrts.engine:java_bot"}),
    engines=EngineSpec(kind="jvm", reference="games.microrts.match:JVMEngine"),
))


def help_notes() -> str:
    """Maps and seeds, for ``stratsynth play --help``."""
    from .match import NONDETERMINISTIC_BOTS

    others = [m for m in MAPS if m not in PAPER_MAPS]
    return (f"maps (--map): {', '.join(PAPER_MAPS)} (the papers'), {', '.join(others)}, or a "
            f"map file; --seed fixes every match except with "
            f"{', '.join(sorted(NONDETERMINISTIC_BOTS))} (unseedable randomness); "
            f"java:CLASS plays any Java AI class on the class path, and "
            f"{CLASSPATH_ENV} puts jars before gym-microrts' (another engine or bot build)")

__all__ = ["BOTS", "CYCLE_CAP", "MAPS", "PLAYERS", "BotSpec", "EngineError", "MicroRTS",
           "map_path", "play_microrts_match", "play_microrts_matches", "start_jvm"]
