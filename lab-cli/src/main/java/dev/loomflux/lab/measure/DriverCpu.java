package dev.loomflux.lab.measure;

import dev.loomflux.lab.result.DriverCheck;
import dev.loomflux.lab.result.Result;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver's self-check: the lab JVM is the load driver, so its own CPU use per second tells
 * whether the driver, not the target, was the bottleneck (seed 000 ran k6 on the server's cores).
 */
public final class DriverCpu implements AutoCloseable {
    /** Above this share of its CPU set, the driver may have limited the load it offered. */
    static final double SATURATED = 0.90;

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final int cpus;
    private final List<Double> perSecond = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean running = true;

    public DriverCpu(int cpus) {
        this.cpus = cpus;
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
            long wall = System.nanoTime();
            synchronized (perSecond) {
                perSecond.add(100.0 * (cpu - lastCpu) / (wall - lastWall));
            }
            lastCpu = cpu;
            lastWall = wall;
        }
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
        return mean() >= SATURATED * 100 * cpus;
    }

    public int cpus() {
        return cpus;
    }

    /** results.json's driver section. */
    DriverCheck check() {
        return new DriverCheck(cpus(), Result.round(mean()), Result.round(max()), saturated(), !saturated());
    }
}
