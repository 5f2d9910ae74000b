package stratsynth;

import ai.abstraction.pathfinding.PathFinding;
import rts.GameState;
import rts.PhysicalGameState;
import rts.ResourceUsage;
import rts.UnitAction;
import rts.units.Unit;

/**
 * The engine's A* ({@code ai.abstraction.pathfinding.AStarPathFinding}) step for step,
 * giving the same UnitAction for every call, at a fraction of its cost.
 *
 * The search is the engine's: the same open list (kept sorted by cost + Manhattan
 * heuristic, highest first, a new node going after the last one that is not
 * cheaper), the same neighbour order (up, right, down, left), the same end test
 * (squared distance to the target at most range squared) and the same first step.
 * What differs is only bookkeeping, none of which changes a result:
 * <ul>
 * <li>{@code GameState.free(x, y)} walks every unit and every unit action per cell;
 * between {@link #begin} and {@link #end} (one ProgramAI step, during which the game
 * state does not change) each cell's answer is kept for all searches of that step;
 * outside them, for one search, as the engine does;</li>
 * <li>the engine reallocates its seven arrays on every call (its size test compares
 * the map's width with width times height) and clears them; here they are reused and
 * marked by a per-search stamp;</li>
 * <li>the insertion point in the sorted open list is found by binary search (the list
 * is sorted and each node's cost is fixed once it is added, so it is the point the
 * engine's linear scan finds), and elements move with {@code System.arraycopy}.</li>
 * </ul>
 * {@code tests/test_microrts_speed.py} checks that whole matches give the same actions
 * with either path finder.
 */
public final class GridPathFinding extends PathFinding {
    private int size = -1;
    private int[] closed, open, openCost, parents, cost;
    private int[] stamp;        // == search: the node is in the open or closed list
    private int[] closedStamp;  // == search: closed[] is set
    private int[] usedStamp;    // == search: the cell is in the ResourceUsage
    private int[] freeStamp;    // == freeEpoch: gsFree[] holds GameState.free for the cell
    private boolean[] gsFree;
    private int search, freeEpoch;
    private GameState held;     // the state whose free cells are kept (between begin and end)
    private int openinsert;

    /** Keep GameState.free answers across searches until {@link #end} (the state must not
     * change meanwhile). */
    public void begin(GameState gs) {
        held = gs;
        freeEpoch++;
    }

    public void end() {
        held = null;
    }

    private void ensure(int cells) {
        if (cells == size) {
            return;
        }
        size = cells;
        closed = new int[cells];
        open = new int[cells];
        openCost = new int[cells];
        parents = new int[cells];
        cost = new int[cells];
        stamp = new int[cells];
        closedStamp = new int[cells];
        usedStamp = new int[cells];
        freeStamp = new int[cells];
        gsFree = new boolean[cells];
        search = 0;
        freeEpoch = 1;
    }

    private boolean free(GameState gs, int x, int y, int cell) {
        if (usedStamp[cell] == search) {
            return false;
        }
        if (freeStamp[cell] != freeEpoch) {
            freeStamp[cell] = freeEpoch;
            gsFree[cell] = gs.free(x, y);
        }
        return gsFree[cell];
    }

    @Override
    public UnitAction findPath(Unit start, int targetpos, GameState gs, ResourceUsage ru) {
        return findPathToPositionInRange(start, targetpos, 0, gs, ru);
    }

    @Override
    public UnitAction findPathToAdjacentPosition(Unit start, int targetpos, GameState gs,
                                                 ResourceUsage ru) {
        return findPathToPositionInRange(start, targetpos, 1, gs, ru);
    }

    @Override
    public boolean pathExists(Unit start, int targetpos, GameState gs, ResourceUsage ru) {
        return start.getPosition(gs.getPhysicalGameState()) == targetpos
                || findPath(start, targetpos, gs, ru) != null;
    }

    @Override
    public boolean pathToPositionInRangeExists(Unit start, int targetpos, int range,
                                               GameState gs, ResourceUsage ru) {
        int w = gs.getPhysicalGameState().getWidth();
        int x = targetpos % w, y = targetpos / w;
        int d = (x - start.getX()) * (x - start.getX()) + (y - start.getY()) * (y - start.getY());
        return d <= range * range || findPathToPositionInRange(start, targetpos, range, gs, ru) != null;
    }

    @Override
    public UnitAction findPathToPositionInRange(Unit start, int targetpos, int range, GameState gs,
                                                ResourceUsage ru) {
        PhysicalGameState pgs = gs.getPhysicalGameState();
        int w = pgs.getWidth(), h = pgs.getHeight();
        ensure(w * h);
        if (held != gs) {
            freeEpoch++;  // no state held: answers last for this search only
        }
        search++;
        if (search == Integer.MAX_VALUE) {  // stamps wrap: start afresh
            size = -1;
            ensure(w * h);
            search = 1;
        }
        if (ru != null) {
            for (int pos : ru.getPositionsUsed()) {
                usedStamp[pos] = search;
            }
        }
        int targetx = targetpos % w, targety = targetpos / w;
        int sqRange = range * range;
        int startPos = start.getY() * w + start.getX();
        openinsert = 0;
        open[0] = startPos;
        openCost[0] = Math.abs(start.getX() - targetx) + Math.abs(start.getY() - targety);
        parents[0] = startPos;
        stamp[startPos] = search;
        cost[startPos] = 0;
        openinsert = 1;
        while (openinsert > 0) {
            openinsert--;
            int pos = open[openinsert];
            int parent = parents[openinsert];
            if (closedStamp[pos] == search) {
                continue;
            }
            closedStamp[pos] = search;
            closed[pos] = parent;
            int x = pos % w, y = pos / w;
            if ((x - targetx) * (x - targetx) + (y - targety) * (y - targety) <= sqRange) {
                int last = pos;
                while (parent != pos) {
                    last = pos;
                    pos = parent;
                    parent = closed[pos];
                }
                if (last == pos + w) {
                    return new UnitAction(UnitAction.TYPE_MOVE, UnitAction.DIRECTION_DOWN);
                }
                if (last == pos - 1) {
                    return new UnitAction(UnitAction.TYPE_MOVE, UnitAction.DIRECTION_LEFT);
                }
                if (last == pos - w) {
                    return new UnitAction(UnitAction.TYPE_MOVE, UnitAction.DIRECTION_UP);
                }
                if (last == pos + 1) {
                    return new UnitAction(UnitAction.TYPE_MOVE, UnitAction.DIRECTION_RIGHT);
                }
                return null;
            }
            if (y > 0 && stamp[pos - w] != search && free(gs, x, y - 1, pos - w)) {
                addToOpen(pos - w, pos, Math.abs(x - targetx) + Math.abs(y - 1 - targety));
            }
            if (x < w - 1 && stamp[pos + 1] != search && free(gs, x + 1, y, pos + 1)) {
                addToOpen(pos + 1, pos, Math.abs(x + 1 - targetx) + Math.abs(y - targety));
            }
            if (y < h - 1 && stamp[pos + w] != search && free(gs, x, y + 1, pos + w)) {
                addToOpen(pos + w, pos, Math.abs(x - targetx) + Math.abs(y + 1 - targety));
            }
            if (x > 0 && stamp[pos - 1] != search && free(gs, x - 1, y, pos - 1)) {
                addToOpen(pos - 1, pos, Math.abs(x - 1 - targetx) + Math.abs(y - targety));
            }
        }
        return null;
    }

    /** The engine's addToOpen: after the last entry whose cost + heuristic is at least
     * the new node's (the list is non-increasing in it), else at the front. */
    private void addToOpen(int newPos, int oldPos, int heuristic) {
        int c = cost[oldPos] + 1;
        cost[newPos] = c;
        int f = heuristic + c;
        int lo = 0, hi = openinsert;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (openCost[mid] >= f) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int moved = openinsert - lo;
        if (moved > 0) {
            System.arraycopy(open, lo, open, lo + 1, moved);
            System.arraycopy(openCost, lo, openCost, lo + 1, moved);
            System.arraycopy(parents, lo, parents, lo + 1, moved);
        }
        open[lo] = newPos;
        openCost[lo] = f;
        parents[lo] = oldPos;
        openinsert++;
        stamp[newPos] = search;
    }
}
