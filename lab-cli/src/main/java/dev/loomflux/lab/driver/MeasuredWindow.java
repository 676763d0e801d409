package dev.loomflux.lab.driver;

import java.util.function.LongSupplier;

/**
 * Which seconds of a continuous load are measured: from a second chosen while the load runs (when
 * the target became steady) for a fixed number of seconds. The seconds before it are warmup on the
 * same connections: closing them between warmup and measurement made the targets' JIT throw away hot
 * code (webflux: 65 deoptimizations in the first measured second, then 13 s of recompiling inside a
 * 15 s measurement; docs/steady-state.md).
 */
public final class MeasuredWindow {
    private final int seconds;
    private volatile int from = -1;
    private volatile LongSupplier elapsedMs = () -> 0;

    /** @param seconds how long the measured window lasts once it starts */
    public MeasuredWindow(int seconds) {
        this.seconds = seconds;
    }

    /** Starts the window at second {@code t} of the load (from its first request); only the first call counts. */
    public synchronized void startAt(int t) {
        if (from < 0) {
            from = t;
        }
    }

    /** Starts the window at the next whole second of the load; only the first call counts. */
    public void startNext() {
        startAt((int) (elapsedMs.getAsLong() / 1000) + 1);
    }

    /** Set by the load driver: milliseconds since the load started. */
    public void clock(LongSupplier elapsedMs) {
        this.elapsedMs = elapsedMs;
    }

    /** The first measured second, or -1 while still warming up. */
    public int from() {
        return from;
    }

    public int seconds() {
        return seconds;
    }

    /** The window has started and its last second, plus one for late responses, is over. */
    boolean over(long elapsedMs) {
        int f = from;
        return f >= 0 && elapsedMs >= (f + seconds + 1) * 1000L;
    }
}
