package dev.loomflux.lab.telemetry;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/**
 * The processes that play one role (the target, the stub, the database), read through OSHI. CPU is
 * the growth of kernel + user time between two readings; a process that appeared since the previous
 * reading counts all of its CPU time, one that vanished counts none of its last second. A role
 * watched as a JVM also reads its JIT counters from hsperfdata.
 */
final class ProcessGroup {
    private final OperatingSystem os;
    private final Supplier<List<Long>> pids;
    private final boolean jvm;
    private final Map<Long, Optional<Path>> perfFiles = new HashMap<>();
    private final Map<Long, CompilerThreads> compilers = new HashMap<>();
    private Map<Long, Long> lastCpuMs = new HashMap<>();
    private long lastEpochMs = -1;

    ProcessGroup(OperatingSystem os, Supplier<List<Long>> pids, boolean jvm) {
        this.os = os;
        this.pids = pids;
        this.jvm = jvm;
    }

    /** @return null on the first call (no interval yet) or when no process of the group is alive */
    Reading read(long nowMs) {
        Map<Long, Long> cpuMs = new HashMap<>();
        long cpuDelta = 0;
        long rss = 0;
        int threads = 0;
        long fds = 0;
        Reading.Jit jit = null;
        for (long pid : pids.get()) {
            OSProcess p = os.getProcess((int) pid);
            if (ProcessProbe.gone(p)) {
                continue;
            }
            long cpu = p.getKernelTime() + p.getUserTime();
            cpuMs.put(pid, cpu);
            Long before = lastCpuMs.get(pid);
            if (before != null) {
                cpuDelta += Math.max(0, cpu - before);
            } else if (lastEpochMs >= 0 && p.getStartTime() >= lastEpochMs) {
                cpuDelta += cpu;
            }
            rss += p.getResidentSetSize();
            threads += p.getThreadCount();
            fds = fds < 0 || p.getOpenFiles() < 0 ? -1 : fds + p.getOpenFiles();
            if (jvm && jit == null) {
                jit = jit(pid);
            }
        }
        perfFiles.keySet().retainAll(cpuMs.keySet());
        compilers.keySet().retainAll(cpuMs.keySet());
        long previous = lastEpochMs;
        lastCpuMs = cpuMs;
        lastEpochMs = nowMs;
        if (previous < 0 || cpuMs.isEmpty() || nowMs <= previous) {
            return null;
        }
        return new Reading(nowMs, 100.0 * cpuDelta / (nowMs - previous), rss / 1048576.0, threads, fds, jit);
    }

    /** Looked up until found: a JVM creates its hsperfdata file a moment after it starts. */
    private Reading.Jit jit(long pid) {
        Optional<Path> file = perfFiles.get(pid);
        if (file == null || file.isEmpty()) {
            file = HsPerfData.fileOf(pid);
            perfFiles.put(pid, file);
        }
        if (file.isEmpty()) {
            return null;
        }
        try {
            Map<String, Long> c = HsPerfData.read(file.get());
            Long compiles = c.get("sun.ci.totalCompiles");
            Long ticks = c.get("java.ci.totalTime");
            Long hz = c.get("sun.os.hrt.frequency");
            if (compiles == null || ticks == null || hz == null || hz <= 0) {
                return null;
            }
            // The JVM is the one with the hsperfdata file (a wrapper's java may be a descendant).
            long jvmPid = Long.parseLong(file.get().getFileName().toString());
            return new Reading.Jit(compiles, ticks * 1000.0 / hz, compilers.computeIfAbsent(pid, p -> new CompilerThreads(jvmPid)).cpuMs());
        } catch (IOException e) {
            perfFiles.remove(pid);
            return null;
        }
    }
}
