package dev.loomflux.lab.telemetry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/**
 * The processes that play one role (the target, the stub, the database), read through OSHI. CPU is
 * the growth of kernel + user time between two readings; a process that appeared since the previous
 * reading counts all of its CPU time, one that vanished counts none of its last second.
 */
final class ProcessGroup {
    private final OperatingSystem os;
    private final Supplier<List<Long>> pids;
    private Map<Long, Long> lastCpuMs = new HashMap<>();
    private long lastEpochMs = -1;

    ProcessGroup(OperatingSystem os, Supplier<List<Long>> pids) {
        this.os = os;
        this.pids = pids;
    }

    /** @return null on the first call (no interval yet) or when no process of the group is alive */
    Reading read(long nowMs) {
        Map<Long, Long> cpuMs = new HashMap<>();
        long cpuDelta = 0;
        long rss = 0;
        int threads = 0;
        long fds = 0;
        for (long pid : pids.get()) {
            OSProcess p = os.getProcess((int) pid);
            if (p == null) {
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
        }
        long previous = lastEpochMs;
        lastCpuMs = cpuMs;
        lastEpochMs = nowMs;
        if (previous < 0 || cpuMs.isEmpty() || nowMs <= previous) {
            return null;
        }
        return new Reading(nowMs, 100.0 * cpuDelta / (nowMs - previous), rss / 1048576.0, threads, fds);
    }
}
