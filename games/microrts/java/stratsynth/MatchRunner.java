package stratsynth;

import ai.core.AI;
import java.util.LinkedHashMap;
import java.util.Map;
import rts.GameState;
import rts.PlayerAction;
import rts.units.Unit;

/**
 * The match loop on the Java side, so that a match against a Python DSL program
 * crosses into the JVM once per cycle in which the program can act, not five or six
 * times per cycle.
 *
 * Each cycle is what stratsynth's Python loop does: every Java AI's getAction on
 * the current state, the actions issued seat 0 first (issueSafe), then cycle(). A
 * seat played from Python (a null AI) gives its action through
 * {@link #stepAndAdvance} or {@link #submit}. Units are censused every
 * {@code statsEvery} cycles (id -> player, type), as the Python census does.
 */
public final class MatchRunner {
    /** {@link #advance} results; a positive result is the mask of Python seats to act (1, 2, 3). */
    public static final int OVER = 0, FORFEIT = -1, PAUSE = -2;

    private final GameState gs;
    private final AI[] ais;
    private final PlayerAction[] pending = new PlayerAction[2];
    private final int cap;
    private final int statsEvery;
    private int cycles;
    private int forfeit = -1;
    private String error;
    private final Map<Long, int[]> seen = new LinkedHashMap<>();
    private final long[] seatNanos = new long[2];

    /** Time seatNanos by the thread's CPU clock instead of the wall clock (the benchmark's
     * choice on a shared machine: a call costs about a microsecond). */
    public static boolean threadCpuClock = false;
    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private static long clock() {
        return threadCpuClock ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    public MatchRunner(GameState gs, AI ai0, AI ai1, int cap, int statsEvery) {
        this.gs = gs;
        this.ais = new AI[] {ai0, ai1};
        this.cap = cap;
        this.statsEvery = statsEvery;
        if (statsEvery > 0) {
            census();
        }
    }

    public int cycles() {
        return cycles;
    }

    /** The seat whose AI threw, or -1. */
    public int forfeit() {
        return forfeit;
    }

    public String error() {
        return error;
    }

    /** Nanoseconds each seat spent deciding on the Java side: a Java AI's getAction, or
     * a Python seat's translation of its orders (ProgramAI.step); wall or thread CPU
     * time ({@link #threadCpuClock}). */
    public long[] seatNanos() {
        return seatNanos.clone();
    }

    /**
     * Play cycles until a Python seat can act (returns the mask of those seats), the
     * match is over or capped (OVER), a Java AI threw (FORFEIT), or {@code maxCycles}
     * cycles were played by this call (PAUSE, so the caller can check its clock).
     */
    public int advance(int maxCycles) {
        int played = 0;
        while (true) {
            if (gs.gameover() || cycles >= cap) {
                return OVER;
            }
            int mask = 0;
            for (int seat = 0; seat < 2; seat++) {
                if (ais[seat] == null && gs.canExecuteAnyAction(seat)) {
                    mask |= 1 << seat;
                }
            }
            if (mask != 0) {
                return mask;
            }
            if (played >= maxCycles) {
                return PAUSE;
            }
            if (!finishCycle()) {
                return FORFEIT;
            }
            played++;
        }
    }

    /** A Python seat's action for the current cycle (when both Python seats act). */
    public void submit(int seat, PlayerAction action) {
        pending[seat] = action;
    }

    /**
     * The Python seat's orders through its bridge, the other seats' actions, one
     * cycle, then {@link #advance}; returns {result, then when result > 0 the units as
     * {@link ProgramAI#units}}: one JVM call per decision cycle.
     */
    public int[] stepAndAdvance(int seat, ProgramAI bridge, int[] orders, int maxCycles) {
        long started = clock();
        try {
            pending[seat] = bridge.step(gs, seat, orders);
            seatNanos[seat] += clock() - started;
        } catch (RuntimeException e) {
            forfeit = seat;
            error = e.toString();
            return new int[] {FORFEIT};
        }
        if (!finishCycle()) {
            return new int[] {FORFEIT};
        }
        return withUnits(advance(maxCycles));
    }

    /** {@link #advance}, with the units when a Python seat is to act. */
    public int[] advanceWithUnits(int maxCycles) {
        return withUnits(advance(maxCycles));
    }

    private int[] withUnits(int result) {
        if (result <= 0) {
            return new int[] {result};
        }
        int[] units = ProgramAI.units(gs);
        int[] out = new int[units.length + 1];
        out[0] = result;
        System.arraycopy(units, 0, out, 1, units.length);
        return out;
    }

    private boolean finishCycle() {
        PlayerAction[] actions = new PlayerAction[2];
        for (int seat = 0; seat < 2; seat++) {
            if (ais[seat] != null) {
                long started = clock();
                try {
                    actions[seat] = ais[seat].getAction(seat, gs);
                    seatNanos[seat] += clock() - started;
                } catch (Exception e) {
                    forfeit = seat;
                    error = e.toString();
                    return false;
                }
            } else {
                actions[seat] = pending[seat];
                pending[seat] = null;
            }
        }
        for (PlayerAction action : actions) {
            if (action != null) {
                gs.issueSafe(action);
            }
        }
        gs.cycle();
        cycles++;
        if (statsEvery > 0 && cycles % statsEvery == 0) {
            census();
        }
        return true;
    }

    /** Record every unit now on the map (id -> player, type id). */
    public void census() {
        for (Unit u : gs.getPhysicalGameState().getUnits()) {
            seen.put(u.getID(), new int[] {u.getPlayer(), u.getType().ID});
        }
    }

    /** Units ever censused: id, player, type id per unit. */
    public long[] seenRows() {
        long[] out = new long[seen.size() * 3];
        int i = 0;
        for (Map.Entry<Long, int[]> e : seen.entrySet()) {
            out[i++] = e.getKey();
            out[i++] = e.getValue()[0];
            out[i++] = e.getValue()[1];
        }
        return out;
    }
}
