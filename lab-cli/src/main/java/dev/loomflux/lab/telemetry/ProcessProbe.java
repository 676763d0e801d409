package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import oshi.SystemInfo;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/**
 * One process's CPU time, resident memory, collector and JIT time, and its threads' scheduling, at a moment: read at a block's start
 * and end, the difference is what the block cost. The 1 s resource sampler cannot cut a 5 s block
 * at its edges; two readings can (CPU time to the kernel's 10 ms tick).
 */
public final class ProcessProbe {
    /**
     * @param cpuMs user + system CPU time so far
     * @param gcMs  the JVM's stop-the-world collection time so far; -1 where it publishes none
     * @param jitMs the time its finished JIT compilations took so far (hsperfdata java.ci.totalTime); -1 where it publishes none
     * @param jitCompiles its JIT compilations so far; -1 where it publishes none
     * @param threads its OS threads' time on and waiting for a CPU so far
     */
    public record Snapshot(long cpuMs, double rssMb, double gcMs, double jitMs, long jitCompiles, ThreadTimes threads) {
    }

    private final OperatingSystem os = new SystemInfo().getOperatingSystem();
    private final long pid;
    private Optional<Path> perf;

    public ProcessProbe(long pid) {
        this.pid = pid;
    }

    /** Null when the process is gone. */
    public Snapshot read() {
        OSProcess p = os.getProcess((int) pid);
        if (gone(p)) {
            return null;
        }
        Map<String, Long> c = counters();
        return new Snapshot(p.getKernelTime() + p.getUserTime(), p.getResidentSetSize() / 1048576.0, gcMs(c), jitMs(c), c.getOrDefault("sun.ci.totalCompiles", -1L),
                ThreadTimes.read(pid));
    }

    /**
     * Exited, or exiting: a JVM that ran out of heap was once sampled with its memory already released
     * (0 MB resident, 2 threads, no open files), and that second stood as its last in the series.
     */
    static boolean gone(OSProcess p) {
        return p == null || p.getState() == OSProcess.State.ZOMBIE || p.getState() == OSProcess.State.INVALID
                || p.getResidentSetSize() == 0;
    }

    /** The JVM's hsperfdata counters; empty where it publishes none. */
    private Map<String, Long> counters() {
        if (perf == null || perf.isEmpty()) {
            perf = HsPerfData.fileOf(pid);
        }
        if (perf.isEmpty()) {
            return Map.of();
        }
        try {
            return HsPerfData.read(perf.get());
        } catch (IOException e) {
            perf = null;
            return Map.of();
        }
    }

    private static double gcMs(Map<String, Long> c) {
        long ticks = 0;
        boolean any = false;
        // 0 and 1 are the stop-the-world collectors (G1 young and full; Serial, Parallel); G1's 2 is its concurrent cycle.
        for (int i = 0; i < 2; i++) {
            Long t = c.get("sun.gc.collector." + i + ".time");
            if (t != null) {
                ticks += t;
                any = true;
            }
        }
        return any ? millis(c, ticks) : -1;
    }

    private static double jitMs(Map<String, Long> c) {
        Long ticks = c.get("java.ci.totalTime");
        return ticks == null ? -1 : millis(c, ticks);
    }

    private static double millis(Map<String, Long> c, long ticks) {
        Long hz = c.get("sun.os.hrt.frequency");
        return hz == null || hz <= 0 ? -1 : ticks * 1000.0 / hz;
    }
}
