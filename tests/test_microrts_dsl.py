"""The microRTS DSL: text <-> tree, the interpreter's rules on hand-built states."""

import random

import pytest
from deap import gp

from games.microrts import interpreter as rt
from games.microrts.counts import (
    check_counts_match_game,
    count_similarity,
    read_counts,
    write_counts,
)
from gp.dsl import ProgramSyntaxError
from gp.languages.microrts import MICRORTS_DSL, MicroRTSProgramPlayer

from .extras import need_microrts_maps

FIG4 = """\
for u in s:
    if u.isBuilder():
        u.moveToUnit(Ally, LessHealthy)
    u.train(Ranged, Left, 15)
for u in s:
    u.idle()
    u.build(Barracks, EnemyDir, 100)
    for u in s:
        u.harvest(4)
        u.attack(LessHealthy)"""


def test_a_program_printed_like_the_sketch_paper_parses_and_prints_back_exactly():
    tree = MICRORTS_DSL.parse(FIG4)
    assert MICRORTS_DSL.to_text(tree) == FIG4
    assert str(MicroRTSProgramPlayer(FIG4)) == FIG4


def test_thousands_of_random_programs_round_trip_and_stay_within_limits():
    rng = random.Random(7)
    for _ in range(2000):
        tree = MICRORTS_DSL.random_program(rng)
        text = MICRORTS_DSL.to_text(tree)
        again = MICRORTS_DSL.parse(text)
        assert MICRORTS_DSL.to_text(again) == text
        assert list(MICRORTS_DSL.parse(MICRORTS_DSL.to_text(again))) == list(again)
        neighbour = MICRORTS_DSL.neighbour(tree, rng)
        assert len(neighbour) <= MICRORTS_DSL.max_size
        MICRORTS_DSL.compile(neighbour)


@pytest.mark.parametrize("text, where", [
    ("for u in s:\nu.harvest(4)", "line 1: 'for' needs an indented block"),
    ("for u in s:\n    u.harvest(four)", "line 2: 'four' is not a N"),
    ("u.fly(Up)", "line 1: 'u.fly(Up)' is not a command"),
    ("if u.harvest(4):\n    pass", "line 1: 'u.harvest(4)' is not a condition"),
    ("else:\n    pass", "line 1: 'else' without 'if'"),
    ("u.idle()\n    u.idle()", "line 2: unexpected indentation"),
    ("u.attack(Closest, Up)", "line 1: attack takes 1 argument"),
])
def test_malformed_programs_name_file_and_line(text, where):
    with pytest.raises(ProgramSyntaxError) as err:
        MICRORTS_DSL.parse(text, source="bad.txt")
    assert str(err.value).startswith("bad.txt: ")
    assert where in str(err.value)


# ---- the interpreter on hand-built snapshots (no JVM) ---------------------------------------
def _kind(i, name, cost, hp, dmg, rng, attack, harvest, move, stock, makes=()):
    return rt.UnitKind(i, name, cost, hp, dmg, rng, attack, harvest, move, stock, frozenset(makes))


KINDS = {
    0: _kind(0, "Resource", 1, 1, 0, 0, False, False, False, False),
    1: _kind(1, "Base", 10, 10, 0, 0, False, False, False, True, ("Worker",)),
    2: _kind(2, "Barracks", 5, 4, 0, 0, False, False, False, False, ("Light", "Heavy", "Ranged")),
    3: _kind(3, "Worker", 1, 1, 1, 1, True, True, True, False, ("Base", "Barracks")),
    4: _kind(4, "Light", 2, 4, 2, 1, True, False, True, False),
    5: _kind(5, "Heavy", 3, 8, 4, 1, True, False, True, False),
    6: _kind(6, "Ranged", 2, 3, 1, 3, True, False, True, False),
}
BY_NAME = {k.name: k for k in KINDS.values()}


def _cycle(units, resources=10, me=0):
    """units: (id, player, type name, x, y, hp)."""
    rows = []
    for uid, player, name, x, y, hp in units:
        rows += [uid, player, BY_NAME[name].id, x, y, hp, 0, 0]
    cycle = rt.Cycle(me, rows, KINDS, 16, 16, [0] * 256, resources, random.Random(0))
    cycle.kinds_by_name = BY_NAME
    return cycle


def _run(text, cycle):
    MICRORTS_DSL.compile(MICRORTS_DSL.parse(text))(cycle, None)
    orders = cycle.orders
    return [tuple(orders[i:i + 5]) for i in range(0, len(orders), 5)]


BASIC = [(1, 0, "Base", 2, 2, 10), (2, 0, "Worker", 3, 2, 1), (3, 0, "Worker", 3, 3, 1),
         (4, 0, "Worker", 4, 4, 1), (5, -1, "Resource", 0, 0, 1),
         (9, 1, "Worker", 12, 12, 1), (10, 1, "Heavy", 14, 14, 8)]


def test_first_action_assigned_in_a_cycle_stands():
    orders = _run("for u in s:\n    u.attack(Closest)\n    u.harvest(4)", _cycle(BASIC))
    assert [(k, uid) for k, uid, *_ in orders] == [(rt.ATTACK, 2), (rt.ATTACK, 3), (rt.ATTACK, 4)]


def test_harvest_sends_at_most_n_workers_to_the_nearest_resource_and_base():
    orders = _run("for u in s:\n    u.harvest(2)", _cycle(BASIC))
    assert orders == [(rt.HARVEST, 2, 5, 1, 0), (rt.HARVEST, 3, 5, 1, 0)]


def test_criteria_pick_targets():
    cycle = _cycle(BASIC)
    worker = cycle.own[1]
    assert cycle.choose(worker, cycle.enemies, "Closest").id == 9
    assert cycle.choose(worker, cycle.enemies, "Farthest").id == 10
    assert cycle.choose(worker, cycle.enemies, "LessHealthy").id == 9
    assert cycle.choose(worker, cycle.enemies, "MostHealthy").id == 10
    assert cycle.choose(worker, cycle.enemies, "Strongest").id == 10
    assert cycle.choose(worker, cycle.enemies, "Weakest").id == 9


def test_build_spends_resources_counts_pending_and_places_buildings():
    barracks = BY_NAME["Barracks"].id
    cycle = _cycle(BASIC, resources=10)
    orders = _run("for u in s:\n    u.build(Barracks, Up, 2)", cycle)
    # worker 2 at (3,2) builds above itself; above worker 3 stands worker 2, so the
    # nearest free cell; then the limit of 2 (pending included) and the resources stop
    assert orders == [(rt.BUILD, 2, barracks, 3, 1), (rt.BUILD, 3, barracks, 2, 3)]
    assert cycle.resources == 0
    assert len(_run("for u in s:\n    u.build(Barracks, Up, 1)", _cycle(BASIC, 10))) == 1
    assert _run("for u in s:\n    u.build(Barracks, Up, 5)", _cycle(BASIC, 4)) == []


def test_train_counts_existing_units_and_needs_the_right_producer():
    # 3 workers exist: a limit of 4 trains one more, a limit of 3 none
    assert _run("for u in s:\n    u.train(Worker, Right, 4)", _cycle(BASIC)) == [
        (rt.TRAIN, 1, BY_NAME["Worker"].id, rt.DIRECTION_CODE["Right"], 0)]
    assert _run("for u in s:\n    u.train(Worker, Right, 3)", _cycle(BASIC)) == []
    assert _run("for u in s:\n    u.train(Ranged, Right, 9)", _cycle(BASIC)) == []  # no barracks


def test_a_command_outside_for_goes_to_the_first_unit_that_takes_it():
    orders = _run("u.harvest(9)\nu.harvest(9)", _cycle(BASIC))
    assert [o[1] for o in orders] == [2, 3]


def test_booleans_see_pending_production_and_this_cycles_assignments():
    text = ("for u in s:\n    u.train(Worker, Up, 9)\n"
            "if hasNumberOfUnits(Worker, 4):\n    for u in s:\n        u.harvest(1)\n"
            "if hasNumberOfWorkersHarvesting(1):\n    for u in s:\n        u.attack(Closest)")
    orders = _run(text, _cycle(BASIC))
    assert [o[0] for o in orders] == [rt.TRAIN, rt.HARVEST, rt.ATTACK, rt.ATTACK]


def test_unit_tests_outside_for_ask_whether_some_own_unit_passes():
    cycle = _cycle(BASIC)
    assert _run("if u.isType(Base):\n    u.harvest(1)", cycle) == [(rt.HARVEST, 2, 5, 1, 0)]
    assert _run("if u.isType(Ranged):\n    u.harvest(1)", _cycle(BASIC)) == []


def test_observation_score_matches_the_sketch_paper_example():
    # 4 Ranged against 10: 1 - 6/10 = 0.4 for that count; equal counts score 1
    mine = {"produced_Ranged": 4.0}
    theirs = {"produced_Ranged": 10.0}
    assert count_similarity(mine, theirs) == pytest.approx((6 + 0.4) / 7)
    assert count_similarity(theirs, theirs) == 1.0


def test_insertion_neighbour_keeps_the_program_and_adds_a_statement(monkeypatch):
    monkeypatch.setattr(type(MICRORTS_DSL), "INSERT_SHARE", 1.0)
    rng = random.Random(4)
    tree = MICRORTS_DSL.parse("for u in s:\n    u.harvest(4)")
    for _ in range(20):
        grown = MICRORTS_DSL.neighbour(tree, rng)
        text = MICRORTS_DSL.to_text(grown)
        assert grown[0].name == "seq" or grown[1].name == "seq"
        assert "u.harvest(4)" in text and len(grown) > len(tree)


def test_neighbour_of_a_tree_without_statements_regrows_it(monkeypatch):
    """UCT fills holes of every type, so SA moves conditions, commands and parameters
    alone: the insertion move has no statement to insert beside and regrows instead."""
    from gp.languages.microrts import B, C, N

    monkeypatch.setattr(type(MICRORTS_DSL), "INSERT_SHARE", 1.0)
    rng = random.Random(0)
    for ret in (B, C, N):
        tree = gp.PrimitiveTree(MICRORTS_DSL.generate(rng, ret, 2))
        for _ in range(20):
            moved = MICRORTS_DSL.neighbour(tree, rng, 2)
            assert moved[0].ret is ret


def test_counts_data_name_their_map_and_unit_type_table(tmp_path):
    need_microrts_maps()
    from games.match import MatchSummary
    from games.microrts import MicroRTS

    data = tmp_path / "rr.jsonl"
    summary = MatchSummary()
    summary.per_match = [{"index": 0, "seats": [0, 1], "stats": [{}, {}]}]
    write_counts(data, "16x16", ["rangedrush", "coac"], summary, "finetuned")
    header, matches = read_counts(data)
    assert header["utt"] == "finetuned" and len(matches) == 1
    check_counts_match_game(data, header, MicroRTS("16x16", utt="finetuned"))
    with pytest.raises(ValueError, match=r"rr.jsonl: line 1: 'utt' is 'finetuned'"):
        check_counts_match_game(data, header, MicroRTS("16x16"))
    with pytest.raises(ValueError, match=r"rr.jsonl: line 1: 'map' is '16x16'"):
        check_counts_match_game(data, header, MicroRTS("24x24", utt="finetuned"))
    lines = data.read_text().splitlines()
    data.write_text(lines[0].replace(', "utt": "finetuned"', "") + "\n" + lines[1] + "\n")
    with pytest.raises(ValueError, match="needs 'map' and 'utt'"):
        read_counts(data)


def test_statements_that_cannot_act_compile_to_nothing():
    from gp.languages.microrts import _noop

    for text in ("pass", "for u in s:\n    pass", "for u in s:\n    for u in s:\n        pass",
                 "if hasNumberOfUnits(Worker, 2):\n    pass\nelse:\n    pass",
                 "if u.isBuilder():\n    pass\npass"):
        assert MICRORTS_DSL.compile(MICRORTS_DSL.parse(text)) is _noop, text
    acting = MICRORTS_DSL.compile(MICRORTS_DSL.parse(
        "for u in s:\n    pass\nu.harvest(2)\nif u.isBuilder():\n    pass"))
    assert acting is not _noop and acting.__name__ == "command"


def test_the_language_is_named_scripts_and_its_former_name_still_resolves():
    # --dsl seed001 (the former name) and committed configs naming it still load
    from games import game_spec

    spec = game_spec("microrts")
    assert next(iter(spec.synthesis.languages)) == "scripts"
    assert spec.language("scripts") is spec.language("seed001") is MicroRTSProgramPlayer
    assert spec.language() is MicroRTSProgramPlayer
    with pytest.raises(ValueError, match="known: scripts"):
        spec.language("seed002")


# ---- interpreter=reference: the reference's moveToUnit and blocked build -----------------
# Worker 2 at (5, 2) goes to enemy 9 at (5, 5). The target's neighbour nearest the worker,
# (5, 4), is walled in by units at (4, 4), (5, 3) and (6, 4): ours orders a move there
# (the path finder then finds no way); the reference's A* stops at the first neighbour it
# reaches, (4, 5) or (6, 5), six steps round either side.
MOVE_POSITION = [(1, 0, "Base", 0, 0, 10), (2, 0, "Worker", 5, 2, 1),
                 (3, 0, "Heavy", 4, 4, 8), (4, 0, "Heavy", 5, 3, 8), (5, 0, "Heavy", 6, 4, 8),
                 (9, 1, "Worker", 5, 5, 1)]
MOVE_PROGRAM = "for u in s:\n    if u.isType(Worker):\n        u.moveToUnit(Enemy, Closest)"


def _reference(cycle):
    cycle.reference = True
    return cycle


def test_move_to_unit_ours_takes_the_nearest_free_neighbour_even_walled_in():
    assert _run(MOVE_PROGRAM, _cycle(MOVE_POSITION)) == [(rt.MOVE, 2, 5, 4, 0)]


def test_move_to_unit_reference_takes_the_first_neighbour_its_a_star_reaches():
    orders = _run(MOVE_PROGRAM, _reference(_cycle(MOVE_POSITION)))
    assert orders == [(rt.MOVE, 2, 6, 5, 0)]


def test_move_to_unit_reference_gives_no_order_without_a_path():
    shut = MOVE_POSITION + [(6, 0, "Heavy", 4, 2, 8), (7, 0, "Heavy", 6, 2, 8),
                            (8, 0, "Heavy", 5, 1, 8)]
    assert _run(MOVE_PROGRAM, _reference(_cycle(shut))) == []
    assert _run(MOVE_PROGRAM, _cycle(shut)) == [(rt.MOVE, 2, 5, 4, 0)]


# Worker 2 at (3, 3) builds barracks Up, but (3, 2) is taken: ours takes the nearest free
# cell in Manhattan rings, (2, 3); the engine's search takes its square ring's top row
# first, (2, 2).
BUILD_POSITION = [(1, 0, "Base", 0, 0, 10), (2, 0, "Worker", 3, 3, 1),
                  (3, 0, "Worker", 3, 2, 1), (9, 1, "Worker", 12, 12, 1)]
BUILD_PROGRAM = "for u in s:\n    u.build(Barracks, Up, 1)"


def test_blocked_build_ours_takes_the_nearest_free_cell():
    barracks = BY_NAME["Barracks"].id
    assert _run(BUILD_PROGRAM, _cycle(BUILD_POSITION))[0] == (rt.BUILD, 2, barracks, 2, 3)


def test_blocked_build_reference_takes_the_engines_building_position():
    barracks = BY_NAME["Barracks"].id
    orders = _run(BUILD_PROGRAM, _reference(_cycle(BUILD_POSITION)))
    assert orders == [(rt.BUILD, 2, barracks, 2, 2)]


def test_build_on_a_free_cell_is_the_same_in_both_meanings():
    barracks = BY_NAME["Barracks"].id
    free = [u for u in BUILD_POSITION if u[0] != 3]
    assert (_run(BUILD_PROGRAM, _reference(_cycle(free))) == _run(BUILD_PROGRAM, _cycle(free))
            == [(rt.BUILD, 2, barracks, 3, 2)])


def test_reference_criteria_compare_maximum_hit_points_and_farthest_is_the_first():
    # enemy 9 a damaged heavy (3 of 8 hit points), enemy 10 a full worker (1 of 1)
    units = [(2, 0, "Worker", 3, 3, 1), (9, 1, "Heavy", 5, 3, 3), (10, 1, "Worker", 12, 3, 1),
             (11, 1, "Light", 14, 14, 4)]
    ours, reference = _cycle(units), _reference(_cycle(units))
    worker = ours.own[0]
    assert ours.choose(worker, ours.enemies, "LessHealthy").id == 10
    assert reference.choose(worker, reference.enemies, "LessHealthy").id == 10
    assert ours.choose(worker, ours.enemies, "MostHealthy").id == 11  # 4 hit points left
    assert reference.choose(worker, reference.enemies, "MostHealthy").id == 9
    assert ours.choose(worker, ours.enemies, "Farthest").id == 11
    assert reference.choose(worker, reference.enemies, "Farthest").id == 9
    hurt = [(2, 0, "Worker", 3, 3, 1), (9, 1, "Heavy", 5, 3, 1), (10, 1, "Light", 12, 3, 4)]
    ours, reference = _cycle(hurt), _reference(_cycle(hurt))
    assert ours.choose(ours.own[0], ours.enemies, "LessHealthy").id == 9  # 1 hit point left
    assert reference.choose(reference.own[0], reference.enemies, "LessHealthy").id == 10


# ---- interpreter=reference: a direction's cell is free as GameState.free says ---------------
# The reference's Direction.converte asks the engine's GameState.free: a cell some unit
# action under way will take is refused, this run's builds reserve nothing, and off the map
# the engine reads the terrain at index x + y * width (no bounds check).
def test_build_direction_reference_refuses_a_cell_a_unit_action_will_take():
    barracks = BY_NAME["Barracks"].id
    free = [u for u in BUILD_POSITION if u[0] != 3]  # (3, 2) empty
    busy = _reference(_cycle(free))
    busy.busy_cells = {3 + 2 * 16}  # a unit is moving into (3, 2)
    assert _run(BUILD_PROGRAM, busy) == [(rt.BUILD, 2, barracks, 2, 2)]
    ours = _cycle(free)
    ours.busy_cells = {3 + 2 * 16}  # read only with interpreter=reference
    assert _run(BUILD_PROGRAM, ours) == [(rt.BUILD, 2, barracks, 3, 2)]


def test_builds_reserve_no_cell_for_later_commands_in_the_reference():
    # worker 2 at (3, 3) builds Up, on (3, 2); worker 3 at (4, 3) finds (4, 2) taken, and
    # the engine's building-position search around it starts at (3, 2)
    barracks = BY_NAME["Barracks"].id
    units = [(1, 0, "Base", 0, 0, 10), (2, 0, "Worker", 3, 3, 1), (3, 0, "Worker", 4, 3, 1),
             (4, 0, "Heavy", 4, 2, 8), (9, 1, "Worker", 12, 12, 1)]
    program = "for u in s:\n    u.build(Barracks, Up, 2)"
    assert _run(program, _reference(_cycle(units))) == [
        (rt.BUILD, 2, barracks, 3, 2), (rt.BUILD, 3, barracks, 3, 2)]
    assert _run(program, _cycle(units)) == [
        (rt.BUILD, 2, barracks, 3, 2), (rt.BUILD, 3, barracks, 4, 4)]  # nearest free cell


def test_build_direction_off_the_map_reads_the_wrapped_terrain_in_the_reference():
    barracks = BY_NAME["Barracks"].id
    units = [(1, 0, "Base", 5, 5, 10), (2, 0, "Worker", 0, 3, 1), (9, 1, "Worker", 12, 12, 1)]
    program = "for u in s:\n    u.build(Barracks, Left, 1)"
    # (-1, 3) is index 47, the cell (15, 2): no wall there, so the reference builds at (-1, 3)
    assert _run(program, _reference(_cycle(units))) == [(rt.BUILD, 2, barracks, -1, 3)]
    assert _run(program, _cycle(units)) == [(rt.BUILD, 2, barracks, 0, 2)]
    walled = _reference(_cycle(units))
    walled.walls = [1 if i == 47 else 0 for i in range(256)]
    assert _run(program, walled) == [(rt.BUILD, 2, barracks, 0, 2)]  # building position
    # (5, -1) is index -11, outside the map: the reference throws; here it is not free
    top = [(1, 0, "Base", 9, 9, 10), (2, 0, "Worker", 5, 0, 1), (9, 1, "Worker", 12, 12, 1)]
    up = "for u in s:\n    u.build(Barracks, Up, 1)"
    assert _run(up, _reference(_cycle(top))) == [(rt.BUILD, 2, barracks, 6, 0)]


def test_enemy_direction_reference_skips_a_cell_a_unit_action_will_take():
    units = [(1, 0, "Base", 2, 2, 10), (9, 1, "Worker", 2, 10, 1)]
    program = "for u in s:\n    u.train(Worker, EnemyDir, 5)"
    worker = BY_NAME["Worker"].id
    assert _run(program, _reference(_cycle(units))) == [(rt.TRAIN, 1, worker, 2, 0)]  # Down
    busy = _reference(_cycle(units))
    busy.busy_cells = {2 + 3 * 16}  # (2, 3), below the base
    assert _run(program, busy)[0][3] != 2
