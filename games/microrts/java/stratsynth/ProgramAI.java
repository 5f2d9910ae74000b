package stratsynth;

import ai.abstraction.AbstractAction;
import ai.abstraction.AbstractionLayerAI;
import ai.abstraction.Train;
import ai.abstraction.pathfinding.AStarPathFinding;
import ai.core.AI;
import ai.core.ParameterSpecification;
import java.util.ArrayList;
import java.util.List;
import rts.GameState;
import rts.PhysicalGameState;
import rts.PlayerAction;
import rts.ResourceUsage;
import rts.UnitAction;
import rts.units.Unit;
import rts.units.UnitType;
import rts.units.UnitTypeTable;

/**
 * The abstraction-layer AI of stratsynth's DSL program players.
 *
 * With a program ({@link ProgramInterpreter}, the default) it is an ordinary Java AI:
 * getAction runs the program and translates its orders, no Python call. Driven by
 * the Python interpreter instead, a cycle makes one call to read every unit
 * ({@link #units}) and one call to hand over every order ({@link #step}) (crossing
 * from Python into the JVM costs microseconds per call). The orders go to
 * AbstractionLayerAI's own
 * move/harvest/attack/build/train/idle, and translateActions turns them into unit
 * actions (A* path finding, resource checks, NONE for idle units). As in the
 * reference interpreter of the DSL, abstract actions last one cycle: the program
 * runs again on the next cycle a unit is free.
 */
public final class ProgramAI extends AbstractionLayerAI {
    /** Ints per unit in {@link #units}. */
    public static final int FIELDS = 8;

    public static final int MOVE = 1, HARVEST = 2, ATTACK = 3, BUILD = 4, TRAIN = 5, IDLE = 6;

    private final UnitTypeTable utt;

    /** When not null, every step appends "cycle player-action" (the tests compare traces). */
    public List<String> trace;

    /** The program, when it runs in Java (null: orders come from Python through step). */
    private final ProgramInterpreter program;
    private final String[] prefix;

    /** The reference interpreter's Train (see {@link TrainToward}), with interpreter=reference. */
    private boolean referenceTrain;

    public ProgramAI(UnitTypeTable utt) {
        this(utt, null);
    }

    /**
     * A program player that needs no Python call: the program (its tree's prefix list of
     * node names, see {@link ProgramInterpreter}) runs in {@link #getAction}.
     */
    public ProgramAI(UnitTypeTable utt, String[] prefix) {
        super(new GridPathFinding());
        this.utt = utt;
        this.prefix = prefix;
        this.program = prefix == null ? null : new ProgramInterpreter(prefix, utt);
    }

    /**
     * The path finder by name: "grid" (the default, {@link GridPathFinding}: the
     * engine's A* with the same results, cheaper) or "engine" (AStarPathFinding itself).
     */
    public void usePathFinding(String name) {
        switch (name) {
            case "grid":
                setPathFinding(new GridPathFinding());
                break;
            case "engine":
                setPathFinding(new AStarPathFinding());
                break;
            default:
                throw new IllegalArgumentException("unknown path finding '" + name
                        + "' (grid or engine)");
        }
    }

    /**
     * The two players' resources, then every unit as FIELDS ints: id, player,
     * type id, x, y, hit points, resources, busy (1 while it executes a unit action).
     */
    public static int[] units(GameState gs) {
        List<Unit> all = gs.getPhysicalGameState().getUnits();
        int[] out = new int[2 + all.size() * FIELDS];
        out[0] = gs.getPlayer(0).getResources();
        out[1] = gs.getPlayer(1).getResources();
        int i = 2;
        for (Unit u : all) {
            out[i++] = (int) u.getID();
            out[i++] = u.getPlayer();
            out[i++] = u.getType().ID;
            out[i++] = u.getX();
            out[i++] = u.getY();
            out[i++] = u.getHitPoints();
            out[i++] = u.getResources();
            out[i++] = gs.getActionAssignment(u) == null ? 0 : 1;
        }
        return out;
    }

    /**
     * Cells (index x + y * width) free of walls and units that {@code GameState.free}
     * still refuses: those that unit actions under way will take. The reference
     * interpreter's moveToUnit searches with {@code GameState.free}.
     */
    public static int[] busyCells(GameState gs) {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        int w = pgs.getWidth(), h = pgs.getHeight();
        boolean[] unit = new boolean[w * h];
        for (Unit u : pgs.getUnits()) {
            unit[u.getX() + u.getY() * w] = true;
        }
        List<Integer> busy = new ArrayList<>();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (!unit[x + y * w] && pgs.getTerrain(x, y) != PhysicalGameState.TERRAIN_WALL
                        && !gs.free(x, y)) {
                    busy.add(x + y * w);
                }
            }
        }
        int[] out = new int[busy.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = busy.get(i);
        }
        return out;
    }

    /** The map's walls as 0/1 per cell (row-major, index x + y * width). */
    public static int[] walls(GameState gs) {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        int w = pgs.getWidth(), h = pgs.getHeight();
        int[] out = new int[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out[x + y * w] = pgs.getTerrain(x, y) == PhysicalGameState.TERRAIN_WALL ? 1 : 0;
            }
        }
        return out;
    }

    /**
     * This cycle's orders (groups of 5 ints: kind, unit id, a, b, c), then the
     * player action: MOVE a=x b=y; HARVEST a=resource id b=base id; ATTACK a=target
     * id; BUILD a=type id b=x c=y; TRAIN a=type id b=direction (-1: the default
     * placement); IDLE. Orders replace the previous cycle's.
     */
    public PlayerAction step(GameState gs, int player, int[] orders) {
        actions.clear();
        PhysicalGameState pgs = gs.getPhysicalGameState();
        for (int i = 0; i + 4 < orders.length; i += 5) {
            Unit u = pgs.getUnit(orders[i + 1]);
            if (u == null || u.getPlayer() != player) {
                continue;
            }
            int a = orders[i + 2], b = orders[i + 3], c = orders[i + 4];
            switch (orders[i]) {
                case MOVE:
                    move(u, a, b);
                    break;
                case HARVEST: {
                    Unit resource = pgs.getUnit(a), base = pgs.getUnit(b);
                    if (resource != null && base != null) {
                        harvest(u, resource, base);
                    }
                    break;
                }
                case ATTACK: {
                    Unit target = pgs.getUnit(a);
                    if (target != null) {
                        attack(u, target);
                    }
                    break;
                }
                case BUILD:
                    build(u, utt.getUnitType(a), b, c);
                    break;
                case TRAIN:
                    actions.put(u, new TrainToward(u, utt.getUnitType(a), b, referenceTrain));
                    break;
                case IDLE:
                    idle(u);
                    break;
                default:
                    break;
            }
        }
        GridPathFinding grid = pf instanceof GridPathFinding ? (GridPathFinding) pf : null;
        PlayerAction action;
        if (grid != null) {
            grid.begin(gs);  // the state does not change while the orders are translated
        }
        try {
            action = translateActions(player, gs);
        } finally {
            if (grid != null) {
                grid.end();
            }
        }
        if (trace != null) {
            trace.add(gs.getTime() + " " + action);
        }
        return action;
    }

    /**
     * Train toward a direction when that cell is free, else where Train would.
     *
     * With {@code reference}, as the reference interpreter's Train with a preferred
     * direction (the abstraction layer's {@code Train(unit, type, preference)}): the
     * preferred cell is taken when {@code GameState.free} accepts it, even if another
     * unit's order this cycle already claims it, and the order is given only when the
     * engine allows it now (the player can pay). Otherwise ({@code ours}) the cell must
     * also be unclaimed and the order is given unchecked: it still claims its cell for
     * the orders after it, then the engine drops it when the player cannot pay.
     */
    static final class TrainToward extends AbstractAction {
        private final UnitType type;
        private final int direction;
        private final Train fallback;
        private final boolean reference;
        private boolean done;

        TrainToward(Unit u, UnitType type, int direction, boolean reference) {
            super(u);
            this.type = type;
            this.direction = direction;
            this.fallback = new Train(u, type);
            this.reference = reference;
        }

        @Override
        public boolean completed(GameState gs) {
            return done || fallback.completed(gs);
        }

        @Override
        public UnitAction execute(GameState gs, ResourceUsage ru) {
            Unit u = getUnit();
            if (direction >= 0) {
                int x = u.getX() + UnitAction.DIRECTION_OFFSET_X[direction];
                int y = u.getY() + UnitAction.DIRECTION_OFFSET_Y[direction];
                PhysicalGameState pgs = gs.getPhysicalGameState();
                if (x >= 0 && y >= 0 && x < pgs.getWidth() && y < pgs.getHeight()
                        && gs.free(x, y) && reference) {
                    done = true;
                    UnitAction produce = new UnitAction(UnitAction.TYPE_PRODUCE, direction, type);
                    return gs.isUnitActionAllowed(u, produce) ? produce : null;
                }
                if (x >= 0 && y >= 0 && x < pgs.getWidth() && y < pgs.getHeight()
                        && gs.free(x, y) && !ru.getPositionsUsed().contains(x + y * pgs.getWidth())) {
                    done = true;
                    return new UnitAction(UnitAction.TYPE_PRODUCE, direction, type);
                }
            }
            return fallback.execute(gs, ru);
        }

        @Override
        public void toxml(util.XMLWriter w) {
            fallback.toxml(w);
        }
    }

    /**
     * With a program: its orders when one of the player's units is free to act (the
     * engine ignores orders for busy units, and the program runs from scratch, so other
     * cycles change nothing), else no action; as stratsynth's Python ProgramBot.
     */
    @Override
    public PlayerAction getAction(int player, GameState gs) {
        if (program == null) {
            throw new UnsupportedOperationException("ProgramAI without a program is driven by "
                    + "stratsynth's step()");
        }
        if (!gs.canExecuteAnyAction(player)) {
            return new PlayerAction();
        }
        return step(gs, player, program.run(gs, player));
    }

    /**
     * Which interpreter's meaning of moveToUnit, a blocked build and the criteria the Java
     * program uses, and which Train the orders get ({@link TrainToward}): "ours" (the
     * default) or "reference" (see {@link ProgramInterpreter#useReference}). A ProgramAI
     * driven by the Python interpreter takes it for Train alone.
     */
    public void useInterpreter(String name) {
        if (!name.equals("ours") && !name.equals("reference")) {
            throw new IllegalArgumentException("unknown interpreter '" + name
                    + "' (ours or reference)");
        }
        referenceTrain = name.equals("reference");
        if (program != null) {
            program.useReference(referenceTrain);
        }
    }

    @Override
    public AI clone() {
        ProgramAI copy = new ProgramAI(utt, prefix);
        if (referenceTrain) {
            copy.useInterpreter("reference");
        }
        return copy;
    }

    @Override
    public List<ParameterSpecification> getParameters() {
        return new ArrayList<>();
    }
}
