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
    /** Per sample: its end in seconds since the sampling began, and the CPU % over the second before it. */
    private final List<double[]> perSecond = new ArrayList<>();
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
        long first = lastWall;
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
                perSecond.add(new double[] {(wall - first) / 1e9, 100.0 * (cpu - lastCpu + others) / (wall - lastWall)});
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
        return series(Duration.ofDays(1));
    }

    /**
     * CPU % for each full second that ended inside the first {@code window} of the sampling, half a second's grace
     * for the sampler's own lateness; always the first second. The seconds after the window are not the load's: a
     * driver winds down after it (JMeter waits for its agents' last requests and their exit), and counted, that idle
     * tail read as a driver using less CPU than its agents reported (RunIT.jmeterAgentsShareEveryTargetsLoad).
     */
    public List<Double> series(Duration window) {
        double end = window.toMillis() / 1000.0 + 0.5;
        synchronized (perSecond) {
            List<Double> out = new ArrayList<>();
            for (int i = 0; i < perSecond.size() && (i == 0 || perSecond.get(i)[0] <= end); i++) {
                out.add(perSecond.get(i)[1]);
            }
            return out;
        }
    }

    /** The mean over the seconds of {@code window}, as {@link #series(Duration)} counts them. */
    public double mean(Duration window) {
        return series(window).stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** Whether a driver (the lab's, or a JMeter agent) at {@code meanPct} of one core used at least {@link #SATURATED} of its {@code cpus}. */
    static boolean saturated(double meanPct, int cpus) {
        return meanPct >= SATURATED * 100 * cpus;
    }

    public int cpus() {
        return cpus;
    }

    /** results.json's driver section over the measured {@code window}. */
    public DriverCheck check(Duration window) {
        double mean = mean(window);
        double max = series(window).stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new DriverCheck(cpus(), Result.round(mean), Result.round(max), saturated(mean, cpus), !saturated(mean, cpus), null);
    }
}
