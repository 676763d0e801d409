package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongConsumer;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * How fast the target's CPUs are right now: a thread of the lab, moved onto the target's CPUs, does
 * a fixed piece of integer work four times a second and measures the CPU time it took (its own
 * thread CPU time, so waiting for the target's threads does not count). On a virtual machine the
 * same work takes up to 40% longer when the host is busy, and the target's throughput falls with
 * it: here their per-second correlation was -0.85 (docs/steady-state.md). The canary costs about
 * 0.3% of the target's CPU, the same for every target.
 */
public final class CpuCanary implements AutoCloseable {
    private static final long PERIOD_MS = 250;
    private static final int WORK = 60_000;
    private static final int TRIES = 3;

    private final List<long[]> readings = new ArrayList<>();
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long sink;

    /** @param pin moves the canary thread (by its Linux thread id) onto the target's CPUs */
    public CpuCanary(LongConsumer pin) {
        thread = new Thread(() -> loop(pin), "loomflux-cpu-canary");
        thread.setDaemon(true);
        thread.start();
    }

    /** Median canary time in microseconds of the readings in [fromMs, toMs); null when there are none. */
    public synchronized Double microsIn(long fromMs, long toMs) {
        double[] v = readings.stream().filter(r -> r[0] >= fromMs && r[0] < toMs).mapToDouble(r -> r[1] / 1000.0).toArray();
        return v.length == 0 ? null : new Median().evaluate(v);
    }

    private void loop(LongConsumer pin) {
        // Compiled before it measures anything, on the lab's own CPUs.
        for (int i = 0; i < 2000; i++) {
            work();
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
            synchronized (this) {
                readings.add(new long[] {System.currentTimeMillis(), best});
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
