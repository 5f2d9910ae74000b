"""``interpreter=reference`` on hand-made engine states: the Java interpreter
(``ProgramInterpreter``), the Python one and the translation of their orders
(``ProgramAI``) read directions and Train as the reference interpreter does."""

from __future__ import annotations

from games.backends import PoolMap

from .extras import need_microrts

need_microrts(module=True)

MOVE, BUILD, TRAIN = 1, 4, 5  # ProgramAI's order kinds


def _map(tmp: str, units: list[tuple], resources: int = 10, walls: tuple = ()) -> str:
    """An 8x8 map file; units: (type, id, player, x, y, hit points)."""
    terrain = "".join("1" if i in walls else "0" for i in range(64))
    rows = "".join(
        f'<rts.units.Unit type="{kind}" ID="{uid}" player="{player}" x="{x}" y="{y}" '
        f'resources="0" hitpoints="{hp}"></rts.units.Unit>'
        for kind, uid, player, x, y, hp in units)
    text = (f'<rts.PhysicalGameState width="8" height="8"><terrain>{terrain}</terrain>'
            f'<players><rts.Player ID="0" resources="{resources}"></rts.Player>'
            f'<rts.Player ID="1" resources="5"></rts.Player></players>'
            f'<units>{rows}</units></rts.PhysicalGameState>')
    with open(tmp, "w") as out:
        out.write(text)
    return tmp


def _state(path: str):
    from games.microrts.engine import start_jvm, unit_type_table

    start_jvm()
    from rts import GameState, PhysicalGameState

    utt = unit_type_table("original")
    return GameState(PhysicalGameState.load(path, utt), utt), utt


def _orders(gs, utt, text: str) -> dict[str, list]:
    """The program's orders for player 0: Java and Python interpreters, both meanings."""
    import jpype

    from gp.languages.microrts import MicroRTSProgramPlayer

    names = [node.name for node in MicroRTSProgramPlayer(text).tree]
    out = {}
    for meaning in ("ours", "reference"):
        java = jpype.JClass("stratsynth.ProgramInterpreter")(
            jpype.JArray(jpype.JString)(names), utt)
        java.useReference(meaning == "reference")
        out[f"java {meaning}"] = [int(v) for v in java.run(gs, 0)]
        bot = MicroRTSProgramPlayer(text, evaluator="python").build(utt, meaning)
        bot.read_walls(gs)
        out[f"python {meaning}"] = [int(v) for v in bot.decide(0, list(bot.java.units(gs)))]
    return out


def _busy_build(tmp: str) -> dict[str, list]:
    # worker 2 at (3, 3) builds Up; worker 3 at (4, 2) is moving left into (3, 2)
    gs, utt = _state(_map(tmp, [("Base", 1, 0, 0, 7, 10), ("Worker", 2, 0, 3, 3, 1),
                                ("Worker", 3, 0, 4, 2, 1), ("Worker", 9, 1, 7, 7, 1)]))
    from rts import PlayerAction, UnitAction

    move = PlayerAction()
    move.addUnitAction(gs.getPhysicalGameState().getUnit(3),
                       UnitAction(UnitAction.TYPE_MOVE, UnitAction.DIRECTION_LEFT))
    gs.issueSafe(move)
    return _orders(gs, utt, "for u in s:\n    if u.isType(Worker):\n"
                            "        u.build(Barracks, Up, 1)")


def test_build_direction_refuses_a_cell_a_move_under_way_will_take(tmp_path):
    with PoolMap(1) as pool:
        orders = pool(_busy_build, [str(tmp_path / "busy.xml")])[0]
    barracks = 2  # the original table's type id
    assert orders["java reference"] == orders["python reference"] == [BUILD, 2, barracks, 2, 2]
    assert orders["java ours"] == orders["python ours"] == [BUILD, 2, barracks, 3, 2]


def _edge_build(job) -> dict[str, list]:
    tmp, walls = job
    # worker 2 at (0, 3) builds Left: (-1, 3) is index 23, the cell (7, 2)
    gs, utt = _state(_map(tmp, [("Base", 1, 0, 4, 6, 10), ("Worker", 2, 0, 0, 3, 1),
                                ("Worker", 9, 1, 7, 7, 1)], walls=walls))
    return _orders(gs, utt, "for u in s:\n    u.build(Barracks, Left, 1)")


def test_build_direction_off_the_map_reads_the_wrapped_terrain(tmp_path):
    with PoolMap(1) as pool:
        open_, walled = pool(_edge_build, [(str(tmp_path / "open.xml"), ()),
                                           (str(tmp_path / "walled.xml"), (23,))])
    barracks = 2
    assert open_["java reference"] == open_["python reference"] == [BUILD, 2, barracks, -1, 3]
    assert open_["java ours"] == open_["python ours"] == [BUILD, 2, barracks, 0, 2]
    # the wrapped cell is a wall: the engine's building-position search, top row first
    assert walled["java reference"] == walled["python reference"] == [BUILD, 2, barracks, 0, 2]


def _train_beside_a_move(job) -> str:
    tmp, meaning, resources = job
    # barracks 1 at (1, 1) trains Ranged to its left, (0, 1); worker 2 at (0, 3) moves
    # there; base 3 is already training a worker, so 1 resource is taken
    gs, utt = _state(_map(tmp, [("Barracks", 1, 0, 1, 1, 4), ("Worker", 2, 0, 0, 3, 1),
                                ("Base", 3, 0, 5, 5, 10), ("Worker", 9, 1, 7, 7, 1)],
                          resources=resources))
    import jpype
    from rts import PlayerAction, UnitAction

    busy = PlayerAction()
    busy.addUnitAction(gs.getPhysicalGameState().getUnit(3), UnitAction(
        UnitAction.TYPE_PRODUCE, UnitAction.DIRECTION_UP, utt.getUnitType("Worker")))
    gs.issueSafe(busy)
    ai = jpype.JClass("stratsynth.ProgramAI")(utt)
    ai.useInterpreter(meaning)
    ranged = int(utt.getUnitType("Ranged").ID)
    orders = jpype.JArray(jpype.JInt)([TRAIN, 1, ranged, 3, 0, MOVE, 2, 0, 1, 0])
    action = ai.step(gs, 0, orders)
    return " ".join(sorted(f"{pair.m_a.getID()}:{pair.m_b}" for pair in action.getActions()
                           if pair.m_a.getID() != 3))


def test_train_that_cannot_be_paid_claims_no_cell_in_the_reference(tmp_path):
    jobs = [(str(tmp_path / f"{m}{r}.xml"), m, r) for m in ("ours", "reference") for r in (2, 9)]
    with PoolMap(1) as pool:
        ours_poor, ours_rich, ref_poor, ref_rich = pool(_train_beside_a_move, jobs)
    # 2 resources, 1 of them taken: the reference's Train gives no order, so the worker
    # moves up; ours still claims (0, 1) for the Ranged unit, so the worker finds no way
    assert ref_poor == "1:wait(10) 2:move(up)"
    assert ours_poor == "1:wait(10) 2:wait(10)"
    # when the player can pay, both train there and the worker waits
    assert ref_rich == ours_rich == "1:produce(left,Ranged) 2:wait(10)"
