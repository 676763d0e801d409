package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * How fast the target's CPUs are right now: a thread of the lab, moved onto the target's CPUs, does
 * a fixed piece of integer work four times a second and measures the CPU time it took (its own
 * thread CPU time, so waiting for the target's threads does not count). On a virtual machine the
 * same work takes up to 40% longer when the host is busy, and the target's throughput falls with
 * it: here their per-second correlation was -0.85 (docs/steady-state.md). The canary costs about
 * 0.3% of the target's CPU, the same for every target.
 *
 * <p>It also times a chase of dependent loads through 64 MB in random order (a memory canary): in the
 * paired json runs the compute canary stayed within 5% while every target's throughput swung by a
 * third between blocks, with its CPU time per request up as much, so what slows these machines is
 * not (only) the core's speed; host-noise.sh measured memory moving +-35% where compute moved +-8%.
 */
public final class CpuCanary implements AutoCloseable {
    private static final long PERIOD_MS = 250;
    private static final int WORK = 60_000;
    private static final int TRIES = 3;
    /** 64 MB of ints, beyond the last-level cache of the hosts seen so far (32 MB here). */
    private static final int CHASE_SIZE = 16 << 20;
    /** ~1 ms of dependent loads per reading at ~100 ns each. */
    private static final int CHASE_STEPS = 10_000;

    private final List<long[]> readings = new ArrayList<>();
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long sink;
    private int[] chase;
    private int at;

    /** @param pin moves the canary thread (by its Linux thread id) onto the target's CPUs */
    public CpuCanary(LongConsumer pin) {
        thread = new Thread(() -> loop(pin), "loomflux-cpu-canary");
        thread.setDaemon(true);
        thread.start();
    }

    /** Median canary time in microseconds of the readings in [fromMs, toMs); null when there are none. */
    public Double microsIn(long fromMs, long toMs) {
        return median(fromMs, toMs, 1, 1000.0);
    }

    /** Median nanoseconds per load of the memory canary's readings in [fromMs, toMs); null when there are none. */
    public Double memoryNanosIn(long fromMs, long toMs) {
        return median(fromMs, toMs, 2, CHASE_STEPS);
    }

    private synchronized Double median(long fromMs, long toMs, int field, double divisor) {
        double[] v = readings.stream().filter(r -> r[0] >= fromMs && r[0] < toMs && r[field] > 0).mapToDouble(r -> r[field] / divisor).toArray();
        return v.length == 0 ? null : new Median().evaluate(v);
    }

    private void loop(LongConsumer pin) {
        // Compiled before it measures anything, on the lab's own CPUs.
        for (int i = 0; i < 2000; i++) {
            work();
        }
        chase = cycle(CHASE_SIZE);
        for (int i = 0; i < 200; i++) {
            chase();
        }
        OptionalLong tid = linuxThreadId();
        if (tid.isEmpty()) {
            return;
        }
        pin.accept(tid.getAsLong());
        while (running) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < TRIES; i++) {
                long c0 = mx.getCurrentThreadCpuTime();
                work();
                best = Math.min(best, mx.getCurrentThreadCpuTime() - c0);
            }
            long m0 = mx.getCurrentThreadCpuTime();
            chase();
            long memory = mx.getCurrentThreadCpuTime() - m0;
            synchronized (this) {
                readings.add(new long[] {System.currentTimeMillis(), best, memory});
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A dependent chain of multiplications: no memory traffic, nothing the JIT can fold away. */
    private void work() {
        long x = sink | 1;
        for (int i = 0; i < WORK; i++) {
            x = x * 6364136223846793005L + i;
        }
        sink = x;
    }

    /** Dependent loads in the cycle's random order: each waits for the one before, so none is prefetched. */
    private void chase() {
        int i = at;
        for (int s = 0; s < CHASE_STEPS; s++) {
            i = chase[i];
        }
        at = i;
    }

    /** One random cycle through every index (Sattolo's shuffle). */
    private static int[] cycle(int n) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = i;
        }
        SplittableRandom random = new java.util.SplittableRandom(42);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }

    /** Only Linux lets a single thread be moved, and names it in /proc/thread-self. */
    private static OptionalLong linuxThreadId() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            return OptionalLong.of(Long.parseLong(self.getFileName().toString()));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
