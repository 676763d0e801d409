package dev.loomflux.lab.measure;

import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.Result;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The driver's self-check: the lab JVM, with the driver's own processes where it runs any (JMeter),
 * is the load driver, so their CPU use per second tells whether the driver, not the target, was the
 * bottleneck (seed 000 ran k6 on the server's cores). Counted from the lab's JVM alone, a JMeter run
 * reads a fraction of what Hyperfoil's does for the same load (docs/scale-out.md, "The second driver").
 */
public final class DriverCpu implements AutoCloseable {
    /** Above this share of its CPU set, the driver may have limited the load it offered. */
    static final double SATURATED = 0.90;

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final int cpus;
    private final Supplier<List<ProcessHandle>> others;
    /** Each driver process's CPU time at the last sample; one first seen later started since, and counts from 0. */
    private final Map<Long, Long> othersNanos = new HashMap<>();
    private final List<Double> perSecond = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean running = true;

    /** The lab's JVM alone. */
    public DriverCpu(int cpus) {
        this(cpus, List::of);
    }

    /** @param others the driver's processes besides the lab's JVM, asked every second */
    public DriverCpu(int cpus, Supplier<List<ProcessHandle>> others) {
        this.cpus = cpus;
        this.others = others;
        othersCpu();
        sampler = new Thread(this::sample, "loomflux-driver-cpu");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        long lastCpu = os.getProcessCpuTime();
        long lastWall = System.nanoTime();
        while (running) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            long cpu = os.getProcessCpuTime();
            long others = othersCpu();
            long wall = System.nanoTime();
            synchronized (perSecond) {
                perSecond.add(100.0 * (cpu - lastCpu + others) / (wall - lastWall));
            }
            lastCpu = cpu;
            lastWall = wall;
        }
    }

    /** The driver processes' CPU time since the last call, in ns. A process that ended meanwhile loses its last part. */
    private long othersCpu() {
        long sum = 0;
        for (ProcessHandle p : others.get()) {
            long now = p.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
            if (now >= 0) {
                sum += now - othersNanos.getOrDefault(p.pid(), 0L);
                othersNanos.put(p.pid(), now);
            }
        }
        return sum;
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }

    /** CPU % where 100 = one core, for each full second so far. */
    public List<Double> series() {
        synchronized (perSecond) {
            return List.copyOf(perSecond);
        }
    }

    public double mean() {
        return series().stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    public double max() {
        return series().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    public boolean saturated() {
        return saturated(mean(), cpus);
    }

    /** Whether a driver (the lab's, or a JMeter agent) at {@code meanPct} of one core used at least {@link #SATURATED} of its {@code cpus}. */
    static boolean saturated(double meanPct, int cpus) {
        return meanPct >= SATURATED * 100 * cpus;
    }

    public int cpus() {
        return cpus;
    }

    /** results.json's driver section. */
    DriverCheck check() {
        return new DriverCheck(cpus(), Result.round(mean()), Result.round(max()), saturated(), !saturated(), null);
    }
}
