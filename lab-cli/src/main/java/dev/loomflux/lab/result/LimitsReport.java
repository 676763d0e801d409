package dev.loomflux.lab.result;

/**
 * A result's "limits": what the limits did to one measured window, from the cgroup's own accounting.
 * cpu_pct counts every thread and child of the target: a cross-check of the process sampler's.
 */
public record LimitsReport(Double cpus, Long memoryMb, double cpuPct, long periods, long throttledPeriods, double throttledPct, double throttledS,
                           double memoryEndMb, double memoryPeakMb, long oomKills) {
}
