"""The real microRTS engine through JPype: short 16×16 matches, clear errors."""

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from experiments.cli import main
from games.backends import PoolMap
from games.microrts import BotSpec, EngineError, MicroRTS, map_path, play_microrts_matches
from gp.languages.microrts import MICRORTS_DSL, MicroRTSProgramPlayer

from .extras import need_microrts

# The JVM runs in a worker process: a JVM in pytest's own process would be
# inherited by the forked pools of other tests.

need_microrts(module=True)


def test_paper_maps_are_shipped_and_unknown_maps_are_refused():
    for name in ("16x16", "24x24", "32x32", "64x64"):
        assert map_path(name).is_file()
    with pytest.raises(EngineError, match="unknown map"):
        map_path("99x99")


def test_short_capped_matches_alternate_seats_and_coac_beats_random_biased():
    with PoolMap(1) as pool:
        summary = play_microrts_matches(
            "16x16", (BotSpec("workerrush"), BotSpec("randombiased")), 2, map=pool,
            max_cycles=150)
        assert summary.matches == 2 and summary.total_moves <= 300
        assert sum(summary.wins) + summary.capped + summary.draws == 2
        full = play_microrts_matches("16x16", (BotSpec("coac"), BotSpec("randombiased")), 2,
                                     map=pool)
    assert full.wins == [2, 0] and full.total_moves < 8000


@pytest.fixture(scope="module")
def jvm_worker():
    """One worker process (one JVM) shared by the tests that do not kill it."""
    with PoolMap(1) as pool:
        yield pool


def _heavy_stats(table: str) -> tuple[int, int, int]:
    from games.microrts.engine import unit_type_table

    heavy = unit_type_table(table).getUnitType("Heavy")
    return int(heavy.cost), int(heavy.hp), int(heavy.moveTime)


def test_unit_type_tables_by_name(jvm_worker):
    # microRTS's UnitTypeTable: the original Heavy costs 2, has 4 HP and moves every 12
    # cycles; the finetuned (competition) Heavy costs 3, has 8 HP and moves every 10.
    assert jvm_worker(_heavy_stats, ["original", "finetuned"]) == [(2, 4, 12), (3, 8, 10)]
    with pytest.raises(EngineError, match="unknown unit type table 'nope'"):
        play_microrts_matches("16x16", (BotSpec("coac"), BotSpec("coac")), 2, utt_name="nope")
    with pytest.raises(EngineError, match="unknown unit type table"):
        MicroRTS(utt="nope")
    summary = play_microrts_matches("16x16", (BotSpec("workerrush"), BotSpec("randombiased")),
                                    2, map=jvm_worker, max_cycles=100, utt_name="finetuned")
    assert summary.matches == 2


def test_cli_errors(capsys):
    assert main(["play", "microrts", "--map", "99x99", "--p0", "coac", "--p1", "coac"]) == 2
    assert main(["play", "microrts", "--p0", "coacc", "--p1", "coac"]) == 2
    assert "unknown player 'coacc' for microrts" in capsys.readouterr().err
    assert main(["play", "microrts", "--game-param", "utt=nope", "--p0", "coac", "--p1",
                 "coac"]) == 2
    assert "nope" in capsys.readouterr().err


# ---- DSL programs on the engine; broken AIs and dying JVMs ------------------------------------
WORKER_RUSH_PROGRAM = """\
for u in s:
    u.train(Worker, EnemyDir, 100)
    u.harvest(2)
    u.attack(Closest)
"""


class _RaisingAI:
    def getAction(self, player, gs):  # noqa: N802
        raise RuntimeError("boom")


class _Raises:
    name = "raises"

    def build(self, utt):
        return _RaisingAI()


@dataclass(frozen=True)
class _DiesOnce:
    """Kills its worker process (as a crashing JVM would) the first time it is built."""

    marker: str

    def build(self, utt):
        if not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(3)
        return BotSpec("workerrush").build(utt)


def test_a_dsl_program_plays_both_starts_and_reports_what_it_produced(jvm_worker):
    player = MicroRTSProgramPlayer(WORKER_RUSH_PROGRAM)
    summary = play_microrts_matches("16x16", (player, BotSpec("randombiased")), 2,
                                    map=jvm_worker, max_cycles=600, stats=True)
    assert [d["seats"] for d in summary.per_match] == [[0, 1], [1, 0]]
    for detail in summary.per_match:
        mine = detail["stats"][0]
        assert set(mine) == {"produced_Worker", "produced_Light", "produced_Heavy",
                             "produced_Ranged", "produced_Base", "produced_Barracks", "resources"}
        assert mine["produced_Worker"] >= 3  # the base keeps training workers
        assert mine["produced_Ranged"] == mine["produced_Barracks"] == 0


def test_an_ai_that_raises_forfeits_and_the_batch_goes_on(jvm_worker):
    summary = play_microrts_matches("16x16", (_Raises(), BotSpec("workerrush")), 2,
                                    map=jvm_worker, max_cycles=50)
    assert summary.matches == 2 and summary.forfeits == [2, 0] and summary.wins == [0, 2]


def test_a_worker_whose_jvm_dies_is_replaced_and_the_match_played_again(tmp_path):
    with PoolMap(1) as pool:
        summary = play_microrts_matches(
            "16x16", (_DiesOnce(str(tmp_path / "died")), BotSpec("randombiased")), 1,
            map=pool, max_cycles=50)
    assert (tmp_path / "died").exists() and summary.matches == 1


def test_program_files_play_and_synthesis_runs_on_microrts(tmp_path, capsys):
    program = tmp_path / "rush.txt"
    program.write_text(WORKER_RUSH_PROGRAM)
    assert main(["play", "microrts", "--p0", f"program:{program}", "--p1", "randombiased",
                 "-n", "2", "--workers", "2", "--max-moves", "200", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == 2
    run = tmp_path / "run"
    assert main(["synth", "microrts", "--map", "16x16", "--game-param", "max_cycles=200",
                 "--evaluations", "3", "--workers", "2", "--seed", "3", "--out", str(run),
                 "--quiet"]) == 0
    assert len((run / "log.csv").read_text().splitlines()) == 1 + 3
    MicroRTSProgramPlayer(MICRORTS_DSL.parse((run / "best.txt").read_text()))


def test_self_play_with_hss_and_a_tournament_run_on_microrts(tmp_path):
    out = tmp_path / "sp"
    assert main(["selfplay", "microrts", "--game-param", "map=16x16", "--game-param",
                 "max_cycles=100", "--oracle", "hss", "--features",
                 "produced_Worker,resources", "--iterations", "1", "--evaluations", "2",
                 "--matches", "2", "--workers", "2", "--out", str(out)]) == 0
    library = json.loads((out / "library.json").read_text())["entries"]
    assert library and all(len(e["features"]) == 2 for e in library)
    assert main(["tournament", "microrts", "--game-param", "map=16x16", "--game-param",
                 "max_cycles=100", "--players", f"program:{out / 'program1.txt'},workerrush",
                 "-n", "2", "--workers", "2", "--out", str(tmp_path / "t")]) == 0
    assert "| 1 |" in (tmp_path / "t" / "tournament.md").read_text()


def test_one_match_psi_plays_one_match_from_the_runs_start_position(jvm_worker):
    """Aleixo (2023)'s microRTS Ψ: one match per evaluation, the program at the run's start
    position (a separate run per side); the default Ψ plays both starts."""
    from gp.fitness import WinRate

    game = MicroRTS(map="16x16", max_cycles=100)
    target = MicroRTSProgramPlayer(WORKER_RUSH_PROGRAM)
    for side in (0, 1):
        psi = WinRate(game, target, MicroRTSProgramPlayer, matches=1, seed=2, map=jvm_worker,
                      engine="reference", seat=side)
        summary = psi.play(WORKER_RUSH_PROGRAM)
        # seats: which player sits in seat 0 and seat 1; the program is player 0
        assert [d["seats"] for d in summary.per_match] == [[0, 1] if side == 0 else [1, 0]]
    both = WinRate(game, target, MicroRTSProgramPlayer, matches=2, seed=2, map=jvm_worker,
                   engine="reference")
    assert [d["seats"] for d in both.play(WORKER_RUSH_PROGRAM).per_match] == [[0, 1], [1, 0]]


PROGRAMS = Path(__file__).resolve().parents[1] / "experiments" / "programs"


@pytest.mark.parametrize("path", sorted([*PROGRAMS.glob("microrts_*.txt"),
                                          *PROGRAMS.glob("seed000_sketch_sa_o_*.txt")]),
                         ids=lambda p: p.name)
def test_committed_microrts_programs_parse_and_print_back(path):
    tree = MicroRTSProgramPlayer.parse_program(path.read_text(), source=str(path))
    assert MICRORTS_DSL.parse(MICRORTS_DSL.to_text(tree)) == tree


@pytest.mark.slow
@pytest.mark.parametrize("map_name, program", [
    ("16x16", "microrts_coac_16x16.txt"), ("24x24", "microrts_coac_24x24.txt"),
    ("32x32", "microrts_coac_32x32_base_rush.txt"), ("64x64", "microrts_coac_64x64_base_rush.txt")])
def test_the_synthesized_programs_beat_coac_from_both_starts(map_name, program):
    tree = MicroRTSProgramPlayer.parse_program((PROGRAMS / program).read_text())
    with PoolMap(2) as pool:
        summary = play_microrts_matches(map_name, (MicroRTSProgramPlayer(tree),
                                                   BotSpec("coac")), 10, map=pool)
    # the program's wins per start; COAC is not deterministic, so 3 of 5 each (the 64x64
    # program's weaker first seat, 41 of 50 in its re-check, passes this 19 times in 20)
    wins_by_start = [0, 0]
    for detail in summary.per_match:
        wins_by_start[detail["seats"].index(0)] += detail["winner"] == 0
    assert wins_by_start[0] >= 3 and wins_by_start[1] >= 3


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["24x24", "32x32", "64x64"])
def test_the_pool_programs_beat_lightrush_from_both_starts(map_name):
    """LightRush is seedable, so the result is fixed: the Light counter wins both seats."""
    text = (PROGRAMS / f"microrts_pool_{map_name}.txt").read_text()
    with PoolMap(1) as pool:
        summary = play_microrts_matches(map_name, (MicroRTSProgramPlayer(text),
                                                   BotSpec("lightrush")), 2, seed=0, map=pool)
    assert [detail["winner"] for detail in summary.per_match] == [0, 0]
