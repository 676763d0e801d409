package dev.loomflux.lab.telemetry;

import dev.loomflux.lab.limits.Cgroup;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import oshi.SystemInfo;
import oshi.software.os.OperatingSystem;

/**
 * Samples the target, stub and database processes once per second from the lab's own JVM, so the
 * load driver's CPU never mixes into the target's figures (host-wide tools mix them). Readings are
 * kept for the whole run; callers cut them into phases by time.
 */
public final class ResourceSampler implements AutoCloseable {
    public static final Duration PERIOD = Duration.ofSeconds(1);

    private final OperatingSystem os = new SystemInfo().getOperatingSystem();
    private final Map<String, ProcessGroup> groups = new LinkedHashMap<>();
    private final Map<String, List<Reading>> readings = new LinkedHashMap<>();
    private final Thread thread;
    private volatile Supplier<Cgroup> targetGroup = () -> null;
    private final List<GroupReading> groupReadings = new ArrayList<>();
    private volatile boolean running = true;
    private volatile long cpuNanos;
    private volatile long ticks;

    public ResourceSampler() {
        thread = new Thread(this::loop, "loomflux-resource-sampler");
        thread.setDaemon(true);
    }

    /** Adds a role; {@code pids} is asked at every tick, so processes may come and go. */
    public ResourceSampler watch(String role, Supplier<List<Long>> pids) {
        return watch(role, pids, false);
    }

    /** @param jvm the role is a JVM whose JIT counters are read too */
    public synchronized ResourceSampler watch(String role, Supplier<List<Long>> pids, boolean jvm) {
        groups.put(role, new ProcessGroup(os, pids, jvm));
        readings.put(role, new ArrayList<>());
        return this;
    }

    /** The target's cgroup when it runs limited, asked at every tick: its accounting is read with the processes'. */
    public ResourceSampler watchTargetGroup(Supplier<Cgroup> group) {
        targetGroup = group;
        return this;
    }

    /** The target cgroup's cumulative counters at one tick. */
    public record GroupReading(long epochMs, Cgroup.Usage usage) {
    }

    /** Readings of the target's cgroup taken in (fromMs, toMs]. */
    public synchronized List<GroupReading> groupReadings(long fromMs, long toMs) {
        return groupReadings.stream().filter(r -> r.epochMs() > fromMs && r.epochMs() <= toMs).toList();
    }

    public ResourceSampler start() {
        thread.start();
        return this;
    }

    /** Readings of a role taken in (fromMs, toMs]: each covers the second before it. */
    public synchronized List<Reading> readings(String role, long fromMs, long toMs) {
        List<Reading> all = readings.getOrDefault(role, List.of());
        return all.stream().filter(r -> r.epochMs() > fromMs && r.epochMs() <= toMs).toList();
    }

    public synchronized boolean watches(String role) {
        return groups.containsKey(role);
    }

    /** CPU the sampler thread itself has used per tick, for docs/telemetry.md's overhead figure. */
    public double cpuMicrosPerTick() {
        return ticks == 0 ? 0 : cpuNanos / 1000.0 / ticks;
    }

    private void loop() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long next = System.currentTimeMillis();
        while (running) {
            long c0 = mx.getCurrentThreadCpuTime();
            tick(System.currentTimeMillis());
            cpuNanos += mx.getCurrentThreadCpuTime() - c0;
            ticks++;
            next += PERIOD.toMillis();
            long sleep = next - System.currentTimeMillis();
            if (sleep < 0) {
                next = System.currentTimeMillis();
                continue;
            }
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void tick(long now) {
        groups.forEach((role, group) -> {
            try {
                Reading r = group.read(now);
                if (r != null) {
                    readings.get(role).add(r);
                }
            } catch (RuntimeException e) {
                // A process that exits mid-read, or an OS that denies a field: skip this reading, never fail the run.
            }
        });
        Cgroup group = targetGroup.get();
        if (group != null) {
            try {
                groupReadings.add(new GroupReading(now, group.usage()));
            } catch (RuntimeException e) {
                // The group is being removed with its target.
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
