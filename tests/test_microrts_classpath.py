"""Another engine or bot build on the microRTS class path (``STRATSYNTH_MICRORTS_CLASSPATH``)
and ``java:CLASS`` players: found by reading the jars, refused in one line when absent."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.players import make_player
from games.microrts.engine import (
    CLASSPATH_ENV,
    EngineError,
    engine_classpath,
    extra_classpath,
    java_bot,
)
from games.microrts.match import BotSpec

from .extras import need_microrts, need_microrts_maps

ROOT = Path(__file__).resolve().parents[1]


def _jar(path: Path, *classes: str) -> Path:
    with zipfile.ZipFile(path, "w") as jar:
        for name in classes:
            jar.writestr(name.replace(".", "/") + ".class", b"\xca\xfe\xba\xbe")
    return path


def test_extra_classpath_keeps_order_and_refuses_a_missing_entry(tmp_path, monkeypatch):
    first, second = _jar(tmp_path / "a.jar"), tmp_path / "classes"
    second.mkdir()
    monkeypatch.setenv(CLASSPATH_ENV, os.pathsep.join([str(first), "", str(second)]))
    assert extra_classpath() == [first, second]
    monkeypatch.setenv(CLASSPATH_ENV, os.pathsep.join([str(first), str(tmp_path / "gone.jar")]))
    with pytest.raises(EngineError, match="gone.jar' does not exist"):
        extra_classpath()


def test_extra_entries_go_before_the_engine_jar(tmp_path, monkeypatch):
    need_microrts_maps()
    jar = _jar(tmp_path / "engine.jar", "rts.GameState")
    monkeypatch.setenv(CLASSPATH_ENV, str(jar))
    path = engine_classpath()
    assert path[0] == jar and path[1].name == "microrts.jar"


def test_java_bot_finds_a_class_in_a_jar_or_a_folder(tmp_path, monkeypatch):
    need_microrts_maps()
    jar = _jar(tmp_path / "bots.jar", "ai.competition.COAC.CoacAI")
    folder = tmp_path / "classes"
    (folder / "my").mkdir(parents=True)
    (folder / "my" / "Bot.class").write_bytes(b"\xca\xfe\xba\xbe")
    monkeypatch.setenv(CLASSPATH_ENV, os.pathsep.join([str(jar), str(folder)]))
    assert java_bot("ai.competition.COAC.CoacAI") == BotSpec("java:ai.competition.COAC.CoacAI")
    assert java_bot("my.Bot") == BotSpec("java:my.Bot")
    assert make_player("microrts", "java:my.Bot") == BotSpec("java:my.Bot")
    # gym-microrts' own bots are on the class path too
    assert java_bot("ai.abstraction.WorkerRush").name == "java:ai.abstraction.WorkerRush"


def test_java_bot_refuses_a_bad_name_or_an_absent_class(tmp_path, monkeypatch):
    need_microrts_maps()
    monkeypatch.setenv(CLASSPATH_ENV, str(_jar(tmp_path / "bots.jar", "my.Bot")))
    with pytest.raises(ValueError, match="not a Java class name"):
        java_bot("my..Bot")
    with pytest.raises(ValueError, match=f"no such class.*{CLASSPATH_ENV}=.*bots.jar"):
        java_bot("my.Other")


def test_cli_absent_class_is_one_line_exit_2(capsys, monkeypatch):
    need_microrts_maps()
    monkeypatch.delenv(CLASSPATH_ENV, raising=False)
    code = main(["play", "microrts", "--map", "16x16", "--p0", "java:ai.competition.COAC.CoacAI",
                 "--p1", "workerrush", "-n", "1", "--workers", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "java:ai.competition.COAC.CoacAI" in err


def test_a_class_folder_on_the_class_path_plays(tmp_path):
    """A bot compiled outside the repository plays through ``java:CLASS`` in a fresh
    process (the class path is fixed when the JVM starts)."""
    need_microrts()
    from games.microrts.engine import _javac, engine_dir

    javac = _javac()
    if javac is None:
        pytest.skip("no javac")
    source = tmp_path / "src" / "my" / "IdleBot.java"
    source.parent.mkdir(parents=True)
    source.write_text(
        "package my;\n"
        "import ai.core.AI; import ai.core.ParameterSpecification;\n"
        "import rts.GameState; import rts.PlayerAction; import rts.units.UnitTypeTable;\n"
        "import java.util.ArrayList; import java.util.List;\n"
        "public class IdleBot extends AI {\n"
        "  public IdleBot(UnitTypeTable utt) {}\n"
        "  public void reset() {}\n"
        "  public PlayerAction getAction(int player, GameState gs) {\n"
        "    PlayerAction pa = new PlayerAction(); pa.fillWithNones(gs, player, 1); return pa; }\n"
        "  public AI clone() { return this; }\n"
        "  public List<ParameterSpecification> getParameters() { return new ArrayList<>(); }\n"
        "}\n")
    classes = tmp_path / "classes"
    subprocess.run([javac, "-d", str(classes), "-cp", str(engine_dir() / "microrts.jar"),
                    str(source)], check=True, capture_output=True)
    env = {**os.environ, CLASSPATH_ENV: str(classes), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "microrts", "--map", "16x16",
         "--p0", "java:my.IdleBot", "--p1", "workerrush", "-n", "2", "--workers", "1",
         "--json"], env=env, capture_output=True, text=True, cwd=ROOT, check=True)
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["players"][0] == "java:my.IdleBot"
    assert summary["wins"] == [0, 2]  # a bot that never acts loses from both seats
