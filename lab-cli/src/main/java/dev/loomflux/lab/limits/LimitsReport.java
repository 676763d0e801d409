package dev.loomflux.lab.limits;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the limits did to one measured window, from the cgroup's own accounting (results.json "limits"). */
public final class LimitsReport {
    private LimitsReport() {
    }

    /** @param start read as the measured load began, {@code end} as it ended */
    public static Map<String, Object> of(ResourceLimits limits, Cgroup.Usage start, Cgroup.Usage end) {
        Cgroup.Change c = end.since(start);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpus", limits.cpus() > 0 ? limits.cpus() : null);
        m.put("memory_mb", limits.memoryBytes() > 0 ? limits.memoryBytes() / (1 << 20) : null);
        // Every thread and child of the target, counted by the kernel: a cross-check of the process sampler's cpu_pct.
        m.put("cpu_pct", round(c.cpuPct()));
        m.put("periods", c.periods());
        m.put("throttled_periods", c.throttledPeriods());
        m.put("throttled_pct", round(c.throttledPct()));
        m.put("throttled_s", round(c.throttledSeconds()));
        m.put("memory_end_mb", round(end.memoryBytes() / 1048576.0));
        m.put("memory_peak_mb", round(end.peakMemoryBytes() / 1048576.0));
        m.put("oom_kills", end.oomKills());
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
