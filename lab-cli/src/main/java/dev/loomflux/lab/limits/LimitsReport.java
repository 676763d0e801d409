package dev.loomflux.lab.limits;

/**
 * A result's "limits": what the limits did to one measured window, from the cgroup's own accounting.
 * cpu_pct counts every thread and child of the target: a cross-check of the process sampler's.
 */
public record LimitsReport(Double cpus, Long memoryMb, double cpuPct, long periods, long throttledPeriods, double throttledPct, double throttledS,
                           double memoryEndMb, double memoryPeakMb, long oomKills) {

    /** @param start read as the measured load began, {@code end} as it ended */
    public static LimitsReport of(ResourceLimits limits, Cgroup.Usage start, Cgroup.Usage end) {
        Cgroup.Change c = end.since(start);
        return new LimitsReport(limits.cpus() > 0 ? limits.cpus() : null, limits.memoryBytes() > 0 ? limits.memoryBytes() / (1 << 20) : null,
                round(c.cpuPct()), c.periods(), c.throttledPeriods(), round(c.throttledPct()), round(c.throttledSeconds()),
                round(end.memoryBytes() / 1048576.0), round(end.peakMemoryBytes() / 1048576.0), end.oomKills());
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
