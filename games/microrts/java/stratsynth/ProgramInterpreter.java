package stratsynth;

import java.util.ArrayList;
import java.util.List;
import rts.GameState;
import rts.PhysicalGameState;
import rts.units.Unit;
import rts.units.UnitType;
import rts.units.UnitTypeTable;

/**
 * The microRTS DSL's meaning in Java: a line-for-line port of stratsynth's Python
 * interpreter ({@code games/microrts/interpreter.py}) and of the language's
 * compilation ({@code gp/languages/microrts.py}), so that a program player needs no
 * Python call in a match. Same snapshot, same statements dropped, same order of
 * tests, same tie-breaking (the first unit in the engine's order wins a tie, as
 * Python's min and max): it gives the same orders as the Python interpreter
 * ({@code tests/test_microrts_speed.py} compares whole matches). Programs with the
 * {@code Random} criterion are not ported (their draws come from Python's generator)
 * and stay with the Python interpreter.
 *
 * The program comes as the prefix list of its tree's node names (DEAP's), e.g.
 * {@code for seq Idle Harvest N_4}.
 */
public final class ProgramInterpreter {
    static final int MOVE = 1, HARVEST = 2, ATTACK = 3, BUILD = 4, TRAIN = 5, IDLE = 6;
    static final int[][] OFFSETS = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};  // Up Right Down Left

    private final Stmt root;
    private final UnitTypeTable utt;
    private int runStamp;
    /**
     * The reference interpreter's meanings (game parameter {@code interpreter=reference},
     * see {@code games/microrts/interpreter.py}): {@code moveToUnit} goes to the first cell
     * the engine's A* reaches next to the target; {@code build} on a blocked cell takes the
     * engine's building-position search, which sees walls and units only; a direction
     * (build's cell, {@code EnemyDir}) is free as {@code GameState.free} says, so the
     * cells unit actions under way will take are refused and this run's builds reserve
     * nothing; and the reference's criteria.
     */
    private boolean reference;

    /** Whether the program follows the reference's meanings (see {@link #reference}). */
    public void useReference(boolean on) {
        reference = on;
    }

    public boolean usesReference() {
        return reference;
    }

    public ProgramInterpreter(String[] prefix, UnitTypeTable utt) {
        this.utt = utt;
        int[] at = {0};
        root = statement(prefix, at);
        if (at[0] != prefix.length) {
            throw new IllegalArgumentException("malformed program: " + (prefix.length - at[0])
                    + " nodes left over");
        }
    }

    /** This cycle's orders for {@link ProgramAI#step}: groups of kind, unit id, a, b, c. */
    public int[] run(GameState gs, int player) {
        Cycle cycle = new Cycle(gs, player, ++runStamp);
        if (root != null) {
            root.run(cycle, null);
        }
        return cycle.orders();
    }

    // ---- the snapshot -------------------------------------------------------------------

    static final class U {
        final long id;
        final int player, x, y, hp;
        final UnitType kind;
        boolean assigned;
        int inOwnRange = -1;  // cached: some enemy within this unit's attack range
        U resource, base;     // cached harvest targets

        U(Unit u) {
            id = u.getID();
            player = u.getPlayer();
            x = u.getX();
            y = u.getY();
            hp = u.getHitPoints();
            kind = u.getType();
        }
    }

    static int manhattan(U a, U b) {
        return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    }

    static boolean within(U a, U b, int distance) {
        int dx = a.x - b.x, dy = a.y - b.y;
        return dx * dx + dy * dy <= distance * distance;
    }

    static boolean produces(UnitType maker, UnitType type) {
        return type.producedBy.contains(maker);
    }

    final class Cycle {
        final int me, width, height, stamp;
        final PhysicalGameState pgs;
        final GameState gs;
        int resources;
        final List<U> own = new ArrayList<>(), enemies = new ArrayList<>(),
                minerals = new ArrayList<>();
        final boolean[] occupied;
        final int[] pendingBuild, pendingTrain, ownCounts, enemyCounts;
        int attacking, harvesting;
        private int[] orders = new int[40];
        private int size;
        private List<U> bases;

        Cycle(GameState gs, int me, int stamp) {
            this.me = me;
            this.stamp = stamp;
            this.gs = gs;
            pgs = gs.getPhysicalGameState();
            width = pgs.getWidth();
            height = pgs.getHeight();
            resources = gs.getPlayer(me).getResources();
            occupied = new boolean[width * height];
            int types = utt.getUnitTypes().size();
            pendingBuild = new int[types];
            pendingTrain = new int[types];
            ownCounts = new int[types];
            enemyCounts = new int[types];
            for (Unit unit : pgs.getUnits()) {
                U u = new U(unit);
                occupied[u.x + u.y * width] = true;
                if (u.player == me) {
                    own.add(u);
                    ownCounts[u.kind.ID]++;
                } else if (u.player >= 0) {
                    enemies.add(u);
                    enemyCounts[u.kind.ID]++;
                } else {
                    minerals.add(u);
                }
            }
        }

        int[] orders() {
            return java.util.Arrays.copyOf(orders, size);
        }

        boolean order(int kind, U u, int a, int b, int c) {
            if (size + 5 > orders.length) {
                orders = java.util.Arrays.copyOf(orders, orders.length * 2);
            }
            orders[size++] = kind;
            orders[size++] = (int) u.id;
            orders[size++] = a;
            orders[size++] = b;
            orders[size++] = c;
            u.assigned = true;
            return true;
        }

        int ownWithPending(UnitType t) {
            return ownCounts[t.ID] + pendingBuild[t.ID] + pendingTrain[t.ID];
        }

        boolean freeCell(int x, int y) {
            return x >= 0 && x < width && y >= 0 && y < height
                    && pgs.getTerrain(x, y) != PhysicalGameState.TERRAIN_WALL
                    && !occupied[x + y * width];
        }

        /**
         * A cell for a direction: with {@code reference}, free as {@code GameState.free}
         * says (the reference's {@code Direction.converte}); else {@link #freeCell}. The
         * reference checks no bounds: off the map, {@code GameState.free} reads the terrain
         * at index x + y * width, a cell at the other edge of the map, and calls the cell
         * free unless that one is a wall (a build there never completes: its worker heads
         * for that other cell). Where that index is outside the map the reference throws;
         * here the cell is not free.
         */
        boolean directionFree(int x, int y) {
            if (!reference) {
                return freeCell(x, y);
            }
            if (x >= 0 && x < width && y >= 0 && y < height) {
                return gs.free(x, y);
            }
            int index = x + y * width;
            return index >= 0 && index < width * height
                    && pgs.getTerrain(index % width, index / width) != PhysicalGameState.TERRAIN_WALL;
        }

        /**
         * The engine's building-position search
         * ({@code AbstractionLayerAI.findBuildingPosition}) around (x, y): square rings of
         * radius 1 up to max(width, height) - 1, each ring's top row (left to right), right
         * column (top to bottom), bottom row, left column; the first free cell, or null.
         */
        int[] buildingPosition(int x, int y) {
            for (int l = 1; l < Math.max(width, height); l++) {
                for (int d = -l; d <= l; d++) {
                    if (freeCell(x + d, y - l)) {
                        return new int[] {x + d, y - l};
                    }
                }
                for (int d = -l; d <= l; d++) {
                    if (freeCell(x + l, y + d)) {
                        return new int[] {x + l, y + d};
                    }
                }
                for (int d = -l; d <= l; d++) {
                    if (freeCell(x + d, y + l)) {
                        return new int[] {x + d, y + l};
                    }
                }
                for (int d = -l; d <= l; d++) {
                    if (freeCell(x - l, y + d)) {
                        return new int[] {x - l, y + d};
                    }
                }
            }
            return null;
        }

        /**
         * The cell where the engine's A* ({@code AStarPathFinding.findPathToPositionInRange2},
         * range 1) from {@code u} first reaches a cell next to {@code target}: open list
         * sorted by cost + Manhattan distance, highest first, the last node taken, a new node
         * going after the last one that is not cheaper; neighbours up, right, down, left.
         * A cell is free as {@code GameState.free} says (no wall, no unit, no unit action
         * under way taking it; cells reserved by this run's builds do not count, as in
         * the reference). Null when no free path reaches one.
         */
        int[] pathEndNextTo(U u, U target) {
            int n = width * height;
            int[] open = new int[n], f = new int[n], cost = new int[n];
            boolean[] seen = new boolean[n];
            int size = 0;
            int start = u.x + u.y * width;
            open[size] = start;
            f[size++] = Math.abs(u.x - target.x) + Math.abs(u.y - target.y);
            seen[start] = true;
            while (size > 0) {
                int pos = open[--size];
                int x = pos % width, y = pos / width;
                int dx = x - target.x, dy = y - target.y;
                if (dx * dx + dy * dy <= 1) {
                    return pos == start ? null : new int[] {x, y};
                }
                for (int[] off : OFFSETS) {
                    int nx = x + off[0], ny = y + off[1];
                    int next = nx + ny * width;
                    if (nx < 0 || nx >= width || ny < 0 || ny >= height || seen[next]
                            || !gs.free(nx, ny)) {
                        continue;
                    }
                    seen[next] = true;
                    cost[next] = cost[pos] + 1;
                    int key = cost[next] + Math.abs(nx - target.x) + Math.abs(ny - target.y);
                    int i = size - 1;
                    while (i >= 0 && f[i] < key) {
                        i--;
                    }
                    System.arraycopy(open, i + 1, open, i + 2, size - i - 1);
                    System.arraycopy(f, i + 1, f, i + 2, size - i - 1);
                    open[i + 1] = next;
                    f[i + 1] = key;
                    size++;
                }
            }
            return null;
        }

        /** The free cell nearest (x, y) in Manhattan rings, or null. */
        int[] nearestFreeCell(int x, int y, int radius) {
            int limit = radius >= 0 ? radius : width + height;
            for (int r = 0; r <= limit; r++) {
                for (int dx = -r; dx <= r; dx++) {
                    int dy = r - Math.abs(dx);
                    if (dy != 0) {
                        if (freeCell(x + dx, y - dy)) {
                            return new int[] {x + dx, y - dy};
                        }
                        if (freeCell(x + dx, y + dy)) {
                            return new int[] {x + dx, y + dy};
                        }
                    } else if (freeCell(x + dx, y)) {
                        return new int[] {x + dx, y};
                    }
                }
            }
            return null;
        }

        int towardEnemy(U unit) {
            if (enemies.isEmpty()) {
                return -1;
            }
            int best = -1;
            long bestD = Long.MAX_VALUE;
            for (int code = 0; code < 4; code++) {
                int x = unit.x + OFFSETS[code][0], y = unit.y + OFFSETS[code][1];
                if (!directionFree(x, y)) {
                    continue;
                }
                long d = Long.MAX_VALUE;
                for (U e : enemies) {
                    long ed = (long) (e.x - x) * (e.x - x) + (long) (e.y - y) * (e.y - y);
                    if (ed < d) {
                        d = ed;
                    }
                }
                if (best < 0 || d < bestD) {
                    best = code;
                    bestD = d;
                }
            }
            return best;
        }

        boolean enemyInOwnRange(U u) {
            if (u.inOwnRange < 0) {
                int range = u.kind.attackRange;
                u.inOwnRange = 0;
                for (U e : enemies) {
                    if (within(u, e, range)) {
                        u.inOwnRange = 1;
                        break;
                    }
                }
            }
            return u.inOwnRange == 1;
        }

        List<U> bases() {
            if (bases == null) {
                bases = new ArrayList<>();
                for (U b : own) {
                    if (b.kind.isStockpile) {
                        bases.add(b);
                    }
                }
            }
            return bases;
        }
    }

    static U nearest(U unit, List<U> candidates) {
        U best = null;
        int bestD = 0;
        for (U c : candidates) {
            int d = manhattan(unit, c);
            if (best == null || d < bestD) {
                best = c;
                bestD = d;
            }
        }
        return best;
    }

    /** The candidate a criterion picks for unit: the first minimal (or, for Farthest,
     * maximal) by the criterion's key, Manhattan distance breaking ties. */
    static U choose(U unit, List<U> candidates, String criterion) {
        return choose(unit, candidates, criterion, false);
    }

    /**
     * With {@code reference}, the reference interpreter's criteria: LessHealthy and
     * MostHealthy compare maximum hit points (the unit type's), Farthest is the first
     * candidate (its comparison never passes).
     */
    static U choose(U unit, List<U> candidates, String criterion, boolean reference) {
        U best = null;
        int bestA = 0, bestB = 0;
        for (U c : candidates) {
            int d = manhattan(unit, c), a, b;
            switch (criterion) {
                case "Closest": a = d; b = 0; break;
                case "Farthest": a = reference ? 0 : -d; b = 0; break;
                case "Strongest": a = -c.kind.maxDamage; b = d; break;
                case "Weakest": a = c.kind.maxDamage; b = d; break;
                case "LessHealthy": a = reference ? c.kind.hp : c.hp; b = d; break;
                case "MostHealthy": a = reference ? -c.kind.hp : -c.hp; b = d; break;
                default: throw new IllegalArgumentException("criterion " + criterion);
            }
            if (best == null || a < bestA || (a == bestA && b < bestB)) {
                best = c;
                bestA = a;
                bestB = b;
            }
        }
        return best;
    }

    // ---- Boolean functions --------------------------------------------------------------

    abstract static class Test {
        abstract boolean player(Cycle c);  // player-level tests

        boolean unit(Cycle c, U u) {
            return player(c);
        }

        final boolean eval(Cycle c, U u, boolean playerLevel) {
            if (playerLevel) {
                return player(c);
            }
            if (u != null) {
                return unit(c, u);
            }
            for (U unit : c.own) {  // outside a for: does some own unit pass?
                if (unit(c, unit)) {
                    return true;
                }
            }
            return false;
        }
    }

    private UnitType type(String token) {
        UnitType t = utt.getUnitType(token.substring(2));
        if (t == null) {
            throw new IllegalArgumentException("unit type " + token);
        }
        return t;
    }

    private static int number(String token) {
        return Integer.parseInt(token.substring(2));
    }

    // ---- statements ---------------------------------------------------------------------

    abstract static class Stmt {
        boolean stable;  // gives commands only (see the Python language module)

        abstract void run(Cycle c, U u);
    }

    /** A statement (null: one that cannot act, dropped) from the prefix list at at[0]. */
    private Stmt statement(String[] p, int[] at) {
        String name = p[at[0]++];
        switch (name) {
            case "skip":
                return null;
            case "command":
                return statement(p, at);
            case "seq": {
                Stmt first = statement(p, at), second = statement(p, at);
                if (first == null) {
                    return second;
                }
                if (second == null) {
                    return first;
                }
                List<Stmt> parts = new ArrayList<>();
                for (Stmt s : new Stmt[] {first, second}) {
                    if (s instanceof Seq) {
                        for (Stmt part : ((Seq) s).parts) {
                            parts.add(part);
                        }
                    } else {
                        parts.add(s);
                    }
                }
                Seq seq = new Seq(parts.toArray(new Stmt[0]));
                seq.stable = first.stable && second.stable;
                return seq;
            }
            case "for": {
                Stmt body = statement(p, at);
                if (body == null) {
                    return null;
                }
                return new For(body, body.stable);
            }
            case "if": {
                Object[] cond = condition(p, at);
                Stmt body = statement(p, at);
                return body == null ? null : new If((Test) cond[0], (Boolean) cond[1], body, null);
            }
            case "ifelse": {
                Object[] cond = condition(p, at);
                Stmt yes = statement(p, at), no = statement(p, at);
                if (yes == null && no == null) {
                    return null;
                }
                return new If((Test) cond[0], (Boolean) cond[1], yes, no);
            }
            default:
                return command(name, p, at);
        }
    }

    static final class Seq extends Stmt {
        final Stmt[] parts;

        Seq(Stmt[] parts) {
            this.parts = parts;
        }

        void run(Cycle c, U u) {
            for (Stmt s : parts) {
                s.run(c, u);
            }
        }
    }

    final class For extends Stmt {
        final Stmt body;
        final boolean once;  // commands only: a second run in one program run does nothing
        int done;

        For(Stmt body, boolean once) {
            this.body = body;
            this.once = once;
            this.stable = once;
        }

        void run(Cycle c, U u) {
            if (once) {
                if (done == c.stamp) {
                    return;
                }
                done = c.stamp;
            }
            for (U unit : c.own) {
                body.run(c, unit);
            }
        }
    }

    static final class If extends Stmt {
        final Test test;
        final boolean playerLevel;
        final Stmt yes, no;

        If(Test test, boolean playerLevel, Stmt yes, Stmt no) {
            this.test = test;
            this.playerLevel = playerLevel;
            this.yes = yes;
            this.no = no;
        }

        void run(Cycle c, U u) {
            if (test.eval(c, u, playerLevel)) {
                if (yes != null) {
                    yes.run(c, u);
                }
            } else if (no != null) {
                no.run(c, u);
            }
        }
    }

    /** {test, playerLevel} from the prefix list. */
    private Object[] condition(String[] p, int[] at) {
        String name = p[at[0]++];
        switch (name) {
            case "HasNumberOfUnits": {
                UnitType t = type(p[at[0]++]);
                int n = number(p[at[0]++]);
                return new Object[] {new Test() {
                    boolean player(Cycle c) {
                        return c.ownWithPending(t) >= n;
                    }
                }, true};
            }
            case "HasLessNumberOfUnits": {
                UnitType t = type(p[at[0]++]);
                int n = number(p[at[0]++]);
                return new Object[] {new Test() {
                    boolean player(Cycle c) {
                        return c.ownWithPending(t) < n;
                    }
                }, true};
            }
            case "OpponentHasNumberOfUnits": {
                UnitType t = type(p[at[0]++]);
                int n = number(p[at[0]++]);
                return new Object[] {new Test() {
                    boolean player(Cycle c) {
                        return c.enemyCounts[t.ID] >= n;
                    }
                }, true};
            }
            case "HaveQtdUnitsAttacking": {
                int n = number(p[at[0]++]);
                return new Object[] {new Test() {
                    boolean player(Cycle c) {
                        return c.attacking >= n;
                    }
                }, true};
            }
            case "HasNumberOfWorkersHarvesting": {
                int n = number(p[at[0]++]);
                return new Object[] {new Test() {
                    boolean player(Cycle c) {
                        return c.harvesting >= n;
                    }
                }, true};
            }
            case "HasUnitWithinDistanceFromOpponent": {
                int n = number(p[at[0]++]);
                return unitTest((c, u) -> {
                    for (U e : c.enemies) {
                        if (within(u, e, n)) {
                            return true;
                        }
                    }
                    return false;
                });
            }
            case "is_Type": {
                UnitType t = type(p[at[0]++]);
                return unitTest((c, u) -> u.kind.name.equals(t.name));
            }
            case "IsBuilder":
                return unitTest((c, u) -> u.kind.name.equals("Worker"));
            case "CanAttack":
                return unitTest((c, u) -> u.kind.canAttack);
            case "CanHarvest":
                return unitTest((c, u) -> u.kind.canHarvest);
            case "HasUnitThatKillsInOneAttack":
                return unitTest((c, u) -> {
                    for (U e : c.enemies) {
                        if (e.hp <= u.kind.maxDamage) {
                            return true;
                        }
                    }
                    return false;
                });
            case "OpponentHasUnitThatKillsUnitInOneAttack":
                return unitTest((c, u) -> {
                    for (U e : c.enemies) {
                        if (e.kind.maxDamage >= u.hp) {
                            return true;
                        }
                    }
                    return false;
                });
            case "HasUnitInOpponentRange":
                return unitTest((c, u) -> {
                    for (U e : c.enemies) {
                        if (within(u, e, e.kind.attackRange)) {
                            return true;
                        }
                    }
                    return false;
                });
            case "OpponentHasUnitInPlayerRange":
                return unitTest((c, u) -> c.enemyInOwnRange(u));
            default:
                throw new IllegalArgumentException("unknown Boolean function " + name);
        }
    }

    interface UnitPredicate {
        boolean test(Cycle c, U u);
    }

    private static Object[] unitTest(UnitPredicate predicate) {
        return new Object[] {new Test() {
            boolean player(Cycle c) {
                throw new IllegalStateException("unit test used as a player test");
            }

            @Override
            boolean unit(Cycle c, U u) {
                return predicate.test(c, u);
            }
        }, false};
    }

    // ---- commands -----------------------------------------------------------------------

    interface Action {
        boolean apply(Cycle c, U u);  // called only for a unit without an action
    }

    static final class Command extends Stmt {
        final Action action;

        Command(Action action) {
            this.action = action;
            this.stable = true;
        }

        void run(Cycle c, U u) {
            if (u != null) {
                if (!u.assigned) {
                    action.apply(c, u);
                }
                return;
            }
            for (U unit : c.own) {  // outside a for: the first unit that takes it
                if (!unit.assigned && action.apply(c, unit)) {
                    return;
                }
            }
        }
    }

    private static int directionCode(Cycle c, U u, String direction) {
        switch (direction) {
            case "D_EnemyDir": return c.towardEnemy(u);
            case "D_Up": return 0;
            case "D_Right": return 1;
            case "D_Down": return 2;
            case "D_Left": return 3;
            default: throw new IllegalArgumentException("direction " + direction);
        }
    }

    private Stmt command(String name, String[] p, int[] at) {
        switch (name) {
            case "Build": {
                UnitType t = type(p[at[0]++]);
                String direction = p[at[0]++];
                int n = number(p[at[0]++]);
                directionCode(null, null, direction.equals("D_EnemyDir") ? "D_Up" : direction);
                return new Command((c, u) -> {
                    if (!u.kind.name.equals("Worker") || !produces(u.kind, t)
                            || c.resources < t.cost) {
                        return false;
                    }
                    if (c.ownCounts[t.ID] + c.pendingBuild[t.ID] >= n) {
                        return false;
                    }
                    int code = directionCode(c, u, direction);
                    int[] cell = null;
                    if (code >= 0) {
                        int x = u.x + OFFSETS[code][0], y = u.y + OFFSETS[code][1];
                        if (c.directionFree(x, y)) {
                            cell = new int[] {x, y};
                        }
                    }
                    if (cell == null) {
                        cell = reference ? c.buildingPosition(u.x, u.y)
                                : c.nearestFreeCell(u.x, u.y, -1);
                        if (cell == null) {
                            return false;
                        }
                    }
                    if (!reference) {  // the reference reserves nothing across commands
                        c.occupied[cell[0] + cell[1] * c.width] = true;
                    }
                    c.resources -= t.cost;
                    c.pendingBuild[t.ID]++;
                    return c.order(BUILD, u, t.ID, cell[0], cell[1]);
                });
            }
            case "Train": {
                UnitType t = type(p[at[0]++]);
                String direction = p[at[0]++];
                int n = number(p[at[0]++]);
                directionCode(null, null, direction.equals("D_EnemyDir") ? "D_Up" : direction);
                return new Command((c, u) -> {
                    if (u.kind.canMove || !produces(u.kind, t) || c.resources < t.cost) {
                        return false;
                    }
                    if (c.ownCounts[t.ID] + c.pendingTrain[t.ID] >= n) {
                        return false;
                    }
                    int code = directionCode(c, u, direction);
                    c.resources -= t.cost;
                    c.pendingTrain[t.ID]++;
                    return c.order(TRAIN, u, t.ID, code, 0);
                });
            }
            case "Harvest": {
                int n = number(p[at[0]++]);
                return new Command((c, u) -> {
                    if (!u.kind.canHarvest || c.harvesting >= n) {
                        return false;
                    }
                    if (c.minerals.isEmpty() || c.bases().isEmpty()) {
                        return false;
                    }
                    if (u.resource == null) {
                        u.resource = nearest(u, c.minerals);
                        u.base = nearest(u, c.bases());
                    }
                    c.harvesting++;
                    return c.order(HARVEST, u, (int) u.resource.id, (int) u.base.id, 0);
                });
            }
            case "Attack": {
                String criterion = criterion(p[at[0]++]);
                return new Command((c, u) -> {
                    if (!u.kind.canAttack) {
                        return false;
                    }
                    U target = choose(u, c.enemies, criterion, reference);
                    if (target == null) {
                        return false;
                    }
                    c.attacking++;
                    return c.order(ATTACK, u, (int) target.id, 0, 0);
                });
            }
            case "moveToUnit": {
                String side = p[at[0]++];
                String criterion = criterion(p[at[0]++]);
                if (!side.equals("Tp_Enemy") && !side.equals("Tp_Ally")) {
                    throw new IllegalArgumentException("player " + side);
                }
                return new Command((c, u) -> {
                    if (!u.kind.canMove) {
                        return false;
                    }
                    List<U> pool;
                    if (side.equals("Tp_Enemy")) {
                        pool = c.enemies;
                    } else {
                        pool = new ArrayList<>(c.own.size());
                        for (U a : c.own) {
                            if (a != u) {
                                pool.add(a);
                            }
                        }
                    }
                    U target = choose(u, pool, criterion, reference);
                    if (target == null || manhattan(u, target) <= 1) {
                        return false;
                    }
                    if (reference) {
                        int[] cell = c.pathEndNextTo(u, target);
                        return cell != null && c.order(MOVE, u, cell[0], cell[1], 0);
                    }
                    int bestX = 0, bestY = 0, bestD = -1;
                    for (int[] off : OFFSETS) {
                        int x = target.x + off[0], y = target.y + off[1];
                        if (c.freeCell(x, y)) {
                            int d = Math.abs(x - u.x) + Math.abs(y - u.y);
                            if (bestD < 0 || d < bestD) {
                                bestX = x;
                                bestY = y;
                                bestD = d;
                            }
                        }
                    }
                    if (bestD < 0) {
                        return false;
                    }
                    return c.order(MOVE, u, bestX, bestY, 0);
                });
            }
            case "Idle":
                return new Command((c, u) -> {
                    if (!u.kind.canAttack || !c.enemyInOwnRange(u)) {
                        return false;
                    }
                    return c.order(IDLE, u, 0, 0, 0);
                });
            case "MoveAway":
                return new Command((c, u) -> {
                    if (!u.kind.canMove) {
                        return false;
                    }
                    List<U> bases = c.bases();
                    if (bases.isEmpty()) {
                        return false;
                    }
                    U base = nearest(u, bases);
                    int x = Math.min(Math.max(2 * u.x - base.x, 0), c.width - 1);
                    int y = Math.min(Math.max(2 * u.y - base.y, 0), c.height - 1);
                    if (x == u.x && y == u.y) {
                        return false;
                    }
                    int[] cell = c.nearestFreeCell(x, y, 2);
                    if (cell == null || (cell[0] == u.x && cell[1] == u.y)) {
                        return false;
                    }
                    return c.order(MOVE, u, cell[0], cell[1], 0);
                });
            default:
                throw new IllegalArgumentException("unknown program node " + name);
        }
    }

    private static String criterion(String token) {
        String name = token.substring(3);
        switch (name) {
            case "Closest": case "Farthest": case "Strongest": case "Weakest":
            case "LessHealthy": case "MostHealthy":
                return name;
            default:
                throw new IllegalArgumentException("criterion " + token
                        + " (Random stays with the Python interpreter)");
        }
    }
}
